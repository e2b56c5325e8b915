"""One table for the learning environments: a game, its action ids, its
encodings and its rewards, without any framework (docs/rules.md §3-8).

``Table`` is what ``ddzcore.envs.pettingzoo`` and ``ddzcore.envs.gymnasium``
wrap.  It deals a ``Game`` (three players, every ``Rules`` preset, laizi
included) or a ``FiveGame`` (``players=5``), plays the whole flow or only
the play phase, and turns actions into integer ids and back.

**Action ids** (``actions="dense"``, the default outside laizi): the
game's dense ids (``Game.action_id``): a flow action is its enum value
(``Action`` 0-11, ``FiveAction`` 10-14), a move ``MOVE_ID_BASE`` (16) plus
its index in ``action_space(rules)``; with five players a move playing
``k`` marked cards (``MarkedMove``, docs/rules.md §8) is ``16 + 3 ×``
index ``+ k`` in the two-deck space (``max_cards=24``), as
``FiveGame.action_id`` numbers it.  Laizi
rooms (docs/rules.md §7) have no practical dense ids (about 1.5 million
moves per wild rank): there ``actions="legal"`` (also available for any
rules) numbers the current legal actions ``0..n-1`` in the order
``legal_actions()`` lists them, within ``Discrete(max_legal)``.

**Encodings** (the ``observation`` array, float32 or int8, one fixed shape
for every seat):

- ``"compact"`` (every rule set, both games, every phase), float32 of
  length ``compact_size(players)``, seats relative to the observer (0 =
  itself, then in turn order), card counts per rank 3..2, B, R (15 numbers,
  not normalised):
  own hand (15); cards unseen by the observer: deck minus own hand, cards
  played and hands shown (15); each other seat's shown hand (15 each, zero
  if hidden); cards each seat has played (15 each); the move to beat (15)
  and who played it (one-hot per seat); cards each seat holds (1 each);
  the landlords the observer knows (one-hot per seat); the seat to act
  (one-hot per seat); the phase (one-hot: 10 phases, 4 with five players);
  the wild rank once announced (one-hot 13, laizi); the bottom cards when
  visible (15); the base score and log2 of the multiplier so far (2).
- ``"douzero"`` (three players, ``phases="play"``): DouZero's features
  without the action: ``x_no_action`` (319 for the landlord, 430 for a
  farmer, padded with zeros to 430) then ``z`` (5 × 162), int8 of length
  1240; byte-identical to DouZero's ``get_obs`` under ``Rules.preset("douzero")``
  (``ddzcore.interop.douzero``).
- ``"rlcard"`` (three players, ``phases="play"``): RLCard's ``obs`` (790
  for the landlord, 901 for a farmer, padded with zeros to 901), int8.

**Rewards** at the end of a game: ``"points"`` (``Game.returns()``,
zero-sum) or ``"beans"`` (``settlement().net``: the room's coefficient,
rake and caps, docs/rules.md §6; give a ``Room`` and beans).
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import _douzero
from ..moves import ActionSpace, action_space
from ..errors import EnvActionError, InvalidArgumentError, InvalidRulesError
from ..game.five import FiveGame, FiveObservation, FivePhase
from ..cards import Card
from ..game.three import MOVE_ID_BASE, Action, Game, Phase
from ..moves import Move, MoveList
from ..rules import Rules
from ..game.settlement import Room

__all__ = ["Table", "EnvActionError", "ENCODINGS", "compact_size", "PHASES", "REWARDS"]

ENCODINGS = ("compact", "douzero", "rlcard")
PHASES = ("all", "play")
REWARDS = ("points", "beans")

AnyGame = Union[Game, FiveGame]

_SHIFTS = np.arange(15, dtype=np.uint64) * np.uint64(4)
_NIBBLE = np.uint64(15)
_DECK_WORD = {1: sum(4 << (4 * r) for r in range(13)) + (1 << 52) + (1 << 56),
              2: sum(8 << (4 * r) for r in range(13)) + (2 << 52) + (2 << 56)}
_BOMB_WORDS = frozenset([4 << (4 * r) for r in range(13)] + [(1 << 52) + (1 << 56)])
_DOUZERO_WIDTH = 430 + 5 * 162
_RLCARD_WIDTH = 901


def compact_size(players: int) -> int:
    """Length of the ``"compact"`` encoding for 3 or 5 players."""
    n = players
    return 15 + 15 + 15 * (n - 1) + 15 * n + 15 + n + n + n + n + (10 if n == 3 else 4) + 13 + 15 + 2


def _choice(what: str, value: Any, allowed: Sequence[Any]) -> Any:
    if value not in allowed:
        raise InvalidArgumentError(f"{what} must be one of {list(allowed)}, not {value!r}")
    return value


class Table:
    """A game for learning code, dealt again by ``new_game`` (see the module docstring).

    ``Table(rules=None, players=3, phases="all", landlord=None, encoding="compact",
    reward="points", room=None, beans=None, actions=None, max_legal=32768, on_illegal="raise")``

    - ``rules``: a ``Rules`` or preset name (``"laizi"`` included); with
      ``players=5`` a one-deck preset is played with two decks.
    - ``phases``: ``"all"`` (show cards, calling or bidding, doubling, play:
      as the rules say) or ``"play"`` (the landlord calls, nobody robs,
      shows or doubles: play starts at once; three players: the landlord is
      ``landlord`` or drawn uniformly; five players: the holder of the
      marked card, nobody reveals).
    - ``actions``: ``"dense"`` or ``"legal"`` (default: ``"legal"`` for
      laizi, else ``"dense"``); ``n_actions`` is the size of the id space.
    - ``on_illegal``: what ``play`` does with an action that is not an
      integer id set in the mask: ``"raise"`` ``EnvActionError`` (nothing
      changes), or ``"random"``: play a uniformly random legal action
      instead (for checkers that sample unmasked actions).

    Raises ``InvalidArgumentError`` for a bad option (an encoding the game
    or phases do not support, a landlord with ``phases="all"``),
    ``InvalidRulesError`` for rules the game cannot play.
    """

    def __init__(self, rules: "Rules | str | None" = None, players: int = 3, phases: str = "all",
                 landlord: Optional[int] = None, encoding: str = "compact", reward: str = "points",
                 room: Optional[Room] = None, beans: Optional[Sequence[int]] = None, actions: Optional[str] = None,
                 max_legal: int = 32768, on_illegal: str = "raise") -> None:
        self.on_illegal = _choice("on_illegal", on_illegal, ("raise", "random"))
        self.players = _choice("players", players, (3, 5))
        rules = Rules.coerce(rules)
        if players == 5:
            if rules.laizi or rules.wild is not None:
                raise InvalidRulesError("the five-player game has no laizi (docs/rules.md §8)")
            rules = rules.replace(decks=2)
        self.rules = rules
        self.phases = _choice("phases", phases, PHASES)
        self.encoding = _choice("encoding", encoding, ENCODINGS)
        self.reward = _choice("reward", reward, REWARDS)
        if encoding != "compact" and (players != 3 or phases != "play"):
            raise InvalidArgumentError(f"the {encoding!r} encoding covers the play phase of the three-player game: "
                                       f"use players=3, phases='play' (or encoding='compact')")
        if landlord is not None and (phases != "play" or players != 3 or landlord not in (0, 1, 2)):
            raise InvalidArgumentError(f"landlord={landlord!r}: a given landlord is a seat 0-2 of the three-player "
                                       f"game with phases='play'")
        self.landlord = landlord
        self.room, self.beans = room, beans
        laizi = rules.laizi or rules.wild is not None
        self.actions = _choice("actions", ("legal" if laizi else "dense") if actions is None else actions,
                               ("dense", "legal"))
        if self.actions == "dense" and laizi:
            raise InvalidArgumentError("laizi rooms have no practical dense action ids (docs/rules.md §7): "
                                       "use actions='legal'")
        if self.actions == "legal":
            if not isinstance(max_legal, int) or isinstance(max_legal, bool) or max_legal < 2:
                raise InvalidArgumentError(f"max_legal must be an int >= 2, not {max_legal!r}")
            self.n_actions = max_legal
        else:
            self._space: ActionSpace = action_space(rules, 24 if players == 5 else 20)
            self.n_actions = MOVE_ID_BASE + (3 if players == 5 else 1) * len(self._space)
        self._play_rules = rules.replace(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0,
                                         doubling=False, bidding="call_rob") if players == 3 else rules
        self.obs_size = {"compact": compact_size(players), "douzero": _DOUZERO_WIDTH,
                         "rlcard": _RLCARD_WIDTH}[encoding]
        self.obs_dtype = np.float32 if encoding == "compact" else np.int8
        self.obs_high = 1e6 if encoding == "compact" else 1  #: the encoding's upper bound (its lower is 0)
        self.game: AnyGame = Game()
        self._legal: Optional[dict[int, Any]] = None
        self._moves: list[tuple[int, int]] = []  # (seat, card word) of each play move, passes as 0
        self._played = [0] * self.players  # card words each seat has played (this deal: play follows the last deal)

    # -- dealing -------------------------------------------------------------------------
    def new_game(self, rng: np.random.Generator) -> None:
        """Deal a new game from ``rng`` (the deal, the first caller or landlord, the wild rank)."""
        self._legal, self._moves, self._played = None, [], [0] * self.players
        if self.players == 5:
            self.game = FiveGame(self.rules, seed=rng, room=self.room, beans=self.beans)
            if self.phases == "play":
                while self.game.phase != FivePhase.PLAY:
                    self.game.apply(min(self.game.legal_actions(), key=int))  # type: ignore[arg-type]
            return
        if self.phases == "all":
            self.game = Game(self.rules, seed=rng, room=self.room, beans=self.beans)
            return
        seat = int(rng.integers(3)) if self.landlord is None else self.landlord
        perm = rng.permutation(54).tolist()
        deal = [[Card(c) for c in perm[a:b]] for a, b in ((0, 17), (17, 34), (34, 51), (51, 54))]
        g = Game(self._play_rules, seed=rng, deal=deal, first=seat, room=self.room, beans=self.beans)
        g.apply(Action.CALL)
        while g.phase != Phase.PLAY:
            g.apply(min(g.legal_actions(), key=int))  # the "no" of each phase
        self.game = g

    # -- actions -------------------------------------------------------------------------
    def legal(self) -> dict[int, Any]:
        """The current player's legal actions by id (empty at the end)."""
        if self._legal is None:
            g = self.game
            acts = [] if g.is_terminal() else g.legal_actions()
            if self.actions == "legal":
                if len(acts) > self.n_actions:
                    raise InvalidArgumentError(f"{len(acts)} legal actions here, more than max_legal={self.n_actions}")
                self._legal = dict(enumerate(acts))
            elif isinstance(acts, MoveList):
                self._legal = dict(zip(self._move_ids(acts), acts))
            else:
                self._legal = {self._dense_id(a): a for a in acts}
        return self._legal

    def _move_ids(self, moves: MoveList) -> list[int]:
        """``action_id`` of every move of a ``MoveList``, read from its codes in one pass."""
        ids, stride = self.game._space()._ids, self.game._ID_STRIDE
        try:
            return [MOVE_ID_BASE + stride * ids[(c << 64) | i] for c, i in moves.codes.tolist()]
        except KeyError:
            return [self._dense_id(a) for a in moves]  # raises the game's error for the move outside the space

    def _dense_id(self, a: Any) -> int:
        return self.game.action_id(a)

    def mask(self, seat: int) -> np.ndarray:
        """The action mask of ``seat``: int8 of shape ``(n_actions,)``, all zeros unless it is to act."""
        m = np.zeros(self.n_actions, np.int8)
        if self.game.current_player() == seat:
            m[list(self.legal())] = 1
        return m

    def play(self, action_id: Any, env: str, agent: object, rng: np.random.Generator) -> bool:
        """``apply`` under ``on_illegal``: returns whether an illegal action
        was replaced by a random legal one (drawn from ``rng``)."""
        try:
            self.action(action_id, env, agent)
        except EnvActionError:
            if self.on_illegal == "raise":
                raise
            legal = sorted(self.legal())
            self.apply(legal[int(rng.integers(len(legal)))], env, agent)
            return True
        self.apply(action_id, env, agent)
        return False

    def apply(self, action_id: Any, env: str, agent: object) -> None:
        """Play the action with this id for the current player.  Raises
        ``EnvActionError`` (naming ``env``, ``agent`` and the action) for an
        id that is not an int or not legal now; nothing changes then."""
        self.apply_action(self.action(action_id, env, agent))

    def apply_action(self, a: Any) -> None:
        """Play an action object (``Action``, ``FiveAction``, ``Move``) for the
        current player, checked by the game (``IllegalActionError``)."""
        g = self.game
        seat = g.current_player()
        g.apply(a)
        self._legal = None
        if isinstance(a, Move):
            self._played[seat] += a.codes[0]
            if self.encoding != "compact":
                self._moves.append((seat, a.codes[0]))

    def action(self, action_id: Any, env: str, agent: object) -> Any:
        """The legal action with id ``action_id`` (see ``apply`` for the errors)."""
        if isinstance(action_id, np.ndarray) and action_id.shape == () and action_id.dtype.kind in "iu":
            action_id = action_id.item()
        if isinstance(action_id, bool) or not isinstance(action_id, (int, np.integer)):
            what = f"array of shape {action_id.shape} and dtype {action_id.dtype}" if isinstance(action_id, np.ndarray) \
                else type(action_id).__name__
            raise EnvActionError(f"{env}: action {action_id!r} of {agent} is not an integer action id "
                                 f"({what}); give an int in 0..{self.n_actions - 1}", env, agent, action_id)
        legal = self.legal()
        a = legal.get(int(action_id))
        if a is None:
            if self.game.is_terminal():
                why = "the game is over"
            elif not 0 <= action_id < self.n_actions:
                why = f"ids are 0..{self.n_actions - 1}"
            else:
                why = f"not set in the action mask ({len(legal)} legal: {sorted(legal)[:8]}...)"
            raise EnvActionError(f"{env}: action {int(action_id)} of {agent} is not legal: {why}", env, agent,
                                 int(action_id))
        return a

    # -- rewards -------------------------------------------------------------------------
    def rewards(self) -> list[float]:
        """Each seat's reward once the game is over (points or beans), else zeros."""
        g = self.game
        if not g.is_terminal():
            return [0.0] * self.players
        if self.reward == "beans":
            return [float(x) for x in g.settlement().net]
        return [float(x) for x in g.returns()]

    # -- observations --------------------------------------------------------------------
    def encode(self, seat: int) -> np.ndarray:
        """The ``observation`` array of ``seat`` (see the module docstring)."""
        if self.encoding == "compact":
            return self._compact(seat)
        if self.encoding == "douzero":
            return self._douzero(seat)
        return self._rlcard(seat)

    def _compact(self, seat: int, exact: bool = False) -> np.ndarray:
        g, n = self.game, self.players
        # The information set: Game.observation, or (three players once every card is dealt, the
        # common case) the same public fields read directly, without the history and legal moves
        # that observation() also builds; tests check that both give the same array (exact=True).
        obs: Any = g.observation(seat) if exact or not isinstance(g, Game) or g.phase < Phase.SHOW_LATE \
            else _PublicView(g, seat)
        rel = [(seat + i) % n for i in range(n)]
        played = self._played
        shown = [obs.shown[q].word if q in obs.shown else 0 for q in rel[1:]]
        unseen = _DECK_WORD[self.rules.decks] - obs.hand.word - sum(played) - sum(shown)
        last = obs.last_move
        words = [obs.hand.word, unseen, *shown, *[played[q] for q in rel], 0 if last is None else last.codes[0],
                 0 if obs.bottom is None else obs.bottom.word]
        counts = (np.array(words, np.uint64)[:, None] >> _SHIFTS) & _NIBBLE
        if isinstance(obs, FiveObservation):
            known = {obs.open_landlord} | ({obs.hidden_landlord} if obs.hidden_landlord is not None else set())
        else:
            known = {obs.landlord} if obs.landlord is not None else set()
        flags = [[float(obs.last_player == q) for q in rel], [float(obs.card_counts[q]) for q in rel],
                 [float(q in known) for q in rel], [float(obs.current_player == q) for q in rel]]
        phases = [0.0] * (10 if n == 3 else 4)
        phases[int(obs.phase)] = 1.0
        wild = [0.0] * 13
        if obs.wild is not None:
            wild[int(obs.wild)] = 1.0
        out = np.empty(self.obs_size, np.float32)
        k = 15 * (len(words) - 1)
        out[:k] = counts[:-1].reshape(-1)
        tail = [x for f in flags for x in f] + phases + wild
        out[k:k + len(tail)] = tail
        k += len(tail)
        out[k:k + 15] = counts[-1]
        out[k + 15:] = (obs.base, math.log2(obs.multiplier.total))
        return out

    def _play_view(self, seat: int) -> tuple[int, list[int], list[int]]:
        """(landlord, play-move words by seat, each seat's last word) of the play so far."""
        g = cast_game(self.game)
        played, last = [0, 0, 0], [0, 0, 0]
        for s, w in self._moves:
            played[s] += w
            last[s] = w
        assert g.landlord is not None
        return g.landlord, played, last

    def _douzero(self, seat: int) -> np.ndarray:
        g = cast_game(self.game)
        landlord, played, last = self._play_view(seat)
        pos = [landlord, (landlord + 2) % 3, (landlord + 1) % 3]  # DouZero's landlord, landlord_up, landlord_down
        p = pos.index(seat)
        hands = [h.word for h in g.hands]
        seq = [w for _, w in self._moves]
        tail = seq[-15:]
        last_move = (seq[-2] if len(seq) > 1 and not seq[-1] else seq[-1]) if seq else 0
        row = np.array([p, hands[seat], sum(hands) - hands[seat], last_move, *[played[q] for q in pos],
                        *[last[q] for q in pos], *[len(g.hand(q)) for q in pos],
                        sum(w in _BOMB_WORDS for w in seq), len(tail), *tail, *([0] * (15 - len(tail)))], np.uint64)
        width = 373 if p == 0 else 484
        x_no_action = np.zeros(width - 54, np.int8)
        z = np.empty((5, 162), np.int8)
        _douzero.encode(row, np.zeros(0, np.uint64), np.empty((0, width), np.float32), np.empty((0, 5, 162), np.float32),
                        x_no_action, z)
        out = np.zeros(_DOUZERO_WIDTH, np.int8)
        out[:width - 54] = x_no_action
        out[430:] = z.reshape(-1)
        return out

    def _rlcard(self, seat: int) -> np.ndarray:
        g = cast_game(self.game)
        landlord, played_by_seat, _ = self._play_view(seat)
        seats = [(landlord + i) % 3 for i in range(3)]  # RLCard's player ids: the landlord is 0
        me = seats.index(seat)
        played = [played_by_seat[s] for s in seats]
        left = [len(g.hand(s)) for s in seats]
        trace = [(seats.index(s), w) for s, w in self._moves]
        hands = [h.word for h in g.hands]
        words = [hands[seat], sum(hands) - hands[seat]]
        words.append(0 if not trace else trace[-2][1] if len(trace) > 1 and not trace[-1][1] else trace[-1][1])
        seq = [w for _, w in trace[-9:]]
        words += [0] * (9 - len(seq)) + seq
        if me == 0:
            words += [played[2], played[1]]
            hots = ((left[2], 17), (left[1], 17))
        else:
            mate = 3 - me
            words += [played[0], played[mate], next((w for i, w in trace if i == 0), 0),
                      next((w for i, w in trace if i == mate), 0)]
            hots = ((left[0], 20), (left[mate], 17))
        k = 54 * len(words)
        out = np.zeros(_RLCARD_WIDTH, np.int8)
        _douzero.cards_rows(np.array(words, np.uint64), out[:k].reshape(-1, 54))
        for count, size in hots:
            out[k + (count - 1 if count else size - 1)] = 1  # RLCard's one_hot[n - 1]
            k += size
        return out


class _PublicView:
    """The fields of ``Game.observation(seat)`` that the compact encoding
    reads, from the game's public properties (valid once all 17 cards are
    dealt: the hands are then whole)."""

    __slots__ = ("hand", "shown", "card_counts", "landlord", "last_move", "last_player", "current_player", "phase",
                 "wild", "bottom", "base", "multiplier")

    def __init__(self, g: Game, seat: int) -> None:
        hands = g.hands
        self.hand = hands[seat]
        self.shown = {q: hands[q] for q, shown in enumerate(g.shows) if shown and q != seat}
        self.card_counts = [len(h) for h in hands]
        self.landlord = g.landlord
        self.last_move = g.last_move
        self.last_player = g.last_player if g.last_move is not None else None
        self.current_player = g.current_player()
        self.phase = g.phase
        self.wild = g.wild
        self.bottom = g.bottom if g.landlord is not None else None
        self.base = g.base
        self.multiplier = g.multiplier()


def cast_game(g: AnyGame) -> Game:
    """The three-player game (the DouZero and RLCard encodings are for it alone)."""
    assert isinstance(g, Game)
    return g
