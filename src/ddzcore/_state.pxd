# cython: language_level=3
"""Native play-phase state: three players with one deck (docs/rules.md §3) or
five players with two decks (docs/rules.md §8).

For Cython search code (alpha-beta, MCTS, rollouts)::

    from ddzcore.bits cimport u64, MoveRec
    from ddzcore._state cimport State, Undo, legal, push, pop, is_over
    from ddzcore._state cimport PlayState            # the Python wrapper; .st is its State

    cdef State s = (<PlayState>ps).st              # a copy is a struct copy
    cdef MoveRec buf[MAX_MOVES]
    cdef Undo u
    n = legal(&s, buf, MAX_MOVES)                  # n > MAX_MOVES: grow a buffer, call again
    push(&s, buf[i].cards, buf[i].info, &u)        # unchecked: the move must be legal
    pop(&s, &u)                                    # exactly undoes that push

Everything here is nogil and never raises.  ``push`` and ``pop`` are inline
(compiled into the calling module); ``state_perft`` and the random-game
functions are exported from ``_state.pyx``.

State layout (72 bytes; field order keeps it free of holes up to the end
padding).  A zeroed ``State`` with hands, seats and flags filled in is a
three-player position: the five-player fields default to "none".

    field           | type      | meaning
    hand[5]         | u64 x 5   | card words of seats 0-4 (bits.pxd); seats 3, 4 empty with three players
    last_cards      | u64       | the move to beat; 0 with last_info 0 = a free lead
    last_info       | u64       | its reading (combo C_PASS = free lead)
    flags           | int32     | rule flags (bits.pxd F_*, laizi wild rank; F_TWO_DECKS with five seats)
    ply             | uint16    | moves pushed since the position was set up (passes count)
    turn            | int8      | seat to move
    owner           | int8      | seat that played the last non-pass move, -1 before any
    landlord        | int8      | the landlord's seat (five players: the open landlord, 明地主)
    bombs           | uint8     | bombs that double the multiplier: one deck every bomb and rocket
                    |           | (docs/rules.md §6, §7); two decks 5-8 card bombs, three and four jokers (§8)
    landlord_plays  | uint8     | non-pass moves of the landlord side (anti-spring: exactly 1)
    farmer_plays    | uint8     | non-pass moves of the farmers (spring: 0)
    partners        | uint8     | bit mask of the landlord's partners (five players: the hidden
                    |           | landlord, 暗地主); 0 with three players or a lone landlord
    extra_seats     | uint8     | seats beyond three: 0 (three players) or 2 (five players)

Derived, not stored: the seat count (``seats``: 3 + extra_seats), the pass
count (``passes``: consecutive passes since the last play, (turn - owner - 1)
mod seats), whether the game is over (the owner's hand is empty: the hand
ends the moment a player has no cards) and the winner (then the owner; its
side wins).  A trick ends when play comes back to its owner: the last
pass of the round clears the move to beat, so the owner leads freely.
"""

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from ddzcore.bits cimport (u64, MoveRec, C_PASS, C_JOKER_BOMB, F_TWO_DECKS, info_combo, is_bomb_combo,
                           card_total)
from ddzcore._kernel cimport generate

cdef enum:
    N_SEATS = 3
    MAX_SEATS = 5
    # Most legal moves found for one hand without wild cards (521, a 20-card
    # lead) rounded up; with laizi wild cards a lead can have over 9000.  The
    # generator counts past any capacity, so a caller can always grow.
    MAX_MOVES = 1024
    # Most plies a one-deck game can last: 54 plays, two passes after each.
    MAX_PLIES = 168
    # Most plies a five-player two-deck game can last: 108 plays, four passes after each.
    MAX_PLIES_FIVE = 540


cdef struct State:
    u64 hand[5]
    u64 last_cards
    u64 last_info
    int32_t flags
    uint16_t ply
    int8_t turn
    int8_t owner
    int8_t landlord
    uint8_t bombs
    uint8_t landlord_plays
    uint8_t farmer_plays
    uint8_t partners
    uint8_t extra_seats


