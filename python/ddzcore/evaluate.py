"""Hand evaluation and move hints by sampled playouts (docs/rules.md §3-§4).

``win_probability`` answers "how good is this hand?" (for calling,
叫地主, and doubling, 加倍) and "how good is this position?": it deals the
hidden cards at random consistently with what the player knows
(``ddzcore.sampling``), plays each deal to the end natively with a policy,
and reports the share won by the player's side with its standard error.
``hint`` ranks the legal moves of a position by the same estimate.

Policies: ``"random"`` (uniform among the legal moves), ``"rule"`` (the
native port of ``RuleBot``'s play; it chooses exactly the moves ``RuleBot``
chooses), or any ``Bot`` (played through ``Game``: slow, for checks).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import numpy as np

from . import _eval
from .cards import DECK_WORDS, Hand
from .errors import IllegalActionError, InvalidArgumentError, InvalidMoveError
from .game.three import Game, Observation, Phase
from .moves import Move, _record_ok
from .rules import Rules
from .sampling import Knowledge, knowledge, sample_deals
from .search import PlayState
from .solver import solve
from .tools.simulation import play_game

if TYPE_CHECKING:  # pragma: no cover
    from .tools.bots import Bot

__all__ = ["WinEstimate", "win_probability", "Hint", "hint", "solver", "ROLES", "POLICIES"]

ROLES = ("landlord", "farmer")
POLICIES = {"random": _eval.RANDOM, "rule": _eval.RULE}
_FULL_DECK = DECK_WORDS[1]  # one deck as a card word


def _ncards(word: int) -> int:
    return sum((word >> (4 * r)) & 0xF for r in range(15))


@dataclass(frozen=True)
class WinEstimate:
    """A win probability estimated by playouts.

    ``p``: the share of playouts the player's side won (0-1); ``stderr``:
    its standard error sqrt(p (1 - p) / n); ``playouts``: n; ``role``:
    ``"landlord"`` or ``"farmer"``; ``policy``: the playout policy's name.
    ``float(estimate)`` is ``p``.
    """

    p: float
    stderr: float
    playouts: int
    role: str
    policy: str

    def __float__(self) -> float:
        return self.p

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The normal-approximation confidence interval ``p ± z·stderr`` (95 % by default)."""
        return (max(0.0, self.p - z * self.stderr), min(1.0, self.p + z * self.stderr))


def _estimate(wins: np.ndarray, role: str, policy: str) -> WinEstimate:
    n = int(wins.size)
    p = float(wins.mean()) if n else 0.0
    return WinEstimate(p, math.sqrt(p * (1 - p) / n) if n else 0.0, n, role, policy)


def solver() -> Optional[Callable[..., Any]]:
    """The exact solver ``ddzcore.solve`` (a hook: ``None`` would turn it off)."""
    return solve


def _policy(policy: "str | Bot") -> tuple[int, str]:
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise InvalidArgumentError(f"unknown policy {policy!r}; choose one of {sorted(POLICIES)} or pass a Bot")
        return POLICIES[policy], policy
    return -1, getattr(policy, "name", type(policy).__name__)


def _play_bot(bot: "Bot", state: PlayState, rows: np.ndarray, rules: Rules) -> np.ndarray:
    """Winners of playouts by ``bot`` in every seat, one ``Game.endgame`` per row."""
    out = np.empty(len(rows), np.int8)
    last = state.last
    for i, row in enumerate(rows):
        g = Game.endgame([str(Hand._trusted(int(w))) for w in row[:3]], landlord=state.landlord,
                         to_move=state.turn, last=last, last_player=state.owner if last is not None else None,
                         rules=rules)
        play_game(g, [bot, bot, bot])
        s = g.settlement()
        out[i] = s.winners[0] if s.landlord not in s.winners else s.landlord
    return out


def _winners(state: PlayState, rows: np.ndarray, policy: "str | Bot", seed: int) -> np.ndarray:
    code, _ = _policy(policy)
    hands = np.ascontiguousarray(rows[:, :3])
    if code < 0:
        return _play_bot(policy, state, hands, state.rules)  # type: ignore[arg-type]
    return np.asarray(_eval._playouts(state, hands, code, seed))


