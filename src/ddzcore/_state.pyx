# cython: language_level=3, wraparound=False, cdivision=True
"""Native play-phase state, perft and batch random self-play (docs/rules.md §3-4, §6).

The C side (``State``, ``Undo``, ``push``, ``pop``, ``legal``, the PRNG) is
declared in ``_state.pxd`` so other Cython modules can ``cimport`` it; this
module adds the exported ``state_perft`` and ``deal``, the random game loop
behind ``simulate`` and the ``PlayState`` Python wrapper.  Nothing in the
search and self-play loops allocates: moves go into buffers made once per
call (grown, never per move, if a position has more moves than they hold).
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, int32_t, int64_t, uint64_t

from ddzcore.bits cimport *
from ddzcore._kernel cimport generate, beats, valid_hand, valid_reading, records_to_array

cimport numpy as cnp

import dataclasses

import numpy as np

cnp.import_array()

from ddzcore.errors import IllegalMoveError, InvalidDealError, InvalidMoveError
from ddzcore.generate import _hand_word, _last_codes
from ddzcore.moves import MOVE_DTYPE, Move, MoveList
from ddzcore.rules import Rules

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

_STANDARD = Rules()


# ---------------------------------------------------------------- deal

cdef unsigned char _DECK[54]
cdef int _i
for _i in range(52):
    _DECK[_i] = _i // 4
_DECK[52] = R_SMALL
_DECK[53] = R_BIG


cdef void deal(Rng* r, u64* hands, u64* bottom) noexcept nogil:
    """Shuffle one deck (Fisher-Yates) and deal 17/17/17 + 3 bottom cards."""
    cdef unsigned char d[54]
    cdef unsigned char t
    cdef int i, j
    cdef u64 w
    memcpy(d, _DECK, 54)
    for i in range(53, 0, -1):
        j = rng_below(r, i + 1)
        t = d[i]
        d[i] = d[j]
        d[j] = t
    for i in range(3):
        w = 0
        for j in range(17 * i, 17 * i + 17):
            w += unit(d[j])
        hands[i] = w
    bottom[0] = unit(d[51]) + unit(d[52]) + unit(d[53])


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


cdef struct GameOut:
    u64 hands[3]        # at the start of play (the landlord's with the bottom cards)
    u64 bottom
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
    uint8_t calls[4]    # the last deal's calling decisions (Action values), NO_ACTION after


cdef struct Rec:
    MoveOut* p
    Py_ssize_t n
    Py_ssize_t cap


# Calling decisions as recorded in GameOut.calls: the values of ddzcore.game.Action.
cdef enum:
    A_NO_CALL = 2
    A_CALL = 3
    A_NO_ROB = 4
    A_ROB = 5
    A_NO_BID = 6
    A_BID_1 = 7
    NO_ACTION = 255     # padding after the last decision


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


cdef int random_game(Rng* r, const Flow* f, Buf* b, Rec* rec, GameOut* g) noexcept nogil:
    """Deal, call and play one game with uniformly random choices into *g;
    moves appended to *rec when rec is not NULL.  0, or -1 when out of memory."""
    cdef State s
    cdef int landlord, i
    cdef u64 cards, info
    cdef MoveOut* grown
    g.redeals = 0
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
            g.landlord = g.winner = -1
            g.base = g.bombs = g.spring = g.anti = 0
            g.turns = 0
            return 0
        g.redeals += 1
    g.hands[landlord] += g.bottom
    g.landlord = landlord
    for i in range(3):
        s.hand[i] = g.hands[i]
    s.last_cards = s.last_info = 0
    s.flags = f.flags
    s.ply = 0
    s.turn = landlord
    s.owner = -1
    s.landlord = landlord
    s.bombs = s.landlord_plays = s.farmer_plays = 0
    while not is_over(&s):
        i = s.turn
        if random_step(&s, r, b, &cards, &info) < 0:
            return -1
        if rec != NULL:
            if rec.n == rec.cap:
                grown = <MoveOut*>realloc(rec.p, 2 * rec.cap * sizeof(MoveOut))
                if grown == NULL:
                    return -1
                rec.p = grown
                rec.cap *= 2
            rec.p[rec.n].cards = cards
            rec.p[rec.n].info = <uint16_t>info
            rec.p[rec.n].seat = i
            rec.n += 1
    g.winner = s.owner
    g.turns = s.ply
    g.bombs = s.bombs
    g.spring = s.owner == landlord and s.farmer_plays == 0
    g.anti = s.owner != landlord and s.landlord_plays == 1
    return 0


cdef inline uint64_t game_seed(uint64_t seed, uint64_t game) noexcept nogil:
    """Seed of game number `game` of a run: every game has its own stream, so
    a run split into chunks (first_game) replays exactly."""
    cdef uint64_t x = seed ^ (game * 0xD1B54A32D192ED03ULL)
    return splitmix64(&x)


def _simulate(Py_ssize_t n_games, uint64_t seed, int flags, bint points, bint rob_back,
              int max_redeals, bint record, uint64_t first_game):
    """Kernel of ``ddzcore.search.simulate`` (which documents it): a dict of
    column arrays, plus ``moves``/``offsets`` when recording."""
    cdef Flow f
    cdef Buf b
    cdef Rec rec
    cdef Rng r
    cdef GameOut g
    cdef Py_ssize_t i
    cdef int err = 0, k
    f.flags = flags
    f.points = points
    f.rob_back = rob_back
    f.max_redeals = max_redeals
    cols = {
        "landlord": np.empty(n_games, np.int8),
        "winner": np.empty(n_games, np.int8),
        "first_caller": np.empty(n_games, np.int8),
        "redeals": np.empty(n_games, np.uint16),
        "base": np.empty(n_games, np.uint8),
        "robs": np.empty(n_games, np.uint8),
        "bombs": np.empty(n_games, np.uint8),
        "spring": np.empty(n_games, np.bool_),
        "anti_spring": np.empty(n_games, np.bool_),
        "turns": np.empty(n_games, np.uint16),
        "calls": np.empty((n_games, 4), np.uint8),
        "hands": np.empty((n_games, 3), np.uint64),
        "bottom": np.empty(n_games, np.uint64),
    }
    cdef int8_t[::1] c_landlord = cols["landlord"], c_winner = cols["winner"], c_first = cols["first_caller"]
    cdef uint16_t[::1] c_redeals = cols["redeals"], c_turns = cols["turns"]
    cdef uint8_t[::1] c_base = cols["base"], c_robs = cols["robs"], c_bombs = cols["bombs"]
    cdef uint8_t[::1] c_spring = cols["spring"].view(np.uint8), c_anti = cols["anti_spring"].view(np.uint8)
    cdef u64[:, ::1] c_hands = cols["hands"]
    cdef uint8_t[:, ::1] c_calls = cols["calls"]
    cdef u64[::1] c_bottom = cols["bottom"]
    offsets = np.zeros(n_games + 1 if record else 0, np.int64)
    cdef int64_t[::1] c_off = offsets
    b.p = NULL
    b.cap = 0
    rec.p = NULL
    rec.n = 0
    rec.cap = 0
    if not buf_reserve(&b, MAX_MOVES):
        raise MemoryError()
    if record:
        rec.cap = 64 * n_games + 64
        rec.p = <MoveOut*>malloc(rec.cap * sizeof(MoveOut))
        if rec.p == NULL:
            free(b.p)
            raise MemoryError()
    with nogil:
        for i in range(n_games):
            rng_seed(&r, game_seed(seed, first_game + <uint64_t>i))
            if random_game(&r, &f, &b, &rec if record else NULL, &g) < 0:
                err = 1
                break
            c_landlord[i] = g.landlord
            c_winner[i] = g.winner
            c_first[i] = g.first
            c_redeals[i] = g.redeals
            c_base[i] = g.base
            c_robs[i] = g.robs
            c_bombs[i] = g.bombs
            c_spring[i] = g.spring
            c_anti[i] = g.anti
            c_turns[i] = g.turns
            c_hands[i, 0] = g.hands[0]
            c_hands[i, 1] = g.hands[1]
            c_hands[i, 2] = g.hands[2]
            c_bottom[i] = g.bottom
            for k in range(4):
                c_calls[i, k] = g.calls[k]
            if record:
                c_off[i + 1] = rec.n
    free(b.p)
    if err:
        free(rec.p)
        raise MemoryError()
    if record:
        moves = np.empty(rec.n, RECORD_DTYPE)
        if rec.n:
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>moves), rec.p, rec.n * sizeof(MoveOut))
        free(rec.p)
        cols["moves"] = moves
        cols["offsets"] = offsets
    return cols


# ---------------------------------------------------------------- Python wrapper

cdef inline int seat_arg(object v, str name) except -1:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 3:
        raise ValueError(f"{name} must be a seat 0, 1 or 2, not {v!r}")
    return v


cdef inline u64 u64_arg(object v, str name) except? 0xFFFFFFFFFFFFFFFF:
    if isinstance(v, np.integer):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < (1 << 64):
        raise InvalidMoveError(f"{name} must be a 64-bit word (int >= 0), not {v!r}")
    return v


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


cdef class PlayState:
    """The play phase of a three-player, one-deck game, held natively (docs/rules.md §3).

    ``PlayState(hands, landlord=0, turn=None, last=None, owner=None, rules=None,
    *, bombs=0, landlord_plays=0, farmer_plays=0)``:

    - ``hands``: three hands (``Hand``, card text or card words), seats 0-2 in
      turn order (the next seat after s is (s + 1) mod 3); all open.
    - ``landlord``: the landlord's seat; ``turn``: the seat to move
      (default: the landlord, who leads the first trick).
    - ``last``: the move to beat (``Move`` or move text; ``None`` = a free
      lead) and ``owner``, the seat that played it (default: the seat before
      ``turn``; the passes since then follow from the seats).
    - ``rules``: a one-deck ``Rules`` (move generation switches, and the
      laizi wild rank ``Rules.wild``, docs/rules.md §7).
    - ``bombs``, ``landlord_plays``, ``farmer_plays``: bookkeeping carried
      in from earlier play (bombs and rockets played; non-pass moves of the
      landlord / of the farmers) for the multiplier and spring (docs/rules.md §3, §6).

    The state is a ``STATE_BYTES``-byte C struct; ``copy()`` copies it.
    ``push``/``pop`` make and undo moves (python-chess style: ``pop``
    undoes the last ``push``); moves also cross as integer codes:
    ``legal_moves_into(buf)`` fills a reusable ``MOVE_DTYPE`` array and
    ``push_codes(cards, info)`` / ``push_index(i)`` play without ``Move``
    objects.

    Raises ``InvalidCardsError`` for a bad hand, ``InvalidDealError`` when the
    hands (with the move to beat) exceed one deck or a seat other than the
    owner of the last move has no cards, ``InvalidMoveError`` for a bad
    ``last``, ``ValueError`` for bad seats, counts or two-deck rules.
    """

    def __init__(self, hands, landlord=0, turn=None, last=None, owner=None, rules=None, *,
                 bombs=0, landlord_plays=0, farmer_plays=0):
        cdef int i
        rules = _STANDARD if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, not {rules!r}")
        if rules.decks != 1:
            raise ValueError("PlayState plays the three-player one-deck game (Rules.decks == 1)")
        hands = list(hands) if not isinstance(hands, (str, bytes)) else None
        if hands is None or len(hands) != 3:
            raise ValueError("hands must be a sequence of three hands (seats 0, 1, 2)")
        words = [_hand_word(h, rules) for h in hands]
        ll = seat_arg(landlord, "landlord")
        t = ll if turn is None else seat_arg(turn, "turn")
        lc, li = _last_codes(last, rules)
        if li == 0:
            if owner is not None:
                o = seat_arg(owner, "owner")
                if o != t:
                    raise ValueError(f"owner {o} but no last move: on a free lead the owner, "
                                     f"if given, is the seat to move ({t})")
            else:
                o = -1
        else:
            o = (t + 2) % 3 if owner is None else seat_arg(owner, "owner")
            if o == t:
                raise ValueError(f"owner {o} is the seat to move: its trick is over, give last=None")
        for name, v in (("bombs", bombs), ("landlord_plays", landlord_plays), ("farmer_plays", farmer_plays)):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 54:
                raise ValueError(f"{name} must be an int in 0..54, not {v!r}")
        for r in range(15):
            n = sum((w >> (4 * r)) & 0xF for w in words) + ((lc >> (4 * r)) & 0xF)
            if n > (4 if r < 13 else 1):
                raise InvalidDealError(f"the hands{' and the last move' if lc else ''} hold {n} cards "
                                       f"of rank {'3456789TJQKA2BR'[r]}; one deck has {4 if r < 13 else 1}")
        for i in range(3):
            if words[i] == 0 and i != o:
                raise InvalidDealError(f"seat {i} has no cards but did not play the last move: "
                                       f"the game would already be over")
        for i in range(3):
            self.st.hand[i] = words[i]
        self.st.last_cards = lc
        self.st.last_info = li
        self.st.flags = rules.flags
        self.st.ply = 0
        self.st.turn = t
        self.st.owner = o
        self.st.landlord = ll
        self.st.bombs = bombs
        self.st.landlord_plays = landlord_plays
        self.st.farmer_plays = farmer_plays
        self.rules = rules
        self.nhist = 0

    def __dealloc__(self):
        free(self.hist)

    @classmethod
    def deal(cls, seed, landlord=0, rules=None):
        """A random deal (17 cards each, the 3 bottom cards to ``landlord``),
        the same for the same ``seed`` (int in 0..2**64-1) on every platform."""
        cdef Rng r
        cdef u64 hands[3]
        cdef u64 bottom
        ll = seat_arg(landlord, "landlord")
        rng_seed(&r, u64_arg(seed, "seed"))
        deal(&r, hands, &bottom)
        hands[ll] += bottom
        return cls([hands[0], hands[1], hands[2]], ll, rules=rules)

    # -- reading the position ---------------------------------------------
    @property
    def hands(self):
        """The three hands, a tuple of ``Hand``."""
        from ddzcore.cards import Hand
        return tuple(Hand._trusted(self.st.hand[i]) for i in range(3))

    @property
    def hand_words(self):
        """The three hands as card words (ints)."""
        return (self.st.hand[0], self.st.hand[1], self.st.hand[2])

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
        return None if self.st.last_info == 0 else Move._from_codes(self.st.last_cards, self.st.last_info)

    @property
    def last_codes(self):
        """The move to beat as (card word, info word); (0, 0) on a free lead."""
        return (self.st.last_cards, self.st.last_info)

    @property
    def passes(self):
        """Consecutive passes since the last play (0, 1 or 2)."""
        return passes(&self.st)

    @property
    def ply(self):
        """Moves pushed since the position was set up (passes included)."""
        return self.st.ply

    @property
    def bombs(self):
        """Bombs and rockets played (each doubles the multiplier)."""
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
        """True / False once over, ``None`` while the game goes on."""
        return (self.st.owner == self.st.landlord) if is_over(&self.st) else None

    @property
    def spring(self):
        """Over, the landlord won and no farmer played a card (春天)."""
        return is_over(&self.st) and self.st.owner == self.st.landlord and self.st.farmer_plays == 0

    @property
    def anti_spring(self):
        """Over, a farmer won and the landlord played exactly one combination (反春)."""
        return is_over(&self.st) and self.st.owner != self.st.landlord and self.st.landlord_plays == 1

    @property
    def multiplier(self):
        """The play phase's factor of the multiplier under the happy rules
        (docs/rules.md §6): 2 per bomb or rocket, times 2 for a spring or
        anti-spring (robs, shows and doubling are not part of the play phase;
        laizi rooms score bombs by kind, docs/rules.md §7, which ``Game`` does)."""
        return (1 << self.st.bombs) * (2 if self.spring or self.anti_spring else 1)

    @property
    def move_stack(self):
        """The moves ``pop`` can undo, oldest first (a list of ``Move``)."""
        return [Move._from_codes(self.hist[i].cards, self.hist[i].info) for i in range(self.nhist)]

    # -- moves ----------------------------------------------------------------
    def legal_moves(self):
        """Legal moves of the seat to move (a ``MoveList``, kernel order: when
        following, pass first); empty once the game is over."""
        cdef MoveRec buf[MAX_MOVES]
        cdef Py_ssize_t n = legal(&self.st, buf, MAX_MOVES)
        if n <= MAX_MOVES:
            return MoveList(records_to_array(buf, n), self.rules)
        arr = np.empty(n, MOVE_DTYPE)
        legal(&self.st, <MoveRec*>cnp.PyArray_DATA(<cnp.ndarray>arr), n)
        return MoveList(arr, self.rules)

    def count_moves(self):
        """How many legal moves the seat to move has (0 once over)."""
        return legal(&self.st, NULL, 0)

    def legal_moves_into(self, cnp.ndarray out):
        """Write the legal moves into ``out`` (a writable C-contiguous 1-d
        ``MOVE_DTYPE`` array, reused across calls) and return how many there
        are.  A count above ``len(out)`` means only the first ``len(out)``
        were written: grow the buffer and call again (``MAX_MOVES_HINT``
        records have always been enough).  Raises ``ValueError`` for an
        unsuitable ``out``."""
        if out.ndim != 1 or out.dtype != MOVE_DTYPE or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be a writable C-contiguous 1-d array of MOVE_DTYPE")
        return legal(&self.st, <MoveRec*>cnp.PyArray_DATA(out), out.shape[0])

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
            m = Move._from_codes(cards, info)
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

    def push(self, move):
        """Play ``move`` (a ``Move`` or move text, e.g. ``"33"`` or ``"pass"``)
        for the seat to move.  Raises ``InvalidMoveError`` for text that is no
        move and ``IllegalMoveError`` for a move that is not legal here (the
        state is then unchanged)."""
        m = move if type(move) is Move else Move.parse(move, self.rules)
        self._push(m._cards, m._info)

    def push_codes(self, cards, info):
        """Play the move with these kernel words (``cards``, ``info``: ints,
        e.g. a row of ``legal_moves_into``'s buffer).  Errors as ``push``."""
        self._push(u64_arg(cards, "cards"), u64_arg(info, "info"))

    def push_index(self, Py_ssize_t i):
        """Play the i-th legal move (kernel order, as ``legal_moves``).
        Raises ``IndexError`` unless 0 <= i < ``count_moves()``."""
        cdef MoveRec buf[MAX_MOVES]
        cdef Buf b
        cdef Py_ssize_t n = legal(&self.st, buf, MAX_MOVES)
        if not 0 <= i < n:
            raise IndexError(f"move index {i} out of range: {n} legal moves")
        if i < MAX_MOVES:
            self._push(buf[i].cards, buf[i].info)
            return
        b.p = NULL
        b.cap = 0
        if not buf_reserve(&b, n):
            raise MemoryError()
        legal(&self.st, b.p, n)
        try:
            self._push(b.p[i].cards, b.p[i].info)
        finally:
            free(b.p)

    def pop(self):
        """Undo the last push and return its ``Move``; ``IndexError`` when
        there is nothing to undo."""
        if self.nhist == 0:
            raise IndexError("pop from a PlayState with no pushed moves")
        self.nhist -= 1
        pop(&self.st, &self.hist[self.nhist])
        return Move._from_codes(self.hist[self.nhist].cards, self.hist[self.nhist].info)

    # -- search helpers ---------------------------------------------------------
    def perft(self, int depth):
        """Number of play sequences of exactly ``depth`` moves from here (passes
        count as moves; a game that ends earlier contributes nothing below its
        end; depth 0 gives 1).  Leaves are counted in bulk, without the GIL.
        Raises ``ValueError`` for a negative depth."""
        cdef State s = self.st
        cdef int64_t n
        if depth < 0:
            raise ValueError(f"depth must be >= 0, not {depth}")
        with nogil:
            n = state_perft(&s, depth)
        if n < 0:
            raise MemoryError()
        return n

    def perft_divide(self, int depth):
        """``perft(depth)`` split by first move: a dict ``{Move: count}`` in
        kernel order (for finding where two counts disagree)."""
        if depth < 1:
            raise ValueError(f"depth must be >= 1, not {depth}")
        out = {}
        child = self.copy(stack=False)
        for m in self.legal_moves():
            child.push(m)
            out[m] = child.perft(depth - 1)
            child.pop()
        return out

    def playouts(self, Py_ssize_t n, seed):
        """Play ``n`` games on from here with uniformly random legal moves
        (without the GIL; the state itself is unchanged) and return the
        winning seats, an int8 array of shape ``(n,)``.  Playout i uses the
        stream of game i of ``simulate(seed=seed)``, so it is deterministic."""
        cdef Rng r
        cdef Buf b
        cdef State s, start = self.st     # read with the GIL held
        cdef Py_ssize_t i
        cdef u64 cards, info
        cdef uint64_t sd = u64_arg(seed, "seed")
        cdef int err = 0
        if n < 0:
            raise ValueError(f"n must be >= 0, not {n}")
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
        cdef PlayState c = PlayState.__new__(PlayState)
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
        owner, landlord, counters, ply and rules); the move history is ignored."""
        if not isinstance(other, PlayState):
            return NotImplemented
        cdef PlayState o = other
        cdef int i
        for i in range(3):
            if self.st.hand[i] != o.st.hand[i]:
                return False
        return (self.st.last_cards == o.st.last_cards and self.st.last_info == o.st.last_info
                and self.st.flags == o.st.flags and self.st.ply == o.st.ply
                and self.st.turn == o.st.turn and self.st.owner == o.st.owner
                and self.st.landlord == o.st.landlord and self.st.bombs == o.st.bombs
                and self.st.landlord_plays == o.st.landlord_plays
                and self.st.farmer_plays == o.st.farmer_plays and self.rules == o.rules)

    __hash__ = None

    def _args(self):
        return ([str(h) for h in self.hands], self.st.landlord, self.st.turn,
                None if self.st.last_info == 0 else str(self.last),
                self.st.owner if self.st.owner >= 0 else None)

    def __repr__(self):
        hands, ll, turn, last, owner = self._args()
        extra = f", last={last!r}, owner={owner}" if last else ""
        rules = "" if self.rules == _STANDARD else f", rules={_rules_repr(self.rules)}"
        over = f" (over: seat {self.st.owner} won)" if is_over(&self.st) else ""
        return f"<PlayState(hands={tuple(hands)!r}, landlord={ll}, turn={turn}{extra}{rules}){over}>"

    def __reduce__(self):
        hands, ll, turn, last, owner = self._args()
        return (_rebuild, (hands, ll, turn, last, owner, self.rules, self.st.bombs,
                           self.st.landlord_plays, self.st.farmer_plays, self.st.ply,
                           [(self.hist[i].cards, self.hist[i].info, self.hist[i].last_cards,
                             self.hist[i].last_info, self.hist[i].owner) for i in range(self.nhist)]))


def _rules_repr(rules):
    """``Rules(...)`` with only the fields that differ from the defaults."""
    changed = [f"{f.name}={getattr(rules, f.name)!r}" for f in dataclasses.fields(rules)
               if getattr(rules, f.name) != getattr(_STANDARD, f.name)]
    return f"Rules({', '.join(changed)})"


def _rebuild(hands, landlord, turn, last, owner, rules, bombs, landlord_plays, farmer_plays, ply, hist):
    """Unpickle a PlayState (position, counters and undo history)."""
    cdef PlayState s = PlayState(hands, landlord, turn, last, owner, rules, bombs=bombs,
                                 landlord_plays=landlord_plays, farmer_plays=farmer_plays)
    cdef Py_ssize_t i
    s.st.ply = ply
    if hist:
        s.hist = <Undo*>malloc(len(hist) * sizeof(Undo))
        if s.hist == NULL:
            raise MemoryError()
        s.hist_cap = len(hist)
        for i, (c, inf, lc, li, o) in enumerate(hist):
            s.hist[i].cards = c
            s.hist[i].info = inf
            s.hist[i].last_cards = lc
            s.hist[i].last_info = li
            s.hist[i].owner = o
        s.nhist = len(hist)
    return s
