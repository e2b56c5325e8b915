"""Endgame solver (残局) and minimum plays (手数), docs/rules.md §2-§3, §6.

- ``solve(hands, rules, ...)``: the exact result of an open-hand end game
  under best play.  Two hands: two opponents (seat 0 and seat 1).  Three
  hands: the landlord (地主) against two farmers (农民) who cooperate, either
  farmer emptying its hand wins for both (double dummy: every hand is seen).
  Pass and lead exactly as in play (docs/rules.md §3): a trick ends when
  every other player has passed.  Win/loss by default; ``objective="score"``
  values the game in stakes, with bombs, rockets, spring and anti-spring.
- ``min_plays(hand, rules)``: the fewest combinations (leads) that empty a
  hand when nobody else plays, with one optimal decomposition;
  ``min_plays_batch`` over an array of hands.

The search is native (``ddzcore._solver``): alpha-beta on the play state of
``ddzcore.search.PlayState`` with a transposition table, the GIL released.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

from . import _solver
from .search import PlayState
from .cards import Hand
from .errors import InvalidDealError, InvalidArgumentError
from .generate import HandLike, LastLike, _hand_word, _last_codes, hands_array
from .moves import Move
from .rules import Rules

__all__ = ["solve", "SolveResult", "min_plays", "min_plays_batch", "MinPlays", "OBJECTIVES"]

#: ``solve``'s objectives: win/loss, or the score in stakes.
OBJECTIVES = ("win", "score")

_STANDARD = Rules()


class SolveResult:
    """The result of ``solve``: seats as given, values for the side to move.

    Computed by ``solve``:

    - ``wins``: True when the side to move wins with best play on both sides,
      False when it loses, ``None`` when the search ran out of time (unknown).
    - ``value``: win/loss mode: +1 (win) or -1 (loss); score mode: the score
      of the side to move in stakes (units of the per-farmer stake, base ×
      room multiplier × doubling: docs/rules.md §6), ±2**bombs, doubled for a
      spring or anti-spring; ``None`` when unknown.
    - ``nodes``: positions searched; ``seconds``: wall time of the searches
      so far (both grow when the parts below are first read).
    - ``to_move``, ``objective``, ``rules``: as asked.

    Computed when first read (the position's transposition table is kept
    for them, then freed; each part gets the same ``timeout`` again, and is
    empty when it runs out):

    - ``winning_moves``: every legal move of the side to move that keeps a
      forced win (``[]`` when it loses or the result is unknown), in the
      kernel's order.
    - ``move_values``: each legal move's value for the side to move (as
      ``value``), a dict in the kernel's order.
    - ``best_moves``: the moves whose value equals ``value`` (score mode: the
      ones keeping the best score; win/loss: the winning moves, or every
      move of a lost position).
    - ``line``: one principal variation to the end of the game, moves and
      passes (``Move``), each player keeping the position's value;
      ``line_seats``: the seat of each.
    """

    def __init__(self, search: "_solver.Search", value: Optional[int], players: int, landlord: int, to_move: int,
                 objective: str, rules: Rules, timeout: float) -> None:
        self._search: "Optional[_solver.Search]" = search
        self._sign = 1 if to_move == landlord else -1
        self._players = players
        self._timeout = timeout
        self._nodes = search.nodes
        self._seconds = search.seconds
        self._values: Optional[dict[Move, int]] = None
        self._line: Optional[list[tuple[int, Move]]] = None
        self.value: Optional[int] = None if value is None else self._sign * value
        self.wins: Optional[bool] = None if value is None else self._sign * value > 0
        self.to_move = to_move
        self.objective = objective
        self.rules = rules
        if value is None:
            self._values, self._line = {}, []
            self._release()

    def _release(self) -> None:
        if self._search is not None and self._values is not None and self._line is not None:
            self._nodes, self._seconds = self._search.nodes, self._search.seconds
            self._search = None  # frees the table

    @property
    def nodes(self) -> int:
        return self._nodes if self._search is None else int(self._search.nodes)

    @property
    def seconds(self) -> float:
        return self._seconds if self._search is None else float(self._search.seconds)

    @property
    def unknown(self) -> bool:
        """True when the search timed out before proving the result."""
        return self.wins is None

    @property
    def move_values(self) -> dict[Move, int]:
        if self._values is None:
            assert self._search is not None
            got = self._search.move_values(self._timeout)
            self._values = {} if got is None else {Move._from_codes(c, i): self._sign * v for c, i, v in got}
            self._release()
        return self._values

    @property
    def winning_moves(self) -> list[Move]:
        return [m for m, v in self.move_values.items() if v > 0]

    @property
    def best_moves(self) -> list[Move]:
        return [m for m, v in self.move_values.items() if v == self.value]

    def _pv(self) -> list[tuple[int, Move]]:
        if self._line is None:
            assert self._search is not None
            got = self._search.line(self._timeout)
            self._line = [] if got is None else [(s, Move._from_codes(c, i)) for s, c, i in got
                                                 if s < self._players]
            self._release()
        return self._line

    @property
    def line(self) -> list[Move]:
        return [m for _, m in self._pv()]

    @property
    def line_seats(self) -> list[int]:
        return [s for s, _ in self._pv()]

    def __repr__(self) -> str:
        return (f"<SolveResult wins={self.wins} value={self.value} to_move={self.to_move} "
                f"objective={self.objective!r} nodes={self.nodes}>")

    def __str__(self) -> str:
        if self.wins is None:
            return f"unknown (timeout after {self.seconds:.3f} s, {self.nodes} nodes)"
        who = f"seat {self.to_move} to move {'wins' if self.wins else 'loses'}"
        if self.objective == "score":
            who += f" ({self.value:+d} stakes)"
        return who


def _seat(v: object, name: str, n: int) -> int:
    if isinstance(v, np.integer):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise InvalidArgumentError(f"{name} must be a seat 0..{n - 1}, not {v!r}")
    return v


def _count(v: object, name: str, top: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
        raise InvalidArgumentError(f"{name} must be an int in 0..{top}, not {v!r}")
    return v


def _position(hands: Union[PlayState, Sequence[HandLike]], rules: Optional[Rules], landlord: int,
              to_move: Optional[int], last: LastLike, last_player: Optional[int], bombs: int,
              landlord_plays: int, farmer_plays: int) -> tuple[list[int], int, int, int, int, int, Rules, int,
                                                                int, int, int]:
    """Checked native arguments: (words of 3 seats, players, landlord, turn,
    last cards, last info, rules, owner, bombs, landlord plays, farmer plays)."""
    if isinstance(hands, PlayState):
        if rules is not None or landlord != 0 or to_move is not None or last is not None or last_player is not None:
            raise InvalidArgumentError("a PlayState carries its own rules, seats and move to beat: give them with a hand list")
        if hands.is_over:
            raise InvalidDealError("the PlayState's game is over")
        lc, li = hands.last_codes
        return (list(hands.hand_words), 3, hands.landlord, hands.turn, lc, li, hands.rules,
                hands.owner if li else -1, hands.bombs, hands.landlord_plays, hands.farmer_plays)
    rules = _STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules, not {rules!r}")
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) not in (2, 3):
        raise InvalidArgumentError(f"hands must be a list of two or three hands, not {hands!r}")
    n = len(hands)
    words = [_hand_word(h, rules) for h in hands]
    for i, w in enumerate(words):
        if w == 0:
            raise InvalidDealError(f"seat {i} has an empty hand: the game is already over")
    ll = _seat(landlord, "landlord", n)
    turn = ll if to_move is None else _seat(to_move, "to_move", n)
    lc, li = _last_codes(last, rules)
    if li == 0:
        if last_player is not None:
            raise InvalidArgumentError("last_player given without a last move")
        owner = -1
    else:
        owner = (turn + n - 1) % n if last_player is None else _seat(last_player, "last_player", n)
        if owner == turn:
            raise InvalidArgumentError(f"last_player {owner} is the seat to move: its trick is over, so there is no "
                             f"move to beat (give no last move)")
    per_rank = 8 if rules.decks == 2 else 4
    for r, ch in enumerate("3456789TJQKA2BR"):
        k = sum((w >> (4 * r)) & 0xF for w in words) + ((lc >> (4 * r)) & 0xF)
        top = per_rank if r < 13 else rules.decks
        if k > top:
            raise InvalidDealError(f"the hands{' and the last move' if lc else ''} hold {k} cards of rank {ch}; "
                                   f"{'two decks have' if rules.decks == 2 else 'one deck has'} {top}")
    return (words + [0] * (3 - n), n, ll, turn, lc, li, rules, owner,
            _count(bombs, "bombs", 28), _count(landlord_plays, "landlord_plays", 108),
            _count(farmer_plays, "farmer_plays", 108))


def solve(hands: Union[PlayState, Sequence[HandLike]], rules: Optional[Rules] = None, *, landlord: int = 0,
          to_move: Optional[int] = None, last: LastLike = None, last_player: Optional[int] = None,
          objective: str = "win", tt_size: int = 1 << 22, timeout: Optional[float] = None,
          bombs: int = 0, landlord_plays: int = 0, farmer_plays: int = 0) -> SolveResult:
    """Solve an open-hand end game (残局) exactly (docs/rules.md §3, §6).

    ``hands``: two or three hands (``Hand``, card text such as ``"3455KK"``
    or card words), seats in turn order, or a ``PlayState`` (three seats,
    its own rules and counters).  Two hands are two opponents; three are
    the landlord (seat ``landlord``) against two cooperating farmers.
    ``rules``: any ``Rules`` (presets, laizi ``Rules(wild=...)``, two decks
    ``Rules(decks=2)``, banned combinations ``Rules(banned=...)``).

    ``to_move``: the seat to move (default: the landlord).  ``last``: the
    move to beat (``Move`` or move text; ``None`` = a free lead) and
    ``last_player`` the seat that played it (default: the seat before
    ``to_move``; the seats in between passed).

    ``objective``: ``"win"`` (fast default) or ``"score"``: each side
    maximises its score in stakes; bombs and rockets played double it and a
    spring (春天) or anti-spring (反春) doubles it once.  ``bombs``,
    ``landlord_plays`` and ``farmer_plays`` carry in the counts of earlier
    play (bombs and rockets played; non-pass moves of the landlord, of the
    farmers): with ``farmer_plays > 0`` there is no spring, with
    ``landlord_plays != 1`` at the end no anti-spring.  Two hands: seat 1
    is the landlord's only opponent (the "farmer").

    ``tt_size``: the most transposition-table entries (``_solver.ENTRY_BYTES``
    = 32 bytes each; the table starts small and grows to this bound).
    ``timeout``: seconds (``None``: none); past it the result is unknown
    (``wins`` is ``None``).  The GIL is released while searching.

    Returns a ``SolveResult``.  Raises ``InvalidCardsError`` for a bad hand,
    ``InvalidDealError`` for an empty hand or hands (with the last move)
    beyond the deck(s), ``InvalidMoveError`` for a bad last move, and
    ``ValueError`` for bad seats, counts, objective, size or timeout.
    """
    if objective not in OBJECTIVES:
        raise InvalidArgumentError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    if not isinstance(tt_size, int) or isinstance(tt_size, bool) or tt_size < 1:
        raise InvalidArgumentError(f"tt_size must be an int >= 1 (entries), not {tt_size!r}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not timeout > 0):
        raise InvalidArgumentError(f"timeout must be None or seconds > 0, not {timeout!r}")
    words, n, ll, turn, lc, li, rules, owner, nb, lp, fp = _position(
        hands, rules, landlord, to_move, last, last_player, bombs, landlord_plays, farmer_plays)
    if objective == "score" and nb + sum(len(Hand._trusted(w, rules.decks)) for w in words) // 4 + 2 > 29:
        raise InvalidArgumentError(f"score mode: {nb} bombs so far plus the bombs these hands can still play could "
                         f"exceed 2**29 stakes (the search's 32-bit values)")
    search = _solver.Search(words, ll, turn, lc, li, owner, rules.flags, nb, lp, fp, objective == "score", tt_size)
    return SolveResult(search, search.value(timeout or 0.0), n, ll, turn, objective, rules, timeout or 0.0)


@dataclass(frozen=True)
class MinPlays:
    """``min_plays``' result: ``count`` combinations, ``parts`` one optimal
    decomposition (a list of ``Move``, whose cards add up to the hand)."""

    count: int
    parts: list[Move]

    def __int__(self) -> int:
        return self.count


def min_plays(hand: HandLike, rules: Optional[Rules] = None) -> MinPlays:
    """The fewest leads that empty ``hand`` when nobody else plays (手数), exact,
    with one optimal decomposition (docs/rules.md §2: any combination of the
    rules, wild cards and bans included).  0 for an empty hand.

    Raises ``InvalidCardsError`` for a bad hand, ``ValueError`` for bad rules.
    """
    rules = _STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules, not {rules!r}")
    count, parts = _solver._min_plays(_hand_word(hand, rules), rules.flags)
    return MinPlays(count, [Move._from_codes(c, i) for c, i in parts])


def min_plays_batch(hands: Union[np.ndarray, Sequence[HandLike]], rules: Optional[Rules] = None) -> np.ndarray:
    """``min_plays`` counts of many hands: an int16 array of shape ``(n,)``.

    ``hands``: a uint64 array of card words, shape ``(n,)``, or a sequence of
    hands.  Runs without the GIL.  Raises ``InvalidCardsError`` for a bad
    hand, ``ValueError`` for a bad array or rules.
    """
    rules = _STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules, not {rules!r}")
    if isinstance(hands, np.ndarray):
        if hands.ndim != 1 or hands.dtype != np.uint64:
            raise InvalidArgumentError(f"hands must be a 1-d uint64 array of card words, not {hands.dtype} {hands.shape}")
        arr = np.ascontiguousarray(hands)
        for w in np.unique(arr):
            _hand_word(int(w), rules)
    else:
        arr = hands_array(hands, rules)
    return _solver._min_plays_batch(arr, rules.flags)
