# cython: language_level=3, wraparound=False, cdivision=True
"""The legal moves of one position: ``MoveList`` and the calls that make it.

``MoveList`` holds the kernel's move records (``MoveRec``: card word + info
word) in its own buffer and makes ``Move`` objects only when asked; ``codes``
is a zero-copy NumPy view.  ``legal_moves``, ``legal_moves_array`` and
``count_moves`` share one argument path: a ``Hand`` and a ``Move`` (or None)
go straight to the kernel; anything else (card text, move text, words) is
converted and checked by the Python layer's ``_slow_position``.
docs/rules.md §2-3.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memcmp
from cpython.buffer cimport PyBUF_WRITABLE

cimport numpy as cnp

from ddzcore.bits cimport u64, MoveRec
from ddzcore._kernel cimport generate, records_to_array, valid_hand, valid_reading

import numpy as np

from ddzcore._kernel import MOVE_DTYPE
from ddzcore._errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError

cnp.import_array()

# Bound by ddzcore.generate at import (the Python layer's types and helpers).
cdef object _Hand = None
cdef object _Move = None
cdef object _make_move = None
cdef object _slow_position = None
cdef object _default_rules = None
cdef object _Rules = None


def _register(hand_type, move_type, slow_position, default_rules):
    """Called once by ddzcore.generate: the Python types and the slow argument path."""
    global _Hand, _Move, _make_move, _slow_position, _default_rules, _Rules
    _Hand, _Move, _slow_position, _default_rules = hand_type, move_type, slow_position, default_rules
    _make_move = move_type._from_codes
    _Rules = type(default_rules)


cdef inline object _rules_of(rules):
    """The ``Rules`` of a ``rules=`` argument (a ``Rules``, a preset name or None)."""
    if rules is None:
        return _default_rules
    if type(rules) is _Rules:
        return rules
    return _Rules.coerce(rules)


cdef MoveRec* _scratch = NULL
cdef Py_ssize_t _scratch_cap = 0


cdef Py_ssize_t _generate(u64 hand, u64 lc, u64 li, int flags) except -1:
    """Generate into the module's scratch buffer (GIL held, so not shared)."""
    global _scratch, _scratch_cap
    cdef Py_ssize_t n = generate(hand, lc, li, flags, _scratch, _scratch_cap)
    cdef MoveRec* grown
    if n > _scratch_cap:
        grown = <MoveRec*>realloc(_scratch, (n + 256) * sizeof(MoveRec))
        if grown == NULL:
            raise MemoryError()
        _scratch, _scratch_cap = grown, n + 256
        n = generate(hand, lc, li, flags, _scratch, _scratch_cap)
    return n


cdef struct Position:
    u64 hand
    u64 last_cards
    u64 last_info
    int flags


cdef object _position(Position* p, hand, last, rules):
    """Fill p from the public arguments and return the ``Rules``; raise the
    typed error for bad input."""
    rules = _rules_of(rules)
    if type(hand) is _Hand and hand._decks <= rules.decks and (
            last is None or (type(last) is _Move and last._info != 0)):
        p.hand = hand._word
        p.flags = rules._flags
        if last is None:
            p.last_cards = p.last_info = 0
        else:
            p.last_cards = last._cards
            p.last_info = last._info
    else:
        p.hand, p.last_cards, p.last_info, p.flags = _slow_position(hand, last, rules)
    if not valid_hand(p.hand, p.flags):
        raise InvalidCardsError(f"{hand!r} has more cards of a rank than the deck holds")
    if p.last_info != 0 and not valid_reading(p.last_cards, p.last_info, p.flags):
        raise InvalidMoveError(f"the move to beat {last!r} is not a valid combination under {rules!r}")
    return rules


def legal_moves(hand, last=None, rules=None):
    """Every legal move of ``hand`` (docs/rules.md §2-3), as a ``MoveList``.

    ``hand``: a ``Hand``, card text or card word.  ``last``: the move to beat
    (a ``Move``, move text, or bare cards with one reading); ``None`` is a
    free lead, where pass is not legal.  When following, the pass move comes
    first.  After the rocket only pass is legal.  ``rules``: a ``Rules`` or
    a preset name (default: docs/rules.md's); the moves carry it.

    Raises ``InvalidCardsError`` for a bad hand, ``InvalidMoveError`` (or
    its subclass ``AmbiguousMoveError``) for a bad ``last`` and
    ``InvalidRulesError`` for bad ``rules``.
    """
    cdef Position p
    rules = _position(&p, hand, last, rules)
    cdef Py_ssize_t n = _generate(p.hand, p.last_cards, p.last_info, p.flags)
    return MoveList._wrap(_scratch, n, rules)


def legal_moves_array(hand, last=None, rules=None):
    """``legal_moves`` as a ``MOVE_DTYPE`` array of shape ``(n,)`` (fields
    ``cards`` and ``info``, uint64).  Same arguments and errors."""
    cdef Position p
    _position(&p, hand, last, rules)
    cdef Py_ssize_t n = _generate(p.hand, p.last_cards, p.last_info, p.flags)
    return records_to_array(_scratch, n)


