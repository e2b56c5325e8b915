# cython: language_level=3, wraparound=False, cdivision=True
"""ddzcore's move-generation kernel: integers in, integers out.

Implements docs/rules.md §2 (one deck), the wild cards of section 7
(laizi) and the combinations of section 8 (two decks) over the card words
of ``bits.pxd``.  Every reading of a card set
is its own move; the generator writes ``MoveRec`` records into a caller-owned
buffer and returns how many moves there are (it keeps counting past the
buffer's capacity, so a caller can grow the buffer and ask again; a capacity
of 0 only counts).  Nothing here allocates or touches Python objects except
the ``def`` wrappers at the bottom.
"""

from libc.stdlib cimport malloc, calloc, realloc, free
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                              PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK, NOWAIT_LOCK, PyLockStatus,
                              PyThread_start_new_thread)

cdef extern from "pythread.h":
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock, long long microseconds, int intr_flag) nogil
from libc.string cimport memcpy, memset
from libc.stdint cimport int64_t

from ddzcore.bits cimport *
from ddzcore.atomic cimport ddz_load, ddz_store, ddz_add, ddz_cas, ddz_pause, ddz_yield, ddz_sleep_while, ddz_wake


cimport numpy as cnp

import numpy as np

cnp.import_array()

cdef extern from *:
    """
    /* An uninitialised 1-d array of n records of dtype descr (borrowed). */
    static PyObject* ddz_new_records(PyObject* descr, npy_intp n) {
        Py_INCREF(descr);  /* PyArray_NewFromDescr steals a reference */
        return PyArray_NewFromDescr(&PyArray_Type, (PyArray_Descr*)descr, 1, &n, NULL, NULL, 0, NULL);
    }
    """
    object ddz_new_records(object descr, cnp.npy_intp n)

cdef extern from *:
    """
    static void ddz_free_block(PyObject* capsule) {
        free(PyCapsule_GetPointer(capsule, "ddzcore.block"));
    }
    /* A 1-d array of n records of dtype descr (borrowed) over data, a block
       from malloc that the array then owns (freed with it); data is freed
       on failure too.  n > 0. */
    static PyObject* ddz_adopt_block(PyObject* descr, npy_intp n, void* data) {
        PyObject *arr, *capsule = PyCapsule_New(data, "ddzcore.block", ddz_free_block);
        if (capsule == NULL) { free(data); return NULL; }
        Py_INCREF(descr);  /* PyArray_NewFromDescr steals a reference */
        arr = PyArray_NewFromDescr(&PyArray_Type, (PyArray_Descr*)descr, 1, &n, NULL, data,
                                   NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE, NULL);
        if (arr == NULL) { Py_DECREF(capsule); return NULL; }
        if (PyArray_SetBaseObject((PyArrayObject*)arr, capsule) < 0) { Py_DECREF(arr); return NULL; }
        return arr;
    }
    """
    object ddz_adopt_block(object descr, cnp.npy_intp n, void* data)

cdef extern from *:
    """
    #if defined(_MSC_VER)
    static __inline int ddz_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int ddz_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    # Index of the lowest set bit of a non-zero x.
    int ddz_ctz64(u64 x) noexcept nogil


from ddzcore._errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError

#: NumPy dtype of a move record: the card word and the reading (info word).
MOVE_DTYPE = np.dtype([("cards", "<u8"), ("info", "<u8")])
cdef cnp.dtype _MOVE_DESCR = MOVE_DTYPE


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ddz_clz_u(unsigned int x) { unsigned long i; _BitScanReverse(&i, x); return 31 - (int)i; }
    #else
    static inline int ddz_clz_u(unsigned int x) { return __builtin_clz(x); }
    #endif
    """
    # Leading zero bits of a non-zero x.
    int __builtin_clz_u "ddz_clz_u" (unsigned int x) noexcept nogil


cdef struct Gen:
    MoveRec* out
    Py_ssize_t n            # moves found (may exceed cap)
    Py_ssize_t cap          # records the buffer holds
    int size                # classify mode: the card count every move must have (0: any)
    int flags
    unsigned int banned     # banned combinations (禁手), a mask over Combo values
    u64 hand
    # Rank masks of the cards main parts are built from (the hand; laizi: its naturals).
    unsigned int at_least[9]  # at_least[k]: bit r set when there are >= k cards of rank r
    unsigned int twice      # ranks that may give two (or more) single kickers
    int most                # the most single kickers a (non-joker) rank may give
    # The kicker pool: cards kickers may come from (laizi: naturals + free wilds at face value).
    u64 pool
    unsigned int pool1, pool2, pool_twice
    u64 lanes1, lanes2, lanes_twice   # pool1, pool2, pool_twice as lanes() words (the hot loops walk these)
    bint lanes_ok           # the lanes words are up to date (made when first needed: need_lanes)
    # Laizi (docs/rules.md §7).
    int wild                # the wild rank, -1 without laizi
    int nw                  # wild cards in the hand
    u64 naturals            # the hand without its wild cards


cdef inline void emit(Gen* g, u64 cards, u64 info) noexcept nogil:
    """Store one move (while the buffer has room) and count it.  Banned
    combinations (禁手) are never generated: each generator checks its
    combination once (banned), not each move here."""
    if g.n < g.cap:
        g.out[g.n].cards = cards
        g.out[g.n].info = info
    g.n += 1


cdef inline bint banned(Gen* g, int combo) noexcept nogil:
    """Whether the rules ban `combo` (禁手, docs/rules.md §9)."""
    return (g.banned >> combo) & 1


# The hot loops write through a local pointer with one room check per group
# of moves (ROOM records at most: 15 sets, a chain's lengths, or one main
# part's 1-2 kickers, at most 15 + 105), not one per move; without room
# they go through emit (which counts past the capacity).
cdef enum:
    ROOM = 128


cdef inline bint room(Gen* g) noexcept nogil:
    return g.cap - g.n >= ROOM


cdef inline MoveRec* put(Gen* g, MoveRec* p, u64 cards, u64 info, bint fast) noexcept nogil:
    """Write one move at p (fast: room was checked) or through emit; the next slot."""
    if fast:
        p.cards = cards
        p.info = info
        return p + 1
    emit(g, cards, info)
    return p


cdef inline MoveRec* slot(Gen* g, bint fast) noexcept nogil:
    return g.out + g.n if fast else NULL


cdef inline void done(Gen* g, MoveRec* p, bint fast) noexcept nogil:
    if fast:
        g.n = p - g.out


cdef MoveRec SET_RECS[48]   # SET_RECS[16 * (k - 1) + r]: the set of k cards of rank r (single, pair, trio)
cdef u64 SPREAD[256]    # SPREAD[b]: bit i of b moved to bit 4i (a rank mask byte to card-word lanes)


cdef inline u64 lanes(unsigned int ranks) noexcept nogil:
    """A rank mask as a card word with one card of each rank: lanes(0b101) == 0x101."""
    return SPREAD[ranks & 0xFF] | (SPREAD[(ranks >> 8) & 0xFF] << 32)


cdef inline int top_trio(u64 w) noexcept nogil:
    """The highest rank index held exactly three times in w, -1 if none.
    top_trio(0x3033) == 3 (333444 + 666: the 6s)."""
    cdef int r, top = -1
    for r in range(N_RANKS):
        if count_of(w, r) == 3:
            top = r
    return top


cdef inline bint size_ok(Gen* g, int n) noexcept nogil:
    return g.size == 0 or g.size == n


cdef inline unsigned int from_rank(unsigned int mask, int lo) noexcept nogil:
    """The bits of mask at rank lo and above."""
    return mask & ~((1u << lo) - 1u)


cdef inline unsigned int rank_span(int lo, int hi) noexcept nogil:
    """Bits lo..hi set.  rank_span(2, 3) == 0b1100."""
    return ((1u << (hi + 1)) - 1u) & ~((1u << lo) - 1u)


# AT_LEAST_LO[b] / AT_LEAST_HI[b]: for the byte b of a card word (two ranks,
# counts c0 = b & 15 and c1 = b >> 4), bit 16*(k-1) + j is set when cj >= k,
# for k = 1..4 (LO) and k = 5..8 (HI).  setup() ORs them in, shifted by 2 per
# byte, so each 16-bit field becomes one at_least mask.
cdef u64 AT_LEAST_LO[256]
cdef u64 AT_LEAST_HI[256]


cdef void _fill_tables() noexcept:
    cdef int b, j, k, c
    for b in range(256):
        SPREAD[b] = 0
        for j in range(8):
            if (b >> j) & 1:
                SPREAD[b] |= (<u64>1) << (4 * j)
        AT_LEAST_LO[b] = 0
        AT_LEAST_HI[b] = 0
        for j in range(2):
            c = (b >> (4 * j)) & 15
            for k in range(1, 9):
                if c >= k:
                    if k <= 4:
                        AT_LEAST_LO[b] |= (<u64>1) << (16 * (k - 1) + j)
                    else:
                        AT_LEAST_HI[b] |= (<u64>1) << (16 * (k - 5) + j)
    for k in range(1, 4):
        for j in range(N_RANKS):
            SET_RECS[16 * (k - 1) + j].cards = <u64>k << (4 * j)
            SET_RECS[16 * (k - 1) + j].info = make_info(C_SINGLE + k - 1, j, 1)


_fill_tables()


cdef void setup(Gen* g, u64 hand, int flags, MoveRec* out, Py_ssize_t cap) noexcept nogil:
    cdef int i, k
    cdef u64 lo = 0, hi = 0, w
    g.out = out
    g.n = 0
    g.cap = cap
    g.size = 0
    g.flags = flags
    g.banned = banned_mask(flags)
    g.hand = hand
    g.wild = ((flags >> 8) & 0xF) - 1
    g.nw = count_of(hand, g.wild) if g.wild >= 0 else 0
    g.naturals = hand - <u64>g.nw * unit(g.wild) if g.nw else hand
    w = g.naturals
    for i in range(8):
        lo |= AT_LEAST_LO[(w >> (8 * i)) & 0xFF] << (2 * i)
    g.at_least[0] = 0x7FFF
    for k in range(4):
        g.at_least[k + 1] = (lo >> (16 * k)) & 0x7FFF
    if flags & F_TWO_DECKS:
        for i in range(8):
            hi |= AT_LEAST_HI[(w >> (8 * i)) & 0xFF] << (2 * i)
    for k in range(4):
        g.at_least[k + 5] = (hi >> (16 * k)) & 0x7FFF
    # docs/rules.md §2: kickers never hold all four cards of a rank (two decks: never
    # four or more); jokers count as singles, never a kicker pair.
    g.most = (8 if flags & F_KICKER_BOMB else 4 if flags & F_WING_BOMB else 3) if flags & F_KICKER_REPEAT else 1
    g.twice = 0
    if flags & F_KICKER_REPEAT:
        g.twice = g.at_least[2] & (0x7FFF if flags & F_JOKERS_BOTH else 0x1FFF)
    g.pool = g.naturals
    g.pool1 = g.at_least[1]
    g.pool2 = g.at_least[2] & 0x1FFF
    g.pool_twice = g.twice
    g.lanes_ok = False


cdef inline void need_lanes(Gen* g) noexcept nogil:
    """Make the pool's lanes words (once per pool: most follows never need them)."""
    if not g.lanes_ok:
        g.lanes1, g.lanes2, g.lanes_twice = lanes(g.pool1), lanes(g.pool2), lanes(g.pool_twice)
        g.lanes_ok = True


cdef inline void set_pool(Gen* g, int left, unsigned int main_ranks) noexcept nogil:
    """Laizi: kickers come from the naturals plus `left` free wild cards at
    face value (none when the wild rank is a main rank: docs/rules.md §2, §7)."""
    cdef unsigned int bit = 1u << g.wild
    if main_ranks & bit:
        left = 0
    g.pool = g.naturals + <u64>left * unit(g.wild)
    g.pool1 = g.at_least[1] | (bit if left >= 1 else 0)
    g.pool2 = (g.at_least[2] & 0x1FFF) | (bit if left >= 2 else 0)
    g.pool_twice = g.twice | (bit if left >= 2 and (g.flags & F_KICKER_REPEAT) else 0)
    g.lanes_ok = False


cdef inline int kicker_cap(Gen* g, int r) noexcept nogil:
    """How many single kickers rank r may give."""
    cdef int k = count_of(g.pool, r), most = g.most
    if r >= R_SMALL and not ((g.flags & F_KICKER_REPEAT) and (g.flags & F_JOKERS_BOTH)):
        most = 1
    return k if k < most else most


# ---------------------------------------------------------------- kickers

cdef inline void singles1(Gen* g, u64 w, u64 info, u64 ranks, bint fast) noexcept nogil:
    """w plus one single kicker of each rank in `ranks` (a lanes() word)."""
    cdef MoveRec* p = slot(g, fast)
    cdef u64 low
    while ranks:
        low = ranks & (0 - ranks)
        ranks ^= low
        p = put(g, p, w + low, info, fast)
    done(g, p, fast)


cdef inline void singles2(Gen* g, u64 w, u64 info, u64 ranks, u64 twice, bint joker_pair,
                          bint fast) noexcept nogil:
    """w plus two single kickers from `ranks` (lanes() words): two of a rank
    in `twice`, or of two ranks (the jokers together only if joker_pair)."""
    cdef MoveRec* p = slot(g, fast)
    cdef u64 one[N_RANKS]   # the ranks' one-card words, ascending: the inner loop reads them
    cdef u64 low, w1
    cdef int n = 0, i, j, end
    while ranks:
        low = ranks & (0 - ranks)
        ranks ^= low
        one[n] = low
        n += 1
    for i in range(n):
        low = one[i]
        w1 = w + low
        end = n
        if not joker_pair and low == unit(R_SMALL) and one[n - 1] == unit(R_BIG):
            end = n - 1     # the big joker is the last rank
        if fast and i + 1 < end:
            # Two of the rank when it is in `twice`, without a branch (which
            # would go either way, rank after rank): always written, kept
            # by moving p on, else overwritten by the first move below.
            p.cards = w1 + low
            p.info = info
            p += (low & twice) != 0
        elif low & twice:
            p = put(g, p, w1 + low, info, fast)
        for j in range(i + 1, end):
            p = put(g, p, w1 + one[j], info, fast)
    done(g, p, fast)


cdef inline void pairs12(Gen* g, u64 w, u64 info, int need, u64 ranks, bint fast) noexcept nogil:
    """w plus `need` (1 or 2) kicker pairs of distinct ranks in `ranks` (a lanes() word)."""
    cdef MoveRec* p = slot(g, fast)
    cdef u64 low, low2, rest, w1
    while ranks:
        low = ranks & (0 - ranks)
        ranks ^= low
        w1 = w + 2 * low
        if need == 1:
            p = put(g, p, w1, info, fast)
            continue
        rest = ranks
        while rest:
            low2 = rest & (0 - rest)
            rest ^= low2
            p = put(g, p, w1 + 2 * low2, info, fast)
    done(g, p, fast)


cdef inline int lanes_count(u64 ranks) noexcept nogil:
    """How many ranks a lanes() word holds."""
    return card_total(ranks)


# Past the buffer's capacity the moves are only counted: the kicker loops
# below then add their number in closed form instead of walking them.

cdef inline void kick12(Gen* g, u64 w, u64 info, int need, u64 ranks, bint joker_pair) noexcept nogil:
    """w plus 1 or 2 (`need`) single kickers from `ranks` (a lanes() word; need_lanes done)."""
    cdef Py_ssize_t n
    if room(g):
        if need == 1:
            singles1(g, w, info, ranks, True)
        else:
            singles2(g, w, info, ranks, g.lanes_twice, joker_pair, True)
    elif g.n >= g.cap:
        n = lanes_count(ranks)
        if need == 2:
            n = lanes_count(ranks & g.lanes_twice) + n * (n - 1) // 2
            if not joker_pair and (ranks >> (4 * R_SMALL)) == 0x11:
                n -= 1
        g.n += n
    elif need == 1:
        singles1(g, w, info, ranks, False)
    else:
        singles2(g, w, info, ranks, g.lanes_twice, joker_pair, False)


cdef inline void pair12(Gen* g, u64 w, u64 info, int need, u64 ranks) noexcept nogil:
    """w plus 1 or 2 (`need`) kicker pairs of distinct ranks in `ranks` (a lanes() word)."""
    cdef Py_ssize_t n
    if room(g):
        pairs12(g, w, info, need, ranks, True)
    elif g.n >= g.cap:
        n = lanes_count(ranks)
        g.n += n if need == 1 else n * (n - 1) // 2
    else:
        pairs12(g, w, info, need, ranks, False)


cdef void kick_singles(Gen* g, u64 w, u64 info, int need, unsigned int ranks,
                       unsigned int adjacent) noexcept nogil:
    """Emit w plus every multiset of `need` single kickers drawn from `ranks`
    (each rank r at most kicker_cap(g, r) times; at most 2 for ranks in `adjacent`)."""
    cdef int r, t, m
    cdef unsigned int rest
    cdef bint no_joker_pair = not (g.flags & F_JOKERS_BOTH)
    if need == 1 or need == 2:
        need_lanes(g)
        kick12(g, w, info, need, lanes(ranks), not no_joker_pair)
        return
    if need == 0:
        emit(g, w, info)
        return
    while ranks:
        r = ddz_ctz(ranks)
        ranks &= ranks - 1
        m = kicker_cap(g, r)
        if (adjacent >> r) & 1 and m > 2:
            m = 2
        if m > need:
            m = need
        rest = ranks
        if r == R_SMALL and no_joker_pair:
            rest &= ~(1u << R_BIG)
        for t in range(1, m + 1):
            kick_singles(g, w + <u64>t * unit(r), info, need - t, rest, adjacent)


cdef void kick_pairs(Gen* g, u64 w, u64 info, int need, unsigned int ranks) noexcept nogil:
    """Emit w plus every set of `need` kicker pairs from `ranks`: distinct
    ranks, or (rule kicker_bomb) up to count // 2 pairs of a rank."""
    cdef int r, t, m
    if not (g.flags & F_KICKER_BOMB) and 1 <= need <= 2:
        pair12(g, w, info, need, lanes(ranks))
        return
    if need == 0:
        emit(g, w, info)
        return
    while ranks:
        r = ddz_ctz(ranks)
        ranks &= ranks - 1
        m = count_of(g.pool, r) // 2 if g.flags & F_KICKER_BOMB else 1
        for t in range(1, min(m, need) + 1):
            kick_pairs(g, w + <u64>(2 * t) * unit(r), info, need - t, ranks)


cdef inline void with_kickers(Gen* g, u64 w, u64 info, int kind, int need,
                              int lo, int hi) noexcept nogil:
    """Emit main part w (ranks lo..hi) with `need` kickers of `kind` (0 none,
    1 single, 2 pair).  A kicker rank never equals a main rank (docs/rules.md §2)."""
    cdef unsigned int others = ~rank_span(lo, hi), adjacent = 0
    cdef u64 other_lanes = ~run_word(lo, hi - lo + 1, 0xF)
    if kind == 0:
        emit(g, w, info)
        return
    need_lanes(g)
    if kind == 2:
        if need <= 2 and not (g.flags & F_KICKER_BOMB):
            pair12(g, w, info, need, g.lanes2 & other_lanes)
        else:
            kick_pairs(g, w, info, need, g.pool2 & others)
    elif need <= 2:
        kick12(g, w, info, need, g.lanes1 & other_lanes, g.flags & F_JOKERS_BOTH)
    else:
        if not (g.flags & F_WING_TRIO_ADJ):
            # RLCard: a trio of wings may not extend the chain (within 3..A).
            adjacent = rank_span(lo - 1 if lo > 0 else 0, hi + 1) & 0xFFF & others
        kick_singles(g, w, info, need, g.pool1 & others, adjacent)


# ---------------------------------------------------------------- combinations

cdef extern from *:
    """
    /* Copy recs[r] (16-byte move records) for each rank r of the rank mask
       `ranks`, ascending, to p; the next slot.  A do-while that tests the
       remaining ranks once a move (gcc makes fewer instructions of it than
       of the while form). */
    static inline void* ddz_copy_recs(void* p, const void* recs, unsigned int ranks) {
        typedef struct { uint64_t cards, info; } rec;
        rec* q = (rec*)p;
        const rec* t = (const rec*)recs;
        if (ranks) do {
            *q++ = t[ddz_ctz(ranks)];
            ranks &= ranks - 1;
        } while (ranks);
        return q;
    }
    /* The same over the 64-bit mask `bits` (recs[b] for each bit b, ascending).
       Both are kept: ddz_copy_recs64 in place of ddz_copy_recs on rank masks
       made leads 2.0 % more instructions (callgrind guard, counted). */
    static inline void* ddz_copy_recs64(void* p, const void* recs, uint64_t bits) {
        typedef struct { uint64_t cards, info; } rec;
        rec* q = (rec*)p;
        const rec* t = (const rec*)recs;
        if (bits) do {
            *q++ = t[ddz_ctz64(bits)];
            bits &= bits - 1;
        } while (bits);
        return q;
    }
    """
    MoveRec* ddz_copy_recs(MoveRec* p, const MoveRec* recs, unsigned int ranks) noexcept nogil
    MoveRec* ddz_copy_recs64(MoveRec* p, const MoveRec* recs, u64 bits) noexcept nogil


