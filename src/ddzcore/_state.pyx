# cython: language_level=3, wraparound=False, cdivision=True
"""Native play-phase state, perft and batch random self-play (docs/rules.md §3-4, §6).

The C side (``State``, ``Undo``, ``push``, ``pop``, ``legal``, the PRNG) is
declared in ``_state.pxd`` so other Cython modules can ``cimport`` it; this
module adds the exported ``state_perft`` and ``deal``, the random game loop
behind ``simulate`` and its result ``Columns``, and ``PlayState``, whose
moves cross as integer codes (``ddzcore.search.PlayState`` subclasses it
for ``Hand``, ``Move`` and ``Rules``; this module imports no Python layer).  Nothing in the
search and self-play loops allocates: moves go into buffers made once per
call (grown, never per move, if a position has more moves than they hold).
"""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, int32_t, int64_t, uint64_t

from ddzcore.bits cimport *
from ddzcore._kernel cimport generate, beats, valid_hand, valid_reading, adopt_block, crew_take, crew_run
from ddzcore.atomic cimport ddz_load, ddz_store, ddz_add
from ddzcore.flow cimport *
from ddzcore._movelist cimport MoveList

cimport numpy as cnp

import numpy as np

cnp.import_array()

from ddzcore._errors import (IllegalMoveError, InvalidArgumentError, InvalidCardsError, InvalidDealError, InvalidMoveError,
                            InvalidRulesError, InvalidStateError, MoveIndexError)
from ddzcore._kernel import MOVE_DTYPE
from ddzcore._movelist import _pair

#: Bytes of one native ``State`` (a copy is a copy of this many bytes).
STATE_BYTES = sizeof(State)
#: Bytes ``pop`` needs per pushed move (one ``Undo`` record).
UNDO_BYTES = sizeof(Undo)
#: A move buffer of this many records holds every legal move of any
#: one-deck hand without wild cards found (the most seen is 521; laizi hands
#: can have over 9000); ``legal_moves_into`` reports a larger count rather
#: than overflow.
MAX_MOVES_HINT = MAX_MOVES

#: One recorded move of ``simulate(record=True)``: the card word, the low 16
#: bits of the info word (combo, main, length: all of it without wild cards)
#: and the seat that moved.  Packed, 11 bytes.
RECORD_DTYPE = np.dtype([("cards", "<u8"), ("info", "<u2"), ("seat", "i1")])

cdef packed struct MoveOut:
    uint64_t cards
    uint16_t info
    int8_t seat

assert RECORD_DTYPE.itemsize == sizeof(MoveOut)

#: The flow-action table of ``ddzcore/flow.pxd`` (name -> value), which
#: ``ddzcore.game.Action`` and ``ddzcore.five.FiveAction`` mirror.
FLOW_ACTIONS = {
    "NO_SHOW": A_NO_SHOW, "SHOW": A_SHOW, "NO_CALL": A_NO_CALL, "CALL": A_CALL, "NO_ROB": A_NO_ROB,
    "ROB": A_ROB, "NO_BID": A_NO_BID, "BID_1": A_BID_1, "BID_2": A_BID_2, "BID_3": A_BID_3,
    "NO_DOUBLE": A_NO_DOUBLE, "DOUBLE": A_DOUBLE, "ESCAPE": A_ESCAPE, "NO_REVEAL": A_NO_REVEAL,
    "REVEAL": A_REVEAL,
}


# ---------------------------------------------------------------- deal

cdef unsigned char _DECK[54]
cdef int _i
for _i in range(52):
    _DECK[_i] = _i // 4
_DECK[52] = R_SMALL
_DECK[53] = R_BIG


cdef inline void shuffle(Rng* r, unsigned char* d, int n) noexcept nogil:
    """Fisher-Yates over d[0:n]."""
    cdef unsigned char t
    cdef int i, j
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = d[i]
        d[i] = d[j]
        d[j] = t


cdef void deal(Rng* r, u64* hands, u64* bottom) noexcept nogil:
    """Shuffle one deck and deal 17/17/17 + 3 bottom cards."""
    cdef unsigned char d[54]
    cdef int i, j
    cdef u64 w
    memcpy(d, _DECK, 54)
    shuffle(r, d, 54)
    for i in range(3):
        w = 0
        for j in range(17 * i, 17 * i + 17):
            w += unit(d[j])
        hands[i] = w
    bottom[0] = unit(d[51]) + unit(d[52]) + unit(d[53])


cdef int deal_five(Rng* r, u64* hands, u64* bottom, int* open_ll, int* partner) noexcept nogil:
    """Shuffle two decks of card ids, deal 21 x 5 + 3 bottom cards and draw
    the marked card among the dealt non-jokers."""
    cdef unsigned char d[108]
    cdef int i, j, k, pos = 0, mk, twin
    cdef u64 w
    for i in range(108):
        d[i] = i
    shuffle(r, d, 108)
    for i in range(5):
        w = 0
        for j in range(21 * i, 21 * i + 21):
            w += unit(_DECK[d[j] % 54])
        hands[i] = w
    bottom[0] = unit(_DECK[d[105] % 54]) + unit(_DECK[d[106] % 54]) + unit(_DECK[d[107] % 54])
    # the k-th dealt non-joker, uniformly: 105 dealt cards minus the jokers among them
    k = 105
    for i in range(105):
        if d[i] % 54 >= 52:
            k -= 1
    k = rng_below(r, k)
    for i in range(105):
        if d[i] % 54 < 52:
            if k == 0:
                pos = i
                break
            k -= 1
    mk = d[pos]
    open_ll[0] = pos // 21
    twin = (mk + 54) % 108
    partner[0] = -1
    for i in range(105):
        if d[i] == twin and i // 21 != open_ll[0]:
            partner[0] = i // 21
    return mk


# ---------------------------------------------------------------- move buffers

cdef bint buf_reserve(Buf* b, Py_ssize_t n) noexcept nogil:
    """Make room for n records (keeping the contents); False when out of memory."""
    cdef MoveRec* p
    if n <= b.cap:
        return True
    if n < 2 * b.cap:
        n = 2 * b.cap
    p = <MoveRec*>realloc(b.p, n * sizeof(MoveRec))
    if p == NULL:
        return False
    b.p = p
    b.cap = n
    return True


