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
``observation(p)`` (an information set), ``to_record()`` /
``FiveGame.from_record()`` (also through ``ddzcore.records``).  Seats are 0-4
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
  show cards, no redeal, no escape.
- Stakes with two landlords are halves (points are floats); beans per
  farmer-landlord pair are rounded down (as docs/rules.md §7 does for laizi), so
  with N = 1 a pair of half a point moves no bean: read ``returns()``.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Callable, Optional, Sequence, Union, cast

import numpy as np

from .cards import RANK_CHARS, Hand, Rank
from .errors import IllegalActionError, InvalidCardsError, InvalidDealError, InvalidMoveError
from .game import TERMINAL, Card, _beats, _card_rank, _GameBase, _ncards, _parse_enum, _valid
from .generate import legal_moves
from .moves import PASS, Combo, Move, MoveList
from .rules import Rules
from .settlement import FiveMultiplier, FiveSettlement, Room, settle_five

__all__ = ["FiveCard", "parse_five_cards", "FivePhase", "FiveAction", "MarkedMove", "FiveObservation", "FiveGame",
           "FiveStats", "run_five_games", "FIVE_FORMAT"]

PLAYERS = 5
HAND_CARDS = 21
N_CARDS = 108

# -- concrete two-deck cards (docs/rules.md §1) -----------------------------------------------

_UNIT = [1 << (4 * _card_rank(c % 54)) for c in range(N_CARDS)]


class FiveCard(int):
    """A concrete card of the two decks (docs/rules.md §1): an int 0-107,
    ``copy × 54 + Card`` (``Card``: ``4 × rank + suit``, 52 ``B``, 53 ``R``).
    Text: the one-deck card text, plus ``'`` for deck copy 1 (``S3``,
    ``S3'``, ``HT'``, ``B'``).  ``FiveCard.parse("D2'")``.

    Raises ``InvalidCardsError`` for a value or text that is not a card.
    """

    __slots__ = ()

    def __new__(cls, value: "int | str") -> "FiveCard":
        if isinstance(value, str):
            return cls.parse(value)
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not 0 <= value < N_CARDS:
            raise InvalidCardsError(f"{value!r} is not a two-deck card id (0..107)")
        return int.__new__(cls, value)

    @property
    def card(self) -> Card:
        """The same card without its deck copy."""
        return Card(self % 54)

    @property
    def copy(self) -> int:
        """The deck copy, 0 or 1."""
        return int(self >= 54)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(_card_rank(self % 54))

    @property
    def suit(self) -> Optional[str]:
        """``"S"``, ``"H"``, ``"C"``, ``"D"``, or ``None`` for a joker."""
        return self.card.suit

    @property
    def twin(self) -> "FiveCard":
        """The card of the same rank and suit from the other deck."""
        return int.__new__(FiveCard, (self + 54) % N_CARDS)

    def __str__(self) -> str:
        return str(Card(self % 54)) + ("'" if self >= 54 else "")

    def __repr__(self) -> str:
        return f"FiveCard({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "FiveCard":
        """One card from text: ``S3``, ``h10'``, ``B``, ``R'``."""
        cards = parse_five_cards(text)
        if len(cards) != 1:
            raise InvalidCardsError(f"{text!r} is not one card (write e.g. S3, HT', B)")
        return cards[0]


