# cython: language_level=3, wraparound=False, cdivision=True
"""DouZero's move lists and features in C (ddzcore.interop.douzero).

Two things DouZero's models depend on beyond the card sets of the
``douzero`` rules preset:

- the *order* (and the repeats) of ``GameEnv.get_legal_card_play_actions()``:
  the row order of ``x_batch``, so the index ``argmax`` picks.  ``dz_legal``
  writes card words (bits.pxd) in exactly that order: DouZero's types in
  its order (singles in the iteration order of a CPython ``set`` of its card
  codes, pairs, trios, bombs, rocket, 3+1, 3+2, chains, planes with wings,
  four-with-two), each enumerated as DouZero does (wings and four-with-two
  singles as ``itertools.combinations`` of the cards, dropping only a repeat
  that follows itself), then bombs and rocket after a follow, pass last;
- the features of ``douzero.env.env.get_obs``: ``encode`` writes one
  decision's ``x_batch`` / ``z_batch`` (float32) and ``x_no_action`` / ``z``
  (int8) into caller-owned buffers; ``encode_batch`` does many decisions.

Cards are ranks 0..14 (3..A, 2, B, R) as in the card word; DouZero's codes
3..14, 17, 20, 30 order the same way, and only 3..A are consecutive.
"""

from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, int64_t, uint8_t

from ddzcore.bits cimport *
from ddzcore._kernel cimport dz_read, generate, valid_hand
from libc.stdlib cimport qsort, malloc, free

cimport numpy as cnp
import numpy as np
from ddzcore._errors import InvalidArgumentError
from collections import OrderedDict

cnp.import_array()

# DouZero's card codes of rank indices 0..14.
cdef int DZ_CODE[15]
DZ_CODE[:] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]

cdef enum:
    T_PASS = 0
    T_SINGLE = 1
    T_PAIR = 2
    T_TRIPLE = 3
    T_BOMB = 4
    T_ROCKET = 5
    T_3_1 = 6
    T_3_2 = 7
    T_SERIAL_1 = 8
    T_SERIAL_2 = 9
    T_SERIAL_3 = 10
    T_SERIAL_3_1 = 11
    T_SERIAL_3_2 = 12
    T_4_2 = 13
    T_4_22 = 14
    T_WRONG = 15


cdef struct Out:
    u64* out
    Py_ssize_t n, cap
    int key_kind      # 0: no filter; else a move is kept when dz_key(move, key_kind) > key
    int key
    u64 prev          # the last candidate of the current type (for the consecutive-repeat drop)
    int prev_block


cdef inline int lowest(u64 w) noexcept nogil:
    cdef int r
    for r in range(N_RANKS):
        if count_of(w, r):
            return r
    return -1


cdef inline int rank_with(u64 w, int k) noexcept nogil:
    """The highest rank held exactly k times, -1 if none."""
    cdef int r, top = -1
    for r in range(N_RANKS):
        if count_of(w, r) == k:
            top = r
    return top


cdef inline int dz_key(u64 w, int kind) noexcept nogil:
    """The rank DouZero's move_selector compares for a type: 1 the lowest
    card, 3 the trio, 4 the quad, 5 the highest rank held exactly three times."""
    if kind == 1:
        return lowest(w)
    if kind == 5:
        return rank_with(w, 3)
    return rank_with(w, kind)


cdef inline void put(Out* o, u64 w) noexcept nogil:
    if o.key_kind and dz_key(w, o.key_kind) <= o.key:
        return
    if o.n < o.cap:
        o.out[o.n] = w
    o.n += 1


cdef inline void put_dedup(Out* o, u64 w, int block) noexcept nogil:
    """put, dropping a candidate equal to the previous one (itertools.groupby)."""
    if w == o.prev and block == o.prev_block:
        return
    o.prev = w
    o.prev_block = block
    put(o, w)


cdef int set_order(u64 hand, int* ranks) noexcept nogil:
    """The ranks of hand in the iteration order of CPython's ``set(cards)``
    over DouZero's codes inserted in ascending order: ascending once the
    table has grown to 32 slots (5 distinct codes), otherwise the order of
    an 8-slot table (slot = code & 7, then i = 5i + 1 on a collision)."""
    cdef int r, n = 0, i, k
    cdef int slot[8]
    for r in range(N_RANKS):
        if count_of(hand, r):
            ranks[n] = r
            n += 1
    if n >= 5:
        return n
    for i in range(8):
        slot[i] = -1
    for k in range(n):
        i = DZ_CODE[ranks[k]] & 7
        while slot[i] >= 0:
            i = (i * 5 + 1) & 7
        slot[i] = ranks[k]
    k = 0
    for i in range(8):
        if slot[i] >= 0:
            ranks[k] = slot[i]
            k += 1
    return n


cdef void serial(Out* o, u64 hand, int need, int min_len, int k, int repeat_num) noexcept nogil:
    """DouZero's _gen_serial_moves over the ranks held >= need times, k of
    each: maximal runs within 3..A in order; for each, every length from
    min_len up (each length's windows left to right), or only windows of
    repeat_num when that is >= min_len."""
    cdef int r = 0, s, steps, idx, longest
    if repeat_num < min_len:
        repeat_num = 0
    while r <= R_ACE:
        if count_of(hand, r) < need:
            r += 1
            continue
        s = r
        while r + 1 <= R_ACE and count_of(hand, r + 1) >= need:
            r += 1
        longest = r - s + 1
        r += 1
        if longest < min_len:
            continue
        if repeat_num == 0:
            for steps in range(min_len, longest + 1):
                for idx in range(0, longest - steps + 1):
                    put(o, run_word(s + idx, steps, k))
        elif longest >= repeat_num:
            for idx in range(0, longest - repeat_num + 1):
                put(o, run_word(s + idx, repeat_num, k))