# What pop needs to undo one push (40 bytes): the move and what it overwrote.
cdef struct Undo:
    u64 cards
    u64 info
    u64 last_cards
    u64 last_info
    int8_t owner


cdef inline bint is_over(const State* s) noexcept nogil:
    """Whether a hand is empty (the game ended with the last play)."""
    return s.owner >= 0 and s.hand[s.owner] == 0


cdef inline int winner(const State* s) noexcept nogil:
    """The seat that went out, -1 while the game goes on."""
    return s.owner if is_over(s) else -1


cdef inline int seats(const State* s) noexcept nogil:
    """Players at the table: 3 or 5."""
    return 3 + s.extra_seats


cdef inline bint landlord_side(const State* s, int seat) noexcept nogil:
    """Whether `seat` plays for the landlord (the landlord or its partner)."""
    return seat == s.landlord or (s.partners >> seat) & 1


cdef inline int passes(const State* s) noexcept nogil:
    """Consecutive passes since the last play (0 .. seats - 1; 0 before any play)."""
    cdef int d = s.turn - s.owner - 1
    if s.owner < 0:
        return 0
    return d + seats(s) if d < 0 else d


cdef inline bint doubling_bomb(const State* s, u64 cards, u64 info) noexcept nogil:
    """Whether a played bomb doubles the multiplier: with one deck every bomb
    and the rocket (docs/rules.md §6); with two decks 5-8 card bombs, three
    and four jokers (docs/rules.md §8)."""
    cdef int c = info_combo(info)
    if not is_bomb_combo(c):
        return False
    if not (s.flags & F_TWO_DECKS):
        return True
    return card_total(cards) >= (3 if c == C_JOKER_BOMB else 5)


cdef inline Py_ssize_t legal(const State* s, MoveRec* out, Py_ssize_t cap) noexcept nogil:
    """Legal moves of the seat to move into out[0:cap]; returns the count
    (which may exceed cap, as generate's; 0 once the game is over)."""
    if is_over(s):
        return 0
    return generate(s.hand[s.turn], s.last_cards, s.last_info, s.flags, out, cap)


cdef inline void push(State* s, u64 cards, u64 info, Undo* u) noexcept nogil:
    """Play (cards, info) for the seat to move, saving what pop needs in *u.
    Unchecked: the move must be one of legal(s)."""
    cdef int p = s.turn
    u.cards = cards
    u.info = info
    u.last_cards = s.last_cards
    u.last_info = s.last_info
    u.owner = s.owner
    s.turn = p + 1 if p < 2 + s.extra_seats else 0
    s.ply += 1
    if info_combo(info) == C_PASS:
        if s.turn == s.owner:          # both others passed: the owner leads freely
            s.last_cards = 0
            s.last_info = 0
        return
    s.hand[p] -= cards
    s.last_cards = cards
    s.last_info = info
    s.owner = p
    if doubling_bomb(s, cards, info):
        s.bombs += 1
    if landlord_side(s, p):
        s.landlord_plays += 1
    else:
        s.farmer_plays += 1


cdef inline void pop(State* s, const Undo* u) noexcept nogil:
    """Undo the push that filled *u (pushes and pops nest like a stack)."""
    cdef int p = s.turn - 1 if s.turn > 0 else 2 + s.extra_seats
    s.turn = p
    s.ply -= 1
    s.last_cards = u.last_cards
    s.last_info = u.last_info
    s.owner = u.owner
    if info_combo(u.info) == C_PASS:
        return
    s.hand[p] += u.cards
    if doubling_bomb(s, u.cards, u.info):
        s.bombs -= 1
    if landlord_side(s, p):
        s.landlord_plays -= 1
    else:
        s.farmer_plays -= 1


# ---------------------------------------------------------------- PRNG

