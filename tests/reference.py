"""Slow, independent reference move generator for ddzcore (tests only).

Written straight from the rule book, docs/rules.md (§1, §2, §7 and §8), and
the action-space totals of the README's "Rules presets" table.  It never looks at
the package's own generator, so that differential tests between the two are
meaningful.  Pure Python, standard library only; never imported by the
package.

Approach
--------
* A set of cards is a *count vector*: a tuple of 15 ints, one per rank in
  ``3456789TJQKA2BR`` order (index 0 = "3", 11 = "A", 12 = "2",
  13 = small joker "B", 14 = big joker "R").
* ``_classify_counts`` decides every reading of one count vector by asking
  one small function per combination type (docs/rules.md §2, plus section 8
  for two decks).  Results are memoised per rule set.
* ``ref_legal`` enumerates every sub-multiset of the hand (one rank at a time)
  and classifies each one.  The only pruning is by *shape*: the multiset of
  per-rank counts of a sub-multiset (e.g. {3, 3, 1, 1}) must be part of the
  shape of some combination (e.g. a plane with wings), and its card count
  must be one a following move may have.  Shapes are derived from the
  combination table alone, deliberately over-approximated (a shape filter
  can only drop sets that no combination could be).  The tests check the
  pruned enumeration against an unpruned one.
* Laizi (section 7): every assignment of the wild cards to ranks 3..2 is
  tried by brute force (again skipping only assignments whose shape fits no
  combination) and the resulting cards classified; readings whose kickers
  would need a substituted wild card are dropped.
* ``ref_action_space`` counts distinct moves structurally (main part times
  kicker choices), independently of the sub-multiset enumeration.

A move is ``(cards, combo, main, length)``; pass is ``("", "pass", "", 0)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

# ---------------------------------------------------------------------------
# Cards (docs/rules.md §1)
# ---------------------------------------------------------------------------

RANKS = "3456789TJQKA2BR"
NRANKS = 15
IDX = {ch: i for i, ch in enumerate(RANKS)}
SMALL, BIG = 13, 14  # indices of "B" and "R" ("2" is 12)
ACE = 11  # chains live in 3..A = indices 0..11 (section 2: never 2 or jokers)
JOKERS = (SMALL, BIG)
PASS = ("", "pass", "", 0)

KICKER_COMBOS = {
    "trio_single", "trio_pair", "plane_single", "plane_pair",
    "four_two_single", "four_two_pair", "shuttle",
}
BOMB_COMBOS = {"bomb", "rocket", "soft_bomb", "wild_bomb", "joker_bomb"}


@dataclass(frozen=True)
class RefRules:
    """House-rule switches; defaults are docs/rules.md's."""

    four_two: bool = True            # 四带二 / 四带两对 exist (section 2)
    kicker_repeat: bool = True       # single kickers may repeat a rank
    jokers_both_kickers: bool = True  # both jokers may be kickers (as singles)
    wing_trio_adjacent: bool = True  # single wings may hold a chain-extending trio
    kicker_bomb: bool = False        # kickers may hold all four cards of a rank
    decks: int = 1                   # 2 = five-player rules (section 8)
    wild: str | None = None          # laizi wild rank (section 7), one deck only
    shuttle: bool = False            # Botzone: consecutive quads (航天飞机) are a combination

    def __post_init__(self):
        if self.decks not in (1, 2):
            raise ValueError(f"decks must be 1 or 2, not {self.decks!r}")
        if self.wild is not None:
            if self.decks != 1:
                raise ValueError("laizi (wild) needs decks=1")
            w = str(self.wild).upper()
            if w == "10":
                w = "T"
            if w not in RANKS[:13]:
                raise ValueError(f"wild rank must be one of 3..2, not {self.wild!r}")
            object.__setattr__(self, "wild", w)

    @classmethod
    def preset(cls, name: str, **overrides) -> "RefRules":
        """"standard" (docs/rules.md), "rlcard" or "openspiel" (DESIGN.md)."""
        presets = {
            "standard": {},
            "rlcard": {"jokers_both_kickers": False, "wing_trio_adjacent": False},
            "openspiel": {"four_two": False, "jokers_both_kickers": False},
            # Botzone FightTheLandlord2: kickers of distinct ranks, shuttles.
            "botzone": {"kicker_repeat": False, "shuttle": True},
        }
        if name not in presets:
            raise ValueError(f"unknown preset {name!r}")
        return cls(**{**presets[name], **overrides})