cdef void combos(Out* o, u64 base, const int* items, int n, int k, int mult, int block) noexcept nogil:
    """base plus mult cards of each rank of every k-combination of
    items[0:n] (by index, lexicographic: itertools.combinations); block >= 0
    drops a candidate equal to the one before it in the same block
    (itertools.groupby), block < 0 keeps every one."""
    cdef int idx[8]
    cdef int i, j
    cdef u64 w
    if k > n or k <= 0:
        return
    for i in range(k):
        idx[i] = i
    while True:
        w = base
        for i in range(k):
            w += <u64>mult * unit(items[idx[i]])
        if block >= 0:
            put_dedup(o, w, block)
        else:
            put(o, w)
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1


cdef void gen_type(Out* o, u64 hand, int t, int repeat_num) noexcept nogil:
    """One of DouZero's move types, in its order."""
    cdef int ranks[15]
    cdef int cards[20]
    cdef int n, i, j, r, c, L, block
    cdef u64 s3, s
    if t == T_SINGLE:
        n = set_order(hand, ranks)
        for i in range(n):
            put(o, unit(ranks[i]))
    elif t == T_PAIR or t == T_TRIPLE:
        for r in range(N_RANKS):
            if count_of(hand, r) >= t:
                put(o, <u64>t * unit(r))
    elif t == T_BOMB:
        for r in range(N_RANKS):
            if count_of(hand, r) == 4:
                put(o, 4 * unit(r))
    elif t == T_ROCKET:
        if count_of(hand, R_SMALL) and count_of(hand, R_BIG):
            put(o, unit(R_SMALL) + unit(R_BIG))
    elif t == T_3_1 or t == T_3_2:
        if t == T_3_1:
            n = set_order(hand, ranks)
        else:
            n = 0
            for r in range(N_RANKS):
                if count_of(hand, r) >= 2:
                    ranks[n] = r
                    n += 1
        for i in range(n):
            for r in range(N_RANKS):
                if count_of(hand, r) >= 3 and r != ranks[i]:
                    put(o, (t - T_3_1 + 1) * unit(ranks[i]) + 3 * unit(r))
    elif t == T_SERIAL_1:
        serial(o, hand, 1, 5, 1, repeat_num)
    elif t == T_SERIAL_2:
        serial(o, hand, 2, 3, 2, repeat_num)
    elif t == T_SERIAL_3:
        serial(o, hand, 3, 2, 3, repeat_num)
    elif t == T_SERIAL_3_1 or t == T_SERIAL_3_2:
        _planes(o, hand, t, repeat_num)
    elif t == T_4_2 or t == T_4_22:
        block = 0
        for r in range(N_RANKS):
            if count_of(hand, r) != 4:
                continue
            block += 1
            n = 0
            if t == T_4_2:
                for j in range(N_RANKS):
                    if j != r:
                        for c in range(count_of(hand, j)):
                            cards[n] = j
                            n += 1
                combos(o, 4 * unit(r), cards, n, 2, 1, block)
            else:
                for j in range(N_RANKS):
                    if j != r and count_of(hand, j) >= 2:
                        cards[n] = j
                        n += 1
                combos(o, 4 * unit(r), cards, n, 2, 2, -1)


cdef void _planes(Out* o, u64 hand, int t, int repeat_num) noexcept nogil:
    """Planes with wings: for each trio chain in DouZero's chain order, the
    wings as combinations of the other cards (single wings) or of the other
    ranks held twice (pair wings)."""
    cdef u64 chains[64]
    cdef Out inner
    cdef int cards[20]
    cdef int i, j, c, n, L, lo, hi, m
    inner.out = chains
    inner.n = 0
    inner.cap = 64
    inner.key_kind = 0
    serial(&inner, hand, 3, 2, 3, repeat_num)
    m = inner.n if inner.n < 64 else 64
    for i in range(m):
        lo = lowest(chains[i])
        L = card_total(chains[i]) // 3
        hi = lo + L - 1
        n = 0
        for j in range(N_RANKS):
            if lo <= j <= hi:
                continue
            if t == T_SERIAL_3_1:
                for c in range(count_of(hand, j)):
                    cards[n] = j
                    n += 1
            elif count_of(hand, j) >= 2:
                cards[n] = j
                n += 1
        if t == T_SERIAL_3_1:
            combos(o, chains[i], cards, n, L, 1, i + 1)
        else:
            combos(o, chains[i], cards, n, L, 2, -1)


cdef int dz_type(u64 w, int* length) noexcept nogil:
    """DouZero's move_detector type of a card set (T_*), with the chain
    length of serial types in *length."""
    cdef u64 info = dz_read(w)
    cdef int combo = info_combo(info)
    length[0] = info_length(info)
    if w == 0:
        return T_PASS
    if combo == C_SINGLE:
        return T_SINGLE
    if combo == C_PAIR:
        return T_PAIR
    if combo == C_TRIO:
        return T_TRIPLE
    if combo == C_BOMB:
        return T_BOMB
    if combo == C_ROCKET:
        return T_ROCKET
    if combo == C_TRIO_SINGLE:
        return T_3_1
    if combo == C_TRIO_PAIR:
        return T_3_2
    if combo == C_STRAIGHT:
        return T_SERIAL_1
    if combo == C_PAIR_CHAIN:
        return T_SERIAL_2
    if combo == C_PLANE:
        return T_SERIAL_3
    if combo == C_PLANE_SINGLE:
        return T_SERIAL_3_1
    if combo == C_PLANE_PAIR:
        return T_SERIAL_3_2
    if combo == C_FOUR_TWO_SINGLE:
        return T_4_2
    if combo == C_FOUR_TWO_PAIR:
        return T_4_22
    return T_WRONG