cdef Py_ssize_t legal_into(const State* s, Buf* b, Py_ssize_t at) noexcept nogil:
    """Legal moves into b.p[at:], growing b if needed; -1 when out of memory."""
    cdef Py_ssize_t n = legal(s, b.p + at, b.cap - at)
    if n > b.cap - at:
        if not buf_reserve(b, at + n):
            return -1
        n = legal(s, b.p + at, b.cap - at)
    return n


# ---------------------------------------------------------------- perft

cdef int64_t perft_rec(State* s, int depth, Buf* b, Py_ssize_t at) noexcept nogil:
    """Sequences of `depth` >= 1 moves from s; moves of this node in b.p[at:at+n]
    (indices, not pointers: a child may grow the buffer)."""
    cdef Py_ssize_t n, i
    cdef int64_t total = 0, c
    cdef Undo u
    if is_over(s):
        return 0
    if depth == 1:
        return legal(s, NULL, 0)
    n = legal_into(s, b, at)
    if n < 0:
        return -1
    for i in range(n):
        push(s, b.p[at + i].cards, b.p[at + i].info, &u)
        c = perft_rec(s, depth - 1, b, at + n)
        pop(s, &u)
        if c < 0:
            return -1
        total += c
    return total


cdef int64_t state_perft(State* s, int depth) noexcept nogil:
    cdef Buf b
    cdef int64_t total
    if depth <= 0:
        return 1
    b.p = NULL
    b.cap = 0
    if not buf_reserve(&b, 8 * MAX_MOVES):
        return -1
    total = perft_rec(s, depth, &b, 0)
    free(b.p)
    return total


# ---------------------------------------------------------------- random games

cdef struct Flow:
    int flags
    int points          # 1: point bidding (叫分); 0: call and rob (叫地主/抢地主)
    int rob_back
    int max_redeals     # -1: no cap
    int laizi           # 1: draw the wild rank once the landlord is known (docs/rules.md §7)
    int five            # 1: five players, two decks (docs/rules.md §8; flags has F_TWO_DECKS)


cdef int call_rob(Rng* r, int first, int rob_back, GameOut* g) noexcept nogil:
    """docs/rules.md §4 with uniformly random choices: the landlord, or -1 when all pass.

    In turn from `first`, call (叫地主) or pass; the first call ends calling.
    Each player after the caller who has not passed may rob once (抢地主); if
    someone robbed, the caller may rob back last.  The last robber is landlord.
    Counts robs in g.robs and appends the decisions to g.calls.
    """
    cdef int i, j, p, caller = -1, landlord, n = 0
    for i in range(3):
        if rng_below(r, 2):
            g.calls[n] = A_CALL
            n += 1
            caller = (first + i) % 3
            break
        g.calls[n] = A_NO_CALL
        n += 1
    if caller < 0:
        return -1
    landlord = caller
    for j in range(i + 1, 3):
        p = (first + j) % 3
        if rng_below(r, 2):
            g.calls[n] = A_ROB
            landlord = p
            g.robs += 1
        else:
            g.calls[n] = A_NO_ROB
        n += 1
    if rob_back and g.robs:
        if rng_below(r, 2):
            g.calls[n] = A_ROB
            landlord = caller
            g.robs += 1
        else:
            g.calls[n] = A_NO_ROB
    return landlord


cdef int point_bid(Rng* r, int first, GameOut* g) noexcept nogil:
    """docs/rules.md §4 option (叫分), uniformly random: each player once, in turn
    from `first`, passes or bids above the best bid; 3 ends the bidding.  The
    highest bidder is landlord with g.base = the bid; -1 when all pass.
    Appends the decisions to g.calls."""
    cdef int i, b, best = 0, landlord = -1
    for i in range(3):
        b = rng_below(r, 4 - best)          # 0 = pass, else best + b
        if b:
            best += b
            landlord = (first + i) % 3
            g.calls[i] = A_BID_1 - 1 + best
            if best == 3:
                break
        else:
            g.calls[i] = A_NO_BID
    g.base = best
    return landlord


cdef inline int random_step(State* s, Rng* r, Buf* b, u64* cards, u64* info) noexcept nogil:
    """Push a uniformly random legal move; 0, or -1 when out of memory."""
    cdef Py_ssize_t n = legal_into(s, b, 0), k
    cdef Undo u
    if n < 0:
        return -1
    k = rng_below(r, <uint32_t>n)
    cards[0] = b.p[k].cards
    info[0] = b.p[k].info
    push(s, cards[0], info[0], &u)
    return 0


cdef void start_play(State* s, const u64* hands, int n, int flags, int landlord, int partner) noexcept nogil:
    """*s at the first lead of a deal: `n` hands, the landlord (with the bottom
    cards already in its hand) to move, nothing played yet."""
    state_set(s, hands, n, 0, 0, flags, landlord, -1, landlord, partner, 0, 0, 0)


cdef int record_move(Recs* rec, u64 cards, u64 info, int seat) noexcept nogil:
    """Append one move to *rec (out of line: the play loop stays small); -1 when out of memory."""
    cdef MoveOut* m = <MoveOut*>recs_add(rec)
    if m == NULL:
        return -1
    m.cards = cards
    m.info = <uint16_t>info
    m.seat = seat
    return 0


