"""A digest of the laizi (癞子) generator's whole output, docs/rules.md §7.

The kernel's laizi moves, their order and their readings are pinned by a
SHA-256 over many seeded positions: hands of 1-20 cards with 0-4 wild
cards, free leads and follows (the last move a legal move of another hand
from the rest of the deck), every wild rank, several rule sets (kicker
switches, four-with-two off, bans).  Each batch is generated three ways:
into an exact-size buffer (every position with room), through the
growing default buffer (positions that start without enough room take the
kernel's slow write paths and are generated again) and counted only
(``count_batch``); and every hand of up to 8 cards is classified.  The
digests in tests/data/laizi_digest.json were made by this file (``python
tests/test_laizi_digest.py --write``) before the laizi generator was
rewritten for speed: a rewrite must reproduce them exactly.  The
differential tests check correctness against tests/reference.py; this
checks that nothing moved at all.

    python tests/test_laizi_digest.py [--write]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from ddzcore import Rules, _kernel

DATA = Path(__file__).resolve().parent / "data" / "laizi_digest.json"
RANKS = "3456789TJQKA2"
DECK = [r for r in range(13) for _ in range(4)] + [13, 14]   # rank indices: 3..2, small, big joker

RULE_SETS: "dict[str, dict[str, object]]" = {
    "standard": {},
    "no_repeat": {"kicker_repeat": False},
    "rlcard": {"jokers_both_kickers": False, "wing_trio_adjacent": False},
    "kicker_bomb": {"kicker_bomb": True},
    "no_four_two": {"four_two": False, "jokers_both_kickers": False},
    "banned": {"banned": ("trio_pair", "plane_single", "four_two_pair")},
}


def word(ranks: "list[int]") -> int:
    """The card word of a list of rank indices (a nibble a rank)."""
    return sum(1 << (4 * r) for r in ranks)


def deal(rng: random.Random, wild: int, size: int, nw: int) -> "tuple[list[int], list[int]]":
    """A hand of `size` cards with exactly min(nw, size) wild cards, and the rest of the deck."""
    nw = min(nw, size)
    others = [r for r in DECK if r != wild]
    rng.shuffle(others)
    hand = [wild] * nw + others[: size - nw]
    rest = [wild] * (4 - nw) + others[size - nw:]
    rng.shuffle(rest)
    return hand, rest


def positions(rng: random.Random, flags: int, wild: int, n: int, follows: bool
              ) -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    """n seeded positions (hands, last cards, last readings): leads, or follows
    whose last move is a random legal lead of a hand drawn from the rest of the deck."""
    hands, lcs, lis = [], [], []
    for i in range(n):
        hand, rest = deal(rng, wild, rng.randint(1, 20), i % 5)
        lc = li = 0
        if follows:
            other = rest[: rng.randint(1, 20)]
            moves = _kernel.generate_array(word(other), 0, 0, flags)
            lc, li = (int(x) for x in moves[rng.randrange(len(moves))].tolist())
        hands.append(word(hand))
        lcs.append(lc)
        lis.append(li)
    return (np.array(hands, np.uint64), np.array(lcs, np.uint64), np.array(lis, np.uint64))


def digests(n: int = 400) -> "dict[str, str]":
    """SHA-256 (hex) of every rule set's output over all wild ranks: n leads
    and n follows a wild rank, generated three ways, plus classify."""
    out = {}
    for name, fields in RULE_SETS.items():
        h = hashlib.sha256()
        for wild in range(13):
            flags = Rules(wild=RANKS[wild], **fields).flags  # type: ignore[arg-type]
            rng = random.Random(f"{name}-{wild}")
            for follows in (False, True):
                hands, lc, li = positions(rng, flags, wild, n, follows)
                args = (hands, lc, li) if follows else (hands, None, None)
                moves, offsets = _kernel.generate_batch(*args, flags)
                exact, exact_off = _kernel.generate_batch(*args, flags, np.empty(len(moves), moves.dtype))
                counts = _kernel.count_batch(*args, flags)
                assert np.array_equal(moves, exact) and np.array_equal(offsets, exact_off)
                assert np.array_equal(np.diff(offsets), counts)
                for a in (hands, lc, li, moves, offsets, counts):
                    h.update(np.ascontiguousarray(a).tobytes())
            for _ in range(n // 4):
                hand, _rest = deal(rng, wild, rng.randint(1, 8), rng.randint(0, 4))
                h.update(_kernel.classify_array(word(hand), flags).tobytes())
        out[name] = h.hexdigest()
    return out


@pytest.mark.slow
def test_laizi_output_is_unchanged() -> None:
    assert digests() == json.loads(DATA.read_text())


if __name__ == "__main__":
    got = digests()
    print(json.dumps(got, indent=1))
    if "--write" in sys.argv:
        DATA.write_text(json.dumps(got, indent=1) + "\n")
    elif DATA.exists():
        print("equal to", DATA.name, got == json.loads(DATA.read_text()))