# xoshiro256** (Blackman and Vigna), seeded through splitmix64: portable,
# fast, and the same stream on every platform.
cdef struct Rng:
    uint64_t s[4]


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """Next splitmix64 output; advances *x."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    """Seed from one 64-bit value (never all-zero state)."""
    cdef uint64_t x = seed
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """Next 64 random bits."""
    cdef uint64_t result = rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl(r.s[3], 45)
    return result


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1, without bias (Lemire's method)."""
    cdef uint64_t m = (rng_next(r) >> 32) * n
    cdef uint32_t low = <uint32_t>m, t
    if low < n:
        t = (0u - n) % n
        while low < t:
            m = (rng_next(r) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


# ---------------------------------------------------------------- exported

# A growable move buffer (malloc'd records p[0:cap]; start from NULL, 0).
cdef struct Buf:
    MoveRec* p
    Py_ssize_t cap

# Make room for n records in *b, keeping its contents (at least doubling);
# False when out of memory.
cdef bint buf_reserve(Buf* b, Py_ssize_t n) noexcept nogil

# Perft: play sequences of exactly `depth` moves from s (passes count; a game
# that ends earlier contributes nothing below its end; depth 0 counts 1).
# s is restored on return.  -1 when the move buffers cannot be allocated.
cdef int64_t state_perft(State* s, int depth) noexcept nogil

# Deal one deck at random: 17 cards to each seat and 3 bottom cards; hands
# and bottom are card words.
cdef void deal(Rng* r, u64* hands, u64* bottom) noexcept nogil

# Deal two decks at random for five players (docs/rules.md §8): 21 cards to
# each seat and 3 bottom cards (card words), and turn up a random non-joker
# dealt card.  Returns the marked card's id (copy * 54 + card, 0..107; its
# twin is (id + 54) mod 108) and sets *open_ll to its holder and *partner to
# the twin's holder (-1 when the open landlord holds both or the twin is in
# the bottom).  The bottom is not added to any hand.
cdef int deal_five(Rng* r, u64* hands, u64* bottom, int* open_ll, int* partner) noexcept nogil


cdef class PlayState:
    cdef State st
    cdef Undo* hist          # hist[0:nhist]: the pushes pop can undo, oldest first
    cdef Py_ssize_t nhist
    cdef Py_ssize_t hist_cap
    cdef readonly object rules
    # Check (cards, info) is legal (IllegalMoveError otherwise) and push it.
    cdef int _push(self, u64 cards, u64 info) except -1


# *s set to a position: the n hands (3 or 5 seats), the move to beat
# (0, 0 = a free lead) and its owner (-1 before any), the seat to move, the
# landlord and its partner (-1: none), the bookkeeping counters, ply 0.
# Zeroes the whole struct first, so no field is left over.  Every place
# that builds a State from its parts (PlayState, the solver's Search, the
# random and bot games) goes through here.
cdef inline void state_set(State* s, const u64* hands, int n, u64 last_cards, u64 last_info, int flags,
                           int turn, int owner, int landlord, int partner, int bombs, int landlord_plays,
                           int farmer_plays) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(State))
    for i in range(n):
        s.hand[i] = hands[i]
    s.last_cards = last_cards
    s.last_info = last_info
    s.flags = flags
    s.turn = turn
    s.owner = owner
    s.landlord = landlord
    s.partners = (1 << partner) if partner >= 0 else 0
    s.extra_seats = n - 3
    s.bombs = bombs
    s.landlord_plays = landlord_plays
    s.farmer_plays = farmer_plays


# One whole game's results, as simulate (_state) and the bot games
# (_botplay) report them; game_init sets the fields a game may not reach
# (no partner, no wild rank, no soft bombs, no show, no doubling, calls all
# NO_ACTION = 255).
cdef struct GameOut:
    u64 hands[5]        # at the start of play (the landlord's with the bottom cards)
    u64 bottom
    int8_t partner      # five players: the hidden landlord, -1 when the open landlord is alone
    uint8_t marked      # five players: the marked card's id (copy * 54 + card)
    int8_t wild         # the wild rank index, -1 without laizi
    uint8_t soft        # soft bombs played (laizi, docs/rules.md §7)
    uint16_t redeals
    uint16_t turns
    int8_t landlord
    int8_t winner
    int8_t first
    uint8_t base
    uint8_t robs
    uint8_t bombs
    uint8_t spring
    uint8_t anti
    uint8_t calls[4]    # the last deal's calling decisions (flow.pxd values), NO_ACTION after
    uint8_t shows[3]    # each seat's show multiplier (0: no show)
    uint8_t doubles[3]  # each seat's doubling factor (1 or 2)


