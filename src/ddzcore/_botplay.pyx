# cython: language_level=3, wraparound=False, cdivision=True
"""Native bots and whole three-player bot games (docs/rules.md §3-6).

- The rule bot's decisions in C: ``strength`` (the hand score it bids,
  shows and doubles by) and ``rule_play`` (its choice among the legal moves
  of a ``State``), the same choices as ``ddzcore.bots.RuleBot``.
- ``_play_games``: whole games with a policy per seat (uniformly random or
  the rule bot) and the full flow of ``Game`` (show cards, calling or point
  bidding with redeals, the landlord's show after the bottom, doubling,
  play), without the GIL.  Deals come from each game's own stream (the
  same streams, and with random seats and no shows or doubling the same
  games, as ``simulate``) or from the caller (the deals a ``Game`` would
  draw), one per round in order.
"""

from libc.stdlib cimport free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, int64_t, uint64_t

from ddzcore.bits cimport *
from ddzcore._state cimport (State, Undo, Rng, Buf, PlayState, GameOut, Columns, legal, push, is_over, rng_seed,
                             rng_below, buf_reserve, deal, deal_five, state_set, game_init, game_no_landlord,
                             game_seed, landlord_side, Recs, recs_add, play_games, MAX_MOVES)
from ddzcore._kernel cimport adopt_block

cimport numpy as cnp

import numpy as np

cnp.import_array()

from ddzcore._errors import InvalidArgumentError


# Flow actions (the values of ddzcore.game.Action) and phases (of ddzcore.game.Phase).
cdef enum:
    A_NO_SHOW = 0
    A_SHOW = 1
    A_NO_CALL = 2
    A_CALL = 3
    A_NO_ROB = 4
    A_ROB = 5
    A_NO_BID = 6
    A_BID_1 = 7
    NO_ACTION = 255

cdef enum:
    P_SHOW_START = 0
    P_SHOW_EARLY = 1
    P_SHOW_LATE = 2
    P_SHOW_BOTTOM = 6

cdef enum:
    RANDOM = 0
    RULE = 1

# RuleBot's default thresholds (ddzcore.bots.RuleBot): call, rob, double, show.
cdef double CALL_AT = 4.0, ROB_AT = 6.0, DOUBLE_AT = 6.0, SHOW_AT = 11.0


# ---------------------------------------------------------------- the rule bot

cdef double strength(u64 word, int wild) noexcept nogil:
    """RuleBot's hand score (bombs, the rocket, 2s and aces; loose low singles
    count against; each wild card adds, wild -1: none).  The same float
    operations in the same order as ``bots._strength``, so the same value."""
    cdef int r, quads = 0, loose = 0
    cdef double score
    for r in range(13):
        if count_of(word, r) >= 4:
            quads += 1
    for r in range(8):
        if count_of(word, r) == 1 and r != wild:
            loose += 1
    if count_of(word, R_SMALL) and count_of(word, R_BIG):
        score = 3.0 * quads + 4.0
    else:
        score = 3.0 * quads + (1.5 * count_of(word, R_SMALL) + 2.0 * count_of(word, R_BIG))
    score += 1.0 * count_of(word, R_TWO) + 0.4 * count_of(word, R_ACE)
    score -= 0.25 * loose
    if wild >= 0:
        score += 1.5 * count_of(word, wild)
    return score


cdef inline int bomb_tier(int combo) noexcept nogil:
    """Bomb strength tiers (docs/rules.md §7): soft < hard < pure wild < rocket = joker bomb."""
    if combo == C_SOFT_BOMB:
        return 0
    if combo == C_BOMB:
        return 1
    if combo == C_WILD_BOMB:
        return 2
    return 3


cdef Py_ssize_t rule_play(const State* s, const MoveRec* moves, Py_ssize_t n) noexcept nogil:
    """RuleBot's play (``RuleBot._play``, three players) for the seat to move
    of *s among its legal moves moves[0:n] (the kernel's order): the index
    of the move.  Goes out when one move does it; leads the move that sheds
    most cards at the lowest rank without breaking a pair, trio or bomb;
    follows an opponent with the cheapest beating move, keeping bombs for an
    opponent close to going out; lets its teammate's move stand."""
    cdef int me = s.turn, ll = s.landlord
    # a farmer's ally is the other farmer; the landlord has none
    return rule_choice(s, moves, n, 0 if me == ll else 7 & ~((1 << me) | (1 << ll)))


