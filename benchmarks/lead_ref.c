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
 * ddzcore.Combo).  Plain C99 (gcc/clang's count-trailing-zeros builtin where
 * there is one), -O2.
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
#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctz(x)
#else
static int CTZ(unsigned x) { int i = 0; while (!(x & 1)) x >>= 1, i++; return i; }
#endif
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
    int rk[15], n1 = 0;         /* ranks held, low to high, and their one-card words */
    u64 u1[15];
    int rk2[13], n2 = 0;        /* ranks 3..2 held at least twice, and their pair words */
    u64 u2[13];
    unsigned held[5] = {0, 0, 0, 0, 0};  /* held[c]: mask of the ranks 3..A held exactly c times */
    /* Sets: single, pair, trio, bomb; the rocket. */
    for (int r = 0; r < 15; r++) {
        int c = (int)((hand >> (4 * r)) & 0xF);
        u64 one = ONE(r);
        cnt[r] = c;
        total += c;
        if (!c) continue;
        if (r <= ACE) held[c] |= 1u << r;
        rk[n1] = r, u1[n1++] = one;
        PUT(one, INFO(SINGLE, r, 1));
        if (c < 2 || r > TWO) continue;
        rk2[n2] = r, u2[n2++] = 2 * one;
        PUT(2 * one, INFO(PAIR, r, 1));
        if (c >= 3) PUT(3 * one, INFO(TRIO, r, 1));
        if (c == 4) PUT(4 * one, INFO(BOMB, r, 1));
    }
    if (cnt[SMALL] && cnt[BIG]) PUT(ONE(SMALL) + ONE(BIG), INFO(ROCKET, BIG, 1));

    /* Trio with a single or a pair; four with two singles or two pairs. */
    for (int j = 0; j < n2; j++) {
        int t = rk2[j];
        if (cnt[t] < 3) continue;
        u64 trio = 3 * ONE(t), info = INFO(TRIO_SINGLE, t, 1);
        for (int i = 0; i < n1; i++)
            if (rk[i] != t) PUT(trio + u1[i], info);
        info = INFO(TRIO_PAIR, t, 1);
        for (int i = 0; i < n2; i++)
            if (i != j) PUT(trio + u2[i], info);
        if (cnt[t] < 4) continue;
        u64 quad = 4 * ONE(t);
        info = INFO(FOUR_TWO_SINGLE, t, 1);
        for (int a = 0; a < n1; a++) {
            if (rk[a] == t) continue;
            u64 wa = quad + u1[a];
            if (cnt[rk[a]] >= 2) PUT(wa + u1[a], info);
            for (int b = a + 1; b < n1; b++)
                if (rk[b] != t) PUT(wa + u1[b], info);
        }
        info = INFO(FOUR_TWO_PAIR, t, 1);
        for (int a = 0; a < n2; a++) {
            if (a == j) continue;
            for (int b = a + 1; b < n2; b++)
                if (b != j) PUT(quad + u2[a] + u2[b], info);
        }
    }

    /* Chains within 3..A: straights (5+), pair chains (3+), planes (2+) and
     * planes with n single or n pair wings.  at_least[k]: mask of the ranks
     * held k times or more; a chain starts at each bit of `starts`. */
    static const int min_len[4] = {0, 5, 3, 2};
    static const int chain_combo[4] = {0, STRAIGHT, PAIR_CHAIN, PLANE};
    static const u64 shortest[4] = {0, 0x11111, 0x222, 0x33};  /* k of each of min_len[k] ranks from 3 */
    unsigned at_least[4];
    at_least[3] = held[3] | held[4];
    at_least[2] = at_least[3] | held[2];
    at_least[1] = at_least[2] | held[1];
    for (int k = 1; k <= 3; k++) {
        unsigned m = at_least[k], starts = m;
        for (int i = 1; i < min_len[k]; i++) starts &= m >> i;
        while (starts) {
            int s = CTZ(starts), e = s + min_len[k] - 1;
            u64 w = shortest[k] << (4 * s);
            starts &= starts - 1;
            for (;;) {
                int len = e - s + 1;
                PUT(w, INFO(chain_combo[k], e, len));
                if (k == 3 && 4 * len <= total) {  /* single wings: any rank outside the chain, up to 3 of it */
                    u64 unit[15];
                    int most[15], n = 0;
                    for (int i = 0; i < n1; i++)
                        if (rk[i] < s || rk[i] > e) {
                            unit[n] = u1[i];
                            most[n++] = cnt[rk[i]] < 3 ? cnt[rk[i]] : 3;
                        }
                    p = single_wings(p, w, INFO(PLANE_SINGLE, e, len), unit, most, 0, n, len);
                }
                if (k == 3 && 5 * len <= total) {  /* pair wings: ranks 3..2 outside the chain, one pair each */
                    u64 pair[13];
                    int n = 0;
                    for (int i = 0; i < n2; i++)
                        if (rk2[i] < s || rk2[i] > e) pair[n++] = u2[i];
                    p = pair_wings(p, w, INFO(PLANE_PAIR, e, len), pair, 0, n, len);
                }
                if (!((m >> ++e) & 1)) break;
                w += (u64)k << (4 * e);
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
