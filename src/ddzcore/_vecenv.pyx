# cython: language_level=3, wraparound=False, cdivision=True
"""Native core of ``ddzcore.envs.vector.VectorEnv``: K play-phase games stepped in C.

Each game is an ``Env`` record (the native ``State`` of ``_state.pxd``, its
own PRNG, and the little history the encodings need); ``VecCore.run_all``
runs a phase (reset, step, ...) over every game without the GIL, on one or
more threads (below).  Every output is written in place into NumPy arrays the
Python side allocated once: no Python object per game or per move.

Per game, docs/rules.md §3-4 and §6 for the play phase: a deal (17/17/17 +
3 bottom cards), a landlord drawn uniformly from the game's PRNG who takes
the bottom cards and leads; seats outside the caller's ``seats`` are played
by a native bot; at the end every seat's points as ``Game`` settles a play
phase with base 1, no robs, no show cards, no doubling: the per-farmer stake
X = 2 ** bombs (bombs and rockets played), doubled for a spring (春天) or
anti-spring (反春); the landlord wins or loses 2X, each farmer X.

Game k's PRNG is seeded from (seed, k) alone, so a game's course depends on
the seed and the actions, never on the thread count or the range split; its
second PRNG (``arng``, seeded from (seed, k) too) draws only the random
actions of ``sample_actions``/``step_random``.

Threads: ``VecCore.serve(t)`` is the life of worker t (a Python thread that
releases the GIL for its whole life).  ``VecCore.run_all`` posts a
generation; every thread, the caller too, then claims blocks of games:
its own range first (so its games stay in its core's cache), then what the
others have not reached, so a worker that the OS has not scheduled yet (the
machines are shared) costs nothing but its help, and the blocks balance the
games' uneven costs.  A worker polls for the next
generation for some tens of microseconds (a step comes every few hundred in
a training loop), then sleeps on its lock: an idle environment costs no CPU.
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memset, memmove
from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.math cimport ldexp

from ddzcore.bits cimport *
from ddzcore._state cimport (State, Undo, Rng, legal, push, is_over, rng_seed, rng_below, deal, state_set, game_seed,
                             MAX_MOVES)
from ddzcore._douzero cimport encode_rows

cimport numpy as cnp
import numpy as np

from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

from ddzcore._errors import EnvActionError, EnvStateError, InvalidArgumentError

cnp.import_array()

cdef enum:
    OBS = 148           # compact observation bytes (COMPACT_LAYOUT)
    DZ_WIDTH = 484      # x row stride: a farmer's width; the landlord's rows use 373 columns
    DZ_LANDLORD = 373
    ROW = 30            # words of a DouZero decision row (_douzero.DECISION_FIELDS)
    SEQ = 15            # actions DouZero's z remembers
    E_OK = 0
    E_MOVES = 1         # more legal moves than MAX_MOVES
    E_SPACE = 2         # a legal move outside the action space
    # run_all's phases
    P_RESET = 0
    P_STEP = 1          # play v.actions (checked by P_CHECK first)
    P_ROWS = 2          # DouZero x rows (after set_rows)
    P_CHECK = 3         # find the first game whose action is not legal
    P_SAMPLE = 4        # draw a random legal action per game into v.sample
    P_RANDOM = 5        # P_SAMPLE then P_STEP on it, game by game
    P_STOP = 6          # a worker's end
    SPIN = 200          # polls (with a pause) before a worker sleeps or a waiter yields: a few microseconds
    BLOCKS_PER_THREAD = 8   # blocks of games a step is cut into, per thread (for balance)
    LINE = 64           # bytes of a cache line

from ddzcore.atomic cimport ddz_load, ddz_store, ddz_add, ddz_cas, ddz_pause, ddz_yield, ddz_sleep_while, ddz_wake

#: Bytes of the compact observation.
COMPACT_SIZE = OBS
#: Columns of the DouZero x rows (a farmer's 484; the landlord's 373 then zeros).
DOUZERO_WIDTH = DZ_WIDTH
#: Most legal moves of one position the buffers hold (``legal_ids`` columns).
MAX_LEGAL = MAX_MOVES
#: ``VecCore.run_all``'s phases: a new game in every env, the checked
#: actions played, the DouZero rows, random actions drawn, random actions played.
RESET, STEP, ROWS, SAMPLE, RANDOM = P_RESET, P_STEP, P_ROWS, P_SAMPLE, P_RANDOM

#: The compact observation (int8), from the seat to move: relative seats are
#: 0 self, 1 the next seat (who plays after it), 2 the previous seat.  Card
#: counts are 15 bytes in rank order 3..A, 2, B (small joker), R (big joker).
COMPACT_LAYOUT = (
    ("hand", 0, 15),            # own hand
    ("unseen", 15, 30),         # the other two hands together
    ("played_self", 30, 45),    # cards played by each seat so far
    ("played_next", 45, 60),
    ("played_prev", 60, 75),
    ("to_beat", 75, 90),        # the move to beat (all 0 on a free lead)
    ("to_beat_combo", 90, 91),  # its Combo value (0: free lead)
    ("to_beat_length", 91, 92), # its chain length (1 for non-chains)
    ("to_beat_main", 92, 93),   # its main rank index 0..14
    ("left", 93, 96),           # cards left: self, next, prev
    ("landlord", 96, 99),       # one-hot: who is landlord (self, next, prev)
    ("to_beat_owner", 99, 102), # one-hot: who played the move to beat (all 0 on a free lead)
    ("bottom", 102, 117),       # the bottom cards (public once the landlord has them)
    ("last_next", 117, 132),    # the latest action of the next seat (0 for a pass or none yet)
    ("last_prev", 132, 147),    # the latest action of the previous seat
    ("bombs", 147, 148),        # bombs and rockets played so far
)


cdef struct Env:
    State st
    Rng rng
    u64 dealt[3]        # hands at the start of play (the landlord's with the bottom cards)
    u64 bottom
    u64 last_act[3]     # each seat's latest action (0: a pass, or nothing yet)
    u64 seq[15]         # the latest (up to) 15 actions, oldest first
    int32_t nseq
    int32_t err
    Rng arng            # the random actions' PRNG (sample_actions, step_random)


cdef struct Core:
    Env* envs
    Py_ssize_t K
    int flags
    int learners        # bit s set: the caller plays seat s; a bot plays the others
    int douzero
    # the action space: id -> (cards, info), and (cards, info) -> id by open addressing
    const u64* a_cards
    const u64* a_info
    const int32_t* slots
    uint32_t hmask
    Py_ssize_t A
    # outputs (rows of K)
    int8_t* obs
    int8_t* final_obs
    uint8_t* mask
    int32_t* legal_ids
    int32_t* n_legal
    int8_t* seat
    int8_t* landlord
    float* rewards
    uint8_t* dones
    int8_t* final_landlord
    int8_t* final_winner
    int32_t* final_multiplier
    int32_t* final_plies
    u64* rows
    int8_t* position
    # douzero rows (set per call)
    float* x
    float* z
    const int64_t* offsets
    const int64_t* actions
    int64_t* sample     # the random actions (the "actions" buffer)


cdef struct Pool:
    # The handoff of one run_all: the main thread posts a generation and
    # every thread (it too) claims blocks of games until none is left.
    # Each field that more than one thread writes has its own cache line.
    char pad0[LINE]
    long long go        # the generation posted (the main thread writes it)
    int phase           # its phase
    Py_ssize_t block    # games per block
    Py_ssize_t nblocks
    char pad1[LINE]
    long long finished  # blocks finished in this generation
    char pad2[LINE]


cdef struct Slot:
    # Thread t's blocks and sleep (thread 0 is the caller): padded so that
    # two slots never share a cache line.
    char before[LINE]
    long long claim     # (generation << 32) | its next unclaimed block
    Py_ssize_t end      # its blocks end here (they start where slot t - 1's end)
    long long sleeping  # the worker is (about to be) asleep on wake
    PyThread_type_lock wake
    char after[LINE]


cdef inline uint32_t hash2(u64 c, u64 i) noexcept nogil:
    return <uint32_t>(((c * 0x9E3779B97F4A7C15ULL) ^ ((i + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL)) >> 40)


cdef inline int32_t find_id(const Core* v, u64 c, u64 i) noexcept nogil:
    """The action id of (cards c, info i), -1 when outside the action space."""
    cdef uint32_t h = hash2(c, i) & v.hmask
    cdef int32_t k
    while True:
        k = v.slots[h]
        if k < 0 or (v.a_cards[k] == c and v.a_info[k] == i):
            return k
        h = (h + 1) & v.hmask


cdef inline void counts(int8_t* dst, u64 w) noexcept nogil:
    cdef int r
    for r in range(15):
        dst[r] = <int8_t>((w >> (4 * r)) & 0xF)


cdef void new_game(Env* e, int flags) noexcept nogil:
    """Deal, draw the landlord (who takes the bottom cards and leads): docs/rules.md §3-4."""
    cdef u64 hands[3]
    cdef u64 bottom
    cdef int L, i
    deal(&e.rng, hands, &bottom)
    L = rng_below(&e.rng, 3)
    hands[L] += bottom
    for i in range(3):
        e.dealt[i] = hands[i]
        e.last_act[i] = 0
    e.bottom = bottom
    state_set(&e.st, hands, 3, 0, 0, flags, L, -1, L, -1, 0, 0, 0)
    e.nseq = 0


cdef inline void apply(Env* e, u64 cards, u64 info) noexcept nogil:
    cdef Undo u
    e.last_act[e.st.turn] = cards
    push(&e.st, cards, info, &u)
    if e.nseq == SEQ:
        memmove(e.seq, e.seq + 1, (SEQ - 1) * sizeof(u64))
        e.nseq -= 1
    e.seq[e.nseq] = cards
    e.nseq += 1


# ---------------------------------------------------------------- bots

# A bot picks one of the n legal moves moves[0:n] (n >= 1) of the seat to
# move in *s; it may draw from the game's PRNG *r.  Another bot (a native
# rule bot) is a function of this type added to BOTS.
ctypedef Py_ssize_t (*BotFn)(const State* s, const MoveRec* moves, Py_ssize_t n, Rng* r) noexcept nogil


cdef Py_ssize_t random_bot(const State* s, const MoveRec* moves, Py_ssize_t n, Rng* r) noexcept nogil:
    """A uniformly random legal move."""
    return rng_below(r, <uint32_t>n)


cdef BotFn BOTS[1]
BOTS[0] = random_bot
#: Bot names, in the order of the native table (the index is ``Core``'s ``bot``).
BOT_NAMES = ("random",)


cdef int play_bots(const Core* v, Env* e, BotFn bot, MoveRec* buf) noexcept nogil:
    """Bots move until a learner's turn or the end; an E_* code."""
    cdef Py_ssize_t n, j
    while not is_over(&e.st) and not (v.learners >> e.st.turn) & 1:
        n = legal(&e.st, buf, MAX_MOVES)
        if n > MAX_MOVES:
            return E_MOVES
        j = bot(&e.st, buf, n, &e.rng)
        apply(e, buf[j].cards, buf[j].info)
    return E_OK