cdef Py_ssize_t rule_choice(const State* s, const MoveRec* moves, Py_ssize_t n, unsigned int allies) noexcept nogil:
    """``rule_play`` for any seat count, the seat to move knowing its allies
    (bit mask ``allies``; every other seat counts as an opponent): with
    five players (docs/rules.md §8) the allies ``FiveObservation`` shows."""
    cdef int me = s.turn, wild = ((s.flags >> 8) & 0xF) - 1
    cdef u64 hand = s.hand[me], cards
    cdef Py_ssize_t i, best = 0
    cdef int r, hc, mc, combo, main, ncards, breaks, q, least = 99, power, lowest = 1 << 30
    cdef bint lead, danger, scored = False, uses, bomb
    cdef unsigned int bomb_ranks = 0
    cdef double score, top = 0.0
    for i in range(n):
        if moves[i].cards == hand:
            return i
    if n == 1:
        return 0
    for r in range(N_RANKS):
        if count_of(hand, r) >= 4:
            bomb_ranks |= 1u << r
    if count_of(hand, R_SMALL) + count_of(hand, R_BIG) >= 2:
        bomb_ranks |= (1u << R_SMALL) | (1u << R_BIG)
    for q in range(3 + s.extra_seats):  # the opponents' fewest cards
        if q != me and not (allies >> q) & 1 and card_total(s.hand[q]) < least:
            least = card_total(s.hand[q])
    danger = least <= 4
    lead = info_combo(s.last_info) == C_PASS
    if not lead and (allies >> s.owner) & 1:
        return 0  # the teammate's move stands: PASS comes first when following
    for i in range(n):
        cards = moves[i].cards
        combo = info_combo(moves[i].info)
        main = <int>((moves[i].info >> 5) & 15)
        bomb = C_BOMB <= combo <= C_JOKER_BOMB
        ncards = 0
        breaks = 0
        uses = False
        for r in range(N_RANKS):
            mc = count_of(cards, r)
            if mc:
                ncards += mc
                hc = count_of(hand, r)
                if mc < hc:
                    breaks += 1
                if (bomb_ranks >> r) & 1 or r == wild:
                    uses = True
        uses = uses and not bomb
        if lead:
            if combo == C_PASS:
                continue
            score = 2.0 * ncards - 0.6 * main - 3.0 * breaks - 20.0 * uses - 40.0 * bomb
            if danger:
                score += 1.0 * ncards + 0.8 * main * (ncards == 1)
        elif bomb:
            power = 16 * bomb_tier(combo) + main
            if power < lowest:
                lowest = power
                if not scored:
                    best = i
            continue
        elif combo == C_PASS:
            continue
        else:
            score = -1.0 * main - 3.0 * breaks - 20.0 * uses
            if danger:
                score = score + 2.0 * main
        if not scored or score > top:  # the first of the best scores
            scored = True
            top = score
            best = i
    if lead or scored:
        return best
    if lowest < (1 << 30) and (danger or card_total(hand) <= 6):
        return best  # the weakest bomb: by tier, then rank
    return 0


cdef Py_ssize_t legal_buf(const State* s, Buf* b) noexcept nogil:
    """The legal moves of *s into b.p[0:n], growing b; n, or -1 when out of memory."""
    cdef Py_ssize_t n = legal(s, b.p, b.cap)
    if n > b.cap:
        if not buf_reserve(b, n):
            return -1
        n = legal(s, b.p, b.cap)
    return n


def _rule_play(PlayState ps):
    """The index in ``ps.legal_moves()`` (kernel order) of ``RuleBot``'s play for
    the seat to move (docs/rules.md §3).  Raises ``InvalidArgumentError`` once
    the game is over."""
    cdef Buf b
    cdef Py_ssize_t n
    b.p = NULL
    b.cap = 0
    if not buf_reserve(&b, MAX_MOVES):
        raise MemoryError()
    n = legal_buf(&ps.st, &b)
    try:
        if n < 0:
            raise MemoryError()
        if n == 0:
            raise InvalidArgumentError("the game is over")
        return rule_play(&ps.st, b.p, n)
    finally:
        free(b.p)