cdef int random_game(Rng* r, const Flow* f, Buf* b, Recs* rec, GameOut* g) noexcept nogil:
    """Deal, call and play one game with uniformly random choices into *g;
    moves appended to *rec when rec is not NULL.  0, or -1 when out of memory."""
    cdef State s
    cdef int landlord, i, partner = -1, flags = f.flags
    cdef u64 cards, info
    game_init(g)
    if f.five:
        # docs/rules.md §8: no calling; the marked card names the landlords (reveal and doubling left out)
        g.marked = deal_five(r, g.hands, &g.bottom, &landlord, &partner)
        g.first = landlord
        g.robs = 0
        g.base = 1
        memset(g.calls, NO_ACTION, 4)
        g.partner = partner
    else:
        while True:
            deal(r, g.hands, &g.bottom)
            g.first = rng_below(r, 3)
            g.robs = 0
            g.base = 1
            memset(g.calls, NO_ACTION, 4)
            if f.points:
                landlord = point_bid(r, g.first, g)
            else:
                landlord = call_rob(r, g.first, f.rob_back, g)
            if landlord >= 0:
                break
            if f.max_redeals >= 0 and g.redeals >= f.max_redeals:
                game_no_landlord(g)
                return 0
            g.redeals += 1
        if f.laizi:     # docs/rules.md §7: a rank from 3 to 2 drawn once the landlord is known
            g.wild = rng_below(r, 13)
            flags = (flags & ~0xF00) | ((g.wild + 1) << 8)
    g.hands[landlord] += g.bottom
    g.landlord = landlord
    start_play(&s, g.hands, 5 if f.five else 3, flags, landlord, partner)
    while not is_over(&s):
        i = s.turn
        if random_step(&s, r, b, &cards, &info) < 0:
            return -1
        if info_combo(info) == C_SOFT_BOMB:
            g.soft += 1
        if rec != NULL and record_move(rec, cards, info, i) < 0:
            return -1
    g.winner = s.owner
    g.turns = s.ply
    g.bombs = s.bombs
    g.spring = state_spring(&s)
    g.anti = state_anti_spring(&s)
    return 0


cdef bint state_spring(const State* s) noexcept nogil:
    """Over and spring: three players, the landlord won and no farmer played
    (春天, docs/rules.md §3); five players, the losing side played no card (§8)."""
    cdef bint lw
    if not is_over(s):
        return False
    lw = landlord_side(s, s.owner)
    if lw and s.farmer_plays == 0:
        return True
    return s.extra_seats != 0 and not lw and s.landlord_plays == 0


cdef bint state_anti_spring(const State* s) noexcept nogil:
    """Over, three players, a farmer won and the landlord played exactly one
    combination (反春, docs/rules.md §3); five players have none (§8)."""
    return is_over(s) and s.extra_seats == 0 and s.owner != s.landlord and s.landlord_plays == 1


cdef class Columns:
    """The result columns of ``n`` games of ``players`` seats (``cols``, a
    dict of NumPy arrays of ``n`` rows), filled by ``cols_put`` from ``GameOut``
    records; the keys and dtypes ``SelfPlay`` and ``ddzcore.tools.botsim``
    document: landlord, winner, first_caller, partner, wild (int8),
    redeals, turns (uint16), base, robs, bombs, marked, soft_bombs (uint8),
    spring, anti_spring (bool), bottom (uint64), hands (uint64, (n,
    players)), calls (uint8, (n, 4)), shows, doubles (uint8, (n, 3)))."""

    def __init__(self, Py_ssize_t n, int players):
        self.n = n
        self.cols = cols = {
            "landlord": np.empty(n, np.int8),
            "winner": np.empty(n, np.int8),
            "first_caller": np.empty(n, np.int8),
            "redeals": np.empty(n, np.uint16),
            "base": np.empty(n, np.uint8),
            "robs": np.empty(n, np.uint8),
            "bombs": np.empty(n, np.uint8),
            "spring": np.empty(n, np.bool_),
            "anti_spring": np.empty(n, np.bool_),
            "turns": np.empty(n, np.uint16),
            "calls": np.empty((n, 4), np.uint8),
            "hands": np.empty((n, players), np.uint64),
            "bottom": np.empty(n, np.uint64),
            "partner": np.empty(n, np.int8),
            "marked": np.empty(n, np.uint8),
            "wild": np.empty(n, np.int8),
            "soft_bombs": np.empty(n, np.uint8),
            "shows": np.empty((n, 3), np.uint8),
            "doubles": np.empty((n, 3), np.uint8),
        }
        self.c.players = players
        self.c.landlord, self.c.winner = <int8_t*>_data(cols["landlord"]), <int8_t*>_data(cols["winner"])
        self.c.first, self.c.partner = <int8_t*>_data(cols["first_caller"]), <int8_t*>_data(cols["partner"])
        self.c.wild = <int8_t*>_data(cols["wild"])
        self.c.redeals, self.c.turns = <uint16_t*>_data(cols["redeals"]), <uint16_t*>_data(cols["turns"])
        self.c.base, self.c.robs = <uint8_t*>_data(cols["base"]), <uint8_t*>_data(cols["robs"])
        self.c.bombs, self.c.spring = <uint8_t*>_data(cols["bombs"]), <uint8_t*>_data(cols["spring"])
        self.c.anti, self.c.marked = <uint8_t*>_data(cols["anti_spring"]), <uint8_t*>_data(cols["marked"])
        self.c.soft = <uint8_t*>_data(cols["soft_bombs"])
        self.c.bottom, self.c.hands = <u64*>_data(cols["bottom"]), <u64*>_data(cols["hands"])
        self.c.calls, self.c.shows = <uint8_t*>_data(cols["calls"]), <uint8_t*>_data(cols["shows"])
        self.c.doubles = <uint8_t*>_data(cols["doubles"])


cdef inline void* _data(arr):
    """The data of a NumPy array made here (C-contiguous)."""
    return cnp.PyArray_DATA(<cnp.ndarray>arr)


cdef void cols_put(const Cols* c, Py_ssize_t i, const GameOut* g) noexcept nogil:
    """Row i of the columns from *g."""
    c.landlord[i] = g.landlord
    c.winner[i] = g.winner
    c.first[i] = g.first
    c.partner[i] = g.partner
    c.wild[i] = g.wild
    c.redeals[i] = g.redeals
    c.turns[i] = g.turns
    c.base[i] = g.base
    c.robs[i] = g.robs
    c.bombs[i] = g.bombs
    c.spring[i] = g.spring
    c.anti[i] = g.anti
    c.marked[i] = g.marked
    c.soft[i] = g.soft
    c.bottom[i] = g.bottom
    memcpy(c.hands + i * c.players, g.hands, c.players * sizeof(u64))
    memcpy(c.calls + 4 * i, g.calls, 4)
    memcpy(c.shows + 3 * i, g.shows, 3)
    memcpy(c.doubles + 3 * i, g.doubles, 3)


# ---------------------------------------------------------------- runs of games
#
# play_games cuts a run into chunks of games that the threads claim in turn
# (an atomic counter): each game has its own stream and row, so the result
# is the same for any thread count.  With records, each chunk appends its
# moves to a block of its own and the blocks are joined in order at the
# end, each freed once copied (one chunk: its block is the result, no copy).

