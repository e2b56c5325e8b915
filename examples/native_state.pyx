# cython: language_level=3
"""The native search state from Cython: a whole play-phase game in C, with
no Python object per move (docs/rules.md §2-3).  Each player plays the
last move of its legal list (a lead: the longest chain or plane the
generator lists last; a follow: its highest answer, never pass when it
can beat).  Built and run by native_state.py."""

from ddzcore.bits cimport MoveRec
from ddzcore._state cimport State, Undo, PlayState, legal, push, is_over, winner, MAX_MOVES


def last_move_game(PlayState ps):
    """Play ``ps`` (a copy: the wrapper is not changed) to the end; returns
    ``(plies, winner)``."""
    cdef State s = ps.st             # the wrapper's struct, by value
    cdef MoveRec buf[MAX_MOVES]
    cdef Undo u
    cdef Py_ssize_t n
    cdef int plies = 0
    with nogil:
        while not is_over(&s):
            n = legal(&s, buf, MAX_MOVES)
            push(&s, buf[n - 1].cards, buf[n - 1].info, &u)
            plies += 1
    return plies, winner(&s)