def _strength(word, int wild=-1):
    """``RuleBot``'s hand score of the card word ``word`` (wild: the laizi wild rank index, -1: none)."""
    return strength(<u64>word, wild)


# ---------------------------------------------------------------- whole games

cdef struct Flow:
    int flags
    int points          # 1: point bidding (叫分); 0: call and rob (叫地主/抢地主)
    int rob_back
    int max_redeals     # -1: no cap
    int show[3]         # show multipliers offered before the deal, early and late in it (0: not offered)
    int show_bottom     # the landlord's show after taking the bottom (0: not offered)
    int doubling
    uint8_t may_double[3][3]   # [landlord][seat]: that seat may double (the room's bean threshold)
    uint8_t policy[3]          # RANDOM or RULE per seat


cdef struct Deals:
    const u64* hands    # (n, 3) hands as dealt
    const u64* bottom
    const int8_t* first
    Py_ssize_t n
    Py_ssize_t at       # the next deal to use


cdef inline bint choose(Rng* r, int policy, bint rule_says) noexcept nogil:
    """A yes/no flow decision: the rule bot's, or a fair coin (the second of two legal actions)."""
    return rule_says if policy == RULE else rng_below(r, 2) == 1


cdef bint rob(Rng* r, const Flow* f, GameOut* g, int p, int k) noexcept nogil:
    """Seat p's rob decision (抢地主), recorded as decision k of the calling: whether it robs."""
    cdef bint robs = choose(r, f.policy[p], strength(g.hands[p], -1) >= ROB_AT)
    g.calls[k] = A_ROB if robs else A_NO_ROB
    g.robs += robs
    return robs


cdef int flow(Rng* r, const Flow* f, Deals* d, GameOut* g) noexcept nogil:
    """Deal and run the flow of ``Game`` up to play (docs/rules.md §4-5): the
    landlord, -1 when the redeal cap ended the game, -2 when the given
    deals ran out."""
    cdef int i, j, p, k, ph, caller, robber, shower, start, landlord, bid, want
    cdef double s
    g.redeals = 0
    while True:
        if d.hands != NULL:
            if d.at == d.n:
                return -2
            for i in range(3):
                g.hands[i] = d.hands[3 * d.at + i]
            g.bottom = d.bottom[d.at]
            g.first = d.first[d.at]
            d.at += 1
        else:
            deal(r, g.hands, &g.bottom)
            g.first = rng_below(r, 3)
        g.robs = 0
        g.base = 1
        for i in range(4):
            g.calls[i] = NO_ACTION
        shower = -1
        for i in range(3):
            g.shows[i] = 0
            g.doubles[i] = 1
        for ph in range(3):  # show cards before and during the deal, each phase in turn from the first caller
            if f.show[ph]:
                for i in range(3):
                    p = (g.first + i) % 3
                    if not g.shows[p] and choose(r, f.policy[p], ph == P_SHOW_LATE
                                                 and strength(g.hands[p], -1) >= SHOW_AT):
                        g.shows[p] = f.show[ph]
                        if shower < 0:
                            shower = p
        start = g.first if shower < 0 else shower
        landlord = -1
        k = 0
        if f.points:
            bid = 0
            for i in range(3):
                p = (start + i) % 3
                if f.policy[p] == RULE:
                    s = strength(g.hands[p], -1)
                    want = 3 if s >= ROB_AT + 1 else 2 if s >= CALL_AT + 1 else 1 if s >= CALL_AT else 0
                    j = want - bid if want > bid else 0
                else:
                    j = rng_below(r, 4 - bid)   # 0: no bid, else bid + j
                if j:
                    bid += j
                    landlord = p
                    g.calls[k] = A_BID_1 - 1 + bid
                    k += 1
                    if bid == 3:
                        break
                else:
                    g.calls[k] = A_NO_BID
                    k += 1
            if landlord >= 0:
                g.base = bid
        else:
            caller = robber = -1
            for i in range(3):
                p = (start + i) % 3
                if choose(r, f.policy[p], strength(g.hands[p], -1) >= CALL_AT):
                    g.calls[k] = A_CALL
                    k += 1
                    caller = p
                    break
                g.calls[k] = A_NO_CALL
                k += 1
            if caller >= 0:
                for j in range(i + 1, 3):  # each seat after the caller may rob once
                    p = (start + j) % 3
                    if rob(r, f, g, p, k):
                        robber = p
                    k += 1
                if robber >= 0 and f.rob_back and rob(r, f, g, caller, k):  # the caller's last chance
                    robber = caller
                landlord = caller if robber < 0 else robber
        if landlord < 0 and shower >= 0:  # everybody passed: the first to show is the landlord
            landlord = shower
            g.base = 1
        if landlord >= 0:
            break
        if f.max_redeals >= 0 and g.redeals >= f.max_redeals:
            game_no_landlord(g)
            return -1
        g.redeals += 1
    g.hands[landlord] += g.bottom
    g.landlord = landlord
    if f.show_bottom and not g.shows[landlord]:
        if choose(r, f.policy[landlord], strength(g.hands[landlord], -1) >= SHOW_AT + 3):
            g.shows[landlord] = f.show_bottom
    if f.doubling:
        for i in range(3):
            p = (landlord + i) % 3
            if f.may_double[landlord][p] and choose(r, f.policy[p], strength(g.hands[p], -1) >= DOUBLE_AT):
                g.doubles[p] = 2
    return landlord