cdef enum:
    CHUNK_GAMES = 1024          # the most games in a chunk without records (an eighth of a thread's share below)
    CHUNK_RECORDED = 16384      # with records: a block of about 10 MB, given back to the system once copied


cdef struct Run:
    game_fn play
    void* ctx
    Cols* cols
    uint64_t seed, first
    Py_ssize_t n, chunk, per_game, rec_size
    long long nchunks, claimed  # chunks of `chunk` games, the next one to claim (atomic)
    long long failed            # out of memory somewhere: everyone stops (atomic)
    Py_ssize_t done             # games played before the deals ran out (one thread), else n
    Recs* recs                  # a block per chunk, NULL without records
    int64_t* off                # off[i + 1]: the end of game i's records in its chunk's block


cdef void run_share(void* job, int t) noexcept nogil:
    """A thread's share of a run (a crew_work): claim chunks and play them."""
    cdef Run* j = <Run*>job
    cdef Buf b
    cdef Rng r
    cdef GameOut g
    cdef Recs* rec = NULL
    cdef long long c
    cdef Py_ssize_t i, hi
    cdef int rc = 0
    b.p, b.cap = NULL, 0
    if not buf_reserve(&b, MAX_MOVES):
        ddz_store(&j.failed, 1)
        return
    while rc == 0 and not ddz_load(&j.failed):
        c = ddz_add(&j.claimed, 1)
        if c >= j.nchunks:
            break
        i, hi = c * j.chunk, min(j.n, (c + 1) * j.chunk)
        if j.recs != NULL:
            rec = &j.recs[c]
            rec.size, rec.cap = j.rec_size, j.per_game * (hi - i) + 64
            rec.p = <char*>malloc(rec.cap * rec.size)
            if rec.p == NULL:
                ddz_store(&j.failed, 1)
                break
        while i < hi:
            rng_seed(&r, game_seed(j.seed, j.first + <uint64_t>i))
            rc = j.play(j.ctx, i, &r, &b, rec, &g)
            if rc < 0:
                ddz_store(&j.failed, 1)
                break
            if rc == 1:  # the deals ran out (given deals: one thread)
                j.done = i
                break
            cols_put(j.cols, i, &g)
            if rec != NULL:
                j.off[i + 1] = rec.n
            i += 1
    free(b.p)


cdef bint join_records(Run* j, Recs* out) noexcept nogil:
    """The chunks' records in one block (*out) and the offsets made the
    run's; False when out of memory (the chunks' blocks are left to free)."""
    cdef Py_ssize_t c, i, base = 0, total = 0
    if j.nchunks == 1:
        out[0] = j.recs[0]
        j.recs[0].p = NULL
        return True
    for c in range(j.nchunks):
        total += j.recs[c].n
    out.size, out.n, out.cap = j.rec_size, total, total
    out.p = <char*>malloc(max(total, 1) * j.rec_size)
    if out.p == NULL:
        return False
    for c in range(j.nchunks):
        memcpy(out.p + base * j.rec_size, j.recs[c].p, j.recs[c].n * j.rec_size)
        free(j.recs[c].p)
        j.recs[c].p = NULL
        for i in range(c * j.chunk + 1, min(j.n, (c + 1) * j.chunk) + 1):
            j.off[i] += base
        base += j.recs[c].n
    return True


