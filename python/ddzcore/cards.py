"""Ranks, hands and concrete cards (docs/rules.md §1).

A ``Hand`` is an immutable multiset of ranks stored as the kernel's 64-bit
card word: 4 bits of count per rank, rank index 0 (the 3) in the lowest
nibble, up to the big joker (index 14).  See ``src/ddzcore/bits.pxd``.
A ``Card`` is one concrete card of one deck (an id 0-53, suit and rank); a
``FiveCard`` one of the five-player game's two decks (0-107, with its deck copy).
"""

from __future__ import annotations

from enum import IntEnum
from numbers import Integral
from typing import Callable, ClassVar, Iterable, Iterator, Optional, Sequence, TypeVar, Union

from .errors import InvalidCardsError

__all__ = ["Rank", "Hand", "RANK_CHARS", "CardsLike", "Card", "parse_cards", "FiveCard", "parse_five_cards"]

#: Canonical rank characters, low to high (T = 10, B = small joker, R = big joker).
RANK_CHARS = "3456789TJQKA2BR"
_CHAR_TO_RANK = {c: i for i, c in enumerate(RANK_CHARS)}
_CHAR_TO_RANK.update({c.lower(): i for c, i in list(_CHAR_TO_RANK.items())})


class Rank(IntEnum):
    """A card rank; the value is the kernel's rank index (0 = the 3, 14 = big joker)."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12
    SMALL_JOKER = 13  #: 小王, written B
    BIG_JOKER = 14  #: 大王, written R

    @property
    def char(self) -> str:
        """The rank's character in ``3456789TJQKA2BR``."""
        return RANK_CHARS[self]

    def __str__(self) -> str:
        return RANK_CHARS[self]

    @classmethod
    def parse(cls, text: "str | int | Rank") -> "Rank":
        """A rank from its character (``'T'``, ``'10'``, ``'b'``) or index.

        Raises ``InvalidCardsError`` for anything else.
        """
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text < 15:
                return cls(text)
            raise InvalidCardsError(f"rank index {text!r} is not in 0..14")
        if isinstance(text, str):
            t = text.strip()
            if t == "10":
                return cls.TEN
            if len(t) == 1 and t in _CHAR_TO_RANK:
                return cls(_CHAR_TO_RANK[t])
        raise InvalidCardsError(f"{text!r} is not a rank (use one of {RANK_CHARS}, or 10)")


CardsLike = Union["Hand", str, Iterable[Union[Rank, int, str]]]

_MAX_ONE_DECK = (4,) * 13 + (1, 1)
_MAX_TWO_DECKS = (8,) * 13 + (2, 2)


def _limits(decks: int) -> tuple[int, ...]:
    if decks == 1 and type(decks) is int:
        return _MAX_ONE_DECK
    if decks == 2 and type(decks) is int:
        return _MAX_TWO_DECKS
    raise InvalidCardsError(f"decks must be 1 or 2, not {decks!r}")


def _pack(counts: list[int], decks: int, what: object) -> int:
    """The card word of 15 rank counts, checked against the deck's limits."""
    limits = _limits(decks)
    word = 0
    for r, n in enumerate(counts):
        if n > limits[r]:
            deck = "one deck holds" if decks == 1 else "two decks hold"
            raise InvalidCardsError(f"{what!r} has {n} cards of rank {RANK_CHARS[r]}; {deck} {limits[r]}")
        word |= n << (4 * r)
    return word


def _unpack(word: int) -> list[int]:
    return [(word >> (4 * r)) & 0xF for r in range(15)]


# The whole deck(s) as a card word, and the byte lanes of the branch-free
# test that a word is within it (bits.pxd's ``contains``): even and odd
# nibbles apart, 0x80 + deck - count per byte keeps bit 7 when count <= deck.
DECK_WORDS = {1: sum(4 << (4 * r) for r in range(13)) + (1 << 52) + (1 << 56),  # the whole deck(s) as a card word
              2: sum(8 << (4 * r) for r in range(13)) + (2 << 52) + (2 << 56)}