cdef int bot_game(Rng* r, const Flow* f, Deals* d, Buf* b, GameOut* g) noexcept nogil:
    """One whole game into *g: 0, 1 when the given deals ran out, -1 when out of memory."""
    cdef State s
    cdef Undo u
    cdef Py_ssize_t n, k
    cdef int landlord
    game_init(g)
    landlord = flow(r, f, d, g)
    if landlord == -2:
        return 1
    if landlord < 0:
        return 0
    state_set(&s, g.hands, 3, 0, 0, f.flags, landlord, -1, landlord, -1, 0, 0, 0)
    while not is_over(&s):
        n = legal_buf(&s, b)
        if n < 0:
            return -1
        k = rule_play(&s, b.p, n) if f.policy[s.turn] == RULE else rng_below(r, <uint32_t>n)
        push(&s, b.p[k].cards, b.p[k].info, &u)
    g.winner = s.owner
    g.turns = s.ply
    g.bombs = s.bombs
    g.spring = s.owner == landlord and s.farmer_plays == 0
    g.anti = s.owner != landlord and s.landlord_plays == 1
    return 0


cdef struct BotRun:
    Flow* f
    Deals* d
    Py_ssize_t used     # deals used by the games played


cdef int bot_run_game(void* ctx, Py_ssize_t i, Rng* r, Buf* b, Recs* rec, GameOut* g) noexcept nogil:
    """bot_game as a run's game_fn (_state.play_games)."""
    cdef BotRun* x = <BotRun*>ctx
    cdef int rc = bot_game(r, x.f, x.d, b, g)
    if rc == 0 and x.d.hands != NULL:  # (given deals: one thread; random deals leave used 0, unwritten by the threads)
        x.used = x.d.at
    return rc


def _play_games(Py_ssize_t n_games, uint64_t seed, uint64_t first_game, int flags, bint points, bint rob_back,
                int max_redeals, shows, int show_bottom, bint doubling, may_double, policy,
                deal_hands=None, deal_bottom=None, deal_first=None, int threads=1):
    """Kernel of ``ddzcore.botsim`` (which documents it): ``(columns, games,
    deals)``: a dict of column arrays for the ``games`` games played (all
    ``n_games`` unless the given deals ran out) and the number of given deals
    they used.  ``shows``: the three show multipliers (before the deal,
    early, late; 0 = not offered); ``may_double``: (3, 3) [landlord, seat];
    ``policy``: three seats' policies (0 random, 1 rule); ``threads``
    (>= 1): threads playing random deals (given deals are used in turn by
    one thread)."""
    cdef Flow f
    cdef Deals d
    cdef BotRun run
    cdef Py_ssize_t i, done
    cdef int k
    cdef const u64[:, ::1] dh
    cdef const u64[::1] db
    cdef const int8_t[::1] df
    if threads < 1:
        raise InvalidArgumentError(f"threads must be >= 1, not {threads}")
    f.flags = flags
    f.points = points
    f.rob_back = rob_back
    f.max_redeals = max_redeals
    for k in range(3):
        f.show[k] = shows[k]
        f.policy[k] = policy[k]
        for i in range(3):
            f.may_double[k][i] = bool(may_double[k][i])
    f.show_bottom = show_bottom
    f.doubling = doubling
    d.hands = NULL
    d.n = d.at = 0
    if deal_hands is not None:
        dh = deal_hands
        db = deal_bottom
        df = deal_first
        d.n = dh.shape[0]
        if d.n:
            d.hands = &dh[0, 0]
            d.bottom = &db[0]
            d.first = &df[0]
        threads = 1
    run.f, run.d, run.used = &f, &d, 0
    cdef Columns c = Columns(n_games, 3)
    done = play_games(bot_run_game, &run, c, seed, first_game, threads, 0, 0, NULL, NULL)
    cols = c.cols
    if done < n_games:
        cols = {key: v[:done] for key, v in cols.items()}
    return cols, done, run.used