def parse_cards(cards: str, rules: RefRules = RefRules()) -> tuple:
    """Card string -> count vector.  Accepts "10" for T, any case, any order."""
    s = cards.upper().replace("10", "T")
    c = [0] * NRANKS
    for ch in s:
        if ch not in IDX:
            raise ValueError(f"bad card character {ch!r} in {cards!r}")
        c[IDX[ch]] += 1
    for i in range(NRANKS):
        cap = rules.decks if i in JOKERS else 4 * rules.decks
        if c[i] > cap:
            raise ValueError(f"too many {RANKS[i]!r} in {cards!r}")
    return tuple(c)


def cards_str(c) -> str:
    """Count vector -> canonical card string."""
    return "".join(RANKS[i] * k for i, k in enumerate(c) if k)


def canonical(cards: str) -> str:
    return "".join(sorted(cards.upper().replace("10", "T"), key=IDX.__getitem__))


# ---------------------------------------------------------------------------
# Kicker rules (docs/rules.md §2 "Kickers", section 8 for two decks)
# ---------------------------------------------------------------------------

def _kicker_jokers_ok(kick, rules) -> bool:
    # Jokers used as kickers count as single cards; with jokers_both_kickers
    # False at most one joker may be among the kickers.
    return rules.jokers_both_kickers or kick[SMALL] + kick[BIG] <= 1


def _kicker_rank_cap(rules) -> int:
    # Decision (section 2): kickers never include all four cards of a rank;
    # section 8: never four or more of one rank.  kicker_bomb lifts it.
    return 99 if rules.kicker_bomb else 3


def _single_kickers_ok(kick, lo, hi, rules) -> bool:
    """Single kickers (trio's single, plane's single wings, four's two).

    kick: count vector of the kicker cards only (its ranks already differ from
    the main part).  lo..hi: chain ranks of a plane (None otherwise).
    """
    cap = _kicker_rank_cap(rules)
    for i, k in enumerate(kick):
        if k > cap:
            return False
        if k > 1 and not rules.kicker_repeat:
            return False  # every single kicker a distinct rank
    if not _kicker_jokers_ok(kick, rules):
        return False
    if lo is not None and not rules.wing_trio_adjacent:
        # RLCard: a trio of wings that could extend the chain is illegal.
        for adj in (lo - 1, hi + 1):
            if 0 <= adj <= ACE and kick[adj] >= 3:
                return False
    return True


def _pair_kickers_ok(kick, npairs, rules) -> bool:
    """Pair kickers (trio's pair, plane's pair wings, four's two pairs)."""
    pairs = 0
    for i, k in enumerate(kick):
        if not k:
            continue
        if i in JOKERS:
            return False  # jokers are never a kicker pair (never a pair at all)
        if k % 2:
            return False
        # Pair kickers must be of distinct ranks (two pairs of a rank = a bomb);
        # kicker_bomb lifts this together with the "no four of a rank" rule.
        if k > 2 and not rules.kicker_bomb:
            return False
        pairs += k // 2
    return pairs == npairs


# ---------------------------------------------------------------------------
# One function per combination type.  Each gets the count vector ``c``, its
# card count ``n``, the list ``nz`` of (rank, count) for ranks present, and
# the rules; it yields readings (combo, main rank char, length).
# ---------------------------------------------------------------------------

def _only_rank(nz):
    return nz[0] if len(nz) == 1 else (None, 0)


def _single(c, n, nz, rules):
    if n == 1:  # 单牌
        yield ("single", RANKS[nz[0][0]], 1)


def _pair(c, n, nz, rules):
    r, k = _only_rank(nz)
    # 对牌: two of a rank; jokers never form a plain pair (sections 2, 8).
    if n == 2 and k == 2 and r not in JOKERS:
        yield ("pair", RANKS[r], 1)


def _trio(c, n, nz, rules):
    r, k = _only_rank(nz)
    if n == 3 and k == 3 and r not in JOKERS:  # 三张
        yield ("trio", RANKS[r], 1)


def _trio_single(c, n, nz, rules):
    # 三带一: trio + 1 card of another rank (may be a joker).
    if n != 4 or len(nz) != 2:
        return
    for r, k in nz:
        if k == 3 and r not in JOKERS:
            kick = list(c)
            kick[r] = 0
            if _single_kickers_ok(kick, None, None, rules):
                yield ("trio_single", RANKS[r], 1)