cdef Py_ssize_t dz_legal(u64 hand, u64 rival, u64* out, Py_ssize_t cap) noexcept nogil:
    """DouZero's GameEnv.get_legal_card_play_actions() for a hand facing
    rival (0: a free lead) as card words into out[0:cap], pass (0) last;
    returns the count (which may exceed cap)."""
    cdef Out o
    cdef int t, L = 0, kind
    o.out = out
    o.n = 0
    o.cap = cap
    o.key_kind = 0
    o.prev = 0
    o.prev_block = -1
    if rival == 0:
        for t in range(T_SINGLE, T_WRONG):
            o.prev_block = -1
            gen_type(&o, hand, t, 0)
        return o.n
    t = dz_type(rival, &L)
    if t == T_ROCKET:
        pass
    elif t == T_BOMB:
        o.key_kind = 1
        o.key = lowest(rival)
        gen_type(&o, hand, T_BOMB, 0)
        gen_type(&o, hand, T_ROCKET, 0)
    else:
        if t != T_WRONG:
            kind = 1
            if t == T_3_1 or t == T_3_2:
                kind = 3
            elif t == T_4_2 or t == T_4_22:
                kind = 4
            elif t == T_SERIAL_3_1 or t == T_SERIAL_3_2:
                kind = 5
            o.key_kind = kind
            o.key = dz_key(rival, kind)
            gen_type(&o, hand, t, L)
            o.key_kind = 0
        gen_type(&o, hand, T_BOMB, 0)
        gen_type(&o, hand, T_ROCKET, 0)
    o.key_kind = 0
    put(&o, 0)
    return o.n


# ---------------------------------------------------------------- features (douzero.env.env.get_obs)

cdef enum:
    ROW = 30            # words in a decision row (see DECISION_FIELDS)
    SEQ = 15            # actions in z


#: The fields of a decision row (uint64): the acting position (0 landlord,
#: 1 landlord_up, 2 landlord_down), card words of its hand, the other two
#: hands, the move to beat (DouZero's last_move), cards played by each
#: position, each position's last action (last_move_dict), cards left per
#: position, bombs played, how many actions ``seq`` holds, and the last
#: (up to) 15 actions oldest first (card_play_action_seq[-15:]).
DECISION_FIELDS = (["position", "hand", "other", "last"] + [f"played{i}" for i in range(3)]
                   + [f"last_move{i}" for i in range(3)] + [f"left{i}" for i in range(3)]
                   + ["bombs", "nseq"] + [f"seq{i}" for i in range(SEQ)])


# PATTERN[c], PATTERN8[c]: a rank column holding c cards (ones in its first c rows).
cdef float PATTERN[5][4]
cdef int8_t PATTERN8[5][4]
for _c in range(5):
    for _k in range(4):
        PATTERN[_c][_k] = 1.0 if _k < _c else 0.0
        PATTERN8[_c][_k] = 1 if _k < _c else 0

# The features are 0/1 cells written as float32 (x_batch, z_batch) or int8
# (x_no_action, z, the action rows of the compact form) by the same code.
ctypedef fused cell:
    float
    int8_t


cdef inline void cards54(cell* dst, u64 w) noexcept nogil:
    """DouZero's _cards2array: rank column c (3..2) holds count ones in
    rows 0.., column-major (4c + row); then the small and big joker."""
    cdef int r
    for r in range(13):
        if cell is float:
            memcpy(dst + 4 * r, PATTERN[count_of(w, r)], 4 * sizeof(float))
        else:
            memcpy(dst + 4 * r, PATTERN8[count_of(w, r)], 4)
    dst[52] = 1 if count_of(w, R_SMALL) else 0
    dst[53] = 1 if count_of(w, R_BIG) else 0


cdef inline void one_hot(cell* dst, int n, int size) noexcept nogil:
    memset(dst, 0, size * sizeof(cell))
    dst[n - 1 if n > 0 else size - 1] = 1    # numpy's one_hot[n - 1], as DouZero indexes


cdef int base_row(const u64* d, cell* row) noexcept nogil:
    """The action-independent features of decision d into row; returns
    their count (319 for the landlord, 430 for a farmer)."""
    cdef int pos = <int>d[0], mate
    cards54(row, d[1])
    cards54(row + 54, d[2])
    if pos == 0:
        cards54(row + 108, d[3])
        cards54(row + 162, d[5])
        cards54(row + 216, d[6])
        one_hot(row + 270, <int>d[11], 17)
        one_hot(row + 287, <int>d[12], 17)
        memset(row + 304, 0, 15 * sizeof(cell))
        row[304 + <int>d[13]] = 1
        return 319
    mate = 2 if pos == 1 else 1
    cards54(row + 108, d[4])
    cards54(row + 162, d[4 + mate])
    cards54(row + 216, d[3])
    cards54(row + 270, d[7])
    cards54(row + 324, d[7 + mate])
    one_hot(row + 378, <int>d[10], 20)
    one_hot(row + 398, <int>d[10 + mate], 17)
    memset(row + 415, 0, 15 * sizeof(cell))
    row[415 + <int>d[13]] = 1
    return 430


cdef void z_row(const u64* d, cell* z) noexcept nogil:
    """The last 15 actions, empty ones first, 54 features each (810)."""
    cdef int i, n = <int>d[14]
    memset(z, 0, 54 * (SEQ - n) * sizeof(cell))
    for i in range(n):
        cards54(z + 54 * (SEQ - n + i), d[15 + i])


cdef void encode_one(const u64* d, const u64* actions, Py_ssize_t n, float* xb, float* zb,
                     int8_t* xna, int8_t* z) noexcept nogil:
    cdef float row[484]
    cdef float zr[810]
    cdef int b = base_row(d, row), width = b + 54, i
    cdef Py_ssize_t j
    z_row(d, zr)
    for i in range(b):
        xna[i] = <int8_t>row[i]
    for i in range(810):
        z[i] = <int8_t>zr[i]
    for j in range(n):
        memcpy(xb + j * width, row, b * sizeof(float))
        cards54(xb + j * width + b, actions[j])
        memcpy(zb + j * 810, zr, 810 * sizeof(float))


def legal_actions(u64 hand, u64 rival=0):
    """DouZero's legal actions of ``hand`` facing ``rival`` (0: a free lead)
    as a uint64 array of card words in DouZero's order (repeats kept, pass,
    the word 0, last when following)."""
    cdef u64 buf[2048]
    cdef Py_ssize_t n = dz_legal(hand, rival, buf, 2048)
    out = np.empty(n, np.uint64)
    cdef u64[::1] v = out
    if n > 2048:
        n = dz_legal(hand, rival, &v[0], n)
    else:
        memcpy(&v[0], buf, n * sizeof(u64))
    return out