# ---------------------------------------------------------------- five players

# One move of a recorded five-player bot game: card word, the low 16 bits of
# the info word, the seat and the marked-face cards among the cards.  12 bytes.
cdef packed struct FiveMove:
    uint64_t cards
    uint16_t info
    int8_t seat
    uint8_t marked

#: One recorded move of ``_play_five_games(record=True)`` (``ddzcore.tools.botsim``).
FIVE_MOVE_DTYPE = np.dtype([("cards", "<u8"), ("info", "<u2"), ("seat", "i1"), ("marked", "u1")])
assert FIVE_MOVE_DTYPE.itemsize == sizeof(FiveMove)


cdef struct FiveFlow:
    int flags
    int doubling
    uint8_t may_double[5][5]   # [seat][landlord]: Room.may_double(seat, landlord, beans)
    uint8_t policy[5]          # RANDOM or RULE per seat


cdef struct FiveDeals:
    const u64* hands    # (n, 5) hands as dealt (the bottom apart)
    const u64* bottom
    const uint8_t* marked   # the marked card's id (copy * 54 + card)
    const int8_t* open      # its holder, the open landlord
    const int8_t* partner   # the twin's holder, -1 when the open landlord plays alone
    Py_ssize_t n
    Py_ssize_t at       # the next deal to use


# What a five-player game adds to GameOut (whose doubles hold three seats).
cdef struct FiveExtra:
    uint8_t reveals[5]  # 1: that seat chose to reveal (亮出身份)
    uint8_t doubles[5]  # each seat's doubling factor (1 or 2)
    int8_t public       # how the landlords became public: 0 not, 1 a chosen reveal, 2 the twin played


cdef int five_deal(Rng* r, FiveDeals* d, GameOut* g, int* open_ll, int* partner) noexcept nogil:
    """The next deal into g.hands (as dealt), g.bottom and g.marked, the landlords
    into *open_ll and *partner (-1: alone): the caller's next deal, else
    one drawn (``deal_five``).  1 when the caller's deals ran out."""
    cdef int i
    if d.hands == NULL:
        g.marked = deal_five(r, g.hands, &g.bottom, open_ll, partner)
        return 0
    if d.at == d.n:
        return 1
    for i in range(5):
        g.hands[i] = d.hands[5 * d.at + i]
    g.bottom = d.bottom[d.at]
    g.marked = d.marked[d.at]
    open_ll[0] = d.open[d.at]
    partner[0] = d.partner[d.at]
    d.at += 1
    return 0


cdef inline bint fchoose(Rng* r, int policy, bint rule_says) noexcept nogil:
    return rule_says if policy == RULE else rng_below(r, 2) == 1


