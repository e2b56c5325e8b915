"""Legal-move generation: one position, or a batch (docs/rules.md §2-3).

Three levels of the same enumeration, all in the kernel's order:

- ``legal_moves`` -> ``MoveList`` (comfort: ``Move`` objects on demand);
- ``legal_moves_array`` / ``count_moves`` -> NumPy ``MOVE_DTYPE`` array / int;
- ``legal_moves_batch`` / ``count_moves_batch`` over arrays of positions, in
  one call that releases the GIL.
"""

from __future__ import annotations

import numbers
from typing import Any, Iterable, Sequence, Union

import numpy as np

from . import _kernel
from ._movelist import _bind, _count_moves, _legal_moves, _legal_moves_array
from .cards import Hand, _check_word
from .cards import _hand_word as _checked_hand_word
from .errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError
from .moves import MOVE_DTYPE, Move, MoveList, _record_ok
from .rules import Rules

__all__ = [
    "legal_moves",
    "legal_moves_array",
    "count_moves",
    "legal_moves_batch",
    "count_moves_batch",
    "thread_spin",
    "hands_array",
    "moves_array",
]

HandLike = Union[Hand, str, int]
LastLike = Union[Move, str, None]

_STANDARD = Rules()


def _hand_word(hand: HandLike, rules: Rules) -> int:
    if isinstance(hand, Hand):
        return _checked_hand_word(hand, rules.decks)
    if isinstance(hand, str):
        return Hand(hand, decks=rules.decks).word
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        return _check_word(int(hand), rules.decks, hand)
    raise InvalidCardsError(f"{hand!r} is not a hand (give a Hand, card text or a card word)")


def _position(hand: HandLike, last: LastLike, rules: Rules | str | None) -> tuple[int, int, int, int, Rules]:
    """The kernel's arguments (hand word, last cards, last info, rule flags)
    and the ``Rules`` of the public arguments, read and checked field by
    field; raises the typed errors (the kernel checks the words against the
    rules).  The compiled fast path (``_movelist._legal``) comes here for
    every argument it does not read itself."""
    rules = Rules.coerce(rules)
    flags = rules.flags  # InvalidRulesError for a forged Rules
    lc, li = _last_codes(last, rules)
    return _hand_word(hand, rules), lc, li, flags, rules


_bind(Hand, Move, Rules, MoveList, _STANDARD, _position)


def legal_moves(hand: HandLike, last: LastLike = None, rules: Rules | str | None = None) -> MoveList:
    """Every legal move of ``hand`` (docs/rules.md §2-3), as a ``MoveList``.

    ``hand``: a ``Hand``, card text or card word.  ``last``: the move to beat
    (a ``Move``, move text, or bare cards with one reading); ``None`` is a
    free lead, where pass is not legal.  When following, the pass move comes
    first.  After the rocket only pass is legal.  ``rules``: a ``Rules`` or
    a preset name (default: docs/rules.md's); the moves carry it.

    Raises ``InvalidCardsError`` for a bad hand (a ``Hand`` forged around its
    checks included: fields of the wrong type or out of range, named),
    ``InvalidMoveError`` (or its subclass ``AmbiguousMoveError``) for a bad
    ``last`` (no valid reading, a forged ``Move``, or cards the deck cannot
    hold besides the hand: docs/rules.md §1, §7, §8) and ``InvalidRulesError``
    for bad ``rules``.
    """
    return _legal_moves(hand, last, rules)  # type: ignore[no-any-return]


def legal_moves_array(hand: HandLike, last: LastLike = None, rules: Rules | str | None = None) -> np.ndarray:
    """``legal_moves`` as a ``MOVE_DTYPE`` array of shape ``(n,)`` (fields
    ``cards`` and ``info``, uint64; no ``Move`` objects are made).  Same
    arguments and errors."""
    return _legal_moves_array(hand, last, rules)


def count_moves(hand: HandLike, last: LastLike = None, rules: Rules | str | None = None) -> int:
    """How many legal moves ``hand`` has (nothing is stored).  Same
    arguments and errors as ``legal_moves``."""
    return _count_moves(hand, last, rules)


