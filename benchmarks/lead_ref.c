/* A tight, portable C enumeration of every free lead of a hand: the yardstick
 * for ddzcore's kernel (benchmarks/peers.py, tests/test_lead_ref.py).
 *
 * Written from docs/rules.md §2 alone, for the standard rules (one deck,
 * four-with-two, single kickers may share a rank, both jokers may be single
 * kickers, single wings may be a trio next to the chain, no kicker holds all
 * four cards of a rank, pair kickers of different ranks, no joker pair as a
 * kicker pair).  Every reading is its own move, as in the kernel.
 *
 * Formats (the kernel's, bits.pxd): a card word holds 4 bits of count per
 * rank, rank index 0..14 = 3456789TJQKA2BR; a move is two words, the cards
 * and the reading  combo | main << 5 | length << 9  (combo numbers as
 * ddzcore.Combo).  Plain C99, no intrinsics: gcc/clang -O2.
 */
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef struct { u64 cards, info; } rec;

enum { SINGLE = 1, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR, STRAIGHT, PAIR_CHAIN, PLANE,
       PLANE_SINGLE, PLANE_PAIR, FOUR_TWO_SINGLE, FOUR_TWO_PAIR, BOMB, ROCKET };
enum { ACE = 11, TWO = 12, SMALL = 13, BIG = 14 };

/* Room every position must find in the buffer before it is written (more
 * than any hand of at most 20 cards has). */
#define REF_ROOM 8192

#define INFO(c, m, l) ((u64)(c) | ((u64)(m) << 5) | ((u64)(l) << 9))
#define ONE(r) ((u64)1 << (4 * (r)))
#define PUT(w, i) (p->cards = (w), p->info = (i), p++)

/* Multisets of `need` single kickers over the candidates i..n-1 (a unit
 * card word and how many of it may be taken each), added to `acc`. */
static rec *single_wings(rec *p, u64 acc, u64 info, const u64 *unit, const int *most,
                         int i, int n, int need) {
    for (; i < n; i++) {
        u64 w = acc;
        for (int c = 1; c <= most[i] && c <= need; c++) {
            w += unit[i];
            if (c == need) PUT(w, info);
            else p = single_wings(p, w, info, unit, most, i + 1, n, need - c);
        }
    }
    return p;
}

/* Sets of `need` pair kickers of different ranks over candidates i..n-1. */
static rec *pair_wings(rec *p, u64 acc, u64 info, const u64 *pair, int i, int n, int need) {
    for (; i <= n - need; i++) {
        if (need == 1) PUT(acc + pair[i], info);
        else p = pair_wings(p, acc + pair[i], info, pair, i + 1, n, need - 1);
    }
    return p;
}