_LO, _HI = 0x0F0F0F0F0F0F0F0F, 0x8080808080808080


def _check_word(word: object, decks: int, what: object) -> int:
    """``word`` when it is a card word the deck(s) hold (docs/rules.md §1),
    else ``InvalidCardsError`` naming ``what`` (and the rank over its limit)."""
    if not isinstance(word, int) or isinstance(word, bool) or word < 0 or word >> 60:
        raise InvalidCardsError(f"{what!r} is not a card word (a 60-bit rank-count integer)")
    if type(word) is not int:  # an int subclass is stored as the int it is (a Hand's fields are exact ints)
        word = int(word)
    deck = DECK_WORDS.get(decks) if type(decks) is int else None
    if deck is not None and (((deck & _LO) | _HI) - (word & _LO)) & ((((deck >> 4) & _LO) | _HI) - ((word >> 4) & _LO)) \
            & _HI == _HI:
        return word
    return _pack(_unpack(word), decks, what)  # raises, naming the rank (or the bad decks)


def _hand_word(hand: "Hand", decks: int = 2) -> int:
    """``hand``'s card word, checked to be one that ``decks`` decks hold
    (docs/rules.md §1; default two, the most a hand's counts can be), as
    ``moves._record_ok`` checks a ``Move``: a ``Hand`` forged around
    ``__init__`` (``object.__new__``, or junk fields) raises
    ``InvalidCardsError`` naming its fields."""
    word, own = getattr(hand, "_word", None), getattr(hand, "_decks", None)
    if type(own) is not int or own not in (1, 2):
        raise InvalidCardsError(f"a Hand whose deck count (_decks) is {own!r} ({type(own).__name__}) is no hand "
                                f"(decks: the int 1 or 2)")
    if type(word) is not int:  # what the constructors store; a bool, float or NumPy integer is forged
        raise InvalidCardsError(f"a Hand whose card word (_word) is {word!r} ({type(word).__name__}) is no hand "
                                f"(a card word is an int)")
    try:
        return _check_word(word, decks, word)
    except InvalidCardsError as e:
        raise InvalidCardsError(f"a Hand with card word {word!r} (decks {own}) is no hand: {e}") from None


# Card text read in one pass in C: each character's value (a rank's unit in
# the card word; a separator's 1 << 64, counted apart) summed by ``map``.
_SEPARATORS = " ,+\t\n"
_SEP = 1 << 64
_CHAR_VALUE = {**{c: 1 << (4 * r) for c, r in _CHAR_TO_RANK.items()}, **{c: _SEP for c in _SEPARATORS}}
_char_value = _CHAR_VALUE.__getitem__
_FAST_LEN = 60  # up to 60 characters no rank's sum reaches bit 64, and nibble sums stay below 255


def _parse_text(text: str) -> int:
    """The card word of card text (docs/rules.md §1: ``3456789TJQKA2BR``, ``10``,
    lower case; spaces, commas, ``+`` between cards).  Raises
    ``InvalidCardsError`` quoting the text for an unknown character or 15
    cards of a rank (the deck limits are ``_check_word``'s)."""
    s = text.replace("10", "T")
    if len(s) <= _FAST_LEN:
        try:
            total = sum(map(_char_value, s))
        except KeyError:
            pass  # the loop below names the bad character
        else:
            word = total & (_SEP - 1)
            # The nibbles' sum is the number of cards unless a rank overflowed its
            # nibble; a full nibble (15 of a rank) is refused as too many.
            if ((word & _LO) + ((word >> 4) & _LO)) % 255 == len(s) - (total >> 64) \
                    and not word & (word >> 1) & (word >> 2) & (word >> 3) & 0x1111111111111111:
                return word
    return _parse_slowly(text, s)