def _trio_pair(c, n, nz, rules):
    # 三带一对: trio + pair of another rank (never the two jokers).
    if n != 5 or len(nz) != 2:
        return
    for r, k in nz:
        if k == 3 and r not in JOKERS:
            kick = list(c)
            kick[r] = 0
            if _pair_kickers_ok(kick, 1, rules):
                yield ("trio_pair", RANKS[r], 1)


def _is_chain(nz, per_rank, min_len):
    """nz is exactly per_rank cards of each of >= min_len consecutive ranks in 3..A."""
    if len(nz) < min_len:
        return False
    if any(k != per_rank for _, k in nz):
        return False
    lo, hi = nz[0][0], nz[-1][0]
    return hi <= ACE and hi - lo + 1 == len(nz)


def _straight(c, n, nz, rules):
    if _is_chain(nz, 1, 5):  # 单顺: >= 5 singles
        yield ("straight", RANKS[nz[-1][0]], len(nz))


def _pair_chain(c, n, nz, rules):
    if _is_chain(nz, 2, 3):  # 双顺: >= 3 pairs
        yield ("pair_chain", RANKS[nz[-1][0]], len(nz))


def _plane(c, n, nz, rules):
    if _is_chain(nz, 3, 2):  # 三顺 / 飞机: >= 2 trios
        yield ("plane", RANKS[nz[-1][0]], len(nz))


def _trio_windows(c, length):
    """Chains lo..hi of `length` ranks in 3..A each holding exactly 3 cards.

    Exactly 3: a kicker never shares a rank with the main part (Decision).
    """
    for lo in range(0, ACE - length + 2):
        hi = lo + length - 1
        if all(c[i] == 3 for i in range(lo, hi + 1)):
            yield lo, hi


def _plane_single(c, n, nz, rules):
    # 飞机带单翅: trio chain of L (>= 2) + L single kicker cards.
    if n % 4:
        return
    length = n // 4
    if length < 2:
        return
    for lo, hi in _trio_windows(c, length):
        kick = list(c)
        for i in range(lo, hi + 1):
            kick[i] = 0
        if _single_kickers_ok(kick, lo, hi, rules):
            yield ("plane_single", RANKS[hi], length)


def _plane_pair(c, n, nz, rules):
    # 飞机带对翅: trio chain of L (>= 2) + L pairs of distinct ranks.
    if n % 5:
        return
    length = n // 5
    if length < 2:
        return
    for lo, hi in _trio_windows(c, length):
        kick = list(c)
        for i in range(lo, hi + 1):
            kick[i] = 0
        if _pair_kickers_ok(kick, length, rules):
            yield ("plane_pair", RANKS[hi], length)


def _quads(c, nz):
    # Exactly four of a rank (more would put the same rank in the kickers).
    return [r for r, k in nz if k == 4 and r not in JOKERS]


def _four_two_single(c, n, nz, rules):
    # 四带二: 4 of a rank + 2 kicker cards (not a bomb).
    if not rules.four_two or n != 6:
        return
    for q in _quads(c, nz):
        kick = list(c)
        kick[q] = 0
        if _single_kickers_ok(kick, None, None, rules):
            yield ("four_two_single", RANKS[q], 1)


def _four_two_pair(c, n, nz, rules):
    # 四带两对: 4 of a rank + 2 pairs of distinct ranks.
    if not rules.four_two or n != 8:
        return
    for q in _quads(c, nz):
        kick = list(c)
        kick[q] = 0
        if _pair_kickers_ok(kick, 2, rules):
            yield ("four_two_pair", RANKS[q], 1)


def _shuttle(c, n, nz, rules):
    # Botzone's 航天飞机: L >= 2 consecutive quads within 3..A, bare (4L cards),
    # each quad with two singles (6L) or two pairs (8L); not a bomb.
    if not rules.shuttle or rules.decks != 1:
        return
    quads = [r for r, k in nz if k == 4 and r <= ACE]
    for lo in quads:
        for hi in quads:
            length = hi - lo + 1
            if length < 2 or any(c[r] != 4 for r in range(lo, hi + 1)):
                continue
            kick = list(c)
            for r in range(lo, hi + 1):
                kick[r] = 0
            if n == 4 * length:
                yield ("shuttle", RANKS[hi], length)
            elif n == 6 * length and _single_kickers_ok(kick, None, None, rules):
                yield ("shuttle", RANKS[hi], length)
            elif n == 8 * length and _pair_kickers_ok(kick, 2 * length, rules):
                yield ("shuttle", RANKS[hi], length)


