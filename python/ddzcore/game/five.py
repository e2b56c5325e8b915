"""The five-player two-deck game, 五人斗地主 (docs/rules.md §8).

Two decks (108 cards), five players with 21 cards each, 3 bottom cards.  A
random non-joker card among the 105 dealt ones is turned up: the marked card
(明牌).  Its holder is the open landlord (明地主) and takes the bottom cards
unseen by the others; the holder of its twin (same rank and suit, other deck)
is the hidden landlord (暗地主), unless the open landlord holds both or the
twin lies in the bottom: then the open landlord plays alone against four.

Phases::

    REVEAL   亮出身份   every player in turn from the open landlord: reveal or
                       not (farmers can only decline); x2 once if any landlord reveals
    DOUBLE   加倍       each eligible player in turn from the open landlord, once
    PLAY     出牌       the open landlord leads; a trick ends after four passes
    END

Vocabulary as the three-player ``Game`` (OpenSpiel-like):
``current_player()``, ``legal_actions()``, ``apply(action)`` (checked),
``push(action)`` (unchecked in play), ``pop()``, ``copy()``,
``is_terminal()``, ``returns()`` (points), ``settlement()`` (beans),
``observation(p)`` (an information set); records through
``ddzcore.game.records`` (``to_record``, ``replay``).  Seats are 0-4
in dealing and turn order; the next player after seat s is (s + 1) mod 5.

Concrete cards (``FiveCard``) carry their deck copy (docs/rules.md §1): an int
``copy × 54 + Card``, written ``S3`` (copy 0) and ``S3'`` (copy 1).  Play
itself is by ranks (``Hand`` words with ``Rules(decks=2)``), plus one fact
about suits: how many cards of the marked card's face (its rank and suit,
either copy) each player holds and plays.

Points the rule book (docs/rules.md) leaves open, decided here:

- **Which concrete cards a move plays.**  Two cards of the same face (the
  marked card and its twin) cannot be told apart at the table, and no other
  suit matters, so a move's concrete cards are its ranks plus the number of
  marked-face cards among them.  A player holding marked-face cards chooses
  that number when its move contains the marked rank: the plain ``Move``
  plays none, ``MarkedMove(move, k)`` plays k; ``legal_actions`` lists the
  choices the hand allows (a move the hand forces to hold marked cards only
  as ``MarkedMove``; ``apply`` also takes the plain move then, playing as
  few as it can), and the history keeps what was played, which is what the
  table sees.  A marked-face card played by anyone but the open
  landlord is the twin: its player, the hidden landlord, is revealed (no
  doubling).  The open landlord that holds both has played the twin once it
  has played both: then everyone knows it plays alone (revealed by play
  too).  Once the landlords are public the face no longer matters: only
  plain moves are offered and played.
- The open landlord playing alone may also choose to reveal (x2): it is a
  landlord, and revealing announces that it plays alone.
- A reveal makes the landlords public at once (the open landlord's reveal
  names its partner); landlords then see each other's hands.  The open
  landlord always knows whether it plays alone (it sees the bottom); the
  hidden landlord knows its partner; a farmer knows only the open landlord
  until the reveal.
- Doubling eligibility (docs/rules.md §5 with a room) uses the roles public when
  doubling starts: a public landlord needs every player above the
  threshold; anyone else (a farmer, or a hidden landlord not yet revealed)
  its own beans and those of every public landlord.  So being asked leaks
  nothing.  Players not eligible are skipped, as in the three-player game.
- Base 1; the room's initial multiplier applies; there is no calling, no
  show cards, no redeal.
- Escape (逃跑, ``escape(seat)``, any phase, any seat) follows docs/rules.md
  §6 with the five-player stake: M is 2 for every doubling bomb of the deal
  (``deal_bombs``: a rank of 5 or more cards, 3 or 4 jokers, in each hand as
  dealt, the open landlord's with the bottom) and 2 for a chosen reveal; S is
  the escaper's stake per unit of multiplier, halved with two landlords; a
  hidden landlord escapes as a landlord, revealed or not.  The penalty goes
  to the opposing side, split equally; the escaper's partners neither pay
  nor receive (``settle_five_escape``).
- Stakes with two landlords are halves (points are floats); beans per
  farmer-landlord pair are rounded down (as docs/rules.md §7 does for laizi), so
  with N = 1 a pair of half a point moves no bean: read ``returns()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Optional, Sequence, Union, cast

import numpy as np

from ..cards import _UNIT, RANK_CHARS, FiveCard, Hand, _card_rank, _scan
from ..errors import IllegalActionError, InvalidArgumentError, InvalidCardsError, InvalidDealError, InvalidMoveError
from ..errors import InvalidRulesError
from ..generate import legal_moves
from ..moves import PASS, Combo, Move, MoveList, _record_ok, _words_ok
from ..rules import Rules
from .._gamecore import deal_perm
from .base import GameBase, _hand, _ncards, _parse_enum, check_room_beans, generator
from .settlement import FiveMultiplier, FiveSettlement, Room, settle_five, settle_five_escape

__all__ = ["FivePhase", "FiveAction", "MarkedMove", "FiveObservation", "FiveGame"]

PLAYERS = 5
HAND_CARDS = 21
N_CARDS = 108

def _resolve(parts: Sequence[Any], what: str) -> list[tuple[int, ...]]:
    """Concrete card tuples for each part: card text (concrete cards keep
    their ids; bare ranks take the free copies in the order S H C D, deck 0
    first), ``Hand`` objects, or sequences of card ids."""
    scanned: list[list[tuple[Optional[int], int]]] = []
    for part in parts:
        if isinstance(part, Hand):
            scanned.append([(None, int(r)) for r in part.ranks()])
        elif isinstance(part, str):
            scanned.append(_scan(part))
        else:
            scanned.append([(int(FiveCard(c)), _card_rank(int(FiveCard(c)) % 54)) for c in part])
    used: set[int] = set()
    for cards in scanned:
        for c, _ in cards:
            if c is not None:
                if c in used:
                    raise InvalidDealError(f"card {FiveCard(c)} is dealt twice in {what}")
                used.add(c)
    free = [[c for c in sorted(range(N_CARDS), key=lambda c: (c >= 54, c % 54))
             if _card_rank(c % 54) == r and c not in used] for r in range(15)]
    out = []
    for cards in scanned:
        got = []
        for c, r in cards:
            if c is None:
                if not free[r]:
                    raise InvalidDealError(f"{what} has more cards of rank {RANK_CHARS[r]} than two decks hold")
                c = free[r].pop(0)
            got.append(c)
        out.append(tuple(got))
    return out


# -- phases, actions, moves ---------------------------------------------------------------

class FivePhase(IntEnum):
    """The phases of a five-player game (docs/rules.md §8)."""

    REVEAL = 0  #: 亮出身份: each player in turn from the open landlord
    DOUBLE = 1  #: 加倍: each eligible player, once
    PLAY = 2  #: 出牌
    END = 3  #: the game is over

    def __str__(self) -> str:
        return self.name.lower()


class FiveAction(IntEnum):
    """The non-play actions of a five-player game (docs/rules.md §8).  The doubling
    values equal ``Action.NO_DOUBLE`` / ``Action.DOUBLE``, so either enum works."""

    NO_DOUBLE = 10  #: 不加倍
    DOUBLE = 11  #: 加倍
    ESCAPE = 12  #: 逃跑 (recorded by ``FiveGame.escape``; never a legal action)
    NO_REVEAL = 13  #: 不亮 (放弃)
    REVEAL = 14  #: 亮出身份

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: "str | int") -> "FiveAction":
        """An action from its name (``"reveal"``, ``"no_double"``), Chinese
        term (``"亮出身份"``, ``"加倍"``) or value.  Raises ``InvalidMoveError``."""
        return _parse_enum(cls, text, (int, np.integer), _FIVE_ALIASES,  # type: ignore[no-any-return]
                           "a five-player action")


_FIVE_ALIASES = {"亮出身份": FiveAction.REVEAL, "亮": FiveAction.REVEAL, "不亮": FiveAction.NO_REVEAL,
                 "放弃": FiveAction.NO_REVEAL, "加倍": FiveAction.DOUBLE, "不加倍": FiveAction.NO_DOUBLE,
                 "逃跑": FiveAction.ESCAPE}
_NO = {0: FiveAction.NO_REVEAL, 1: FiveAction.NO_DOUBLE}
# The actions the flow uses, as module constants: under Python 3.11 every read
# of ``FiveAction.REVEAL`` takes ``EnumType.__getattr__``'s slow hook.
_A_NO_REVEAL, _A_REVEAL, _A_NO_DOUBLE, _A_DOUBLE = (FiveAction.NO_REVEAL, FiveAction.REVEAL, FiveAction.NO_DOUBLE,
                                                    FiveAction.DOUBLE)


class MarkedMove(Move):
    """A move that plays ``marked`` (1 or 2) cards of the marked card's face
    (its rank and suit, either deck copy) among its cards (docs/rules.md §8; see
    the module docstring).  ``MarkedMove("3|single|3|1", 1)``; text
    ``"3|single|3|1 marked 1"``.  ``move`` is the plain ``Move``; a
    ``MarkedMove`` never equals a plain ``Move``.

    Raises ``InvalidMoveError`` for a pass, a count outside 1-2, or a
    ``Move`` that is no valid reading under ``rules`` (default the move's,
    else two decks'; one forged around its checks); whether the move holds
    that many cards of the marked rank is checked in play.  ``marked``,
    ``move`` and pickling raise ``InvalidMoveError`` for a ``MarkedMove``
    itself forged around ``__init__``, naming the bad field (see ``_marked_fault``).
    """

    __slots__ = ("_marked",)
    _marked: int

    def __init__(self, move: "Move | str", marked: int, rules: "Rules | str | None" = None) -> None:
        rules = None if rules is None else Rules.coerce(rules)  # a preset name, or InvalidRulesError
        m = move if isinstance(move, Move) else Move.parse(move, rules or _RULES)
        own = getattr(m, "_rules", None)
        if own is not None and not isinstance(own, Rules):  # a Move forged around its checks
            raise InvalidMoveError(f"{m} is no move: its rules (_rules) are {own!r}, not a Rules")
        if not _record_ok(m, rules or own or _RULES):
            raise InvalidMoveError(f"{m} is no move: its record is not a valid reading (docs/rules.md §2)")
        if m.is_pass or not isinstance(marked, int) or isinstance(marked, bool) or not 1 <= marked <= 2:
            raise InvalidMoveError(f"a marked move plays 1 or 2 marked cards of a real move, not {marked!r} of {m}")
        self._cards, self._info, self._rules, self._marked = m._cards, m._info, m._rules, int(marked)

    @classmethod
    def _make(cls, move: Move, marked: int) -> "MarkedMove":
        out = cls.__new__(cls)
        out._cards, out._info, out._rules, out._marked = move._cards, move._info, move._rules, marked
        return out

    @property
    def marked(self) -> int:
        """Marked-face cards among the move's cards."""
        return self._checked()._marked

    @property
    def move(self) -> Move:
        """The plain move (cards and reading)."""
        return Move._from_codes(self._checked()._cards, self._info, getattr(self, "_rules", None))

    def _checked(self) -> "MarkedMove":
        """This move, if its fields hold a marked move; else ``InvalidMoveError``
        naming the bad field (``_marked_fault``)."""
        fault = _marked_fault(self)
        if fault is not None:
            raise InvalidMoveError(f"{self} is no marked move: {fault}")
        return self

    def __reduce__(self) -> "tuple[object, ...]":
        return (MarkedMove, (self.move, self._marked))

    def __str__(self) -> str:
        return f"{Move.__str__(self)} marked {getattr(self, '_marked', None)}"  # shown, forged or not

    def __repr__(self) -> str:
        return f"MarkedMove({Move.__str__(self)!r}, {getattr(self, '_marked', None)})"

    def _key(self) -> tuple[object, ...]:
        return getattr(self, "_cards", None), getattr(self, "_info", None), getattr(self, "_marked", None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MarkedMove):
            return self._key() == other._key()
        if isinstance(other, Move):
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._key())