def width(int position):
    """Columns of x_batch for a position: 373 (landlord, 0) or 484."""
    return 373 if position == 0 else 484


def encode(const u64[::1] decision, const u64[::1] actions, float[:, ::1] x_batch, float[:, :, ::1] z_batch,
           int8_t[::1] x_no_action, int8_t[:, ::1] z):
    """One decision's features into caller-owned buffers: x_batch
    (len(actions), 373|484) float32, z_batch (len(actions), 5, 162) float32,
    x_no_action (319|430,) int8, z (5, 162) int8.  ``decision`` is a row of
    DECISION_FIELDS.  ValueError when a buffer has the wrong shape."""
    cdef Py_ssize_t n = actions.shape[0]
    _check(decision, n, x_batch, z_batch, x_no_action, z)
    _check_cards(&actions[0] if n else NULL, n, "action")
    with nogil:
        encode_one(&decision[0], &actions[0] if n else NULL, n, &x_batch[0, 0] if n else NULL,
                   &z_batch[0, 0, 0] if n else NULL, &x_no_action[0], &z[0, 0])


cdef _check(const u64[::1] d, Py_ssize_t n, float[:, ::1] xb, float[:, :, ::1] zb, int8_t[::1] xna,
            int8_t[:, ::1] z):
    if d.shape[0] != ROW:
        raise InvalidArgumentError(f"a decision row has {ROW} words, not {d.shape[0]}")
    if d[0] > 2 or d[13] > 14 or d[14] > SEQ or d[10] > 20 or d[11] > 17 or d[12] > 17:
        raise InvalidArgumentError(f"bad decision row: position {d[0]}, bombs {d[13]}, nseq {d[14]}, "
                                   f"cards left {d[10]}, {d[11]}, {d[12]}")
    _check_cards(&d[1], 9, "decision row card word")
    _check_cards(&d[15], SEQ, "decision row card word")
    w = 373 if d[0] == 0 else 484
    if xb.shape[0] != n or xb.shape[1] != w or zb.shape[0] != n or zb.shape[1] != 5 or zb.shape[2] != 162:
        raise InvalidArgumentError(f"x_batch must be ({n}, {w}) and z_batch ({n}, 5, 162) for position {d[0]}")
    if xna.shape[0] != w - 54 or z.shape[0] != 5 or z.shape[1] != 162:
        raise InvalidArgumentError(f"x_no_action must be ({w - 54},) and z (5, 162)")


cdef int _check_cards(const u64* words, Py_ssize_t n, str what) except -1:
    """InvalidArgumentError naming the first of ``words[0:n]`` that is no
    set of one deck's cards (a rank counted past 4, a joker twice, stray bits):
    the encoders read a rank's column from its count."""
    cdef Py_ssize_t i
    for i in range(n):
        if not valid_hand(words[i], 0):
            raise InvalidArgumentError(f"{what} {i}: {words[i]:#x} is not a set of one deck's cards")
    return 0


cdef int batch_width(const u64[:, ::1] decisions, const u64[::1] actions, const int64_t[::1] offsets) except -1:
    """Check many decisions of one width, their card words and their
    offsets into ``actions``; returns the width of x_batch (373 or 484; 0
    when empty)."""
    cdef Py_ssize_t m = decisions.shape[0], i, n_actions = actions.shape[0]
    cdef int w
    if offsets.shape[0] != m + 1:
        raise InvalidArgumentError(f"offsets needs {m + 1} entries, not {offsets.shape[0]}")
    if m == 0:
        return 0
    if decisions.shape[1] != ROW:
        raise InvalidArgumentError(f"a decision row has {ROW} words, not {decisions.shape[1]}")
    w = 373 if decisions[0, 0] == 0 else 484
    for i in range(m):
        if (373 if decisions[i, 0] == 0 else 484) != w or decisions[i, 0] > 2 \
                or decisions[i, 13] > 14 or decisions[i, 14] > SEQ or decisions[i, 10] > 20 \
                or decisions[i, 11] > 17 or decisions[i, 12] > 17 or offsets[i] > offsets[i + 1]:
            raise InvalidArgumentError(f"decision {i}: bad row, mixed widths or offsets")
    if offsets[0] != 0 or n_actions < offsets[m]:
        raise InvalidArgumentError(f"offsets must run from 0 to at most {n_actions} actions")
    for i in range(m):
        _check_cards(&decisions[i, 1], 9, f"decision {i}: card word")
        _check_cards(&decisions[i, 15], SEQ, f"decision {i}: card word")
    _check_cards(&actions[0] if offsets[m] else NULL, offsets[m], "action")
    return w


cdef _check_rows(Py_ssize_t m, int w, int8_t[:, ::1] xna, int8_t[:, :, ::1] z):
    if xna.shape[0] < m or xna.shape[1] != w - 54 or z.shape[0] < m or z.shape[1] != 5 or z.shape[2] != 162:
        raise InvalidArgumentError(f"x_no_action must be ({m}, {w - 54}) and z ({m}, 5, 162) int8")


cdef _check_repeated(Py_ssize_t total, int w, float[:, ::1] xb, float[:, :, ::1] zb):
    if xb.shape[0] < total or xb.shape[1] != w or zb.shape[0] < total or zb.shape[1] != 5 or zb.shape[2] != 162:
        raise InvalidArgumentError(f"x_batch must be ({total}, {w}) and z_batch ({total}, 5, 162) float32")


