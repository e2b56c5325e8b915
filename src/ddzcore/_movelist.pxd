# cython: language_level=3
"""C-level interface of ``MoveList``, for compiled modules that build one
from kernel records without a Python round trip::

    from ddzcore._movelist cimport MoveList
    ml = MoveList._wrap(recs, n, rules)     # copies recs[0:n]; rules: the moves' Rules
"""

from ddzcore.bits cimport MoveRec


cdef class MoveList:
    cdef MoveRec* _recs
    cdef Py_ssize_t _n
    cdef readonly object rules
    cdef int _copy_from(self, MoveRec* recs, Py_ssize_t n) except -1
    # A new MoveList holding a copy of recs[0:n], whose moves carry `rules`.
    @staticmethod
    cdef MoveList _wrap(MoveRec* recs, Py_ssize_t n, rules)