def _marked_fault(m: object) -> "str | None":
    """What keeps ``m``'s fields from holding a marked move, naming the field
    (``None`` when they hold one): the count ``_marked`` must be the int 1
    or 2; ``_rules`` ``None`` or a ``Rules``; the record ``_cards``, ``_info``
    two card/info words (``moves._words_ok``) that are a valid reading of
    the cards under those rules (else two decks', docs/rules.md §2, §8) and
    no pass.  A ``MarkedMove`` forged around ``__init__`` may hold anything."""
    k = getattr(m, "_marked", None)
    if type(k) is not int or not 1 <= k <= 2:
        return f"its count (_marked) is {k!r}, not the int 1 or 2"
    cards, info, rules = getattr(m, "_cards", None), getattr(m, "_info", None), getattr(m, "_rules", None)
    if not _words_ok(m):
        return f"its record (_cards, _info) is ({cards!r}, {info!r}), not two card/info words (ints in 0..2**64-1)"
    if rules is not None and not isinstance(rules, Rules):
        return f"its rules (_rules) are {rules!r}, not a Rules"
    if int(info) & 0x1F == 0:  # type: ignore[arg-type]
        return f"its reading (_info) is {info!r}, a pass"
    if not _record_ok(m, rules or _RULES):
        return (f"its record (_cards, _info) is ({cards!r}, {info!r}), not a valid reading of its cards "
                f"(docs/rules.md §2)")
    return None