/* Every lead move of `hand` into out (room for REF_ROOM); returns how many. */
size_t ref_leads(u64 hand, rec *out) {
    rec *p = out;
    int cnt[15], total = 0;
    for (int r = 0; r < 15; r++) {
        cnt[r] = (int)((hand >> (4 * r)) & 0xF);
        total += cnt[r];
    }
    /* Sets: single, pair, trio, bomb; the rocket. */
    for (int r = 0; r < 15; r++) {
        int c = cnt[r];
        if (c >= 1) PUT(ONE(r), INFO(SINGLE, r, 1));
        if (r > TWO) continue;
        if (c >= 2) PUT(2 * ONE(r), INFO(PAIR, r, 1));
        if (c >= 3) PUT(3 * ONE(r), INFO(TRIO, r, 1));
        if (c == 4) PUT(4 * ONE(r), INFO(BOMB, r, 1));
    }
    if (cnt[SMALL] && cnt[BIG]) PUT(ONE(SMALL) + ONE(BIG), INFO(ROCKET, BIG, 1));

    /* Trio with a single or a pair; four with two singles or two pairs. */
    for (int t = 0; t <= TWO; t++) {
        if (cnt[t] < 3) continue;
        u64 trio = 3 * ONE(t);
        for (int r = 0; r < 15; r++)
            if (r != t && cnt[r]) PUT(trio + ONE(r), INFO(TRIO_SINGLE, t, 1));
        for (int r = 0; r <= TWO; r++)
            if (r != t && cnt[r] >= 2) PUT(trio + 2 * ONE(r), INFO(TRIO_PAIR, t, 1));
        if (cnt[t] < 4) continue;
        u64 quad = 4 * ONE(t), info = INFO(FOUR_TWO_SINGLE, t, 1);
        for (int a = 0; a < 15; a++) {
            if (a == t || !cnt[a]) continue;
            if (cnt[a] >= 2) PUT(quad + 2 * ONE(a), info);
            for (int b = a + 1; b < 15; b++)
                if (b != t && cnt[b]) PUT(quad + ONE(a) + ONE(b), info);
        }
        info = INFO(FOUR_TWO_PAIR, t, 1);
        for (int a = 0; a < TWO; a++) {
            if (a == t || cnt[a] < 2) continue;
            for (int b = a + 1; b <= TWO; b++)
                if (b != t && cnt[b] >= 2) PUT(quad + 2 * ONE(a) + 2 * ONE(b), info);
        }
    }

    /* Chains within 3..A: straights (5+), pair chains (3+), planes (2+) and
     * planes with n single or n pair wings. */
    static const int min_len[4] = {0, 5, 3, 2};
    static const int chain_combo[4] = {0, STRAIGHT, PAIR_CHAIN, PLANE};
    for (int k = 1; k <= 3; k++) {
        for (int s = 0; s <= ACE - min_len[k] + 1; s++) {
            u64 w = 0;
            for (int e = s; e <= ACE && cnt[e] >= k; e++) {
                int len = e - s + 1;
                w += (u64)k * ONE(e);
                if (len < min_len[k]) continue;
                PUT(w, INFO(chain_combo[k], e, len));
                if (k < 3) continue;
                if (4 * len <= total) {      /* single wings: any rank outside the chain, up to 3 of it */
                    u64 unit[15];
                    int most[15], n = 0;
                    for (int r = 0; r < 15; r++)
                        if (cnt[r] && (r < s || r > e)) {
                            unit[n] = ONE(r);
                            most[n++] = cnt[r] < 3 ? cnt[r] : 3;
                        }
                    p = single_wings(p, w, INFO(PLANE_SINGLE, e, len), unit, most, 0, n, len);
                }
                if (5 * len <= total) {      /* pair wings: ranks 3..2 outside the chain, one pair each */
                    u64 pair[13];
                    int n = 0;
                    for (int r = 0; r <= TWO; r++)
                        if (cnt[r] >= 2 && (r < s || r > e)) pair[n++] = 2 * ONE(r);
                    p = pair_wings(p, w, INFO(PLANE_PAIR, e, len), pair, 0, n, len);
                }
            }
        }
    }
    return (size_t)(p - out);
}

/* The leads of hands[0..n-1] one after another into out[0..cap-1];
 * offsets[i + 1] is the end of hand i's moves.  Returns the number of moves,
 * or -1 - i when hand i does not find REF_ROOM records of room (grow and
 * call again) or has more than 20 cards. */
int64_t ref_leads_batch(const u64 *hands, int64_t n, rec *out, int64_t cap, int64_t *offsets) {
    int64_t total = 0;
    offsets[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        u64 h = hands[i];
        u64 pairs = (h & 0x0F0F0F0F0F0F0F0FULL) + ((h >> 4) & 0x0F0F0F0F0F0F0F0FULL);
        if (cap - total < REF_ROOM || ((pairs * 0x0101010101010101ULL) >> 56) > 20) return -1 - i;
        total += (int64_t)ref_leads(h, out + total);
        offsets[i + 1] = total;
    }
    return total;
}
