# cython: language_level=3
"""The native search state from Cython: count the leaves of the play tree
(perft) in C, with no Python object per move (docs/rules.md §2-3).  Built
and run by native_state.py."""

from ddzcore.bits cimport MoveRec
from ddzcore._state cimport State, Undo, PlayState, legal, push, pop, is_over, MAX_MOVES


cdef long long count(State* s, int depth) noexcept nogil:
    cdef MoveRec buf[MAX_MOVES]
    cdef Undo u
    cdef Py_ssize_t i, n
    cdef long long t = 0
    if depth == 0:
        return 1
    if is_over(s):
        return 0
    n = legal(s, buf, MAX_MOVES)
    for i in range(n):
        push(s, buf[i].cards, buf[i].info, &u)
        t += count(s, depth - 1)
        pop(s, &u)
    return t


def perft(PlayState ps, int depth):
    """Leaves of the play tree ``depth`` plies below ``ps`` (the wrapper is not changed)."""
    cdef State s = ps.st
    return count(&s, depth)