def _bomb(c, n, nz, rules):
    # 炸弹: 4 of a rank; with two decks 4..8 of a rank (section 8).
    r, k = _only_rank(nz)
    if r is not None and r not in JOKERS and k == n and 4 <= n <= 4 * rules.decks:
        yield ("bomb", RANKS[r], 1)


def _rocket(c, n, nz, rules):
    # 火箭: small + big joker, one deck only (two decks: a joker bomb).
    if rules.decks == 1 and n == 2 and c[SMALL] == 1 and c[BIG] == 1:
        yield ("rocket", "R", 1)


def _joker_bomb(c, n, nz, rules):
    # Section 8: any two, any three, all four jokers.
    if rules.decks == 2 and n >= 2 and c[SMALL] + c[BIG] == n:
        yield ("joker_bomb", "R" if c[BIG] else "B", 1)


TYPE_FUNCS = (
    _single, _pair, _trio, _trio_single, _trio_pair, _straight, _pair_chain,
    _plane, _plane_single, _plane_pair, _four_two_single, _four_two_pair,
    _shuttle, _bomb, _rocket, _joker_bomb,
)

_CLASSIFY_CACHE: dict = {}


def _classify_counts(c, rules):
    """Every reading (combo, main, length) of count vector c (no wild cards)."""
    cache = _CLASSIFY_CACHE.setdefault(rules, {})
    got = cache.get(c)
    if got is not None:
        return got
    n = sum(c)
    out = set()
    if n and all(
        k <= (rules.decks if i in JOKERS else 4 * rules.decks) for i, k in enumerate(c)
    ):
        nz = [(i, k) for i, k in enumerate(c) if k]
        for f in TYPE_FUNCS:
            out.update(f(c, n, nz, rules))
    got = frozenset(out)
    cache[c] = got
    return got


def _main_part(combo, main, length):
    """Count vector of the main part of a kicker combination's reading."""
    m = [0] * NRANKS
    hi = IDX[main]
    if combo in ("trio_single", "trio_pair"):
        m[hi] = 3
    elif combo in ("four_two_single", "four_two_pair"):
        m[hi] = 4
    elif combo == "shuttle":
        for i in range(hi - length + 1, hi + 1):
            m[i] = 4
    else:  # plane_single / plane_pair
        for i in range(hi - length + 1, hi + 1):
            m[i] = 3
    return m


# ---------------------------------------------------------------------------
# Laizi (docs/rules.md §7)
# ---------------------------------------------------------------------------

def _wild_assignments(natural, w, rules, prune=True):
    """Count vectors natural + (w cards spread over ranks 3..2), every way.

    Brute force over ranks, skipping a branch as soon as the ranks filled so
    far have a shape (counts-of-counts) that no combination contains
    (prune=False: no skipping at all; the tests check both agree).
    """
    if not prune:
        found = []
        for sub in itertools.combinations_with_replacement(range(13), w):
            t = list(natural)
            for r in sub:
                t[r] += 1
            found.append(tuple(t))
        return found
    full, prefix, _ = _shape_tables(rules, sum(natural) + w, False)
    top = 4 * rules.decks
    t = list(natural)
    found = []

    def rec(r, left, prof):
        if r == NRANKS:
            if left == 0 and prof in full:
                found.append(tuple(t))
            return
        choices = range(left + 1) if r < 13 else (0,)  # never a joker
        for s in choices:
            k = natural[r] + s
            if k > top:
                break
            if k:
                p = list(prof)
                p[k] += 1
                p = tuple(p)
                if p not in prefix:
                    continue
            else:
                p = prof
            t[r] = k
            rec(r + 1, left - s, p)
        t[r] = natural[r]

    rec(0, w, (0,) * (top + 1))
    return found


