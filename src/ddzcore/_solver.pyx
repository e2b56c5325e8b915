# cython: language_level=3, wraparound=False, cdivision=True
"""Endgame solver (残局) and minimum plays (手数) on the native play state.

The search runs on ``_state``'s ``State`` with its nogil ``push``/``pop``
(docs/rules.md §3).  A two-player end game is the three-seat state with an
empty third seat that always passes: after a play the other player answers,
the empty seat passes, and two passes give the lead back exactly as in the
three-player game, so one search serves both.

Search: fail-soft alpha-beta, the landlord's side maximising, both farmers
minimising (they share a result, so they cooperate).  Win/loss mode values a
finished game +1 / -1 (landlord wins / loses), score mode by the stake
multiplier ±2**bombs, doubled for a spring or anti-spring (docs/rules.md §3,
§6).  A transposition table keyed by a 64-bit hash of the position (stored
whole and compared on every probe) keeps value bounds and the best move;
the move to beat enters the key by its reading (type, main rank, length,
card count; the cards themselves only for bombs), so positions that differ
only in the kicker choices of the last move merge.  Moves are tried in the
order: table move, the move that empties the hand, then by the minimum
plays (手数) the rest of the hand needs, more cards first among equals,
pass last.
"""

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, int64_t

from ddzcore.bits cimport *
from ddzcore._kernel cimport generate
from ddzcore._state cimport State, Undo, Buf, buf_reserve, push, pop, is_over, state_set, MAX_PLIES

cimport numpy as cnp
import numpy as np

from ddzcore._errors import ConcurrentUseError

cnp.import_array()

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    static double ddz_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double ddz_now(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    }
    #endif
    """
    # Seconds on a monotonic clock.
    double ddz_now() noexcept nogil


cdef enum:
    INF = 0x7FFFFFFF
    CLOCK_EVERY = 1023         # nodes between clock checks (mask)
    ABORT = -2147483647 - 1    # never a value: the search ran out of time or memory
    MIN_TT = 1 << 12           # entries the table starts with (it grows up to the limit)

#: Bytes of one transposition-table entry (``tt_size`` counts entries).
ENTRY_BYTES = 32


cdef inline u64 mix(u64 z) noexcept nogil:
    """splitmix64's finaliser: a 64-bit hash of z."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


# ---------------------------------------------------------------- minimum plays (手数)

cdef struct MEntry:
    u64 key            # hand word + 1 (0: empty)
    u64 cards          # first combination of an optimal decomposition
    u64 info
    int32_t val        # minimum plays
    uint32_t gen       # the batch item this entry belongs to


cdef struct Memo:
    MEntry* t
    u64 mask
    u64 used
    uint32_t gen
    Buf buf            # move stack of the search


cdef bint memo_init(Memo* m) noexcept nogil:
    m.mask = (1 << 12) - 1
    m.t = <MEntry*>calloc(m.mask + 1, sizeof(MEntry))
    m.used = 0
    m.gen = 1
    m.buf.p = NULL
    m.buf.cap = 0
    return m.t != NULL and buf_reserve(&m.buf, 4096)


cdef inline MEntry* memo_slot(Memo* m, u64 key) noexcept nogil:
    """The slot of key: its entry of this generation, or the free slot to fill."""
    cdef u64 i = mix(key) & m.mask
    while m.t[i].gen == m.gen and m.t[i].key != key:
        i = (i + 1) & m.mask
    return &m.t[i]


cdef bint memo_grow(Memo* m) noexcept nogil:
    cdef MEntry* old = m.t
    cdef u64 n = m.mask + 1, i
    cdef MEntry* e
    m.t = <MEntry*>calloc(2 * n, sizeof(MEntry))
    if m.t == NULL:
        m.t = old
        return False
    m.mask = 2 * n - 1
    for i in range(n):
        if old[i].gen == m.gen:
            e = memo_slot(m, old[i].key)
            e[0] = old[i]
    free(old)
    return True