def _scan(text: str) -> list[tuple[Optional[int], int]]:
    """``(card id or None, rank)`` per card of two-deck text: a suit and a
    rank (``S3``) or a joker with ``'`` (``B'``) is concrete; a bare rank or
    joker (``3``, ``B``) gives ``None`` (any copy)."""
    s = text.upper().replace("10", "T")
    out: list[tuple[Optional[int], int]] = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in " ,;+\t\n":
            i += 1
            continue
        prime = i + 1 < len(s) and s[i + 1] == "'"
        if ch in "SHCD" and i + 1 < len(s) and s[i + 1] in RANK_CHARS[:13]:
            r = RANK_CHARS.index(s[i + 1])
            prime = i + 2 < len(s) and s[i + 2] == "'"
            out.append((54 * prime + 4 * r + "SHCD".index(ch), r))
            i += 2 + prime
            continue
        if ch in RANK_CHARS and not (prime and ch not in "BR"):
            r = RANK_CHARS.index(ch)
            out.append((54 + 39 + r if prime else None, r))  # B' = 54 + 52, R' = 54 + 53
            i += 1 + prime
            continue
        raise InvalidCardsError(f"bad card at {text[i:i + 3]!r} in {text!r}: write a suit S H C D, a rank "
                                f"3456789TJQKA2 and ' for the second deck (S3, S3'), or B, B', R, R'")
    return out


def parse_five_cards(text: str) -> list[FiveCard]:
    """Concrete two-deck cards from text such as ``"S3 S3' HT B R'"``
    (separators optional, case-insensitive, ``10`` for T; ``B`` and ``R``
    alone are copy 0).  Raises ``InvalidCardsError`` naming the bad part, or
    a card given twice."""
    out = []
    for c, r in _scan(text):
        if c is None:
            if r < 13:
                raise InvalidCardsError(f"{RANK_CHARS[r]!r} in {text!r} has no suit (write e.g. S{RANK_CHARS[r]})")
            c = 39 + r  # B -> 52, R -> 53
        out.append(int.__new__(FiveCard, c))
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise InvalidCardsError(f"card {dup} is given twice in {text!r}")
    return out


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
                 "放弃": FiveAction.NO_REVEAL, "加倍": FiveAction.DOUBLE, "不加倍": FiveAction.NO_DOUBLE}
_NO = {0: FiveAction.NO_REVEAL, 1: FiveAction.NO_DOUBLE}


class MarkedMove(Move):
    """A move that plays ``marked`` (1 or 2) cards of the marked card's face
    (its rank and suit, either deck copy) among its cards (docs/rules.md §8; see
    the module docstring).  ``MarkedMove("3|single|3|1", 1)``; text
    ``"3|single|3|1 marked 1"``.  ``move`` is the plain ``Move``; a
    ``MarkedMove`` never equals a plain ``Move``.

    Raises ``InvalidMoveError`` for a pass or a count outside 1-2 (whether
    the move holds that many cards of the marked rank is checked in play).
    """

    __slots__ = ("_marked",)
    _marked: int

    def __init__(self, move: "Move | str", marked: int, rules: Optional[Rules] = None) -> None:
        m = move if isinstance(move, Move) else Move.parse(move, rules or _RULES)
        if m.is_pass or not isinstance(marked, int) or isinstance(marked, bool) or not 1 <= marked <= 2:
            raise InvalidMoveError(f"a marked move plays 1 or 2 marked cards of a real move, not {marked!r} of {m}")
        self._cards, self._info, self._marked = m._cards, m._info, marked

    @classmethod
    def _make(cls, move: Move, marked: int) -> "MarkedMove":
        out = cls.__new__(cls)
        out._cards, out._info, out._marked = move._cards, move._info, marked
        return out

    @property
    def marked(self) -> int:
        """Marked-face cards among the move's cards."""
        return self._marked

    @property
    def move(self) -> Move:
        """The plain move (cards and reading)."""
        return Move._from_codes(self._cards, self._info)

    def __str__(self) -> str:
        return f"{Move.__str__(self)} marked {self._marked}"

    def __repr__(self) -> str:
        return f"MarkedMove({Move.__str__(self)!r}, {self._marked})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MarkedMove):
            return (self._cards, self._info, self._marked) == (other._cards, other._info, other._marked)
        if isinstance(other, Move):
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((self._cards, self._info, self._marked))


_RULES = Rules(decks=2)
_BOMB = int(Combo.BOMB)
_JOKER_BOMB = int(Combo.JOKER_BOMB)
_hand = Hand._trusted
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