def encode_batch(const u64[:, ::1] decisions, const u64[::1] actions, const int64_t[::1] offsets,
                 float[:, ::1] x_batch, float[:, :, ::1] z_batch, int8_t[:, ::1] x_no_action,
                 int8_t[:, :, ::1] z):
    """Many decisions of one width (all the landlord's, or all farmers')
    in one call without the GIL: decision i's actions are
    actions[offsets[i]:offsets[i+1]] and its rows of x_batch / z_batch the
    same range; x_no_action[i] and z[i] are its own.  ValueError for
    mismatched shapes or mixed widths."""
    cdef Py_ssize_t m = decisions.shape[0], i
    cdef int w = batch_width(decisions, actions, offsets)
    if w == 0:
        return
    _check_rows(m, w, x_no_action, z)
    _check_repeated(offsets[m], w, x_batch, z_batch)
    if offsets[m] == 0:
        return _encode_rows_only(decisions, x_no_action, z)
    with nogil:
        for i in range(m):
            encode_one(&decisions[i, 0], &actions[0] + offsets[i], offsets[i + 1] - offsets[i],
                       &x_batch[0, 0] + offsets[i] * w, &z_batch[0, 0, 0] + offsets[i] * 810,
                       &x_no_action[i, 0], &z[i, 0, 0])


cdef _encode_rows_only(const u64[:, ::1] decisions, int8_t[:, ::1] x_no_action, int8_t[:, :, ::1] z):
    """x_no_action and z of each decision (the rows without legal actions)."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(decisions.shape[0]):
            base_row(&decisions[i, 0], &x_no_action[i, 0])
            z_row(&decisions[i, 0], &z[i, 0, 0])


def encode_compact(const u64[:, ::1] decisions, const u64[::1] actions, const int64_t[::1] offsets,
                   int8_t[:, ::1] x_no_action, int8_t[:, :, ::1] z, int8_t[:, ::1] action_rows):
    """encode_batch without its repeats: x_no_action[i] and z[i] of each
    decision as encode_batch writes them, and one 54-column row of
    action_rows (total, 54) int8 per legal action (DouZero's
    _cards2array of the action), the only part of x_batch that differs
    between a decision's rows.  ``expand`` turns them into encode_batch's
    x_batch and z_batch, byte for byte."""
    cdef Py_ssize_t m = decisions.shape[0], i, j
    cdef int w = batch_width(decisions, actions, offsets)
    if w == 0:
        return
    _check_rows(m, w, x_no_action, z)
    if action_rows.shape[0] < offsets[m] or action_rows.shape[1] != 54:
        raise InvalidArgumentError(f"action_rows must be ({offsets[m]}, 54) int8")
    _encode_rows_only(decisions, x_no_action, z)
    with nogil:
        for j in range(offsets[m]):
            cards54(&action_rows[j, 0], actions[j])


def expand(const int8_t[:, ::1] x_no_action, const int8_t[:, :, ::1] z, const int8_t[:, ::1] action_rows,
           const int64_t[::1] offsets, float[:, ::1] x_batch, float[:, :, ::1] z_batch):
    """encode_compact's arrays as encode_batch's x_batch (total, 373|484)
    and z_batch (total, 5, 162) float32: row j of decision i is
    x_no_action[i] then action_rows[j], and z[i]."""
    cdef Py_ssize_t m = offsets.shape[0] - 1, i, j, k
    cdef int b = x_no_action.shape[1], w = b + 54
    cdef float row[430]
    cdef float zr[810]
    cdef float* x
    if m < 0 or (b != 319 and b != 430) or x_no_action.shape[0] < m or z.shape[0] < m or z.shape[1] != 5 \
            or z.shape[2] != 162:
        raise InvalidArgumentError("x_no_action must be (m, 319|430) and z (m, 5, 162) for m + 1 offsets")
    for i in range(m):
        if offsets[i] > offsets[i + 1]:
            raise InvalidArgumentError(f"offsets decrease at {i}")
    if m == 0:
        return
    if offsets[0] != 0 or action_rows.shape[0] < offsets[m] or action_rows.shape[1] != 54:
        raise InvalidArgumentError(f"offsets must start at 0 and action_rows be ({offsets[m]}, 54)")
    _check_repeated(offsets[m], w, x_batch, z_batch)
    with nogil:
        for i in range(m):
            for k in range(b):
                row[k] = x_no_action[i, k]
            for k in range(810):
                zr[k] = (&z[i, 0, 0])[k]
            for j in range(offsets[i], offsets[i + 1]):
                x = &x_batch[0, 0] + j * w
                memcpy(x, row, b * sizeof(float))
                for k in range(54):
                    x[b + k] = action_rows[j, k]
                memcpy(&z_batch[0, 0, 0] + j * 810, zr, 810 * sizeof(float))


def cards_rows(const u64[::1] words, int8_t[:, ::1] out):
    """The 54-dim card encoding (DouZero's _cards2array, RLCard's
    _cards2array: the same layout) of each card word into out (n, 54) int8."""
    cdef Py_ssize_t i, n = words.shape[0]
    if out.shape[0] < n or out.shape[1] != 54:
        raise InvalidArgumentError(f"out must be ({n}, 54) int8")
    with nogil:
        for i in range(n):
            cards54(&out[i, 0], words[i])


# ---------------------------------------------------------------- the environment (douzero.env.env.Env)

from ddzcore._errors import InvalidMoveError
from cpython.number cimport PyIndex_Check

cdef enum:
    SEQ_CAP = 256       # actions in a game: at most 54 plays and two passes after each
    LEGAL_STACK = 2048

#: DouZero's positions by index; play goes landlord (0), landlord_down (2), landlord_up (1).
POSITIONS = ("landlord", "landlord_up", "landlord_down")
cdef int NEXT_POS[3]
NEXT_POS[:] = [2, 0, 1]
cdef int POS_OF_TURN[3]
POS_OF_TURN[:] = [0, 2, 1]
# DouZero card code -> rank index (-1: not a code).
cdef int RANK_OF_CODE[31]
for _c in range(31):
    RANK_OF_CODE[_c] = -1
for _r in range(15):
    RANK_OF_CODE[DZ_CODE[_r]] = _r


cdef list cards_list(u64 w):
    """A card word as DouZero's sorted list of codes (a new list)."""
    cdef list out = []
    cdef int r, k
    for r in range(N_RANKS):
        for k in range(count_of(w, r)):
            out.append(DZ_CODE[r])
    return out


def to_cards(u64 w):
    """A card word as DouZero's sorted list of card codes (a new list)."""
    return cards_list(w)