_RULES = Rules(decks=2)
_BOMB = int(Combo.BOMB)
_JOKER_BOMB = int(Combo.JOKER_BOMB)
# Two-deck containment (counts up to 8): even and odd nibbles in separate byte
# lanes, 0x80 + h - c never borrows across lanes; bit 7 says h >= c.
_LO = 0x0F0F0F0F0F0F0F0F
_HI = 0x8080808080808080


def _contains(h: int, c: int) -> bool:
    return ((((h & _LO) | _HI) - (c & _LO)) & _HI == _HI
            and ((((h >> 4) & _LO) | _HI) - ((c >> 4) & _LO)) & _HI == _HI)


def _doubling_bomb(cards: int, info: int) -> bool:
    """5-8 card bombs, three and four jokers (docs/rules.md §8); not 4-card bombs or two jokers."""
    combo = info & 31
    return (combo == _BOMB and _ncards(cards) >= 5) or (combo == _JOKER_BOMB and _ncards(cards) >= 3)


# -- observation -------------------------------------------------------------------------

@dataclass(frozen=True)
class FiveObservation:
    """What one player may see (an information set; docs/rules.md §8).

    - ``player``, ``phase``, ``current_player`` (``TERMINAL`` at the end).
    - ``marked``: the marked card (public, a ``FiveCard``); ``open_landlord``.
    - ``hidden_landlord``: the hidden landlord's seat if this player knows it
      (it is that player, or the landlords are public), else ``None``.
    - ``solo``: whether the open landlord plays alone, if this player knows
      (the open landlord always does), else ``None``.
    - ``revealed``: the landlords are public (by a reveal or by the twin played).
    - ``allies`` / ``opponents``: the seats this player knows to be on its
      own side / the other side.
    - ``hand`` / ``cards``: the player's cards as ranks and as concrete cards;
      ``marked_held``: marked-face cards it holds.
    - ``shown``: other players' hands this player sees (a landlord sees its
      partner's once the landlords are public), seat -> ``Hand``.
    - ``bottom``: the 3 bottom cards, for the open landlord only.
    - ``card_counts``: cards each player holds (public).
    - ``history``: the public actions, ``(seat, action)`` pairs.
    - ``base`` (points), ``multiplier`` (``FiveMultiplier`` so far),
      ``doubles`` (factors 1 or 2).
    - ``last_move`` / ``last_player``: the move to beat (``None`` on a lead).
    - ``legal_actions``: the player's legal actions if it is to act, else ().
    - ``wild``: always ``None`` (no laizi with five players).
    """

    player: int
    phase: FivePhase
    current_player: int
    marked: FiveCard
    open_landlord: int
    hidden_landlord: Optional[int]
    solo: Optional[bool]
    revealed: bool
    allies: tuple[int, ...]
    opponents: tuple[int, ...]
    hand: Hand
    cards: tuple[FiveCard, ...]
    marked_held: int
    shown: dict[int, Hand]
    bottom: Optional[Hand]
    card_counts: tuple[int, ...]
    history: tuple[tuple[int, "FiveAction | Move"], ...]
    base: int
    multiplier: FiveMultiplier
    doubles: tuple[int, ...]
    last_move: Optional[Move]
    last_player: Optional[int]
    legal_actions: "Sequence[FiveAction | Move]"
    wild: None = None  #: no wild cards with five players (the three-player ``Observation`` has the field)