cdef int min_plays_rec(Memo* m, u64 hand, int flags, Py_ssize_t at) noexcept nogil:
    """Fewest combinations that partition hand (0 for no cards), -1 when out
    of memory.  Every partition has a combination holding a card of the
    hand's lowest rank, so only moves with such a card are tried."""
    cdef MEntry* e
    cdef Py_ssize_t n, i
    cdef int best = 1 << 20, v, r
    cdef u64 bc = 0, bi = 0, c
    if hand == 0:
        return 0
    e = memo_slot(m, hand + 1)
    if e.gen == m.gen:
        return e.val
    n = generate(hand, 0, 0, flags, m.buf.p + at, m.buf.cap - at)
    if n > m.buf.cap - at:
        if not buf_reserve(&m.buf, at + n):
            return -1
        generate(hand, 0, 0, flags, m.buf.p + at, m.buf.cap - at)
    r = 0
    while count_of(hand, r) == 0:
        r += 1
    for i in range(n):
        if m.buf.p[at + i].cards == hand:       # one combination: 1, nothing beats that
            best = 1
            bc = hand
            bi = m.buf.p[at + i].info
            n = 0
            break
    for i in range(n):
        c = m.buf.p[at + i].cards
        if count_of(c, r) == 0:
            continue
        v = min_plays_rec(m, hand - c, flags, at + n)
        if v < 0:
            return -1
        if v + 1 < best:
            best = v + 1
            bc = c
            bi = m.buf.p[at + i].info
            if best == 2:                     # not one combination: 2 is the least
                break
    if 2 * (m.used + 1) > m.mask and not memo_grow(m):
        return -1
    e = memo_slot(m, hand + 1)
    if e.gen != m.gen:
        m.used += 1
    e.key = hand + 1
    e.gen = m.gen
    e.val = best
    e.cards = bc
    e.info = bi
    return best


cdef inline void memo_next(Memo* m) noexcept nogil:
    """Forget every entry (next generation), clearing the table only on wrap-around."""
    m.gen += 1
    m.used = 0
    if m.gen == 0:
        memset(m.t, 0, (m.mask + 1) * sizeof(MEntry))
        m.gen = 1



# ---------------------------------------------------------------- table

cdef struct Entry:
    u64 key            # 0: empty
    u64 cards          # best move
    u64 info           # its info word (bits 0-39); bits 40-63: work, log2 of nodes searched
    int32_t lo         # value bounds (landlord's view): lo <= value <= hi
    int32_t hi


cdef struct Ctx:
    Entry* tt
    u64 mask           # entries - 1 (a power of two)
    u64 stored
    u64 limit          # most entries the table may grow to
    int64_t nodes
    double deadline    # 0: none
    bint aborted
    bint score
    Buf buf            # move stack: a node's moves, then its children's
    Memo memo          # min_plays of the hands met, for move ordering


cdef inline u64 last_key(const State* s) noexcept nogil:
    """The move to beat as far as any answer depends on it: its reading and card
    count, and for bombs (compared by size and jokers) the cards themselves."""
    if s.last_info == 0:
        return 0
    if info_combo(s.last_info) >= C_BOMB:
        return s.last_cards * 31 + (s.last_info & 0x3FFF)
    return (s.last_info & 0x3FFF) | (<u64>card_total(s.last_cards) << 14)


cdef inline u64 pos_key(const Ctx* c, const State* s) noexcept nogil:
    cdef u64 k = mix(s.hand[0] ^ 0x9E3779B97F4A7C15ULL)
    k = mix(k ^ s.hand[1] * 0xD6E8FEB86659FD93ULL)
    k = mix(k ^ s.hand[2] * 0xA0761D6478BD642FULL)
    k = mix(k ^ last_key(s) ^ (<u64>(s.turn + 4 * (s.owner + 1)) << 58))
    if c.score:
        # The value scales with bombs and depends on who may still be sprung.
        k = mix(k ^ (<u64>s.bombs << 8 | <u64>(s.farmer_plays == 0) << 7
                     | <u64>(s.landlord_plays if s.landlord_plays < 2 else 2)))
    return k | 1          # never 0 (the empty mark)