def _parse_slowly(text: str, s: str) -> int:
    """``_parse_text`` a character at a time: the error for text it refuses."""
    word = 0
    for ch in s:
        if ch in _SEPARATORS:
            continue
        r = _CHAR_TO_RANK.get(ch)
        if r is None:
            raise InvalidCardsError(
                f"bad card {ch!r} in {text!r}: cards are written with {RANK_CHARS} (or 10), "
                "B small joker, R big joker"
            )
        word += 1 << (4 * r)
        if (word >> (4 * r)) & 0xF == 0xF:  # keep the nibble from overflowing into the next rank
            raise InvalidCardsError(f"{text!r} has too many cards of rank {RANK_CHARS[r]}")
    return word


class Hand:
    """An immutable multiset of cards (ranks only; suits never matter in play).

    ``Hand("33445BR")``, ``Hand("10 J Q")``, ``Hand(["3", Rank.FOUR])`` or
    ``Hand.from_word(w)``.  ``str()`` is the canonical sorted form over
    ``3456789TJQKA2BR``.  ``len`` counts cards; ``x in hand`` tests a rank or
    a sub-multiset; ``+`` and ``-`` are multiset sum and difference;
    ``<=``/``<`` are sub-multiset tests.  ``decks`` (1 or 2) bounds the
    copies of a rank (4 and one joker of each kind, or 8 and 2).

    Raises ``InvalidCardsError`` (a ``ValueError``) naming the bad input.
    Implements docs/rules.md §1.
    """

    __slots__ = ("_word", "_decks")
    _word: int
    _decks: int

    def __init__(self, cards: CardsLike = "", decks: int = 1) -> None:
        if isinstance(cards, Hand):
            word = _hand_word(cards)
        elif isinstance(cards, str):
            word = _parse_text(cards)
        else:
            try:
                items = list(cards)
            except TypeError:
                raise InvalidCardsError(f"{cards!r} is not cards (give text like '33445BR')") from None
            counts = [0] * 15
            for item in items:
                counts[Rank.parse(item)] += 1
            word = _pack(counts, decks, cards)
        self._word = _check_word(word, decks, cards)
        self._decks = decks

    @classmethod
    def from_word(cls, word: int, decks: int = 1) -> "Hand":
        """The hand of a kernel card word.  Raises ``InvalidCardsError`` if it is not one."""
        h = cls.__new__(cls)
        h._word = _check_word(word, decks, word)
        h._decks = decks
        return h

    @classmethod
    def _trusted(cls, word: int, decks: int = 1) -> "Hand":
        h = cls.__new__(cls)
        h._word = word
        h._decks = decks
        return h

    @property
    def word(self) -> int:
        """The kernel card word (``int``, 60 bits used)."""
        return _hand_word(self)

    @property
    def decks(self) -> int:
        """How many decks the hand's counts were checked against (1 or 2)."""
        _hand_word(self)
        return self._decks

    def count(self, rank: "Rank | str | int") -> int:
        """Cards of one rank."""
        return (_hand_word(self) >> (4 * Rank.parse(rank))) & 0xF

    def counts(self) -> list[int]:
        """The 15 rank counts, the 3 first."""
        return _unpack(_hand_word(self))

    def ranks(self) -> list[Rank]:
        """Each card's rank, sorted low to high."""
        return [Rank(r) for r, n in enumerate(self.counts()) for _ in range(n)]

    def __iter__(self) -> Iterator[Rank]:
        return iter(self.ranks())

    def __len__(self) -> int:
        return sum(self.counts())

    def __bool__(self) -> bool:
        return _hand_word(self) != 0

    def __str__(self) -> str:
        try:
            w = _hand_word(self)
        except InvalidCardsError:  # forged around __init__: shown, not refused (errors name it)
            return f"<no hand: card word {getattr(self, '_word', None)!r}, decks {getattr(self, '_decks', None)!r}>"
        return "".join(RANK_CHARS[r] * ((w >> (4 * r)) & 0xF) for r in range(15))

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})" if getattr(self, "_decks", 1) == 1 else f"Hand({str(self)!r}, decks=2)"

    def __hash__(self) -> int:
        return hash(_hand_word(self))

    def __reduce__(self) -> "tuple[object, ...]":
        # Unpickled through from_word, which checks the counts (a tampered pickle raises).
        return (Hand.from_word, (_hand_word(self), self._decks))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return _hand_word(self) == _hand_word(other)
        if isinstance(other, str):
            try:
                return _hand_word(self) == _parse_text(other)
            except InvalidCardsError:
                return False
        return NotImplemented

    def _coerce(self, other: object) -> int:
        if isinstance(other, Hand):
            return _hand_word(other)
        return Hand(other, decks=2)._word  # type: ignore[arg-type]

    def __le__(self, other: CardsLike) -> bool:
        return all(a <= b for a, b in zip(self.counts(), _unpack(self._coerce(other))))

    def __lt__(self, other: CardsLike) -> bool:
        return self <= other and _hand_word(self) != self._coerce(other)

    def __ge__(self, other: CardsLike) -> bool:
        return Hand._trusted(self._coerce(other)) <= self

    def __gt__(self, other: CardsLike) -> bool:
        return self >= other and _hand_word(self) != self._coerce(other)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, (Rank, int)) and not isinstance(item, bool):
            return self.count(item) > 0
        if isinstance(item, str) and len(item.strip()) == 1:
            return self.count(item) > 0
        return self >= item  # type: ignore[operator]

    def __add__(self, other: CardsLike) -> "Hand":
        total = [a + b for a, b in zip(self.counts(), _unpack(self._coerce(other)))]  # both checked
        decks = max(self._decks, other._decks) if isinstance(other, Hand) else self._decks
        return Hand._trusted(_pack(total, decks, f"{self} + {other}"), decks)

    def __sub__(self, other: CardsLike) -> "Hand":
        o = self._coerce(other)
        if not Hand._trusted(o) <= self:
            raise InvalidCardsError(f"cannot remove {str(Hand._trusted(o))!r} from {str(self)!r}: not contained")
        return Hand._trusted(_hand_word(self) - o, self._decks)


