# cython: language_level=3, wraparound=False, cdivision=True
"""The legal moves of one position as kernel records: the compiled half of ``MoveList``.

Moves cross this module as integer codes only: ``_legal_moves``,
``_legal_moves_array`` and ``_count_moves`` (the work of the public
``legal_moves``, ``legal_moves_array`` and ``count_moves``) read a position
of the public classes bound by ``_bind`` through their slots (any other
argument through the bound Python parser) and return a ``MoveList``, which
holds the kernel's move records (``MoveRec``: card word + info word) in its
own buffer (``codes`` is a zero-copy NumPy view), a ``MOVE_DTYPE`` array, or
a count.  The class here knows no ``Move``: its items are made by
``_move(cards, info, rules)``, a (cards, info) pair here, a ``Move`` in
``ddzcore.moves.MoveList``, the public subclass.  docs/rules.md §2-3.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memcmp
from cpython.buffer cimport PyBUF_WRITABLE
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.number cimport PyNumber_Index

cimport numpy as cnp

from ddzcore.bits cimport u64, MoveRec, F_TWO_DECKS
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


cdef MoveList generated(type cls, u64 hand, u64 lc, u64 li, int flags, rules):
    cdef Py_ssize_t n = _generate(hand, lc, li, flags)
    return MoveList._wrap(cls, _scratch, n, rules)


# -- one position: legal_moves, legal_moves_array, count_moves ---------------------------
# The three public calls (ddzcore.generate) come here with their arguments as
# given.  A position of the public classes whose fields hold what their
# constructors store (exact ints in range) is read through the slots' offsets
# and checked once (_check); anything else (text, card words, a Move subclass,
# a preset name, an object forged around the checks) goes through the bound
# Python parser (``_position``), which raises the typed error naming the bad
# input or field.  Either way the kernel generates once, into the scratch
# buffer, and the result is made from the records: a MoveList, a MOVE_DTYPE
# array (one memcpy) or a count (nothing stored).

cdef enum:
    AS_LIST = 0
    AS_ARRAY = 1
    AS_COUNT = 2

cdef type _hand_t = None     # ddzcore.cards.Hand (slots _word, _decks)
cdef type _last_t = None     # ddzcore.moves.Move (slots _cards, _info)
cdef type _rules_t = None    # ddzcore.rules.Rules (attribute _flags)
cdef type _list_t = None     # ddzcore.moves.MoveList
cdef object _standard = None  # the Rules of rules=None
cdef object _position = None  # (hand, last, rules) -> (hand word, last cards, last info, flags, Rules), checked
cdef Py_ssize_t _o_word, _o_decks, _o_lcards, _o_linfo


def _bind(type hand_t, type last_t, type rules_t, type list_t, standard, position):
    """Name the public classes the one-position fast path reads (``Hand``,
    ``Move``, ``Rules``, the ``MoveList`` it returns), the default rules and
    the Python parser of every other argument (``ddzcore.generate._position``)."""
    global _hand_t, _last_t, _rules_t, _list_t, _standard, _position, _o_word, _o_decks, _o_lcards, _o_linfo
    _o_word, _o_decks = _offset(hand_t, "_word"), _offset(hand_t, "_decks")
    _o_lcards, _o_linfo = _offset(last_t, "_cards"), _offset(last_t, "_info")
    _hand_t, _last_t, _rules_t, _list_t, _standard, _position = hand_t, last_t, rules_t, list_t, standard, position


cdef inline PyObject* _slot(object o, Py_ssize_t off) noexcept:
    """The object in the slot at ``off`` of ``o`` (borrowed; NULL when unset)."""
    return (<PyObject**>((<char*><PyObject*>o) + off))[0]


cdef inline bint _fast_last(last, u64* c, u64* i) except -1:
    """Whether ``last`` is a ``Move`` (not a subclass) holding a record that
    is no pass, its words then in ``c``, ``i`` (whether they read validly is
    ``_check``'s).  Words of another integer type (a NumPy integer,
    ``__index__``) are read as ``_last_words`` reads them; a non-integer
    raises ``InvalidMoveError`` there."""
    if type(last) is not _last_t:
        return False
    cdef PyObject* lc = _slot(last, _o_lcards)
    cdef PyObject* li = _slot(last, _o_linfo)
    if lc == NULL or li == NULL:
        return False
    if not (word(lc, c) and word(li, i)):
        # Owned references: a word's __index__ may replace the other slot
        # (and free the object the borrowed pointer shows).
        cards_obj, info_obj = <object>lc, <object>li
        _last_words(cards_obj, info_obj, c, i, last)
    return i[0] != 0


cdef object _legal(int kind, hand, last, rules):
    cdef u64 h = 0, d = 0, c = 0, i = 0, f = 0
    cdef int flags
    cdef Py_ssize_t n
    if rules is None:
        rules = _standard
    rule_flags = getattr(rules, "_flags", None) if type(rules) is _rules_t else None
    # The fast path: Rules whose flag word is an int; a Hand (not a subclass)
    # whose card word is an int below 2**60 and deck count an int 1 .. the
    # rules' decks: word() takes exact ints only, so a field of another type,
    # even of a valid value, is the parser's to refuse, naming it; a free
    # lead or a Move record (_fast_last).
    if type(hand) is _hand_t and word(<PyObject*>rule_flags, &f) and f >> 31 == 0 \
            and word(_slot(hand, _o_word), &h) and h >> 60 == 0 \
            and word(_slot(hand, _o_decks), &d) and 1 <= d <= (2 if f & F_TWO_DECKS else 1) \
            and (last is None or _fast_last(last, &c, &i)):
        flags = <int>f
    else:
        h_, lc, li, flags_, rules = _position(hand, last, rules)
        h = h_
        flags = flags_
        _last_words(lc, li, &c, &i, last)
    _check(h, c, i, flags, hand, last, rules)
    if kind == AS_LIST:
        return generated(_list_t, h, c, i, flags, rules)
    if kind == AS_ARRAY:
        n = _generate(h, c, i, flags)  # may move _scratch: read it after
        return records_to_array(_scratch, n)
    return generate(h, c, i, flags, NULL, 0)


def _legal_moves(hand, last, rules):
    """``ddzcore.generate.legal_moves``'s work: the legal moves as a ``MoveList``."""
    return _legal(AS_LIST, hand, last, rules)