cdef int start(const Core* v, Env* e, BotFn bot, MoveRec* buf) noexcept nogil:
    """A new game up to a learner's first turn (a deal the bots finish
    before any learner moves is dealt again)."""
    cdef int err
    while True:
        new_game(e, v.flags)
        err = play_bots(v, e, bot, buf)
        if err or not is_over(&e.st):
            return err


# ---------------------------------------------------------------- outputs

cdef void compact(const Env* e, int8_t* o) noexcept nogil:
    """The compact observation of the seat to move (COMPACT_LAYOUT)."""
    cdef const State* s = &e.st
    cdef int p = s.turn, q, i
    cdef u64 info = s.last_info
    counts(o, s.hand[p])
    counts(o + 15, s.hand[(p + 1) % 3] + s.hand[(p + 2) % 3])
    for i in range(3):
        q = (p + i) % 3
        counts(o + 30 + 15 * i, e.dealt[q] - s.hand[q])
        o[93 + i] = <int8_t>card_total(s.hand[q])
        o[96 + i] = s.landlord == q
        o[99 + i] = s.last_info != 0 and s.owner == q
    counts(o + 75, s.last_cards)
    o[90] = <int8_t>info_combo(info)
    o[91] = <int8_t>info_length(info)
    o[92] = <int8_t>info_main(info)
    counts(o + 102, e.bottom)
    counts(o + 117, e.last_act[(p + 1) % 3])
    counts(o + 132, e.last_act[(p + 2) % 3])
    o[147] = <int8_t>s.bombs


