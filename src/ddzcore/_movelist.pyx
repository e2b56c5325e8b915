# cython: language_level=3, wraparound=False, cdivision=True
"""The legal moves of one position as kernel records: the compiled half of ``MoveList``.

Moves cross this module as integer codes only: ``_moves`` takes a position as
words (hand, the move to beat's card and info words, rule flags) and returns a
``MoveList`` of the given class, which holds the kernel's move records
(``MoveRec``: card word + info word) in its own buffer; ``codes`` is a
zero-copy NumPy view.  The class here knows no ``Move``: its items are made by
``_move(cards, info, rules)``, a (cards, info) pair here, a ``Move`` in
``ddzcore.moves.MoveList``, the public subclass, which also parses the public
arguments (``ddzcore.generate``).  docs/rules.md §2-3.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memcmp
from cpython.buffer cimport PyBUF_WRITABLE
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF

cimport numpy as cnp

from ddzcore.bits cimport u64, MoveRec
from ddzcore._kernel cimport fits_deck, generate, records_to_array, valid_hand, valid_reading

from types import MemberDescriptorType

import numpy as np

from ddzcore._kernel import MOVE_DTYPE
from ddzcore._errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError, MoveIndexError, as_index

cnp.import_array()


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


cdef extern from "Python.h":
    # Without Cython's error check: word() tests PyErr_Occurred itself.  The
    # "long" one reads a few digits in a loop (the "long long" one goes
    # through _PyLong_AsByteArray past one digit): used where it is 64 bits.
    unsigned long as_ulong "PyLong_AsUnsignedLong"(object o)
    unsigned long long as_ulonglong "PyLong_AsUnsignedLongLong"(object o)
    bint PyLong_CheckExact(PyObject* o)
    PyObject* PyErr_Occurred()
    void PyErr_Clear()


cdef inline bint word(PyObject* o, u64* out) noexcept:
    """Store ``o`` in ``out`` when it is an ``int`` in 0 .. 2**64 - 1 (a card
    or info word) and say so; False, with no exception set, otherwise."""
    if o == NULL or not PyLong_CheckExact(o):
        return False
    out[0] = as_ulong(<object>o) if sizeof(unsigned long) == 8 else as_ulonglong(<object>o)
    if out[0] == <u64>-1 and PyErr_Occurred() != NULL:
        PyErr_Clear()
        return False
    return True


cdef int index_word(object o, u64* out, object error) except -1:
    """``word`` for any integer an ``int`` stands for (``__index__``: a NumPy
    integer, an ``int`` subclass): 1, or 0 for an integer out of range;
    ``error`` (``as_index``'s, chained) for a non-integer, ``bool`` included,
    or an ``__index__`` that raises."""
    if word(<PyObject*>o, out):
        return 1
    o = as_index(o, "a card/info word of a move record", error)  # an exact int
    return word(<PyObject*>o, out)


cdef int _check(u64 hand, u64 lc, u64 li, int flags, shown_hand, shown_last, rules) except -1:
    """Raise the typed error for a hand or a move to beat the rules refuse
    (``shown_*``, ``rules``: the caller's arguments, only to name them):
    ``InvalidCardsError`` for a hand the deck(s) cannot hold,
    ``InvalidMoveError`` for a move to beat that is no valid reading or
    that the deck(s) cannot hold besides the hand (docs/rules.md §1-2, §7-8)."""
    if not valid_hand(hand, flags):
        raise InvalidCardsError(f"{shown_hand!r} has more cards of a rank than the deck holds")
    if li != 0 and not valid_reading(lc, li, flags):
        raise InvalidMoveError(f"the move to beat {shown_last!r} is not a valid combination under {rules!r}")
    if not fits_deck(hand, lc, flags):
        raise InvalidMoveError(f"the move to beat {shown_last!r} and the hand {shown_hand!r} hold more cards "
                               f"of a rank than the deck (docs/rules.md §1)")
    return 0


cdef int _last_words(lc, li, u64* c, u64* i, shown_last) except -1:
    """The move to beat's words (ints in 0 .. 2**64 - 1, as a forged ``Move``
    may not hold), else ``InvalidMoveError``."""
    if not (index_word(lc, c, InvalidMoveError) and index_word(li, i, InvalidMoveError)):
        raise InvalidMoveError(f"the move to beat is no move record: ({lc!r}, {li!r}) are not two card/info "
                               f"words (ints in 0..2**64-1)")
    return 0


def _moves(type cls, u64 hand, lc, li, int flags, rules, shown_hand, shown_last):
    """The legal moves of a position given as words, as a ``cls`` (a
    ``MoveList`` class) whose moves carry ``rules``.  ``lc``, ``li``: the
    move to beat's words (0, 0 = a free lead); ``shown_*``: the caller's
    arguments, named by the errors (``InvalidCardsError``,
    ``InvalidMoveError``, see ``_check``)."""
    cdef u64 c = 0, i = 0
    _last_words(lc, li, &c, &i, shown_last)
    _check(hand, c, i, flags, shown_hand, shown_last, rules)
    return generated(cls, hand, c, i, flags, rules)


cdef MoveList generated(type cls, u64 hand, u64 lc, u64 li, int flags, rules):
    cdef Py_ssize_t n = _generate(hand, lc, li, flags)
    return MoveList._wrap(cls, _scratch, n, rules)


def _moves_array(u64 hand, lc, li, int flags, rules, shown_hand, shown_last):
    """``_moves`` as a ``MOVE_DTYPE`` array of shape ``(n,)``."""
    cdef u64 c = 0, i = 0
    _last_words(lc, li, &c, &i, shown_last)
    _check(hand, c, i, flags, shown_hand, shown_last, rules)
    cdef Py_ssize_t n = _generate(hand, c, i, flags)
    return records_to_array(_scratch, n)


def _count(u64 hand, lc, li, int flags, rules, shown_hand, shown_last):
    """How many legal moves ``_moves`` would list (nothing is stored)."""
    cdef u64 c = 0, i = 0
    _last_words(lc, li, &c, &i, shown_last)
    _check(hand, c, i, flags, shown_hand, shown_last, rules)
    return generate(hand, c, i, flags, NULL, 0)


cdef MoveRec _EMPTY[1]
cdef tuple _NO_ARGS = ()

# -- move objects by their slots ---------------------------------------------------------
# The move class a list makes (``_move_type``: a class with the slots
# ``_cards``, ``_info`` and ``_rules``) is filled and read through the slots'
# offsets in the object (its member descriptors say where), without an
# attribute lookup: the Game loop makes one move and reads two a turn.
cdef extern from "structmember.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    int T_OBJECT_EX

cdef extern from "Python.h":
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member

cdef object _member_t = MemberDescriptorType
cdef type _laid = None              # the class the offsets are of
cdef Py_ssize_t _o_cards, _o_info, _o_rules


cdef Py_ssize_t _offset(type t, str name) except -1:
    d = getattr(t, name)
    if type(d) is not _member_t or (<PyMemberDescrObject*>d).d_member.type != T_OBJECT_EX:
        raise TypeError(f"{t.__name__}.{name} is not an object slot")
    return (<PyMemberDescrObject*>d).d_member.offset


cdef int _layout(type t) except -1:
    """Read the slots' offsets of the move class ``t``."""
    global _laid, _o_cards, _o_info, _o_rules
    _o_cards = _offset(t, "_cards")
    _o_info = _offset(t, "_info")
    _o_rules = _offset(t, "_rules")
    _laid = t
    return 0


cdef inline void _put(object m, Py_ssize_t off, object v) noexcept:
    """Store ``v`` in the empty slot at ``off`` of the new object ``m``."""
    Py_INCREF(v)
    (<PyObject**>((<char*><PyObject*>m) + off))[0] = <PyObject*>v


cdef object new_move(type t, u64 cards, u64 info, rules):
    """A new ``t`` (a ``_move_type``) holding the record and ``rules``, ``__init__`` not called."""
    if t is not _laid:
        _layout(t)
    m = (<PyTypeObject*>t).tp_new(t, <PyObject*>_NO_ARGS, NULL)
    _put(m, _o_cards, cards)
    _put(m, _o_info, info)
    _put(m, _o_rules, rules)
    return m


cdef int move_codes(object m, u64* cards, u64* info) except -1:
    """The record of a move object the engine made or checked (its
    ``_cards`` and ``_info``): through the slots for the class laid out
    last, by attribute otherwise.  A move from outside goes through
    ``checked_codes`` first."""
    cdef PyObject* c
    cdef PyObject* i
    if type(m) is _laid:
        c = (<PyObject**>((<char*><PyObject*>m) + _o_cards))[0]
        i = (<PyObject**>((<char*><PyObject*>m) + _o_info))[0]
        if c != NULL and i != NULL:
            cards[0] = <u64><object>c
            info[0] = <u64><object>i
            return 0
    cards[0] = m._cards
    info[0] = m._info
    return 0


cdef int checked_codes(object m, u64* cards, u64* info, object error) except -1:
    """``move_codes`` of a move from outside: raises ``error`` naming the move
    when its record is not two integers in 0 .. 2**64 - 1 (a move forged
    with ``object.__new__``); whether the record is a valid reading is the
    caller's to check."""
    if type(m) is _laid:
        if word((<PyObject**>((<char*><PyObject*>m) + _o_cards))[0], cards) \
                and word((<PyObject**>((<char*><PyObject*>m) + _o_info))[0], info):
            return 0
    c = getattr(m, "_cards", None)
    i = getattr(m, "_info", None)
    if index_word(c, cards, error) and index_word(i, info, error):
        return 0
    raise error(f"a {type(m).__name__} whose record ({c!r}, {i!r}) is not two card/info words "
                f"(ints in 0..2**64-1) is no move")


def _pair(cards, info, rules):
    """A move of the codes-only ``MoveList``: its (card word, info word)."""
    return (cards, info)


cdef class MoveList:
    """The legal moves of a position, in the kernel's deterministic order.

    Immutable and re-iterable: ``len``, ``bool``, ``in``, indexing and
    slicing, ``count()``.  ``codes`` is a read-only zero-copy ``MOVE_DTYPE``
    view (shape ``(n,)``: ``cards``, ``info`` uint64) of the records the list
    holds; items are made by the class's ``_move(cards, info, rules)`` only
    when iterated or indexed ((cards, info) pairs here; ``Move`` objects in
    ``ddzcore.moves.MoveList``).  ``MoveList(codes, flags, rules)`` copies a
    ``MOVE_DTYPE`` array, checking each record under the rule ``flags``;
    ``rules`` is what the moves carry.
    """

    _move = staticmethod(_pair)
    # A class whose items are instances of a type with the slots ``_cards``,
    # ``_info`` and ``_rules`` names it here: indexing then fills a new one
    # in C (no Python frame a move) instead of calling ``_move``.
    _move_type = None

    def __cinit__(self):
        self._recs = NULL
        self._n = 0

    def __init__(self, codes, int flags=0, rules=None):
        cdef Py_ssize_t i
        cdef MoveRec* recs
        if not isinstance(codes, np.ndarray) or codes.dtype != MOVE_DTYPE or codes.ndim != 1:
            raise InvalidArgumentError(f"codes must be a 1-d MOVE_DTYPE array, not {codes!r}")
        arr = np.ascontiguousarray(codes)
        recs = <MoveRec*>cnp.PyArray_DATA(<cnp.ndarray>arr)
        for i in range(arr.shape[0]):
            if recs[i].info != 0 and not valid_reading(recs[i].cards, recs[i].info, flags) \
                    or recs[i].info == 0 and recs[i].cards != 0:
                raise InvalidMoveError(f"codes[{i}] is not a valid move record under {rules!r}")
        free(self._recs)
        self._recs = NULL
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
    cdef MoveList _new(type cls, rules):
        """An empty ``cls`` (a subclass of this one) without calling ``__init__``."""
        cdef MoveList ml = <MoveList>(<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)
        ml.rules = rules
        return ml

    @staticmethod
    cdef MoveList _wrap(type cls, MoveRec* recs, Py_ssize_t n, rules):
        cdef MoveList ml = MoveList._new(cls, rules)
        ml._copy_from(recs, n)
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
        make = self._move
        t = type(self)._move_type
        for i in range(self._n):
            if t is None:
                yield make(self._recs[i].cards, self._recs[i].info, self.rules)
            else:
                yield new_move(t, self._recs[i].cards, self._recs[i].info, self.rules)

    def __getitem__(self, i):
        cdef Py_ssize_t k, start, stop, step, length
        cdef MoveList out
        if isinstance(i, slice):
            try:
                start, stop, step = i.indices(self._n)
            except Exception as e:  # bounds read through __index__, as as_index reads an index
                raise InvalidArgumentError(f"the bounds of {i!r} must be integers") from e
            length = len(range(start, stop, step))
            out = MoveList._new(type(self), self.rules)
            if length:
                out._recs = <MoveRec*>malloc(length * sizeof(MoveRec))
                if out._recs == NULL:
                    raise MemoryError()
                for k in range(length):
                    out._recs[k] = self._recs[start + k * step]
            out._n = length
            return out
        if type(i) is not int:
            i = as_index(i, "a move index")
        if not -self._n <= i < self._n:
            raise MoveIndexError(f"move index {i!r} out of range for {self._n} moves")
        k = i if i >= 0 else i + self._n
        t = type(self)._move_type
        if t is not None:
            return new_move(t, self._recs[k].cards, self._recs[k].info, self.rules)
        return self._move(self._recs[k].cards, self._recs[k].info, self.rules)

    def _has(self, u64 cards, u64 info):
        """Whether the list holds the record (cards, info)."""
        cdef Py_ssize_t i
        for i in range(self._n):
            if self._recs[i].cards == cards and self._recs[i].info == info:
                return True
        return False

    def __contains__(self, move):
        """Whether ``move``, a (cards, info) pair of ints, is in the list."""
        if not isinstance(move, tuple) or len(move) != 2:
            return False
        try:
            return self._has(move[0], move[1])
        except (TypeError, OverflowError):
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