def _legal_moves_array(hand, last, rules):
    """``ddzcore.generate.legal_moves_array``'s work: a ``MOVE_DTYPE`` array of shape ``(n,)``."""
    return _legal(AS_ARRAY, hand, last, rules)


def _count_moves(hand, last, rules):
    """``ddzcore.generate.count_moves``'s work: how many legal moves (nothing stored)."""
    return _legal(AS_COUNT, hand, last, rules)


cdef extern from "Python.h":
    int PySlice_Unpack(object s, Py_ssize_t* start, Py_ssize_t* stop, Py_ssize_t* step) except -1
    Py_ssize_t PySlice_AdjustIndices(Py_ssize_t length, Py_ssize_t* start, Py_ssize_t* stop,
                                     Py_ssize_t step) noexcept


cdef object _bound(object b, object s):
    """A slice bound as an ``int`` (``None`` stays): through ``__index__``
    as a list reads it (a ``bool`` included), else ``InvalidArgumentError``
    naming the slice, chained from what ``__index__`` raised."""
    if b is None or type(b) is int:
        return b
    try:
        return PyNumber_Index(b)
    except Exception as e:
        raise InvalidArgumentError(f"the bounds of {s!r} must be integers or None") from e


cdef Py_ssize_t _slice_of(slice s, Py_ssize_t n, Py_ssize_t* start, Py_ssize_t* step) except -1:
    """The items ``s`` takes of ``n``: its length, and its first index and
    step in ``start``, ``step``, exactly as a list slices (bounds past the
    ends and steps beyond ``sys.maxsize`` clipped).  A zero step raises
    ``InvalidArgumentError("slice step cannot be zero")``, a ``ValueError``
    with the list's message (checked first, as a list does); a bound that
    is no integer ``InvalidArgumentError`` (``_bound``)."""
    cdef Py_ssize_t stop
    st = _bound(s.step, s)
    if st == 0:
        raise InvalidArgumentError("slice step cannot be zero")
    PySlice_Unpack(slice(_bound(s.start, s), _bound(s.stop, s), st), start, &stop, step)
    return PySlice_AdjustIndices(n, start, &stop, step[0])


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
        cdef Py_ssize_t k, start, step, length
        cdef MoveList out
        if isinstance(i, slice):
            length = _slice_of(i, self._n, &start, &step)
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
