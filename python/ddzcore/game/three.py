"""The whole three-player game as a state machine (docs/rules.md §3-6).

Phases, in order (those switched off in ``Rules`` are skipped)::

    SHOW_START   明牌开始   each player, before any card is dealt: show (x5) or not
    SHOW_EARLY   发牌明牌   after 8 dealt cards: show (x4) or not
    SHOW_LATE    发牌明牌   after all 17: show (x3) or not
    CALL / ROB   叫地主 / 抢地主   (Rules.bidding == "call_rob")
    BID          叫分 1-3          (Rules.bidding == "points")
    (laizi)      癞子       a laizi room draws and announces the wild rank here (docs/rules.md §7)
    SHOW_BOTTOM  明牌       the landlord, after taking the 3 bottom cards: show (x2) or not
    DOUBLE       加倍       each eligible player, from the landlord: double or not
    PLAY         出牌       the landlord leads
    END

Vocabulary (OpenSpiel-like): ``current_player()``, ``legal_actions()``
(never empty before the end), ``apply(action)`` (checked; an illegal action
raises ``IllegalActionError`` and changes nothing), ``push(action)``
(unchecked in play), ``pop()``, ``copy()``, ``is_terminal()``,
``returns()`` (points, zero-sum), ``settlement()`` (beans), ``escape(p)``
and ``observation(p)`` (an information set: nothing hidden leaks).

Actions are ``Action`` members in the bidding, show and doubling phases and
``Move`` objects (``PASS`` included) in play.  Seats are 0, 1, 2 in turn
order; the next player after seat s is (s + 1) mod 3 (docs/rules.md §3).

Hands are ``Hand`` objects (kernel card words) inside the game; concrete
cards with suits (``Card``) exist for dealing, display and records only.

Points the rule book (docs/rules.md) leaves open, decided here:

- Show cards during the deal are two decision points: after
  ``Rules.show_early_cards`` (8) dealt cards (x4) and after all 17 (x3);
  showing earlier within either window cannot change anything (the first
  player to show is the first in time, and within one moment the first in
  turn order).  The shows before and during the deal are asked in turn
  from the randomly chosen first caller, who is drawn with each deal
  (before anyone shows).
- After everybody passes with no show, the whole round starts again: a new
  deal, a new random first caller, the show offers again.
- Point bidding with a show and three passes: the first shower becomes
  landlord with base 1.
- A landlord who has already shown is not offered the show after the
  bottom; players not eligible to double are skipped, not asked.
- An escape before there is a landlord uses base 1 even under point
  bidding; an end-game position (``Game.endgame``) never scores spring.

Laizi rooms (``Rules(laizi=True)`` / ``Rules.preset("laizi")``, docs/rules.md §7):

- The wild rank is drawn uniformly from 3..2 with each deal (from the same
  seeded generator, right after the first caller) and kept hidden; it is
  announced the moment the landlord is decided, before the show after the
  bottom and the doubling: ``Game.wild`` and ``Observation.wild``, ``None``
  until then.  Drawing it with the deal rather than at that moment is the
  same draw for the players and keeps undo, copies and redeals
  reproducible.  From then on moves are generated under
  ``Game.play_rules`` (``rules.replace(wild=...)``).
- ``Rules(wild="7")`` fixes the wild rank instead (puzzles, end games): it
  is public from the start, and the game is a laizi game all the same.
- Escape: the bombs counted are, for each player, the most disjoint bombs
  (soft, hard, pure wild, rocket; the most x4 ones among equal counts)
  that the cards it was dealt (the bottom with the landlord) could form
  with its wild cards, so every bomb counts whether it was played as a
  bomb, as another
  combination, or not yet (docs/rules.md §6-7: "whatever they were played as").
- Dense move ids (``action_id`` in play) are not defined for laizi games:
  the move set depends on the wild rank and holds about 1.7 million moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Iterable, Optional, Sequence, Union, cast

from functools import lru_cache
from operator import attrgetter

import numpy as np

from ..cards import RANK_CHARS, Card, Hand, Rank, _card_rank, parse_cards
from ..errors import IllegalActionError, InvalidArgumentError, InvalidCardsError, InvalidDealError, InvalidMoveError
from ..errors import InvalidRulesError
from ..moves import PASS, Combo, Move, MoveList, _words_ok
from .._gamecore import cards_word, deal_perm
from .base import MOVE_ID_BASE, TERMINAL, GameBase, _ncards, _parse_enum, _valid, check_room_beans, check_seat, generator
from ..rules import Rules
from .settlement import (
    Multiplier, Room, Settlement, combine_shows, escape_multiplier, settle_escape, settle_game,
    settle_no_landlord,
)

__all__ = ["Phase", "Action", "Observation", "Game", "OPENSPIEL_FLOW", "TERMINAL", "MOVE_ID_BASE"]

#: ``Rules`` game-flow fields that make the game OpenSpiel's ``dou_dizhu``:
#: point bidding, no show cards, no doubling, no redeal.
OPENSPIEL_FLOW: dict[str, Any] = dict(bidding="points", show_start=0, show_deal_early=0, show_deal_late=0,
                                      show_bottom=0, doubling=False, max_redeals=0)

_cards_word = cards_word


def _is_concrete_text(text: str) -> bool:
    return any(ch in "SHCDshcd" for ch in text)


def _resolve_cards(parts: Sequence[Any], what: str) -> list[tuple[int, ...]]:
    """Concrete card tuples for each part (rank text gets suits S, H, C, D in
    order, avoiding the cards given concretely)."""
    concrete: list[Optional[list[int]]] = []
    ranks: list[Optional[Hand]] = []
    for part in parts:
        if isinstance(part, Hand):
            concrete.append(None)
            ranks.append(part)
        elif isinstance(part, str) and not _is_concrete_text(part):
            concrete.append(None)
            ranks.append(Hand(part))
        else:
            cards = parse_cards(part) if isinstance(part, str) else [Card(c) for c in part]
            concrete.append([int(c) for c in cards])  # kept in the order given (the dealing order)
            ranks.append(None)
    used: set[int] = set()
    for cs in concrete:
        if cs is None:
            continue
        for c in cs:
            if c in used:
                raise InvalidDealError(f"card {Card(c)} is dealt twice in {what}")
            used.add(c)
    free = [[c for c in range(54) if _card_rank(c) == r and c not in used] for r in range(15)]
    out: list[tuple[int, ...]] = []
    for cs, hand in zip(concrete, ranks):
        if cs is None:
            got: list[int] = []
            for r in hand.ranks():  # type: ignore[union-attr]
                if not free[r]:
                    raise InvalidDealError(f"{what} has more cards of rank {RANK_CHARS[r]} than one deck holds")
                got.append(free[r].pop(0))
            cs = got
        out.append(tuple(cs))
    return out


# -- phases and actions ----------------------------------------------------------

class Phase(IntEnum):
    """The phases of a deal, in order (docs/rules.md §4-6)."""

    SHOW_START = 0  #: 明牌开始: before the deal, show for x5
    SHOW_EARLY = 1  #: 发牌明牌 early: after at most 8 dealt cards, x4
    SHOW_LATE = 2  #: 发牌明牌 late: after all 17 cards, x3
    CALL = 3  #: 叫地主
    ROB = 4  #: 抢地主
    BID = 5  #: 叫分 (point bidding)
    SHOW_BOTTOM = 6  #: 明牌 by the landlord after taking the bottom cards, x2
    DOUBLE = 7  #: 加倍
    PLAY = 8  #: 出牌
    END = 9  #: the game is over

    def __str__(self) -> str:
        return self.name.lower()


class Action(IntEnum):
    """A game-flow action (every phase but play, where actions are ``Move``).

    ``str()`` is the lower-case name; ``Action.parse`` also takes the Chinese
    terms and, for bids, the digits 1-3.  ``ESCAPE`` is never a legal action:
    it is what ``Game.escape`` records.
    """

    NO_SHOW = 0  #: 不明牌
    SHOW = 1  #: 明牌
    NO_CALL = 2  #: 不叫
    CALL = 3  #: 叫地主
    NO_ROB = 4  #: 不抢
    ROB = 5  #: 抢地主
    NO_BID = 6  #: 不叫 (point bidding)
    BID_1 = 7  #: 1分
    BID_2 = 8  #: 2分
    BID_3 = 9  #: 3分
    NO_DOUBLE = 10  #: 不加倍
    DOUBLE = 11  #: 加倍
    ESCAPE = 12  #: 逃跑 (recorded by ``Game.escape``)

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: "str | int | Action") -> "Action":
        """An action from its name (``"call"``, ``"no_rob"``, ``"bid_2"``),
        Chinese term (``"叫地主"``, ``"抢地主"``, ``"加倍"``) or value.
        Raises ``InvalidMoveError`` otherwise."""
        return _parse_enum(cls, text, int, _ACTION_ALIASES, "a game action")  # type: ignore[no-any-return]


_ACTION_ALIASES = {
    "明牌": Action.SHOW, "不明牌": Action.NO_SHOW, "叫地主": Action.CALL, "抢地主": Action.ROB,
    "不抢": Action.NO_ROB, "加倍": Action.DOUBLE, "不加倍": Action.NO_DOUBLE, "逃跑": Action.ESCAPE,
    "1": Action.BID_1, "2": Action.BID_2, "3": Action.BID_3, "bid1": Action.BID_1, "bid2": Action.BID_2,
    "bid3": Action.BID_3, "1分": Action.BID_1, "2分": Action.BID_2, "3分": Action.BID_3,
}

#: The "no" action of each decision phase ("pass", 不叫 in text means this).
_NEGATIVE = {0: Action.NO_SHOW, 1: Action.NO_SHOW, 2: Action.NO_SHOW, 3: Action.NO_CALL, 4: Action.NO_ROB,
             5: Action.NO_BID, 6: Action.NO_SHOW, 7: Action.NO_DOUBLE}
# The actions the flow compares with, as module constants: under Python 3.11
# (``EnumType.__getattr__``) every read of ``Action.SHOW`` takes the slow
# attribute hook, about 850 instructions.
_A_SHOW, _A_CALL, _A_ROB, _A_NO_BID, _A_BID_1, _A_DOUBLE = (Action.SHOW, Action.CALL, Action.ROB, Action.NO_BID,
                                                            Action.BID_1, Action.DOUBLE)
_SHOW_CHOICE = (Action.NO_SHOW, Action.SHOW)
#: The legal flow actions of each phase (by its value; ``Game._flow_legal``
#: copies them), none in play (``GameCore`` lists the moves) and at the end;
#: the bid phase's are ``_LEGAL_BIDS`` by the highest bid so far (0-2).
_LEGAL_FLOW: tuple[tuple[Action, ...], ...] = (
    _SHOW_CHOICE, _SHOW_CHOICE, _SHOW_CHOICE, (Action.NO_CALL, Action.CALL), (Action.NO_ROB, Action.ROB), (),
    _SHOW_CHOICE, (Action.NO_DOUBLE, Action.DOUBLE), (), ())
#: ``GameCore``'s table (``GameBase._FLOW_TABLE``): ``_LEGAL_FLOW`` but the bid phase's, which ``_flow_legal`` gives.
_FLOW_TABLE = tuple(None if ph == 5 else legal for ph, legal in enumerate(_LEGAL_FLOW))
_LEGAL_BIDS = ((Action.NO_BID, Action.BID_1, Action.BID_2, Action.BID_3),
               (Action.NO_BID, Action.BID_2, Action.BID_3), (Action.NO_BID, Action.BID_3))

# Phase values as plain ints for the hot path.
_SHOW_START, _SHOW_EARLY, _SHOW_LATE, _CALL, _ROB, _BID, _SHOW_BOTTOM, _DOUBLE, _PLAY, _END = range(10)
#: The seats in turn order from each seat (docs/rules.md §3).
_ORDERS = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
_SHOW_FIELDS = {_SHOW_START: "show_start", _SHOW_EARLY: "show_deal_early", _SHOW_LATE: "show_deal_late"}

# Whether a hand word holds a card word, one deck: bit 3 of every rank
# nibble, ((hand | G) - cards) & G == G iff cards <= hand (counts <= 4 < 8,
# so no nibble borrows from its neighbour).
_GUARD = 0x888888888888888
_ROCKET = int(Combo.ROCKET)


def _holds(hand: int, cards: int) -> bool:
    return ((hand | _GUARD) - cards) & _GUARD == _GUARD


def _clone(rng: np.random.Generator) -> np.random.Generator:
    """A generator in the same state as ``rng``, independent of it."""
    out = np.random.Generator(type(rng.bit_generator)())
    out.bit_generator.state = rng.bit_generator.state
    return out


def _bombs_in(word: int) -> int:
    """The most disjoint bombs and rockets a hand can form (docs/rules.md §6, escape)."""
    n = sum(1 for r in range(13) if (word >> (4 * r)) & 0xF == 4)
    return n + ((word >> 52) & 0xFF == 0x11)


def _laizi_bombs_in(word: int, wild: Optional[int]) -> tuple[int, int]:
    """The bombs of a laizi hand (docs/rules.md §6-7, escape): the most
    disjoint bombs it can form with its wild cards, and among the ways to
    form that many, the one with the most x4 bombs (laizi table).  Returns
    ``(soft, big)``: soft bombs (naturals of a rank plus wild cards, x2) and
    hard bombs, pure wild bombs and the rocket (x4).

    Each bomb takes 4 cards and a rank's naturals fit one bomb: hard bombs
    and the rocket need no wild card; with p pure wild bombs (4 wild cards
    each) the spare wild cards complete the soft bombs that need the fewest
    first; the largest total wins, then the most pure wild bombs.  E.g. 7
    wild: ``"3337777"`` -> 3337 + 777 left, or 7777: one bomb, the pure one
    (x4); ``"33344777"`` -> 3337 and 4477: two soft bombs; ``"44449"`` with
    9 wild -> the hard bomb 4444 (x4), not the soft 4449."""
    counts = [(word >> (4 * r)) & 0xF for r in range(13)]
    spare = 0
    if wild is not None:
        spare, counts[wild] = counts[wild], 0
    big = sum(1 for c in counts if c == 4) + ((word >> 52) & 0xFF == 0x11)
    needs = sorted(4 - c for c in counts if 0 < c < 4)
    best = (0, 0)
    for pure in range(spare // 4 + 1):
        left, soft = spare - 4 * pure, 0
        for need in needs:
            if need > left:
                break
            left -= need
            soft += 1
        best = max(best, (soft + pure, pure))
    return best[0] - best[1], big + best[1]


@lru_cache(maxsize=None)
def _with_wild(rules: Rules, wild: int) -> Rules:
    """``rules`` with the wild rank ``wild`` (a rank index 0..12)."""
    return rules.replace(wild=RANK_CHARS[wild])


# -- observation -------------------------------------------------------------------

@dataclass(frozen=True)
class Observation:
    """What one player may see (an information set; docs/rules.md §4-5).

    - ``player``, ``phase``, ``current_player`` (``TERMINAL`` at the end),
      ``first_caller`` (the randomly chosen first caller of this deal),
      ``landlord`` (``None`` until decided), ``redeals`` so far.
    - ``hand`` / ``cards``: the player's own cards dealt so far (none before
      the deal, 8 in the early show phase), as ranks and as concrete cards.
    - ``shown``: the other players' visible hands (明牌), seat -> ``Hand``.
    - ``bottom``: the 3 bottom cards once the landlord has taken them.
    - ``card_counts``: cards each player holds (dealt so far).
    - ``history``: this deal's public actions, ``(seat, action)`` pairs.
    - ``base`` (points), ``multiplier`` (breakdown so far), ``shows`` (each
      seat's show multiplier, 0 = none), ``doubles`` (factors 1 or 2).
    - ``last_move`` / ``last_player``: the move to beat in play (``None``
      when the current player leads).
    - ``legal_actions``: the player's legal actions if it is to act, else ()
      (a tuple of ``Action``, or in play the ``MoveList``).
    - ``wild``: laizi rooms (docs/rules.md §7): the wild rank (``Rank``) once
      announced, after the landlord is decided (from the start when the
      rules fix it); ``None`` before and in other games.
    """

    player: int
    phase: Phase
    current_player: int
    first_caller: int
    landlord: Optional[int]
    redeals: int
    hand: Hand
    cards: tuple[Card, ...]
    shown: dict[int, Hand]
    bottom: Optional[Hand]
    card_counts: tuple[int, int, int]
    history: tuple[tuple[int, "Action | Move"], ...]
    base: int
    multiplier: Multiplier
    shows: tuple[int, int, int]
    doubles: tuple[int, int, int]
    last_move: Optional[Move]
    last_player: Optional[int]
    legal_actions: "Sequence[Action | Move] | MoveList"
    wild: Optional[Rank] = None


ActionLike = Union[Action, Move, str, int]

#: A snapshot of the ``_STATE`` attributes (``Game._snapshot``): the values
#: of the ``_SCALARS`` (immutable) in that order, then copies of the ``_LISTS_S``.
_Snapshot = tuple[object, ...]

_STATE = ("_ph", "_cur", "_queue", "_round", "_round_start", "_first", "_dealt", "_hands", "_bottom", "_shows",
          "_caller", "_robs", "_rob_back", "_robber", "_bid", "_bidder", "_landlord", "_base", "_doubles",
          "_last", "_lastp", "_bombs", "_plays", "_winner", "_escaped", "_wild", "_prules", "_flags",
          "_soft")
# The mutable lists of the state (copied in and out of a snapshot) and the rest.
_LISTS_S = ("_queue", "_hands", "_shows", "_doubles", "_plays")
_SCALARS = tuple(n for n in _STATE if n not in _LISTS_S)
_GET_SCALARS = attrgetter(*_SCALARS)


class Game(GameBase):
    """A three-player Dou Dizhu game (docs/rules.md §3-6), from the deal to the settlement.

    ``Game(rules=None, *, seed=None, deal=None, first=None, room=None, beans=None, wild=None)``

    - ``rules``: a ``Rules`` (one deck; game-flow fields choose call/rob or
      point bidding, the show multipliers, doubling, the redeal cap, a
      laizi room; ``wild`` fixes a wild rank for analysis, docs/rules.md §7).
    - ``seed``: an int or a ``numpy.random.Generator`` for the deals and the
      random first caller (``None``: fresh entropy).  A Generator is used as
      is (shared, not copied), which is the fast way to play many games.
    - ``deal``: a given deal (hand 0, hand 1, hand 2, bottom), each card text
      (``"33445..."``: suits are assigned; or concrete ``"S3 H3 ..."``) or
      cards; must be one whole deck dealt 17/17/17 + 3.  A list of such
      deals gives the deals of successive redeals (records use this).
    - ``first``: the first caller of the given deal (default: random), or
      one seat (or ``None``) per given deal.
    - ``room``: a ``Room`` (N, rake, initial multiplier, doubling threshold,
      winners' cap); ``None`` is analysis mode: N = 1, no rake, everyone may
      double.
    - ``beans``: each player's carried beans (three ints) for the doubling
      eligibility and the floors and caps of the settlement; ``None``: no
      limits.
    - ``wild``: laizi rooms whose wild rank is drawn: the wild rank of the
      given deal (a rank such as ``"7"``), or one (or ``None``: drawn from
      the seed) per given deal; records use this.

    ``Game.endgame(hands, ...)`` starts directly in play (puzzles, perft).

    Raises ``InvalidDealError`` for a bad deal, ``InvalidArgumentError`` for bad
    arguments (two-deck rules, beans not three ints, ``wild`` outside a
    laizi room that draws it, or not a rank 3..2, a seed that is not an
    int >= 0 or a Generator).
    """

    __slots__ = ("_rng", "_fork", "_given", "_deals", "_endgame", "_laizi", "_draw", "_wilds", "_show_on") + tuple(
        n for n in _STATE if not hasattr(GameBase, n))  # GameBase's slots and GameCore's fields aside

    PLAYERS, _DECKS = 3, 1
    _P_PLAY, _P_END, _PHASE, _ACTION, _ACTION_WHAT = _PLAY, _END, Phase, Action, "an action"
    _ESCAPE = Action.ESCAPE
    _NOT_LEGAL = "{a} is not legal in the {phase} phase; legal: {legal}"
    _TOP_BOMB = "the rocket"
    _MAX_CARDS, _ID_STRIDE = 20, 1
    _FLOW_TABLE = _FLOW_TABLE
    _LISTS = ("_queue", "_shows", "_doubles", "_plays", "_deals", "_wilds", "_hist")
    _holds = staticmethod(_holds)
    _unbeatable = staticmethod(lambda cards, info: info & 31 == _ROCKET)
    _doubling = staticmethod(lambda cards, info: True)  # every bomb and rocket doubles (docs/rules.md §6)
    _NO_WORDS = ("pass", "no", "p", "不叫", "不要", "n")
    _NO_ACTION = _NEGATIVE
    _RULES_REF = "§2"

    def __init__(self, rules: Optional[Rules] = None, *, seed: "int | np.random.Generator | None" = None,
                 deal: Any = None, first: "int | Sequence[int | None] | None" = None, room: Optional[Room] = None,
                 beans: Optional[Sequence[int]] = None, wild: "str | Rank | Sequence[Any] | None" = None) -> None:
        self._setup(rules, room, beans)
        self._rng = generator(seed)
        self._fork = False  # set by copy(): clone the generator before drawing from it again
        self._given = ([] if deal is None and first is None and wild is None  # the usual case, without the calls
                       else self._parse_deals(deal, first, self._parse_wilds(wild, deal)))
        self._endgame: Optional[dict[str, Any]] = None
        self._deals: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
        self._wilds: list[Optional[int]] = []  # each deal's wild rank (drawn laizi rooms), revealed with the landlord
        self._hist: list[Any] = []
        self._round = 0
        self._start_round()

    def _setup(self, rules: Optional[Rules], room: Optional[Room], beans: Optional[Sequence[int]]) -> None:
        rules = Rules.coerce(rules)
        if rules.decks != 1:
            raise InvalidRulesError("the three-player game uses one deck (Rules.decks == 1)")
        self._beans = check_room_beans(room, beans, 3)
        self._rules = rules
        self._flags = rules.flags
        self._prules = rules  # the rules moves are generated under (laizi: with the wild rank once known)
        self._show_on = tuple(ph for ph in (_SHOW_START, _SHOW_EARLY, _SHOW_LATE) if getattr(rules, _SHOW_FIELDS[ph]))
        self._laizi = rules.laizi or rules.wild is not None
        self._draw = rules.laizi and rules.wild is None  # the wild rank is drawn per deal
        self._room = room

    def _parse_wilds(self, wild: Any, deal: Any) -> list[Optional[int]]:
        """Given wild ranks (rank indices), one per given deal at most."""
        if wild is None:
            return []
        if not self._draw:
            raise InvalidArgumentError("wild= gives the drawn wild rank of a laizi room (Rules(laizi=True)); "
                             "to fix the wild rank for analysis use Rules(wild=...)")
        if deal is None:
            raise InvalidArgumentError("wild is the wild rank of a given deal: give deal= too")
        out: list[Optional[int]] = []
        for w in (list(wild) if isinstance(wild, (list, tuple)) else [wild]):
            out.append(None if w is None else int(Rank.parse(Rules(wild=w).wild)))  # type: ignore[arg-type]
        return out

    @staticmethod
    def _parse_deals(deal: Any, first: Any, wilds: Sequence[Optional[int]] = ()
                     ) -> list[tuple[Optional[int], tuple[tuple[int, ...], ...], Optional[int]]]:
        if deal is None:
            if first is not None:
                raise InvalidArgumentError("first is the first caller of a given deal: give deal= too")
            return []
        deals = deal if (isinstance(deal, (list, tuple)) and deal and isinstance(deal[0], (list, tuple))
                         and len(deal[0]) == 4 and not isinstance(deal[0][0], (int, np.integer))) else [deal]
        firsts = list(first) if isinstance(first, (list, tuple)) else [first]
        if len(firsts) > len(deals):
            raise InvalidArgumentError(f"{len(firsts)} first callers for {len(deals)} deals")
        firsts += [None] * (len(deals) - len(firsts))
        if len(wilds) > len(deals):
            raise InvalidArgumentError(f"{len(wilds)} wild ranks for {len(deals)} deals")
        wilds = list(wilds) + [None] * (len(deals) - len(wilds))
        out = []
        for d, f, w in zip(deals, firsts, wilds):
            if not isinstance(d, (list, tuple)) or len(d) != 4:
                raise InvalidDealError(f"a deal is (hand 0, hand 1, hand 2, bottom), not {d!r}")
            parts = _resolve_cards(d, "the deal")
            sizes = [len(p) for p in parts]
            if sizes != [17, 17, 17, 3]:
                raise InvalidDealError(f"a deal is 17, 17, 17 cards and 3 bottom cards, not {sizes}")
            out.append((None if f is None else check_seat(f, 3), tuple(parts), w))
        return out

    @classmethod
    def endgame(cls, hands: Sequence[Any], landlord: int = 0, *, to_move: Optional[int] = None,
                last: "Move | str | None" = None, last_player: Optional[int] = None,
                rules: Optional[Rules] = None, room: Optional[Room] = None,
                beans: Optional[Sequence[int]] = None, base: int = 1) -> "Game":
        """A game that starts in play with the given hands (puzzles, perft,
        open-hand analysis; docs/rules.md §3).

        ``hands``: three card texts (rank or concrete) or card lists, any
        sizes, together at most one deck; ``landlord``: the landlord's seat;
        ``to_move``: the player to act (default the landlord); ``last`` and
        ``last_player``: the move to beat and who played it (default: the
        player to move leads).  The position counts as mid-game: no spring or
        anti-spring is scored.  Bidding is over (base ``base``, no robs).
        Laizi (docs/rules.md §7): give the wild rank in the rules
        (``Rules(wild="7")``, or ``Rules.preset("laizi", wild="7")``); the
        game is then scored as a laizi room.

        Raises ``InvalidDealError`` for overlapping or impossible hands,
        ``IllegalActionError`` for a bad seat or move to beat, and
        ``InvalidArgumentError`` for a laizi room without a fixed wild rank.
        """
        g = cls.__new__(cls)
        g._setup(rules, room, beans)
        if g._draw:
            raise InvalidArgumentError("a laizi end game needs its wild rank: Rules(laizi=True, wild=...) (docs/rules.md §7)")
        g._rng = np.random.default_rng(0)
        g._fork = False
        if len(hands) != 3:
            raise InvalidDealError(f"an end game has three hands, not {len(hands)}")
        parts = _resolve_cards(list(hands), "the end-game hands")
        if not any(parts):
            raise InvalidDealError("an end game needs at least one card")
        g._given = []
        g._hist = []
        landlord = check_seat(landlord, 3)
        if not isinstance(base, int) or isinstance(base, bool) or base < 1:
            raise InvalidArgumentError(f"base must be an int >= 1, not {base!r}")
        g._deals = [(landlord, (parts[0], parts[1], parts[2], ()))]
        g._wilds = [None]
        g._round = 0
        g._start_round()
        g._landlord = landlord
        g._base = base
        g._queue = []
        g._ph = _PLAY
        cur = landlord if to_move is None else check_seat(to_move, 3)
        g._cur = cur
        g._plays = [2 if s == landlord else 1 for s in range(3)]  # mid-game: neither spring nor anti-spring
        if any(not h._word for h in g._hands):
            raise InvalidDealError("every hand of an end game needs a card (an empty hand has already won)")
        if last is None or last == "":
            g._lastp = cur
        else:
            m = last if isinstance(last, Move) else Move.parse(last, g._rules)
            if isinstance(last, Move) and not (_words_ok(m) and _valid(m._cards, m._info, g._flags)):
                raise IllegalActionError(f"the move to beat {m} is not a valid move under {g._rules!r}")
            if m.is_pass:
                raise IllegalActionError("the move to beat cannot be a pass")
            lp = (cur + 2) % 3 if last_player is None else check_seat(last_player, 3)
            if lp == cur:
                raise IllegalActionError("the player to move cannot be the one who played the move to beat")
            try:
                _resolve_cards(list(hands) + [str(m.cards)], "the end-game hands and the move to beat")
            except InvalidDealError:
                raise InvalidDealError(f"the hands and the move to beat {m} hold more than one deck") from None
            g._last = m
            g._lastp = lp
        g._endgame = {"hands": [" ".join(str(Card(c)) for c in p) for p in parts], "landlord": landlord,
                      "to_move": cur, "last": None if g._lastp == cur else str(g._last),
                      "last_player": None if g._lastp == cur else g._lastp, "base": base}
        return g

    # -- dealing and flow ------------------------------------------------------------
    def _start_round(self) -> None:
        k = self._round
        if k < len(self._deals):
            first, dealt = self._deals[k]
        else:
            if self._fork:
                self._rng = _clone(self._rng)
                self._fork = False
            wild: Optional[int] = None
            if k < len(self._given):
                given_first, dealt, wild = self._given[k]
                first = int(self._rng.random() * 3) if given_first is None else given_first
            else:
                # rng.permutation(54) then rng.random(): each hand in the order its cards are dealt
                perm, u = deal_perm(self._rng, 54)
                dealt = (tuple(perm[0:17]), tuple(perm[17:34]), tuple(perm[34:51]), tuple(perm[51:54]))
                first = int(u * 3)
            if self._draw and wild is None:
                wild = int(self._rng.random() * 13)  # docs/rules.md §7: uniform over 3..2, hidden until the landlord
            self._deals.append((first, dealt))
            self._wilds.append(wild)
        self._first = first
        self._dealt = dealt
        self._set_words((cards_word(dealt[0]), cards_word(dealt[1]), cards_word(dealt[2])))
        self._bottom = cards_word(dealt[3])
        self._shows = [0, 0, 0]
        self._caller: Optional[int] = None
        self._robs = 0
        self._rob_back = False
        self._robber: Optional[int] = None
        self._bid = 0
        self._bidder: Optional[int] = None
        self._landlord: Optional[int] = None
        self._base = 1
        self._doubles = [1, 1, 1]
        self._last = PASS
        self._lastp = -1
        self._bombs = 0
        self._plays = [0, 0, 0]
        self._winner: Optional[int] = None
        self._escaped: Optional[int] = None
        self._soft = 0
        rules = self._rules
        self._wild = None if rules.wild is None else RANK_CHARS.index(rules.wild)
        self._prules = rules
        self._flags = rules.flags
        self._round_start = len(self._hist)
        self._enter_show(_SHOW_START)

    def _order(self, start: int) -> list[int]:
        return [*_ORDERS[start]]

    def _enter_show(self, ph: int) -> None:
        for phase in self._show_on:
            if phase >= ph:
                shows = self._shows
                q = [s for s in _ORDERS[self._first] if not shows[s]]
                if q:
                    self._ph, self._queue, self._cur = phase, q, q[0]
                    return
                break
        self._start_calling()

    def _first_shower(self) -> Optional[int]:
        """The first player to show in time (docs/rules.md §5): the shows
        before and during the deal are asked phase by phase, each in turn
        from the first caller, so the first ``SHOW`` of this deal's history
        is the earliest (a show before the deal before one during it, an
        early show before a late one; turn order within a moment)."""
        for entry in self._hist[self._round_start:]:
            if entry[1] is _A_SHOW:
                return int(entry[0])
        return None

    def _start_calling(self) -> None:
        shower = self._first_shower()
        q = self._order(self._first if shower is None else shower)
        self._ph = _BID if self._rules.bidding == "points" else _CALL
        self._queue, self._cur = q, q[0]

    def _all_pass(self) -> None:
        shower = self._first_shower()
        if shower is not None:
            self._set_landlord(shower, 1)
            return
        cap = self._rules.max_redeals
        if cap is not None and self._round >= cap:
            self._ph, self._cur, self._queue = _END, TERMINAL, []
            return
        self._round += 1
        self._start_round()

    def _set_landlord(self, seat: int, base: int) -> None:
        self._landlord = seat
        self._base = base
        self._add_word(seat, self._bottom)
        if self._draw:  # docs/rules.md §7: the wild rank is announced once the landlord is decided
            w = self._wilds[self._round]
            self._wild = w
            self._prules = _with_wild(self._rules, w)
            self._flags = self._prules.flags
        if self._rules.show_bottom and not self._shows[seat]:
            self._ph, self._queue, self._cur = _SHOW_BOTTOM, [seat], seat
        else:
            self._start_doubling()

    def _may_double(self, seat: int) -> bool:
        room = self._room
        return True if room is None else room.may_double(seat, self._landlord, self._beans)  # type: ignore[arg-type]

    def _start_doubling(self) -> None:
        if self._rules.doubling:
            order = _ORDERS[self._landlord]  # type: ignore[index]
            q = [*order] if self._room is None else [s for s in order if self._may_double(s)]
            if q:
                self._ph, self._queue, self._cur = _DOUBLE, q, q[0]
                return
        self._start_play()

    def _start_play(self) -> None:
        self._ph = _PLAY
        self._queue = []
        self._cur = self._lastp = self._landlord  # type: ignore[assignment]
        self._last = PASS

    # -- undo of flow actions and escapes ---------------------------------------------------
    def _undo(self, entry: Any) -> None:
        """Undo a flow action by replay, an escape from its snapshot.

        A flow action's entry is ``(seat, action, start)``, start being
        where its round begins in ``_hist``: nothing else is saved when it
        is applied, which keeps the flow cheap for loops that never undo.
        Undoing it deals its round again from ``_deals`` (no random draw)
        and applies the round's earlier flow actions again (about a dozen
        at most); the action that ended a round with a redeal goes back to
        that round."""
        start = entry[2]
        if type(start) is not int:  # an escape (GameBase.escape): the snapshot before it
            self._restore(start)
            return
        if start != self._round_start:
            self._round -= 1
        hist = self._hist
        again = hist[start:]
        del hist[start:]
        self._start_round()
        for e in again:
            self._flow(e[1])

    def _snapshot(self) -> _Snapshot:
        return (_GET_SCALARS(self), self._queue[:], self._hands, self._shows[:], self._doubles[:],
                self._plays[:])

    def _restore(self, snap: _Snapshot) -> None:
        for n, v in zip(_SCALARS, cast("tuple[object, ...]", snap[0])):
            setattr(self, n, v)
        for n, v in zip(_LISTS_S, snap[1:]):
            setattr(self, n, list(cast("list[object]", v)))

    # -- the OpenSpiel-like vocabulary (rules, room: _GameBase) ---------------------------
    @property
    def phase(self) -> Phase:
        """The current ``Phase``."""
        return Phase(self._ph)

    def _flow_legal(self) -> list[Action]:
        ph = self._ph
        return [*(_LEGAL_BIDS[self._bid] if ph == _BID else _LEGAL_FLOW[ph])]

    def _flow(self, a: Action) -> None:
        p = self._cur
        self._hist.append((p, a, self._round_start))  # see _undo
        q = self._queue
        q.pop(0)
        ph = self._ph
        if q:
            self._cur = q[0]
        if ph <= _SHOW_LATE:
            if a == _A_SHOW:
                self._shows[p] = getattr(self._rules, _SHOW_FIELDS[ph])
            if not q:
                self._enter_show(ph + 1)
        elif ph == _CALL:
            if a == _A_CALL:
                self._caller = p
                if q:  # those after the caller have not said 不叫: each may rob once
                    self._ph = _ROB
                else:
                    self._set_landlord(p, 1)
            elif not q:
                self._all_pass()
        elif ph == _ROB:
            if a == _A_ROB:
                self._robs += 1
                self._robber = p
            if not q:
                if self._robber is not None and self._rules.rob_back and not self._rob_back:
                    self._rob_back = True  # the caller's last chance (docs/rules.md §4 decision)
                    caller = cast(int, self._caller)  # the call that opened the rob phase set it
                    self._queue, self._cur = [caller], caller
                else:
                    self._set_landlord(cast(int, self._caller) if self._robber is None else self._robber, 1)
        elif ph == _BID:
            if a != _A_NO_BID:
                self._bid = int(a) - _A_BID_1 + 1
                self._bidder = p
                if self._bid == 3:
                    self._set_landlord(p, 3)
                    return
            if not q:
                if self._bidder is None:
                    self._all_pass()
                else:
                    self._set_landlord(self._bidder, self._bid)
        elif ph == _SHOW_BOTTOM:
            if a == _A_SHOW:
                self._shows[p] = self._rules.show_bottom
            self._start_doubling()
        elif ph == _DOUBLE:
            if a == _A_DOUBLE:
                self._doubles[p] = 2
            if not q:
                self._start_play()

    def copy(self) -> "Game":
        """An independent copy (same history, so it can ``pop`` too).  Both
        games draw later redeals from their own clone of the random
        generator's current state (made when first needed), so the copy
        deals what the original would have dealt, and neither disturbs the
        other (nor, from then on, a ``Generator`` passed as ``seed``)."""
        g: Game = super().copy()
        g._fork = self._fork = True
        return g

    # -- reading the state ---------------------------------------------------------------
    @property
    def first_caller(self) -> int:
        """This deal's randomly chosen first caller (docs/rules.md §4)."""
        return self._first

    @property
    def landlord(self) -> Optional[int]:
        """The landlord's seat, ``None`` until decided."""
        return self._landlord

    @property
    def redeals(self) -> int:
        """How many times the cards were dealt again after everybody passed."""
        return self._round

    @property
    def base(self) -> int:
        """The base score (底分, points): 1 for a call, the bid under point bidding."""
        return self._base

    @property
    def shows(self) -> tuple[int, int, int]:
        """Each seat's show multiplier (0: has not shown)."""
        return tuple(self._shows)  # type: ignore[return-value]

    @property
    def robs(self) -> int:
        """How many times the landlord was robbed (抢地主, rob back included)."""
        return self._robs

    @property
    def is_laizi(self) -> bool:
        """Whether this is a laizi game (``Rules.laizi`` or a fixed ``Rules.wild``; docs/rules.md §7)."""
        return self._laizi

    @property
    def wild(self) -> Optional[Rank]:
        """The wild rank (癞子) once announced (docs/rules.md §7): ``None`` before
        the landlord is decided in a laizi room, and in other games."""
        return None if self._wild is None else Rank(self._wild)

    @property
    def drawn_wild(self) -> Optional[Rank]:
        """Laizi rooms that draw the wild rank: the rank drawn with this deal,
        announced or not yet (a god's-eye view, like ``bottom``; records
        keep it); ``None`` in other games."""
        w = self._wilds[self._round] if self._draw else None
        return None if w is None else Rank(w)

    @property
    def bottom(self) -> Hand:
        """The bottom cards (底牌), whether or not revealed yet."""
        return Hand._trusted(self._bottom)

    def cards(self, player: int) -> tuple[Card, ...]:
        """Seat ``player``'s current concrete cards (suits for display: of each
        rank the lowest suits S, H, C, D are kept)."""
        s = self._seat(player)
        pool = list(self._dealt[s])
        if s == self._landlord:
            pool += self._dealt[3]
        return self._concrete(pool, self._word(s))

    @staticmethod
    def _concrete(pool: Iterable[int], word: int) -> tuple[Card, ...]:
        left = [(word >> (4 * r)) & 0xF for r in range(15)]
        out = []
        for c in sorted(pool):
            r = _card_rank(c)
            if left[r]:
                left[r] -= 1
                out.append(int.__new__(Card, c))
        return tuple(out)

    @property
    def deal(self) -> tuple[tuple[Card, ...], ...]:
        """This deal's concrete cards: (hand 0, hand 1, hand 2, bottom) as dealt."""
        return tuple(tuple(int.__new__(Card, c) for c in part) for part in self._dealt)

    @property
    def deals(self) -> list[tuple[int, tuple[tuple[Card, ...], ...]]]:
        """Every deal so far (redeals included) as ``(first caller, deal)``."""
        return [(f, tuple(tuple(int.__new__(Card, c) for c in part) for part in d))
                for f, d in self._deals[: self._round + 1]]

    def multiplier(self) -> Multiplier:
        """The multiplier breakdown so far (docs/rules.md §6); spring and
        anti-spring are known once the game is over.  Laizi games with the
        laizi table (docs/rules.md §7): soft bombs are ``bombs`` (x2 each); hard
        bombs, pure wild bombs and rockets are ``big_bombs`` (x4 each)."""
        room = self._room
        over = self._winner is not None
        lw = over and self._winner == self._landlord
        bombs, big = self._bombs, 0
        if self._laizi and self._rules.laizi_bombs == "tiered":
            bombs, big = self._soft, self._bombs - self._soft
        return Multiplier(
            initial=room.initial_multiplier if room else 1,
            robs=self._robs,
            bombs=bombs,
            show=combine_shows(self._shows, self._rules.show_combine),
            spring=lw and sum(self._plays) == self._plays[self._landlord],  # type: ignore[index]
            anti_spring=over and not lw and self._plays[self._landlord] == 1,  # type: ignore[index]
            big_bombs=big,
        )

    def deal_bombs(self) -> tuple[int, int]:
        """The bombs of the deal (docs/rules.md §6, escape): for each hand as
        dealt (the landlord's with the bottom once taken), the most disjoint
        bombs and rockets it can form, whether played, broken up or still in
        hand; so playing or breaking a bomb never lowers the count.  Returns
        ``(x2, x4)``: bombs worth x2 and x4 in this room's scoring (happy
        rooms and laizi ``"plain"`` scoring: all x2; the laizi table: soft
        bombs x2, hard bombs, pure wild bombs and rockets x4, the ways with
        the most bombs preferring x4 ones; wild cards count once the wild
        rank is known).  An end game counts its starting hands."""
        ll, bottom = self._landlord, self._bottom
        words = [_cards_word(self._dealt[s]) + (bottom if s == ll else 0) for s in range(3)]
        if not self._laizi:
            return sum(map(_bombs_in, words)), 0
        soft = big = 0
        for w in words:
            x2, x4 = _laizi_bombs_in(w, self._wild)
            soft, big = soft + x2, big + x4
        if self._rules.laizi_bombs == "plain":
            return soft + big, 0
        return soft, big

    def escape_multiplier(self) -> int:
        """M of the escape formula now (docs/rules.md §6): 2 per rob × show
        cards × the factors of the bombs of the deal (``deal_bombs``), every
        one counted as played; without the room's initial multiplier and
        doubling.  It picks the branch of the happy-room penalty; in laizi
        rooms it is the multiplier the escaper's would-be loss is charged at."""
        show = combine_shows(self._shows, self._rules.show_combine)
        return escape_multiplier(self._robs, show, *self.deal_bombs())

    def settlement(self) -> Settlement:
        """The ``Settlement`` of the finished game (docs/rules.md §6): points,
        multiplier breakdown, stakes, bean transfers, rake and net.  Laizi
        games (docs/rules.md §7): the laizi table, X x 1/4 with each winner's
        gain capped at 10000 points (exact ``Fraction`` points), transfers
        rounded down to whole beans, and the laizi escape charge.  An escape
        is charged at ``escape_multiplier()`` with the room's initial
        multiplier and the doubling chosen so far.  Raises
        ``IllegalActionError`` while the game is not over."""
        if self._ph != _END:
            raise IllegalActionError("the game is not over: no settlement yet")
        room = self._room
        if self._escaped is not None:
            m = 1 if self._landlord is None else self.escape_multiplier()
            return settle_escape(self._escaped, self._landlord, self._base, m, self.multiplier(),
                                 self._doubles, room, self._beans, laizi=self._laizi)
        if self._landlord is None:
            return settle_no_landlord(self.multiplier())
        return settle_game(self._landlord, self._winner == self._landlord, self._base, self.multiplier(),
                           self._doubles, room, self._beans, laizi=self._laizi)

    # -- information sets --------------------------------------------------------------
    def _dealt_count(self) -> int:
        ph = self._ph
        if ph == _SHOW_START:
            return 0
        if ph == _SHOW_EARLY:
            return self._rules.show_early_cards
        return 17

    def _visible_cards(self, s: int) -> tuple[Card, ...]:
        n = self._dealt_count()
        if n < 17:
            return tuple(int.__new__(Card, c) for c in self._dealt[s][:n])
        return self.cards(s)

    def _visible_word(self, s: int) -> int:
        n = self._dealt_count()
        if n < 17:
            return _cards_word(self._dealt[s][:n])
        return self._word(s)

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may see now (docs/rules.md §4-5, §7): its own cards
        (dealt so far), the hands shown by others, the bottom once taken,
        card counts, the public history of this deal and, in laizi games,
        the wild rank once announced.  Two states that
        differ only in hidden cards give equal observations.  Raises
        ``IllegalActionError`` for a bad seat."""
        s = self._seat(player)
        own = self._visible_cards(s)
        shown = {}
        counts = []
        for q in range(3):
            w = self._visible_word(q)
            counts.append(_ncards(w))
            if q != s and self._shows[q]:
                shown[q] = Hand._trusted(w)
        bottom = Hand._trusted(self._bottom) if self._landlord is not None else None
        return Observation(
            first_caller=self._first, landlord=self._landlord, redeals=self._round,
            hand=Hand._trusted(self._visible_word(s)), cards=own, shown=shown, bottom=bottom,
            card_counts=tuple(counts),  # type: ignore[arg-type]
            history=tuple((e[0], e[1]) for e in self._hist[self._round_start:]), base=self._base,
            shows=self.shows, wild=self.wild, **self._public(s),
        )

    # -- text ----------------------------------------------------------------------------
    def parse_action(self, text: str) -> "Action | Move":
        """Read an action typed as text (docs/rules.md §1-2 notation).

        In play: ``pass`` (or 不出, ``p``) or cards such as ``33`` /
        ``3334`` / ``10JQKA``, matched against the legal moves; cards with
        several legal readings need the full ``CARDS|COMBO|MAIN|LENGTH``
        form.  In the other phases: an ``Action`` name (``call``, ``rob``,
        ``show``, ``double``, ``1``-``3`` for bids) or ``pass`` / ``no`` for
        the phase's "no" action.

        Raises ``InvalidMoveError`` for unreadable text,
        ``AmbiguousMoveError`` (listing the readings) and
        ``IllegalActionError`` for cards that are no legal move here.
        """
        return super().parse_action(text)  # type: ignore[no-any-return]

    def _parse_move(self, t: str, low: str) -> Move:
        if "|" in t:
            return Move.parse(t, self._prules)
        try:
            cards = Hand(t)
        except InvalidCardsError as e:
            raise InvalidMoveError(str(e)) from None
        moves = cast(MoveList, self.legal_actions())  # in play: always the MoveList
        readings = [m for m in moves if m.codes[0] == cards.word and not m.is_pass]
        return self._one_reading(t, cards, readings, cards <= self.hand(self._cur), self._prules)

    def _parse_flow(self, t: str, legal: list[Any]) -> "Action | Move":
        try:
            return Action.parse(t)
        except InvalidMoveError:
            raise InvalidMoveError(f"{t!r} is not an action of the {Phase(self._ph)} phase; legal: "
                                   f"{', '.join(str(a) for a in legal)}") from None

    def __repr__(self) -> str:
        return (f"<Game phase={Phase(self._ph)} to_move={self._cur} landlord={self._landlord} "
                f"redeals={self._round} actions={len(self._hist)}>")

    def __str__(self) -> str:
        lines = [f"phase {Phase(self._ph)}, to move: {self._cur if self._cur != TERMINAL else '-'}, "
                 f"first caller {self._first}, redeals {self._round}"]
        for s in range(3):
            role = "landlord" if s == self._landlord else ("farmer" if self._landlord is not None else "")
            show = f" shown x{self._shows[s]}" if self._shows[s] else ""
            dbl = " doubled" if self._doubles[s] == 2 else ""
            cards = " ".join(str(c) for c in self.cards(s))
            lines.append(f"  seat {s} {role}{show}{dbl}: {cards}")
        bottom = " ".join(str(int.__new__(Card, c)) for c in self._dealt[3])
        lines.append(f"  bottom: {bottom}{'' if self._landlord is not None else ' (hidden)'}")
        if self._laizi:
            lines.append(f"  laizi, wild rank: {'(not drawn yet)' if self._wild is None else RANK_CHARS[self._wild]}")
        m = self.multiplier()
        big = f", x4 bombs {m.big_bombs}" if m.big_bombs else ""
        lines.append(f"  base {self._base}, multiplier {m.total} (robs {m.robs}, bombs {m.bombs}{big}, show x{m.show})")
        if self._ph == _PLAY and self.last_move is not None:
            lines.append(f"  to beat: {self.last_move} by seat {self._lastp}")
        if self._ph == _END:
            if self._escaped is not None:
                lines.append(f"  seat {self._escaped} escaped")
            elif self._winner is not None:
                lines.append(f"  seat {self._winner} went out")
            else:
                lines.append("  no landlord (redeal cap reached)")
        return "\n".join(lines)

    def _landlords(self) -> tuple[int, ...]:
        return () if self._landlord is None else (self._landlord,)

    def _key(self) -> tuple[object, ...]:
        return (self._rules, self._room, self._beans, self._snapshot(), tuple(self.history),
                tuple(self._deals[: self._round + 1]))