cdef Py_ssize_t play_games(game_fn play, void* ctx, Columns c, uint64_t seed, uint64_t first,
                           int threads, Py_ssize_t rec_size, Py_ssize_t per_game,
                           Recs* out, int64_t* off) except -1:
    cdef Run j
    cdef Py_ssize_t k
    cdef int granted
    cdef bint joined = True
    memset(&j, 0, sizeof(Run))
    j.play, j.ctx, j.cols, j.seed, j.first = play, ctx, &c.c, seed, first
    j.n, j.done, j.per_game, j.rec_size, j.off = c.n, c.n, per_game, rec_size, off
    j.chunk = max(c.n, 1)
    threads = min(threads, 64)  # the crew's most (and 8 * threads below stays within an int)
    if threads > 1:  # with records a chunk a thread (a copy each), else eight a thread (the last ones even out)
        j.chunk = max(1, min(CHUNK_RECORDED, (c.n + threads - 1) // threads) if rec_size
                      else min(CHUNK_GAMES, c.n // (8 * threads)))
    j.nchunks = (c.n + j.chunk - 1) // j.chunk
    threads = <int>max(1, min(threads, j.nchunks))
    if rec_size:
        j.recs = <Recs*>calloc(max(j.nchunks, 1), sizeof(Recs))
        if j.recs == NULL:
            raise MemoryError()
    granted = crew_take(threads)
    with nogil:
        crew_run(run_share, &j, threads, granted)
        if rec_size and not j.failed:
            joined = join_records(&j, out)
    if rec_size:
        for k in range(j.nchunks):
            free(j.recs[k].p)
        free(j.recs)
    if j.failed or not joined:
        raise MemoryError()
    return j.done


cdef int sim_game(void* ctx, Py_ssize_t i, Rng* r, Buf* b, Recs* rec, GameOut* g) noexcept nogil:
    """random_game as a run's game_fn (ctx: the Flow)."""
    return random_game(r, <Flow*>ctx, b, rec, g)


def _simulate(Py_ssize_t n_games, uint64_t seed, int flags, bint points, bint rob_back,
              int max_redeals, bint record, uint64_t first_game, bint laizi=False, int players=3,
              int threads=1):
    """Kernel of ``ddzcore.search.simulate`` (which documents it): a dict of
    column arrays, plus ``moves``/``offsets`` when recording.  ``laizi``
    draws the wild rank of each three-player game; ``players`` is 3 or 5
    (then ``flags`` are two-deck rule flags); ``threads`` (>= 1) play it
    (play_games: the same result for any count)."""
    cdef Flow f
    cdef Recs rec
    if players != 3 and players != 5:
        raise InvalidArgumentError(f"players must be 3 or 5, not {players}")
    if threads < 1:
        raise InvalidArgumentError(f"threads must be >= 1, not {threads}")
    f.flags = flags
    f.laizi = laizi
    f.five = players == 5
    f.points = points
    f.rob_back = rob_back
    f.max_redeals = max_redeals
    cdef Columns c = Columns(n_games, players)
    offsets = np.zeros(n_games + 1 if record else 0, np.int64)
    play_games(sim_game, &f, c, seed, first_game, threads, sizeof(MoveOut) if record else 0, 64,
               &rec, <int64_t*>_data(offsets) if record else NULL)
    cols = c.cols
    if record:  # the records' block becomes the array (joined once with several threads)
        cols["moves"] = adopt_block(RECORD_DTYPE, rec.p, rec.n, sizeof(MoveOut))
        cols["offsets"] = offsets
    return cols


# ---------------------------------------------------------------- Python wrapper

cdef MoveRec* legal_block(const State* s, Py_ssize_t n) except NULL:
    """The n legal moves of *s (n = legal(s, NULL, 0)) in a new malloc'd block: free it."""
    cdef MoveRec* p = <MoveRec*>malloc(n * sizeof(MoveRec))
    if p == NULL:
        raise MemoryError()
    legal(s, p, n)
    return p


cdef inline int max_plies(const State* s) noexcept nogil:
    return MAX_PLIES_FIVE if s.extra_seats else MAX_PLIES


cdef inline int seat_arg(object v, str name, int n=3) except -1:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise InvalidStateError(f"{name} must be a seat 0..{n - 1}, not {v!r}")
    return v


cdef inline object int_arg(object v, str name, object lo, object hi, object error=InvalidArgumentError):
    """v as a Python int in lo..hi (NumPy integers accepted), else ``error`` naming it."""
    if isinstance(v, np.integer):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise error(f"{name} must be an int in {lo}..{hi}, not {v!r}")
    return v


cdef inline u64 u64_arg(object v, str name, object error=InvalidMoveError) except? 0xFFFFFFFFFFFFFFFF:
    return int_arg(v, name, 0, (1 << 64) - 1, error)


cdef bint state_ok(const State* s) noexcept nogil:
    """Whether *s is a position some game reaches (docs/rules.md §3, §8): three
    seats with one deck or five with two, seats in range, the hands and the
    move to beat within the deck(s), the move to beat a valid reading owned
    by another seat (or cleared when the owner leads), every seat but the
    owner holding cards, counters in range and, while the game goes on, a
    legal move for the seat to move.  Reads nothing out of bounds whatever
    *s holds."""
    cdef int i, r, n, ns, two = (s.flags & F_TWO_DECKS) != 0
    if s.extra_seats != (2 if two else 0):
        return False
    ns = seats(s)
    if not (0 <= s.turn < ns and 0 <= s.landlord < ns and -1 <= s.owner < ns):
        return False
    if (s.partners and ns == 3) or s.partners >> ns or (s.partners >> s.landlord) & 1:
        return False
    if s.bombs > 108 or s.landlord_plays > 108 or s.farmer_plays > 108:
        return False
    if (s.last_info == 0) != (s.last_cards == 0):
        return False
    if s.last_info != 0:
        if s.owner < 0 or s.owner == s.turn or not valid_reading(s.last_cards, s.last_info, s.flags):
            return False
    elif s.owner >= 0 and s.owner != s.turn:
        return False
    if s.last_cards >> 60:
        return False
    for i in range(ns):
        if s.hand[i] >> 60:
            return False
    for i in range(ns, MAX_SEATS):
        if s.hand[i]:
            return False
    for r in range(15):
        n = (s.last_cards >> (4 * r)) & 0xF
        for i in range(ns):
            n += (s.hand[i] >> (4 * r)) & 0xF
        if n > (4 if r < 13 else 1) << two:
            return False
    for i in range(ns):
        if s.hand[i] == 0 and i != s.owner:
            return False
    return is_over(s) or legal(s, NULL, 0) > 0


cdef bint same_state(const State* a, const State* b) noexcept nogil:
    cdef int i
    for i in range(MAX_SEATS):
        if a.hand[i] != b.hand[i]:
            return False
    return (a.last_cards == b.last_cards and a.last_info == b.last_info and a.flags == b.flags
            and a.ply == b.ply and a.turn == b.turn and a.owner == b.owner and a.landlord == b.landlord
            and a.bombs == b.bombs and a.landlord_plays == b.landlord_plays
            and a.farmer_plays == b.farmer_plays and a.partners == b.partners
            and a.extra_seats == b.extra_seats)


cdef bint state_legal_move(const State* s, u64 cards, u64 info) noexcept nogil:
    """Whether (cards, info) is one of legal(s), without generating them."""
    cdef u64 hand = s.hand[s.turn]
    if is_over(s):
        return False
    if info_combo(info) == C_PASS:
        return cards == 0 and info == 0 and s.last_info != 0
    if not contains(hand, cards) or not valid_reading(cards, info, s.flags):
        return False
    return s.last_info == 0 or beats(cards, info, s.last_cards, s.last_info, s.flags)


def _deal(seed, landlord, int decks):
    """A random deal, the same for the same ``seed`` (int in 0..2**64-1) on
    every platform, as (card words per seat, landlord, partner or None).
    One deck: 17 cards each, the 3 bottom cards to ``landlord`` (None: 0).
    Two decks (docs/rules.md §8): 21 cards each and a marked card drawn
    among the dealt non-jokers; its holder is the landlord and takes the
    bottom, the twin's holder is the partner (``landlord`` must be None: the
    deal decides).  Raises ``InvalidStateError`` for a bad ``landlord``,
    ``InvalidArgumentError`` for a bad ``seed``."""
    cdef Rng r
    cdef u64 hands[5]
    cdef u64 bottom
    cdef int ll, pt = -1
    rng_seed(&r, u64_arg(seed, "seed", InvalidArgumentError))
    if decks == 2:
        if landlord is not None:
            raise InvalidStateError("with two decks the marked card decides the landlord: give no landlord")
        deal_five(&r, hands, &bottom, &ll, &pt)
    else:
        ll = seat_arg(0 if landlord is None else landlord, "landlord")
        deal(&r, hands, &bottom)
    hands[ll] += bottom
    return [hands[i] for i in range(5 if decks == 2 else 3)], ll, None if pt < 0 else pt


cdef class PlayState:
    """The play phase of a game, held natively: three players with one deck
    (docs/rules.md §3) or five players with two decks (五人斗地主, docs/rules.md §8).

    The compiled half of ``ddzcore.search.PlayState``: everything crosses it
    as integer codes.  ``PlayState(words, landlord=0, turn=None, last=(0, 0),
    owner=None, flags=0, rules=None, *, bombs=0, landlord_plays=0,
    farmer_plays=0, partner=None)`` takes the hands as card words, the move
    to beat as its (card word, info word) and the rule ``flags`` (the
    kernel's flag word; ``F_TWO_DECKS`` means five seats); ``rules`` is only
    carried (``.rules``).  Moves come out through the class's
    ``_move(cards, info, rules)`` ((cards, info) pairs here, ``Move`` in the
    subclass) and ``legal_moves`` makes a ``_move_list``.  The public
    subclass parses hands, moves and ``Rules``; see its docstring for the
    arguments, the methods and the errors.
    """

    _move = staticmethod(_pair)
    _move_list = MoveList

    def __init__(self, words, landlord=0, turn=None, last=(0, 0), owner=None, int flags=0, rules=None, *,
                 bombs=0, landlord_plays=0, farmer_plays=0, partner=None):
        cdef int i, decks = 2 if flags & F_TWO_DECKS else 1
        cdef int ns = 3 if decks == 1 else 5
        cdef u64 lc, li
        cdef u64 hands[5]
        words = [u64_arg(w, "a card word", InvalidCardsError) for w in words]
        if len(words) != ns:
            raise InvalidStateError(f"{len(words)} hands: {decks} deck{'s' if decks > 1 else ''} need {ns}")
        ll = seat_arg(landlord, "landlord", ns)
        t = ll if turn is None else seat_arg(turn, "turn", ns)
        pt = -1
        if partner is not None:
            if ns == 3:
                raise InvalidStateError("partner is the five-player hidden landlord; three players have none")
            pt = seat_arg(partner, "partner", ns)
            if pt == ll:
                raise InvalidStateError(f"partner {pt} is the landlord itself: give partner=None for a lone landlord")
        lc, li = u64_arg(last[0], "last cards"), u64_arg(last[1], "last info")
        if li == 0:
            if owner is not None:
                o = seat_arg(owner, "owner", ns)
                if o != t:
                    raise InvalidStateError(f"owner {o} but no last move: on a free lead the owner, "
                                     f"if given, is the seat to move ({t})")
            else:
                o = -1
        else:
            o = (t + ns - 1) % ns if owner is None else seat_arg(owner, "owner", ns)
            if o == t:
                raise InvalidStateError(f"owner {o} is the seat to move: its trick is over, give last=None")
        for name, v in (("bombs", bombs), ("landlord_plays", landlord_plays), ("farmer_plays", farmer_plays)):
            int_arg(v, name, 0, 54 * decks, InvalidStateError)
        for r in range(15):
            n = sum((w >> (4 * r)) & 0xF for w in words) + ((lc >> (4 * r)) & 0xF)
            if n > (4 if r < 13 else 1) * decks:
                raise InvalidDealError(f"the hands{' and the last move' if lc else ''} hold {n} cards "
                                       f"of rank {'3456789TJQKA2BR'[r]}; {decks} deck{'s' if decks > 1 else ''} "
                                       f"{'has' if decks == 1 else 'have'} {(4 if r < 13 else 1) * decks}")
        for i in range(ns):
            if words[i] == 0 and i != o:
                raise InvalidDealError(f"seat {i} has no cards but did not play the last move: "
                                       f"the game would already be over")
        for i in range(ns):
            hands[i] = words[i]
        state_set(&self.st, hands, ns, lc, li, flags, t, o, ll, pt, bombs, landlord_plays, farmer_plays)
        self.rules = rules
        self.nhist = 0
        if not state_ok(&self.st):
            raise InvalidStateError(f"{self!r} is not a position of a game")

    def __dealloc__(self):
        free(self.hist)

    # -- reading the position ---------------------------------------------
    @property
    def hand_words(self):
        """The hands as card words (ints), one per seat."""
        return tuple(self.st.hand[i] for i in range(seats(&self.st)))

    @property
    def players(self):
        """Seats at the table: 3 (one deck) or 5 (two decks)."""
        return seats(&self.st)

    @property
    def partner(self):
        """Five players: the hidden landlord's seat (暗地主), ``None`` when the
        landlord plays alone or with three players."""
        cdef int i
        for i in range(MAX_SEATS):
            if (self.st.partners >> i) & 1:
                return i
        return None

    @property
    def landlords(self):
        """The landlord side's seats, ascending (the landlord and its partner)."""
        return tuple(i for i in range(seats(&self.st)) if landlord_side(&self.st, i))

    @property
    def turn(self):
        """Seat to move (after the game ends: the seat that would be next)."""
        return self.st.turn

    @property
    def landlord(self):
        return self.st.landlord

    @property
    def owner(self):
        """Seat that played the last non-pass move (-1 before any); when
        ``turn == owner`` the trick is over and the owner leads."""
        return self.st.owner

    @property
    def last(self):
        """The move to beat (``Move``), ``None`` on a free lead."""
        return None if self.st.last_info == 0 else self._move(self.st.last_cards, self.st.last_info, self.rules)

    @property
    def last_codes(self):
        """The move to beat as (card word, info word); (0, 0) on a free lead."""
        return (self.st.last_cards, self.st.last_info)

    @property
    def passes(self):
        """Consecutive passes since the last play (0 .. players - 1)."""
        return passes(&self.st)

    @property
    def ply(self):
        """Moves pushed since the position was set up (passes included)."""
        return self.st.ply

    @property
    def bombs(self):
        """Bombs played that double the multiplier: one deck every bomb and
        rocket (docs/rules.md §6); two decks 5-8 card bombs, three and four
        jokers (docs/rules.md §8)."""
        return self.st.bombs

    @property
    def landlord_plays(self):
        return self.st.landlord_plays

    @property
    def farmer_plays(self):
        return self.st.farmer_plays

    @property
    def is_over(self):
        """Whether a player has no cards left (docs/rules.md §3: the hand ends)."""
        return is_over(&self.st)

    @property
    def winner(self):
        """The seat that went out, ``None`` while the game goes on."""
        return self.st.owner if is_over(&self.st) else None

    @property
    def landlord_won(self):
        """Whether the landlord side won: True / False once over, ``None``
        while the game goes on."""
        return landlord_side(&self.st, self.st.owner) if is_over(&self.st) else None

    @property
    def spring(self):
        """Over and a spring: three players, the landlord won and no farmer
        played a card (春天, docs/rules.md §3); five players, the losing side
        played no card (docs/rules.md §8)."""
        return state_spring(&self.st)

    @property
    def anti_spring(self):
        """Over, three players, a farmer won and the landlord played exactly
        one combination (反春); always False with five players."""
        return state_anti_spring(&self.st)

    @property
    def multiplier(self):
        """The play phase's factor of the multiplier under the happy rules
        (docs/rules.md §6, §8): 2 per doubling bomb (``bombs``), times 2 for a
        spring or anti-spring (robs, shows, reveals and doubling are not part
        of the play phase; laizi rooms score bombs by kind, docs/rules.md §7,
        which ``Game`` does)."""
        return (1 << self.st.bombs) * (2 if self.spring or self.anti_spring else 1)

    @property
    def move_stack(self):
        """The moves ``pop`` can undo, oldest first (a list of ``Move``)."""
        make = self._move
        return [make(self.hist[i].cards, self.hist[i].info, self.rules) for i in range(self.nhist)]

    # -- moves ----------------------------------------------------------------
    def legal_moves(self):
        """Legal moves of the seat to move (a ``MoveList``, kernel order: when
        following, pass first); empty once the game is over."""
        cdef MoveRec buf[MAX_MOVES]
        cdef MoveRec* p
        cdef Py_ssize_t n = legal(&self.st, buf, MAX_MOVES)
        if n <= MAX_MOVES:
            return MoveList._wrap(self._move_list, buf, n, self.rules)
        p = legal_block(&self.st, n)
        try:
            return MoveList._wrap(self._move_list, p, n, self.rules)
        finally:
            free(p)

    def count_moves(self):
        """How many legal moves the seat to move has (0 once over)."""
        return legal(&self.st, NULL, 0)

    def legal_moves_into(self, out):
        """Write the legal moves into ``out`` (a writable C-contiguous 1-d
        ``MOVE_DTYPE`` array, reused across calls) and return how many there
        are.  A count above ``len(out)`` means only the first ``len(out)``
        were written: grow the buffer and call again (``MAX_MOVES_HINT``
        records have always been enough).  Raises ``InvalidArgumentError`` for an
        unsuitable ``out``."""
        if not isinstance(out, np.ndarray) or out.ndim != 1 or out.dtype != MOVE_DTYPE \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError(f"out must be a writable C-contiguous 1-d array of MOVE_DTYPE, not {out!r}")
        return legal(&self.st, <MoveRec*>cnp.PyArray_DATA(<cnp.ndarray>out), out.shape[0])

    cdef int _push(self, u64 cards, u64 info) except -1:
        cdef Undo* grown
        cdef Py_ssize_t cap
        if not state_legal_move(&self.st, cards, info):
            if is_over(&self.st):
                raise IllegalMoveError("the game is over")
            if not valid_reading(cards, info, self.st.flags):
                raise InvalidMoveError(f"({cards:#x}, {info:#x}) is not a valid move record under these rules")
            if info_combo(info) == C_PASS:
                raise IllegalMoveError(f"seat {self.st.turn} leads: pass is not legal")
            m = self._move(cards, info, self.rules)
            if not contains(self.st.hand[self.st.turn], cards):
                raise IllegalMoveError(f"{m} is not in seat {self.st.turn}'s hand")
            raise IllegalMoveError(f"{m} does not beat {self.last}")
        if self.nhist == self.hist_cap:
            cap = 2 * self.hist_cap if self.hist_cap else 32
            grown = <Undo*>realloc(self.hist, cap * sizeof(Undo))
            if grown == NULL:
                raise MemoryError()
            self.hist = grown
            self.hist_cap = cap
        push(&self.st, cards, info, &self.hist[self.nhist])
        self.nhist += 1
        return 0

    def push_codes(self, cards, info):
        """Play the move with these kernel words (``cards``, ``info``: ints,
        e.g. a row of ``legal_moves_into``'s buffer).  Errors as ``push``."""
        self._push(u64_arg(cards, "cards"), u64_arg(info, "info"))

    def push_index(self, index):
        """Play the i-th legal move (kernel order, as ``legal_moves``).
        Raises ``MoveIndexError`` (an ``IndexError`` and a ``ValueError``)
        unless ``index`` is an int with 0 <= index < ``count_moves()``."""
        cdef MoveRec buf[MAX_MOVES]
        cdef MoveRec* p
        cdef Py_ssize_t n = legal(&self.st, buf, MAX_MOVES), i
        if isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n:
            raise MoveIndexError(f"move index {index!r} out of range: {n} legal moves")
        i = index
        if i < MAX_MOVES:
            self._push(buf[i].cards, buf[i].info)
            return
        p = legal_block(&self.st, n)
        try:
            self._push(p[i].cards, p[i].info)
        finally:
            free(p)

    def pop(self):
        """Undo the last push and return its ``Move``; ``IndexError`` when
        there is nothing to undo."""
        if self.nhist == 0:
            raise IndexError("pop from a PlayState with no pushed moves")
        self.nhist -= 1
        pop(&self.st, &self.hist[self.nhist])
        return self._move(self.hist[self.nhist].cards, self.hist[self.nhist].info, self.rules)

    # -- search helpers ---------------------------------------------------------
    def perft(self, depth):
        """Number of play sequences of exactly ``depth`` moves from here (passes
        count as moves; a game that ends earlier contributes nothing below its
        end; depth 0 gives 1).  Leaves are counted in bulk, without the GIL.
        Raises ``InvalidArgumentError`` unless ``depth`` is an int in
        0..168 (no one-deck game lasts longer; five players: 0..540)."""
        cdef State s = self.st
        cdef int64_t n
        cdef int d = int_arg(depth, "depth", 0, max_plies(&self.st))
        with nogil:
            n = state_perft(&s, d)
        if n < 0:
            raise MemoryError()
        return n

    def perft_divide(self, depth):
        """``perft(depth)`` split by first move: a dict ``{Move: count}`` in
        kernel order (for finding where two counts disagree); depth in
        1..168 (five players: 540), else ``InvalidArgumentError``."""
        cdef State child
        cdef Undo u
        cdef int d = int_arg(depth, "depth", 1, max_plies(&self.st))
        cdef MoveRec* p
        cdef Py_ssize_t n = legal(&self.st, NULL, 0), i
        cdef int64_t c
        out = {}
        p = legal_block(&self.st, n) if n else NULL
        try:
            for i in range(n):
                child = self.st
                push(&child, p[i].cards, p[i].info, &u)
                with nogil:
                    c = state_perft(&child, d - 1)
                if c < 0:
                    raise MemoryError()
                out[self._move(p[i].cards, p[i].info, self.rules)] = c
        finally:
            free(p)
        return out

    def playouts(self, count, seed):
        """Play ``n`` games on from here with uniformly random legal moves
        (without the GIL; the state itself is unchanged) and return the
        winning seats, an int8 array of shape ``(n,)``.  Playout i uses the
        stream of game i of ``simulate(seed=seed)``, so it is deterministic.
        Raises ``InvalidArgumentError`` for a count outside 0..2**40 or a
        seed outside 0..2**64-1."""
        cdef Rng r
        cdef Buf b
        cdef State s, start = self.st     # read with the GIL held
        cdef Py_ssize_t i
        cdef u64 cards, info
        cdef Py_ssize_t n = int_arg(count, "n", 0, 1 << 40)
        cdef uint64_t sd = u64_arg(seed, "seed", InvalidArgumentError)
        cdef int err = 0
        winners = np.empty(n, np.int8)
        cdef int8_t[::1] w = winners
        b.p = NULL
        b.cap = 0
        if not buf_reserve(&b, MAX_MOVES):
            raise MemoryError()
        with nogil:
            for i in range(n):
                rng_seed(&r, game_seed(sd, <uint64_t>i))
                s = start
                while not is_over(&s):
                    if random_step(&s, &r, &b, &cards, &info) < 0:
                        err = 1
                        break
                w[i] = s.owner
        free(b.p)
        if err:
            raise MemoryError()
        return winners

    # -- copying and comparing -----------------------------------------------
    def copy(self, stack=True):
        """An independent copy (the state is a struct copy); ``stack=False``
        leaves out the move history, so the copy cannot ``pop`` past here."""
        cdef PlayState c = type(self).__new__(type(self))
        c.st = self.st
        c.rules = self.rules
        c.nhist = 0
        if stack and self.nhist:
            c.hist = <Undo*>malloc(self.nhist * sizeof(Undo))
            if c.hist == NULL:
                raise MemoryError()
            memcpy(c.hist, self.hist, self.nhist * sizeof(Undo))
            c.nhist = c.hist_cap = self.nhist
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __eq__(self, other):
        """Same position and bookkeeping (hands, turn, move to beat and its
        owner, landlord and partner, counters, ply and rules); the move
        history is ignored."""
        if not isinstance(other, PlayState):
            return NotImplemented
        cdef PlayState o = other
        return same_state(&self.st, &o.st) and self.rules == o.rules

    __hash__ = None


    def _restore(self, ply, hist):
        """Set ``ply`` and the undo history (``__reduce__``'s list) of a
        state just built, checking everything: the position as the
        constructor does, and the history step by step from the newest:
        undoing a step must leave a position some game reaches
        (``state_ok``) in which the step is a legal move whose push gives
        back the later position exactly.  Returns the state; raises
        ``InvalidStateError``."""
        cdef Py_ssize_t i, n
        cdef State cur, prev, again
        cdef Undo u, scratch
        cdef Undo* h
        if self.nhist:
            raise InvalidStateError("_restore needs a state without undo history")
        if not isinstance(hist, (list, tuple)):
            raise InvalidStateError(f"the undo history must be a list, not {hist!r}")
        n = len(hist)
        self.st.ply = int_arg(ply, "ply", n, max_plies(&self.st), InvalidStateError)
        if not state_ok(&self.st):
            raise InvalidStateError(f"{self!r} is not a position of a game")
        h = <Undo*>malloc(n * sizeof(Undo)) if n else NULL
        if n and h == NULL:
            raise MemoryError()
        try:
            for i, entry in enumerate(hist):
                if not isinstance(entry, (list, tuple)) or len(entry) != 5:
                    raise InvalidStateError(f"undo step {i} must be (cards, info, last_cards, last_info, owner), "
                                            f"not {entry!r}")
                c, inf, lc, li, o = entry
                h[i].cards = u64_arg(c, "cards", InvalidStateError)
                h[i].info = u64_arg(inf, "info", InvalidStateError)
                h[i].last_cards = u64_arg(lc, "last_cards", InvalidStateError)
                h[i].last_info = u64_arg(li, "last_info", InvalidStateError)
                h[i].owner = int_arg(o, "owner", -1, seats(&self.st) - 1, InvalidStateError)
            cur = self.st
            for i in range(n - 1, -1, -1):
                u = h[i]
                prev = cur
                pop(&prev, &u)
                ok = state_ok(&prev) and state_legal_move(&prev, u.cards, u.info)
                if ok:
                    again = prev
                    push(&again, u.cards, u.info, &scratch)
                    ok = same_state(&again, &cur)
                if not ok:
                    raise InvalidStateError(f"undo step {i} ({hist[i]!r}) is not the legal move that led to the "
                                            f"position after it")
                cur = prev
        except BaseException:
            free(h)
            raise
        free(self.hist)
        self.hist, self.nhist, self.hist_cap = h, n, n
        return self

    def _args(self):
        return ([str(h) for h in self.hands], self.st.landlord, self.st.turn,
                None if self.st.last_info == 0 else str(self.last),
                self.st.owner if self.st.owner >= 0 else None)

    def __reduce__(self):
        # the partner (five players) is an optional last argument: three-player pickles are as before;
        # the class's _rebuild (ddzcore.search.PlayState._rebuild) parses the hands and checks everything
        hands, ll, turn, last, owner = self._args()
        return (type(self)._rebuild, (hands, ll, turn, last, owner, self.rules, self.st.bombs,
                           self.st.landlord_plays, self.st.farmer_plays, self.st.ply,
                           [(self.hist[i].cards, self.hist[i].info, self.hist[i].last_cards,
                             self.hist[i].last_info, self.hist[i].owner) for i in range(self.nhist)])
                + ((self.partner,) if self.st.partners else ()))