cdef u64 action_word(object action) except? 0:
    """DouZero's action (an iterable of card codes) as a card word;
    InvalidMoveError for a code that is not one, or more than four of a rank."""
    cdef u64 w = 0
    cdef long c
    cdef int r
    for item in action:
        c = -1
        if PyIndex_Check(item):
            try:
                c = item
            except OverflowError:
                pass
        r = RANK_OF_CODE[c] if 0 <= c <= 30 else -1
        if r < 0:
            raise InvalidMoveError(f"{item!r} is not a DouZero card code (3..14, 17, 20, 30)")
        if count_of(w, r) == 4 or (r >= R_SMALL and count_of(w, r) == 1):
            raise InvalidMoveError(f"{list(action)} holds more {item} than a deck")
        w += unit(r)
    return w


cdef inline bint is_bomb(u64 w) noexcept nogil:
    cdef int r
    if w == unit(R_SMALL) + unit(R_BIG):
        return True
    for r in range(13):
        if w == 4 * unit(r):
            return True
    return False


cdef class InfoSet:
    """The acting player's information set at one decision, with the
    attributes of DouZero's ``InfoSet`` (``player_position``,
    ``player_hand_cards``, ``num_cards_left_dict``, ``three_landlord_cards``,
    ``card_play_action_seq``, ``other_hand_cards``, ``legal_actions``,
    ``last_move``, ``last_two_moves``, ``last_move_dict``, ``played_cards``,
    ``all_handcards``, ``last_pid``, ``bomb_num``).  The card lists are built
    when read, from card words taken at the decision (new lists each read)."""

    cdef readonly str player_position
    cdef readonly list legal_actions
    cdef readonly int bomb_num
    cdef readonly str last_pid
    cdef readonly object _row
    cdef readonly object _words
    cdef u64 hands[3]
    cdef u64 lastw[3]
    cdef u64 three
    cdef int pos
    cdef list seq
    cdef Py_ssize_t nseq

    @property
    def player_hand_cards(self):
        return cards_list(self.hands[self.pos])

    @property
    def other_hand_cards(self):
        cdef list out = []
        cdef int i
        for i in range(3):
            if i != self.pos:
                out += cards_list(self.hands[i])
        return out

    @property
    def num_cards_left_dict(self):
        return {POSITIONS[i]: card_total(self.hands[i]) for i in range(3)}

    @property
    def all_handcards(self):
        return {POSITIONS[i]: cards_list(self.hands[i]) for i in range(3)}

    @property
    def three_landlord_cards(self):
        return cards_list(self.three)

    @property
    def card_play_action_seq(self):
        return self.seq[:self.nseq]

    @property
    def last_move(self):
        cdef Py_ssize_t n = self.nseq
        if n == 0:
            return []
        return self.seq[n - 2] if not self.seq[n - 1] and n >= 2 else self.seq[n - 1]

    @property
    def last_two_moves(self):
        cdef Py_ssize_t n = self.nseq
        return [self.seq[n - 1], self.seq[n - 2]] if n >= 2 else [self.seq[0], []] if n else [[], []]

    @property
    def last_move_dict(self):
        return {POSITIONS[i]: cards_list(self.lastw[i]) for i in range(3)}

    @property
    def played_cards(self):
        """Each position's plays joined in the order played (DouZero's +=)."""
        cdef list out = [[], [], []]
        cdef Py_ssize_t i
        for i in range(self.nseq):
            out[POS_OF_TURN[i % 3]] += self.seq[i]
        return {POSITIONS[i]: out[i] for i in range(3)}