cdef int five_game(Rng* r, const FiveFlow* f, FiveDeals* d, Buf* b, Recs* rec, GameOut* g,
                   FiveExtra* x) noexcept nogil:
    """One five-player game with the flow of ``FiveGame`` (docs/rules.md §8):
    the reveal asked of every seat in turn from the open landlord (landlords
    choose, farmers can only decline), doubling by each eligible seat in
    turn from the open landlord (eligibility by the roles public then), and
    play from the open landlord's lead, a seat holding marked-face cards
    before the landlords are public choosing how many to play (uniformly
    among ``FiveGame.legal_actions``'s variants for a random seat, the
    fewest for the rule bot); playing the twin makes the landlords public.
    0, 1 when the given deals ran out, -1 when out of memory."""
    cdef State s
    cdef Undo u
    cdef int i, p, op, hid, mrank, fc, have, kc, lo, hi, total, pick, marked
    cdef int face[5]
    cdef unsigned int allies, lords
    cdef Py_ssize_t n, k
    cdef FiveMove* m
    game_init(g)
    if five_deal(r, d, g, &op, &hid):
        return 1
    g.partner = hid
    g.first = op
    g.base = 1
    g.hands[op] += g.bottom
    g.landlord = op
    memset(x, 0, sizeof(FiveExtra))
    memset(x.doubles, 1, 5)
    mrank = (g.marked % 54) // 4
    for i in range(5):
        face[i] = 0
    face[op] = 1 if hid >= 0 else 2
    if hid >= 0:
        face[hid] = 1
    for i in range(5):      # reveal (亮出身份), in turn from the open landlord
        p = (op + i) % 5
        if (p == op or p == hid) and fchoose(r, f.policy[p], strength(g.hands[p], -1) >= SHOW_AT):
            x.reveals[p] = 1
            if not x.public:
                x.public = 1
    if f.doubling:          # doubling (加倍): eligibility by the roles public now
        lords = (1u << op) | ((1u << hid) if x.public and hid >= 0 else 0)
        for i in range(5):
            p = (op + i) % 5
            if (lords >> p) & 1:
                if not f.may_double[p][p]:
                    continue
            elif not f.may_double[p][op] or (hid >= 0 and (lords >> hid) & 1 and not f.may_double[p][hid]):
                continue
            if fchoose(r, f.policy[p], strength(g.hands[p], -1) >= DOUBLE_AT):
                x.doubles[p] = 2
    state_set(&s, g.hands, 5, 0, 0, f.flags, op, -1, op, hid, 0, 0, 0)
    while not is_over(&s):
        p = s.turn
        n = legal_buf(&s, b)
        if n < 0:
            return -1
        fc = face[p] if not x.public else 0
        have = count_of(s.hand[p], mrank)
        if f.policy[p] == RULE:
            if x.public:    # the landlords are public: each side knows its allies
                allies = ((1u << op) | ((1u << hid) if hid >= 0 else 0))
                if not (allies >> p) & 1:
                    allies = 31 & ~allies
            else:           # only the hidden landlord knows its ally (the open one)
                allies = (1u << op) if p == hid else 0
            k = rule_choice(&s, b.p, n, allies & ~(1u << p))
            kc = count_of(b.p[k].cards, mrank)
            marked = kc - (have - fc) if kc > have - fc else 0      # the fewest the hand allows
        elif fc:            # every count of marked-face cards a move can hold is a choice of its own
            total = 0
            for k in range(n):
                kc = count_of(b.p[k].cards, mrank)
                total += (kc if kc < fc else fc) - (kc - (have - fc) if kc > have - fc else 0) + 1
            pick = rng_below(r, <uint32_t>total)
            for k in range(n):
                kc = count_of(b.p[k].cards, mrank)
                lo = kc - (have - fc) if kc > have - fc else 0
                hi = kc if kc < fc else fc
                if pick <= hi - lo:
                    break
                pick -= hi - lo + 1
            marked = lo + pick
        else:
            k = rng_below(r, <uint32_t>n)
            marked = 0
        push(&s, b.p[k].cards, b.p[k].info, &u)
        if marked:          # the twin played reveals (no doubling); so do both copies played by a lone landlord
            face[p] -= marked
            if p == hid or (hid < 0 and face[p] == 0):
                x.public = 2
        if rec != NULL:
            m = <FiveMove*>recs_add(rec)
            if m == NULL:
                return -1
            m.cards = b.p[k].cards
            m.info = <uint16_t>b.p[k].info
            m.seat = p
            m.marked = marked
    g.winner = s.owner
    g.turns = s.ply
    g.bombs = s.bombs
    g.spring = s.farmer_plays == 0 if landlord_side(&s, s.owner) else s.landlord_plays == 0
    return 0