cdef bint tt_grow(Ctx* c) noexcept nogil:
    """Double the table (rehashing); False when at the limit or out of memory."""
    cdef u64 n = (c.mask + 1) * 2, i, j
    cdef Entry* t
    cdef Entry* old = c.tt
    if n > c.limit:
        return False
    t = <Entry*>calloc(n, sizeof(Entry))
    if t == NULL:
        return False
    for i in range(c.mask + 1):
        if old[i].key:
            j = old[i].key & (n - 1)
            while t[j].key:
                j = (j + 1) & (n - 1)
            t[j] = old[i]
    free(old)
    c.tt = t
    c.mask = n - 1
    return True


cdef inline Entry* tt_probe(Ctx* c, u64 key) noexcept nogil:
    """The entry of key, or NULL.  Linear probing over at most 4 slots."""
    cdef u64 i = key & c.mask
    cdef int k
    for k in range(4):
        if c.tt[i].key == key:
            return &c.tt[i]
        if c.tt[i].key == 0:
            return NULL
        i = (i + 1) & c.mask
    return NULL


cdef inline int work_of(int64_t n) noexcept nogil:
    cdef int w = 0
    while n > 1 and w < 60:
        n >>= 1
        w += 1
    return w


cdef void tt_store(Ctx* c, u64 key, int32_t lo, int32_t hi, u64 cards, u64 info, int64_t work) noexcept nogil:
    """Store bounds and best move; replaces the least-work entry of the key's 4 slots."""
    cdef u64 i, victim
    cdef int k, w = work_of(work), vw = 99, ew
    if c.stored * 2 >= c.mask and tt_grow(c):
        pass
    i = key & c.mask
    victim = i
    for k in range(4):
        if c.tt[i].key == key or c.tt[i].key == 0:
            victim = i
            if c.tt[i].key == 0:
                c.stored += 1
            break
        ew = <int>(c.tt[i].info >> 40)
        if ew < vw:
            vw = ew
            victim = i
        i = (i + 1) & c.mask
    c.tt[victim].key = key
    c.tt[victim].cards = cards
    c.tt[victim].info = (info & 0xFFFFFFFFFFULL) | (<u64>w << 40)
    c.tt[victim].lo = lo
    c.tt[victim].hi = hi


# ---------------------------------------------------------------- search

cdef inline int32_t outcome(const Ctx* c, const State* s) noexcept nogil:
    """Value of a finished game for the landlord (docs/rules.md §3, §6)."""
    cdef int32_t m = 1
    cdef bint ll_won = s.owner == s.landlord
    if c.score:
        m = (<int32_t>1) << s.bombs
        if (ll_won and s.farmer_plays == 0) or (not ll_won and s.landlord_plays == 1):
            m *= 2
    return m if ll_won else -m


cdef enum:
    N_KEYS = 128


cdef inline int order_key(Ctx* c, const State* s, u64 cards, u64 info) noexcept nogil:
    """Search order, lowest first: the whole hand; then by the fewest plays
    (min_plays) the rest of the hand needs, more cards first among equals;
    pass last."""
    cdef int n, k
    if info_combo(info) == C_PASS:
        return N_KEYS - 1
    if cards == s.hand[s.turn]:
        return 0
    n = card_total(cards)
    if c.memo.used > (1 << 20):        # bounded memory: start the memo afresh
        memo_next(&c.memo)
    k = min_plays_rec(&c.memo, s.hand[s.turn] - cards, s.flags, 0)
    if k < 0 or k > 14:
        k = 14
    return 1 + 8 * k + (20 - min(n, 20)) // 3