cdef inline void sets_loop(Gen* g, u64 k, u64 base, unsigned int ranks, bint fast) noexcept nogil:
    """The sets of k cards (1-3; reading base = make_info of k's combo, main
    0) of each rank of `ranks` (fast: room was checked; from SET_RECS)."""
    cdef MoveRec* p = slot(g, fast)
    cdef int r
    if fast:
        p = ddz_copy_recs(p, &SET_RECS[16 * (k - 1)], ranks)
        g.n = p - g.out
        return
    while ranks:
        r = ddz_ctz(ranks)
        ranks &= ranks - 1
        p = put(g, p, k << (4 * r), base | (<u64>r << 5), fast)
    done(g, p, fast)


cdef inline void gen_sets(Gen* g, int combo, int k, int lo, unsigned int allowed) noexcept nogil:
    """Single, pair or trio (k cards of one rank) of ranks in `allowed`, rank >= lo."""
    cdef unsigned int ranks = from_rank(g.at_least[k] & allowed, lo)
    if not size_ok(g, k) or banned(g, combo):
        return
    if room(g):
        sets_loop(g, k, make_info(combo, 0, 1), ranks, True)
    elif g.n >= g.cap:
        g.n += lanes_count(lanes(ranks))
    else:
        sets_loop(g, k, make_info(combo, 0, 1), ranks, False)


cdef inline void gen_with_kickers(Gen* g, int combo, int k, int kind, int need, int lo) noexcept nogil:
    """k of a rank (a trio, or a quad of four-with-two) with `need` kickers of `kind`, rank >= lo."""
    cdef int r
    cdef unsigned int ranks = from_rank(g.at_least[k] & 0x1FFF, lo)
    if not size_ok(g, k + need * kind) or banned(g, combo):
        return
    while ranks:
        r = ddz_ctz(ranks)
        ranks &= ranks - 1
        with_kickers(g, <u64>k * unit(r), make_info(combo, r, 1), kind, need, r, r)


