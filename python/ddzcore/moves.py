"""Combinations, moves and move lists (docs/rules.md §2).

A ``Move`` is a set of cards plus one reading of them (combination type, main
rank, chain length): the same cards may be several moves (333444555666 is a
four-trio plane and two different three-trio planes with wings).  Internally
a move is the kernel's pair of 64-bit words (``cards``, ``info``; layout in
``src/ddzcore/bits.pxd``), and a ``MoveList`` holds those pairs in a NumPy
array, making ``Move`` objects only when asked.

The action space of a rule set gives every move a dense integer id (for
machine-learning users; docs/rules.md §2): every distinct move (cards +
reading) of at most ``max_cards`` cards that one deck can hold, plus pass.
Ids are stable for a rule set: pass is 0, then the moves sorted by (combo,
length, main rank, card word).
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator, Union, overload

import numpy as np

from . import _kernel, _movelist
from .cards import DECK_WORDS, RANK_CHARS, Hand, Rank
from ._errors import as_index
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidArgumentError, InvalidCardsError, InvalidMoveError
from .rules import Rules

if TYPE_CHECKING:
    from .rules import Rules as _Rules

__all__ = ["Combo", "Move", "MoveList", "MOVE_DTYPE", "MoveLike", "ActionSpace", "action_space"]

#: NumPy structured dtype of one move: ``cards`` (uint64 card word) and ``info`` (uint64 reading).
MOVE_DTYPE: np.dtype = _kernel.MOVE_DTYPE


class Combo(IntEnum):
    """Combination type (牌型).  ``str(combo)`` is its lower-case name."""

    PASS = 0  #: 不出 (pass)
    SINGLE = 1  #: 单牌
    PAIR = 2  #: 对牌
    TRIO = 3  #: 三张
    TRIO_SINGLE = 4  #: 三带一
    TRIO_PAIR = 5  #: 三带一对
    STRAIGHT = 6  #: 单顺 (≥5 singles in a row)
    PAIR_CHAIN = 7  #: 双顺 / 连对 (≥3 pairs in a row)
    PLANE = 8  #: 三顺 / 飞机 (≥2 trios in a row)
    PLANE_SINGLE = 9  #: 飞机带单翅 (plane + one single wing a trio)
    PLANE_PAIR = 10  #: 飞机带对翅 (plane + one pair wing a trio)
    FOUR_TWO_SINGLE = 11  #: 四带二 (four + two singles; not a bomb)
    FOUR_TWO_PAIR = 12  #: 四带两对 (four + two pairs; not a bomb)
    BOMB = 13  #: 炸弹 (four of a rank; two decks: 4 to 8)
    ROCKET = 14  #: 火箭 / 王炸 (both jokers, one deck)
    SOFT_BOMB = 15  #: 软炸 (laizi: wild + natural cards)
    WILD_BOMB = 16  #: 纯癞子炸 (laizi: four wild cards)
    JOKER_BOMB = 17  #: two, three or four jokers (two decks)
    SHUTTLE = 18  #: 航天飞机 (Botzone): >= 2 consecutive quads, bare or each with 2 singles or 2 pairs; not a bomb

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, name: "str | int | Combo") -> "Combo":
        """A combo from its lower-case name or value; ``InvalidMoveError`` otherwise."""
        if isinstance(name, int):
            try:
                return cls(name)
            except ValueError:
                pass
        elif isinstance(name, str):
            try:
                return cls[name.strip().upper()]
            except KeyError:
                pass
        names = " ".join(str(c) for c in cls)
        raise InvalidMoveError(f"{name!r} is not a combination type; one of: {names}")


_KICKER_COMBOS = {
    Combo.TRIO_SINGLE: 3,
    Combo.TRIO_PAIR: 3,
    Combo.PLANE_SINGLE: 3,
    Combo.PLANE_PAIR: 3,
    Combo.FOUR_TWO_SINGLE: 4,
    Combo.FOUR_TWO_PAIR: 4,
    Combo.SHUTTLE: 4,
}


def _info(combo: int, main: int, length: int) -> int:
    return combo | (main << 5) | (length << 9)


def _decks_of(word: int) -> int:
    counts = [(word >> (4 * r)) & 0xF for r in range(15)]
    return 2 if max(counts[:13]) > 4 or max(counts[13:]) > 1 else 1


MoveLike = Union["Move", str]


def _word_ok(w: object) -> bool:
    return isinstance(w, (int, np.integer)) and not isinstance(w, bool) and 0 <= int(w) < 1 << 64


def _words_ok(m: object) -> bool:
    """Whether ``m``'s record is two integers in 0 .. 2**64 - 1 (a ``Move``
    forged with ``object.__new__`` may hold anything, or nothing)."""
    return _word_ok(getattr(m, "_cards", None)) and _word_ok(getattr(m, "_info", None))


def _record_ok(m: object, rules: "_Rules") -> bool:
    """Whether ``m``'s record is two words and a valid reading of its cards
    under ``rules`` (docs/rules.md §2; a pass is (0, 0))."""
    return _words_ok(m) and _kernel.is_valid_reading(int(m._cards), int(m._info), rules.flags)  # type: ignore[attr-defined]


_object_new = object.__new__


class Move:
    """One move: cards plus a reading (docs/rules.md §2).  Immutable and hashable.

    ``Move("333444|plane|4|2")`` parses the text form ``CARDS|COMBO|MAIN|LENGTH``
    (pass is ``|pass||0`` or ``pass``); ``Move("33")`` classifies bare cards
    and needs exactly one reading.  ``str(move)`` gives the text form back.

    Attributes: ``cards`` (``Hand``), ``combo`` (``Combo``), ``main`` (``Rank``,
    the highest rank of the main part; ``None`` for pass), ``length`` (chain
    units; 1 for non-chains, 0 for pass), ``kickers`` (``Hand``, the cards
    outside the main part), ``rules`` (the ``Rules`` it was read under, which
    ``beats`` uses unless given others; ``None`` for ``PASS``).  Equality and
    hashing look at the cards and the reading only.

    ``rules`` may be a ``Rules`` or a preset name (``"standard"``).

    Raises ``InvalidMoveError`` for text that is not a valid combination under
    ``rules`` and ``AmbiguousMoveError`` for bare cards with several readings.
    """

    __slots__ = ("_cards", "_info", "_rules")
    _cards: int
    _info: int
    _rules: "_Rules | None"

    def __init__(self, text: "str | Move", rules: "_Rules | str | None" = None) -> None:
        m = text if isinstance(text, Move) else Move.parse(text, rules)
        self._cards = m._cards
        self._info = m._info
        self._rules = m._rules

    # -- construction ---------------------------------------------------
    @classmethod
    def _from_codes(cls, cards: int, info: int, rules: "_Rules | None" = None) -> "Move":
        m = _object_new(cls)  # not cls.__new__: a lookup less (MoveList makes one per indexed move)
        m._cards = cards
        m._info = info
        m._rules = rules
        return m

    @classmethod
    def from_codes(cls, cards: int, info: int, rules: "_Rules | str | None" = None) -> "Move":
        """The move of a kernel record; ``InvalidMoveError`` unless it is a valid reading."""
        rules = Rules.coerce(rules)
        if type(cards) is not int or type(info) is not int or cards < 0 or info < 0 \
                or cards >> 64 or info >> 64 or not _kernel.is_valid_reading(cards, info, rules.flags):
            raise InvalidMoveError(f"({cards!r}, {info!r}) is not a valid move record under {rules!r}")
        return cls._from_codes(cards, info, rules)

    @classmethod
    def from_parts(
        cls,
        cards: "Hand | str",
        combo: "Combo | str",
        main: "Rank | str | None",
        length: int,
        rules: "_Rules | str | None" = None,
    ) -> "Move":
        """A move from its parts, checked against ``rules`` (``InvalidMoveError`` otherwise)."""
        rules = Rules.coerce(rules)
        c = Combo.parse(combo)
        if c is Combo.PASS:
            if str(Hand(cards, decks=rules.decks)) or (main not in (None, "")) or length != 0:
                raise InvalidMoveError(f"pass has no cards, main or length: {cards!r}|pass|{main!r}|{length!r}")
            return PASS
        hand = cards if isinstance(cards, Hand) else Hand(cards, decks=rules.decks)
        try:
            m = Rank.parse(main)  # type: ignore[arg-type]
        except InvalidCardsError as e:
            raise InvalidMoveError(str(e)) from None
        if type(length) is not int or not 1 <= length <= 12:
            raise InvalidMoveError(f"length {length!r} is not a chain length (1..12)")
        # The record may carry laizi stand-ins, so look the reading up.
        readings = classify(hand, rules)
        for reading in readings:
            if reading._info & 0x3FFF == _info(c, m, length):
                return reading
        listed = ", ".join(str(r) for r in readings) or "none"
        raise InvalidMoveError(f"{hand}|{c}|{m}|{length} is not a valid combination (readings of {hand}: {listed})")

    @classmethod
    def parse(cls, text: "str | Move", rules: "_Rules | str | None" = None) -> "Move":
        """Parse ``CARDS|COMBO|MAIN|LENGTH``, ``pass``, or bare cards with one reading."""
        rules = Rules.coerce(rules)
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"{text!r} is not a move (give text like '33' or '333444|plane|4|2')")
        t = text.strip()
        if t.lower() == "pass":
            return PASS
        if "|" in t:
            parts = t.split("|")
            if len(parts) != 4:
                raise InvalidMoveError(f"{text!r}: a move is CARDS|COMBO|MAIN|LENGTH")
            cards, combo, main, length = parts
            try:
                n = int(length)
            except ValueError:
                raise InvalidMoveError(f"{text!r}: length {length!r} is not a number") from None
            try:
                return cls.from_parts(cards, combo, main or None, n, rules)
            except InvalidCardsError as e:
                raise InvalidMoveError(f"{text!r}: {e}") from None
        try:
            hand = Hand(t, decks=rules.decks)
        except InvalidCardsError as e:
            raise InvalidMoveError(str(e)) from None
        readings = classify(hand, rules)
        if not readings:
            raise InvalidMoveError(f"{t!r} is not a valid combination")
        if len(readings) > 1:
            listed = ", ".join(str(r) for r in readings)
            raise AmbiguousMoveError(f"{t!r} has {len(readings)} readings; give one of: {listed}", readings)
        return readings[0]

    @classmethod
    def from_action_id(cls, action_id: int, rules: "_Rules | str | None" = None) -> "Move":
        """The move with this dense id in ``action_space(rules)``."""
        return action_space(rules)[action_id]

    # -- attributes -----------------------------------------------------
    @property
    def cards(self) -> Hand:
        return Hand._trusted(self._cards, _decks_of(self._cards))

    @property
    def combo(self) -> Combo:
        return Combo(self._info & 0x1F)

    @property
    def main(self) -> "Rank | None":
        return None if self._info & 0x1F == 0 else Rank((self._info >> 5) & 0xF)

    @property
    def length(self) -> int:
        return (self._info >> 9) & 0x1F

    @property
    def codes(self) -> tuple[int, int]:
        """The kernel record: (card word, info word)."""
        return self._cards, self._info

    @property
    def is_pass(self) -> bool:
        return self._info & 0x1F == 0

    @property
    def is_bomb(self) -> bool:
        """Bombs, the rocket and the laizi and two-deck bomb kinds (not the shuttle)."""
        return Combo.BOMB <= self._info & 0x1F <= Combo.JOKER_BOMB

    @property
    def stand_ins(self) -> tuple[Rank, ...]:
        """Laizi (docs/rules.md §7): the ranks that wild cards of this move stand for,
        ascending, one per substituting wild card.  Wild cards at face value
        (alone, as kickers, or in their own rank's place) are not listed."""
        n = (self._info >> 14) & 0xF
        return tuple(Rank((self._info >> (18 + 4 * i)) & 0xF) for i in range(n))

    @property
    def wild(self) -> "Rank | None":
        """Laizi: the wild rank when some wild card of this move substitutes, else ``None``."""
        w = (self._info >> 34) & 0xF
        return Rank(w - 1) if w else None

    @property
    def kickers(self) -> Hand:
        """The cards outside the main part (带的牌); empty for moves without kickers.
        Physical cards: a wild card used as a kicker is at face value."""
        k = _KICKER_COMBOS.get(self.combo)
        if k is None:
            return Hand()
        main, length = (self._info >> 5) & 0xF, self.length
        core = sum(k << (4 * r) for r in range(main - length + 1, main + 1))
        wild = self.wild
        if wild is not None:  # the main part holds wild cards in place of the stand-in ranks
            for r in self.stand_ins:
                core += (1 << (4 * wild)) - (1 << (4 * r))
        return Hand._trusted(self._cards - core, _decks_of(self._cards))

    @property
    def rules(self) -> "_Rules | None":
        """The ``Rules`` this move was read under (``None`` for ``PASS``)."""
        return self._rules

    def beats(self, other: MoveLike, rules: "_Rules | str | None" = None) -> bool:
        """Whether this move beats ``other`` (docs/rules.md §2, comparing; §8
        for two decks).  ``rules``: default the rules this move was read
        under, else ``other``'s, else the standard ones.  Raises
        ``InvalidMoveError`` for text that is no move and for a ``Move``
        whose record is not a valid reading under ``rules`` (forged with
        ``object.__new__``)."""
        if rules is None:
            rules = getattr(self, "_rules", None) or (getattr(other, "_rules", None)
                                                      if isinstance(other, Move) else None)
        rules = Rules.coerce(rules)
        o = Move.parse(other, rules) if not isinstance(other, Move) else other
        for m in (self, o):
            if not _record_ok(m, rules):  # a Move forged with object.__new__
                raise InvalidMoveError(f"{m} is no move under {rules!r}: its record is not a valid reading")
        return _kernel.beats_codes(self._cards, self._info, o._cards, o._info, rules.flags)

    def action_id(self, rules: "_Rules | str | None" = None) -> int:
        """This move's dense id in ``action_space(rules)`` (pass is 0)."""
        return action_space(rules).index(self)

    # -- protocol -------------------------------------------------------
    def __str__(self) -> str:
        try:
            if self.is_pass:
                return "|pass||0"
            return f"{Hand._trusted(self._cards)}|{self.combo}|{RANK_CHARS[(self._info >> 5) & 0xF]}|{self.length}"
        except (AttributeError, TypeError, ValueError, IndexError, OverflowError):  # forged with object.__new__
            return f"<no move: record ({getattr(self, '_cards', None)!r}, {getattr(self, '_info', None)!r})>"

    def __repr__(self) -> str:
        text = str(self)
        return "Move('pass')" if text == "|pass||0" else f"Move({text!r})"  # Move("pass") is PASS

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._cards == other._cards and self._info == other._info
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._cards, self._info))

    def __reduce__(self) -> "tuple[object, ...]":
        # Unpickled through from_codes, which checks the record (a tampered pickle raises).
        return (Move.from_codes, (self._cards, self._info, self._rules))


