# cython: language_level=3, wraparound=False, cdivision=True
"""Native kernels of hand evaluation: dealing the hidden cards and playing out.

- ``_sample``: complete the hidden part of a deal, uniformly (docs/rules.md §1:
  every physical card is dealt once; a uniform shuffle of the unseen cards).
- ``_playouts`` / ``_move_values``: play positions to the end with a policy
  (``RANDOM``: uniform among the legal moves; ``RULE``: the native port of
  ``RuleBot``'s play, docs/rules.md §3), without the GIL.

The Python side is ``ddzcore.sampling`` and ``ddzcore.evaluate``, which
validate every argument; these functions trust theirs.
"""

from libc.string cimport memcpy
from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, uint64_t

from ddzcore.bits cimport *
from ddzcore._state cimport (State, Undo, PlayState, legal, push, is_over, Rng, rng_seed, rng_below, splitmix64,
                             state_set, MAX_MOVES)
from ddzcore._botplay cimport rule_play

cimport numpy as cnp
import numpy as np
from ddzcore._errors import InvalidArgumentError
from ddzcore._botplay import _rule_play

cnp.import_array()

cdef enum:
    P_RANDOM = 0
    P_RULE = 1

#: Policy codes of ``_playouts`` and ``_move_values``.
RANDOM = P_RANDOM
RULE = P_RULE


cdef inline uint64_t stream_seed(uint64_t seed, uint64_t i) noexcept nogil:
    """Seed of sample or playout i of a call: each has its own stream, so the
    result of i does not depend on how many came before."""
    cdef uint64_t x = seed ^ (i * 0x9FB21C651E98DF25ULL)
    return splitmix64(&x)


# ---------------------------------------------------------------- sampling

def _sample(u64 pool, const u64[::1] known, const int32_t[::1] need, Py_ssize_t n, uint64_t seed):
    """n completions: row i, column j = known[j] plus need[j] cards drawn from
    pool without replacement (a partial Fisher-Yates shuffle of the pool's
    physical cards, so every assignment of the cards is equally likely).
    Requires sum(need) == cards in pool.  Returns uint64 (n, len(known))."""
    cdef Py_ssize_t k = known.shape[0], i, j, t
    cdef unsigned char base[128]
    cdef unsigned char d[128]
    cdef int m = 0, r, c, left, pick
    cdef unsigned char tmp
    cdef Rng rng
    cdef u64 w
    out = np.empty((n, k), np.uint64)
    cdef u64[:, ::1] o = out
    for r in range(N_RANKS):
        for c in range(count_of(pool, r)):
            base[m] = r
            m += 1
    with nogil:
        for i in range(n):
            rng_seed(&rng, stream_seed(seed, <uint64_t>i))
            memcpy(d, base, m)
            left = m
            for j in range(k):
                w = known[j]
                for t in range(need[j]):
                    pick = rng_below(&rng, left)
                    left -= 1
                    tmp = d[pick]
                    d[pick] = d[left]
                    d[left] = tmp
                    w += unit(tmp)
                o[i, j] = w
    return out


# ---------------------------------------------------------------- policies

cdef inline int random_choice(const State* s, Rng* r, MoveRec* buf, Py_ssize_t n) noexcept nogil:
    return rng_below(r, <unsigned int>n)


cdef int play_out(State* s, Rng* r, int policy, MoveRec* buf) noexcept nogil:
    """Play s to the end with the policy; returns the winner's seat."""
    cdef Py_ssize_t n
    cdef int k
    cdef Undo u
    while not is_over(s):
        n = legal(s, buf, MAX_MOVES)
        if n > MAX_MOVES:              # cannot happen without wild cards (at most 521 moves)
            n = MAX_MOVES
        k = random_choice(s, r, buf, n) if policy == P_RANDOM else <int>rule_play(s, buf, n)
        push(s, buf[k].cards, buf[k].info, &u)
    return s.owner


cdef inline void set_hands(State* s, const u64[:, ::1] hands, Py_ssize_t i) noexcept nogil:
    s.hand[0] = hands[i, 0]
    s.hand[1] = hands[i, 1]
    s.hand[2] = hands[i, 2]


def _playouts(PlayState ps, const u64[:, ::1] hands, int policy, uint64_t seed):
    """Winner of a playout from ps with row i's hands, for each row (int8 (n,))."""
    cdef State start = ps.st, s
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef Rng r
    cdef MoveRec buf[MAX_MOVES]
    winners = np.empty(n, np.int8)
    cdef int8_t[::1] w = winners
    with nogil:
        for i in range(n):
            s = start
            set_hands(&s, hands, i)
            rng_seed(&r, stream_seed(seed, <uint64_t>i))
            w[i] = play_out(&s, &r, policy, buf)
    return winners


def _move_values(PlayState ps, const u64[:, ::1] hands, const u64[::1] cards, const u64[::1] info,
                 int policy, uint64_t seed):
    """wins[j, i]: 1 when the side of the seat to move in ps wins after
    playing move j (cards[j], info[j], legal in every row) in the world of
    row i and playing on with the policy.  Every move uses world i's random
    stream (common random numbers).  uint8 (len(cards), n)."""
    cdef State start = ps.st, s
    cdef Py_ssize_t i, j, n = hands.shape[0], m = cards.shape[0]
    cdef Rng r
    cdef MoveRec buf[MAX_MOVES]
    cdef Undo u
    cdef int me = ps.st.turn, ll = ps.st.landlord, win
    wins = np.empty((m, n), np.uint8)
    cdef uint8_t[:, ::1] w = wins
    with nogil:
        for j in range(m):
            for i in range(n):
                s = start
                set_hands(&s, hands, i)
                push(&s, cards[j], info[j], &u)
                rng_seed(&r, stream_seed(seed, <uint64_t>i))
                win = play_out(&s, &r, policy, buf)
                w[j, i] = (win == ll) == (me == ll)
    return wins


_rule_choice = _rule_play  # the index (kernel order) of the rule policy's move in a PlayState


def _greedy_plays(u64 hand, int flags):
    """Plays a hand needs to empty itself alone (rule flags ``flags``),
    leading the native rule policy's choice every time: an upper bound on
    the fewest plays, the others never answering."""
    cdef State s
    cdef MoveRec buf[MAX_MOVES]
    cdef Py_ssize_t n
    cdef int k, plays = 0
    cdef u64 alone[3]
    alone[0] = hand
    alone[1] = alone[2] = 0
    state_set(&s, alone, 3, 0, 0, flags, 0, -1, 0, -1, 0, 0, 0)
    while s.hand[0]:
        s.turn = 0
        s.last_cards = s.last_info = 0
        s.owner = -1
        n = legal(&s, buf, MAX_MOVES)
        k = <int>rule_play(&s, buf, n if n < MAX_MOVES else MAX_MOVES)
        s.hand[0] -= buf[k].cards
        plays += 1
    return plays