cdef void decision_row(const Env* e, u64* d) noexcept nogil:
    """The DouZero decision row (DECISION_FIELDS) of the seat to move.
    DouZero's positions: 0 landlord, 1 landlord_up (plays before the
    landlord), 2 landlord_down (plays after it)."""
    cdef const State* s = &e.st
    cdef int p = s.turn, L = s.landlord, q, t, i
    d[0] = (L - p + 3) % 3
    d[1] = s.hand[p]
    d[2] = s.hand[(p + 1) % 3] + s.hand[(p + 2) % 3]
    d[3] = s.last_cards
    for q in range(3):
        t = (L - q + 3) % 3
        d[4 + q] = e.dealt[t] - s.hand[t]
        d[7 + q] = e.last_act[t]
        d[10 + q] = <u64>card_total(s.hand[t])
    d[13] = s.bombs
    d[14] = <u64>e.nseq
    for i in range(SEQ):
        d[15 + i] = e.seq[i] if i < e.nseq else 0


cdef void settle(const Env* e, float* r) noexcept nogil:
    """Every seat's points (docs/rules.md §6, play phase, base 1)."""
    cdef const State* s = &e.st
    cdef int L = s.landlord, i
    cdef bint lw = s.owner == L
    cdef bint spring = (lw and s.farmer_plays == 0) or (not lw and s.landlord_plays == 1)
    cdef double x = ldexp(1.0, s.bombs + (1 if spring else 0))
    if not lw:
        x = -x
    for i in range(3):
        r[i] = <float>(2 * x if i == L else -x)


