# cython: language_level=3
"""C-level interface of ``MoveList``, for compiled modules that build one
from kernel records without a Python round trip::

    from ddzcore._movelist cimport MoveList
    ml = MoveList._wrap(cls, recs, n, rules)   # copies recs[0:n] into a new cls (MoveList or a subclass)
    ml = generated(cls, hand, lc, li, flags, rules)  # the legal moves of a position, unchecked

``rules`` is carried for the subclass that turns records into moves; this
module never looks inside it.
"""

from ddzcore.bits cimport MoveRec, u64


cdef class MoveList:
    cdef MoveRec* _recs
    cdef Py_ssize_t _n
    cdef readonly object rules
    cdef int _copy_from(self, MoveRec* recs, Py_ssize_t n) except -1
    # An empty cls (MoveList or a subclass) whose moves carry `rules`, __init__ not called.
    @staticmethod
    cdef MoveList _new(type cls, rules)
    # A new cls holding a copy of recs[0:n], whose moves carry `rules`.
    @staticmethod
    cdef MoveList _wrap(type cls, MoveRec* recs, Py_ssize_t n, rules)


# The legal moves of (hand, move to beat lc/li) under the rule flags, as a new
# cls whose moves carry `rules`; the position is not checked (see _check).
cdef MoveList generated(type cls, u64 hand, u64 lc, u64 li, int flags, rules)


# Move objects of a MoveList subclass's ``_move_type`` (a class with the
# object slots _cards, _info and _rules), made and read through the slots:
# a new t holding (cards, info) and rules; and a move's record (any object
# with _cards and _info: by attribute when not of the class laid out last).
cdef object new_move(type t, u64 cards, u64 info, rules)
cdef int move_codes(object m, u64* cards, u64* info) except -1
# move_codes of a move from outside: raises `error` when its _cards/_info are
# not two integers in 0..2**64-1 (a Move forged with object.__new__).
cdef int checked_codes(object m, u64* cards, u64* info, object error) except -1