def _check_rules(rules: Optional[Rules]) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules, not {rules!r}")
    if rules.decks != 1 or rules.wild is not None:
        raise InvalidArgumentError("playouts play the three-player one-deck game without wild cards "
                         "(docs/rules.md §3); the sampler serves laizi and five players")
    return rules


def _hand_estimate(hand: Hand, role: str, playouts: int, policy: "str | Bot", seed: int,
                   rules: Rules) -> WinEstimate:
    """A hand before play: seat 0 holds ``hand``; as landlord it takes the
    bottom (unless it already holds 20 cards) and leads; as a farmer the
    landlord is seat 1 in even playouts and seat 2 in odd ones (so the
    farmer plays last and first after the landlord equally often)."""
    n = len(hand)
    if role == "landlord" and n not in (17, 20) or role == "farmer" and n != 17:
        raise IllegalActionError(f"a {role}'s hand before play has {'17 or 20' if role == 'landlord' else 17} "
                                 f"cards, not {n} ({hand})")
    own = hand.word
    if any(((own >> (4 * r)) & 0xF) > ((_FULL_DECK >> (4 * r)) & 0xF) for r in range(15)):
        raise IllegalActionError(f"{hand} is not part of one deck")
    pool = _FULL_DECK - own
    hidden = 3 if n == 17 else 0
    k = Knowledge(0, 3, (own, 0, 0), (n, 17, 17), hidden, pool)
    rows = sample_deals(k, playouts, seed)
    wins = np.empty(playouts, np.uint8)
    name = _policy(policy)[1]
    for ll in ((0,) if role == "landlord" else (1, 2)):
        pick = np.arange(playouts) if role == "landlord" else np.arange(ll - 1, playouts, 2)
        part = rows[pick].copy()
        if not len(part):
            continue
        part[:, ll] += part[:, 3]
        state = PlayState([int(w) for w in part[0, :3]], landlord=ll, rules=rules)
        winners = _winners(state, part, policy, (seed + ll) % (1 << 64))
        wins[pick] = (winners == ll) == (role == "landlord")
    return _estimate(wins, role, name)


def _play_state(obs: Observation, row: np.ndarray, rules: Rules) -> PlayState:
    """The native state of an observation in play, with one sampled row's hands."""
    plays = [0, 0, 0]
    bombs = 0
    for seat, a in obs.history:
        if isinstance(a, Move) and not a.is_pass:
            plays[seat] += 1
            bombs += a.is_bomb
    ll = obs.landlord
    assert ll is not None
    return PlayState([int(w) for w in row[:3]], landlord=ll, turn=obs.current_player, last=obs.last_move,
                     owner=obs.last_player if obs.last_move is not None else None, rules=rules, bombs=bombs,
                     landlord_plays=plays[ll], farmer_plays=sum(plays) - plays[ll])


def win_probability(position: "Hand | str | Observation | Game", role: Optional[str] = None, *,
                    seat: Optional[int] = None, playouts: int = 10_000, policy: "str | Bot" = "random",
                    seed: int = 0, rules: Optional[Rules] = None) -> WinEstimate:
    """Probability that the player's side wins, estimated by playouts.

    ``position``:

    - a hand (``Hand`` or card text) before play: 17 cards (or the
      landlord's 20 with the bottom), with ``role`` ``"landlord"`` (it takes
      3 random bottom cards and leads) or ``"farmer"`` (the landlord is the
      next seat in half the playouts and the previous one in the other half);
    - an ``Observation`` (or a ``Game`` and ``seat``) in play: the position
      as that seat knows it (``role`` follows; hidden cards sampled by
      ``sample_deals``); before play, its hand as above (``role`` needed).

    ``playouts``: how many sampled deals are played out (each once);
    ``policy``: ``"random"``, ``"rule"`` or a ``Bot``; ``seed``: the same
    seed gives the same estimate.  ``rules``: one deck, no wild cards
    (default ``Rules()``; a ``Game``/``Observation`` brings its own).

    Returns a ``WinEstimate`` (``p`` in 0-1 and its standard error).
    Raises ``ValueError`` for a bad role, policy, count or seed,
    ``IllegalActionError`` for a hand of the wrong size, ``InvalidCardsError``
    for bad card text.
    """
    if not isinstance(playouts, int) or isinstance(playouts, bool) or playouts < 1:
        raise InvalidArgumentError(f"playouts must be an int >= 1, not {playouts!r}")
    if role is not None and role not in ROLES:
        raise InvalidArgumentError(f"role must be one of {ROLES}, not {role!r}")
    if isinstance(position, Game):
        if seat is None:
            raise InvalidArgumentError("win_probability(game, ...) needs seat=")
        rules = position.rules if rules is None else rules
        position = position.observation(seat)
    if isinstance(position, Observation):
        obs = position
        if obs.phase != Phase.PLAY:
            if role is None:
                raise InvalidArgumentError("before play, give role='landlord' or 'farmer'")
            return _hand_estimate(obs.hand, role, playouts, policy, seed, _check_rules(rules))
        rules = _check_rules(rules)
        side = "landlord" if obs.player == obs.landlord else "farmer"
        if role is not None and role != side:
            raise InvalidArgumentError(f"seat {obs.player} is a {side} in this game, not a {role}")
        rows = sample_deals(obs, playouts, seed)
        state = _play_state(obs, rows[0], rules)
        winners = _winners(state, rows, policy, seed)
        ll = obs.landlord
        return _estimate((winners == ll) == (obs.player == ll), side, _policy(policy)[1])
    if role is None:
        raise InvalidArgumentError("give role='landlord' or 'farmer' for a hand")
    hand = position if isinstance(position, Hand) else Hand(position)
    return _hand_estimate(hand, role, playouts, policy, seed, _check_rules(rules))