cdef int observe(const Core* v, Py_ssize_t k, Env* e, MoveRec* buf) noexcept nogil:
    """Legal ids, mask, seat and the observation of game k's seat to move."""
    cdef Py_ssize_t n = legal(&e.st, buf, MAX_MOVES), j
    cdef int32_t a
    cdef int32_t* ids = v.legal_ids + k * MAX_MOVES
    cdef uint8_t* m = v.mask + k * v.A
    if n > MAX_MOVES:
        v.n_legal[k] = 0
        return E_MOVES
    for j in range(n):
        a = find_id(v, buf[j].cards, buf[j].info)
        if a < 0:
            v.n_legal[k] = j
            return E_SPACE
        ids[j] = a
        m[a] = 1
    v.n_legal[k] = <int32_t>n
    v.seat[k] = e.st.turn
    v.landlord[k] = e.st.landlord
    if v.douzero:
        decision_row(e, v.rows + k * ROW)
        v.position[k] = <int8_t>v.rows[k * ROW]
    else:
        compact(e, v.obs + k * OBS)
    return E_OK


cdef inline void unmask(const Core* v, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t j
    cdef int32_t* ids = v.legal_ids + k * MAX_MOVES
    cdef uint8_t* m = v.mask + k * v.A
    for j in range(v.n_legal[k]):
        m[ids[j]] = 0


cdef int step_one(const Core* v, Py_ssize_t k, BotFn bot, MoveRec* buf) noexcept nogil:
    """Game k plays the validated action v.actions[k], then its bots; a
    finished game is settled and a new one started (same-step autoreset)."""
    cdef Env* e = v.envs + k
    cdef int64_t a = v.actions[k]
    cdef int p = e.st.turn, err
    cdef const State* s = &e.st
    unmask(v, k)
    apply(e, v.a_cards[a], v.a_info[a])
    err = play_bots(v, e, bot, buf)
    if err:
        return err
    v.dones[k] = is_over(s)
    if not v.dones[k]:
        v.rewards[3 * k] = v.rewards[3 * k + 1] = v.rewards[3 * k + 2] = 0
        return observe(v, k, e, buf)
    settle(e, v.rewards + 3 * k)
    v.final_landlord[k] = s.landlord
    v.final_winner[k] = s.owner
    v.final_multiplier[k] = <int32_t>(<double>v.rewards[3 * k + s.landlord] / (2 if s.owner == s.landlord else -2))
    v.final_plies[k] = s.ply
    if not v.douzero:
        e.st.turn = p                  # the final observation is the acting seat's view
        compact(e, v.final_obs + k * OBS)
    err = start(v, e, bot, buf)
    if err:
        return err
    return observe(v, k, e, buf)


cdef int reset_one(const Core* v, Py_ssize_t k, BotFn bot, MoveRec* buf) noexcept nogil:
    cdef Env* e = v.envs + k
    cdef int err
    unmask(v, k)
    v.dones[k] = 0
    v.rewards[3 * k] = v.rewards[3 * k + 1] = v.rewards[3 * k + 2] = 0
    err = start(v, e, bot, buf)
    if err:
        return err
    return observe(v, k, e, buf)


cdef void encode_one_env(const Core* v, Py_ssize_t k) noexcept nogil:
    """Game k's DouZero x rows (at offsets[k]) and z."""
    cdef u64 words[MAX_MOVES]
    cdef Py_ssize_t j, n = v.n_legal[k], i
    cdef const int32_t* ids = v.legal_ids + k * MAX_MOVES
    cdef float* x = v.x + v.offsets[k] * DZ_WIDTH
    for j in range(n):
        words[j] = v.a_cards[ids[j]]
    encode_rows(v.rows + k * ROW, words, n, DZ_WIDTH, x, v.z + k * 810)
    if v.rows[k * ROW] == 0:
        for j in range(n):
            for i in range(DZ_LANDLORD, DZ_WIDTH):
                x[j * DZ_WIDTH + i] = 0


# ---------------------------------------------------------------- running ranges and threads

cdef void run_range(const Core* v, BotFn bot, int phase, Py_ssize_t lo, Py_ssize_t hi,
                    int64_t* bad, int* code) noexcept nogil:
    """One phase over games lo..hi-1; *bad, *code: the first failure (game, E_* code) or -1."""
    cdef MoveRec buf[MAX_MOVES]
    cdef Py_ssize_t k
    cdef int64_t a
    cdef int err = 0
    bad[0] = -1
    code[0] = E_OK
    for k in range(lo, hi):
        if phase == P_CHECK:
            a = v.actions[k]
            if a < 0 or a >= v.A or not v.mask[k * v.A + a]:
                bad[0] = k
                return
            continue
        if phase == P_SAMPLE or phase == P_RANDOM:
            v.sample[k] = v.legal_ids[k * MAX_MOVES + rng_below(&v.envs[k].arng, <uint32_t>v.n_legal[k])]
            if phase == P_SAMPLE:
                continue
        if phase == P_RESET:
            err = reset_one(v, k, bot, buf)
        elif phase == P_ROWS:
            encode_one_env(v, k)
        else:
            err = step_one(v, k, bot, buf)
        if err:
            bad[0] = k
            code[0] = err
            return


cdef void work(const Core* v, BotFn bot, Pool* p, Slot* slots, int n, int me, long long gen, int phase,
               int64_t* bad, int* code) noexcept nogil:
    """Claim and run blocks of generation `gen`: thread `me`'s own first
    (its games stay in its core's cache from step to step), then those the
    other threads have not reached, until none is left."""
    cdef long long c, b
    cdef int i
    cdef Slot* s
    for i in range(n):
        s = slots + (me + i) % n
        while True:
            c = ddz_load(&s.claim)
            b = c & <long long>0xFFFFFFFFU
            if (c >> 32) != gen or b >= s.end:
                break
            if not ddz_cas(&s.claim, c, c + 1):
                continue
            run_range(v, bot, phase, b * p.block, min(v.K, (b + 1) * p.block), bad + b, code + b)
            ddz_add(&p.finished, 1)


cdef void serve_slot(const Core* v, BotFn bot, Pool* p, Slot* slots, int n, int me,
                     int64_t* bad, int* code) noexcept nogil:
    """A worker's life: wait for a generation (polling, then asleep), help
    with its blocks; until P_STOP."""
    cdef long long seen = 0
    cdef int i
    cdef Slot* s = slots + me
    while True:
        for i in range(SPIN):
            if ddz_load(&p.go) != seen:
                break
            ddz_pause()
        else:
            ddz_sleep_while(&p.go, seen, &s.sleeping, s.wake)
        seen = ddz_load(&p.go)
        if p.phase == P_STOP:
            return
        work(v, bot, p, slots, n, me, seen, p.phase, bad, code)


# ---------------------------------------------------------------- the Python-facing core

cdef class VecCore:
    """K games, their output buffers and the worker slots (built by
    ``ddzcore.envs.vector``, which documents the behaviour).  ``run_all``
    runs a phase over every game without the GIL, on ``threads`` ranges:
    range 0 in the calling thread, range t in the Python thread that runs
    ``serve(t)``."""

    cdef Core c
    cdef Env* envs
    cdef BotFn bot
    cdef Pool* pool
    cdef Slot* slots
    cdef void* block_mem
    cdef int64_t* bad          # per block: its first failing game or -1
    cdef int* code             # per block: that failure's E_* code
    cdef readonly int threads
    cdef long long gen
    cdef readonly object buffers
    cdef object _keep, _actions, _rows

    def __cinit__(self):
        self.envs = NULL
        self.block_mem = NULL
        self.threads = 0

    def __init__(self, Py_ssize_t num_envs, int flags, int learners, int bot, bint douzero,
                 cnp.ndarray codes, dict buffers, int threads):
        cdef Py_ssize_t A = len(codes), size = 1, i
        cdef uint32_t h
        cdef Core* c = &self.c
        cdef u64[::1] cards = np.ascontiguousarray(codes["cards"], np.uint64)
        cdef u64[::1] info = np.ascontiguousarray(codes["info"], np.uint64)
        cdef int t, n = <int>min(threads, num_envs)
        cdef Py_ssize_t block = max(1, (num_envs + n * BLOCKS_PER_THREAD - 1) // (n * BLOCKS_PER_THREAD))
        cdef Py_ssize_t nblocks = (num_envs + block - 1) // block
        cdef char* mem
        while size < 2 * A:
            size *= 2
        slots = np.full(size, -1, np.int32)
        cdef int32_t[::1] sl = slots
        for i in range(A):
            h = hash2(cards[i], info[i]) & (size - 1)
            while sl[h] >= 0:
                h = (h + 1) & (size - 1)
            sl[h] = <int32_t>i
        self.envs = <Env*>calloc(num_envs, sizeof(Env))
        self.block_mem = calloc(1, LINE + sizeof(Pool) + n * sizeof(Slot) + nblocks * (sizeof(int64_t) + sizeof(int)))
        if self.envs == NULL or self.block_mem == NULL:
            raise MemoryError()
        mem = <char*>((<size_t>self.block_mem + LINE - 1) & ~(<size_t>LINE - 1))
        self.pool = <Pool*>mem
        self.slots = <Slot*>(mem + sizeof(Pool))
        self.bad = <int64_t*>(mem + sizeof(Pool) + n * sizeof(Slot))
        self.code = <int*>(self.bad + nblocks)
        self.pool.block = block
        self.pool.nblocks = nblocks
        for t in range(n):
            self.slots[t].end = (t + 1) * nblocks // n
        self.threads = 1
        for t in range(1, n):
            self.slots[t].wake = PyThread_allocate_lock()
            if self.slots[t].wake == NULL:
                raise MemoryError()
            PyThread_acquire_lock(self.slots[t].wake, WAIT_LOCK)      # taken: a worker sleeps on it
            self.threads = t + 1
        self.buffers = buffers
        self._keep = (cards, info, slots)
        self.bot = BOTS[bot]
        c.envs = self.envs
        c.K = num_envs
        c.flags = flags
        c.learners = learners
        c.douzero = douzero
        c.a_cards = &cards[0]
        c.a_info = &info[0]
        c.slots = &sl[0]
        c.hmask = size - 1
        c.A = A
        c.obs = <int8_t*>_ptr(buffers["obs"])
        c.final_obs = <int8_t*>_ptr(buffers["final_obs"])
        c.mask = <uint8_t*>_ptr(buffers["mask"])
        c.legal_ids = <int32_t*>_ptr(buffers["legal_ids"])
        c.n_legal = <int32_t*>_ptr(buffers["n_legal"])
        c.seat = <int8_t*>_ptr(buffers["seat"])
        c.landlord = <int8_t*>_ptr(buffers["landlord"])
        c.rewards = <float*>_ptr(buffers["rewards"])
        c.dones = <uint8_t*>_ptr(buffers["dones"])
        c.final_landlord = <int8_t*>_ptr(buffers["final_landlord"])
        c.final_winner = <int8_t*>_ptr(buffers["final_winner"])
        c.final_multiplier = <int32_t*>_ptr(buffers["final_multiplier"])
        c.final_plies = <int32_t*>_ptr(buffers["final_plies"])
        c.rows = <u64*>_ptr(buffers["rows"])
        c.position = <int8_t*>_ptr(buffers["position"])
        c.z = <float*>_ptr(buffers["z"])
        c.sample = <int64_t*>_ptr(buffers["actions"])
        c.x = NULL
        c.offsets = NULL
        c.actions = NULL

    def __dealloc__(self):
        cdef int t
        for t in range(1, self.threads):
            PyThread_free_lock(self.slots[t].wake)
        free(self.block_mem)
        free(self.envs)

    def serve(self, int t):
        """Worker t's life (call it in its own thread, once): run the phases
        ``run_all`` posts to slot t, without the GIL, until ``stop``."""
        if not 0 < t < self.threads:
            raise InvalidArgumentError(f"worker {t} is not in 1..{self.threads - 1}")
        with nogil:
            serve_slot(&self.c, self.bot, self.pool, self.slots, self.threads, t, self.bad, self.code)

    def stop(self):
        """End every worker's ``serve`` (the caller joins their threads);
        later phases run in the calling thread alone."""
        if self.threads > 1:
            self.post(P_STOP)
            self.threads = 1

    cdef void post(self, int phase) noexcept nogil:
        cdef int t
        self.gen += 1
        self.pool.phase = phase
        ddz_store(&self.pool.finished, 0)
        for t in range(self.threads):
            ddz_store(&self.slots[t].claim, (self.gen << 32) | (self.slots[t - 1].end if t else 0))
        ddz_store(&self.pool.go, self.gen)
        for t in range(1, self.threads):
            ddz_wake(&self.slots[t].sleeping, self.slots[t].wake)

    cdef Py_ssize_t dispatch(self, int phase) noexcept:
        """Run `phase` over every game; returns the block holding the first
        failing game, or -1.  One thread: the games in order; several: every
        thread claims blocks (the results are the same: games are independent)."""
        cdef Py_ssize_t b, nb = self.pool.nblocks
        cdef int i
        with nogil:
            if self.threads == 1:
                run_range(&self.c, self.bot, phase, 0, self.c.K, self.bad, self.code)
                nb = 1
            else:
                self.post(phase)
                work(&self.c, self.bot, self.pool, self.slots, self.threads, 0, self.gen, phase, self.bad, self.code)
                for i in range(SPIN):
                    if ddz_load(&self.pool.finished) == nb:
                        break
                    ddz_pause()
                while ddz_load(&self.pool.finished) != nb:   # a worker is finishing a block
                    ddz_yield()
        for b in range(nb):
            if self.bad[b] >= 0:
                return b
        return -1

    def seed(self, uint64_t seed):
        """Seed game k's PRNGs (its game's and its random actions') from (seed, k)."""
        cdef Py_ssize_t k
        cdef uint64_t s
        for k in range(self.c.K):
            s = game_seed(seed, <uint64_t>k)
            rng_seed(&self.envs[k].rng, s)
            rng_seed(&self.envs[k].arng, s ^ 0x616374696F6E73ULL)   # "actions"

    def start_of(self, Py_ssize_t k):
        """Game k's deal: (three hands as dealt, before the landlord takes the
        bottom cards, as card words; the bottom cards' word; the landlord)."""
        cdef Env* e
        cdef int L
        if not 0 <= k < self.c.K:
            raise InvalidArgumentError(f"env index {k} is not in 0..{self.c.K - 1}")
        e = self.envs + k
        L = e.st.landlord
        return (tuple(e.dealt[i] - (e.bottom if i == L else 0) for i in range(3)), e.bottom, L)

    def step(self, cnp.ndarray actions):
        """Play ``actions`` (int64, (K,), contiguous) after checking every
        one is legal: EnvActionError naming the first game whose action is
        not, with nothing changed.  Returns ``run_all``'s failure or None."""
        cdef const int64_t[::1] a = actions
        cdef Py_ssize_t bad, t
        cdef const Core* v = &self.c
        self._actions = actions
        self.c.actions = &a[0]
        t = self.dispatch(P_CHECK)
        if t >= 0:
            bad = self.bad[t]
            raise EnvActionError(
                f"env {bad}: action {a[bad]} is not legal for seat {v.seat[bad]} (legal ids: "
                f"{sorted(np.asarray(self.buffers['legal_ids'][bad, :v.n_legal[bad]]).tolist())[:12]}"
                f"{' ...' if v.n_legal[bad] > 12 else ''}); no game was changed", f"env {bad}", v.seat[bad], a[bad])
        return self.failure(self.dispatch(P_STEP))

    def set_rows(self, cnp.ndarray x, cnp.ndarray offsets):
        """The DouZero row buffer (float32 (R, 484), R >= offsets[K]) and offsets (int64, K + 1)."""
        self._rows = (x, offsets)
        self.c.x = <float*>_ptr(x)
        self.c.offsets = <const int64_t*>_ptr(offsets)

    def run_all(self, int phase):
        """RESET, ROWS (after ``set_rows``), SAMPLE (random actions into the
        ``actions`` buffer) or RANDOM (those actions played) over every
        game (STEP is ``step``'s, after its check).  Returns (game, E_*
        code) of the first failure, or None."""
        if phase not in (P_RESET, P_ROWS, P_SAMPLE, P_RANDOM):
            raise InvalidArgumentError(f"run_all runs RESET, ROWS, SAMPLE or RANDOM, not phase {phase}")
        if phase == P_RANDOM:
            self._actions = None
            self.c.actions = self.c.sample
        return self.failure(self.dispatch(phase))

    cdef object failure(self, Py_ssize_t block):
        return None if block < 0 else (self.bad[block], self.code[block])


cdef void* _ptr(cnp.ndarray a) except NULL:
    if not a.flags.c_contiguous:
        raise InvalidArgumentError("buffers must be C-contiguous")
    return cnp.PyArray_DATA(a) if a.size else <void*>1