cdef Py_ssize_t moves_at(Ctx* c, const State* s, Py_ssize_t at, u64 first_cards, u64 first_info) noexcept nogil:
    """Legal moves of s into c.buf.p[at:], in search order (order_key), the
    move (first_cards, first_info) first if legal.  -1 when out of memory."""
    cdef u64 hand = s.hand[s.turn]
    cdef Py_ssize_t n = generate(hand, s.last_cards, s.last_info, s.flags, c.buf.p + at, c.buf.cap - at)
    cdef Py_ssize_t i, j, k
    cdef int cnt[N_KEYS]
    cdef uint8_t keys[4096]
    cdef int t
    cdef MoveRec tmp
    if n > c.buf.cap - at:
        if not buf_reserve(&c.buf, 2 * (at + n)):
            return -1
        n = generate(hand, s.last_cards, s.last_info, s.flags, c.buf.p + at, c.buf.cap - at)
    if 2 * n > c.buf.cap - at:
        if not buf_reserve(&c.buf, 2 * (at + 2 * n)):
            return -1
    if n <= 1 or n > 4096:
        return n
    if not c.score:
        # Win/loss: a move that empties the hand wins outright; try it alone first.
        for i in range(n):
            if c.buf.p[at + i].cards == hand:
                tmp = c.buf.p[at + i]
                c.buf.p[at + i] = c.buf.p[at]
                c.buf.p[at] = tmp
                return n
    # Counting sort by key through the scratch half c.buf.p[at+n:at+2n].
    memset(cnt, 0, sizeof(cnt))
    for i in range(n):
        keys[i] = order_key(c, s, c.buf.p[at + i].cards, c.buf.p[at + i].info)
        cnt[keys[i]] += 1
    t = 0
    for k in range(N_KEYS):
        j = cnt[k]
        cnt[k] = t
        t += <int>j
    for i in range(n):
        k = keys[i]
        c.buf.p[at + n + cnt[k]] = c.buf.p[at + i]
        cnt[k] += 1
    memcpy(c.buf.p + at, c.buf.p + at + n, n * sizeof(MoveRec))
    if first_info or first_cards:
        for i in range(n):
            if c.buf.p[at + i].cards == first_cards and (c.buf.p[at + i].info & 0xFFFFFFFFFFULL) == first_info:
                tmp = c.buf.p[at + i]
                j = i
                while j > 0:
                    c.buf.p[at + j] = c.buf.p[at + j - 1]
                    j -= 1
                c.buf.p[at] = tmp
                break
    return n


cdef int32_t search(Ctx* c, State* s, int32_t alpha, int32_t beta, Py_ssize_t at) noexcept nogil:
    """Value of s for the landlord (fail-soft alpha-beta), ABORT on timeout or
    out of memory.  s is not over; s is restored on return."""
    cdef Undo u
    cdef int32_t v, best, a0 = alpha, b0 = beta
    cdef Py_ssize_t n, i
    cdef u64 key, tc = 0, ti = 0, bc = 0, bi = 0
    cdef Entry* e
    cdef int32_t elo = -INF, ehi = INF
    cdef bint maxing
    cdef int64_t nodes0 = c.nodes
    c.nodes += 1
    if (c.nodes & CLOCK_EVERY) == 0 and c.deadline > 0 and ddz_now() > c.deadline:
        c.aborted = True
    if c.aborted:
        return ABORT
    if s.hand[s.turn] == 0:
        # The empty third seat of a two-player game: it always passes.
        push(s, 0, 0, &u)
        v = search(c, s, alpha, beta, at)
        pop(s, &u)
        return v
    key = pos_key(c, s)
    e = tt_probe(c, key)
    if e != NULL:
        elo = e.lo
        ehi = e.hi
        if elo >= beta or elo == ehi:
            return elo
        if ehi <= alpha:
            return ehi
        if elo > alpha:
            alpha = elo
        if ehi < beta:
            beta = ehi
        tc = e.cards
        ti = e.info & 0xFFFFFFFFFFULL
    n = moves_at(c, s, at, tc, ti)
    if n < 0:
        c.aborted = True
        return ABORT
    maxing = s.turn == s.landlord
    best = -INF if maxing else INF
    for i in range(n):
        push(s, c.buf.p[at + i].cards, c.buf.p[at + i].info, &u)
        if is_over(s):
            v = outcome(c, s)
        else:
            v = search(c, s, alpha, beta, at + n)
        pop(s, &u)
        if v == ABORT:
            return ABORT
        if maxing:
            if v > best:
                best = v
                bc = c.buf.p[at + i].cards
                bi = c.buf.p[at + i].info
                if best > alpha:
                    alpha = best
        elif v < best:
            best = v
            bc = c.buf.p[at + i].cards
            bi = c.buf.p[at + i].info
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    # (e may be stale: a child's store can grow the table.)
    if best <= a0:
        tt_store(c, key, elo, best, bc, bi, c.nodes - nodes0)
    elif best >= b0:
        tt_store(c, key, best, ehi, bc, bi, c.nodes - nodes0)
    else:
        tt_store(c, key, best, best, bc, bi, c.nodes - nodes0)
    return best