@dataclass(frozen=True)
class Hint:
    """One ranked move of ``hint``: ``move``, ``score`` (the side's win
    probability after it, 0-1, or for ``method == "plays"`` minus the plays
    still needed), ``method`` (``"solver"``, ``"playouts"`` or ``"plays"``)."""

    move: Move
    score: float
    method: str


def _plays_left(state: PlayState, move: Move) -> int:
    """Plays the mover's hand needs alone after ``move`` (greedy, rule policy)."""
    left = state.hand_words[state.turn] - move.codes[0]
    return 1 + int(_eval._greedy_plays(left, state.rules.flags)) if not move.is_pass else \
        int(_eval._greedy_plays(left, state.rules.flags))


def move_values(state: PlayState, rows: np.ndarray, moves: Sequence[Move], policy: str = "rule",
                seed: int = 0, deadline: Optional[float] = None) -> np.ndarray:
    """Win share of the mover's side after each of ``moves`` (float64, shape
    ``(len(moves),)``), each played in every sampled world ``rows`` and then
    played out with ``policy`` (``"random"`` or ``"rule"``); every move meets
    the same worlds and random streams.  When ``ddzcore.solve`` exists and
    the world has few cards (``SOLVER_CARDS``), the exact result replaces the
    playout, world by world until ``deadline`` (a ``time.perf_counter()``
    value; ``None``: no limit)."""
    code, _ = _policy(policy)
    if not moves or not len(rows):
        return np.zeros(len(moves))
    cards = np.array([m.codes[0] for m in moves], np.uint64)
    info = np.array([m.codes[1] for m in moves], np.uint64)
    wins = np.asarray(_eval._move_values(state, np.ascontiguousarray(rows[:, :3]), cards, info, code,
                                         seed % (1 << 64)), np.float64)
    solve = solver()
    if solve is not None and sum(_ncards(int(w)) for w in rows[0, :3]) <= SOLVER_CARDS:
        wins = _solved(solve, state, rows, moves, wins, deadline)
    return np.asarray(wins.mean(axis=1), np.float64)


#: Cards left in play at or below which ``move_values`` asks the exact solver (when installed).
SOLVER_CARDS = 12


def _solved(solve: Callable[..., Any], state: PlayState, rows: np.ndarray, moves: Sequence[Move],
            wins: np.ndarray, deadline: Optional[float]) -> np.ndarray:
    """Exact results per (move, world) from ``ddzcore.solve`` (open hands,
    the side to move's value of each move); a world the solver does not
    finish within ``SOLVER_SECONDS`` keeps its playout results."""
    out = wins.copy()
    for i, row in enumerate(rows):
        if deadline is not None and time.perf_counter() > deadline:
            break
        world = PlayState([int(w) for w in row[:3]], landlord=state.landlord, turn=state.turn, last=state.last,
                          owner=state.owner if state.last is not None else None, rules=state.rules,
                          bombs=state.bombs, landlord_plays=state.landlord_plays, farmer_plays=state.farmer_plays)
        r = solve(world, timeout=SOLVER_SECONDS)
        if getattr(r, "wins", None) is None:
            continue
        values = r.move_values
        for j, m in enumerate(moves):
            v = values.get(m)
            if v is not None:
                out[j, i] = v > 0
    return np.asarray(out)