#: The pass move (不出).
PASS = Move._from_codes(0, 0)


class MoveList(_movelist.MoveList):
    """The legal moves of a position, in the kernel's deterministic order
    (docs/rules.md §2-3).

    Immutable and re-iterable: ``len``, ``bool``, ``in`` (a ``Move`` or move
    text), indexing and slicing, ``count()``.  ``codes`` is a read-only
    zero-copy ``MOVE_DTYPE`` view (shape ``(n,)``: ``cards``, ``info``
    uint64) of the records the list holds; ``Move`` objects (carrying
    ``rules``) are made only when iterated or indexed.  ``MoveList(codes,
    rules=None)`` copies a ``MOVE_DTYPE`` array; ``InvalidArgumentError`` for
    anything else, ``InvalidMoveError`` for a record that is no valid move
    under ``rules``.
    """

    __slots__ = ()
    _move = Move._from_codes  # the compiled list's records -> Move (a bound classmethod: no re-binding)
    _move_type = Move  # indexing fills a Move in C (the compiled list's fast path)

    def __init__(self, codes: np.ndarray, rules: "_Rules | str | None" = None) -> None:
        rules = Rules.coerce(rules)
        super().__init__(codes, rules.flags, rules)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move, self.rules)
            except InvalidMoveError:
                return False
        if type(move) is not Move:  # a subclass (MarkedMove) need not equal the plain move of its record
            return isinstance(move, Move) and any(move == m for m in self)
        # a Move forged with object.__new__ (no record, or words that are no ints) is in no list
        return _words_ok(move) and self._has(int(move._cards), int(move._info))

    if TYPE_CHECKING:
        rules: "_Rules"

        def __iter__(self) -> Iterator[Move]: ...
        @overload
        def __getitem__(self, i: int, /) -> Move: ...
        @overload
        def __getitem__(self, i: slice, /) -> "MoveList": ...
        def __getitem__(self, i: "int | slice", /) -> "Move | MoveList": ...


