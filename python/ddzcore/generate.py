"""Legal-move generation: one position, or a batch (docs/rules.md §2-3).

Three levels of the same enumeration, all in the kernel's order:

- ``legal_moves`` -> ``MoveList`` (comfort: ``Move`` objects on demand);
- ``legal_moves_array`` / ``count_moves`` -> NumPy ``MOVE_DTYPE`` array / int;
- ``legal_moves_batch`` / ``count_moves_batch`` over arrays of positions, in
  one call that releases the GIL.
"""

from __future__ import annotations

from typing import Iterable, Sequence, Union

import numpy as np

from . import _kernel, _movelist
from ._movelist import count_moves, legal_moves, legal_moves_array
from .cards import Hand, _check_word
from .errors import InvalidCardsError, InvalidMoveError
from .moves import MOVE_DTYPE, Move, MoveList
from .rules import Rules

__all__ = [
    "legal_moves",
    "legal_moves_array",
    "count_moves",
    "legal_moves_batch",
    "count_moves_batch",
    "hands_array",
    "moves_array",
]

HandLike = Union[Hand, str, int]
LastLike = Union[Move, str, None]

_STANDARD = Rules()


def _hand_word(hand: HandLike, rules: Rules) -> int:
    if type(hand) is Hand and hand._decks <= rules.decks:
        return hand._word
    if isinstance(hand, Hand):
        return _check_word(hand.word, rules.decks, hand)
    if isinstance(hand, str):
        return Hand(hand, decks=rules.decks).word
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        return _check_word(int(hand), rules.decks, hand)
    raise InvalidCardsError(f"{hand!r} is not a hand (give a Hand, card text or a card word)")


def _slow_position(hand: HandLike, last: LastLike, rules: Rules) -> tuple[int, int, int, int]:
    """The kernel's arguments (hand word, last cards, last info, rule flags)
    for arguments other than a Hand and a Move; raises the typed errors."""
    lc, li = _last_codes(last, rules)
    return _hand_word(hand, rules), lc, li, rules.flags


def _last_codes(last: LastLike, rules: Rules) -> tuple[int, int]:
    """The kernel record of the move to beat; (0, 0) for a free lead.  The
    kernel checks that the record is a valid reading under the rules."""
    if last is None:
        return 0, 0
    if type(last) is Move:
        move = last
    elif isinstance(last, str) and not last.strip():
        return 0, 0
    else:
        move = Move.parse(last, rules)
    if move.is_pass:
        raise InvalidMoveError("the move to beat cannot be a pass; give last=None for a free lead")
    return move._cards, move._info


def hands_array(hands: Iterable[HandLike], rules: Rules | None = None) -> np.ndarray:
    """A uint64 array of card words, shape ``(n,)``, from hands or card text."""
    rules = rules or _STANDARD
    return np.fromiter((_hand_word(h, rules) for h in hands), dtype=np.uint64)


def moves_array(moves: Iterable[LastLike], rules: Rules | None = None) -> np.ndarray:
    """A ``MOVE_DTYPE`` array from moves or move text (``None`` or ``""`` = free lead, all zero)."""
    rules = rules or _STANDARD
    return np.array([_last_codes(m, rules) for m in moves], dtype=MOVE_DTYPE)


def _batch_args(hands: "np.ndarray | Sequence[HandLike]", lasts: "np.ndarray | Sequence[LastLike] | None",
                rules: Rules) -> tuple[np.ndarray, "np.ndarray | None", "np.ndarray | None"]:
    h = hands if isinstance(hands, np.ndarray) else hands_array(hands, rules)
    h = np.ascontiguousarray(h, dtype=np.uint64)
    if h.ndim != 1:
        raise InvalidCardsError(f"hands must be a 1-d array of card words, got shape {h.shape}")
    if lasts is None:
        return h, None, None
    lm = lasts if isinstance(lasts, np.ndarray) and lasts.dtype == MOVE_DTYPE else moves_array(lasts, rules)
    return h, np.ascontiguousarray(lm["cards"]), np.ascontiguousarray(lm["info"])


def legal_moves_batch(hands: "np.ndarray | Sequence[HandLike]",
                      lasts: "np.ndarray | Sequence[LastLike] | None" = None,
                      rules: Rules | None = None,
                      out: "np.ndarray | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """Legal moves of many positions in one call (the GIL is released).

    ``hands``: uint64 card words, shape ``(n,)`` (or hands / card text).
    ``lasts``: ``None`` (all free leads) or, per position, the move to beat as
    a ``MOVE_DTYPE`` array of shape ``(n,)`` (all-zero record = free lead) or
    a sequence of moves / move text / ``None``.

    Returns ``(moves, offsets)``: a ``MOVE_DTYPE`` array and an int64 array of
    shape ``(n + 1,)``; position i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    ``out``: a ``MOVE_DTYPE`` array to write into when it is large enough
    (``moves`` is then a view of it), e.g. ``moves.base`` of an earlier call,
    which saves allocating and faulting in fresh memory on every call.
    Raises ``InvalidCardsError`` / ``InvalidMoveError`` naming the first bad
    position, before any work is done.
    """
    rules = rules or _STANDARD
    h, lc, li = _batch_args(hands, lasts, rules)
    return _kernel.generate_batch(h, lc, li, rules.flags, out)


def count_moves_batch(hands: "np.ndarray | Sequence[HandLike]",
                      lasts: "np.ndarray | Sequence[LastLike] | None" = None,
                      rules: Rules | None = None) -> np.ndarray:
    """Number of legal moves per position, int64 array of shape ``(n,)``;
    arguments and errors as ``legal_moves_batch``."""
    rules = rules or _STANDARD
    h, lc, li = _batch_args(hands, lasts, rules)
    return _kernel.count_batch(h, lc, li, rules.flags)


_movelist._register(Hand, Move, _slow_position, _STANDARD)