_REVEAL, _DOUBLE, _PLAY, _END = range(4)

FiveActionLike = Union[FiveAction, Move, str, int]


class FiveGame(GameBase):
    """A five-player two-deck Dou Dizhu game (五人斗地主, docs/rules.md §8), from
    the deal to the settlement.

    ``FiveGame(rules=None, *, seed=None, deal=None, marked=None, room=None, beans=None)``

    - ``rules``: a ``Rules`` with ``decks=2`` (default ``Rules(decks=2)``);
      its move-generation fields and ``doubling`` apply, the calling and
      show-card fields do not.
    - ``seed``: an int or ``numpy.random.Generator`` for the deal and the
      marked card (``None``: fresh entropy).
    - ``deal``: a given deal: five hands of 21 and 3 bottom cards, each as
      text (concrete ``"S3 S3' HT ..."``, bare ranks ``"3345..."`` that take
      free copies, or a mix), a ``Hand`` or card ids; two whole decks.
    - ``marked``: the marked card of a given deal (``"S3'"``, a
      ``FiveCard`` or id): a non-joker card in one of the five hands.
      Default: drawn from the seed among the dealt non-joker cards.
    - ``room``: a ``Room`` (N, rake A, initial multiplier, doubling
      threshold, winners' cap); ``None``: N = 1, no rake, everyone may double.
    - ``beans``: five carried bean counts (floors, caps, doubling
      eligibility), or ``None`` for no limits.

    Raises ``InvalidDealError`` for a bad deal or marked card, and
    ``InvalidRulesError`` / ``InvalidArgumentError`` for other bad arguments (rules not two-deck or laizi,
    beans not five ints, a seed that is not an int >= 0 or a Generator).
    """

    __slots__ = ("_dealt", "_marked", "_mrank", "_open", "_hidden", "_face", "_revealed", "_how", "_revealer",
                 "_chosen")

    PLAYERS, _DECKS = PLAYERS, 2
    _P_PLAY, _P_END, _PHASE, _ACTION, _ACTION_WHAT = _PLAY, _END, FivePhase, FiveAction, "a five-player action"
    _ESCAPE = FiveAction.ESCAPE
    _NOT_LEGAL = "{a} is not legal for seat {seat} in the {phase} phase; legal: {legal}"
    _TOP_BOMB = "four jokers"
    _MAX_CARDS, _ID_STRIDE = 24, 3  # moves of up to the open landlord's 24 cards; 0-2 marked-face cards each
    _LISTS = ("_face", "_queue", "_doubles", "_plays", "_hist")
    _MARKED = True
    _holds = staticmethod(_contains)
    _unbeatable = staticmethod(lambda cards, info: info & 31 == _JOKER_BOMB and _ncards(cards) == 4)
    _doubling = staticmethod(_doubling_bomb)  # 5-8 card bombs, three and four jokers (docs/rules.md §8)
    _NO_WORDS = ("pass", "no", "p", "n", "放弃")
    _NO_ACTION = _NO
    _RULES_REF = "§2, §8"

    def __init__(self, rules: Optional[Rules] = None, *, seed: "int | np.random.Generator | None" = None,
                 deal: Optional[Sequence[Any]] = None, marked: "FiveCard | str | int | None" = None,
                 room: Optional[Room] = None, beans: Optional[Sequence[int]] = None) -> None:
        rules = _RULES if rules is None else Rules.coerce(rules)
        if rules.decks != 2 or rules.wild is not None or getattr(rules, "laizi", False):
            raise InvalidRulesError(f"the five-player game needs two-deck rules without wild cards (Rules(decks=2)), "
                             f"not {rules!r}")
        self._beans = check_room_beans(room, beans, PLAYERS)
        self._rules = self._prules = rules
        self._flags = rules.flags
        self._room = room
        rng = generator(seed)
        draw: Optional[float] = None  # the draw after the deal's permutation (the marked card's)
        if deal is None:
            if marked is not None:
                raise InvalidArgumentError("marked is the marked card of a given deal: give deal= too")
            perm, draw = deal_perm(rng, N_CARDS)  # rng.permutation(N_CARDS) then rng.random(), in C
            dealt = tuple(tuple(perm[HAND_CARDS * s:HAND_CARDS * (s + 1)]) for s in range(PLAYERS)) + (
                tuple(perm[PLAYERS * HAND_CARDS:]),)
        else:
            if not isinstance(deal, (list, tuple)) or len(deal) != PLAYERS + 1:
                raise InvalidDealError(f"a five-player deal is (hand 0, ..., hand 4, bottom), not {deal!r}")
            dealt = tuple(_resolve(list(deal), "the deal"))
            sizes = [len(p) for p in dealt]
            if sizes != [HAND_CARDS] * PLAYERS + [3]:
                raise InvalidDealError(f"a five-player deal is 21 cards each and 3 bottom cards, not {sizes}")
        if marked is None:
            pool = [c for part in dealt[:PLAYERS] for c in part if c % 54 < 52]
            mk = pool[int((rng.random() if draw is None else draw) * len(pool))]
        else:
            try:
                mk = int(marked if isinstance(marked, FiveCard) else FiveCard(marked))
            except InvalidCardsError as e:
                raise InvalidDealError(f"bad marked card: {e}") from None
            if mk % 54 >= 52 or not any(mk in part for part in dealt[:PLAYERS]):
                raise InvalidDealError(f"the marked card {FiveCard(mk)} must be a non-joker card dealt to a "
                                       f"player, never a joker or a bottom card (docs/rules.md §8)")
        self._dealt = dealt
        self._marked = mk
        self._mrank = _card_rank(mk % 54)
        twin = (mk + 54) % N_CARDS
        self._open = op = next(s for s in range(PLAYERS) if mk in dealt[s])
        self._hidden = next((s for s in range(PLAYERS) if s != op and twin in dealt[s]), None)
        u = _UNIT.__getitem__
        self._set_words([sum(map(u, dealt[s])) for s in range(PLAYERS)])
        self._add_word(op, sum(map(u, dealt[PLAYERS])))
        self._face = [0] * PLAYERS
        self._face[op] = 1 if self._hidden is not None else 2
        if self._hidden is not None:
            self._face[self._hidden] = 1
        self._revealed = False
        self._how: Optional[str] = None
        self._revealer: Optional[int] = None
        self._chosen = False
        self._doubles = [1] * PLAYERS
        self._last = PASS
        self._lastp = op
        self._bombs = self._soft = 0
        self._plays = [0] * PLAYERS
        self._winner: Optional[int] = None
        self._escaped: Optional[int] = None
        self._hist: list[Sequence[Any]] = []
        self._ph, self._queue, self._cur = _REVEAL, self._order(op), op

    def _order(self, start: int) -> list[int]:
        return [(start + i) % PLAYERS for i in range(PLAYERS)]

    # -- flow -------------------------------------------------------------------------------
    def _public_landlords(self) -> list[int]:
        if self._revealed and self._hidden is not None:
            return [self._open, self._hidden]
        return [self._open]

    def _may_double(self, s: int) -> bool:
        room = self._room
        if room is None:
            return True
        lords = self._public_landlords()
        if s in lords:
            return room.may_double(s, s, self._beans)  # a landlord: every player above the threshold
        return all(room.may_double(s, lord, self._beans) for lord in lords)

    def _start_doubling(self) -> None:
        if self._rules.doubling:
            q = [s for s in self._order(self._open) if self._may_double(s)]
            if q:
                self._ph, self._queue, self._cur = _DOUBLE, q, q[0]
                return
        self._start_play()

    def _start_play(self) -> None:
        self._ph, self._queue = _PLAY, []
        self._cur = self._lastp = self._open
        self._last = PASS

    def _flow_legal(self) -> list[FiveAction]:
        ph = self._ph
        if ph == _REVEAL:
            p = self._cur
            if p == self._open or p == self._hidden:
                return [_A_NO_REVEAL, _A_REVEAL]
            return [_A_NO_REVEAL]
        if ph == _DOUBLE:
            return [_A_NO_DOUBLE, _A_DOUBLE]
        return []

    def _flow(self, a: FiveAction) -> None:
        p = self._cur
        self._hist.append((p, a, self._snapshot()))
        q = self._queue
        q.pop(0)
        if q:
            self._cur = q[0]
        if self._ph == _REVEAL:
            if a == _A_REVEAL:
                self._chosen = True
                if not self._revealed:
                    self._revealed, self._how, self._revealer = True, "choice", p
            if not q:
                self._start_doubling()
        else:
            if a == _A_DOUBLE:
                self._doubles[p] = 2
            if not q:
                self._start_play()

    def _snapshot(self) -> tuple[Any, ...]:
        return (self._ph, self._cur, list(self._queue), self._revealed, self._how, self._revealer, self._chosen,
                list(self._doubles), self._last, self._lastp, self._escaped)

    def _restore(self, snap: Sequence[Any]) -> None:
        (self._ph, self._cur, queue, self._revealed, self._how, self._revealer, self._chosen, doubles,
         self._last, self._lastp, self._escaped) = snap
        self._queue, self._doubles = list(queue), list(doubles)

    # -- the OpenSpiel-like vocabulary (rules, room: _GameBase) --------------------------------
    @property
    def phase(self) -> FivePhase:
        """The current ``FivePhase``."""
        return FivePhase(self._ph)

    def legal_actions(self) -> "list[FiveAction] | list[Move] | MoveList":
        """The current player's legal actions (docs/rules.md §8): ``FiveAction``
        members in the reveal and doubling phases (farmers: ``NO_REVEAL``
        only); in play a ``MoveList`` (kernel order, ``PASS`` first when
        following; only ``PASS`` after four jokers), or, for a player
        choosing how many marked-face cards to play, a list where each move
        with the marked rank is followed by its ``MarkedMove`` variants (a
        move the hand forces to hold marked cards is listed only as
        ``MarkedMove``).  Empty at the end."""
        legal = super().legal_actions()
        if self._ph == _PLAY:
            p = self._cur
            f = self._face[p]
            if f and not self._revealed:
                return self._variants(legal, f, (self._word(p) >> (4 * self._mrank)) & 0xF)
        return legal  # type: ignore[no-any-return]

    def _variants(self, lm: MoveList, f: int, have: int) -> "list[Move] | MoveList":
        shift = np.uint64(4 * self._mrank)
        n = ((lm.codes["cards"] >> shift) & np.uint64(15)).tolist()
        if not any(n):
            return lm
        out: list[Move] = []
        spare = have - f  # cards of the marked rank that are not of the marked face
        for m, k in zip(lm, n):
            if not k:
                out.append(m)
                continue
            lo, hi = max(0, k - spare), min(f, k)
            if lo == 0:
                out.append(m)
            out.extend(MarkedMove._make(m, j) for j in range(max(lo, 1), hi + 1))
        return out

    def _push_move(self, p: int, move: Move) -> None:
        k = self._marked_count(p, move)
        if (k == 0) != (type(move) is Move):  # recorded as played: a MarkedMove when marked-face cards were
            move = MarkedMove._make(move, k) if k else cast(MarkedMove, move).move
        self._play(p, move, k)

    def _marked_played(self, p: int, k: int, sign: int) -> None:
        """Seat ``p`` plays (``sign`` 1) or takes back (-1) ``k`` marked-face
        cards; the twin played makes the landlords public (no doubling).  A
        play with marked-face cards is always before the landlords are
        public, so taking one back that made them public hides them again."""
        if sign < 0 and self._revealed:
            self._revealed, self._how, self._revealer = False, None, None
        self._face[p] -= sign * k
        if sign > 0 and (p == self._hidden or (self._hidden is None and self._face[p] == 0)):
            self._revealed, self._how, self._revealer = True, "play", p

    def _marked_move(self, move: Move, k: int) -> Move:
        n = (move._cards >> (4 * self._mrank)) & 0xF
        if k > n:
            raise InvalidMoveError(f"{move} holds {n} cards of the marked card's rank, so it cannot play {k} "
                                   f"marked-face cards")
        return MarkedMove._make(move, k)

    def _marked_count(self, p: int, move: Move) -> int:
        """Marked-face cards the move plays (see the module docstring).
        Raises ``IllegalActionError`` for a ``MarkedMove`` not legal here
        (forged around ``__init__`` included) and ``InvalidMoveError`` for a
        move whose record is not two card/info words (``push`` is unchecked)."""
        f = self._face[p]
        marked = type(move) is MarkedMove
        if not _words_ok(move):
            raise InvalidMoveError(f"{move} is no move: its record is not two card/info words")
        fault = _marked_fault(move) if marked else None
        if fault is not None:
            raise IllegalActionError(f"{move} is no marked move: {fault}")
        if self._revealed or not f:
            if marked:
                raise IllegalActionError(f"{move}: seat {p} has no marked-face card whose play matters "
                                         f"(the landlords are public or it holds none); play the plain move")
            return 0
        r = self._mrank
        k = (move._cards >> (4 * r)) & 0xF
        spare = ((self._word(p) >> (4 * r)) & 0xF) - f
        lo = max(0, k - spare)
        if not marked:
            return lo
        if not max(lo, 1) <= move._marked <= min(f, k):  # type: ignore[attr-defined]
            raise IllegalActionError(f"{move}: seat {p} can play {lo} to {min(f, k)} marked-face cards with "
                                     f"{Move.__str__(move)}")
        return move._marked  # type: ignore[attr-defined,no-any-return]

    # -- reading the state ----------------------------------------------------------------------
    @property
    def marked(self) -> FiveCard:
        """The marked card (明牌), turned up for everyone."""
        return int.__new__(FiveCard, self._marked)

    @property
    def twin(self) -> FiveCard:
        """The marked card's twin (same rank and suit, other deck)."""
        return int.__new__(FiveCard, (self._marked + 54) % N_CARDS)

    @property
    def open_landlord(self) -> int:
        """The open landlord's seat (明地主: dealt the marked card)."""
        return self._open

    @property
    def hidden_landlord(self) -> Optional[int]:
        """The hidden landlord's seat (暗地主: dealt the twin), ``None`` when
        the open landlord plays alone (a god's-eye view)."""
        return self._hidden

    @property
    def landlords(self) -> tuple[int, ...]:
        """The landlords' seats, the open landlord first."""
        return (self._open,) if self._hidden is None else (self._open, self._hidden)

    @property
    def solo(self) -> bool:
        """Whether the open landlord plays alone against four."""
        return self._hidden is None

    @property
    def revealed(self) -> bool:
        """Whether the landlords are public (a chosen reveal or the twin played)."""
        return self._revealed

    @property
    def revealed_by(self) -> Optional[tuple[str, int]]:
        """How the landlords became public: ``("choice", seat)``, ``("play",
        seat)`` (the seat that played the twin), or ``None``."""
        return None if self._how is None else (self._how, self._revealer)  # type: ignore[return-value]

    @property
    def base(self) -> int:
        """The base score (底分, points): 1."""
        return 1

    @property
    def bottom(self) -> Hand:
        """The bottom cards (seen by the open landlord only)."""
        return _hand(sum(_UNIT[c] for c in self._dealt[PLAYERS]), 2)

    def marked_held(self, player: int) -> int:
        """How many marked-face cards seat ``player`` still holds (tracked
        until the landlords are public; after that, capped by its cards of
        the marked rank)."""
        s = self._seat(player)
        return min(self._face[s], (self._word(s) >> (4 * self._mrank)) & 0xF)

    def cards(self, player: int) -> tuple[FiveCard, ...]:
        """Seat ``player``'s current concrete cards: its ``marked_held``
        marked-face cards (the marked card first), then of each rank the
        lowest remaining cards it was dealt (suits are for display)."""
        s = self._seat(player)
        pool = list(self._dealt[s]) + (list(self._dealt[PLAYERS]) if s == self._open else [])
        word = self._word(s)
        left = [(word >> (4 * r)) & 0xF for r in range(15)]
        face = {self._marked % 54}
        held = min(self._face[s], left[self._mrank])  # (no longer tracked once the landlords are public)
        keep = sorted((c for c in pool if c % 54 in face), key=lambda c: c != self._marked)[:held]
        left[self._mrank] -= held
        out = list(keep)
        for c in sorted(pool, key=lambda c: (c % 54, c)):
            r = _card_rank(c % 54)
            if c % 54 not in face and left[r]:
                left[r] -= 1
                out.append(c)
        return tuple(int.__new__(FiveCard, c) for c in sorted(out, key=lambda c: (c % 54, c)))

    @property
    def deal(self) -> tuple[tuple[FiveCard, ...], ...]:
        """The concrete deal: (hand 0, ..., hand 4, bottom) as dealt."""
        return tuple(tuple(int.__new__(FiveCard, c) for c in part) for part in self._dealt)

    def multiplier(self) -> FiveMultiplier:
        """The multiplier breakdown so far (docs/rules.md §8); the spring is known
        once the game is over."""
        spring = False
        if self._winner is not None:  # (an escape has no spring)
            won = self._winner in self.landlords
            losers = [s for s in range(PLAYERS) if (s in self.landlords) != won]
            spring = not any(self._plays[s] for s in losers)
        return FiveMultiplier(initial=self._room.initial_multiplier if self._room else 1, bombs=self._bombs,
                              reveal=self._chosen, spring=spring)

    def settlement(self) -> FiveSettlement:
        """The ``FiveSettlement`` of the finished game (docs/rules.md §8): points,
        multiplier breakdown, stakes, bean transfers, rake and net.  Raises
        ``IllegalActionError`` while the game is not over."""
        if self._ph != _END:
            raise IllegalActionError("the game is not over: no settlement yet")
        if self._escaped is not None:
            return settle_five_escape(self._escaped, self.landlords, 1, self.escape_multiplier(), self.multiplier(),
                                      self._doubles, self._room, self._beans)
        return settle_five(self.landlords, self._winner in self.landlords, 1, self.multiplier(),
                           self._doubles, self._room, self._beans)

    def deal_bombs(self) -> int:
        """The doubling bombs of the deal (docs/rules.md §6 escape, §8): for
        each hand as dealt (the open landlord's with the bottom), one for
        every rank of 5 or more cards (a 5- to 8-card bomb) and one for 3 or 4
        jokers; 4-card bombs and two jokers do not double.  Played, broken up
        or still in hand, a bomb counts the same."""
        n = 0
        for s in range(PLAYERS):
            w = sum(_UNIT[c] for c in self._dealt[s] + (self._dealt[PLAYERS] if s == self._open else ()))
            n += sum(1 for r in range(13) if (w >> (4 * r)) & 0xF >= 5) + (((w >> 52) & 0xF) + ((w >> 56) & 0xF) >= 3)
        return n

    def escape_multiplier(self) -> int:
        """M of the escape formula now (docs/rules.md §6, §8): 2 for every
        doubling bomb of the deal (``deal_bombs``) and 2 for a chosen reveal;
        without the room's initial multiplier and doubling."""
        return 1 << (self.deal_bombs() + self._chosen)

    # -- information sets ------------------------------------------------------------------------
    def observation(self, player: int) -> FiveObservation:
        """What seat ``player`` may see now (docs/rules.md §8): its own cards, the
        marked card and the open landlord, what it knows of the hidden
        landlord, its partner's hand once the landlords are public (landlords
        only), the bottom (open landlord only), card counts, the public
        history.  Two states that differ only in what this player cannot see
        give equal observations.  Raises ``IllegalActionError`` for a bad seat."""
        s = self._seat(player)
        op, hid, rev = self._open, self._hidden, self._revealed
        # What this seat knows of the team: the hidden landlord knows both
        # landlords, the open landlord whether it is alone (it saw the
        # bottom), a farmer only the open landlord; the reveal tells everyone.
        known_hidden = hid if rev or s == hid else None
        solo = (hid is None) if rev or s in (op, hid) else None
        complete = rev or s == hid or (s == op and hid is None)
        lords = {op} if known_hidden is None else {op, known_hidden}
        if s in (op, hid):
            allies = tuple(sorted(lords - {s}))
            opponents = tuple(q for q in range(PLAYERS) if q not in lords) if complete else ()
        else:
            allies = tuple(q for q in range(PLAYERS) if q not in lords and q != s) if complete else ()
            opponents = tuple(sorted(lords))
        shown = {}
        if rev and hid is not None and s in (op, hid):
            q = hid if s == op else op
            shown[q] = self._hands[q]
        return FiveObservation(
            marked=self.marked, open_landlord=op, hidden_landlord=known_hidden, solo=solo,
            revealed=rev, allies=allies, opponents=opponents, hand=self._hands[s], cards=self.cards(s),
            marked_held=self.marked_held(s), shown=shown, bottom=self.bottom if s == op else None,
            card_counts=tuple(_ncards(h._word) for h in self._hands),
            history=tuple((e[0], e[1]) for e in self._hist), base=1, **self._public(s),
        )

    # -- text ------------------------------------------------------------------------------------
    def parse_action(self, text: str) -> "FiveAction | Move":
        """Read an action typed as text.  In play: ``pass`` (or 不出, ``p``),
        cards (``33``, ``10JQKA``) matched against the legal moves, the full
        ``CARDS|COMBO|MAIN|LENGTH`` form, and ``... marked K`` for a move
        with K marked-face cards.  Otherwise ``reveal`` / ``no_reveal``,
        ``double`` / ``no_double`` (or 亮出身份, 加倍, ``pass``/``no`` for the
        phase's "no").  Raises ``InvalidMoveError`` for unreadable text,
        ``AmbiguousMoveError`` (listing the readings) and
        ``IllegalActionError`` for cards that are no legal move here."""
        return super().parse_action(text)  # type: ignore[no-any-return]

    def _parse_move(self, t: str, low: str) -> Move:
        if " marked " in low:
            body, k = low.rsplit(" marked ", 1)
            if not k.strip().isdigit():
                raise InvalidMoveError(f"{t!r}: write MOVE marked K with K = 1 or 2")
            base = self.parse_action(body)
            if not isinstance(base, Move) or base.is_pass:
                raise InvalidMoveError(f"{t!r}: a pass plays no marked card")
            return MarkedMove(base.move if isinstance(base, MarkedMove) else base, int(k))
        if "|" in t:
            return Move.parse(t, self._rules)
        try:
            cards = Hand(t, decks=2)
        except InvalidCardsError as e:
            raise InvalidMoveError(str(e)) from None
        hand = self._hands[self._cur]
        legal = [m for m in legal_moves(hand, self.last_move, self._rules) if m._cards == cards.word and not m.is_pass]
        return self._one_reading(t, cards, legal, _contains(hand._word, cards.word), self._rules)

    def _parse_flow(self, t: str, legal: list[Any]) -> FiveAction:
        return FiveAction.parse(t)

    def __repr__(self) -> str:
        return (f"<FiveGame phase={FivePhase(self._ph)} to_move={self.current_player()} open={self._open} "
                f"hidden={self._hidden} marked={self.marked} actions={len(self._hist)}>")

    def __str__(self) -> str:
        lines = [f"phase {FivePhase(self._ph)}, to move: {self._cur if self._ph != _END else '-'}, "
                 f"marked card {self.marked} (twin {self.twin})"]
        for s in range(PLAYERS):
            role = ("open landlord" if s == self._open else "hidden landlord" if s == self._hidden else "farmer")
            dbl = " doubled" if self._doubles[s] == 2 else ""
            lines.append(f"  seat {s} {role}{dbl}: {' '.join(str(c) for c in self.cards(s))}")
        lines.append(f"  bottom: {' '.join(str(FiveCard(c)) for c in self._dealt[PLAYERS])} (open landlord's)")
        m = self.multiplier()
        how = "" if self._how is None else f", landlords public by {self._how} of seat {self._revealer}"
        lines.append(f"  multiplier {m.total} (bombs {m.bombs}, reveal {m.reveal}){how}")
        if self.last_move is not None:
            lines.append(f"  to beat: {self.last_move} by seat {self._lastp}")
        if self._winner is not None:
            lines.append(f"  seat {self._winner} went out")
        if self._escaped is not None:
            lines.append(f"  seat {self._escaped} escaped")
        return "\n".join(lines)

    def _landlords(self) -> tuple[int, ...]:
        return self.landlords

    def _key(self) -> tuple[Any, ...]:
        return (self._rules, self._room, self._beans, self._dealt, self._marked, self._ph, self._cur,
                tuple(self._queue), self._revealed, self._how, self._revealer, self._chosen, tuple(self._doubles),
                self._last, self._lastp, self._bombs, tuple(self._plays), tuple(self._face),
                tuple(h._word for h in self._hands), self._winner, self._escaped, tuple(self.history))