# -- concrete cards (docs/rules.md §1) ------------------------------------------------

_SUITS = "SHCD"
_TWO_DECKS = 108  # card ids of the five-player game's two decks


def _card_rank(c: int) -> int:
    """The rank index of one-deck card id ``c`` (0-53)."""
    return c >> 2 if c < 53 else 14


#: Card word of one card, by card id (one deck 0-53, two decks 0-107).
_UNIT = [1 << (4 * _card_rank(c % 54)) for c in range(_TWO_DECKS)]


_C = TypeVar("_C", bound="_Concrete")


class _Concrete(int):
    """What ``Card`` and ``FiveCard`` share: made from an id below ``_IDS`` or
    from the text of one card (``parse``, through the class's ``_parse_all``)."""

    __slots__ = ()
    _IDS: ClassVar[int]
    _WHAT: ClassVar[str]  # "a card id": the error's words
    _EXAMPLE: ClassVar[str]  # cards to write instead of a bad text
    _parse_all: ClassVar[Callable[[str], Sequence[int]]]

    def __new__(cls: "type[_C]", value: "int | str") -> _C:
        if isinstance(value, str):
            return cls.parse(value)
        if not isinstance(value, Integral) or isinstance(value, bool) or not 0 <= value < cls._IDS:
            raise InvalidCardsError(f"{value!r} is not {cls._WHAT} (0..{cls._IDS - 1})")
        return int.__new__(cls, value)

    @classmethod
    def parse(cls: "type[_C]", text: str) -> _C:
        """One card from text (see the class); ``InvalidCardsError`` unless exactly one."""
        cards = cls._parse_all(text)
        if len(cards) != 1:
            raise InvalidCardsError(f"{text!r} is not one card (write e.g. {cls._EXAMPLE})")
        return int.__new__(cls, cards[0])


