# cython: language_level=3
"""The rule bot's decisions in C, for other Cython modules (docs/rules.md §3-5):

    from ddzcore._botplay cimport rule_play, strength

Both are nogil and never raise; they choose exactly as ``ddzcore.bots.RuleBot``.
"""

from ddzcore.bits cimport u64, MoveRec
from ddzcore._state cimport State

# RuleBot's hand score (bidding, showing, doubling) of card word `word`;
# wild: the laizi wild rank index, -1 without wild cards.
cdef double strength(u64 word, int wild) noexcept nogil

# RuleBot's play (three players) for the seat to move of *s: the index of
# its move among moves[0:n], the legal moves of *s in the kernel's order.
cdef Py_ssize_t rule_play(const State* s, const MoveRec* moves, Py_ssize_t n) noexcept nogil
