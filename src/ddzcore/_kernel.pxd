# cython: language_level=3
"""C-level interface of the move generator, for other Cython modules:

    from ddzcore._kernel cimport generate, classify, beats, bomb_power
    from ddzcore.bits cimport MoveRec, u64

All functions never raise and all but crew_take are nogil.  docs/rules.md §2-3, §8.
"""

from ddzcore.bits cimport u64, MoveRec

# All legal moves of `hand` into out[0:cap]; returns the count (which may
# exceed cap: grow the buffer and call again; cap 0 only counts).  A last
# move whose info has combo C_PASS (0) means a free lead.
cdef Py_ssize_t generate(u64 hand, u64 last_cards, u64 last_info, int flags,
                         MoveRec* out, Py_ssize_t cap) noexcept nogil

# Every reading of exactly `cards` into out; returns the count.
cdef Py_ssize_t classify(u64 cards, int flags, MoveRec* out, Py_ssize_t cap) noexcept nogil

# Whether (cards, info) beats (last_cards, last_info).
cdef bint beats(u64 cards, u64 info, u64 last_cards, u64 last_info, int flags) noexcept nogil

# 16 * tier + rank for bombs (see _kernel.pyx), -1 for any other move.
cdef int bomb_power(u64 cards, u64 info, int flags) noexcept nogil

# Rank counts within the deck(s) of `flags`.
cdef bint valid_hand(u64 hand, int flags) noexcept nogil

# Whether the deck(s) hold `hand` and the move to beat's cards together.
cdef bint fits_deck(u64 hand, u64 last_cards, int flags) noexcept nogil

# Whether (cards, info) is a valid reading of those cards (or the pass record).
cdef bint valid_reading(u64 cards, u64 info, int flags) noexcept nogil

# A new MOVE_DTYPE NumPy array holding a copy of recs[0:n] (needs the GIL).
cdef object records_to_array(MoveRec* recs, Py_ssize_t n)

# A NumPy array of dtype descr over data[0:n] (records of itemsize bytes), a
# malloc'd block it then owns: shrunk in place, no copy (needs the GIL).
cdef object adopt_block(object descr, void* data, Py_ssize_t n, Py_ssize_t itemsize)

# How DouZero's move_detector reads a card set: a reading (combo, main,
# length), combo 0x1F when it finds no type (outside docs/rules.md: DouZero's rules).
cdef u64 dz_read(u64 cards) noexcept nogil

# The crew: helper threads kept between calls (see _kernel.pyx, "the crew").
# A job of `threads` shares runs work(job, t) for t = 0..threads-1.
ctypedef void (*crew_work)(void* job, int t) noexcept nogil

# Take the crew for a job of `threads` shares (GIL held): returns the
# threads granted, 1 when it runs alone (one share asked, the crew busy
# with another Python thread's call, or no thread could start).
cdef int crew_take(int threads) noexcept

# Run the shares, 1..granted-1 on the mates and the others on this thread
# in order, wait for them all, and free the crew (granted from crew_take).
cdef void crew_run(crew_work work, void* job, int threads, int granted) noexcept nogil