cdef struct FiveRun:
    FiveFlow* f
    FiveDeals* d
    Py_ssize_t used     # deals used by the games played
    uint8_t* doubles    # (n, 5) columns of FiveExtra
    uint8_t* reveals    # (n, 5)
    int8_t* public      # (n,)


cdef int five_run_game(void* ctx, Py_ssize_t i, Rng* r, Buf* b, Recs* rec, GameOut* g) noexcept nogil:
    """five_game as a run's game_fn (_state.play_games), its FiveExtra into row i."""
    cdef FiveRun* x = <FiveRun*>ctx
    cdef FiveExtra e
    cdef int rc = five_game(r, x.f, x.d, b, rec, g, &e)
    if rc == 0:
        x.used = x.d.at
        memcpy(x.doubles + 5 * i, e.doubles, 5)
        memcpy(x.reveals + 5 * i, e.reveals, 5)
        x.public[i] = e.public
    return rc


def _play_five_games(Py_ssize_t n_games, uint64_t seed, uint64_t first_game, int flags, bint doubling, may_double,
                     policy, bint record=False, deal_hands=None, deal_bottom=None, deal_marked=None,
                     deal_open=None, deal_partner=None):
    """Kernel of ``ddzcore.tools.botsim.run_native_five_games`` (which documents
    it): ``(columns, games, deals)`` as ``_play_games``, the columns of
    five-player games (docs/rules.md §8) with ``doubles`` (n, 5), ``reveals``
    (n, 5: 1 = chose to reveal) and ``public`` (0 the landlords stayed
    hidden, 1 a chosen reveal, 2 the twin played), plus ``moves``
    (``FIVE_MOVE_DTYPE``) and ``offsets`` when ``record``.  ``may_double``:
    (5, 5) [seat, landlord] (``Room.may_double``); ``policy``: five seats'
    policies (0 random, 1 rule); the deals, when given, are those a
    ``FiveGame`` draws, one per game (hands as dealt, bottom, marked card,
    open landlord, partner or -1)."""
    cdef FiveFlow f
    cdef FiveDeals d
    cdef FiveRun run
    cdef Recs rec
    cdef Py_ssize_t done
    cdef int k, j
    cdef const u64[:, ::1] dh
    cdef const u64[::1] db
    cdef const uint8_t[::1] dm
    cdef const int8_t[::1] do
    cdef const int8_t[::1] dp
    f.flags = flags
    f.doubling = doubling
    for k in range(5):
        f.policy[k] = policy[k]
        for j in range(5):
            f.may_double[k][j] = bool(may_double[k][j])
    d.hands = NULL
    d.n = d.at = 0
    if deal_hands is not None:
        dh, db, dm, do, dp = deal_hands, deal_bottom, deal_marked, deal_open, deal_partner
        d.n = dh.shape[0]
        if d.n:
            d.hands, d.bottom, d.marked, d.open, d.partner = &dh[0, 0], &db[0], &dm[0], &do[0], &dp[0]
    cdef Columns c = Columns(n_games, 5)
    doubles = np.ones((n_games, 5), np.uint8)
    reveals = np.zeros((n_games, 5), np.uint8)
    public = np.zeros(n_games, np.int8)
    offsets = np.zeros(n_games + 1 if record else 0, np.int64)
    run.f, run.d, run.used = &f, &d, 0
    run.doubles = <uint8_t*>cnp.PyArray_DATA(doubles)
    run.reveals = <uint8_t*>cnp.PyArray_DATA(reveals)
    run.public = <int8_t*>cnp.PyArray_DATA(public)
    done = play_games(five_run_game, &run, c, seed, first_game, 1, sizeof(FiveMove) if record else 0, 128,
                      &rec, <int64_t*>cnp.PyArray_DATA(offsets) if record else NULL)
    cols = c.cols
    cols.update(doubles=doubles, reveals=reveals, public=public)
    if done < n_games:
        cols = {key: v[:done] for key, v in cols.items()}
    if record:
        cols["moves"] = adopt_block(FIVE_MOVE_DTYPE, rec.p, rec.n, sizeof(FiveMove))
        cols["offsets"] = offsets[:done + 1]
    return cols, done, run.used