def _seat(player: object) -> int:
    if not isinstance(player, (int, np.integer)) or isinstance(player, bool) or not 0 <= player < PLAYERS:
        raise IllegalActionError(f"{player!r} is not a seat (0-4)")
    return int(player)


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


class FiveGame(_GameBase):
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
    ``ValueError`` for other bad arguments (rules not two-deck or laizi,
    beans not five ints).
    """

    __slots__ = ("_rules", "_flags", "_room", "_beans", "_dealt", "_marked", "_mrank", "_open", "_hidden",
                 "_hands", "_face", "_ph", "_cur", "_queue", "_revealed", "_how", "_revealer", "_chosen",
                 "_doubles", "_last", "_lastp", "_bombs", "_plays", "_winner", "_hist")

    _P_PLAY, _P_END, _PHASE, _ACTION, _ACTION_WHAT = _PLAY, _END, FivePhase, FiveAction, "a five-player action"
    _NOT_LEGAL = "{a} is not legal for seat {seat} in the {phase} phase; legal: {legal}"
    _PLAIN_MOVES = False  # a MarkedMove is played as such
    _NO_WORDS = ("pass", "no", "p", "n", "放弃")
    _NO_ACTION = _NO
    _RULES_REF = "§2, §8"

    def __init__(self, rules: Optional[Rules] = None, *, seed: "int | np.random.Generator | None" = None,
                 deal: Optional[Sequence[Any]] = None, marked: "FiveCard | str | int | None" = None,
                 room: Optional[Room] = None, beans: Optional[Sequence[int]] = None) -> None:
        rules = _RULES if rules is None else rules
        if not isinstance(rules, Rules) or rules.decks != 2 or rules.wild is not None \
                or getattr(rules, "laizi", False):
            raise ValueError(f"the five-player game needs two-deck rules without wild cards (Rules(decks=2)), "
                             f"not {rules!r}")
        if room is not None and not isinstance(room, Room):
            raise ValueError(f"room must be a Room, not {room!r}")
        if beans is not None:
            beans = [int(b) if isinstance(b, (int, np.integer)) and not isinstance(b, bool) else b for b in beans]
            if len(beans) != PLAYERS or any(not isinstance(b, int) or b < 0 for b in beans):
                raise ValueError(f"beans must be five ints >= 0, not {beans!r}")
        self._rules = rules
        self._flags = rules.flags
        self._room = room
        self._beans = None if beans is None else tuple(beans)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if deal is None:
            if marked is not None:
                raise ValueError("marked is the marked card of a given deal: give deal= too")
            perm = rng.permutation(N_CARDS).tolist()
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
            mk = pool[int(rng.random() * len(pool))]
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
        self._hands = [_hand(sum(map(u, dealt[s])), 2) for s in range(PLAYERS)]
        self._hands[op] = _hand(self._hands[op]._word + sum(map(u, dealt[PLAYERS])), 2)
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
        self._bombs = 0
        self._plays = [0] * PLAYERS
        self._winner: Optional[int] = None
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
                return [FiveAction.NO_REVEAL, FiveAction.REVEAL]
            return [FiveAction.NO_REVEAL]
        if ph == _DOUBLE:
            return [FiveAction.NO_DOUBLE, FiveAction.DOUBLE]
        return []

    def _flow(self, a: FiveAction) -> None:
        p = self._cur
        self._hist.append((p, a, self._snapshot()))
        q = self._queue
        q.pop(0)
        if q:
            self._cur = q[0]
        if self._ph == _REVEAL:
            if a == FiveAction.REVEAL:
                self._chosen = True
                if not self._revealed:
                    self._revealed, self._how, self._revealer = True, "choice", p
            if not q:
                self._start_doubling()
        else:
            if a == FiveAction.DOUBLE:
                self._doubles[p] = 2
            if not q:
                self._start_play()

    def _snapshot(self) -> tuple[Any, ...]:
        return (self._ph, self._cur, list(self._queue), self._revealed, self._how, self._revealer, self._chosen,
                list(self._doubles), self._last, self._lastp)

    def _restore(self, snap: Sequence[Any]) -> None:
        (self._ph, self._cur, queue, self._revealed, self._how, self._revealer, self._chosen, doubles,
         self._last, self._lastp) = snap
        self._queue, self._doubles = list(queue), list(doubles)

    # -- the OpenSpiel-like vocabulary (rules, room: _GameBase) --------------------------------
    @property
    def beans(self) -> Optional[tuple[int, ...]]:
        """Each player's carried beans before the game (``None``: unlimited)."""
        return self._beans

    @property
    def players(self) -> int:
        """5."""
        return PLAYERS

    @property
    def phase(self) -> FivePhase:
        """The current ``FivePhase``."""
        return FivePhase(self._ph)

    def current_player(self) -> int:
        """The seat to act (0-4), or ``TERMINAL`` (-1) when the game is over."""
        return self._cur if self._ph != _END else TERMINAL

    def is_terminal(self) -> bool:
        """Whether someone has gone out."""
        return self._ph == _END

    def legal_actions(self) -> "list[FiveAction] | list[Move] | MoveList":
        """The current player's legal actions (docs/rules.md §8): ``FiveAction``
        members in the reveal and doubling phases (farmers: ``NO_REVEAL``
        only); in play a ``MoveList`` (kernel order, ``PASS`` first when
        following; only ``PASS`` after four jokers), or, for a player
        choosing how many marked-face cards to play, a list where each move
        with the marked rank is followed by its ``MarkedMove`` variants (a
        move the hand forces to hold marked cards is listed only as
        ``MarkedMove``).  Empty at the end."""
        if self._ph == _PLAY:
            p = self._cur
            hand = self._hands[p]
            lm = legal_moves(hand, None if p == self._lastp else self._last, self._rules)
            f = self._face[p]
            if f and not self._revealed:
                have = (hand._word >> (4 * self._mrank)) & 0xF
                return self._variants(lm, f, have)
            return lm
        return self._flow_legal()

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

    def apply(self, action: FiveActionLike) -> None:
        """Apply the current player's action: a ``FiveAction`` (or
        ``Action.DOUBLE``/``NO_DOUBLE``), a ``Move``, a ``MarkedMove``, or
        text that ``parse_action`` reads.  A plain ``Move`` plays as few
        marked-face cards as the hand allows.  Raises ``IllegalActionError``
        (a ``ValueError``) for an action not legal here, ``InvalidMoveError``
        for unreadable text; the game is then unchanged.  docs/rules.md §8."""
        if self._ph == _PLAY and isinstance(action, Move):
            p = self._cur
            c, i = action._cards, action._info
            if i & 31:
                last = self._last
                if (not _contains(self._hands[p]._word, c) or not _valid(c, i, self._flags)
                        or (p != self._lastp and not _beats(c, i, last._cards, last._info, self._flags))):
                    raise IllegalActionError(self._why_illegal(action))
            elif p == self._lastp:
                raise IllegalActionError(f"seat {p} leads and cannot pass (docs/rules.md §3)")
            self._play(p, action, self._marked_count(p, action))
            return
        self._apply_other(action)

    apply_action = apply

    def push(self, action: "FiveAction | Move") -> None:
        """Apply an action without the legality checks of play (search and
        fast loops over ``legal_actions()``); an illegal move leaves an
        inconsistent game.  Flow actions are checked as in ``apply``."""
        if self._ph == _PLAY and isinstance(action, Move):
            p = self._cur
            if type(action) is Move and (self._revealed or not self._face[p]):
                self._play(p, action, 0)
            else:
                self._play(p, action, self._marked_count(p, action))
            return
        self._apply_other(action)

    def _marked_count(self, p: int, move: Move) -> int:
        """Marked-face cards the move plays (see the module docstring).
        Raises ``IllegalActionError`` for a ``MarkedMove`` not legal here."""
        f = self._face[p]
        marked = type(move) is MarkedMove
        if self._revealed or not f:
            if marked:
                raise IllegalActionError(f"{move}: seat {p} has no marked-face card whose play matters "
                                         f"(the landlords are public or it holds none); play the plain move")
            return 0
        r = self._mrank
        k = (move._cards >> (4 * r)) & 0xF
        spare = ((self._hands[p]._word >> (4 * r)) & 0xF) - f
        lo = max(0, k - spare)
        if not marked:
            return lo
        if not max(lo, 1) <= move._marked <= min(f, k):  # type: ignore[attr-defined]
            raise IllegalActionError(f"{move}: seat {p} can play {lo} to {min(f, k)} marked-face cards with "
                                     f"{Move.__str__(move)}")
        return move._marked  # type: ignore[attr-defined,no-any-return]

    def _play(self, p: int, move: Move, k: int) -> None:
        c, i = move._cards, move._info
        rec = move if (k == 0) == (type(move) is Move) else (MarkedMove._make(move, k) if k else cast(MarkedMove, move).move)
        rev = False
        entry = [p, rec, k, rev, self._last, self._lastp]
        self._hist.append(entry)
        if i & 31:
            h = self._hands[p]._word - c
            self._hands[p] = _hand(h, 2)
            self._last = move if type(move) is Move else Move._from_codes(c, i)
            self._lastp = p
            if i & 31 >= _BOMB and _doubling_bomb(c, i):
                self._bombs += 1
            self._plays[p] += 1
            if k:
                self._face[p] -= k
                if p == self._hidden or (self._hidden is None and self._face[p] == 0):
                    entry[3] = True  # the twin is played: the landlords are public (no doubling)
                    self._revealed, self._how, self._revealer = True, "play", p
            if not h:
                self._winner = p
                self._ph = _END
                return
        self._cur = p + 1 if p < 4 else 0

    def _why_illegal(self, move: Move) -> str:
        p = self._cur
        hand = self._hands[p]
        if not _contains(hand._word, move._cards):
            return f"{move} is not in seat {p}'s hand {hand}"
        if not _valid(move._cards, move._info, self._flags):
            return f"{move} is not a valid combination under these rules"
        if self._last._info & 31 == _JOKER_BOMB and _ncards(self._last._cards) == 4:
            return f"{move} cannot be played: after four jokers every other player must pass (docs/rules.md §3)"
        return (f"{move} does not beat {self._last} (docs/rules.md §2, §8: same type and number of cards with a "
                f"higher main rank, or a higher bomb)")

    def pop(self) -> "FiveAction | Move":
        """Undo the last action and return it (as recorded: a ``MarkedMove``
        when marked-face cards were played).  Raises ``IllegalActionError``
        when there is nothing to undo."""
        entry = self._pop_entry()
        if len(entry) == 3:
            return entry[1]  # type: ignore[no-any-return]
        p, rec, k, rev, last, lastp = entry
        c, i = rec._cards, rec._info
        if i & 31:
            self._hands[p] = _hand(self._hands[p]._word + c, 2)
            if i & 31 >= _BOMB and _doubling_bomb(c, i):
                self._bombs -= 1
            self._plays[p] -= 1
            self._face[p] += k
            if rev:
                self._revealed, self._how, self._revealer = False, None, None
            self._ph = _PLAY
            self._winner = None
        self._last, self._lastp, self._cur = last, lastp, p
        return rec  # type: ignore[no-any-return]

    def copy(self) -> "FiveGame":
        """An independent copy (same history, so it can ``pop`` too)."""
        g = FiveGame.__new__(FiveGame)
        for n in FiveGame.__slots__:
            setattr(g, n, getattr(self, n))
        g._hands = list(self._hands)
        g._face = list(self._face)
        g._queue = list(self._queue)
        g._doubles = list(self._doubles)
        g._plays = list(self._plays)
        g._hist = list(self._hist)
        return g

    # -- reading the state ----------------------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, "FiveAction | Move"]]:
        """Every action so far as ``(seat, action)`` pairs (moves as played:
        ``MarkedMove`` when marked-face cards were among them)."""
        return [(e[0], e[1]) for e in self._hist]

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
    def winner(self) -> Optional[int]:
        """The seat that went out first, ``None`` until then."""
        return self._winner

    @property
    def base(self) -> int:
        """The base score (底分, points): 1."""
        return 1

    @property
    def doubles(self) -> tuple[int, ...]:
        """Each seat's doubling factor (1 or 2)."""
        return tuple(self._doubles)

    @property
    def bombs_played(self) -> int:
        """Doubling bombs played so far (5-8 cards, three or four jokers)."""
        return self._bombs

    def hand(self, player: int) -> Hand:
        """Seat ``player``'s current cards (ranks; the open landlord's include the bottom)."""
        return self._hands[_seat(player)]

    @property
    def hands(self) -> list[Hand]:
        """The five current hands (a god's-eye view; see ``observation``)."""
        return list(self._hands)

    @property
    def bottom(self) -> Hand:
        """The bottom cards (seen by the open landlord only)."""
        return _hand(sum(_UNIT[c] for c in self._dealt[PLAYERS]), 2)

    def marked_held(self, player: int) -> int:
        """How many marked-face cards seat ``player`` still holds (tracked
        until the landlords are public; after that, capped by its cards of
        the marked rank)."""
        s = _seat(player)
        return min(self._face[s], (self._hands[s]._word >> (4 * self._mrank)) & 0xF)

    def cards(self, player: int) -> tuple[FiveCard, ...]:
        """Seat ``player``'s current concrete cards: its ``marked_held``
        marked-face cards (the marked card first), then of each rank the
        lowest remaining cards it was dealt (suits are for display)."""
        s = _seat(player)
        pool = list(self._dealt[s]) + (list(self._dealt[PLAYERS]) if s == self._open else [])
        word = self._hands[s]._word
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
        if self._winner is not None:
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
        return settle_five(self.landlords, self._winner in self.landlords, 1, self.multiplier(),
                           self._doubles, self._room, self._beans)

    def returns(self) -> list[float]:
        """Points per seat (zero-sum, exact halves; all 0 before the end).
        See ``settlement`` for beans."""
        if self._ph != _END:
            return [0.0] * PLAYERS
        return list(self.settlement().points)

    # -- information sets ------------------------------------------------------------------------
    def observation(self, player: int) -> FiveObservation:
        """What seat ``player`` may see now (docs/rules.md §8): its own cards, the
        marked card and the open landlord, what it knows of the hidden
        landlord, its partner's hand once the landlords are public (landlords
        only), the bottom (open landlord only), card counts, the public
        history.  Two states that differ only in what this player cannot see
        give equal observations.  Raises ``IllegalActionError`` for a bad seat."""
        s = _seat(player)
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
        legal: Any = self.legal_actions() if s == self.current_player() else ()
        if isinstance(legal, list):
            legal = tuple(legal)
        lm = self.last_move
        return FiveObservation(
            player=s, phase=FivePhase(self._ph), current_player=self.current_player(), marked=self.marked,
            open_landlord=op, hidden_landlord=known_hidden, solo=solo,
            revealed=rev, allies=allies, opponents=opponents, hand=self._hands[s], cards=self.cards(s),
            marked_held=self.marked_held(s), shown=shown, bottom=self.bottom if s == op else None,
            card_counts=tuple(_ncards(h._word) for h in self._hands),
            history=tuple((e[0], e[1]) for e in self._hist), base=1, multiplier=self.multiplier(),
            doubles=self.doubles, last_move=lm, last_player=None if lm is None else self._lastp,
            legal_actions=legal,
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
        return self._parse_text(text)  # type: ignore[no-any-return]

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
        return "\n".join(lines)

    def _key(self) -> tuple[Any, ...]:
        return (self._rules, self._room, self._beans, self._dealt, self._marked, self._ph, self._cur,
                tuple(self._queue), self._revealed, self._how, self._revealer, self._chosen, tuple(self._doubles),
                self._last, self._lastp, self._bombs, tuple(self._plays), tuple(self._face),
                tuple(h._word for h in self._hands), self._winner, tuple(self.history))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FiveGame):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    # -- records -------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The JSON-ready record (``ddzcore.records`` saves and loads it)::

            {"format": "ddzcore-five", "version": 1, "rules": {changed fields},
             "room": {...} or null, "beans": [5 ints] or null,
             "deal": ["S3 H3' ...", (5 hands, then the bottom, as dealt)], "marked": "S3'",
             "actions": ["0 no_reveal", ..., "0 33|pair|3|1", "1 pass", "3 3|single|3|1 marked 1"],
             "result": {"over": ..., "winner": ..., "landlords": [...], "returns": [...]},
             "settlement": FiveSettlement.to_dict() or null}
        """
        from .records import _rules_dict

        over = self.is_terminal()
        return {
            "format": FIVE_FORMAT, "version": 1, "rules": _rules_dict(self._rules),
            "room": None if self._room is None else dataclasses.asdict(self._room),
            "beans": None if self._beans is None else list(self._beans),
            "deal": [" ".join(str(c) for c in part) for part in self.deal], "marked": str(self.marked),
            "actions": [_action_text(p, a) for p, a in self.history],
            "result": {"over": over, "phase": str(self.phase), "winner": self._winner,
                       "landlords": list(self.landlords), "revealed_by": list(self.revealed_by or []) or None,
                       "returns": self.returns()},
            "settlement": self.settlement().to_dict() if over else None,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], check: bool = True) -> "FiveGame":
        """Rebuild a game from its record by replaying every action; with
        ``check`` the result and settlement must equal the recorded ones.
        Raises ``RecordError``."""
        from .errors import DdzError, RecordError
        from .records import _field

        if not isinstance(record, dict) or record.get("format") != FIVE_FORMAT:
            raise RecordError(f"not a {FIVE_FORMAT} record")
        if record.get("version") != 1:
            raise RecordError(f"record version {record.get('version')!r} is not 1")
        try:
            rules = Rules(**_field(record, "rules", dict))
            room_d = _field(record, "room", dict)
            game = cls(rules, deal=_field(record, "deal", list), marked=_field(record, "marked", str),
                       room=None if room_d is None else Room(**room_d), beans=_field(record, "beans", list))
        except (TypeError, KeyError, ValueError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"bad record set-up: {e}") from None
        for k, text in enumerate(_field(record, "actions", list)):
            try:
                seat, body = str(text).strip().split(" ", 1)
                if int(seat) != game.current_player():
                    raise RecordError(f"action {k} ({text!r}) is by seat {seat}, but seat "
                                      f"{game.current_player()} is to act")
                game.apply(_parse_action_text(body, rules))
            except (ValueError, DdzError) as e:
                if isinstance(e, RecordError):
                    raise
                raise RecordError(f"action {k} ({text!r}) does not replay: {e}") from None
        if check:
            got = game.to_record()
            if record.get("result") is not None and record["result"] != got["result"]:
                raise RecordError(f"replayed result {got['result']} differs from the recorded {record['result']}")
            if record.get("settlement") is not None and \
                    FiveSettlement.from_dict(record["settlement"]) != game.settlement():
                raise RecordError("the replayed settlement differs from the recorded one")
        return game


#: The ``format`` field of five-player records.
FIVE_FORMAT = "ddzcore-five"


def _action_text(seat: int, action: "FiveAction | Move") -> str:
    if isinstance(action, Move):
        return f"{seat} {'pass' if action.is_pass else str(action)}"
    return f"{seat} {FiveAction(action)}"


def _parse_action_text(body: str, rules: Rules) -> "FiveAction | Move":
    body = body.strip()
    if body == "pass":
        return PASS
    if "|" in body:
        if " marked " in body:
            move, k = body.rsplit(" marked ", 1)
            return MarkedMove(Move.parse(move, rules), int(k))
        return Move.parse(body, rules)
    return FiveAction.parse(body)


# -- simulation ------------------------------------------------------------------------------

@dataclass
class FiveStats:
    """Results of ``run_five_games`` (docs/rules.md §8).

    - ``games``; ``landlord_wins`` / ``farmer_wins`` (games each side won);
      ``solo`` (games where the open landlord played alone);
    - ``reveals_chosen`` (a landlord chose to reveal, x2), ``reveals_played``
      (the landlords became public when the twin was played);
    - ``multiplier_total`` (for the average), ``springs``, ``bombs`` (doubling bombs);
    - ``points``: points per seat summed; ``net``: beans per seat summed
      (after the rake); ``landlord_net`` / ``farmer_net``: beans by role;
      ``rake``; ``seat_wins``: games each seat's side won; ``seconds``.
    """

    games: int = 0
    landlord_wins: int = 0
    farmer_wins: int = 0
    solo: int = 0
    reveals_chosen: int = 0
    reveals_played: int = 0
    multiplier_total: int = 0
    springs: int = 0
    bombs: int = 0
    points: list[float] = field(default_factory=lambda: [0.0] * PLAYERS)
    net: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    landlord_net: int = 0
    farmer_net: int = 0
    rake: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    seconds: float = 0.0

    @property
    def landlord_win_rate(self) -> float:
        """Share of the games the landlords' side won (0-1)."""
        return self.landlord_wins / self.games if self.games else 0.0

    @property
    def average_multiplier(self) -> float:
        """Mean final multiplier."""
        return self.multiplier_total / self.games if self.games else 0.0

    @property
    def spring_rate(self) -> float:
        """Share of the games whose losing side played no card (0-1)."""
        return self.springs / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    def add(self, game: FiveGame) -> None:
        """Count one finished game."""
        s = game.settlement()
        self.games += 1
        self.solo += game.solo
        how = game.revealed_by
        self.reveals_chosen += s.multiplier.reveal
        self.reveals_played += how is not None and how[0] == "play"
        self.multiplier_total += s.multiplier.total
        self.springs += s.spring
        self.bombs += s.multiplier.bombs
        self.rake += sum(s.rake)
        for seat in range(PLAYERS):
            self.points[seat] += s.points[seat]
            self.net[seat] += s.net[seat]
            if seat in s.landlords:
                self.landlord_net += s.net[seat]
            else:
                self.farmer_net += s.net[seat]
        for seat in s.winners:
            self.seat_wins[seat] += 1
        if s.landlord_won:
            self.landlord_wins += 1
        else:
            self.farmer_wins += 1


def run_five_games(n: int, bots: Sequence[Any], seed: Optional[int] = None, rules: Optional[Rules] = None,
                   room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
                   progress: Optional[Callable[[int], None]] = None) -> FiveStats:
    """Play ``n`` five-player games with five ``bots`` (seat order; see
    ``ddzcore.bots``) and gather ``FiveStats``.  ``seed`` makes the deals
    reproducible (one ``numpy`` Generator for the run); every game starts
    from the same ``beans``.  Raises ``ValueError`` unless five bots."""
    from .bots import play_game

    rng = np.random.default_rng(seed)
    stats = FiveStats()
    t = time.perf_counter()
    for k in range(n):
        stats.add(play_game(FiveGame(rules, seed=rng, room=room, beans=beans), bots))
        if progress is not None:
            progress(k + 1)
    stats.seconds = time.perf_counter() - t
    return stats
