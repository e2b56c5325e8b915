# cython: language_level=3
"""Bit layout of ddzcore's kernel and the inline helpers every module shares.

Card word (``u64``): a multiset of ranks, 4 bits of count per rank.

    bits   | 0-3 | 4-7 | ... | 44-47 | 48-51 | 52-55 | 56-59 | 60-63
    rank   |  3  |  4  | ... |   A   |   2   |   B   |   R   | unused
    index  |  0  |  1  | ... |  11   |  12   |  13   |  14   |

B is the small joker, R the big joker.  A count is 0..4 with one deck and 0..8
with two decks (jokers 0..2), so one layout serves both; union and removal of
card sets are ``+`` and ``-``.

Move info word (``u64``): the reading of a move's cards.

    bits   | 0-4   | 5-8  | 9-13   | 14-17 | 18-33                 | 34-37      |
    field  | combo | main | length | nwild | stand-in ranks (4x4b) | wild + 1   |

``combo`` is a ``Combo`` value, ``main`` the rank index of the main part
(chain top, trio or quad rank; R for the rocket), ``length`` the number of
chain units (1 for non-chains, 0 for pass).  In laizi mode ``nwild`` counts
the move's wild cards that stand for another rank, and the stand-in nibbles
give those ranks in ascending order (wild cards at face value, as kickers or
alone, are not listed), with the wild rank + 1 in bits 34-37; all zero when
no wild card substitutes, so such a move has the same record as without
laizi.  Example: wild 7, cards 3447 read as the trio 444 + 3 has nwild 1,
stand-ins 0x1 (a 4) and 0x5 in bits 34-37.
"""

from libc.stdint cimport uint64_t, int64_t

ctypedef uint64_t u64

# Combination types; the values are the Python ``Combo`` enum's.
cdef enum:
    C_PASS = 0
    C_SINGLE = 1
    C_PAIR = 2
    C_TRIO = 3
    C_TRIO_SINGLE = 4
    C_TRIO_PAIR = 5
    C_STRAIGHT = 6
    C_PAIR_CHAIN = 7
    C_PLANE = 8
    C_PLANE_SINGLE = 9
    C_PLANE_PAIR = 10
    C_FOUR_TWO_SINGLE = 11
    C_FOUR_TWO_PAIR = 12
    C_BOMB = 13
    C_ROCKET = 14
    C_SOFT_BOMB = 15
    C_WILD_BOMB = 16
    C_JOKER_BOMB = 17
    C_SHUTTLE = 18      # 航天飞机 (Botzone): >= 2 consecutive quads, bare or each with 2 singles / 2 pairs; not a bomb
    N_COMBOS = 19

cdef enum:
    N_RANKS = 15
    R_ACE = 11          # highest rank a chain may reach
    R_TWO = 12
    R_SMALL = 13        # small joker, B
    R_BIG = 14          # big joker, R