cdef inline void gen_chain(Gen* g, int combo, int k, int min_len, int kind, int lo, int fix_len,
                    int per=1) noexcept nogil:
    """Chains of k cards a rank within 3..A, top rank >= lo, each unit with
    `per` kickers of `kind` (0 none, 1 single, 2 pair); fix_len 0 = any length."""
    cdef unsigned int ranks = g.at_least[k] & 0xFFF, starts
    cdef int s, i, unit_size = k + per * kind
    if banned(g, combo):
        return
    if g.size:
        if g.size % unit_size or (fix_len and fix_len != g.size // unit_size):
            return
        fix_len = g.size // unit_size
    if fix_len:
        if fix_len < min_len:
            return
        min_len = fix_len
    starts = ranks
    for i in range(1, min_len):
        starts &= ranks >> i
    if kind == 0 and g.n >= g.cap:
        g.n += chain_count(ranks, starts, min_len, lo, fix_len)
        return
    while starts:
        s = ddz_ctz(starts)
        starts &= starts - 1
        if kind == 0 and room(g):
            bare_chains(g, combo, k, s, s + min_len - 1, lo, fix_len, ranks)
        else:
            chain_from(g, combo, k, kind, per, s, s + min_len - 1, lo, fix_len, ranks)


cdef Py_ssize_t chain_count(unsigned int ranks, unsigned int starts, int min_len, int lo,
                            bint fix) noexcept nogil:
    """How many bare chains gen_chain would write from `starts` (only
    counting): for each start s, the tops from s + min_len - 1 (and lo) up
    to the end of the run of `ranks` from s (only the first with `fix`)."""
    cdef Py_ssize_t n = 0
    cdef int s, top, last
    while starts:
        s = ddz_ctz(starts)
        starts &= starts - 1
        top = s + min_len - 1
        last = top if fix else s + ddz_ctz(~(ranks >> s)) - 1
        if top < lo:
            top = lo
        if last >= top:
            n += last - top + 1
    return n


cdef inline void bare_chains(Gen* g, int combo, u64 k, int s, int top, int lo, bint fix,
                             unsigned int ranks) noexcept nogil:
    """gen_chain's bare chains from rank s (room was checked): tops from
    `top` (and lo) up to the end of the run of `ranks` from s (only `top`
    with `fix`); the card word and the reading step by one unit each time."""
    cdef MoveRec* p = g.out + g.n
    cdef int last = top if fix else s + ddz_ctz(~(ranks >> s)) - 1
    cdef u64 w, info, step
    if top < lo:
        top = lo
    if last < top:
        return
    w = run_word(s, top - s + 1, k)
    info = make_info(combo, top, top - s + 1)
    step = k << (4 * (top + 1))
    for top in range(top, last + 1):
        p.cards = w
        p.info = info
        p += 1
        w += step
        step <<= 4
        info += (1 << 5) | (1 << 9)
    g.n = p - g.out


cdef void chain_from(Gen* g, int combo, u64 k, int kind, int per, int s, int top, int lo,
                     bint fix, unsigned int ranks) noexcept nogil:
    """gen_chain's chains starting at rank s, from top up while `ranks` runs on
    (only top with `fix`), each with its kickers (bare ones here only without
    room: through emit).  The card word and the reading step by one unit each time."""
    cdef u64 w = run_word(s, top - s + 1, k), info = make_info(combo, top, top - s + 1)
    cdef u64 step = k << (4 * (top + 1))
    while True:
        if top >= lo:
            with_kickers(g, w, info, kind, per * (top - s + 1), s, top)
        top += 1
        if fix or top > R_ACE or not (ranks >> top) & 1:
            break
        w += step
        step <<= 4
        info += (1 << 5) | (1 << 9)


cdef void gen_shuttles(Gen* g, int lo, int fix_len, int size) noexcept nogil:
    """Shuttles (航天飞机, rule F_SHUTTLE): >= 2 consecutive quads within 3..A,
    bare or each quad with two single or two pair kickers; with `size` > 0
    only those of that many cards (a shuttle follows one of its own kind)."""
    cdef int kind
    if not (g.flags & F_SHUTTLE):
        return
    for kind in range(3):
        if size == 0 or fix_len == 0 or size == (4 + 2 * kind) * fix_len:
            gen_chain(g, C_SHUTTLE, 4, 2, kind, lo, fix_len, 2)


cdef void gen_combo(Gen* g, int combo, int lo, int fix_len, int size=0) noexcept nogil:
    """Every move of one (non-bomb) combination type, main rank >= lo
    (a shuttle: of `size` cards)."""
    if combo == C_SINGLE:
        gen_sets(g, C_SINGLE, 1, lo, 0x7FFF)
    elif combo == C_PAIR:
        gen_sets(g, C_PAIR, 2, lo, 0x1FFF)
    elif combo == C_TRIO:
        gen_sets(g, C_TRIO, 3, lo, 0x1FFF)
    elif combo == C_TRIO_SINGLE:
        gen_with_kickers(g, C_TRIO_SINGLE, 3, 1, 1, lo)
    elif combo == C_TRIO_PAIR:
        gen_with_kickers(g, C_TRIO_PAIR, 3, 2, 1, lo)
    elif combo == C_STRAIGHT:
        gen_chain(g, C_STRAIGHT, 1, 5, 0, lo, fix_len)
    elif combo == C_PAIR_CHAIN:
        gen_chain(g, C_PAIR_CHAIN, 2, 3, 0, lo, fix_len)
    elif combo == C_PLANE:
        gen_chain(g, C_PLANE, 3, 2, 0, lo, fix_len)
    elif combo == C_PLANE_SINGLE:
        gen_chain(g, C_PLANE_SINGLE, 3, 2, 1, lo, fix_len)
    elif combo == C_PLANE_PAIR:
        gen_chain(g, C_PLANE_PAIR, 3, 2, 2, lo, fix_len)
    elif combo == C_SHUTTLE:
        gen_shuttles(g, lo, fix_len, size)
    elif g.flags & F_FOUR_TWO:
        if combo == C_FOUR_TWO_SINGLE:
            gen_with_kickers(g, C_FOUR_TWO_SINGLE, 4, 1, 2, lo)
        elif combo == C_FOUR_TWO_PAIR:
            gen_with_kickers(g, C_FOUR_TWO_PAIR, 4, 2, 2, lo)


cdef int bomb_power(u64 cards, u64 info, int flags) noexcept nogil:
    """Order of bombs (docs/rules.md §2, §7, §8); -1 for a move that is no bomb.

    power = 16 * tier + rank within the tier.  One deck: soft bomb < bomb <
    wild bomb < rocket.  Two decks: an n-card bomb has tier 4n; two jokers
    come right above the bombs of (flags bits 12-13) + 4 cards (default:
    4-card bomb < two jokers < 5 < 6), then three jokers between 6 and 7,
    four jokers on top; joker bombs ranked by their big jokers.
    """
    cdef int combo = info_combo(info), main = info_main(info), n
    if combo == C_ROCKET:
        return 16 * 15
    if combo == C_WILD_BOMB:
        return 16 * 14 + main
    if combo == C_SOFT_BOMB:
        return main
    if combo == C_BOMB:
        if flags & F_TWO_DECKS:
            return 16 * 4 * card_total(cards) + main
        return 16 + main
    if combo == C_JOKER_BOMB:
        n = card_total(cards)
        if n == 2:
            return 16 * (4 * (4 + ((flags >> 12) & 3)) + 1) + count_of(cards, R_BIG)
        return 16 * (26 if n == 3 else 34) + count_of(cards, R_BIG)
    return -1


cdef void gen_bombs(Gen* g, int beat) noexcept nogil:
    """Every bomb, rocket and joker bomb whose power exceeds `beat`."""
    cdef int r, n, b, big
    cdef u64 w, info
    cdef unsigned int ranks = g.at_least[4] & 0x1FFF
    if g.flags & F_TWO_DECKS:
        for r in range(R_TWO + 1):
            for n in range(4, count_of(g.hand, r) + 1):
                w = <u64>n * unit(r)
                info = make_info(C_BOMB, r, 1)
                if size_ok(g, n) and bomb_power(w, info, g.flags) > beat and not banned(g, C_BOMB):
                    emit(g, w, info)
        for b in range(count_of(g.hand, R_SMALL) + 1):
            for big in range(count_of(g.hand, R_BIG) + 1):
                if b + big >= 2 and size_ok(g, b + big):
                    w = <u64>b * unit(R_SMALL) + <u64>big * unit(R_BIG)
                    info = make_info(C_JOKER_BOMB, R_BIG if big else R_SMALL, 1)
                    if bomb_power(w, info, g.flags) > beat:
                        emit(g, w, info)
        return
    if size_ok(g, 4) and not banned(g, C_BOMB):
        while ranks:
            r = ddz_ctz(ranks)
            ranks &= ranks - 1
            if 16 + r > beat:
                emit(g, 4 * unit(r), make_info(C_BOMB, r, 1))
    if size_ok(g, 2) and (g.at_least[1] >> R_SMALL) == 3 and 16 * 15 > beat:
        emit(g, unit(R_SMALL) + unit(R_BIG), make_info(C_ROCKET, R_BIG, 1))


# Bare chains of a free lead within 3..A: at most 36 straights, 55 pair
# chains and 66 planes (runs of all 12 ranks, chains from 5, 3 and 2 long).
cdef enum:
    CHAIN_ROOM = 36 + 55 + 66


cdef inline MoveRec* runs(MoveRec* p, u64 k, unsigned int ranks, int min_len, int combo) noexcept nogil:
    """Write at p every chain of k cards a rank (`combo`, bare) over the runs
    of `ranks` (a rank mask within 3..A), at least min_len long, start by
    start, shortest first (the order of gen_chain); the next slot.  The card
    word and the reading step by one unit each time."""
    cdef unsigned int starts = ranks
    cdef int i, s, top, end
    cdef u64 w, info, step
    for i in range(1, min_len):
        starts &= ranks >> i
    while starts:
        s = ddz_ctz(starts)
        starts &= starts - 1
        end = s + ddz_ctz(~(ranks >> s))      # one past the run's top
        top = s + min_len - 1
        w = run_word(s, min_len, k)
        info = make_info(combo, top, min_len)
        step = k << (4 * (top + 1))
        while True:
            p.cards = w
            p.info = info
            p += 1
            top += 1
            if top == end:
                break
            w += step
            step <<= 4
            info += (1 << 5) | (1 << 9)
    return p


# Trios with one kicker of a free lead: at most 13 trio ranks x 14 kicker ranks.
cdef enum:
    ONE_KICKER_ROOM = 13 * 14
    SETS_ROOM = 15 + 13 + 13        # singles, pairs, trios

cdef extern from *:
    """
    /* DDZ_PREFETCH_OUT(q, lines): ask for `lines` cache lines of the output
       DDZ_PF_DIST bytes past q, for writing.  A laizi lead writes 4.5-52 KB
       a position (one deck's 1 KB), and its writers (kickers, straights)
       ask for their lines ahead: timed (benchmarks/modes.py, 5 interleaved
       runs under the timing lock), 1 wild card 2.11 ns a move with it
       against about 2.2 without; on a slower host (2 GHz, memory writes
       2 ns a record past the caches), laizi 1-4 wild 7-13 % slower without
       it, and 2-4 % faster with 2 KB for 1 KB, two lines a lz_two row
       for one, and the straights' writers asking too (13 paired rounds
       of persistent processes, each build's calls interleaved).  One deck
       (1 KB a position, in cache) gained nothing from it (0.996x).  A
       prefetch never faults, so past the buffer's end it is harmless. */
    #if defined(__GNUC__)
    #define DDZ_PREFETCH_OUT(q, lines) do { int l_; for (l_ = 0; l_ < (lines); l_++) \\
        __builtin_prefetch((const char*)(q) + DDZ_PF_DIST + 64 * l_, 1, 3); } while (0)
    #else
    #define DDZ_PREFETCH_OUT(q, lines) ((void)0)
    #endif
    #define DDZ_PF_DIST 2048
    #define DDZ_PREFETCH_LINE(q) DDZ_PREFETCH_OUT(q, 1)   /* for Cython: one line */
    """
    void prefetch_out "DDZ_PREFETCH_LINE" (const void* q) noexcept nogil


cdef extern from *:
    """
    /* DDZ_KICK_EACH(name, ahead) defines name(p, w, info, ranks, kind): write
       w + kind * (one card of each rank of the lanes() word `ranks`), ranks
       ascending, each with reading info, at p (MoveRec records); the next
       slot.  A do-while, as ddz_copy_recs: 10 instructions a move (gcc -O3,
       x86-64) against 12 of the while form.  One body, two functions: the
       standard core's ddz_kick_each and the laizi generator's
       ddz_lz_kick_each (one function shared by both changed how gcc
       compiles the one-deck lead: about 1 % more instructions there,
       counted); `ahead`: the laizi one's prefetch of the output. */
    #define DDZ_KICK_EACH(name, ahead) \\
    static inline void* name(void* p, uint64_t w, uint64_t info, uint64_t ranks, uint64_t kind) { \\
        uint64_t* q = (uint64_t*)p; \\
        ahead; \\
        if (ranks) do { \\
            q[0] = w + kind * (ranks & (0 - ranks)); \\
            q[1] = info; \\
            q += 2; \\
            ranks &= ranks - 1; \\
        } while (ranks); \\
        return q; \\
    }
    DDZ_KICK_EACH(ddz_kick_each, (void)0)
    DDZ_KICK_EACH(ddz_lz_kick_each, DDZ_PREFETCH_OUT(q, 4))
    """
    MoveRec* ddz_kick_each(MoveRec* p, u64 w, u64 info, u64 ranks, u64 kind) noexcept nogil
    MoveRec* lz_kick_each "ddz_lz_kick_each" (MoveRec* p, u64 w, u64 info, u64 ranks, u64 kind) noexcept nogil


cdef inline void one_kicker(Gen* g, int combo, unsigned int trios, u64 kickers, u64 kind) noexcept nogil:
    """Write every trio of `trios` (a rank mask) with one kicker (kind 1: a
    single, 2: a pair) of another rank of `kickers` (a lanes() word), trio
    by trio, kicker ranks ascending (the order of gen_with_kickers; room
    for ONE_KICKER_ROOM moves was checked).  With one kicker no rule
    switch matters: a single or a pair of any other rank (docs/rules.md §2)."""
    cdef MoveRec* p = g.out + g.n
    cdef int r
    cdef u64 w, info
    while trios:
        r = ddz_ctz(trios)
        trios &= trios - 1
        w = 3 * unit(r)
        info = make_info(combo, r, 1)
        p = ddz_kick_each(p, w, info, kickers & ~(<u64>0xF << (4 * r)), kind)
    g.n = p - g.out


cdef void count_sets(Gen* g, unsigned int trios) noexcept nogil:
    """Only counting a free lead (no room at all): its sets and trios with
    one kicker in closed form (a trio's kicker is any single or pair of the
    hand but its own rank, docs/rules.md §2)."""
    cdef Py_ssize_t n1 = lanes_count(lanes(g.at_least[1]))
    cdef Py_ssize_t n2 = lanes_count(lanes(g.at_least[2] & 0x1FFF))
    cdef Py_ssize_t n3 = lanes_count(lanes(trios))
    g.n += ((0 if banned(g, C_SINGLE) else n1) + (0 if banned(g, C_PAIR) else n2) +
            (0 if banned(g, C_TRIO) else n3) + (0 if banned(g, C_TRIO_SINGLE) else n3 * (n1 - 1)) +
            (0 if banned(g, C_TRIO_PAIR) else n3 * (n2 - 1)))


cdef void gen_all(Gen* g) noexcept nogil:
    """Every move of a free lead, type by type (the kernel's lead order).
    A type whose main part the hand cannot hold (no trio, no run long enough
    for a chain, no quad) is skipped before any of its set-up."""
    cdef unsigned int trios = g.at_least[3] & 0x1FFF, quads = g.at_least[4] & 0x1FFF
    cdef unsigned int r1 = g.at_least[1] & 0xFFF, r2 = g.at_least[2] & 0xFFF, r3 = trios & 0xFFF
    cdef u64 sets
    cdef MoveRec* p
    if g.size == 0 and g.cap - g.n >= SETS_ROOM + 2 * ONE_KICKER_ROOM:
        # Room for every set and trio with one kicker: one check for all of them.
        # Singles, pairs and trios in one walk over SET_RECS (one loop exit, not three).
        sets = 0 if banned(g, C_SINGLE) else g.at_least[1]
        if not banned(g, C_PAIR):
            sets |= <u64>(g.at_least[2] & 0x1FFF) << 16
        if not banned(g, C_TRIO):
            sets |= <u64>trios << 32
        p = ddz_copy_recs64(g.out + g.n, SET_RECS, sets)
        g.n = p - g.out
        if trios:
            need_lanes(g)
            if not banned(g, C_TRIO_SINGLE):
                one_kicker(g, C_TRIO_SINGLE, trios, g.lanes1, 1)
            if not banned(g, C_TRIO_PAIR):
                one_kicker(g, C_TRIO_PAIR, trios, g.lanes2, 2)
    elif g.size == 0 and g.n >= g.cap:
        count_sets(g, trios)
    else:
        gen_sets(g, C_SINGLE, 1, 0, 0x7FFF)
        gen_sets(g, C_PAIR, 2, 0, 0x1FFF)
        if trios:
            gen_sets(g, C_TRIO, 3, 0, 0x1FFF)
            gen_with_kickers(g, C_TRIO_SINGLE, 3, 1, 1, 0)
            gen_with_kickers(g, C_TRIO_PAIR, 3, 2, 1, 0)
    if g.size == 0 and g.cap - g.n >= CHAIN_ROOM:
        # Room for every bare chain a hand can hold: one check for all of them.
        p = g.out + g.n
        if not banned(g, C_STRAIGHT):
            p = runs(p, 1, r1, 5, C_STRAIGHT)
        if not banned(g, C_PAIR_CHAIN):
            p = runs(p, 2, r2, 3, C_PAIR_CHAIN)
        if not banned(g, C_PLANE):
            p = runs(p, 3, r3, 2, C_PLANE)
        g.n = p - g.out
    else:
        if r1 & (r1 >> 1) & (r1 >> 2) & (r1 >> 3) & (r1 >> 4):
            gen_chain(g, C_STRAIGHT, 1, 5, 0, 0, 0)
        if r2 & (r2 >> 1) & (r2 >> 2):
            gen_chain(g, C_PAIR_CHAIN, 2, 3, 0, 0, 0)
        if r3 & (r3 >> 1):
            gen_chain(g, C_PLANE, 3, 2, 0, 0, 0)
    if r3 & (r3 >> 1):
        gen_chain(g, C_PLANE_SINGLE, 3, 2, 1, 0, 0)
        gen_chain(g, C_PLANE_PAIR, 3, 2, 2, 0, 0)
    if quads and g.flags & F_FOUR_TWO:
        gen_with_kickers(g, C_FOUR_TWO_SINGLE, 4, 1, 2, 0)
        gen_with_kickers(g, C_FOUR_TWO_PAIR, 4, 2, 2, 0)
    if g.flags & F_SHUTTLE:
        gen_shuttles(g, 0, 0, 0)
    # Bombs and the rocket (two decks: joker bombs of two or more jokers).
    if quads or (g.at_least[1] >> R_SMALL) == 3 or (g.at_least[2] >> R_SMALL):
        gen_bombs(g, -1)


# ---------------------------------------------------------------- laizi (docs/rules.md §7)
#
# The hand is its naturals plus nw wild cards.  A main part (set, quad, chain
# unit) of rank x uses a naturals of x and k - a wild cards standing for x;
# kickers come from the pool (naturals of other ranks and the free wild cards
# at face value).  Because a kicker never shares a main rank, the physical
# cards and the reading fix the substitution: each choice below is a distinct
# move, so the work grows with the number of moves, not of substitutions.
# The info word records the wild cards that stand for another rank (nsub and
# their ranks, ascending); wild cards at face value are not listed.

cdef u64 LZ_ONES[5]      # LZ_ONES[n]: n nibbles of 1 (0, 0x1, 0x11, ...)
cdef u64 LZ_ALL = 0x1111111111111111ULL   # a nibble of 1 at every rank: x * LZ_ALL sums x's nibbles up


cdef inline u64 subs(int r, int n) noexcept nogil:
    """Stand-in nibbles: n copies of rank r.  subs(5, 2) == 0x55."""
    return <u64>r * LZ_ONES[n]


cdef inline u64 lz_info(Gen* g, int combo, int main, int length, int nsub, u64 standins) noexcept nogil:
    """A reading whose nsub wild cards stand for the ranks in `standins`."""
    if nsub == 0:
        return make_info(combo, main, length)
    return (make_info(combo, main, length) | (<u64>nsub << 14) | (standins << 18)
            | (<u64>(g.wild + 1) << 34))


cdef inline unsigned int lz_mains(Gen* g, int least, int k, int lo) noexcept nogil:
    """Ranks >= lo (3..2) that a main part of k cards can have: `least`
    naturals or more, and the wild rank (all wild, face value) when nw >= k."""
    cdef unsigned int m = g.at_least[least] & ~(1u << g.wild)
    if g.nw >= k:
        m |= 1u << g.wild
    return from_rank(m & 0x1FFF, lo)


# LZ_SET_RECS[64 * (k - 2) + 4 * x + j]: the pair (k = 2) or trio (k = 3) of
# rank x in which j wild cards stand for x (the reading's stand-ins, but not
# yet the wild cards themselves or the wild rank field, which lz_sets adds).
cdef MoveRec LZ_SET_RECS[2 * 64]


cdef void lz_sets(Gen* g, int combo, int k, int lo) noexcept nogil:
    """A pair or trio as a whole move: naturals of x topped up with wild cards,
    or only wild cards at face value (docs/rules.md §7).  One bit a move, in
    the moves' order (ranks ascending, naturals descending): bit 4x + j for
    rank x with j wild cards; a rank's all-wild set is only the wild rank's
    own, at face value, whose record is its natural set's (j = 0)."""
    cdef int j, b
    cdef u64 w = unit(g.wild), bits = w if g.nw >= k else 0
    cdef const MoveRec* recs = &LZ_SET_RECS[64 * (k - 2)]
    cdef MoveRec add[4]     # add[j]: j wild cards and, with any, the wild rank field (recs' info has none)
    cdef bint fast = g.cap - g.n >= 3 * 13
    cdef MoveRec* p
    if not size_ok(g, k) or banned(g, combo):
        return
    add[0].cards, add[0].info = 0, 0
    for j in range(1, 4):
        add[j].cards, add[j].info = <u64>j * w, <u64>(g.wild + 1) << 34
    for j in range(min(g.nw, k - 1) + 1):
        bits |= lanes(g.at_least[k - j] & 0x1FFF) << j
    bits &= ~<u64>0 << (4 * lo)
    p = slot(g, fast)
    while bits:
        b = ddz_ctz64(bits)
        bits &= bits - 1
        # one record read and one added a move: no multiply, no branch on j = b & 3
        p = put(g, p, recs[b].cards + add[b & 3].cards, recs[b].info + add[b & 3].info, fast)
    done(g, p, fast)


cdef struct LzPool:
    u64 ones, twos, twice   # lanes() of the naturals' pool1, pool2 and pool_twice (no wild card)


cdef inline void lz_pool(Gen* g, LzPool* p) noexcept nogil:
    p.ones = lanes(g.at_least[1])
    p.twos = lanes(g.at_least[2] & 0x1FFF)
    p.twice = lanes(g.twice)


cdef extern from *:
    """
    /* ddz_lz_two(p, w, info, ranks, twice, kind, joker_pair): w plus two
       kickers of `kind` (1: singles, 2: pairs; a multiplier) from `ranks` (a
       rank mask of at most 14 ranks) at p, in singles2's and pairs12's
       order: by the lower kicker rank, two of it first (singles of a rank
       in `twice`, which holds no joker unless joker_pair; pairs pass 0),
       then each higher rank ascending (never both jokers unless
       joker_pair); the next slot.  The kicker loops of laizi's
       four-with-two and two-unit planes, made of writes more than of
       branches: a branch a kicker rank (two of it or not) and a loop exit
       a kicker rank (its run of higher ranks, one shorter each time) went
       either way, a misprediction each, about 0.1 a move of a laizi lead
       (callgrind's branch simulation).  So the two-of-a-rank record is
       always written and kept by moving p on, and each lower rank writes
       a fixed number of records for its m higher ranks (ddz_lz_row: 13
       while m >= 10, then 10 (m >= 7), 7 (m >= 4), 3 (m >= 2) and 1: at
       most 3 more than m) of which p keeps m: up to 5 records past the
       returned slot are scratch (ROOM covers them: at most 14 * 13 / 2 +
       14 + 5).  The widths 13, 8 and 4 wrote about 1.5 records a move
       kept; these write about a third fewer for a few more instructions
       (4 wild: 25.85 -> 25.98 a move, counted), timed 1-3 % less a move
       (benchmarks/modes.py's hands, builds alternating).  Instruction
       counts do not predict these writers' time: widths 13, 11, 9, 7, 5,
       3, 1 (fewer instructions again) timed the same, and this function
       forced inline everywhere (4 wild 25.45) 2-6 % slower at 1-2 wild. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #endif
    static inline uint64_t* ddz_lz_row(uint64_t* q, uint64_t w, uint64_t info, const uint64_t* k,
                                       uint64_t twice, int width, int m) {
        uint64_t wi = w + k[0];
        int t;
    #if defined(__SSE2__) || defined(_M_X64)
        /* one 16-byte store a record: (wi, info) + (k[1 + t], 0) */
        __m128i base = _mm_set_epi64x((long long)info, (long long)wi);
    #endif
        DDZ_PREFETCH_OUT(q, 2);
        q[0] = wi + k[0];
        q[1] = info;
        q += ((k[0] & twice) != 0) << 1;
        for (t = 0; t < width; t++) {
    #if defined(__SSE2__) || defined(_M_X64)
            _mm_storeu_si128((__m128i*)(q + 2 * t),
                             _mm_add_epi64(base, _mm_loadl_epi64((const __m128i*)(k + 1 + t))));
    #else
            q[2 * t] = wi + k[1 + t];
            q[2 * t + 1] = info;
    #endif
        }
        return q + 2 * m;
    }
    /* DDZ_LZ_NIB[m]: one card of each rank j of the 4-bit rank mask m (unit(j),
       j ascending), then zeros; DDZ_LZ_POP4[m]: how many (filled by _lz_fill). */
    static uint64_t DDZ_LZ_NIB[16][4];
    static unsigned char DDZ_LZ_POP4[16];
    static inline void* ddz_lz_two(void* p, uint64_t w, uint64_t info, unsigned int ranks, uint64_t twice,
                                   uint64_t kind, int joker_pair) {
        /* kind * one card of each rank, ascending, then zeros: four ranks at a
           time from DDZ_LZ_NIB (four records written, the rank count kept;
           a loop over the 15 ranks, one at a time, cost about 100
           instructions a call, counted) */
        uint64_t k[16 + 4];
        uint64_t* q = (uint64_t*)p;
        int n = 0, i = 0, c, t, shift = (int)kind - 1;
        for (c = 0; c < 4; c++) {
            const uint64_t* nib = DDZ_LZ_NIB[(ranks >> (4 * c)) & 15];
    #if defined(__SSE2__) || defined(_M_X64)
            __m128i by = _mm_cvtsi32_si128(16 * c + shift);
            _mm_storeu_si128((__m128i*)(k + n), _mm_sll_epi64(_mm_loadu_si128((const __m128i*)nib), by));
            _mm_storeu_si128((__m128i*)(k + n + 2), _mm_sll_epi64(_mm_loadu_si128((const __m128i*)(nib + 2)), by));
    #else
            for (t = 0; t < 4; t++)
                k[n + t] = nib[t] << (16 * c + shift);
    #endif
            n += DDZ_LZ_POP4[(ranks >> (4 * c)) & 15];
        }
        (void)t;
    #if defined(__SSE2__) || defined(_M_X64)
        _mm_storeu_si128((__m128i*)(k + n), _mm_setzero_si128());
        _mm_storeu_si128((__m128i*)(k + n + 2), _mm_setzero_si128());
    #else
        k[n] = k[n + 1] = k[n + 2] = k[n + 3] = 0;
    #endif
        for (; i < n - 10; i++)
            q = ddz_lz_row(q, w, info, k + i, twice, 13, n - 1 - i);
        for (; i < n - 7; i++)
            q = ddz_lz_row(q, w, info, k + i, twice, 10, n - 1 - i);
        for (; i < n - 4; i++)
            q = ddz_lz_row(q, w, info, k + i, twice, 7, n - 1 - i);
        for (; i < n - 2; i++)
            q = ddz_lz_row(q, w, info, k + i, twice, 3, n - 1 - i);
        for (; i < n - 1; i++)
            q = ddz_lz_row(q, w, info, k + i, twice, 1, n - 1 - i);
        if (i < n)
            q = ddz_lz_row(q, w, info, k + i, twice, 0, 0);
        /* both jokers: their pair is the last move (the big joker's row keeps none) */
        return q - 2 * (!joker_pair && ((ranks >> 13) & (ranks >> 14) & 1));
    }
    """
    MoveRec* lz_two "ddz_lz_two" (MoveRec* p, u64 w, u64 info, unsigned int ranks, u64 twice, u64 kind,
                                  bint joker_pair) noexcept nogil
    u64 LZ_NIB "DDZ_LZ_NIB"[16][4]
    unsigned char LZ_POP4 "DDZ_LZ_POP4"[16]


cdef inline void lz_kick(Gen* g, LzPool* p, u64 w, u64 info, int kind, int need, int lo, int hi,
                         int left) noexcept nogil:
    """with_kickers for main ranks lo..hi with `left` free wild cards in the
    pool (set_pool's pool): one or two single or pair kickers straight from
    the naturals' lanes plus the wild lane, without rebuilding the pool."""
    cdef u64 wild = unit(g.wild), others, ranks, twice
    cdef unsigned int bit = 1u << g.wild, mains = rank_span(lo, hi)
    cdef MoveRec* end
    left &= 0 - <int>(((g.wild - lo) | (hi - g.wild)) < 0)   # none free if a main rank is wild's
    if kind == 1 and need <= 2:
        if need == 2:
            twice = p.twice | (wild if left >= 2 and (g.flags & F_KICKER_REPEAT) else 0)
            if room(g):
                # lz_two reads rank masks (g.at_least[1] is p.ones' mask)
                end = lz_two(g.out + g.n, w, info, (g.at_least[1] | (bit if left >= 1 else 0)) & ~mains,
                             twice, 1, g.flags & F_JOKERS_BOTH)
                g.n = end - g.out
                return
            g.lanes_twice = twice
            g.lanes_ok = False      # lanes_twice is ours until the next set_pool
        others = ~run_word(lo, hi - lo + 1, 0xF)
        ranks = (p.ones | (wild if left >= 1 else 0)) & others
        kick12(g, w, info, need, ranks, g.flags & F_JOKERS_BOTH)
    elif kind == 2 and need <= 2 and not (g.flags & F_KICKER_BOMB):
        if need == 2 and room(g):
            end = lz_two(g.out + g.n, w, info, ((g.at_least[2] & 0x1FFF) | (bit if left >= 2 else 0)) & ~mains,
                         0, 2, True)
            g.n = end - g.out
            return
        others = ~run_word(lo, hi - lo + 1, 0xF)
        ranks = (p.twos | (wild if left >= 2 else 0)) & others
        pair12(g, w, info, need, ranks)
    else:
        set_pool(g, left, rank_span(lo, hi))
        with_kickers(g, w, info, kind, need, lo, hi)


cdef enum:
    LZ_MAINS_ROOM = 13 * 4 * 15     # trios with one kicker: <= 4 main parts a rank, <= 15 kickers each
    LZ_PARTS = 13 * 5               # main parts of k <= 4 cards: <= 5 a rank (0-4 naturals)
    LZ_TWO_ROOM = 14 * 13 // 2 + 14 + 5     # lz_two's moves and the scratch past them


# The main parts of k cards (a trio or a quad) of ranks >= lo, made once and
# read by every kicker kind of them (trios with a single or a pair,
# four-with-two singles or pairs): ranks ascending, naturals descending.
cdef struct LzParts:
    int k, lo, n           # k == 0: not made
    u64 cards[LZ_PARTS]
    u64 info[LZ_PARTS]     # the reading without its combo (lz_info with combo 0)
    unsigned char x[LZ_PARTS]
    signed char left[LZ_PARTS]      # the wild cards left free; -1 - left: an all-wild main part


cdef void lz_parts(Gen* g, LzParts* parts, int k, int lo) noexcept nogil:
    """Make `parts`: k of rank x (any mix of naturals and wild cards; wild
    cards alone may stand for any rank inside a larger move, docs/rules.md §7)."""
    cdef int x, a, c, n = 0, least = max(0, k - g.nw)
    cdef unsigned int mains = lz_mains(g, least, k, lo)
    cdef u64 w = unit(g.wild), info
    parts.k, parts.lo = k, lo
    while mains:
        x = ddz_ctz(mains)
        mains &= mains - 1
        if x == g.wild:
            parts.cards[n], parts.info[n], parts.x[n], parts.left[n] = <u64>k * w, make_info(0, x, 1), x, 0
            n += 1
            continue
        c = count_of(g.naturals, x)
        info = lz_info(g, 0, x, 1, 0, 0)
        for a in range(min(k, c), least - 1, -1):
            parts.cards[n] = <u64>a * unit(x) + <u64>(k - a) * w
            parts.info[n] = info if a == k else lz_info(g, 0, x, 1, k - a, subs(x, k - a))
            parts.x[n] = x
            parts.left[n] = g.nw - (k - a) if a else -1 - g.nw + k
            n += 1
    parts.n = n


cdef inline MoveRec* lz_main(Gen* g, LzPool* pool, MoveRec* p, u64 w, u64 info, int kind, int need,
                             int x, int left) noexcept nogil:
    """lz_kick for main rank x; with one kicker, when p is set (room was
    checked), each written straight at p (one single or pair of any other
    rank, no rule switch matters: docs/rules.md §2); the next slot."""
    cdef u64 others = ~(<u64>0xF << (4 * x))
    if p == NULL:
        lz_kick(g, pool, w, info, kind, need, x, x, left)
        return NULL
    if kind == 1:   # a constant kind each: no multiply a move
        return lz_kick_each(p, w, info, (pool.ones | (unit(g.wild) if left >= 1 else 0)) & others, 1)
    return lz_kick_each(p, w, info, (pool.twos | (unit(g.wild) if left >= 2 else 0)) & others, 2)


cdef void lz_with_kickers(Gen* g, LzParts* parts, int combo, int k, int kind, int need, int lo) noexcept nogil:
    """Trio or four-with-two: a main part of k (lz_parts) + kickers."""
    cdef int i, left
    cdef LzPool pool
    cdef MoveRec* p = NULL
    if not size_ok(g, k + need * kind) or banned(g, combo):
        return
    if combo >= C_FOUR_TWO_SINGLE and not (g.flags & F_FOUR_TWO):
        return
    if parts.k != k or parts.lo != lo:
        lz_parts(g, parts, k, lo)
    if not parts.n:
        return
    lz_pool(g, &pool)
    if need == 1 and g.cap - g.n >= LZ_MAINS_ROOM:
        p = g.out + g.n
    elif need == 2 and not (kind == 2 and g.flags & F_KICKER_BOMB) and g.cap - g.n >= parts.n * LZ_TWO_ROOM:
        lz_fours(g, parts, combo, kind, pool.twice)
        return
    for i in range(parts.n):
        left = parts.left[i]
        if left < 0:
            # An all-wild main part: a move made only of wild cards is held
            # to face value (docs/rules.md §7), so one kicker at least is natural.
            left = -1 - left
            if left >= need * kind:
                left = need * kind - 1
        p = lz_main(g, &pool, p, parts.cards[i], parts.info[i] | <u64>combo, kind, need, parts.x[i], left)
    if p != NULL:
        g.n = p - g.out


cdef inline void lz_fours(Gen* g, LzParts* parts, int combo, int kind, u64 twice) noexcept nogil:
    """lz_with_kickers' four-with-two (two single kickers, kind 1, or two
    pairs, kind 2; room for LZ_TWO_ROOM moves a main part was checked):
    each main part's kickers straight from lz_two, lz_kick's moves without
    its set-up a part (about 30 instructions, counted)."""
    cdef int i, left, x
    cdef unsigned int bit = 1u << g.wild
    cdef unsigned int naturals = g.at_least[1] if kind == 1 else g.at_least[2] & 0x1FFF
    cdef u64 wild_twice = unit(g.wild) if g.flags & F_KICKER_REPEAT else 0
    cdef bint joker_pair = g.flags & F_JOKERS_BOTH if kind == 1 else True
    cdef MoveRec* p = g.out + g.n
    for i in range(parts.n):
        x = parts.x[i]
        left = parts.left[i]
        if left < 0:
            # an all-wild main part: one kicker at least is natural (as lz_with_kickers)
            left = -1 - left
            if left >= 2 * kind:
                left = 2 * kind - 1
        if x == g.wild:
            left = 0        # none free if the main rank is wild's (as lz_kick)
        if kind == 1:
            p = lz_two(p, parts.cards[i], parts.info[i] | <u64>combo, (naturals | (bit if left >= 1 else 0)) & ~(1u << x),
                       twice | (wild_twice if left >= 2 else 0), 1, joker_pair)
        else:
            p = lz_two(p, parts.cards[i], parts.info[i] | <u64>combo, (naturals | (bit if left >= 2 else 0)) & ~(1u << x),
                       0, 2, True)
    g.n = p - g.out


cdef enum:
    LZ_LEAVES = 64      # bare chains a LzChain keeps for the kicker kinds of the same chains


cdef struct LzChain:
    int combo, k, kind, s, top
    unsigned int natural    # ranks with naturals (the units where a choice is left)
    unsigned int stand      # ranks whose base unit has stand-ins (a deficit; not the wild rank)
    # Each unit's base takes all the naturals it can (min(k, count): `kept`,
    # a nibble a rank 3..A; none at the wild rank) and wild cards fill its
    # deficit; the base of a range of units comes from masks (lz_need, lz_phys).
    u64 kept
    int wild
    u64 w                   # one wild card
    u64 standins            # the stand-in nibbles of units s..top, ascending
    int nst                 # how many
    LzPool pool             # the kicker pool's naturals
    # A free lead's bare chains of k (planes), kept (nleaves >= 0) so that the
    # planes with kickers walk the same main parts without choosing them again.
    int nleaves             # bare chains kept; -1: none (not made, or more than LZ_LEAVES)
    u64 leaf_cards[LZ_LEAVES]
    u64 leaf_info[LZ_LEAVES]
    unsigned char leaf_s[LZ_LEAVES]
    unsigned char leaf_left[LZ_LEAVES]   # the wild cards left free


cdef inline void lz_base(Gen* g, LzChain* ch) noexcept nogil:
    """The naturals each unit of k keeps, ranks 3..A, as lanes from the rank masks."""
    cdef int k = ch.k
    ch.kept = (lanes(g.at_least[1] & 0xFFF) + lanes(g.at_least[2] & 0xFFF)
               + (lanes(g.at_least[3] & 0xFFF) if k == 3 else 0))
    ch.stand = ~g.at_least[k] & 0xFFF & ~(1u << g.wild)
    ch.wild, ch.w = g.wild, unit(g.wild)


cdef inline u64 lz_span(int a, int b) noexcept nogil:
    """The nibbles of ranks a..b-1 (0 <= a <= b <= 13).  lz_span(1, 3) == 0xFF0."""
    return ((<u64>1 << (4 * b)) - 1) & ~((<u64>1 << (4 * a)) - 1)


cdef inline int lz_need(LzChain* ch, int a, int b) noexcept nogil:
    """The wild cards the base of units a..b-1 needs (the wild rank's unit: k at face value)."""
    return ch.k * (b - a) - card_total(ch.kept & lz_span(a, b))


cdef inline u64 lz_phys(LzChain* ch, int a, int b, int need) noexcept nogil:
    """The physical cards of the base of units a..b-1 (`need`: lz_need's)."""
    return (ch.kept & lz_span(a, b)) + <u64>need * ch.w


cdef inline int lz_short(LzChain* ch, int r) noexcept nogil:
    """Unit r's stand-ins in its base (its deficit; 0 for the wild rank's)."""
    return ch.k - <int>((ch.kept >> (4 * r)) & 0xF) if (ch.stand >> r) & 1 else 0


cdef inline void lz_stand(LzChain* ch, int r) noexcept nogil:
    """Append unit r's stand-in nibbles to the window's (units ch.s..r-1 are in)."""
    # lz_short without a branch (which went either way, rank by rank): 0 for a unit without stand-ins
    cdef int n = (ch.k - <int>((ch.kept >> (4 * r)) & 0xF)) & (0 - <int>((ch.stand >> r) & 1))
    ch.standins |= subs(r, n) << (4 * ch.nst)
    ch.nst += n


cdef inline void lz_leaf(Gen* g, LzChain* ch, u64 phys, int nsub, u64 standins, int used) noexcept nogil:
    """A chosen chain of units ch.s..ch.top (phys, nsub stand-ins, `used`
    wild cards): the bare chain (kept for the kicker kinds) or its kicker moves."""
    lz_read(g, ch, phys, lz_info(g, ch.combo, ch.top, ch.top - ch.s + 1, nsub, standins), used)


cdef inline void lz_read(Gen* g, LzChain* ch, u64 phys, u64 info, int used) noexcept nogil:
    """lz_leaf with the chain's reading made (`info`)."""
    cdef int top = ch.top
    if ch.kind == 0:
        emit(g, phys, info)
        if 0 <= ch.nleaves < LZ_LEAVES:
            ch.leaf_cards[ch.nleaves], ch.leaf_info[ch.nleaves] = phys, info
            ch.leaf_s[ch.nleaves], ch.leaf_left[ch.nleaves] = ch.s, g.nw - used
            ch.nleaves += 1
        else:
            ch.nleaves = -1
    else:
        lz_kick(g, &ch.pool, phys, info, ch.kind, top - ch.s + 1, ch.s, top, g.nw - used)


# lz_spares stays a function of its own (gcc): inlined into lz_chain, it
# cost the windows without spare wild cards (one wild card in hand) about
# 60 instructions a position, counted.
cdef extern from *:
    """
    #if defined(__GNUC__)
    struct __pyx_t_7ddzcore_7_kernel_Gen;
    struct __pyx_t_7ddzcore_7_kernel_LzChain;
    static void __pyx_f_7ddzcore_7_kernel_lz_spares(struct __pyx_t_7ddzcore_7_kernel_Gen *,
        struct __pyx_t_7ddzcore_7_kernel_LzChain *, int) __attribute__((noinline));
    #endif
    """


cdef void lz_spares(Gen* g, LzChain* ch, int d) noexcept nogil:
    """The chains of the window ch.s..ch.top whose base (every unit all
    the naturals it can, wild cards for the rest) needs d wild cards, with
    two spare wild cards or more: a choice is how many naturals j_u each
    unit u with naturals lets spare wild cards replace (0 to its kept
    naturals, at most the spare ones in all), and the choices come in
    their lexicographic order, the lowest unit most significant (the base
    first; then by the lowest unit with replacements, from the top down,
    and by how many, the choices of the units above it).  The next choice
    increments the highest unit that can take one more (room for it, and
    the units up to it leave a spare wild card) and clears the units above
    it, and the stand-ins step with it: those of the units up to it stay,
    one more of it, then the base's above it.  O(1) a move, no recursion
    (a recursion unit by unit cost about 200 instructions a move, counted)."""
    cdef int s = ch.s, top = ch.top, slack = g.nw - d, sh, total = 0, pre, below, cum, i
    cdef unsigned int units = ch.natural & rank_span(s, top), room = units, cand, bit, limit = ~0u
    cdef u64 kept = ch.kept, stand = lanes(ch.stand & rank_span(s, top)), J = 0, jp
    # The base's stand-ins of units s..u, nibble u (at most nw < 16: a product sums nibbles up)
    cdef u64 below_of = (<u64>ch.k * stand - (kept & (stand * 0xF))) * LZ_ALL
    cdef u64 phys = lz_phys(ch, s, top + 1, d), standins = ch.standins
    cdef u64 info = make_info(ch.combo, top, top - s + 1) | (<u64>(g.wild + 1) << 34)
    cdef u64 spare[5]       # spare[t]: t wild cards
    for i in range(5):
        spare[i] = <u64>i * ch.w
    lz_leaf(g, ch, phys, ch.nst, standins, d)
    while True:
        # with every spare wild card used, only a unit below the highest with
        # replacements (limit: the bits below it) can take one more
        cand = room & (limit if total == slack else ~0u)
        if cand == 0:
            return
        bit = 1u << (31 - __builtin_clz_u(cand))
        sh = 4 * (31 - __builtin_clz_u(cand))
        J &= (<u64>16 << sh) - 1
        jp = J >> sh                                      # unit p's replaced naturals so far
        below = <int>((below_of >> sh) & 0xF)
        cum = <int>(((J * LZ_ALL) >> sh) & 0xF)          # the replaced naturals of units s..p
        pre = below + cum                                 # the stand-ins of units s..p before
        J += <u64>1 << sh
        total = cum + 1
        limit = bit - 1
        room = ((room & limit) | (units & ~(limit | bit))
                | (bit if jp + 1 != ((kept >> sh) & 0xF) else 0))
        standins = ((standins & ((<u64>1 << (4 * pre)) - 1))
                    | ((((ch.standins >> (4 * below)) << 4) | <u64>(sh >> 2)) << (4 * pre)))
        lz_read(g, ch, phys + spare[total] - J, info | (<u64>(ch.nst + total) << 14) | (standins << 18),
                d + total)


cdef inline void lz_window(Gen* g, LzChain* ch, int d) noexcept nogil:
    """The chains of the window ch.s..ch.top (its base needs d wild cards;
    its stand-ins in ch.standins): lz_spares, but with no spare wild card
    (only the base) or exactly one (the common cases) in lz_spares' order
    directly: the base, then one natural replaced by the spare wild card
    at each unit with naturals, from the top down."""
    cdef int s = ch.s, top = ch.top, c, pos, below = ch.nst
    cdef u64 phys, standins = ch.standins, low
    if g.nw - d > 1:
        lz_spares(g, ch, d)
        return
    phys = lz_phys(ch, s, top + 1, d)
    lz_leaf(g, ch, phys, ch.nst, standins, d)
    if g.nw == d:
        return
    phys += ch.w
    for c in range(top, s - 1, -1):
        below -= lz_short(ch, c)     # the stand-ins of units s..c-1
        if (ch.natural >> c) & 1:
            # One more stand-in for c, among its own (ranks ascending).
            pos = 4 * below
            low = standins & ((1ULL << pos) - 1)
            lz_leaf(g, ch, phys - unit(c), ch.nst + 1,
                    low | (<u64>c << pos) | ((standins - low) << 4), d + 1)


cdef unsigned char LZ_REV8[256]   # LZ_REV8[b]: the byte b with its bits in reverse order
# Rank masks of ranks 3..A reversed (bit j = rank A - j: lz_rev12) index the
# straights' tables: counting up over them walks sets in lz_spares' order.
cdef u64 LZ_RLANES[256]           # LZ_RLANES[b]: lanes() of the reversed byte b (bit j: rank A - j)
cdef unsigned int LZ_RSET[4096]   # LZ_RSET[y]: the ranks of the reversed mask y counted (bits 0-3)
                                  # and, if at most 4, their nibbles ascending (bits 4-19)


cdef void _lz_fill() noexcept:
    cdef int b, j, n, k, x
    cdef unsigned int nib
    for n in range(5):
        LZ_ONES[n] = 0x1111ULL >> (4 * (4 - n))
    for b in range(16):
        n = 0
        for j in range(4):
            LZ_NIB[b][j] = 0
        for j in range(4):
            if (b >> j) & 1:
                LZ_NIB[b][n] = unit(j)
                n += 1
        LZ_POP4[b] = n
    for b in range(2 * 64):
        k, x, n = 2 + b // 64, (b % 64) // 4, b % 4
        LZ_SET_RECS[b].cards = <u64>(k - n) * unit(x) if x < N_RANKS and n < k else 0
        LZ_SET_RECS[b].info = (make_info(C_PAIR + k - 2, x, 1) | (<u64>n << 14) | ((<u64>x * LZ_ONES[n]) << 18)
                               if x < N_RANKS and n < k else 0)
    for b in range(256):
        LZ_REV8[b] = 0
        LZ_RLANES[b] = 0
        for j in range(8):
            if (b >> j) & 1:
                LZ_REV8[b] |= 1 << (7 - j)
                LZ_RLANES[b] |= unit(R_ACE - j)
    for b in range(4096):
        n, nib = 0, 0
        for j in range(R_ACE + 1):          # ranks ascending: bit R_ACE - j of b
            if (b >> (R_ACE - j)) & 1:
                if n < 4:
                    nib |= <unsigned int>j << (4 * n)
                n += 1
        LZ_RSET[b] = n | ((nib if n <= 4 else 0) << 4)


_lz_fill()


cdef inline unsigned int lz_rev12(unsigned int x) noexcept nogil:
    """The 12 low bits of x reversed (bit j to bit 11 - j).  lz_rev12(1) == 0x800."""
    return (<unsigned int>LZ_REV8[x & 0xFF] << 4) | (<unsigned int>LZ_REV8[(x >> 8) & 0xFF] >> 4)


cdef inline u64 lz_rlanes(unsigned int y) noexcept nogil:
    """lanes() of a reversed rank mask y (bit j: rank A - j).  lz_rlanes(1) == unit(R_ACE)."""
    return LZ_RLANES[y & 0xFF] | (LZ_RLANES[(y >> 8) & 0xF] >> 32)


cdef enum:
    LZ_STRAIGHT_ROOM = 1 + 12 + 66 + 220 + 495   # a window's straights: <= 4 of <= 12 naturals replaced


cdef void lz_straight(Gen* g, int combo, int s, int top, unsigned int rspan, unsigned int rn,
                      unsigned int rd) noexcept nogil:
    """The straights of ranks s..top: each rank without a natural takes a
    wild card (`rd`: those other than the wild rank, reversed; the wild
    rank's own stands at face value), each with one (`rn`: reversed) keeps
    it or lets a spare wild card replace it.  The sets x of replaced
    naturals (at most the spare wild cards) come in lz_spares' order: by
    their indicator over s..top, the lowest rank most significant, which
    over reversed masks is counting up, so the next set is the next submask
    (skipping the extensions of a full set): O(1) a move, from tables.
    rspan: the ranks s..top, reversed."""
    cdef unsigned int mask = rn & rspan, d = rd & rspan
    cdef unsigned int t = LZ_RSET[d], x = 0, a, b
    cdef int nd = t & 15, holes = top - s + 1 - <int>(LZ_RSET[mask] & 15), n = 0, slack = g.nw - holes, i
    cdef u64 w = unit(g.wild), base = lz_rlanes(mask) + <u64>holes * w
    cdef u64 info0 = make_info(combo, top, top - s + 1), wb = <u64>(g.wild + 1) << 34, info = info0 | wb
    cdef u64 spare[5]       # spare[n]: the base and n spare wild cards (n <= slack <= 4)
    cdef bint fast = g.cap - g.n >= LZ_STRAIGHT_ROOM
    cdef MoveRec* p = slot(g, fast)
    p = put(g, p, base, info0 | ((<u64>t << 14) | wb if d else 0), fast)
    if slack == 1:
        # One spare wild card: the submasks are the single naturals, top rank first.
        base += w
        while mask:
            x = mask & (0u - mask)
            mask ^= x
            p = put(g, p, base - unit(R_ACE - ddz_ctz(x)), info | (<u64>LZ_RSET[d | x] << 14), fast)
        done(g, p, fast)
        return
    for i in range(5):
        spare[i] = base + <u64>i * w
    while True:
        # the next submask, or (all spare wild cards used) the next one
        # that is no extension of x: chosen without a branch (which went
        # either way, about one move in five: callgrind's branch simulation)
        a = (x - mask) & mask
        b = ((x | ~mask) + (x & (0u - x))) & mask
        x = b ^ ((a ^ b) & (0u - <unsigned int>(n < slack)))
        if x == 0:
            break
        t = LZ_RSET[d | x]
        n = <int>(t & 15) - nd
        if fast:
            prefetch_out(p)
        p = put(g, p, spare[n] - lz_rlanes(x), info | (<u64>t << 14), fast)
    done(g, p, fast)


cdef inline int lz_tops(int s, int end, int min_len, int lo, int fix_len, int* first) noexcept nogil:
    """The tops of the straights from rank s: from *first (min_len ranks
    long, or fix_len; main rank lo or higher) to before the returned end
    (`end`: one past the top the wild cards can reach; fix_len: one top)."""
    first[0] = s + (fix_len if fix_len else min_len) - 1
    if fix_len and end > first[0] + 1:
        end = first[0] + 1
    if first[0] < lo:
        first[0] = lo
    return end


cdef enum:
    # one wild card: a window of L units has <= 1 + L chains, and there are 13 - L of them
    LZ_STRAIGHTS1_ROOM = 300        # the sum over L = 5..12
    LZ_PAIR_CHAINS1_ROOM = 385      # the sum over L = 3..12


cdef void lz_chains1(Gen* g, int combo, int k, int min_len, int lo, int fix_len) noexcept nogil:
    """lz_chain's bare chains of k = 1 (straights) or 2 (pair chains) cards
    a unit with one wild card in hand (room for LZ_STRAIGHTS1_ROOM or
    LZ_PAIR_CHAINS1_ROOM moves was checked; fix_len >= min_len or 0);
    lz_chain's scratch (LzChain) is not used.  A window s..top has at most one
    unit a card short (`holes`: a rank with k - 1 naturals, or a
    straight's wild rank, whose card is then the wild card at face value),
    which the wild card fills (a stand-in, or face value); with none, its
    chains are the naturals' (k of each rank), then the wild card standing
    in for one natural of each rank in turn, top rank first.  A unit two
    cards short (`blocked`: a pair chain's rank without a natural, or its
    wild rank) ends the windows.  lz_straight's and lz_window's moves, in
    their order.  A window's naturals grow from the last one's by the top
    rank's lane of the units' naturals, read once (a lanes() a window cost
    about 10 instructions a move, most windows being one move, counted)."""
    cdef unsigned int natural = g.at_least[1] & 0xFFF & ~(1u << g.wild), holes, blocked, gaps, after, stops
    cdef unsigned int once = 0, twice = 0, none = 0, starts
    cdef int s, top, first, end, hole, c, i, length = fix_len if fix_len else min_len
    cdef u64 w = unit(g.wild), one = (<u64>(g.wild + 1) << 34) | (<u64>1 << 14), base, info, sub, lane
    cdef u64 nat = lanes(natural), step = (1 << 5) | (1 << 9)     # nat: each unit's naturals
    cdef MoveRec* p = g.out + g.n
    if k == 1:
        holes, blocked = ~natural & 0xFFF, 0
    else:
        holes, blocked = natural & ~g.at_least[2], ~natural & 0xFFF
        nat += lanes(natural & g.at_least[2])
    if length > R_ACE + 1:
        return
    # The starts whose shortest chain has at most one unit a card short and
    # none two (the others cost a pass each before: about 30 instructions, counted).
    for i in range(length):
        twice |= once & (holes >> i)
        once |= holes >> i
        none |= blocked >> i
    starts = ~(twice | none) & ((1u << (R_ACE + 2 - length)) - 1)
    while starts:
        s = ddz_ctz(starts)
        starts &= starts - 1
        # The chains from s end before its second unit short, its first
        # unit two short, or after A.
        after = 1u << (R_ACE + 1 - s)
        gaps = (holes >> s) & (after - 1) | after
        stops = (blocked >> s) & (after - 1)
        hole = s + ddz_ctz(gaps)
        end = s + ddz_ctz(gaps & (gaps - 1) | stops | after)
        end = lz_tops(s, end, min_len, lo, fix_len, &first)
        if first >= end:
            continue
        info = make_info(combo, first, first - s + 1)
        base = nat & lz_span(s, first + 1)
        lane = <u64>0xF << (4 * (first + 1))
        top = first
        # Windows without the hole: the naturals' chain, then the wild card
        # standing in for one natural of each rank, top rank first.
        while top < end and top < hole:
            prefetch_out(p)
            p.cards = base
            p.info = info
            p += 1
            sub = unit(top)
            for c in range(top, s - 1, -1):
                p.cards = base + w - sub
                p.info = info | one | (<u64>c << 18)
                p += 1
                sub >>= 4
            info += step
            base += nat & lane
            lane <<= 4
            top += 1
        # Windows with it: one move each, the wild card filling the hole.
        if top < end:
            base += w
            if hole != g.wild:      # (a pair chain's never is)
                info |= one | (<u64>hole << 18)
            while True:
                p.cards = base
                p.info = info
                p += 1
                top += 1
                if top == end:
                    break
                info += step
                base += nat & lane
                lane <<= 4
    g.n = p - g.out


cdef void lz_straights(Gen* g, int combo, int min_len, int lo, int fix_len) noexcept nogil:
    """lz_chain's chains of one card a unit (straights): windows s..top of
    at most nw ranks without a natural, from masks alone.  A window grows
    from the last by its top rank (its base cards, reading and stand-ins
    step by one unit), and one with at most one spare wild card (most of
    them) is written here; lz_straight makes the others (lz_chain's
    fix_len >= min_len or 0; with one wild card in hand and room for all,
    lz_chain calls lz_chains1 instead)."""
    cdef unsigned int natural = g.at_least[1] & 0xFFF & ~(1u << g.wild), gaps = ~natural & 0xFFF, h
    cdef unsigned int rn = lz_rev12(natural), rd = lz_rev12(gaps & ~(1u << g.wild)), rspan, mask, d, x
    cdef int s, top, first, end, i, holes
    cdef u64 w = unit(g.wild), wb = <u64>(g.wild + 1) << 34, base, info
    cdef MoveRec* p
    for s in range(R_ACE + 2 - min_len):
        # The straights from s end before its (nw + 1)-th gap (or after A).
        h = gaps >> s
        for i in range(g.nw):
            h &= h - 1
        end = s + ddz_ctz(h | (1u << (R_ACE + 1 - s)))
        end = lz_tops(s, end, min_len, lo, fix_len, &first)
        if first >= end:
            continue
        rspan = rank_span(R_ACE - first, R_ACE - s)
        info = make_info(combo, first, first - s + 1)
        for top in range(first, end):
            # Its wild cards: one a rank without a natural (the wild rank's at face value).
            holes = top - s + 1 - <int>(LZ_RSET[rn & rspan] & 15)
            if g.nw - holes > 1 or g.cap - g.n < 13:
                lz_straight(g, combo, s, top, rspan, rn, rd)
            else:
                d = rd & rspan
                base = lz_rlanes(rn & rspan) + <u64>holes * w
                p = g.out + g.n
                prefetch_out(p)
                p.cards = base
                p.info = info | (((<u64>LZ_RSET[d] << 14) | wb) if d else 0)
                p += 1
                if g.nw > holes:
                    # One spare wild card: it replaces each natural in turn, top rank first.
                    mask = rn & rspan
                    base += w
                    while mask:
                        x = mask & (0u - mask)
                        mask ^= x
                        p.cards = base - unit(R_ACE - ddz_ctz(x))
                        p.info = info | wb | (<u64>LZ_RSET[d | x] << 14)
                        p += 1
                g.n = p - g.out
            info += (1 << 5) | (1 << 9)
            rspan |= rspan >> 1


cdef void lz_chain(Gen* g, LzChain* ch, int combo, int k, int min_len, int kind, int lo,
                   int fix_len) noexcept nogil:
    """Chains with wild cards filling any units' gaps (docs/rules.md §7); as
    gen_chain.  ch: scratch whose base (lz_base) is reused while ch.k == k."""
    cdef int s, top, r, i, d, unit_size = k + kind
    cdef unsigned int units, starts, short
    if banned(g, combo):
        return
    if g.size:
        if g.size % unit_size or (fix_len and fix_len != g.size // unit_size):
            return
        fix_len = g.size // unit_size
    if fix_len:
        if fix_len < min_len:
            return
        min_len = fix_len
    if kind == 0 and k <= 2 and g.nw == 1 and (
            g.cap - g.n >= (LZ_STRAIGHTS1_ROOM if k == 1 else LZ_PAIR_CHAINS1_ROOM)):
        lz_chains1(g, combo, k, min_len, lo, fix_len)
        return
    if k == 1 and kind == 0:
        lz_straights(g, combo, min_len, lo, fix_len)
        return
    # Starts of min_len ranks that can each be a unit (k - nw naturals at least).
    units = lz_mains(g, max(0, k - g.nw), k, 0) & 0xFFF
    starts = units
    for i in range(1, min_len):
        starts &= units >> i
    if g.nw == 1:
        # One wild card fills one unit's deficit at most: no start of two deficient units.
        short = ~g.at_least[k] & 0xFFF
        for i in range(1, min_len):
            for r in range(i):
                starts &= ~((short >> i) & (short >> r))
    if not starts:
        return
    if ch.k != k:
        ch.k = k
        ch.natural = g.at_least[1] & 0xFFF & ~(1u << g.wild)
        lz_base(g, ch)
        lz_pool(g, &ch.pool)
        ch.nleaves = -1
    ch.combo, ch.kind = combo, kind
    if lo or fix_len:
        ch.nleaves = -1         # other main parts than a free lead's
    elif kind == 0 and k == 3:
        ch.nleaves = 0          # keep them (for the planes with kickers)
    elif ch.nleaves >= 0:
        # The free lead's bare chains of k, read again, with kickers.
        for i in range(ch.nleaves):
            s, top = ch.leaf_s[i], info_main(ch.leaf_info[i])
            lz_kick(g, &ch.pool, ch.leaf_cards[i], (ch.leaf_info[i] & ~(<u64>0x1F)) | <u64>combo,
                    kind, top - s + 1, s, top, ch.leaf_left[i])
        return
    while starts:
        s = ddz_ctz(starts)
        starts &= starts - 1
        top = s + min_len - 1
        d = lz_need(ch, s, top + 1)
        if d > g.nw:
            continue
        # The window s..top grows rank by rank, its stand-in nibbles (at most nw)
        # and the wild cards its base needs (d) with it.
        ch.s, ch.standins, ch.nst = s, 0, 0
        for r in range(s, top):
            lz_stand(ch, r)
        while not (fix_len and top - s + 1 > fix_len):
            lz_stand(ch, top)
            if top >= lo:
                ch.top = top
                lz_window(g, ch, d)
            top += 1
            if top > R_ACE:
                break
            d += k - <int>((ch.kept >> (4 * top)) & 0xF)
            if d > g.nw:
                break


cdef void lz_bombs(Gen* g, int beat) noexcept nogil:
    """Soft, hard and pure wild bombs and the rocket whose power exceeds `beat`."""
    cdef int x, a, c, least = max(1, 4 - g.nw)
    cdef unsigned int mains = lz_mains(g, least, 4, 0)
    cdef u64 w, info
    if size_ok(g, 4):
        while mains:
            x = ddz_ctz(mains)
            mains &= mains - 1
            if x == g.wild:
                if 16 * 14 + x > beat:
                    emit(g, 4 * unit(x), make_info(C_WILD_BOMB, x, 1))
                continue
            c = count_of(g.naturals, x)
            if c == 4 and 16 + x > beat and not banned(g, C_BOMB):
                emit(g, 4 * unit(x), make_info(C_BOMB, x, 1))
            if x > beat:
                for a in range(min(3, c), least - 1, -1):
                    emit(g, <u64>a * unit(x) + <u64>(4 - a) * unit(g.wild),
                         lz_info(g, C_SOFT_BOMB, x, 1, 4 - a, subs(x, 4 - a)))
    if size_ok(g, 2) and (g.pool1 >> R_SMALL) == 3 and 16 * 15 > beat:
        emit(g, unit(R_SMALL) + unit(R_BIG), make_info(C_ROCKET, R_BIG, 1))


cdef inline void lz_type(Gen* g, int combo, int lo, int fix_len, LzChain* ch, LzParts* parts) noexcept nogil:
    """Every laizi move of one (non-bomb) combination type, main rank >= lo
    (ch: chains' scratch shared across types, see lz_chain; parts: the
    trios' and quads' main parts, see lz_parts)."""
    if combo == C_SINGLE:
        gen_sets(g, C_SINGLE, 1, lo, 0x7FFF)       # naturals
        if lo <= g.wild and size_ok(g, 1):           # a wild card alone: face value
            emit(g, unit(g.wild), make_info(C_SINGLE, g.wild, 1))
    elif combo == C_PAIR or combo == C_TRIO:
        lz_sets(g, combo, combo, lo)
    elif combo == C_TRIO_SINGLE or combo == C_TRIO_PAIR:
        lz_with_kickers(g, parts, combo, 3, combo - C_TRIO, 1, lo)
    elif combo == C_FOUR_TWO_SINGLE or combo == C_FOUR_TWO_PAIR:
        lz_with_kickers(g, parts, combo, 4, combo - C_FOUR_TWO_SINGLE + 1, 2, lo)
    elif combo == C_STRAIGHT:
        lz_chain(g, ch, combo, 1, 5, 0, lo, fix_len)
    elif combo == C_PAIR_CHAIN:
        lz_chain(g, ch, combo, 2, 3, 0, lo, fix_len)
    elif combo == C_PLANE or combo == C_PLANE_SINGLE or combo == C_PLANE_PAIR:
        lz_chain(g, ch, combo, 3, 2, combo - C_PLANE, lo, fix_len)


cdef void lz_combo(Gen* g, int combo, int lo, int fix_len) noexcept nogil:
    """lz_type with scratch of its own (a follow: one type)."""
    cdef LzChain ch
    cdef LzParts parts
    ch.k = 0
    parts.k = 0
    lz_type(g, combo, lo, fix_len, &ch, &parts)


# lz_all stays a function of its own (gcc and clang): inlined into generate(),
# which calls it once, it makes generate() too big to be inlined into the
# batch loop, and every one-deck position would pay a call and its set-up.
cdef extern from *:
    """
    #if defined(__GNUC__)
    struct __pyx_t_7ddzcore_7_kernel_Gen;
    static void __pyx_f_7ddzcore_7_kernel_lz_all(struct __pyx_t_7ddzcore_7_kernel_Gen *) __attribute__((noinline));
    #endif
    """


cdef void lz_all(Gen* g) noexcept nogil:
    """Every laizi move of a free lead, type by type (the planes share their
    main parts).  One lz_type call a type, each with its combo a constant:
    a loop over the combos made lz_type a jump table, an indirect branch a
    type that mispredicted 7 times a position (callgrind's branch simulation)."""
    cdef LzChain ch
    cdef LzParts parts
    ch.k = 0
    parts.k = 0
    lz_type(g, C_SINGLE, 0, 0, &ch, &parts)
    lz_type(g, C_PAIR, 0, 0, &ch, &parts)
    lz_type(g, C_TRIO, 0, 0, &ch, &parts)
    lz_type(g, C_TRIO_SINGLE, 0, 0, &ch, &parts)
    lz_type(g, C_TRIO_PAIR, 0, 0, &ch, &parts)
    lz_type(g, C_STRAIGHT, 0, 0, &ch, &parts)
    lz_type(g, C_PAIR_CHAIN, 0, 0, &ch, &parts)
    lz_type(g, C_PLANE, 0, 0, &ch, &parts)
    lz_type(g, C_PLANE_SINGLE, 0, 0, &ch, &parts)
    lz_type(g, C_PLANE_PAIR, 0, 0, &ch, &parts)
    lz_type(g, C_FOUR_TWO_SINGLE, 0, 0, &ch, &parts)
    lz_type(g, C_FOUR_TWO_PAIR, 0, 0, &ch, &parts)
    lz_bombs(g, -1)


# ---------------------------------------------------------------- DouZero's reading (F_DZ_READ)

cdef enum:
    DZ_WRONG = 0x1F      # a combo value no reading has: DouZero's TYPE_15_WRONG


cdef inline bint dz_run(unsigned int ranks) noexcept nogil:
    """Whether the set ranks are consecutive within 3..A (DouZero's
    is_continuous_seq over its card codes: A and 2 are not adjacent)."""
    cdef unsigned int low = ranks & (0u - ranks)
    if ranks == 0:
        return False
    if ranks == low:               # one rank: trivially continuous
        return True
    return (ranks & ~0xFFFu) == 0 and ((ranks + low) & ranks) == 0


cdef u64 dz_read(u64 cards) noexcept nogil:
    """How DouZero's move_detector.get_move_type reads a card set, as a
    reading (combo, main, length); combo DZ_WRONG for TYPE_15_WRONG.

    It reads the cards alone, in DouZero's order of tests: a continuous run
    of singles before 3+2, 4+2 (6 cards) and 4+2+2 (8 cards; two quads
    too) before chains; 12 cards of four consecutive trios are a plane, not
    a plane with single wings; four trios with one out of line are a
    three-trio plane with those three cards as wings; a four in the wings
    of a plane is no type.
    """
    cdef int n = card_total(cards), r, c, distinct = 0, top = -1, qtop = -1
    cdef int cnt[5]
    cdef unsigned int m[5]
    cdef unsigned int s3, hi, lo
    for c in range(5):
        cnt[c] = 0
        m[c] = 0
    for r in range(N_RANKS):
        c = count_of(cards, r)
        if c:
            distinct += 1
            cnt[c] += 1
            m[c] |= 1u << r
            top = r
            if c == 4:
                qtop = r
    if n == 1:
        return make_info(C_SINGLE, top, 1)
    if n == 2:
        if cnt[2] == 1:
            return make_info(C_PAIR, top, 1)
        if m[1] == (1u << R_SMALL | 1u << R_BIG):
            return make_info(C_ROCKET, R_BIG, 1)
        return DZ_WRONG
    if n == 3:
        return make_info(C_TRIO, top, 1) if cnt[3] == 1 else DZ_WRONG
    if n == 4:
        if cnt[4] == 1:
            return make_info(C_BOMB, top, 1)
        if cnt[3] == 1 and cnt[1] == 1:
            return make_info(C_TRIO_SINGLE, ddz_ctz(m[3]), 1)
        return DZ_WRONG
    if cnt[1] == distinct and dz_run(m[1]):
        return make_info(C_STRAIGHT, top, n)
    if n == 5:
        # DouZero's rank is the middle card: the trio of 3+2
        return make_info(C_TRIO_PAIR, ddz_ctz(m[3]), 1) if distinct == 2 and cnt[3] == 1 else DZ_WRONG
    if n == 6 and (distinct == 2 or distinct == 3) and cnt[4] == 1 and (cnt[2] == 1 or cnt[1] == 2):
        return make_info(C_FOUR_TWO_SINGLE, qtop, 1)
    if n == 8 and (((distinct == 2 or distinct == 3) and cnt[4] == 1 and cnt[2] == 2) or cnt[4] == 2):
        return make_info(C_FOUR_TWO_PAIR, qtop, 1)
    if cnt[2] == distinct and dz_run(m[2]):
        return make_info(C_PAIR_CHAIN, top, distinct)
    if cnt[3] == distinct and dz_run(m[3]):
        return make_info(C_PLANE, top, distinct)
    if cnt[3] >= 2:
        if cnt[4]:
            return DZ_WRONG
        s3 = m[3]
        if dz_run(s3):
            hi = 31 - __builtin_clz_u(s3)
            if cnt[3] == cnt[1] + 2 * cnt[2]:
                return make_info(C_PLANE_SINGLE, hi, cnt[3])
            if cnt[3] == cnt[2] and distinct == 2 * cnt[3]:
                return make_info(C_PLANE_PAIR, hi, cnt[3])
        if cnt[3] == 4:
            lo = s3 & (0u - s3)
            hi = 31 - __builtin_clz_u(s3)
            if dz_run(s3 & ~lo):
                return make_info(C_PLANE_SINGLE, hi, 3)
            if dz_run(s3 & ~(1u << hi)):
                return make_info(C_PLANE_SINGLE, 31 - __builtin_clz_u(s3 & ~(1u << hi)), 3)
    return DZ_WRONG


cdef void dz_planes(Gen* g, u64 last_cards, int length) noexcept nogil:
    """DouZero's answers to a plane with single wings: every such plane of
    the same length whose highest rank held exactly three times, wings
    included, is above the last move's (generated aside, then filtered, so
    that emit stays a plain store)."""
    cdef MoveRec tmp[1024]          # one plane length of one hand: well under 1024
    cdef MoveRec* out = g.out
    cdef Py_ssize_t n = g.n, cap = g.cap, i, k
    cdef int beat = top_trio(last_cards)
    g.out, g.n, g.cap = tmp, 0, 1024
    gen_combo(g, C_PLANE_SINGLE, 0, length)
    k = g.n if g.n < 1024 else 1024
    g.out, g.n, g.cap = out, n, cap
    for i in range(k):
        if top_trio(tmp[i].cards) > beat:
            emit(g, tmp[i].cards, tmp[i].info)


# ---------------------------------------------------------------- counting in closed form
#
# count_lead (a free lead) and count_follow (an answer) give the number of
# moves the generator writes for a one-deck position (docs/rules.md §2-3,
# §9) without walking any of them: everything comes from the hand word's
# lanes words (bit 4r set when rank r holds >= k cards, k = 1..4), their
# ranks_in (a popcount) and two tables, CHAINS (chains over the ranks,
# indexed through a magic multiply) and KSETS (kicker multisets).  Sets,
# bombs and the rocket are popcounts, chains one look-up a kind (a
# follow's, of one length, a popcount); a trio's single or pair kicker is
# any other rank holding one or two cards; the kickers of a plane are the
# multisets of `need` cards of the ranks outside the main part where rank r
# may give up to cap(r) cards (kicker_cap's rule: its count, at most 3, 4
# with wing_bomb or kicker_bomb, 1 without kicker_repeat; at most 2 next
# to a plane without wing_trio_adjacent), less those holding both jokers
# without jokers_both_kickers: the coefficient of x^need in the product of
# (1 + x + ... + x^cap(r)); a four's two kickers (need 2) are the same for
# every quad of the hand, in closed form (four_two_each).  A lead's banned
# kinds are subtracted from the count of all kinds (one branch a batch
# predicts); planes are counted apart (count_planes: about one hand in
# ten).  Wild cards in the hand, two decks, shuttles
# and DouZero's reading keep the generator's own count (gen_moves with no
# room).  tests/test_count_lead.py checks both against the written moves.

cdef enum:
    KMAX = 16               # kicker multisets of up to 15 cards (one deck: at most 12 wings)

cdef extern from *:
    """
    #define DDZ_ONES 0x111111111111111ULL       /* one bit a rank nibble (ranks 3..R) */
    #define DDZ_CHAIN_ONES 0x111111111111ULL    /* ranks 3..A (chains) */
    #define DDZ_PAIR_ONES 0x1111111111111ULL    /* ranks 3..2 (pairs, trios, quads: no jokers) */
    #define DDZ_JOKERS 0x110000000000000ULL     /* the small and big joker */
    """
    const u64 ONES "DDZ_ONES"
    const u64 CHAIN_ONES "DDZ_CHAIN_ONES"
    const u64 PAIR_ONES "DDZ_PAIR_ONES"
    const u64 JOKERS "DDZ_JOKERS"

# KSETS[c - 1][m][k]: the coefficient of x^k in (1 + x + ... + x^c)^m, the
# ways to pick k kickers from m ranks that may each give up to c cards.
cdef int64_t KSETS[4][N_RANKS + 1][KMAX]


cdef inline int ranks_in(u64 x) noexcept nogil:
    """How many ranks a lanes word holds: the multiply by ONES << 4 sums
    its 15 bits into the top nibble (no nibble of the running sums exceeds
    15), which the shift takes alone (no mask)."""
    return <int>((x * (ONES << 4)) >> 60)


# CHAINS[kind][i]: the chains at least 2, 3 or 5 long (kind CH_PLANE,
# CH_PAIR_CHAIN, CH_STRAIGHT: planes, pair chains, straights) over the ranks
# of a lanes word x within 3..A, at i = (x * MAGIC_...) >> 52: one multiply
# gathers x's 12 bits into a 12-bit index, as magic bitboards do (three
# shift-or-mask folds did it before, twice a lead).  Different x may share
# an index when their chains are as many; each magic was found by a random
# search over sparse 64-bit numbers (ANDs of three random words), and
# _count_fill checks every x against it (the import fails otherwise).
cdef enum:
    CH_PLANE = 0
    CH_PAIR_CHAIN = 1
    CH_STRAIGHT = 2

cdef extern from *:
    """
    #define DDZ_MAGIC_PLANE 0x0800100400820000ULL
    #define DDZ_MAGIC_PAIR_CHAIN 0x0080040020030004ULL
    #define DDZ_MAGIC_STRAIGHT 0x1c80010020040010ULL
    """
    const u64 MAGIC_PLANE "DDZ_MAGIC_PLANE"
    const u64 MAGIC_PAIR_CHAIN "DDZ_MAGIC_PAIR_CHAIN"
    const u64 MAGIC_STRAIGHT "DDZ_MAGIC_STRAIGHT"

cdef unsigned char CHAINS[3][4096]


cdef inline unsigned int chain_index(int kind, u64 x) noexcept nogil:
    """x's index in CHAINS[kind] (x a lanes word within 3..A)."""
    return <unsigned int>((x * (MAGIC_PLANE if kind == CH_PLANE else MAGIC_PAIR_CHAIN
                                 if kind == CH_PAIR_CHAIN else MAGIC_STRAIGHT)) >> 52)


cdef inline Py_ssize_t chains(int kind, u64 x) noexcept nogil:
    """Chains of `kind` (at least 2, 3 or 5 long) over `x` (a lanes word within 3..A)."""
    return CHAINS[kind][chain_index(kind, x)]


cdef bint _count_fill() noexcept:
    """Fill CHAINS and KSETS; False if a magic index mixes two chain counts."""
    cdef int c, m, k, i, x, r, start, length, kind
    cdef int64_t s
    cdef unsigned int at
    cdef u64 w
    cdef int count
    cdef int min_len[3]
    min_len[:] = [2, 3, 5]
    memset(CHAINS, 0xFF, sizeof(CHAINS))
    for x in range(4096):
        w = 0
        for r in range(12):
            if (x >> r) & 1:
                w |= <u64>1 << (4 * r)
        for kind in range(3):
            count = 0
            for start in range(12):     # the run of x from start is `length` long
                length = ddz_ctz(~(<unsigned int>x >> start))
                if length >= min_len[kind]:
                    count += length - min_len[kind] + 1
            at = chain_index(kind, w)
            if CHAINS[kind][at] != 0xFF and CHAINS[kind][at] != count:
                return False
            CHAINS[kind][at] = count
    for c in range(4):
        for k in range(KMAX):
            KSETS[c][0][k] = 1 if k == 0 else 0
        for m in range(1, N_RANKS + 1):
            for k in range(KMAX):
                s = 0
                for i in range(min(k, c + 1) + 1):
                    s += KSETS[c][m - 1][k - i]
                KSETS[c][m][k] = s
    return True


if not _count_fill():
    raise ImportError("ddzcore: a CHAIN_MAGIC multiplier mixes two chain counts")


cdef int64_t kicker_sets(int need, int n1, int n2, int n3, int n4) noexcept nogil:
    """Multisets of `need` kickers from n1 ranks giving at most one card,
    n2 at most two, n3 at most three and n4 at most four (0 if need < 0)."""
    cdef int64_t a[KMAX]
    cdef int64_t s, n = n1 + n2 + n3 + n4
    cdef int c, m, k, i
    if need <= 2:   # none; one of n ranks; two ranks, or two of a rank that gives two
        return 0 if need < 0 else 1 if need == 0 else n if need == 1 else n * (n - 1) // 2 + n - n1
    for k in range(need + 1):
        a[k] = KSETS[0][n1][k]
    for c in range(1, 4):
        m = n2 if c == 1 else n3 if c == 2 else n4
        if m == 0:
            continue
        for k in range(need, -1, -1):   # a[k] from a[0..k]: in place, highest first
            s = 0
            for i in range(k + 1):
                s += a[i] * KSETS[c][m][k - i]
            a[k] = s
    return a[need]


cdef struct Lanes:
    u64 at_least[5]         # at_least[k]: bit 4r set when rank r holds >= k cards (k = 1..4)
    int most                # the most single kickers a rank may give (kicker_cap) } kicker_rules:
    int flags               #                                                       } for wings


cdef int64_t single_kickers(Lanes* h, int need, u64 main, u64 adjacent) noexcept nogil:
    """Multisets of `need` single kickers outside the main part's ranks
    `main` (a lanes word), at most 2 of a rank in `adjacent` (kick_singles)."""
    cdef u64 q1 = h.at_least[1] & ~main, q2, q3, q4
    cdef int c1 = ranks_in(q1), c2, c3, c4
    cdef int64_t n
    if h.most == 1:
        c2 = c3 = c4 = 0
    else:
        q2 = h.at_least[2] & ~main
        q3 = h.at_least[3] & ~main & ~adjacent
        q4 = h.at_least[4] & ~main & ~adjacent if h.most >= 4 else 0
        c2, c3, c4 = ranks_in(q2), ranks_in(q3), ranks_in(q4)
        c1, c2, c3 = c1 - c2, c2 - c3, c3 - c4
    n = kicker_sets(need, c1, c2, c3, c4)
    if not (h.flags & F_JOKERS_BOTH) and (q1 & JOKERS) == JOKERS:
        n -= kicker_sets(need - 2, c1 - 2, c2, c3, c4)   # those holding both jokers
    return n


cdef int64_t pair_kickers(Lanes* h, int need, u64 main) noexcept nogil:
    """Sets of `need` kicker pairs outside `main` (kick_pairs): distinct
    ranks, or with kicker_bomb up to two pairs of a rank of four."""
    cdef int c2 = ranks_in(h.at_least[2] & PAIR_ONES & ~main), c4 = 0
    if h.flags & F_KICKER_BOMB:
        c4 = ranks_in(h.at_least[4] & PAIR_ONES & ~main)
    return kicker_sets(need, c2 - c4, c4, 0, 0)


cdef inline void at_least_of(Lanes* h, u64 w) noexcept nogil:
    """The at-least lanes words of the hand w (one deck: counts 0..4)."""
    h.at_least[1] = (w | (w >> 1) | (w >> 2)) & ONES
    h.at_least[2] = ((w >> 1) | (w >> 2)) & ONES
    h.at_least[3] = ((w & (w >> 1)) | (w >> 2)) & ONES
    h.at_least[4] = (w >> 2) & ONES


cdef inline void kicker_rules(Lanes* h, int flags) noexcept nogil:
    """What wings need besides the lanes: the kicker rules of `flags`
    (kicker_cap's most single kickers a rank gives)."""
    h.flags = flags
    h.most = (4 if flags & (F_KICKER_BOMB | F_WING_BOMB) else 3) if flags & F_KICKER_REPEAT else 1


cdef int64_t wings(Lanes* h, int combo, int length, u64 main) noexcept nogil:
    """The wings of the plane `main` (a lanes word of `length` ranks):
    `length` single kickers (C_PLANE_SINGLE) or kicker pairs (C_PLANE_PAIR)."""
    cdef u64 adjacent = 0
    if combo == C_PLANE_PAIR:
        return pair_kickers(h, length, main)
    if not (h.flags & F_WING_TRIO_ADJ):   # RLCard (with_kickers)
        adjacent = ((main << 4) | (main >> 4)) & CHAIN_ONES & ~main
    return single_kickers(h, length, main, adjacent)


cdef int64_t wings_call(Lanes* h, int combo, int length, u64 main) noexcept nogil:
    """wings, called (not inlined): count_follow's planes with wings."""
    return wings(h, combo, length, main)


cdef inline int allows(unsigned int ban, int combo) noexcept nogil:
    """1 if combo is a move under the banned mask `ban`, else 0."""
    return <int>((~ban >> combo) & 1)


cdef inline Py_ssize_t count_lead(u64 hand, int flags) noexcept nogil:
    """The number of moves generate writes for a one-deck free lead of
    `hand` without wild cards (docs/rules.md §2, §9), in closed form (see
    "counting a free lead").  Inline, so a batch's loop keeps it whole; the
    rarer planes are counted apart (count_planes)."""
    cdef Lanes h
    cdef unsigned int ban = banned_mask(flags)
    cdef u64 trios, quads
    cdef Py_ssize_t n, n1, n2, n3, n4, straights, pair_chains
    at_least_of(&h, hand)
    n1, n2, n3 = ranks_in(h.at_least[1]), ranks_in(h.at_least[2] & PAIR_ONES), ranks_in(h.at_least[3] & PAIR_ONES)
    straights = chains(CH_STRAIGHT, h.at_least[1] & CHAIN_ONES)
    pair_chains = chains(CH_PAIR_CHAIN, h.at_least[2] & CHAIN_ONES)
    # Singles, pairs, trios bare and with one kicker (any other rank:
    # docs/rules.md §2), bare chains, the rocket...
    n = n1 + n2 + n3 * (n1 + n2 - 1) + straights + pair_chains + both_jokers(hand)
    if ban:     # ...less the banned kinds (singles and pairs cannot be banned)
        n -= ((ban >> C_TRIO) & 1) * n3 + ((ban >> C_TRIO_SINGLE) & 1) * n3 * (n1 - 1) \
            + ((ban >> C_TRIO_PAIR) & 1) * n3 * (n2 - 1) + ((ban >> C_STRAIGHT) & 1) * straights \
            + ((ban >> C_PAIR_CHAIN) & 1) * pair_chains
    trios = h.at_least[3] & CHAIN_ONES
    if trios & (trios >> 4):
        n += count_planes(hand, ban, flags)
    quads = h.at_least[4] & PAIR_ONES
    if quads:   # bombs and fours with two
        n4 = ranks_in(quads)
        n += n4 * (allows(ban, C_BOMB) + four_two_each(flags, allows(ban, C_FOUR_TWO_SINGLE),
                                                       allows(ban, C_FOUR_TWO_PAIR), n1, n2, n4, hand))
    return n


# count_planes, count_lead_call and wings_call stay functions of their own
# (gcc): count_planes inlined into count_lead (its only caller) made every
# lead pay the registers the planes need, about 20 instructions; count_lead
# inlined into generate() (through count_closed) cost each generate() call
# the same set-up, 4 % more perft instructions; wings inlined into
# count_follow, 5 % more of its instructions (perft), for the few follows
# of a plane with wings.  count_lead is inline for the batches' count loop
# (count_only, through count_closed), wings in count_planes.
cdef extern from *:
    """
    #if defined(__GNUC__)
    static Py_ssize_t __pyx_f_7ddzcore_7_kernel_count_planes(uint64_t, unsigned int, int) __attribute__((noinline));
    static Py_ssize_t __pyx_f_7ddzcore_7_kernel_count_lead_call(uint64_t, int) __attribute__((noinline));
    struct __pyx_t_7ddzcore_7_kernel_Lanes;
    static int64_t __pyx_f_7ddzcore_7_kernel_wings_call(struct __pyx_t_7ddzcore_7_kernel_Lanes *, int, int, uint64_t) __attribute__((noinline));
    #endif
    """


cdef Py_ssize_t count_planes(u64 hand, unsigned int ban, int flags) noexcept nogil:
    """The planes of a free lead of `hand`, bare and with wings (the hand
    holds two adjacent trios within 3..A).  From the hand word, not
    count_lead's lanes: a pointer to them would keep them in memory."""
    cdef Lanes h
    cdef Py_ssize_t n = 0
    cdef u64 trios, starts, main
    cdef int s, top, end
    at_least_of(&h, hand)
    kicker_rules(&h, flags)
    trios = h.at_least[3] & CHAIN_ONES
    starts = trios & (trios >> 4)
    if allows(ban, C_PLANE):
        n += chains(CH_PLANE, trios)
    # Each chain of trios (start s, top `top`) with its kickers.
    while starts:
        s = ddz_ctz64(starts) >> 2
        starts &= starts - 1
        end = s + (ddz_ctz64(~(trios >> (4 * s)) & ONES) >> 2)   # one past the run's top
        for top in range(s + 1, end):
            main = run_word(s, top - s + 1, 1)
            if allows(ban, C_PLANE_SINGLE):
                n += wings(&h, C_PLANE_SINGLE, top - s + 1, main)
            if allows(ban, C_PLANE_PAIR):
                n += wings(&h, C_PLANE_PAIR, top - s + 1, main)
    return n


cdef inline Py_ssize_t both_jokers(u64 hand) noexcept nogil:
    """1 if the (one-deck) hand holds both jokers (ranks 13 and 14), else 0."""
    return <Py_ssize_t>((hand >> (4 * 13)) & (hand >> (4 * 14)) & 1)


cdef inline Py_ssize_t four_two_each(int flags, int singles, int pairs, Py_ssize_t n1, Py_ssize_t n2,
                                     Py_ssize_t n4, u64 hand) noexcept nogil:
    """The fours with two singles (times `singles`, 0 or 1) and with two
    pairs (times `pairs`) of any one of the hand's n4 quads, n1 ranks held,
    n2 of them at least twice (no jokers).
    Two single kickers from the n1 - 1 other ranks: two ranks, or (with
    kicker_repeat) two of one of the n2 - 1 other pairs, less the two
    jokers together without jokers_both_kickers; two kicker pairs: two of
    the n2 - 1 other pairs, or (kicker_bomb) both pairs of one of the n4 - 1
    other quads.  The same for every quad: a quad's rank is one of each."""
    cdef Py_ssize_t single, pair
    if not (flags & F_FOUR_TWO):
        return 0
    single = (n1 - 1) * (n1 - 2) // 2
    if flags & F_KICKER_REPEAT:
        single += n2 - 1
    if not (flags & F_JOKERS_BOTH):
        single -= both_jokers(hand)
    pair = (n2 - 1) * (n2 - 2) // 2
    if flags & F_KICKER_BOMB:
        pair += n4 - 1
    return singles * single + pairs * pair


cdef inline Py_ssize_t bombs(Lanes* h, unsigned int ban, int beat) noexcept nogil:
    """Bombs and the rocket of power above `beat` (bomb_power; -1: all)."""
    cdef Py_ssize_t n = 0
    cdef u64 quads = h.at_least[4] & PAIR_ONES
    if not (ban >> C_BOMB) & 1 and beat < 16 + R_TWO:   # a bomb of rank r has power 16 + r
        if beat >= 16:
            quads &= ~((<u64>1 << (4 * (beat - 15))) - 1)
        n += ranks_in(quads)
    if (h.at_least[1] & JOKERS) == JOKERS and beat < 16 * 15:
        n += 1      # the rocket
    return n


cdef Py_ssize_t count_follow(u64 hand, u64 last_cards, u64 last_info, int flags) noexcept nogil:
    """The number of moves generate writes for a one-deck hand without wild
    cards answering (last_cards, last_info) (docs/rules.md §2-3), in closed
    form: pass, the moves of the same type (and length) with a higher main
    rank, the bombs and the rocket that beat it."""
    cdef Lanes h
    cdef unsigned int ban = banned_mask(flags)
    cdef int combo = info_combo(last_info), lo = info_main(last_info) + 1, length = info_length(last_info)
    cdef int k, i, s
    cdef Py_ssize_t n = 1       # pass
    cdef u64 above = ~((<u64>1 << (4 * lo)) - 1), starts
    at_least_of(&h, hand)
    if is_bomb_combo(combo):
        if is_top_bomb(last_cards, last_info, flags):
            return 1
        return n + bombs(&h, ban, bomb_power(last_cards, last_info, flags))
    if (ban >> combo) & 1:
        pass
    elif combo == C_SINGLE:
        n += ranks_in(h.at_least[1] & above)
    elif combo <= C_TRIO:
        n += ranks_in(h.at_least[combo] & PAIR_ONES & above)
    elif combo <= C_TRIO_PAIR:
        n += ranks_in(h.at_least[3] & PAIR_ONES & above) * (
            ranks_in(h.at_least[1]) - 1 if combo == C_TRIO_SINGLE else ranks_in(h.at_least[2] & PAIR_ONES) - 1)
    elif combo <= C_PLANE_PAIR:
        # Chains of exactly `length` units, top rank >= lo: starts >= lo - length + 1.
        k = 1 if combo == C_STRAIGHT else 2 if combo == C_PAIR_CHAIN else 3
        if length >= (5 if k == 1 else 3 if k == 2 else 2):
            starts = h.at_least[k] & CHAIN_ONES
            for i in range(1, length):
                starts &= starts >> 4
            if lo - length + 1 > 0:
                starts &= ~((<u64>1 << (4 * (lo - length + 1))) - 1)
            if combo <= C_PLANE:
                n += ranks_in(starts)
            elif starts:
                kicker_rules(&h, flags)
                while starts:
                    s = ddz_ctz64(starts) >> 2
                    starts &= starts - 1
                    n += wings_call(&h, combo, length, run_word(s, length, 1))
    elif combo <= C_FOUR_TWO_PAIR and flags & F_FOUR_TWO:
        n += ranks_in(h.at_least[4] & PAIR_ONES & above) * four_two_each(
            flags, combo == C_FOUR_TWO_SINGLE, combo == C_FOUR_TWO_PAIR, ranks_in(h.at_least[1]),
            ranks_in(h.at_least[2] & PAIR_ONES), ranks_in(h.at_least[4] & PAIR_ONES), hand)
    return n + bombs(&h, ban, -1)


cdef inline bint counts_closed(u64 hand, int flags) noexcept nogil:
    """Whether count_lead / count_follow count this position: one deck, no
    shuttles, no DouZero reading, no wild card in hand."""
    cdef int wild = ((flags >> 8) & 0xF) - 1
    return not (flags & (F_TWO_DECKS | F_SHUTTLE | F_DZ_READ)) and (wild < 0 or count_of(hand, wild) == 0)


cdef inline Py_ssize_t count_closed(u64 hand, u64 last_cards, u64 last_info, int flags) noexcept nogil:
    """count_lead or count_follow (counts_closed holds)."""
    if info_combo(last_info) == C_PASS:
        return count_lead(hand, flags)
    return count_follow(hand, last_cards, last_info, flags)


cdef Py_ssize_t count_lead_call(u64 hand, int flags) noexcept nogil:
    """count_lead, called (not inlined): generate()'s count of a lead without room."""
    return count_lead(hand, flags)


cdef inline bint is_top_bomb(u64 cards, u64 info, int flags) noexcept nogil:
    """The rocket (one deck) or four jokers (two decks): nothing can answer it."""
    if flags & F_TWO_DECKS:
        return info_combo(info) == C_JOKER_BOMB and card_total(cards) == 4
    return info_combo(info) == C_ROCKET


cdef Py_ssize_t generate(u64 hand, u64 last_cards, u64 last_info, int flags,
                         MoveRec* out, Py_ssize_t cap) noexcept nogil:
    """All legal moves of `hand` (docs/rules.md §2-3) into out[0:cap]; returns the count.

    last_info's combo C_PASS means a free lead (pass is not legal); otherwise
    pass comes first, then the same type with a higher main rank, then every
    bomb that beats the last move.  After the top bomb only pass is legal.
    With no room (cap 0) the moves are only counted: in closed form where
    count_closed applies.
    """
    if cap == 0 and counts_closed(hand, flags):    # count_closed, count_lead called
        if info_combo(last_info) == C_PASS:
            return count_lead_call(hand, flags)
        return count_follow(hand, last_cards, last_info, flags)
    return gen_moves(hand, last_cards, last_info, flags, out, cap)


cdef Py_ssize_t gen_moves(u64 hand, u64 last_cards, u64 last_info, int flags,
                          MoveRec* out, Py_ssize_t cap) noexcept nogil:
    """generate() through the generator (counting past cap); the batches'
    fill calls it directly, so the closed-form dispatch stays out of its loop."""
    cdef Gen g
    cdef int combo = info_combo(last_info), beat
    setup(&g, hand, flags, out, cap)
    if combo == C_PASS:
        if g.nw:
            lz_all(&g)
        else:
            gen_all(&g)
        return g.n
    emit(&g, 0, make_info(C_PASS, 0, 0))
    if flags & F_DZ_READ:
        last_info = dz_read(last_cards)
        if info_combo(last_info) == DZ_WRONG:   # no type: only bombs and the rocket answer
            gen_bombs(&g, -1)
            return g.n
        combo = info_combo(last_info)
    beat = -1
    if is_bomb_combo(combo):
        if is_top_bomb(last_cards, last_info, flags):
            return g.n
        beat = bomb_power(last_cards, last_info, flags)
    if g.nw:
        if beat < 0:
            lz_combo(&g, combo, info_main(last_info) + 1, info_length(last_info))
        lz_bombs(&g, beat)
    else:
        if beat < 0 and combo == C_PLANE_SINGLE and flags & F_DZ_READ:
            dz_planes(&g, last_cards, info_length(last_info))
        elif beat < 0:
            gen_combo(&g, combo, info_main(last_info) + 1, info_length(last_info),
                      card_total(last_cards) if combo == C_SHUTTLE else 0)
        gen_bombs(&g, beat)
    return g.n


cdef Py_ssize_t classify(u64 cards, int flags, MoveRec* out, Py_ssize_t cap) noexcept nogil:
    """Every reading of exactly `cards` (docs/rules.md §2) into out; returns the count.

    Generates from the card set itself, keeping only moves of its whole size:
    such a move uses every card, so no other filter is needed.
    """
    cdef Gen g
    cdef int combo
    setup(&g, cards, flags, out, cap)
    g.size = card_total(cards)
    if cards == 0:
        return 0
    if g.nw:
        lz_all(&g)
    else:
        gen_all(&g)
    return g.n


cdef bint beats(u64 cards, u64 info, u64 last_cards, u64 last_info, int flags) noexcept nogil:
    """Whether the move (cards, info) beats the last move (docs/rules.md §2 comparing)."""
    cdef int p = bomb_power(cards, info, flags), q = bomb_power(last_cards, last_info, flags)
    if info_combo(last_info) == C_PASS or info_combo(info) == C_PASS:
        return False
    if p >= 0 or q >= 0:
        return p > q
    return (info_combo(info) == info_combo(last_info)
            and info_length(info) == info_length(last_info)
            and card_total(cards) == card_total(last_cards)
            and info_main(info) > info_main(last_info))


cdef inline u64 full_deck(int flags) noexcept nogil:
    """The whole deck(s) as a card word: every hand is a sub-multiset of it."""
    return 0x228888888888888ULL if flags & F_TWO_DECKS else 0x114444444444444ULL


cdef bint valid_hand(u64 hand, int flags) noexcept nogil:
    """Rank counts within one deck (4, jokers 1) or two (8, jokers 2); top nibble empty."""
    return contains(full_deck(flags), hand)


cdef u64 LANE_HI = 0x8080808080808080ULL  # bit 7 of each byte: within() of counts that fit


cdef inline u64 within(u64 deck, u64 a, u64 b) noexcept nogil:
    """LANE_HI when a + b, rank by rank, is within deck (card words), else
    LANE_HI with some bits clear.  Branch-free: even and odd nibbles go to
    separate byte lanes, where 0x80 + deck - a - b stays >= 0x62 (counts <=
    15 each), so no lane borrows and bit 7 says a + b <= deck."""
    cdef u64 lo = 0x0F0F0F0F0F0F0F0FULL, hi = 0x8080808080808080ULL
    return ((((deck & lo) | hi) - (a & lo) - (b & lo))
            & ((((deck >> 4) & lo) | hi) - ((a >> 4) & lo) - ((b >> 4) & lo)) & hi)


cdef bint fits_deck(u64 hand, u64 last_cards, int flags) noexcept nogil:
    """Whether the deck(s) hold hand and the move to beat's cards together
    (docs/rules.md §1, §8: 4 of a rank and one of each joker a deck; laizi,
    §7: a wild card is a physical card of its rank, so the same bound)."""
    return within(full_deck(flags), hand, last_cards) == LANE_HI


cdef enum:
    KNOWN_FLAGS = 0x3F3F  # the rule flags whose readings plain_reading knows (bits 0-5, 8-13)

cdef u64 REGULAR = (<u64>1 << (4 * R_SMALL)) - 1   # the nibbles of ranks 3..2 (no jokers)


cdef inline u64 over(u64 w, int m) noexcept nogil:
    """Bit 3 of each nibble of w (counts <= 8) holding more than m cards
    (0 when none does).  over(0x0312, 2) == 0x0800."""
    if m >= 8:
        return 0
    return (w + <u64>(7 - m) * 0x111111111111111ULL) & 0x888888888888888ULL


cdef inline bint plain_kickers(u64 kick, int kind, int need, int lo, int hi, int flags) noexcept nogil:
    """Whether `kick` is `need` kickers of `kind` (1 single, 2 pair) that
    with_kickers would give a main part of ranks lo..hi (docs/rules.md §2),
    within what the deck(s) hold.  Every rank at once (the counts as
    nibbles), no loop over kicker ranks."""
    cdef int deck = 8 if flags & F_TWO_DECKS else 4   # cards of a rank in the deck(s)
    cdef int most = (deck if flags & F_KICKER_BOMB else 3) if flags & F_KICKER_REPEAT else 1
    cdef int jokers = min(most, deck // 4) if flags & F_KICKER_REPEAT and flags & F_JOKERS_BOTH else 1
    cdef u64 adjacent = 0
    if card_total(kick) != need * kind or kick & run_word(lo, hi - lo + 1, 0xF) or kick >> 60:
        return False
    if kind == 2:  # pairs: ranks 3..2, even counts; two of a rank only under kicker_bomb
        return not (kick >> (4 * R_SMALL) or kick & 0x111111111111111ULL
                    or over(kick, deck if flags & F_KICKER_BOMB else 2))
    if over(kick & REGULAR, most) or over(kick & ~REGULAR, jokers):
        return False
    if need >= 3 and not (flags & F_WING_TRIO_ADJ):  # no trio next to the chain (within 3..A)
        if lo > 0:
            adjacent |= (<u64>0xF) << (4 * (lo - 1))
        if hi < R_ACE:
            adjacent |= (<u64>0xF) << (4 * (hi + 1))
        if over(kick & adjacent, 2):
            return False
    return flags & F_JOKERS_BOTH or not (count_of(kick, R_SMALL) and count_of(kick, R_BIG))


cdef inline bint plain_reading(u64 cards, u64 info, int flags) noexcept nogil:
    """Whether (cards, info) is a reading of natural cards (no laizi stand-in)
    shown from its own fields: the main part is exactly k of each rank
    main - length + 1 .. main, the rest valid kickers (docs/rules.md §2),
    or one deck's bomb or rocket; True implies a hand the deck(s) hold
    (valid_hand).  False means "not shown", not "invalid" (two decks'
    bombs are not read here)."""
    cdef int combo = info_combo(info), main = info_main(info), length = info_length(info)
    cdef int k, lo, kind = 0, need = 0
    cdef u64 body
    if flags & ~KNOWN_FLAGS or info >> 14:
        return False
    if combo <= C_TRIO_PAIR:  # sets (k = combo), trio + single or pair
        k = combo if combo <= C_TRIO else 3
        if combo > C_TRIO:
            kind, need = combo - C_TRIO, 1
        if length != 1 or main > (R_TWO if k > 1 else R_BIG):
            return False
    elif combo <= C_PLANE_PAIR:  # chains; planes with single or pair wings
        k = combo - C_STRAIGHT + 1 if combo <= C_PLANE else 3
        if combo > C_PLANE:
            kind, need = combo - C_PLANE, length
        if main > R_ACE or length < (5 if k == 1 else 3 if k == 2 else 2):
            return False
    elif combo <= C_FOUR_TWO_PAIR and flags & F_FOUR_TWO:
        k, kind, need = 4, combo - C_FOUR_TWO_SINGLE + 1, 2
        if length != 1 or main > R_TWO:
            return False
    elif flags & F_TWO_DECKS:
        return False
    elif combo == C_BOMB:  # one deck: four of a rank
        k = 4
        if length != 1 or main > R_TWO:
            return False
    elif combo == C_ROCKET:
        return cards == unit(R_SMALL) + unit(R_BIG) and info == make_info(C_ROCKET, R_BIG, 1)
    else:
        return False
    lo = main - length + 1
    # Laizi: a reading of natural cards only (the wild rank is absent).
    if lo < 0 or (flags >> 8) & 0xF and count_of(cards, ((flags >> 8) & 0xF) - 1):
        return False
    body = run_word(lo, length, k)
    if kind == 0:
        return cards == body
    return contains(cards, body) and plain_kickers(cards - body, kind, need, lo, main, flags)


cdef bint valid_reading(u64 cards, u64 info, int flags) noexcept nogil:
    """Whether (cards, info) is one of classify(cards)'s readings (or pass).

    Takes the reading as given: a reading of natural cards is checked from
    its own fields (plain_reading); any other generates only its own
    combination type from its main rank up (and its chain length) over the
    card set itself, instead of every reading of the cards, and looks for
    it there; only when that misses does it classify the whole card set
    (same answer).
    """
    cdef MoveRec buf[64]
    cdef Gen g
    cdef Py_ssize_t i, n
    cdef int combo = info_combo(info)
    if combo == C_PASS:
        return cards == 0 and info == 0
    if plain_reading(cards, info, flags):
        return True
    if cards == 0 or not valid_hand(cards, flags):
        return False
    setup(&g, cards, flags, buf, 64)
    g.size = card_total(cards)
    if combo >= C_BOMB:
        if g.nw:
            lz_bombs(&g, -1)
        else:
            gen_bombs(&g, -1)
    elif g.nw:
        lz_combo(&g, combo, info_main(info), info_length(info))
    else:
        gen_combo(&g, combo, info_main(info), info_length(info))
    for i in range(min(g.n, 64)):
        if buf[i].info == info:
            return True
    n = classify(cards, flags, buf, 64)
    for i in range(min(n, 64)):
        if buf[i].info == info:
            return True
    return False


# ---------------------------------------------------------------- Python wrappers

cdef MoveRec* _scratch = NULL
cdef Py_ssize_t _scratch_cap = 0


cdef MoveRec* _reserve(Py_ssize_t n) except NULL:
    global _scratch, _scratch_cap
    cdef MoveRec* p
    if n > _scratch_cap:
        p = <MoveRec*>realloc(_scratch, n * sizeof(MoveRec))
        if p == NULL:
            raise MemoryError()
        _scratch = p
        _scratch_cap = n
    return _scratch


cdef cnp.ndarray _new_moves(Py_ssize_t n):
    """An uninitialised MOVE_DTYPE array of n records."""
    return <cnp.ndarray>ddz_new_records(_MOVE_DESCR, n)


cdef object records_to_array(MoveRec* recs, Py_ssize_t n):
    """A new MOVE_DTYPE array holding a copy of recs[0:n], in a malloc'd
    block the array owns: NumPy allocating the data itself first looks up
    the structured dtype's zero-fill loop (about 1,300 instructions, more
    than the rest of the array's making)."""
    cdef void* block
    if n == 0:
        return _new_moves(0)
    block = malloc(n * sizeof(MoveRec))
    if block == NULL:
        raise MemoryError()
    memcpy(block, recs, n * sizeof(MoveRec))
    return ddz_adopt_block(_MOVE_DESCR, n, block)


cdef inline void _check_position(u64 hand, u64 last_cards, u64 last_info, int flags) except *:
    """Raise InvalidCardsError for a hand the deck(s) cannot hold, and
    InvalidMoveError for a move to beat that is a pass record with cards, no
    valid reading, or cards the deck(s) cannot hold besides the hand
    (docs/rules.md §1-2, §7-8)."""
    if not valid_hand(hand, flags):
        raise InvalidCardsError(f"hand word {hand:#x} has more cards of a rank than the deck holds")
    if last_info == 0:
        if last_cards != 0:
            raise InvalidMoveError("the move to beat cannot be a pass; give no last move for a free lead")
    elif not valid_reading(last_cards, last_info, flags):
        raise InvalidMoveError(f"the move to beat ({last_cards:#x}, {last_info:#x}) is not a valid "
                               f"combination under these rules")
    elif not fits_deck(hand, last_cards, flags):
        raise InvalidMoveError(f"the move to beat ({last_cards:#x}, {last_info:#x}) and the hand {hand:#x} "
                               f"hold more cards of a rank than the deck")


def generate_array(u64 hand, u64 last_cards=0, u64 last_info=0, int flags=0):
    """Legal moves as a MOVE_DTYPE array (kernel order).

    Raises InvalidCardsError for a hand the deck cannot hold and
    InvalidMoveError when (last_cards, last_info) is neither a free lead
    (0, 0) nor a valid reading of its cards under these rules.
    """
    _check_position(hand, last_cards, last_info, flags)
    cdef Py_ssize_t n = generate(hand, last_cards, last_info, flags, _scratch, _scratch_cap)
    while n > _scratch_cap:  # a count without room is what a written pass writes; never read past the room
        _reserve(n)
        n = generate(hand, last_cards, last_info, flags, _scratch, _scratch_cap)
    return records_to_array(_scratch, n)


def classify_array(u64 cards, int flags=0):
    """Every reading of exactly these cards, as a MOVE_DTYPE array."""
    _check_position(cards, 0, 0, flags)
    cdef Py_ssize_t n = classify(cards, flags, _scratch, _scratch_cap)
    while n > _scratch_cap:  # a count without room is what a written pass writes; never read past the room
        _reserve(n)
        n = classify(cards, flags, _scratch, _scratch_cap)
    return records_to_array(_scratch, n)


def beats_codes(u64 cards, u64 info, u64 last_cards, u64 last_info, int flags=0):
    """Whether move (cards, info) beats (last_cards, last_info)."""
    return beats(cards, info, last_cards, last_info, flags)


def is_valid_reading(u64 cards, u64 info, int flags=0):
    """Whether (cards, info) is a valid reading of those cards."""
    return valid_reading(cards, info, flags)


cdef Py_ssize_t first_bad_row(const u64* hands, const u64* last_cards, Py_ssize_t n, int flags) noexcept nogil:
    """The first i whose hands[i], or hands[i] with last_cards[i]'s cards (NULL:
    free leads), the deck(s) cannot hold (fits_deck), n if none.

    One branch-free pass over every row (the compiler vectorises it: a few
    instructions a row), then a scan for the index only when one failed.
    """
    cdef u64 deck = full_deck(flags), ok = LANE_HI
    cdef Py_ssize_t i
    if last_cards == NULL:
        for i in range(n):
            ok &= within(deck, hands[i], 0)
    else:
        for i in range(n):
            ok &= within(deck, hands[i], last_cards[i])
    if ok == LANE_HI:
        return n
    for i in range(n):
        if within(deck, hands[i], 0 if last_cards == NULL else last_cards[i]) != LANE_HI:
            return i
    return n


cdef Py_ssize_t check_rows(const u64* hands, const u64* lc, const u64* li, Py_ssize_t lo, Py_ssize_t hi,
                           int flags, Py_ssize_t* bad_last) noexcept nogil:
    """Rows lo..hi-1 checked: the first whose hand, or hand with last move,
    the deck(s) cannot hold (hi if none); *bad_last the first row before it
    whose last move is no valid reading (-1 if none).  lc NULL: free leads."""
    cdef Py_ssize_t i, bad = lo + first_bad_row(hands + lo, lc + lo if lc != NULL else NULL, hi - lo, flags)
    bad_last[0] = -1
    if lc != NULL:
        for i in range(lo, bad):  # the rows before the first bad one
            # Each last move's reading is checked once (a run of equal ones once in all);
            # most are shown by their own fields (plain_reading, inlined here: no call).
            if (i == lo or lc[i] != lc[i - 1] or li[i] != li[i - 1]) \
                    and not (plain_reading(lc[i], li[i], flags) or valid_reading(lc[i], li[i], flags)):
                bad_last[0] = i
                break
    return bad


def _check_batch(const u64[::1] hands, const u64[::1] last_cards, const u64[::1] last_info, int flags):
    """Raise for the first bad row of a batch, else nothing: InvalidCardsError
    for a hand the deck(s) cannot hold, InvalidMoveError for a last move that
    is no valid reading or that the deck(s) cannot hold besides its row's
    hand (docs/rules.md §1-2, §7-8)."""
    cdef Py_ssize_t n = hands.shape[0], bad = n, bad_last = -1
    cdef const u64* lc = NULL
    cdef const u64* li = NULL
    if last_cards is not None and (last_cards.shape[0] != n or last_info.shape[0] != n):
        raise InvalidMoveError(f"batch of {n} hands needs {n} last moves, got "
                         f"{last_cards.shape[0]} cards and {last_info.shape[0]} infos")
    if n == 0:
        return
    with nogil:
        if last_cards is not None:
            lc, li = &last_cards[0], &last_info[0]
        bad = check_rows(&hands[0], lc, li, 0, n, flags, &bad_last)
    if 0 <= bad_last < bad:
        raise InvalidMoveError(f"last move {bad_last} ({last_cards[bad_last]:#x}, {last_info[bad_last]:#x}) "
                         f"is not a valid reading of its cards")
    if bad < n and not valid_hand(hands[bad], flags):
        raise InvalidCardsError(f"hands[{bad}] = {hands[bad]:#x} has more cards of a rank than the deck holds")
    if bad < n:
        raise InvalidMoveError(f"last move {bad} ({last_cards[bad]:#x}, {last_info[bad]:#x}) and hands[{bad}] = "
                               f"{hands[bad]:#x} hold more cards of a rank than the deck")


cdef object adopt_block(object descr, void* data, Py_ssize_t n, Py_ssize_t itemsize):
    """A NumPy array of dtype descr over data[0:n], a malloc'd block it then
    owns (shrunk to n records first: in place, no copy); frees data."""
    cdef void* fit
    if n == 0:
        free(data)
        return ddz_new_records(descr, 0)
    fit = realloc(data, n * itemsize)
    return ddz_adopt_block(descr, n, fit if fit != NULL else data)


# ---------------------------------------------------------------- batches
#
# A batch's moves go into one buffer: the caller's `out` while it is large
# enough, else a malloc'd block grown with realloc (large blocks grow in
# place: no grow-and-copy) and handed to NumPy as the result without a copy.
#
# With threads, the positions are split into one contiguous part per thread
# and every thread writes its moves straight into their final place.  Thread
# t > 0 must first learn where its part starts, that is where part t - 1
# ends: it counts part t - 1 backwards from its end (no writes, in closed
# form where count_closed applies: a count costs about count_cost() of a
# generation) while thread t - 1 generates it forwards from its start,
# publishing how far it got (every PUBLISH positions, their offsets
# written).  Where they meet, the offset thread t - 1 wrote there plus what
# thread t counted is the start of part t: only the positions thread t - 1
# had not reached yet are counted (with two threads a third of part 0, not
# all of it).  Parts shrink by the time their thread spends counting, so
# all would finish together if all threads ran alike; they do not (a
# virtual CPU stalls, a helper wakes late), so a thread that finishes its
# part steals the far end of the part with the most positions left: it
# cuts it where both should finish together and finds where its new part
# starts the same way, counting back from the cut to the part's owner.
# An owner claims its positions PUBLISH at a time and a thief cuts with
# one atomic compare-and-swap on the part's claim word, so no position is
# generated twice or skipped.  The generator may leave scratch past a
# position's moves (within its room, at most ROOM records), which a part's
# last position would leave in the next part: so every part but the first
# only counts its first positions up to ROOM records, and the join writes
# them once the threads are done (parts_join).  Nothing is copied and no
# thread waits for another's moves (only, at worst, for its start), so the
# result is the same for any thread count.  A part that overflows the
# buffer continues in a block of its own, copied into place at the end.
# Counting (count_batch)
# has threads claim chunks of CHUNK positions (an atomic counter), each
# checked (check_rows) just before it is counted (count_work).  The
# threads are the caller's and the crew's (below): helper threads started
# through CPython's thread API (no Python thread objects, no OpenMP
# runtime) and kept between calls.

cdef extern from *:
    """
    /* A monotonic clock in seconds (the batches' trace). */
    #if defined(_WIN32)
    #include <windows.h>
    static double ddz_now(void) { LARGE_INTEGER c, f; QueryPerformanceCounter(&c); QueryPerformanceFrequency(&f);
                                  return (double)c.QuadPart / (double)f.QuadPart; }
    #else
    #include <time.h>
    static double ddz_now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
                                  return ts.tv_sec + 1e-9 * ts.tv_nsec; }
    #endif
    """
    double ddz_now() noexcept nogil

# The last batch call's timeline, kept only while tracing is on (_trace;
# benchmarks/threads_timeline.py): the call's stamps (TR_*) and, per
# thread, when it began, when its start was known, when it finished and
# where it met the thread before it.
cdef enum:
    TR_CALL, TR_CHECKED, TR_STARTED, TR_JOINED, TR_END
cdef bint tracing = False
cdef double trace_call[5]
cdef double trace_thread[64][3]
cdef Py_ssize_t trace_meet[64]
cdef Py_ssize_t trace_lo[64]
cdef int trace_steals[64]
cdef Py_ssize_t trace_made[64]


cdef inline void stamp(double* at) noexcept nogil:
    if tracing:
        at[0] = ddz_now()


cdef object since(double at):
    """A stamp in seconds from the traced call's start (None: not reached)."""
    return at - trace_call[TR_CALL] if at != 0 else None


def _trace(on):
    """Turn the batch calls' timeline on or off; returns the last traced
    call's as a dict (seconds from the call's start, None for a point the
    call did not pass: input checked, helpers started, helpers joined, end;
    per thread (began, start known, finished), where its part begins,
    where it met the thread before it, how many parts it stole and how
    many positions it generated)."""
    global tracing
    cdef int t
    last = {"checked": since(trace_call[TR_CHECKED]), "started": since(trace_call[TR_STARTED]),
            "joined": since(trace_call[TR_JOINED]), "end": since(trace_call[TR_END]),
            "threads": [tuple(since(trace_thread[t][k]) for k in range(3)) for t in range(64)
                        if trace_thread[t][0] != 0],
            "meet": [trace_meet[t] for t in range(64) if trace_thread[t][0] != 0],
            "lo": [trace_lo[t] for t in range(64) if trace_thread[t][0] != 0],
            "steals": [trace_steals[t] for t in range(64) if trace_thread[t][0] != 0],
            "made": [trace_made[t] for t in range(64) if trace_thread[t][0] != 0]}
    for t in range(64):
        trace_thread[t][0] = trace_thread[t][1] = trace_thread[t][2] = 0
        trace_steals[t] = trace_made[t] = 0
    for t in range(5):
        trace_call[t] = 0
    tracing = bool(on)
    return last


cdef enum:
    CHUNK = 256             # positions a counting thread claims at a time
    NAP = 20                # microseconds a thread waits before looking again for its start
    PUBLISH = 16            # positions between two reports of a generating thread's progress
    POLL = 256              # positions a counting thread counts between two looks at that progress

# Positions a thread needs before starting it pays (starting and waking a
# thread costs tens of microseconds here: with 4,000 leads two threads
# generated no faster than one and counted 2.4x slower):
cdef Py_ssize_t MIN_PART_GENERATE = 4096
cdef Py_ssize_t MIN_PART_COUNT = 16384


def _set_min_part(Py_ssize_t generate, Py_ssize_t count):
    """Set the positions a thread needs (tests run the thread machinery on
    small batches with 1); returns the previous (generate, count)."""
    global MIN_PART_GENERATE, MIN_PART_COUNT
    old = (MIN_PART_GENERATE, MIN_PART_COUNT)
    MIN_PART_GENERATE, MIN_PART_COUNT = max(generate, 1), max(count, 1)
    return old

# A count's share of a generation's time (CPU time, benchmarks/threads_speed.py):
cdef double LEAD_COUNT_COST = 0.08   # one-deck leads without wild cards (count_lead)
cdef double COUNT_COST = 0.5         # any other batch (follows: 0.5 with count_follow)


cdef inline double count_cost(const u64* last_cards, int flags) noexcept nogil:
    """COUNT_COST, or LEAD_COUNT_COST for a batch of leads that count_lead counts."""
    if last_cards == NULL and not (flags & 0xF00) and counts_closed(0, flags):
        return LEAD_COUNT_COST
    return COUNT_COST


cdef struct Buf:
    MoveRec* p
    Py_ssize_t cap
    bint owned              # p is ours (malloc); else a view (the caller's `out`, or part of the block)


cdef bint buf_reserve(Buf* b, Py_ssize_t need, Py_ssize_t keep) noexcept nogil:
    """Room for `need` records, keeping the first `keep`; False without memory."""
    cdef Py_ssize_t cap = max(need, 2 * b.cap)
    cdef MoveRec* p
    if need <= b.cap:
        return True
    if b.owned:
        p = <MoveRec*>realloc(b.p, cap * sizeof(MoveRec))
    else:
        p = <MoveRec*>malloc(cap * sizeof(MoveRec))
        if p != NULL and min(keep, b.cap) > 0:  # (records past the view's cap were never written)
            memcpy(p, b.p, min(keep, b.cap) * sizeof(MoveRec))
    if p == NULL:
        return False
    b.p, b.cap, b.owned = p, cap, True
    return True


cdef bint scratch_test = False


def _set_scratch_test(bint on):
    """Tests: have every stretch of a threaded batch's part leave ROOM
    records of scratch past its moves (the most the generator may write,
    within its room), so the joins are tested against it whatever the
    generator does now; returns the previous setting."""
    global scratch_test
    old, scratch_test = scratch_test, on
    return old


cdef Py_ssize_t fill(Buf* b, Py_ssize_t total, const u64* hands, const u64* last_cards,
                     const u64* last_info, int flags, Py_ssize_t lo, Py_ssize_t hi,
                     int64_t* off, Py_ssize_t base) noexcept nogil:
    """Moves of positions lo..hi-1 into b from record `total` on; off[i + 1]
    becomes the end of position i's moves in the batch (b's record 0 is the
    batch's record `base`).  Returns the new total, -1 without memory."""
    cdef Py_ssize_t i, got
    cdef u64 lc = 0, li = 0
    for i in range(lo, hi):
        if last_cards != NULL:
            lc, li = last_cards[i], last_info[i]
        got = gen_moves(hands[i], lc, li, flags, b.p + total, b.cap - total)
        if got > b.cap - total:
            if not buf_reserve(b, total + got + (hi - i) * 64, total):
                return -1
            gen_moves(hands[i], lc, li, flags, b.p + total, b.cap - total)
        total += got
        off[i + 1] = base + total
    return total


cdef inline Py_ssize_t count_only(u64 hand, u64 last_cards, u64 last_info, int flags) noexcept nogil:
    """A position's number of moves, nothing written: in closed form
    (count_closed) where it applies, else the generator with no room."""
    if counts_closed(hand, flags):
        return count_closed(hand, last_cards, last_info, flags)
    return gen_moves(hand, last_cards, last_info, flags, NULL, 0)


cdef Py_ssize_t count_range(const u64* hands, const u64* last_cards, const u64* last_info, int flags,
                            Py_ssize_t lo, Py_ssize_t hi, int64_t* out) noexcept nogil:
    """Moves of positions lo..hi-1 (into out[i] when out is not NULL); returns their sum."""
    cdef Py_ssize_t i, n, total = 0
    for i in range(lo, hi):
        n = count_only(hands[i], last_cards[i] if last_cards != NULL else 0,
                       last_info[i] if last_cards != NULL else 0, flags)
        if out != NULL:
            out[i] = n
        total += n
    return total


cdef struct Part:
    Py_ssize_t lo           # its first position
    int before              # the part its start is counted back through (-1: it starts the batch)
    Py_ssize_t start        # its first record in the batch
    long long claim         # (next << 32) | end, from lo: positions claimed, the part's end (atomic; see steal)
    long long done          # its positions lo..done-1 are generated (atomic; -1 until start is known)
    Py_ssize_t written      # positions lo..written-1 only counted: the join writes them (parts_join)
    Py_ssize_t n            # its records (-1: out of memory)
    Buf buf                 # a view of the batch's buffer at start, or its own block after an overflow


cdef union Slot:
    Part part
    char line[128]          # a part to itself (no false sharing: owners and thieves write their own)


cdef inline Part* part_at(Job* j, Py_ssize_t k) noexcept nogil:
    return &j.parts[k].part


cdef struct Job:
    const u64* hands
    const u64* last_cards
    const u64* last_info
    int flags
    Py_ssize_t n, total
    int64_t* off
    Buf dest
    Slot* parts             # generation: one per thread, then the stolen ones (part_at)
    void* block             # the parts' memory (parts is aligned within it)
    long long nparts        # parts in use (atomic: a thief takes the next)
    int maxparts            # room in parts
    double keep             # the share of what is left that a victim keeps (steal)
    long long nchunks, claimed    # counting: chunks of CHUNK positions, the next one to claim (atomic)
    long long bad           # counting: a chunk failed its input check (atomic; the call then raises)
    bint counting           # count only: off[i] is position i's count (count_batch)


cdef enum:
    CLAIM_BITS = 32         # a claim word's halves (parts are shorter than 2**31 positions: run)
    MIN_STEAL = 8 * PUBLISH  # positions left in a part worth stealing from it
    STEALS = 16             # parts a thread may add by stealing


cdef inline long long claim_next(long long c) noexcept nogil:
    """A claim word's positions claimed (from the part's lo)."""
    return c >> CLAIM_BITS


cdef inline long long claim_end(long long c) noexcept nogil:
    """A claim word's end of the part (from its lo)."""
    return c & ((1LL << CLAIM_BITS) - 1)


cdef Py_ssize_t part_start(Job* j, int k) noexcept nogil:
    """Where part k starts: the part before it counted backwards from part
    k's first position until it meets that part's owner generating it
    forwards (see "batches")."""
    cdef Part* before = part_at(j, part_at(j, k).before)
    cdef Py_ssize_t q = part_at(j, k).lo, counted = 0
    cdef long long done
    while True:
        if q == before.lo or (part_at(j, k).lo - q) % POLL == 0:  # (rare looks: the owner writes that line)
            done = ddz_load(&before.done)
            if done >= q:  # positions before q are generated: off[q] is in
                return (j.off[q] if q > before.lo else before.start) + counted
            if q == before.lo:  # counted it all: wait until its start is known
                PyThread_acquire_lock_timed(crew_nap, NAP, 0)  # (only with the crew: in order, its start is known)
                continue
        q -= 1
        counted += count_only(j.hands[q], j.last_cards[q] if j.last_cards != NULL else 0,
                              j.last_info[q] if j.last_cards != NULL else 0, j.flags)


cdef int steal(Job* j) noexcept nogil:
    """Take the far end of the part being generated with the most positions
    left (at least MIN_STEAL) as a new part; returns its index, -1 when none
    is worth it.  The victim keeps j.keep of what is left: the thief must
    count back to it before it generates (part_start), so both then finish
    together.  A part not started yet is left alone: its owner may be this
    thread (shares run in turn when the crew is short), and a thief never
    waits."""
    cdef int k, best, mine = -1
    cdef long long c, nxt, end, left, most, cut
    cdef Part* p
    while True:
        best, most = -1, MIN_STEAL - 1
        for k in range(<int>min(ddz_load(&j.nparts), j.maxparts)):
            c = ddz_load(&part_at(j, k).claim)
            left = claim_end(c) - claim_next(c)
            if left > most and ddz_load(&part_at(j, k).done) >= 0:
                best, most = k, left
        if best < 0:
            return -1
        if mine < 0:  # a slot for the new part (its claim word 0 until it is filled in: nothing to steal)
            mine = <int>ddz_add(&j.nparts, 1)
            if mine >= j.maxparts:
                return -1
        p = part_at(j, best)
        c = ddz_load(&p.claim)
        nxt, end = claim_next(c), claim_end(c)
        if end - nxt < MIN_STEAL:
            continue
        cut = nxt + max(1, <long long>(j.keep * (end - nxt)))
        if not ddz_cas(&p.claim, c, (nxt << CLAIM_BITS) | cut):
            continue
        part_at(j, mine).lo = p.lo + cut
        part_at(j, mine).before = best
        ddz_store(&part_at(j, mine).done, -1)
        ddz_store(&part_at(j, mine).claim, end - cut)
        return mine


cdef void part_work(Job* j, int t) noexcept nogil:
    """Thread t's share: part t, then parts it steals; each found where it
    starts (part_start) and generated in place (docs/rules.md §2-3 through
    generate)."""
    cdef int k = t
    cdef Part* p
    cdef long long c, nxt, end, step
    cdef Py_ssize_t i
    stamp(&trace_thread[t][0])
    while k >= 0:
        p = part_at(j, k)
        p.start = part_start(j, k) if p.before >= 0 else 0
        if k == t:
            stamp(&trace_thread[t][1])
            if tracing:
                trace_lo[t] = p.lo
                trace_meet[t] = <Py_ssize_t>ddz_load(&part_at(j, t - 1).done) if t else 0
        ddz_store(&p.done, p.lo)
        p.buf.owned = False
        p.buf.p = j.dest.p + p.start if p.start < j.dest.cap else NULL
        p.buf.cap = j.dest.cap - p.start if p.start < j.dest.cap else 0
        p.n, p.written = 0, p.lo
        while True:  # claim PUBLISH positions at a time (a thief may lower end meanwhile)
            c = ddz_load(&p.claim)
            nxt, end = claim_next(c), claim_end(c)
            if nxt >= end:
                break
            step = min(nxt + PUBLISH, end)
            if not ddz_cas(&p.claim, c, (step << CLAIM_BITS) | end):
                continue
            i = p.lo + nxt
            while p.before >= 0 and p.n < ROOM and i < p.lo + step:  # its first ROOM records: see parts_join
                p.n += count_only(j.hands[i], j.last_cards[i] if j.last_cards != NULL else 0,
                                  j.last_info[i] if j.last_cards != NULL else 0, j.flags)
                j.off[i + 1] = p.start + p.n
                i += 1
                p.written = i
            if i < p.lo + step:
                p.n = fill(&p.buf, p.n, j.hands, j.last_cards, j.last_info, j.flags, i, p.lo + step, j.off, p.start)
            if p.n < 0:
                return  # (whoever counts back through this part counts on down to what is published)
            if scratch_test and p.buf.cap > p.n:  # (the most scratch the generator may leave: see parts_join)
                memset(p.buf.p + p.n, 0xA5, min(<Py_ssize_t>ROOM, p.buf.cap - p.n) * sizeof(MoveRec))
            ddz_store(&p.done, p.lo + step)
            if tracing:
                trace_made[t] += step - nxt
        if tracing:
            trace_steals[t] += k != t
        k = steal(j)
    stamp(&trace_thread[t][2])


cdef bint parts_join(Job* j) noexcept nogil:
    """The batch's total, the parts that overflowed copied into place and
    the positions each part only counted written; False without memory.

    The generator may write scratch past a position's moves, within its
    room (up to ROOM records), and a part's view of the buffer runs to the
    buffer's end: a part's last positions may write over the first ROOM
    records after it, which belong to the parts after it.  So a part
    (but the first) only counts its positions until it has ROOM records
    (part_work), no other thread writes there, and they are written here,
    once every thread is done, each with room for its own moves only (no
    scratch)."""
    cdef Py_ssize_t k, i, nparts = min(ddz_load(&j.nparts), j.maxparts)
    cdef Part* p
    j.total = 0
    for k in range(nparts):
        p = part_at(j, k)
        if p.n < 0:
            return False
        j.total = max(j.total, p.start + p.n)
    for k in range(nparts):
        p = part_at(j, k)
        if p.buf.owned:
            if not buf_reserve(&j.dest, j.total, min(j.dest.cap, j.total)):
                return False
            memcpy(j.dest.p + p.start, p.buf.p, p.n * sizeof(MoveRec))
    for k in range(nparts):
        p = part_at(j, k)
        for i in range(p.lo, p.written):
            gen_moves(j.hands[i], j.last_cards[i] if j.last_cards != NULL else 0,
                      j.last_info[i] if j.last_cards != NULL else 0, j.flags,
                      j.dest.p + j.off[i], j.off[i + 1] - j.off[i])
    return True


cdef void count_work(Job* j) noexcept nogil:
    """One thread's share of counting: claim chunks, check their input
    (check_rows) and count them until none is left or one is bad (then
    j.bad is set, everyone stops and the call raises for the first bad row)."""
    cdef long long c
    cdef Py_ssize_t lo, hi, bad_last
    while not ddz_load(&j.bad):
        c = ddz_add(&j.claimed, 1)
        if c >= j.nchunks:
            return
        lo, hi = c * CHUNK, min(j.n, (c + 1) * CHUNK)
        if check_rows(j.hands, j.last_cards, j.last_info, lo, hi, j.flags, &bad_last) < hi or bad_last >= 0:
            ddz_store(&j.bad, 1)
            return
        count_range(j.hands, j.last_cards, j.last_info, j.flags, lo, hi, j.off)


cdef void batch_work(void* job, int t) noexcept nogil:
    """Share t of a batch call (a crew_work)."""
    cdef Job* j = <Job*>job
    if j.counting:
        stamp(&trace_thread[t][0])
        count_work(j)
        stamp(&trace_thread[t][2])
    else:
        part_work(j, t)


# ---------------------------------------------------------------- the crew
#
# Helper threads are kept between batch calls (the crew): a call posts its
# job (a crew_work function and its argument: the batches above,
# _state's games), the helpers it needs take their share, and after a job
# each helper polls for the next one for crew_spin() seconds before it
# sleeps on its lock.
# Waking a sleeping thread costs far more here than starting the work: on
# these virtual machines a vCPU left idle takes 0.7-4 ms to run again
# (benchmarks/threads_timeline.py), as long as a whole count call.  So calls
# in a loop (a learner stepping its batches, a benchmark's rounds) find
# their helpers awake.  Polling yields the core every few microseconds,
# and only one mate a CPU (past the caller's) polls: the others sleep at
# once, so more threads than cores do not fight over them.  Mates live as
# long as the process.  One call uses the crew at a time; a call that finds
# it busy (another Python thread's batch, GIL released) runs on its own
# thread.  A forked child starts a crew of its own (_crew_forget).

cdef enum:
    LINE = 64               # bytes of a cache line

cdef struct Mate:
    char before[LINE]
    long long sleeping      # the mate is (about to be) asleep on wake (atomic; ddz_sleep_while)
    PyThread_type_lock wake # held: the mate sleeps on it until the poster releases it (ddz_wake)
    int t                   # its thread number (1..)
    long long seen          # the post before its first (set when it is started)
    char after[LINE]

cdef struct Crew:
    char pad0[LINE]
    long long post          # (job number << 8) | threads of the job (atomic; written by the poster)
    crew_work work          # the posted job: work(job, t) is share t
    void* job
    char pad1[LINE]
    long long pending       # mates still at the posted job (atomic)
    char pad2[LINE]

cdef Crew crew
cdef Mate mates[64]
cdef int crew_size = 1                      # threads the crew has, the poster's included
cdef PyThread_type_lock crew_lock = NULL    # held by the call that uses the crew
cdef PyThread_type_lock crew_nap = NULL     # always held: the poster naps on it while it waits
cdef long long crew_spin_bits = 0          # a double's bits (atomic: set under the GIL, read by the mates):
                                            # the seconds a mate polls after a job before it sleeps (crew_spin)
cdef int crew_pollers = 2                   # mates 1..crew_pollers-1 poll: one a CPU, the caller's included


cdef inline double crew_spin() noexcept nogil:
    """The seconds a mate polls after a job before it sleeps (thread_spin)."""
    cdef long long bits = ddz_load(&crew_spin_bits)
    cdef double seconds
    memcpy(&seconds, &bits, sizeof(double))
    return seconds


cdef void crew_spin_set(double seconds) noexcept nogil:
    cdef long long bits
    memcpy(&bits, &seconds, sizeof(double))
    ddz_store(&crew_spin_bits, bits)


crew_spin_set(0.01)


cdef void mate_main(void* arg) noexcept nogil:
    """A mate's life (a native thread: no Python thread object): wait for a
    post (polling up to crew_spin seconds after its last share, yielding
    the core now and then; mates past the CPUs' count do not poll), then
    asleep; do its share if the job has one for it, and again."""
    cdef Mate* m = <Mate*>arg
    cdef long long seen = m.seen
    cdef double idle_from = ddz_now()
    cdef unsigned polls = 0
    while True:
        while ddz_load(&crew.post) == seen:
            ddz_pause()
            polls += 1
            if polls % 256 == 0 or m.t >= crew_pollers:
                ddz_yield()  # a core wanted by other threads gets it
                if m.t >= crew_pollers or ddz_now() - idle_from > crew_spin():  # (read anew)
                    ddz_sleep_while(&crew.post, seen, &m.sleeping, m.wake)
        seen = ddz_load(&crew.post)
        if m.t < (seen & 0xFF):
            crew.work(crew.job, m.t)
            ddz_add(&crew.pending, -1)
            idle_from = ddz_now()  # (a job it had no share in does not keep it polling)


cdef int crew_take(int threads) noexcept:
    """Take the crew for a call of `threads` threads (GIL held): start the
    mates it lacks; returns the threads the call gets (1: one was asked,
    the crew is busy or no thread could start)."""
    global crew_lock, crew_nap, crew_size
    cdef int t
    if threads < 2:
        return 1
    if crew_nap == NULL:  # (a fork's child starts anew: _crew_forget)
        crew_nap = PyThread_allocate_lock()
        if crew_nap == NULL:
            return 1
        PyThread_acquire_lock(crew_nap, WAIT_LOCK)
    if crew_lock == NULL:
        crew_lock = PyThread_allocate_lock()
        if crew_lock == NULL:
            return 1
    if not PyThread_acquire_lock(crew_lock, NOWAIT_LOCK):
        return 1
    while crew_size < threads:
        t = crew_size
        mates[t].t, mates[t].sleeping, mates[t].seen = t, 0, crew.post
        mates[t].wake = PyThread_allocate_lock()
        if mates[t].wake == NULL:
            break
        PyThread_acquire_lock(mates[t].wake, WAIT_LOCK)
        if PyThread_start_new_thread(mate_main, &mates[t]) == <unsigned long>-1:  # PYTHREAD_INVALID_THREAD_ID
            PyThread_free_lock(mates[t].wake)
            break
        crew_size += 1
    if crew_size < 2:
        PyThread_release_lock(crew_lock)
    return min(threads, crew_size)


cdef void crew_run(crew_work work, void* job, int threads, int crew_threads) noexcept nogil:
    """Run the job's `threads` shares (work(job, t)): 1..crew_threads-1
    posted to the mates (crew_take gave them), 0 and the rest here in
    order; wait for the mates, and free the crew again."""
    cdef int t
    cdef unsigned polls = 0
    cdef double until
    if crew_threads > 1:
        crew.work, crew.job = work, job
        ddz_store(&crew.pending, crew_threads - 1)
        ddz_store(&crew.post, (((ddz_load(&crew.post) >> 8) + 1) << 8) | crew_threads)
        for t in range(1, crew_threads):
            ddz_wake(&mates[t].sleeping, mates[t].wake)
    stamp(&trace_call[TR_STARTED])
    work(job, 0)
    for t in range(crew_threads, threads):  # shares no mate took, in order (see part_start)
        work(job, t)
    if crew_threads <= 1:
        return
    until = ddz_now() + crew_spin()
    while ddz_load(&crew.pending):
        ddz_pause()
        polls += 1
        if polls % 256 == 0:
            ddz_yield()
            if ddz_now() > until:
                PyThread_acquire_lock_timed(crew_nap, NAP, 0)
    stamp(&trace_call[TR_JOINED])
    PyThread_release_lock(crew_lock)


def _crew_forget():
    """In a forked child: the parent's mates are not there, start anew
    (their locks are left behind: one may be held by a thread that is gone)."""
    global crew_lock, crew_nap, crew_size
    crew_lock, crew_nap, crew_size = NULL, NULL, 1
    crew.post, crew.pending = 0, 0


import os
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_crew_forget)
crew_pollers = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _crew_spin(double seconds=-1):
    """The seconds a mate polls for the next job before it sleeps; set it
    with seconds >= 0.  Returns the previous value."""
    old = crew_spin()
    if seconds >= 0:
        crew_spin_set(seconds)
    return old


cdef class _Batch:
    """One batch call: its inputs, its output buffer and, with threads, the parts."""
    cdef Job job
    cdef object out, offsets

    def __dealloc__(self):
        cdef Py_ssize_t t
        if self.job.dest.owned:
            free(self.job.dest.p)
        if self.job.parts != NULL:
            for t in range(min(self.job.nparts, self.job.maxparts)):
                if part_at(&self.job, t).buf.owned:
                    free(part_at(&self.job, t).buf.p)
            free(self.job.block)

    cdef Py_ssize_t run(self, int threads) except -1:
        """Generate (or count) every position, over `threads` threads when > 1."""
        cdef Job* j = &self.job
        cdef int t, granted
        cdef Py_ssize_t lo, hi
        cdef double size, begin, meet, total, cost = count_cost(j.last_cards, j.flags)
        cdef double sizes[64]
        j.nchunks = (j.n + CHUNK - 1) // CHUNK
        threads = <int>min(threads, j.nchunks, 64, max(1, j.n // (MIN_PART_COUNT if j.counting else MIN_PART_GENERATE)))
        if not j.counting and j.n >> (CLAIM_BITS - 1):
            threads = 1  # (a part's claim word holds positions in 32 bits)
        if threads <= 1:
            stamp(&trace_thread[0][0])
        if threads <= 1 and j.counting:
            with nogil:
                count_work(j)
            stamp(&trace_thread[0][2])
            return 0
        if threads <= 1:
            with nogil:
                j.total = fill(&j.dest, 0, j.hands, j.last_cards, j.last_info, j.flags, 0, j.n, j.off, 0)
            stamp(&trace_thread[0][2])
            if j.total < 0:
                raise MemoryError()
            return j.total
        # A block of ours gets room for twice the default moves a position: only
        # the pages written become memory, and the parts rarely overflow it.
        if not j.counting and j.dest.owned and not buf_reserve(&j.dest, 128 * j.n + 1024, 0):
            raise MemoryError()
        if not j.counting:
            j.maxparts = threads * (1 + STEALS)
            j.block = calloc(j.maxparts + 1, sizeof(Slot))
            if j.block == NULL:
                raise MemoryError()
            j.parts = <Slot*>((<size_t>j.block + 127) & ~(<size_t>127))
            j.nparts = threads
            j.keep = 1.0 / (2.0 - cost / (1.0 + cost))
            # Part sizes for all threads to finish at time 1 (a generation
            # takes 1 a position, a count `cost`): thread t starts
            # generating when its count backwards through part t - 1 meets
            # thread t - 1, which started generating at `begin`.
            size, begin, total = 1.0, 0.0, 0.0
            for t in range(threads):
                sizes[t] = size
                total += size
                meet = cost * size  # counted it all before thread t - 1 starts: wait for it
                meet = cost * (size + begin) / (1.0 + cost) if meet > begin else begin
                size, begin = 1.0 - meet, meet
            size = 0.0
            for t in range(threads):
                lo = <Py_ssize_t>(j.n * size / total)
                size += sizes[t]
                hi = j.n if t == threads - 1 else <Py_ssize_t>(j.n * size / total)
                part_at(j, t).lo, part_at(j, t).before, part_at(j, t).done = lo, t - 1, -1
                part_at(j, t).claim = hi - lo
        granted = crew_take(threads)
        with nogil:
            crew_run(batch_work, j, threads, granted)
        if j.counting:
            return 0
        if not parts_join(j):
            raise MemoryError()
        return j.total

    cdef object moves(self):
        """The result: a view of `out`, or the grown block handed to NumPy."""
        cdef Job* j = &self.job
        if not j.dest.owned:
            return self.out[:j.total]
        j.dest.owned = False  # the array owns it now
        full = adopt_block(_MOVE_DESCR, j.dest.p, j.total, sizeof(MoveRec))
        return full[:j.total]


cdef int _threads_arg(threads) except -1:
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise InvalidArgumentError(f"threads must be an int >= 1, not {threads!r}")
    return min(threads, 64)  # a batch uses at most 64


def generate_batch(const u64[::1] hands, const u64[::1] last_cards=None,
                   const u64[::1] last_info=None, int flags=0, out=None, threads=1):
    """Legal moves of many positions in one call, without the GIL.

    Returns (moves, offsets): a MOVE_DTYPE array of every position's moves in
    turn and an int64 array of n+1 offsets (position i's moves are
    moves[offsets[i]:offsets[i+1]]).  `out`, a MOVE_DTYPE array, is written
    into (and moves is a view of it) when it is large enough; pass the
    previous call's result to reuse its memory.  Otherwise the moves go to a
    block grown in place and handed to NumPy without a copy.  `threads`
    (int >= 1): threads, each generating a contiguous part of the positions
    straight into place, a thread that has finished stealing the far end
    of another's (see "batches" above); the result is the same for any
    number.  Raises InvalidCardsError or InvalidMoveError
    naming the first bad hand or last move (and computes nothing),
    InvalidArgumentError for an unsuitable out or threads.
    """
    stamp(&trace_call[TR_CALL])
    _check_batch(hands, last_cards, last_info, flags)
    stamp(&trace_call[TR_CHECKED])
    cdef int nthreads = _threads_arg(threads)
    cdef _Batch b = _Batch()
    cdef Job* j = &b.job
    cdef Py_ssize_t n = hands.shape[0]
    j.n, j.flags = n, flags
    j.hands = &hands[0] if n else NULL
    j.last_cards = &last_cards[0] if last_cards is not None and n else NULL
    j.last_info = &last_info[0] if last_cards is not None and n else NULL
    b.offsets = np.empty(n + 1, np.int64)
    j.off = <int64_t*>cnp.PyArray_DATA(<cnp.ndarray>b.offsets)
    j.off[0] = 0
    if out is not None and not (isinstance(out, np.ndarray) and out.ndim == 1 and out.dtype == MOVE_DTYPE
                                and out.flags.c_contiguous and out.flags.writeable):
        raise InvalidArgumentError(f"out must be a writable C-contiguous 1-d MOVE_DTYPE array, not {out!r}")
    if out is not None and out.shape[0] > 0:
        b.out = out
        j.dest.p, j.dest.cap, j.dest.owned = <MoveRec*>cnp.PyArray_DATA(<cnp.ndarray>out), out.shape[0], False
    else:
        j.dest.cap = 64 * n + 1024
        j.dest.p = <MoveRec*>malloc(j.dest.cap * sizeof(MoveRec))
        if j.dest.p == NULL:
            raise MemoryError()
        j.dest.owned = True
    b.run(nthreads)
    result = b.moves(), b.offsets
    stamp(&trace_call[TR_END])
    return result


def count_batch(const u64[::1] hands, const u64[::1] last_cards=None,
                const u64[::1] last_info=None, int flags=0, threads=1):
    """Number of legal moves of each position (int64 array), without the GIL;
    `threads` (int >= 1) count chunks of positions in parallel.  Raises as
    generate_batch does (the threads check their chunks' input; on a bad one
    the whole batch is checked in order, so the first bad row is named)."""
    stamp(&trace_call[TR_CALL])
    if last_cards is not None and (last_cards.shape[0] != hands.shape[0] or last_info.shape[0] != hands.shape[0]):
        _check_batch(hands, last_cards, last_info, flags)  # raises for the lengths
    stamp(&trace_call[TR_CHECKED])
    cdef int nthreads
    try:
        nthreads = _threads_arg(threads)
    except InvalidArgumentError:
        _check_batch(hands, last_cards, last_info, flags)  # a bad row is named first, as generate_batch does
        raise
    cdef _Batch b = _Batch()
    cdef Job* j = &b.job
    cdef Py_ssize_t n = hands.shape[0]
    j.n, j.flags, j.counting = n, flags, True
    j.hands = &hands[0] if n else NULL
    j.last_cards = &last_cards[0] if last_cards is not None and n else NULL
    j.last_info = &last_info[0] if last_cards is not None and n else NULL
    counts = np.empty(n, np.int64)
    j.off = <int64_t*>cnp.PyArray_DATA(<cnp.ndarray>counts)
    b.run(nthreads)
    if b.job.bad:
        _check_batch(hands, last_cards, last_info, flags)  # raises for the first bad row
        raise AssertionError("a chunk failed the input check the batch passed")
    stamp(&trace_call[TR_END])
    return counts