cdef inline void game_init(GameOut* g) noexcept nogil:
    memset(g, 0, sizeof(GameOut))
    g.partner = -1
    g.wild = -1
    memset(g.calls, 255, 4)
    memset(g.doubles, 1, 3)


# Where the rows of Columns' arrays are (hands (n, players), calls (n, 4),
# shows and doubles (n, 3), the others (n,)): any thread fills its rows.
cdef struct Cols:
    int players
    int8_t* landlord
    int8_t* winner
    int8_t* first
    int8_t* partner
    int8_t* wild
    uint16_t* redeals
    uint16_t* turns
    uint8_t* base
    uint8_t* robs
    uint8_t* bombs
    uint8_t* spring
    uint8_t* anti
    uint8_t* marked
    uint8_t* soft
    u64* bottom
    u64* hands
    uint8_t* calls
    uint8_t* shows
    uint8_t* doubles

# The result columns of n games of `players` seats (a dict of NumPy arrays,
# ``cols``: every key simulate and the bot games report), filled row by
# row from GameOut records without the GIL (cols_put).
cdef class Columns:
    cdef readonly dict cols
    cdef Py_ssize_t n
    cdef Cols c

cdef void cols_put(const Cols* c, Py_ssize_t i, const GameOut* g) noexcept nogil


# --- five ---

cdef inline void game_no_landlord(GameOut* g) noexcept nogil:
    """End *g at the redeal cap with no landlord (docs/rules.md §4): nobody
    played, won or scored."""
    g.landlord = g.winner = -1
    g.base = g.bombs = g.spring = g.anti = 0
    g.turns = 0


cdef inline uint64_t game_seed(uint64_t seed, uint64_t game) noexcept nogil:
    """Seed of game number `game` of a run: every game has its own stream, so
    a run split into chunks (first_game) replays exactly (simulate, the bot
    games, the vector environments' episodes)."""
    cdef uint64_t x = seed ^ (game * 0xD1B54A32D192ED03ULL)
    return splitmix64(&x)


# A growable block of n records of `size` bytes each (p[0 : n * size]),
# for the recorded moves of whole games; the caller frees p or hands it to
# NumPy (_kernel.adopt_block).
cdef struct Recs:
    char* p
    Py_ssize_t n
    Py_ssize_t cap
    Py_ssize_t size


cdef inline void* recs_add(Recs* r) noexcept nogil:
    """Room for one more record (counted in r.n), NULL when out of memory."""
    cdef char* grown
    if r.n == r.cap:
        grown = <char*>realloc(r.p, 2 * r.cap * r.size)
        if grown == NULL:
            return NULL
        r.p = grown
        r.cap *= 2
    r.n += 1
    return r.p + (r.n - 1) * r.size


# One game of a run (play_games): game number i, its stream seeded in *r,
# played into *g with the move buffer *b, its moves appended to *rec unless
# NULL.  Returns 0, -1 when out of memory, or 1 when the given deals ran out
# (the run ends before game i; only a run of one thread may have deals).
ctypedef int (*game_fn)(void* ctx, Py_ssize_t i, Rng* r, Buf* b, Recs* rec, GameOut* g) noexcept nogil

# Play games 0..c.n-1 of a run (streams game_seed(seed, first + i)) into the
# rows of c, over `threads` threads (the crew, ddzcore._kernel); the same
# result for any count.  With rec_size > 0 also every move: *out becomes
# one malloc'd block of records of rec_size bytes in game order (room for
# per_game a game to start with; with one thread no copy is made) and
# off[i + 1] the end of game i's records (off[0] is the caller's 0).
# Returns the games played (c.n unless the deals ran out); MemoryError
# with nothing left allocated.
cdef Py_ssize_t play_games(game_fn play, void* ctx, Columns c, uint64_t seed, uint64_t first,
                           int threads, Py_ssize_t rec_size, Py_ssize_t per_game,
                           Recs* out, int64_t* off) except -1