cdef int32_t value_of(Ctx* c, State* s, Py_ssize_t at) noexcept nogil:
    """Exact value of s for the landlord (ABORT on timeout), using the move
    stack from c.buf.p[at:]."""
    if is_over(s):
        return outcome(c, s)
    if c.score:
        return search(c, s, -INF, INF, at)
    return search(c, s, -1, 1, at)


cdef int ctx_init(Ctx* c, bint score, u64 tt_entries) except -1:
    cdef u64 limit = 1
    while limit * 2 <= tt_entries:
        limit *= 2
    c.limit = limit if limit >= MIN_TT else MIN_TT
    c.tt = <Entry*>calloc(MIN_TT if MIN_TT < c.limit else c.limit, sizeof(Entry))
    c.mask = (MIN_TT if MIN_TT < c.limit else c.limit) - 1
    c.stored = 0
    c.nodes = 0
    c.aborted = False
    c.score = score
    c.deadline = 0
    c.buf.p = NULL
    c.buf.cap = 0
    if not memo_init(&c.memo) or c.tt == NULL or not buf_reserve(&c.buf, 4096):
        ctx_free(c)
        raise MemoryError()
    return 0


cdef void ctx_free(Ctx* c) noexcept nogil:
    """Free what ctx_init allocated (idempotent)."""
    free(c.tt)
    free(c.buf.p)
    free(c.memo.t)
    free(c.memo.buf.p)
    c.tt = NULL
    c.buf.p = NULL
    c.memo.t = NULL
    c.memo.buf.p = NULL