# Rule flags (the Python ``Rules.flags`` property builds this word).
cdef enum:
    F_FOUR_TWO = 1            # four-with-two exists
    F_KICKER_REPEAT = 2       # single kickers may repeat a rank (5555+3+3)
    F_JOKERS_BOTH = 4         # both jokers may be kickers together
    F_WING_TRIO_ADJ = 8       # single wings may be a trio adjacent to the chain
    F_KICKER_BOMB = 16        # kickers may hold all four cards of a rank
    F_TWO_DECKS = 32          # section 8: two decks, big bombs, joker bombs
    F_SHUTTLE = 1 << 18       # consecutive quads (航天飞机) are a combination (Botzone); bits 19-21 reserved
    # bits 8-11: the laizi wild rank + 1 (0: no wild cards), docs/rules.md §7
    # bits 12-13: two decks: two jokers beat card bombs of up to 4 + this many cards (docs/rules.md §8)
    # bits 6, 7, 22-30: banned combinations (禁手), one bit per combo C_TRIO..C_BOMB:
    #   combo 3 -> bit 6, combo 4 -> bit 7, combo c in 5..13 -> bit c + 17 (see banned_mask)
    F_BANNED_LO = 0xC0            # bits 6-7: C_TRIO, C_TRIO_SINGLE
    F_BANNED_HI = 0x7FC00000      # bits 22-30: C_TRIO_PAIR .. C_BOMB
    F_WING_BOMB = 1 << 14     # a plane's single wings may hold all four cards of a rank (DouZero)
    F_DZ_READ = 1 << 15       # the move to beat is read from its cards alone, as DouZero's
                              # move_detector reads it, and compared as DouZero compares

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ddz_ctz(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    #else
    static inline int ddz_ctz(unsigned int x) { return __builtin_ctz(x); }
    #endif
    """
    # Index of the lowest set bit of a non-zero x.  ddz_ctz(0b1000) == 3.
    int ddz_ctz(unsigned int x) noexcept nogil

# A move record as the generator writes it into the caller's buffer.
cdef struct MoveRec:
    u64 cards
    u64 info

cdef inline int count_of(u64 w, int r) noexcept nogil:
    """Cards of rank index r in w.  count_of(0x21, 1) == 2."""
    return <int>((w >> (4 * r)) & 0xF)


cdef inline u64 unit(int r) noexcept nogil:
    """One card of rank index r.  unit(2) == 0x100 (one 5)."""
    return (<u64>1) << (4 * r)


cdef inline u64 run_word(int lo, int length, int k) noexcept nogil:
    """k cards of each rank lo..lo+length-1.  run_word(0, 2, 3) == 0x33 (333444)."""
    # 0x111111111111111 has a 1 in each of the 15 rank nibbles.
    return <u64>k * ((0x111111111111111ULL >> (4 * (15 - length))) << (4 * lo))


cdef inline int card_total(u64 w) noexcept nogil:
    """Number of cards in w (sum of all nibbles).  card_total(0x32) == 5."""
    w = (w & 0x0F0F0F0F0F0F0F0FULL) + ((w >> 4) & 0x0F0F0F0F0F0F0F0FULL)
    return <int>((w * 0x0101010101010101ULL) >> 56)


cdef inline bint contains(u64 hand, u64 part) noexcept nogil:
    """True when every rank count of part is <= hand's.  contains(0x12, 0x11) is True."""
    # Even and odd nibbles in separate byte lanes: 0x80 + h - p stays >= 0x78
    # (counts are <= 8), so no lane borrows and bit 7 says h >= p.
    cdef u64 lo = 0x0F0F0F0F0F0F0F0FULL
    cdef u64 hi = 0x8080808080808080ULL
    return ((((hand & lo) | hi) - (part & lo)) & hi) == hi and \
        (((((hand >> 4) & lo) | hi) - ((part >> 4) & lo)) & hi) == hi


cdef inline u64 make_info(int combo, int main, int length) noexcept nogil:
    """Pack a reading.  make_info(C_PAIR, 0, 1) is a pair of 3s."""
    return <u64>combo | (<u64>main << 5) | (<u64>length << 9)


cdef inline unsigned int banned_mask(int flags) noexcept nogil:
    """The banned combinations of `flags` as a mask over Combo values (bit c
    set: combo c is never a move).  banned_mask(0x40) == 1 << C_TRIO."""
    return (<unsigned int>(flags & F_BANNED_LO) >> 3) | (<unsigned int>(flags & F_BANNED_HI) >> 17)


cdef inline int info_combo(u64 info) noexcept nogil:
    return <int>(info & 0x1F)


cdef inline bint is_bomb_combo(int combo) noexcept nogil:
    """Bombs, the rocket and the laizi and two-deck bomb kinds (not the shuttle, C_SHUTTLE)."""
    return C_BOMB <= combo <= C_JOKER_BOMB


cdef inline int info_main(u64 info) noexcept nogil:
    return <int>((info >> 5) & 0xF)


cdef inline int info_length(u64 info) noexcept nogil:
    return <int>((info >> 9) & 0x1F)