def _last_codes(last: LastLike, rules: Rules) -> tuple[int, int]:
    """The kernel record of the move to beat; (0, 0) for a free lead.
    Raises ``InvalidMoveError`` for a move that is no valid reading under
    ``rules`` (a forged ``Move`` included) and for a pass."""
    if last is None:
        return 0, 0
    if type(last) is Move:
        move = last
    elif isinstance(last, str) and not last.strip():
        return 0, 0
    else:
        move = Move.parse(last, rules)
    if not _record_ok(move, rules):  # a Move forged with object.__new__ or another game's rules
        raise InvalidMoveError(f"the move to beat {move} is no move under {rules!r}: its record is not a valid "
                               f"reading (docs/rules.md §2)")
    if move.is_pass:
        raise InvalidMoveError("the move to beat cannot be a pass; give last=None for a free lead")
    return move._cards, move._info


def _items(seq: Any, what: str, error: type[Exception]) -> list[Any]:
    """The items of a sequence argument (not one text, not a non-iterable), else ``error``."""
    if isinstance(seq, (str, bytes)) or isinstance(seq, np.ndarray) and seq.ndim != 1:
        raise error(f"{what} must be a sequence or 1-d array, not {seq!r}")
    try:
        return list(seq)
    except TypeError:
        raise error(f"{what} must be a sequence or 1-d array, not {seq!r}") from None


def hands_array(hands: Iterable[HandLike], rules: Rules | str | None = None) -> np.ndarray:
    """A uint64 array of card words, shape ``(n,)``, from hands, card text or words.
    Raises ``InvalidCardsError`` naming a bad hand."""
    rules = Rules.coerce(rules)
    words = [_hand_word(h, rules) for h in _items(hands, "hands", InvalidCardsError)]
    return np.array(words, dtype=np.uint64)


def moves_array(moves: Iterable[LastLike], rules: Rules | str | None = None) -> np.ndarray:
    """A ``MOVE_DTYPE`` array of shape ``(n,)`` from moves or move text
    (``None`` or ``""`` = free lead, all zero).  Raises ``InvalidMoveError``
    naming a bad move: text with no valid reading, a pass, or a ``Move``
    whose record is not a valid reading under ``rules`` (docs/rules.md §2;
    one forged around the checks, or read under other rules);
    ``InvalidRulesError`` for bad ``rules``."""
    rules = Rules.coerce(rules)
    codes = [_last_codes(m, rules) for m in _items(moves, "lasts", InvalidMoveError)]
    return np.array(codes, dtype=MOVE_DTYPE).reshape(len(codes))


def _batch_args(hands: "np.ndarray | Sequence[HandLike]", lasts: "np.ndarray | Sequence[LastLike] | None",
                rules: Rules) -> tuple[np.ndarray, "np.ndarray | None", "np.ndarray | None"]:
    """Card words and the move to beat's two words as C-contiguous uint64
    arrays.  Arrays of card words must have an integer dtype (negative words
    and floats, which would be truncated, are refused with
    ``InvalidCardsError``); arrays of moves must be ``MOVE_DTYPE`` (else
    ``InvalidMoveError``); object arrays are read item by item."""
    if isinstance(hands, np.ndarray) and hands.dtype.kind in "ui" and hands.ndim == 1:
        if hands.dtype.kind == "i" and len(hands) and hands.min() < 0:
            raise InvalidCardsError(f"hands[{int(np.argmin(hands))}] is negative: not a card word")
        h = np.ascontiguousarray(hands, dtype=np.uint64)
    elif isinstance(hands, np.ndarray) and hands.dtype.kind != "O":
        raise InvalidCardsError(f"hands must be a 1-d array of card words (uint64) or a sequence of hands, "
                                f"not an array of dtype {hands.dtype} and shape {hands.shape}")
    else:
        h = hands_array(hands, rules)
    if lasts is None:
        return h, None, None
    if isinstance(lasts, np.ndarray) and lasts.dtype != np.dtype(object):
        if lasts.dtype != MOVE_DTYPE or lasts.ndim != 1:
            raise InvalidMoveError(f"lasts must be a 1-d MOVE_DTYPE array or a sequence of moves, "
                                   f"not an array of dtype {lasts.dtype} and shape {lasts.shape}")
        lm = lasts
    else:
        lm = moves_array(lasts, rules)
    return h, np.ascontiguousarray(lm["cards"]), np.ascontiguousarray(lm["info"])


def _out_buffer(out: object) -> Any:
    """The buffer an ``out=`` argument names: the ``(moves, offsets)`` an
    earlier call returned stands for its moves' whole buffer; anything else
    passes through (the kernel refuses what it cannot write into)."""
    if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], np.ndarray):
        moves = out[0]
        return moves.base if isinstance(moves.base, np.ndarray) and moves.base.dtype == MOVE_DTYPE else moves
    return out