cdef class Search:
    """One end-game position and its search (transposition table kept between
    calls), for ``ddzcore.solver.solve``, which checks the arguments and
    documents the results.  Values are the landlord's (win/loss: +1 / -1;
    score: stakes); ``None`` when a call ran out of time.  Every call
    releases the GIL; one object must not be used by two threads at once
    (``ConcurrentUseError``, a ``RuntimeError``).

    ``Search(hands, landlord, turn, last_cards, last_info, owner, flags,
    bombs, landlord_plays, farmer_plays, score, tt_entries)``: ``hands`` the
    three seats' card words (a two-player game leaves seat 2 empty)."""

    cdef Ctx c
    cdef State s
    cdef bint busy
    cdef readonly double seconds

    def __cinit__(self):
        memset(&self.c, 0, sizeof(Ctx))

    def __init__(self, hands, int landlord, int turn, u64 last_cards, u64 last_info, int owner, int flags,
                 int bombs, int landlord_plays, int farmer_plays, bint score, u64 tt_entries):
        cdef u64 words[3]
        cdef int i
        for i in range(3):
            words[i] = hands[i]
        state_set(&self.s, words, 3, last_cards, last_info, flags, turn, owner, landlord, -1, bombs,
                  landlord_plays, farmer_plays)
        ctx_free(&self.c)
        ctx_init(&self.c, score, tt_entries)
        self.seconds = 0

    def __dealloc__(self):
        ctx_free(&self.c)

    @property
    def nodes(self):
        """Positions searched so far, over every call."""
        return self.c.nodes

    cdef int start(self, double timeout) except -1:
        if self.busy:
            raise ConcurrentUseError("this search is running in another thread: give each thread its own "
                                     "solve() result")
        self.busy = True
        self.c.aborted = False
        self.c.deadline = ddz_now() + timeout if timeout > 0 else 0
        return 0

    cdef void stop(self, double t0):
        self.busy = False
        self.seconds += ddz_now() - t0

    def value(self, double timeout=0):
        """The position's value, or None on timeout (``timeout`` seconds, 0: none)."""
        cdef int32_t v
        cdef double t0 = ddz_now()
        self.start(timeout)
        with nogil:
            v = value_of(&self.c, &self.s, 0)
        self.stop(t0)
        return None if self.c.aborted else v

    def move_values(self, double timeout=0):
        """``[(cards, info, value)]`` for every legal move (kernel order), or
        None on timeout."""
        cdef Py_ssize_t n = generate(self.s.hand[self.s.turn], self.s.last_cards, self.s.last_info,
                                     self.s.flags, NULL, 0), i
        cdef MoveRec* root = <MoveRec*>malloc((n + 1) * sizeof(MoveRec))
        cdef int32_t* vals = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef State t = self.s
        cdef Undo u
        cdef double t0 = ddz_now()
        if root == NULL or vals == NULL:
            free(root)
            free(vals)
            raise MemoryError()
        generate(t.hand[t.turn], t.last_cards, t.last_info, t.flags, root, n)
        self.start(timeout)
        with nogil:
            for i in range(n):
                push(&t, root[i].cards, root[i].info, &u)
                vals[i] = value_of(&self.c, &t, 0)
                pop(&t, &u)
                if self.c.aborted:
                    break
        self.stop(t0)
        out = None if self.c.aborted else [(root[i].cards, root[i].info, vals[i]) for i in range(n)]
        free(root)
        free(vals)
        return out

    def line(self, double timeout=0):
        """A principal variation, ``[(seat, cards, info)]`` to the end of the
        game: at each position the first move (search order) whose result
        keeps the position's value.  None on timeout."""
        cdef MoveRec line[MAX_PLIES]
        cdef int8_t seats[MAX_PLIES]
        cdef Py_ssize_t nline = 0, i, k
        cdef State t = self.s
        cdef Undo u
        cdef int32_t mv
        cdef Ctx* c = &self.c
        cdef double t0 = ddz_now()
        self.start(timeout)
        with nogil:
            while not c.aborted and not is_over(&t) and nline < MAX_PLIES:
                mv = value_of(c, &t, 0)
                k = moves_at(c, &t, 0, 0, 0)     # this node's moves stay in c.buf.p[0:k]
                if k < 0:
                    c.aborted = True
                for i in range(k):
                    seats[nline] = t.turn
                    push(&t, c.buf.p[i].cards, c.buf.p[i].info, &u)
                    if value_of(c, &t, 2 * k) == mv:
                        line[nline] = c.buf.p[i]
                        nline += 1
                        break
                    pop(&t, &u)
                else:
                    c.aborted = True
        self.stop(t0)
        if c.aborted:
            return None
        return [(seats[i], line[i].cards, line[i].info) for i in range(nline)]


def _min_plays(u64 hand, int flags):
    """Kernel of ``ddzcore.solver.min_plays``: (count, [(cards, info), ...])."""
    cdef Memo m
    cdef int v
    cdef MEntry* e
    if not memo_init(&m):
        free(m.t)
        free(m.buf.p)
        raise MemoryError()
    with nogil:
        v = min_plays_rec(&m, hand, flags, 0)
    parts = []
    if v >= 0:
        while hand:
            e = memo_slot(&m, hand + 1)
            parts.append((e.cards, e.info))
            hand -= e.cards
    free(m.t)
    free(m.buf.p)
    if v < 0:
        raise MemoryError()
    return v, parts


def _min_plays_batch(const u64[::1] hands, int flags):
    """Kernel of ``ddzcore.solver.min_plays_batch``: an int16 array of counts."""
    cdef Memo m
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int err = 0, v
    out = np.empty(n, np.int16)
    cdef int16_t[::1] o = out
    if not memo_init(&m):
        free(m.t)
        free(m.buf.p)
        raise MemoryError()
    with nogil:
        for i in range(n):
            v = min_plays_rec(&m, hands[i], flags, 0)
            if v < 0:
                err = 1
                break
            o[i] = v
            memo_next(&m)
    free(m.t)
    free(m.buf.p)
    if err:
        raise MemoryError()
    return out