def _classify_laizi(p, rules, prune=True):
    """Readings of physical cards p when rank rules.wild is wild."""
    cache = _CLASSIFY_CACHE.setdefault(("laizi", prune, rules), {})
    got = cache.get(p)
    if got is not None:
        return got
    f = IDX[rules.wild]
    w = p[f]
    out = set()
    if w == 0:
        out.update(_classify_counts(p, rules))  # natural cards only
    elif sum(p) == w:
        # A move made only of wild cards uses them at face value; four of
        # them are the pure wild bomb.
        for combo, main, length in _classify_counts(p, rules):
            out.add(("wild_bomb" if combo == "bomb" else combo, main, length))
    else:
        natural = list(p)
        natural[f] = 0
        # Each wild card stands for a rank 3..2 (its own rank included, never
        # a joker).  The wild cards are interchangeable, so trying every
        # multiset of w ranks tries every assignment (_wild_assignments only
        # skips those whose per-rank counts fit no combination's shape).
        for t in _wild_assignments(natural, w, rules, prune):
            for combo, main, length in _classify_counts(t, rules):
                if combo == "bomb":
                    # wild + natural cards: soft bomb (a hard bomb has no wild,
                    # a pure wild bomb only wilds; both handled above).
                    out.add(("soft_bomb", main, length))
                    continue
                if combo in KICKER_COMBOS:
                    # Kickers use wild cards at face value: every kicker card
                    # of a rank other than the wild rank must be natural.
                    m = _main_part(combo, main, length)
                    if any(
                        t[i] - m[i] > natural[i] for i in range(NRANKS) if i != f
                    ):
                        continue
                out.add((combo, main, length))
    got = frozenset(out)
    cache[p] = got
    return got


# ---------------------------------------------------------------------------
# Public: classify and compare
# ---------------------------------------------------------------------------

def _readings(c, rules):
    if rules.wild is not None:
        return _classify_laizi(c, rules)
    return _classify_counts(c, rules)


def ref_classify(cards: str, rules: RefRules = RefRules()) -> set:
    """Every valid reading of exactly these cards, as move tuples."""
    c = parse_cards(cards, rules)
    s = cards_str(c)
    return {(s, combo, main, length) for combo, main, length in _readings(c, rules)}


# Section 8 Decision: 4-card bomb < two jokers < 5 < 6 < three jokers < 7 < 8
# < four jokers.
_TWO_DECK_TIER = {("bomb", 4): 0, ("joker", 2): 1, ("bomb", 5): 2, ("bomb", 6): 3,
                  ("joker", 3): 4, ("bomb", 7): 5, ("bomb", 8): 6, ("joker", 4): 7}
# Section 7: rocket > pure wild bomb > hard bomb > soft bomb.
_ONE_DECK_TIER = {"soft_bomb": 0, "bomb": 1, "wild_bomb": 2, "rocket": 3}


def _bomb_key(move, rules):
    """Sort key of a bomb-like move, or None for ordinary moves."""
    cards, combo, main, _ = move
    if combo not in BOMB_COMBOS:
        return None
    if rules.decks == 2:
        if combo == "joker_bomb":
            # same size: by number of big jokers (RR > BR > BB)
            return (_TWO_DECK_TIER[("joker", len(cards))], cards.count("R"))
        return (_TWO_DECK_TIER[("bomb", len(cards))], IDX[main])
    return (_ONE_DECK_TIER[combo], IDX[main])


def _is_top_bomb(move, rules):
    cards, combo = move[0], move[1]
    if rules.decks == 2:
        return combo == "joker_bomb" and len(cards) == 4
    return combo == "rocket"


def ref_beats(move, last, rules: RefRules = RefRules()) -> bool:
    """Does `move` beat `last` (section 2 comparing; 7 and 8 bomb orders)?"""
    if move is None or move[1] == "pass":
        return False
    if last is None or last[1] == "pass":
        return True
    if _is_top_bomb(last, rules):
        return False  # nothing beats the rocket / four jokers
    mk, lk = _bomb_key(move, rules), _bomb_key(last, rules)
    if mk is not None:
        return lk is None or mk > lk  # a bomb beats every non-bomb
    if lk is not None:
        return False
    # Same type, same number of cards, strictly higher main rank.
    return (move[1] == last[1] and len(move[0]) == len(last[0])
            and move[3] == last[3] and IDX[move[2]] > IDX[last[2]])


# ---------------------------------------------------------------------------
# Shapes: the multiset of per-rank counts of every combination, used only to
# prune the sub-multiset enumeration.  Deliberately generous.
# ---------------------------------------------------------------------------