def count_moves(hand, last=None, rules=None):
    """How many legal moves ``hand`` has (nothing is stored).  Same
    arguments and errors as ``legal_moves``."""
    cdef Position p
    _position(&p, hand, last, rules)
    return generate(p.hand, p.last_cards, p.last_info, p.flags, NULL, 0)


cdef MoveRec _EMPTY[1]


cdef class MoveList:
    """The legal moves of a position, in the kernel's deterministic order.

    Immutable and re-iterable: ``len``, ``bool``, ``in`` (a ``Move`` or move
    text), indexing and slicing, ``count()``.  ``codes`` is a read-only
    zero-copy ``MOVE_DTYPE`` view (shape ``(n,)``: ``cards``, ``info``
    uint64) of the records the list holds; ``Move`` objects are made only
    when iterated or indexed.  ``MoveList(codes)`` copies a ``MOVE_DTYPE`` array.
    """

    def __cinit__(self):
        self._recs = NULL
        self._n = 0

    def __init__(self, codes, rules=None):
        cdef Py_ssize_t i
        cdef MoveRec* recs
        rules = _rules_of(rules)
        if not isinstance(codes, np.ndarray) or codes.dtype != MOVE_DTYPE or codes.ndim != 1:
            raise InvalidArgumentError(f"codes must be a 1-d MOVE_DTYPE array, not {codes!r}")
        arr = np.ascontiguousarray(codes)
        recs = <MoveRec*>cnp.PyArray_DATA(<cnp.ndarray>arr)
        for i in range(arr.shape[0]):
            if recs[i].info != 0 and not valid_reading(recs[i].cards, recs[i].info, rules._flags) \
                    or recs[i].info == 0 and recs[i].cards != 0:
                raise InvalidMoveError(f"codes[{i}] is not a valid move record under {rules!r}")
        self._copy_from(recs, arr.shape[0])
        self.rules = rules

    def __dealloc__(self):
        free(self._recs)

    cdef int _copy_from(self, MoveRec* recs, Py_ssize_t n) except -1:
        if n:
            self._recs = <MoveRec*>malloc(n * sizeof(MoveRec))
            if self._recs == NULL:
                raise MemoryError()
            memcpy(self._recs, recs, n * sizeof(MoveRec))
        self._n = n
        return 0

    @staticmethod
    cdef MoveList _wrap(MoveRec* recs, Py_ssize_t n, rules):
        cdef MoveList ml = MoveList.__new__(MoveList)
        ml._copy_from(recs, n)
        ml.rules = rules
        return ml

    @property
    def codes(self):
        """The moves as a read-only ``MOVE_DTYPE`` array (a view of this list)."""
        return np.frombuffer(self, dtype=MOVE_DTYPE)

    def __getbuffer__(self, Py_buffer* buf, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("MoveList is immutable")
        buf.buf = <void*>(self._recs if self._recs != NULL else _EMPTY)
        buf.obj = self
        buf.len = self._n * sizeof(MoveRec)
        buf.readonly = 1
        buf.itemsize = 1
        buf.format = NULL
        buf.ndim = 1
        buf.shape = NULL
        buf.strides = NULL
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer* buf):
        pass

    def __len__(self):
        return self._n

    def count(self):
        """Number of moves (same as ``len``)."""
        return self._n

    def __bool__(self):
        return self._n > 0

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self._n):
            yield _make_move(self._recs[i].cards, self._recs[i].info, self.rules)

    def __getitem__(self, i):
        cdef Py_ssize_t k, start, stop, step, length
        cdef MoveList out
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            length = len(range(start, stop, step))
            out = MoveList.__new__(MoveList)
            out.rules = self.rules
            if length:
                out._recs = <MoveRec*>malloc(length * sizeof(MoveRec))
                if out._recs == NULL:
                    raise MemoryError()
                for k in range(length):
                    out._recs[k] = self._recs[start + k * step]
            out._n = length
            return out
        k = i
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(f"move index {i} out of range for {self._n} moves")
        return _make_move(self._recs[k].cards, self._recs[k].info, self.rules)

    def __contains__(self, move):
        cdef Py_ssize_t i
        cdef u64 cards, info
        if isinstance(move, str):
            try:
                move = _Move.parse(move, self.rules)
            except InvalidMoveError:
                return False
        if not isinstance(move, _Move):
            return False
        cards, info = move.codes
        for i in range(self._n):
            if self._recs[i].cards == cards and self._recs[i].info == info:
                return True
        return False

    def __eq__(self, other):
        if not isinstance(other, MoveList):
            return NotImplemented
        cdef MoveList o = <MoveList>other
        return self._n == o._n and (self._n == 0 or
                                    memcmp(self._recs, o._recs, self._n * sizeof(MoveRec)) == 0)

    __hash__ = None

    def __repr__(self):
        shown = ", ".join(str(m) for m in self[:8])
        more = f", ... ({self._n} moves)" if self._n > 8 else ""
        return f"<MoveList [{shown}{more}]>"