def classify(cards: "Hand | str", rules: "_Rules | str | None" = None) -> list[Move]:
    """Every valid reading of exactly these cards (docs/rules.md §2); ``[]`` if none.
    Each ``Move`` carries ``rules``.

    Raises ``InvalidCardsError`` for bad cards (text, a list of ranks, a
    ``Hand``) and ``InvalidRulesError`` for bad ``rules``.
    """
    rules = Rules.coerce(rules)
    hand = cards if isinstance(cards, Hand) else Hand(cards, decks=rules.decks)
    if hand.decks > rules.decks:
        hand = Hand.from_word(hand.word, rules.decks)
    make = Move._from_codes
    return [make(c, i, rules) for c, i in _kernel.classify_array(hand.word, rules.flags).tolist()]


# -- the action space: a dense id per move -------------------------------------------



def _card_totals(cards: np.ndarray) -> np.ndarray:
    total = np.zeros(len(cards), dtype=np.int64)
    for r in range(15):
        total += ((cards >> np.uint64(4 * r)) & np.uint64(0xF)).astype(np.int64)
    return total


class ActionSpace:
    """Every move of a rule set with its dense id.

    ``len(space)``; ``space[i]`` -> ``Move``; ``space.index(move)`` -> id
    (``IllegalMoveError`` for a move outside the space); ``codes`` is the
    ``MOVE_DTYPE`` array of shape ``(len(space),)`` in id order.
    """

    def __init__(self, rules: Rules, max_cards: int) -> None:
        self.rules = rules
        self.max_cards = max_cards
        moves = _kernel.generate_array(DECK_WORDS[rules.decks], 0, 0, rules.flags)
        moves = moves[_card_totals(moves["cards"]) <= max_cards]
        info = moves["info"]
        order = np.lexsort((moves["cards"], (info >> np.uint64(5)) & np.uint64(0xF),
                            (info >> np.uint64(9)) & np.uint64(0x1F), info & np.uint64(0x1F)))
        self.codes: np.ndarray = np.concatenate([np.zeros(1, MOVE_DTYPE), moves[order]])
        self._ids = {(c << 64) | i: k for k, (c, i) in enumerate(self.codes.tolist())}

    def __len__(self) -> int:
        return len(self.codes)

    def __iter__(self) -> Iterator[Move]:
        for c, i in self.codes.tolist():
            yield Move._from_codes(c, i, self.rules)

    def __getitem__(self, action_id: int) -> Move:
        if not isinstance(action_id, (int, np.integer)) or isinstance(action_id, bool) \
                or not 0 <= action_id < len(self.codes):  # a bool is no id (as Game.action_from_id refuses it)
            raise InvalidMoveError(f"action id {action_id!r} is not in 0..{len(self.codes) - 1}")
        c, i = self.codes[int(action_id)].tolist()
        return Move._from_codes(c, i, self.rules)

    def index(self, move: Move) -> int:
        """The id of ``move``; ``IllegalMoveError`` for a move outside the
        space (or no move: a ``Move`` forged with ``object.__new__``)."""
        try:
            c, i = move.codes
            return self._ids[(c << 64) | i]
        except (KeyError, TypeError, AttributeError):
            raise IllegalMoveError(f"{move} is not in the action space of {self.rules!r}") from None

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and _words_ok(move) and ((move._cards << 64) | move._info) in self._ids

    def card_sets(self) -> int:
        """How many distinct card sets the moves use (pass excluded)."""
        return len(np.unique(self.codes["cards"][1:]))

    def __repr__(self) -> str:
        return f"<ActionSpace {len(self)} ids ({self.rules!r}, max_cards={self.max_cards})>"


def action_space(rules: Rules | str | None = None, max_cards: int = 20) -> ActionSpace:
    """The action space of ``rules`` (cached): standard 29,726 moves + pass.

    ``max_cards`` caps a move's size (20 = the landlord's hand with one deck).
    Raises ``InvalidRulesError`` for bad ``rules`` and ``InvalidArgumentError``
    for a ``max_cards`` that is not an int >= 0.
    """
    cap = as_index(max_cards, "max_cards")
    if cap < 0:
        raise InvalidArgumentError(f"max_cards must be an int >= 0, not {max_cards!r}")
    return _action_space(Rules.coerce(rules), cap)


@lru_cache(maxsize=16)
def _action_space(rules: Rules, max_cards: int) -> ActionSpace:
    """``action_space`` of checked arguments, cached."""
    return ActionSpace(rules, max_cards)