def legal_moves_batch(hands: "np.ndarray | Sequence[HandLike]",
                      lasts: "np.ndarray | Sequence[LastLike] | None" = None,
                      rules: Rules | str | None = None,
                      out: "np.ndarray | tuple[np.ndarray, np.ndarray] | None" = None,
                      threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Legal moves of many positions in one call (the GIL is released).

    ``hands``: uint64 card words, shape ``(n,)`` (or hands / card text).
    ``lasts``: ``None`` (all free leads) or, per position, the move to beat as
    a ``MOVE_DTYPE`` array of shape ``(n,)`` (all-zero record = free lead) or
    a sequence of moves / move text / ``None``.

    Returns ``(moves, offsets)``: a ``MOVE_DTYPE`` array and an int64 array of
    shape ``(n + 1,)``; position i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    ``out``: a ``MOVE_DTYPE`` array to write into when it is large enough
    (``moves`` is then a view of it), or the ``(moves, offsets)`` an earlier
    call returned (its buffer is reused, so that result's arrays are
    overwritten), which saves allocating and faulting in fresh memory on
    every call.  Without ``out`` (or when it is too small) the moves go to a
    block grown in place and handed to NumPy without a copy (peak memory
    about the output's size).  A too-small ``out`` is written into before
    the moves outgrow it: afterwards its contents are unspecified (some of
    the moves, not a result to read; ``moves`` is not a view of it), so
    pass an ``out`` you can overwrite.  A large enough ``out`` may also
    change past ``moves``: the generator uses up to 128 records past a
    position's moves as scratch.  ``rules``: a ``Rules`` or a preset name.
    ``threads``: threads (int >= 1) generating chunks of positions in
    parallel; the result is identical for any number.  The helper threads
    are kept between calls and poll for the next one for a while before
    they sleep (``thread_spin``); a call made while another thread's batch
    call runs uses its own thread only.
    Raises ``InvalidCardsError`` / ``InvalidMoveError`` naming the first bad
    position (a move to beat that its row's hand makes impossible included),
    or a hands / lasts array of the wrong dtype, before any work is done (``out``
    untouched); ``InvalidArgumentError`` for an ``out`` that cannot be written
    into or a bad ``threads``; ``InvalidRulesError`` for bad ``rules``.
    """
    rules = Rules.coerce(rules)
    flags = rules.flags
    h, lc, li = _batch_args(hands, lasts, rules)
    return _kernel.generate_batch(h, lc, li, flags, _out_buffer(out), threads)


def count_moves_batch(hands: "np.ndarray | Sequence[HandLike]",
                      lasts: "np.ndarray | Sequence[LastLike] | None" = None,
                      rules: Rules | str | None = None, threads: int = 1) -> np.ndarray:
    """Number of legal moves per position, int64 array of shape ``(n,)``;
    arguments (``threads`` too) and errors as ``legal_moves_batch``."""
    rules = Rules.coerce(rules)
    flags = rules.flags
    h, lc, li = _batch_args(hands, lasts, rules)
    return _kernel.count_batch(h, lc, li, flags, threads)


def thread_spin(seconds: float | None = None) -> float:
    """How long (seconds, float) the helper threads of the batch calls and
    ``simulate`` poll for the next call after finishing one, before they
    sleep; returns the setting before the call, and sets it when
    ``seconds`` is given.

    Default 0.01.  A sleeping thread is slow to wake on some machines
    (about 1 ms on these virtual machines, as long as a whole
    ``count_moves_batch`` of 100,000 positions), so calls in a loop run
    faster when the helpers are still polling.  Polling keeps a core busy
    (yielding it every few microseconds to any thread that wants it; at
    most one polling helper a CPU); 0 makes the helpers sleep at once,
    those polling now included.  The helpers live as long as the process
    (on Python 3.12+ a later ``os.fork()`` warns that the process is
    multi-threaded; the forked child starts helpers of its own).
    Raises ``InvalidArgumentError`` for anything but a real number in 0..10.
    """
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or not 0 <= seconds <= 10:
            raise InvalidArgumentError(f"seconds must be a number in 0..10, not {seconds!r}")
        return float(_kernel._crew_spin(float(seconds)))
    return float(_kernel._crew_spin())
