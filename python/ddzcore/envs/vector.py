"""A native vector environment: K Dou Dizhu games stepped in C (docs/rules.md §3-4, §6).

``VectorEnv(num_envs, rules=None, encoding="compact", seed=0, threads=1,
seats=(0, 1, 2), bot="random")`` holds K games of the play phase (出牌): each
deal gives 17 cards to each seat and 3 bottom cards (底牌); the landlord (地主)
is drawn uniformly per game from the seed, takes the bottom cards and leads.
No calling or robbing: the game is the play phase as ``Game`` plays it after
the landlord called (base 1, no robs, no show cards, no doubling).

The caller acts for the seats in ``seats``; the others are played in C by
``bot`` (``"random"``: a uniformly random legal move from the game's own
PRNG).  With all three seats (self-play, the default) every step is one move
of each game; with one seat a step is the learner's move and the bots'
replies.

Actions are the rules' dense action ids: the index of a move in
``ddzcore.action_space(rules)`` (0 is pass).  ``reset()`` and ``step(actions)``
write into arrays allocated once (attributes of the environment, overwritten
by the next call: copy what you keep) and return them:

======================  ===============  =======  ===================================================
name                    shape            dtype    meaning
======================  ===============  =======  ===================================================
``obs`` (compact)       (K, 148)         int8     the seat to move's view, ``COMPACT_LAYOUT``
``action_mask``         (K, A)           bool     legal action ids of the seat to move
``legal_ids``           (K, 1024)        int32    the legal ids, ``legal_ids[k, :n_legal[k]]``,
                                                  in the kernel's move order
``n_legal``             (K,)             int32    how many legal moves
``seat``                (K,)             int8     the seat to move (0-2)
``landlord``            (K,)             int8     the landlord's seat
``rewards``             (K, 3)           float32  points of seats 0, 1, 2 for a game that ended
                                                  this step (docs/rules.md §6), else 0
``terminations``        (K,)             bool     the game ended this step
``truncations``         (K,)             bool     always False (a game ends within 168 moves)
======================  ===============  =======  ===================================================

``douzero`` encoding (DouZero's ``get_obs`` features, from the compiled
``ddzcore._douzero``; no compact ``obs``): ``x`` float32 (R, 484), one row per
legal move, game k's rows ``x[offsets[k]:offsets[k + 1]]`` in ``legal_ids``
order (a landlord's rows use the first 373 columns, the rest are 0);
``offsets`` int64 (K + 1,); ``z`` float32 (K, 5, 162), the last 15 moves
(DouZero repeats it per row: ``z[np.repeat(np.arange(K), n_legal)]``);
``position`` int8 (K,): DouZero's position of the seat to move (0 landlord,
1 landlord_up, 2 landlord_down).  ``x`` grows (a new array) when a step has
more legal moves than it holds.

Points (docs/rules.md §6): X = 2 ** (bombs and rockets played), ×2 for a
spring (春天) or anti-spring (反春); the landlord wins or loses 2X, each farmer
X, as ``Game.returns()`` for the same play.

Autoreset is **same-step** (Gymnasium's ``AutoresetMode.SAME_STEP``): when a
game ends during ``step``, its reward and termination are returned with the
first observation of the next game; ``final_obs`` (K, 148) int8 holds the
finished game's last position as the acting seat saw it (after its move,
compact encoding only) and ``final_landlord``, ``final_winner`` (the seat
that went out), ``final_multiplier`` (X) and ``final_plies`` describe it;
these are valid where ``terminations`` is True.  A deal the bots finish
before any learner moves is dealt again.

Determinism: game k draws its deals, landlords and bot moves from a PRNG
seeded from (seed, k) alone, so the same seed and actions give the same games
for any ``threads``.

Bad input: ``step`` raises ``EnvActionError`` (an ``IllegalActionError``, a
``ValueError``) naming the first game whose action is not in its mask, and
``InvalidArgumentError`` for actions of the wrong shape or dtype; either way
no game changes.  ``EnvStateError`` for a step before ``reset()``, or when a
game leaves the kernel's limits (more than 1024 legal moves, a legal move
outside the action space: no one-deck rules reach them), after which the
environment needs ``reset()``.

Random actions: ``sample_actions()`` draws a uniformly random legal id per
game into ``actions`` (int64 (K,)) from the game's own action PRNG (seeded
from ``(seed, k)``), and ``step_random()`` is ``step(sample_actions())`` in
one native pass, for self-play baselines and benchmarks.

Threads: with ``threads=n``, n - 1 persistent native workers and the
calling thread step the games with the GIL released, each claiming blocks
of games (its own share first, then what the others have not reached);
the workers sleep when the environment is idle, and ``close()`` (or the
``with`` block's end) stops them.
"""