def _distinct(cards: "list[_C]", text: str) -> "list[_C]":
    """``cards`` read from ``text``; ``InvalidCardsError`` naming a card given twice."""
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise InvalidCardsError(f"card {dup} is given twice in {text!r}")
    return cards


class Card(_Concrete):
    """A concrete card (docs/rules.md §1): an int 0-53.  ``4 × rank + suit`` for the
    ranks 3..2 (suits S, H, C, D = 0..3), 52 the small joker ``B``, 53 the big
    joker ``R``.  ``str(Card(0)) == "S3"``; ``Card.parse("HT")`` (one card:
    suit letter then rank, ``S3``, ``h10``, ``DA``, or ``B`` / ``R``).

    Raises ``InvalidCardsError`` for a value or text that is not a card.
    """

    __slots__ = ()
    _IDS, _WHAT, _EXAMPLE = 54, "a card id", "S3, HT, B"

    @property
    def rank(self) -> Rank:
        """The card's rank (suits never matter in play)."""
        return Rank(_card_rank(self))

    @property
    def suit(self) -> Optional[str]:
        """``"S"``, ``"H"``, ``"C"``, ``"D"``, or ``None`` for a joker."""
        return None if self >= 52 else _SUITS[self & 3]

    def __str__(self) -> str:
        if self >= 52:
            return "B" if self == 52 else "R"
        return _SUITS[self & 3] + RANK_CHARS[self >> 2]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def parse_cards(text: str) -> list[Card]:
    """Concrete cards from text such as ``"S3 HT DA B R"`` (separators
    optional, case-insensitive, ``10`` for T).  Raises ``InvalidCardsError``
    naming the bad part, or a card given twice."""
    out: list[Card] = []
    s = text.upper().replace("10", "T")
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in " ,;+\t\n":
            i += 1
            continue
        if ch in "BR":
            out.append(int.__new__(Card, 52 if ch == "B" else 53))
            i += 1
            continue
        if ch in _SUITS and i + 1 < len(s) and s[i + 1] in RANK_CHARS[:13]:
            out.append(int.__new__(Card, 4 * RANK_CHARS.index(s[i + 1]) + _SUITS.index(ch)))
            i += 2
            continue
        raise InvalidCardsError(f"bad card at {text[i:i + 3]!r} in {text!r}: write a suit S H C D then a rank "
                                f"3456789TJQKA2, or B / R for the jokers")
    return _distinct(out, text)


# -- concrete cards of two decks (docs/rules.md §1, §8) -----------------------------------------

class FiveCard(_Concrete):
    """A concrete card of the two decks (docs/rules.md §1): an int 0-107,
    ``copy × 54 + Card`` (``Card``: ``4 × rank + suit``, 52 ``B``, 53 ``R``).
    Text: the one-deck card text, plus ``'`` for deck copy 1 (``S3``,
    ``S3'``, ``HT'``, ``B'``).  ``FiveCard.parse("D2'")``.

    Raises ``InvalidCardsError`` for a value or text that is not a card.
    """

    __slots__ = ()
    _IDS, _WHAT, _EXAMPLE = _TWO_DECKS, "a two-deck card id", "S3, HT', B"

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
        return int.__new__(FiveCard, (self + 54) % _TWO_DECKS)

    def __str__(self) -> str:
        return str(Card(self % 54)) + ("'" if self >= 54 else "")

    def __repr__(self) -> str:
        return f"FiveCard({str(self)!r})"


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
    out: list[FiveCard] = []
    for c, r in _scan(text):
        if c is None:
            if r < 13:
                raise InvalidCardsError(f"{RANK_CHARS[r]!r} in {text!r} has no suit (write e.g. S{RANK_CHARS[r]})")
            c = 39 + r  # B -> 52, R -> 53
        out.append(int.__new__(FiveCard, c))
    return _distinct(out, text)


Card._parse_all = staticmethod(parse_cards)
FiveCard._parse_all = staticmethod(parse_five_cards)