#: Seconds the solver may spend on one sampled world before its playouts are kept.
SOLVER_SECONDS = 0.005


def hint(game: "Game | Observation | Hand | str", seat: Optional[int] = None, *, last: "Move | str | None" = None,
         role: str = "landlord", playouts: int = 200, policy: str = "rule", seed: int = 0,
         rules: Optional[Rules] = None) -> list[Hint]:
    """The legal moves ranked best first, each with its score.

    ``game``: a ``Game`` in play (``seat``: whose moves, default the seat to
    move; only what that seat may see is used), an ``Observation`` in play,
    or a hand (``last``: the move to beat, played by the previous seat;
    ``role``: the hand's role; the rest of the deck is split between the
    other two seats, a landlord opponent holding 3 cards more).

    Score, by the first method that applies (``Hint.method``):
    ``"solver"``/``"playouts"``: the share of ``playouts`` sampled deals
    (``sample_deals``) that the player's side wins after the move, played on
    by ``policy`` (exact, per deal, by ``ddzcore.solve`` when installed and
    at most ``SOLVER_CARDS`` cards remain); ``"plays"`` (``playouts=0``):
    minus the plays the hand needs alone afterwards (greedy, rule policy).
    Ties keep the kernel's move order.  Raises ``IllegalActionError`` when
    the seat is not to move in play, ``ValueError`` for bad arguments.
    """
    rules = _check_rules(getattr(game, "rules", None) if rules is None else rules)
    if isinstance(game, Game):
        game = game.observation(game.current_player() if seat is None else seat)
    if isinstance(game, Observation):
        obs = game
        if obs.phase != Phase.PLAY or obs.current_player != obs.player:
            raise IllegalActionError(f"seat {obs.player} has no move to play now")
        rows = sample_deals(obs, max(playouts, 1), seed)
        state = _play_state(obs, rows[0], rules)
    else:
        if role not in ROLES:
            raise InvalidArgumentError(f"role must be one of {ROLES}, not {role!r}")
        hand = game if isinstance(game, Hand) else Hand(game)
        ll = 0 if role == "landlord" else 1
        last_m = None if last is None or last == "" else (last if isinstance(last, Move) else Move.parse(last, rules))
        if last_m is not None and not _record_ok(last_m, Rules.coerce(rules)):  # forged with object.__new__
            raise InvalidMoveError(f"the move to beat {last_m} is no move: its record is not a valid reading")
        played = 0 if last_m is None else last_m.codes[0]
        if _ncards(hand.word + played) > 54 or any(
                ((hand.word + played) >> (4 * r)) & 0xF > ((_FULL_DECK >> (4 * r)) & 0xF) for r in range(15)):
            raise IllegalActionError(f"{hand} and the move to beat {last_m} do not fit one deck")
        rest = 54 - _ncards(hand.word + played)
        other = rest // 2 if role == "landlord" else (rest - 3) // 2
        if other < 1 or rest - other < 1:
            raise IllegalActionError(f"{hand} leaves too few cards for the other hands")
        k = Knowledge(0, 3, (hand.word, 0, 0), (len(hand), rest - other, other), 0, _FULL_DECK - hand.word - played)
        rows = sample_deals(k, max(playouts, 1), seed)
        state = PlayState([int(w) for w in rows[0, :3]], landlord=ll, turn=0, last=last_m,
                          owner=None if last_m is None else 2, rules=rules)
    moves = list(state.legal_moves())
    if playouts == 0:
        scored = [Hint(m, -float(_plays_left(state, m)), "plays") for m in moves]
    else:
        values = move_values(state, rows, moves, policy, seed)
        method = "solver" if solver() is not None and sum(_ncards(int(w)) for w in rows[0, :3]) <= SOLVER_CARDS \
            else "playouts"
        scored = [Hint(m, float(v), method) for m, v in zip(moves, values)]
    return sorted(scored, key=lambda h: -h.score)