from __future__ import annotations

import threading
from typing import Any, Optional

import numpy as np

from .. import _vecenv
from ..cards import Hand
from ..errors import EnvStateError, InvalidArgumentError, InvalidRulesError
from ..game.base import _FLOW_FIELDS  # the game-flow fields of Rules, which the play phase's action space ignores
from ..moves import action_space
from ..rules import Rules

__all__ = ["VectorEnv", "COMPACT_LAYOUT", "COMPACT_SIZE"]

#: The compact observation: (name, start, stop) byte slices of ``obs[k]``.
COMPACT_LAYOUT: tuple[tuple[str, int, int], ...] = _vecenv.COMPACT_LAYOUT
COMPACT_SIZE: int = _vecenv.COMPACT_SIZE
_ENCODINGS = ("compact", "douzero")


def _int(v: object, name: str, lo: int, hi: int) -> int:
    if isinstance(v, np.integer):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise InvalidArgumentError(f"{name} must be an int in {lo}..{hi}, not {v!r}")
    return v


class VectorEnv:
    """K play-phase games stepped natively; see the module docstring for the
    buffers, rewards (points), autoreset and determinism.

    - ``num_envs``: K >= 1.
    - ``rules``: a one-deck ``Rules`` or preset name without wild cards
      (``InvalidRulesError`` otherwise: laizi moves have no dense ids).
    - ``encoding``: ``"compact"`` or ``"douzero"``.
    - ``seed``: an int 0..2**64-1; ``threads``: worker threads (>= 1).
    - ``seats``: the seats the caller plays; ``bot``: who plays the others.
    """

    def __init__(self, num_envs: int, rules: "Rules | str | None" = None, encoding: str = "compact",
                 seed: int = 0, threads: int = 1, seats: "tuple[int, ...] | list[int]" = (0, 1, 2),
                 bot: str = "random") -> None:
        K = _int(num_envs, "num_envs", 1, 1 << 24)
        self.rules = Rules.coerce(rules)
        if self.rules.decks != 1 or self.rules.laizi or self.rules.wild is not None:
            raise InvalidRulesError("VectorEnv plays one deck without wild cards (dense action ids, docs/rules.md §2)")
        if encoding not in _ENCODINGS:
            raise InvalidArgumentError(f"encoding must be one of {_ENCODINGS}, not {encoding!r}")
        if bot not in _vecenv.BOT_NAMES:
            raise InvalidArgumentError(f"bot must be one of {_vecenv.BOT_NAMES}, not {bot!r}")
        seat_list = [_int(s, "a seat", 0, 2) for s in seats]
        if not seat_list:
            raise InvalidArgumentError("seats must name at least one seat")
        self.num_envs = K
        self.encoding = encoding
        self.seats = tuple(sorted(set(seat_list)))
        self.threads = _int(threads, "threads", 1, 256)
        self._seed = _int(seed, "seed", 0, (1 << 64) - 1)
        defaults = Rules()
        self.space = action_space(self.rules.replace(**{f: getattr(defaults, f) for f in _FLOW_FIELDS}))
        A = len(self.space)
        dz = encoding == "douzero"
        b: dict[str, np.ndarray] = {
            "obs": np.zeros((0 if dz else K, COMPACT_SIZE), np.int8),
            "final_obs": np.zeros((0 if dz else K, COMPACT_SIZE), np.int8),
            "mask": np.zeros((K, A), np.bool_),
            "legal_ids": np.zeros((K, _vecenv.MAX_LEGAL), np.int32),
            "n_legal": np.zeros(K, np.int32),
            "seat": np.zeros(K, np.int8),
            "landlord": np.zeros(K, np.int8),
            "rewards": np.zeros((K, 3), np.float32),
            "dones": np.zeros(K, np.bool_),
            "final_landlord": np.full(K, -1, np.int8),
            "final_winner": np.full(K, -1, np.int8),
            "final_multiplier": np.zeros(K, np.int32),
            "final_plies": np.zeros(K, np.int32),
            "rows": np.zeros((K if dz else 0, 30), np.uint64),
            "position": np.zeros(K if dz else 0, np.int8),
            "z": np.zeros((K if dz else 0, 5, 162), np.float32),
            "actions": np.zeros(K, np.int64),
        }
        self._b = b
        self.action_mask = b["mask"]
        self.legal_ids, self.n_legal = b["legal_ids"], b["n_legal"]
        self.seat, self.landlord, self.rewards = b["seat"], b["landlord"], b["rewards"]
        self.terminations, self.truncations = b["dones"], np.zeros(K, np.bool_)
        self.obs, self.final_obs = b["obs"], b["final_obs"]
        self.final_landlord, self.final_winner = b["final_landlord"], b["final_winner"]
        self.final_multiplier, self.final_plies = b["final_multiplier"], b["final_plies"]
        self.z, self.position = b["z"], b["position"]
        self.actions = b["actions"]
        self.x = np.zeros((16 * K if dz else 0, _vecenv.DOUZERO_WIDTH), np.float32)
        self.offsets = np.zeros(K + 1, np.int64)
        learners = sum(1 << s for s in self.seats)
        self._ready = False
        self._core = _vecenv.VecCore(K, self.rules.flags, learners, _vecenv.BOT_NAMES.index(bot), dz,
                                     self.space.codes, b, self.threads)
        self._core.seed(self._seed)
        # Persistent workers: each releases the GIL for its whole life and
        # sleeps between steps; the calling thread is the n-th.
        self._workers = [threading.Thread(target=self._core.serve, args=(t,), daemon=True,
                                          name=f"VectorEnv-{t}") for t in range(1, self._core.threads)]
        for w in self._workers:
            w.start()

    # -- running the native core on every game -------------------------------------------
    def _run(self, phase: int, actions: Optional[np.ndarray] = None) -> None:
        core = self._core
        fail = core.run_all(phase) if actions is None else core.step(actions)
        if fail is not None:
            k, code = fail
            self._ready = False
            what = (f"more than {_vecenv.MAX_LEGAL} legal moves" if code == 1
                    else "a legal move outside the action space")
            raise EnvStateError(f"env {k}: {what} (rules {self.rules!r}); the environment needs reset()", env=k)
        if self.encoding == "douzero" and phase != _vecenv.ROWS:
            np.cumsum(self.n_legal, out=self.offsets[1:])
            total = int(self.offsets[-1])
            if total > len(self.x):
                self.x = np.zeros((2 * total, _vecenv.DOUZERO_WIDTH), np.float32)
            core.set_rows(self.x, self.offsets)
            self._run(_vecenv.ROWS)

    def _observation(self) -> dict[str, np.ndarray]:
        if self.encoding == "compact":
            return {"observation": self.obs, "action_mask": self.action_mask}
        return {"x": self.x, "offsets": self.offsets, "z": self.z, "position": self.position,
                "action_mask": self.action_mask}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "landlord": self.landlord, "legal_ids": self.legal_ids,
                                "n_legal": self.n_legal, "final_landlord": self.final_landlord,
                                "final_winner": self.final_winner, "final_multiplier": self.final_multiplier,
                                "final_plies": self.final_plies}
        if self.encoding == "compact":
            info["final_obs"] = self.final_obs
        return info

    def deal(self, k: int) -> tuple[tuple[Hand, Hand, Hand], Hand, int]:
        """Game k's current deal: the three hands as dealt (before the
        landlord takes the bottom cards), the bottom cards and the landlord's
        seat; with ``Game(rules, deal=(*hands, bottom), first=landlord)`` and
        the landlord calling, ``Game`` replays it (docs/rules.md §4).
        ``InvalidArgumentError`` for k outside 0..K-1."""
        hands, bottom, landlord = self._core.start_of(_int(k, "env index", 0, self.num_envs - 1))
        return (Hand._trusted(hands[0]), Hand._trusted(hands[1]), Hand._trusted(hands[2])), \
            Hand._trusted(bottom), int(landlord)

    # -- the Gymnasium-style interface ---------------------------------------------------
    def reset(self, seed: Optional[int] = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game in every env (reseeding every game's PRNG from
        ``seed`` when given); returns ``(observation, info)``: dicts of the
        buffers (see the module docstring)."""
        if seed is not None:
            self._seed = _int(seed, "seed", 0, (1 << 64) - 1)
            self._core.seed(self._seed)
        self.action_mask[:] = False
        self._run(_vecenv.RESET)
        self._ready = True
        return self._observation(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action id per game (an integer array of shape (K,)) for
        its seat to move, then the bots; returns ``(observation, rewards,
        terminations, truncations, info)`` (same-step autoreset).  Raises
        ``EnvActionError`` (an ``IllegalActionError``) naming the first game
        whose action is not in its ``action_mask``, ``InvalidArgumentError``
        for a wrong shape or dtype, and ``EnvStateError`` before
        ``reset()``; no game changes then.  Every action is checked (by the
        threads) before any game moves."""
        self._need_ready()
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.dtype.kind not in "iu" or a.shape != (self.num_envs,):
            raise InvalidArgumentError(f"actions must be an integer array of shape ({self.num_envs},), "
                                       f"not {a.dtype} {a.shape}")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            if a.dtype == np.uint64 and a.size and int(a.max()) >= 1 << 63:
                k = int(np.argmax(a >= np.uint64(1 << 63)))
                raise InvalidArgumentError(f"env {k}: action {int(a[k])} is not an action id")
            a = np.ascontiguousarray(a, np.int64)
        self._run(_vecenv.STEP, a)
        return self._observation(), self.rewards, self.terminations, self.truncations, self._info()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action id per game, drawn from each
        game's own action PRNG (seeded from ``(seed, k)`` by the constructor
        and ``reset(seed)``, apart from the game's deals and bots), so the
        draws are the same for any ``threads``.  Returns the ``actions``
        buffer (int64, (K,)), overwritten by the next call; ``EnvStateError``
        before ``reset()``."""
        self._need_ready()
        self._core.run_all(_vecenv.SAMPLE)
        return self.actions

    def step_random(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``step(sample_actions())`` in one native pass (the actions are
        drawn and played game by game, each thread on the games it claims); the
        actions played are left in ``actions``.  ``EnvStateError`` before
        ``reset()``."""
        self._need_ready()
        self._run(_vecenv.RANDOM)
        return self._observation(), self.rewards, self.terminations, self.truncations, self._info()

    def _need_ready(self) -> None:
        if not self._ready:
            raise EnvStateError("the environment has no games to step: call reset() first "
                                "(after construction, or after an EnvStateError)")

    def close(self) -> None:
        """Stop the worker threads (later steps run in the calling thread alone)."""
        workers, self._workers = getattr(self, "_workers", []), []
        if workers:
            self._core.stop()
            for w in workers:
                w.join()

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<VectorEnv {self.num_envs} games, {self.encoding}, seats {self.seats}, "
                f"threads {self.threads}, {self.rules!r}>")