cdef class Game:
    """DouZero's game loop (``GameEnv``) and ``get_obs`` in C: the base of
    ``ddzcore.interop.douzero.Env``.  ``_start(h0, h1, h2, three)`` (card
    words of landlord, landlord_up, landlord_down and the bottom) starts a
    game; ``step(action)`` plays one."""

    cdef readonly object infoset
    cdef readonly bint _game_over
    cdef readonly object _game_winner
    cdef readonly int _game_bomb_num
    cdef public bint adp
    cdef u64 hands[3]
    cdef u64 played[3]
    cdef u64 lastw[3]
    cdef u64 three
    cdef int acting, last_pid
    cdef u64 seqw[SEQ_CAP]
    cdef Py_ssize_t nseq
    cdef list seq
    cdef object legal      # uint64 array of the acting player's legal words

    def __cinit__(self):
        self._game_over = True
        self.adp = True

    @property
    def _acting_player_position(self):
        return POSITIONS[self.acting]

    def _start(self, u64 h0, u64 h1, u64 h2, u64 three):
        """Start a game from checked card words; returns the first observation."""
        self.hands[0] = h0
        self.hands[1] = h1
        self.hands[2] = h2
        self.three = three
        memset(self.played, 0, sizeof(self.played))
        memset(self.lastw, 0, sizeof(self.lastw))
        self.acting = 0
        self.last_pid = 0
        self._game_bomb_num = 0
        self.nseq = 0
        self.seq = []
        self._game_over = False
        self._game_winner = None
        return self._decide()

    def step(self, action):
        """Play ``action`` (a list of DouZero card codes; ``[]`` passes) for
        the acting player: (obs, reward, done, {}) as DouZero's
        ``Env.step``, obs None and the reward +-2**bombs ("adp") or +-1
        ("wp") for the landlord's side once done.  ``InvalidMoveError`` if
        it is not one of the legal actions (DouZero asserts)."""
        if self._game_over:
            raise InvalidMoveError("the game is over; call reset()")
        cdef u64 w = action_word(action)
        cdef const u64[::1] legal = self.legal
        cdef Py_ssize_t i
        cdef int p = self.acting, r
        for i in range(legal.shape[0]):
            if legal[i] == w:
                break
        else:
            raise InvalidMoveError(f"{list(action)} is not a legal action of {POSITIONS[p]}")
        if w:
            self.last_pid = p
        if is_bomb(w):
            self._game_bomb_num += 1
        self.lastw[p] = w
        self.seq.append(cards_list(w))
        self.seqw[self.nseq] = w
        self.nseq += 1
        if w:
            self.hands[p] -= w
            self.played[p] += w
            if p == 0:
                for r in range(N_RANKS):
                    self.three -= unit(r) * min(count_of(self.three, r), count_of(w, r))
        if not self.hands[p]:
            self._game_over = True
            self._game_winner = "landlord" if p == 0 else "farmer"
            reward = (1.0 if p == 0 else -1.0) * (2.0 ** self._game_bomb_num if self.adp else 1.0)
            return None, reward, True, {}
        self.acting = NEXT_POS[p]
        return self._decide(), 0.0, False, {}

    cdef object _decide(self):
        """The acting player's legal actions, InfoSet and observation."""
        cdef int p = self.acting, i, mate
        cdef Py_ssize_t n, k = self.nseq if self.nseq < SEQ else SEQ
        cdef u64 rival = 0
        cdef u64 buf[LEGAL_STACK]
        cdef cnp.npy_intp dims[3]
        if self.nseq:
            rival = self.seqw[self.nseq - 1]
            if rival == 0 and self.nseq >= 2:
                rival = self.seqw[self.nseq - 2]
        n = dz_legal(self.hands[p], rival, buf, LEGAL_STACK)
        dims[0] = n
        words = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT64, 0)
        cdef u64* wp = <u64*>cnp.PyArray_DATA(words)
        if n > LEGAL_STACK:
            dz_legal(self.hands[p], rival, wp, n)
        else:
            memcpy(wp, buf, n * sizeof(u64))
        self.legal = words
        dims[0] = ROW
        row = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT64, 0)
        cdef u64* d = <u64*>cnp.PyArray_DATA(row)
        d[0] = p
        d[1] = self.hands[p]
        d[2] = self.hands[0] + self.hands[1] + self.hands[2] - self.hands[p]
        d[3] = rival
        for i in range(3):
            d[4 + i] = self.played[i]
            d[7 + i] = self.lastw[i]
            d[10 + i] = card_total(self.hands[i])
        d[13] = self._game_bomb_num
        d[14] = k
        memcpy(d + 15, self.seqw + self.nseq - k, k * sizeof(u64))
        memset(d + 15 + k, 0, (SEQ - k) * sizeof(u64))
        cdef list actions = [cards_list(wp[j]) for j in range(n)]
        cdef InfoSet info = InfoSet.__new__(InfoSet)
        info.player_position = POSITIONS[p]
        info.legal_actions = actions
        info.bomb_num = self._game_bomb_num
        info.last_pid = POSITIONS[self.last_pid]
        info._row = row
        info._words = words
        memcpy(info.hands, self.hands, sizeof(self.hands))
        memcpy(info.lastw, self.lastw, sizeof(self.lastw))
        info.three = self.three
        info.pos = p
        info.seq = self.seq
        info.nseq = self.nseq
        self.infoset = info
        return observation(info.player_position, d, wp, n, actions)


cdef dict observation(str position, const u64* d, const u64* actions, Py_ssize_t n, list legal):
    """DouZero's get_obs dict for decision row d and its n legal words, in new arrays."""
    cdef cnp.npy_intp dims[3]
    cdef int w = 373 if d[0] == 0 else 484
    dims[0] = n
    dims[1] = w
    xb = cnp.PyArray_EMPTY(2, dims, cnp.NPY_FLOAT32, 0)
    dims[1] = 5
    dims[2] = 162
    zb = cnp.PyArray_EMPTY(3, dims, cnp.NPY_FLOAT32, 0)
    dims[0] = w - 54
    xna = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT8, 0)
    z = cnp.PyArray_EMPTY(2, &dims[1], cnp.NPY_INT8, 0)
    encode_one(d, actions, n, <float*>cnp.PyArray_DATA(xb), <float*>cnp.PyArray_DATA(zb),
               <int8_t*>cnp.PyArray_DATA(xna), <int8_t*>cnp.PyArray_DATA(z))
    return {"position": position, "x_batch": xb, "z_batch": zb, "legal_actions": legal,
            "x_no_action": xna, "z": z}


# ---------------------------------------------------------------- RLCard's state dicts (ddzcore.interop.rlcard)

cdef const char* RL_RANKS = b"3456789TJQKA2BR"


def rank_string(u64 w):
    """A card word as RLCard's sorted rank string: ``0x21 -> '334'``."""
    cdef char buf[64]
    cdef int r, k, n = 0
    for r in range(N_RANKS):
        for k in range(count_of(w, r)):
            if n < 64:
                buf[n] = RL_RANKS[r]
                n += 1
    return buf[:n].decode("ascii")


cdef inline void rl_one_hot(int8_t* o, int n, int size) noexcept nogil:
    o[n - 1 if n else size - 1] = 1        # RLCard's one_hot[n - 1]: 0 cards sets the last bit