def _partitions(total, max_part):
    """Partitions of total into parts <= max_part (as tuples)."""
    if total == 0:
        yield ()
        return
    for first in range(min(total, max_part), 0, -1):
        for rest in _partitions(total - first, first):
            yield (first,) + rest


def _shapes(rules, max_size):
    top = 4 * rules.decks
    shapes = set()
    for k in range(1, top + 1):
        shapes.add((k,))                              # single/pair/trio/bomb
    shapes.update({(1, 1), (2,), (2, 1), (2, 2)})     # rocket, joker bombs
    shapes.update({(3, 1), (3, 2)})                   # trio + kicker
    shapes.update({(4, 1, 1), (4, 2), (4, 2, 2), (4, 4)})  # four with two
    cap = top if rules.kicker_bomb else 3
    for per_rank, min_len in ((1, 5), (2, 3), (3, 2)):  # chains
        for length in range(min_len, 13):
            shapes.add((per_rank,) * length)
    for length in range(2, 13):                        # planes with wings
        for wings in _partitions(length, cap):
            shapes.add((3,) * length + wings)
        for wings in _partitions(length, top // 2 if rules.kicker_bomb else 1):
            shapes.add((3,) * length + tuple(2 * p for p in wings))
    if rules.shuttle:                                  # Botzone's shuttles
        for length in range(2, 6):
            shapes.add((4,) * length)
            for wings in _partitions(2 * length, cap):
                shapes.add((4,) * length + wings)
            shapes.add((4,) * length + (2,) * (2 * length))
    return {tuple(sorted(s, reverse=True)) for s in shapes if sum(s) <= max_size}


def _profile(shape, top):
    """Shape (counts) -> counts-of-counts vector (index k = ranks with k cards)."""
    v = [0] * (top + 1)
    for k in shape:
        v[k] += 1
    return tuple(v)


_SHAPE_CACHE: dict = {}


def _shrinks(v):
    """Ways to shrink each rank of a shape (given as counts-of-counts v).

    Yields (profile of what is left, cards removed from the ranks still
    present) -- ranks shrunk to zero are dropped and not counted.
    """
    top = len(v) - 1
    per_k = []
    for k in range(1, top + 1):
        opts = []
        # distribute the v[k] ranks holding k cards among new counts 0..k
        for new in itertools.combinations_with_replacement(range(k + 1), v[k]):
            q = [0] * (top + 1)
            removed = 0
            for j in new:
                if j:
                    q[j] += 1
                    removed += k - j
            opts.append((q, removed))
        per_k.append(opts)
    for choice in itertools.product(*per_k):
        q = [0] * (top + 1)
        removed = 0
        for qk, rk in choice:
            removed += rk
            for j in range(top + 1):
                q[j] += qk[j]
        yield tuple(q), removed


def _shape_tables(rules, max_size, laizi):
    """Pruning tables derived from the combination shapes.

    full: counts-of-counts profiles of whole combinations.
    Without wild cards, prefix: profiles of sets of ranks that a combination
    may still grow from (ranks already chosen keep their counts), mapped to 0.
    With wild cards (natural cards N plus w wilds make the combination T, so
    every rank of N has at most T's count): prefix maps the profile of a
    partial N to the fewest wild cards needed to top up its ranks, and leaf
    holds (profile of N, size of T) pairs.
    """
    key = (rules.decks, rules.kicker_bomb, max_size, laizi)
    got = _SHAPE_CACHE.get(key)
    if got:
        return got
    top = 4 * rules.decks
    full, prefix, leaf = set(), {}, set()
    for s in _shapes(rules, max_size):
        v = _profile(s, top)
        full.add(v)
        if laizi:
            for q, removed in _shrinks(v):
                if prefix.get(q, 99) > removed:
                    prefix[q] = removed
                leaf.add((q, sum(s)))
        else:
            # drop any ranks from the shape (they may be chosen later)
            for sub in itertools.product(*[range(k + 1) for k in v]):
                prefix[sub] = 0
    got = (full, prefix, leaf)
    _SHAPE_CACHE[key] = got
    return got


# ---------------------------------------------------------------------------
# Legal moves
# ---------------------------------------------------------------------------

def _bomb_sizes(rules):
    # card counts a bomb-like move can have: rocket 2, bomb 4; two decks:
    # joker bombs 2..4, bombs 4..8.
    if rules.decks == 2:
        return {2, 3, 4, 5, 6, 7, 8}
    return {2, 4}


def ref_legal(hand: str, last=None, rules: RefRules = RefRules()) -> set:
    """Every legal move from `hand`; last=None is a free lead (no pass).

    Every sub-multiset of the hand is classified (pruned by shape and, when
    following, by card count: only the last move's count or a bomb's).
    """
    h = parse_cards(hand, rules)
    moves = set()
    if last is not None and last[1] != "pass":
        moves.add(PASS)
        if _is_top_bomb(last, rules):
            return moves  # after the top bomb every other player passes
        if _bomb_key(last, rules) is not None:
            sizes = _bomb_sizes(rules)
        else:
            sizes = _bomb_sizes(rules) | {len(last[0])}
    else:
        sizes = None
        last = None
    max_size = sum(h) if sizes is None else min(sum(h), max(sizes))

    wild = IDX[rules.wild] if rules.wild is not None else None
    nwild = h[wild] if wild is not None else 0
    laizi = nwild > 0
    full, prefix, leaf = _shape_tables(rules, sum(h), laizi)
    top = 4 * rules.decks
    order = [i for i in range(NRANKS) if h[i] and i != wild]
    cur = [0] * NRANKS

    def emit(size, prof):
        # cur holds the natural cards; add 0..nwild wild cards.
        for w in range(nwild + 1):
            n = size + w
            if n == 0 or (sizes is not None and n not in sizes):
                continue
            if laizi:
                if (prof, n) not in leaf:
                    continue
                cur[wild] = w
            elif prof not in full:
                continue
            c = tuple(cur)
            for combo, main, length in _readings(c, rules):
                mv = (cards_str(c), combo, main, length)
                if last is None or ref_beats(mv, last, rules):
                    moves.add(mv)
        if laizi:
            cur[wild] = 0

    def dfs(pos, size, prof):
        if pos == len(order):
            emit(size, prof)
            return
        r = order[pos]
        for k in range(h[r] + 1):
            if size + k > max_size:
                break
            if k:
                p = list(prof)
                p[k] += 1
                p = tuple(p)
                if prefix.get(p, 99) > nwild:
                    continue
            else:
                p = prof
            cur[r] = k
            dfs(pos + 1, size + k, p)
        cur[r] = 0

    dfs(0, 0, (0,) * (top + 1))
    return moves


# ---------------------------------------------------------------------------
# Action space (one deck, no wild): structural enumeration
# ---------------------------------------------------------------------------

def _kicker_sets(avail, k):
    """All count vectors of k cards with at most avail[i] of rank i."""
    ranks = [i for i in range(NRANKS) if avail[i]]

    def rec(pos, left, vec):
        if left == 0:
            yield tuple(vec)
            return
        if pos == len(ranks):
            return
        r = ranks[pos]
        for take in range(min(left, avail[r]), -1, -1):
            vec[r] = take
            yield from rec(pos + 1, left - take, vec)
        vec[r] = 0

    yield from rec(0, k, [0] * NRANKS)


def _plus(a, b):
    return tuple(x + y for x, y in zip(a, b))


def ref_action_space(rules: RefRules = RefRules(), max_cards: int = 20) -> set:
    """All distinct moves (no pass) of <= max_cards cards from the deck(s).

    Built structurally: each type's main part times its kicker choices.  Made
    for one deck (DESIGN.md's totals); decks=2 also works (section 8), as a
    cross-check of ref_legal.  No wild cards.
    """
    if rules.wild is not None:
        raise ValueError("ref_action_space: no wild cards")
    moves = set()
    d = rules.decks
    deck = [4 * d] * 13 + [d, d]
    cap = _kicker_rank_cap(rules)

    def add(c, combo, main, length):
        if sum(c) <= max_cards:
            moves.add((cards_str(c), combo, RANKS[main], length))

    def single_vec(r, k):
        v = [0] * NRANKS
        v[r] = k
        return tuple(v)

    # single, pair, trio, bombs (4..4*decks cards), rocket / joker bombs
    for r in range(NRANKS):
        add(single_vec(r, 1), "single", r, 1)
    for r in range(13):
        add(single_vec(r, 2), "pair", r, 1)
        add(single_vec(r, 3), "trio", r, 1)
        for k in range(4, 4 * d + 1):
            add(single_vec(r, k), "bomb", r, 1)
    if d == 1:
        rocket = [0] * NRANKS
        rocket[SMALL] = rocket[BIG] = 1
        add(tuple(rocket), "rocket", BIG, 1)
    else:
        for nb in range(d + 1):
            for nr in range(d + 1):
                if nb + nr >= 2:
                    v = [0] * NRANKS
                    v[SMALL], v[BIG] = nb, nr
                    add(tuple(v), "joker_bomb", BIG if nr else SMALL, 1)

    def single_kickers(main_vec, k, lo=None, hi=None):
        # Kicker ranks differ from every main rank; <= cap of a rank.
        avail = [0 if main_vec[i] else min(deck[i], cap) for i in range(NRANKS)]
        if not rules.kicker_repeat:
            avail = [min(a, 1) for a in avail]
        for kick in _kicker_sets(avail, k):
            if not _kicker_jokers_ok(kick, rules):
                continue
            if lo is not None and not rules.wing_trio_adjacent and any(
                0 <= a <= ACE and kick[a] >= 3 for a in (lo - 1, hi + 1)
            ):
                continue
            yield kick

    def pair_kickers(main_vec, k):
        # Pairs of distinct non-joker ranks (kicker_bomb: a rank may repeat).
        free = [i for i in range(13) if not main_vec[i]]
        combos = (itertools.combinations_with_replacement(free, k)
                  if rules.kicker_bomb else itertools.combinations(free, k))
        for ranks in combos:
            kick = [0] * NRANKS
            for r in ranks:
                kick[r] += 2
            if max(kick) <= deck[0]:
                yield tuple(kick)

    # trio + single, trio + pair
    for t in range(13):
        m = single_vec(t, 3)
        for kick in single_kickers(m, 1):
            add(_plus(m, kick), "trio_single", t, 1)
        for kick in pair_kickers(m, 1):
            add(_plus(m, kick), "trio_pair", t, 1)

    # chains: straight (>=5), pair chain (>=3), plane (>=2), with wings
    for length in range(2, 13):
        for lo in range(0, ACE - length + 2):
            hi = lo + length - 1
            for per_rank, combo, min_len in ((1, "straight", 5), (2, "pair_chain", 3),
                                             (3, "plane", 2)):
                if length >= min_len:
                    v = [0] * NRANKS
                    for i in range(lo, hi + 1):
                        v[i] = per_rank
                    add(tuple(v), combo, hi, length)
            m = [0] * NRANKS
            for i in range(lo, hi + 1):
                m[i] = 3
            m = tuple(m)
            if 4 * length <= max_cards:
                for kick in single_kickers(m, length, lo, hi):
                    add(_plus(m, kick), "plane_single", hi, length)
            if 5 * length <= max_cards:
                for kick in pair_kickers(m, length):
                    add(_plus(m, kick), "plane_pair", hi, length)

    # four with two singles / two pairs
    if rules.four_two:
        for q in range(13):
            m = single_vec(q, 4)
            for kick in single_kickers(m, 2):
                add(_plus(m, kick), "four_two_single", q, 1)
            for kick in pair_kickers(m, 2):
                add(_plus(m, kick), "four_two_pair", q, 1)

    # Botzone's shuttles: >= 2 consecutive quads, bare or two singles / two pairs a quad
    if rules.shuttle and d == 1:
        for length in range(2, 6):
            for lo in range(0, ACE - length + 2):
                hi = lo + length - 1
                m = tuple(4 if lo <= i <= hi else 0 for i in range(NRANKS))
                add(m, "shuttle", hi, length)
                if 6 * length <= max_cards:
                    for kick in single_kickers(m, 2 * length):
                        add(_plus(m, kick), "shuttle", hi, length)
                if 8 * length <= max_cards:
                    for kick in pair_kickers(m, 2 * length):
                        add(_plus(m, kick), "shuttle", hi, length)
    return moves


# ---------------------------------------------------------------------------
# Helpers for tests: move text CARDS|COMBO|MAIN|LENGTH
# ---------------------------------------------------------------------------

def parse_move(text: str) -> tuple:
    cards, combo, main, length = text.split("|")
    return (canonical(cards), combo, main, int(length))


def move_text(move) -> str:
    return "|".join(str(x) for x in move)