def rl_state(object env, int me, list actions, dict action_ids, const int8_t[:, ::1] features):
    """RLCard's state dict (``env.get_state``) of player ``me`` from a
    ``DoudizhuEnv``'s fields: ``obs`` int8 (790,) for the landlord (seat 0)
    or (901,) for a farmer, ``legal_actions`` ({action id: 54 int8
    features} in the order of ``actions``, action strings), ``raw_obs``,
    ``raw_legal_actions`` and ``action_record``.

    ``obs`` is RLCard's 54-dim encodings of the hand, the others' cards,
    the move to beat and the last 9 actions (oldest first, empty slots
    first), then for the landlord the cards played by seats 2 and 1 and
    the one-hots of their cards left (17 each); for a farmer the
    landlord's and the teammate's played cards, their *first* actions of
    the game (RLCard's quirk), and the one-hots of their cards left (20,
    17)."""
    cdef list players = env._players, tw = env._trace_words, played = env._played_words, first = env._first
    cdef list left = []
    cdef u64 hw[3]
    cdef u64 words[17]
    cdef Py_ssize_t nt = len(tw), i, k
    cdef int mate = 3 - me, m
    cdef cnp.npy_intp size
    for i in range(3):
        q = players[i]
        hw[i] = q.word
        left.append(len(q.hand))
    words[0] = hw[me]
    words[1] = hw[(me + 1) % 3] + hw[(me + 2) % 3]
    words[2] = 0
    if nt:
        words[2] = tw[nt - 1]
        if words[2] == 0 and nt > 1:
            words[2] = tw[nt - 2]
    k = nt if nt < 9 else 9
    for i in range(9):
        words[3 + i] = tw[nt - 9 + i] if i >= 9 - k else 0
    if me == 0:
        words[12] = played[2]
        words[13] = played[1]
        m = 14
    else:
        words[12] = played[0]
        words[13] = played[mate]
        words[14] = 0 if first[0] is None else tw[first[0]]
        words[15] = 0 if first[mate] is None else tw[first[mate]]
        m = 16
    size = 54 * m + (34 if me == 0 else 37)
    obs = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
    cdef int8_t* o = <int8_t*>cnp.PyArray_DATA(obs)
    for i in range(m):
        cards54(o + 54 * i, words[i])
    o += 54 * m
    if me == 0:
        rl_one_hot(o, left[2], 17)
        rl_one_hot(o + 17, left[1], 17)
    else:
        rl_one_hot(o, left[0], 20)
        rl_one_hot(o + 20, left[mate], 17)
    raw = {"seen_cards": env._seen, "landlord": 0, "trace": list(env._trace), "played_cards": env._played_text,
           "self": me, "current_hand": rank_string(hw[me]), "others_hand": rank_string(words[1]),
           "num_cards_left": left, "actions": actions}
    out = OrderedDict()
    out["obs"] = obs
    out["legal_actions"] = rl_legal(actions, action_ids, features)
    out["raw_obs"] = raw
    out["raw_legal_actions"] = list(actions)
    out["action_record"] = env.action_recorder
    return out


def rl_take(list hand, u64 w):
    """A player's hand (RLCard's sorted list of (rank, suited text)) less
    the cards of w, the first of each rank going: (kept, removed) lists."""
    cdef list kept = [], removed = []
    cdef int r
    for card in hand:
        r = card[0]
        if count_of(w, r):
            w -= unit(r)
            removed.append(card)
        else:
            kept.append(card)
    return kept, removed


def rl_legal(list actions, dict action_ids, const int8_t[:, ::1] features):
    """RLCard's ``legal_actions``: {action id: a new int8 (54,) array of its
    features}, in the order of ``actions`` (action strings)."""
    cdef dict out = {}
    cdef cnp.npy_intp n = 54
    cdef Py_ssize_t i
    for a in actions:
        i = action_ids[a]
        arr = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT8, 0)
        memcpy(cnp.PyArray_DATA(arr), &features[i, 0], 54)
        out[i] = arr
    return out


def rl_gone(set lead, u64 hand, dict action_words):
    """The action strings of ``lead`` whose cards ``hand`` no longer holds,
    in the iteration order of ``lead.copy()`` (as RLCard lists them: the
    order ``step_back`` puts them back in)."""
    cdef list out = []
    for s in lead.copy():
        if not contains(hand, <u64>action_words[s]):
            out.append(s)
    return out


cdef struct Keyed:
    int64_t key
    Py_ssize_t id


cdef int by_key(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const Keyed*>a).key, y = (<const Keyed*>b).key
    return (x > y) - (x < y)


def rl_follow(u64 hand, u64 target, u64 target_info, int flags, dict word_ids, const int64_t[::1] type_rank,
              list id2action, Py_ssize_t first_bomb, Py_ssize_t rocket):
    """RLCard's ``get_gt_cards`` as action strings: "pass", then the
    kernel's answers to ``target`` (card word and kernel reading) sorted by
    ``type_rank`` (RLCard's type-table order, by action id): the target's
    type, the rocket, then the bombs; bombs then the rocket when the target
    is a bomb (ids first_bomb..rocket - 1)."""
    cdef Py_ssize_t cap = 256, n, i, k = 0, tid = word_ids[target]
    cdef MoveRec* recs = <MoveRec*>malloc(cap * sizeof(MoveRec))
    cdef Keyed* keyed = NULL
    cdef list out = ["pass"]
    try:
        n = generate(hand, target, target_info, flags, recs, cap)
        if n > cap:
            free(recs)
            cap = n
            recs = <MoveRec*>malloc(cap * sizeof(MoveRec))
            n = generate(hand, target, target_info, flags, recs, cap)
        keyed = <Keyed*>malloc((n + 1) * sizeof(Keyed))
        for i in range(n):
            if recs[i].cards:
                keyed[k].id = word_ids[recs[i].cards]
                keyed[k].key = type_rank[keyed[k].id]
                k += 1
        qsort(keyed, k, sizeof(Keyed), by_key)
        if not first_bomb <= tid < rocket:
            for i in range(k):
                if keyed[i].id < first_bomb:
                    out.append(id2action[keyed[i].id])
            for i in range(k):
                if keyed[i].id == rocket:
                    out.append(id2action[keyed[i].id])
        for i in range(k):
            if first_bomb <= keyed[i].id < rocket:
                out.append(id2action[keyed[i].id])
        if first_bomb <= tid < rocket:
            for i in range(k):
                if keyed[i].id == rocket:
                    out.append(id2action[keyed[i].id])
    finally:
        free(recs)
        free(keyed)
    return out


# ---------------------------------------------------------------- for other Cython modules (_douzero.pxd)

cdef void encode_rows(const u64* d, const u64* actions, Py_ssize_t n, Py_ssize_t stride,
                      float* x, float* z) noexcept nogil:
    """Decision d's features without the repeats: x_batch's rows (n rows of
    `stride` >= 373|484 floats; the columns past the width are left alone)
    and z once (810 floats), the same values ``encode`` writes."""
    cdef float row[484]
    cdef int b = base_row(d, row)
    cdef Py_ssize_t j
    z_row(d, z)
    for j in range(n):
        memcpy(x + j * stride, row, b * sizeof(float))
        cards54(x + j * stride + b, actions[j])
