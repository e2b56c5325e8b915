"""Counting without writing: past its buffer's capacity the kernel adds the
kicker combinations of a main part (and the sets of a type) in closed form
instead of walking them, and writes a group of moves through its fast path
only when the whole group fits.  Both must give exactly the moves and counts
of the move-by-move path, under every rule switch that changes kickers
(docs/rules.md §2, §7-§9)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ddzcore import MOVE_DTYPE, Rules, _kernel

VARIANTS: list[dict[str, Any]] = [
    {}, {"kicker_repeat": False}, {"jokers_both_kickers": False}, {"kicker_bomb": True},
    {"wing_trio_adjacent": False}, {"wing_bomb": True}, {"four_two": False}, {"shuttle": True},
    {"wild": "7"}, {"wild": "3", "kicker_repeat": False}, {"decks": 2},
    {"decks": 2, "jokers_both_kickers": False}, {"banned": ("trio_single", "bomb")},
]


def positions(rules: Rules, seed: int, n: int = 150) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """n random leads and n follows (answering a random lead move of another
    hand, drawn from the cards the move leaves)."""
    rng = random.Random(seed)
    decks = rules.decks
    deck = [r for r in range(13) for _ in range(4 * decks)] + [13, 14] * decks
    sizes = [17, 20, 25, 33] if decks == 2 else [5, 10, 17, 20]
    hands = [sum(1 << (4 * r) for r in rng.sample(deck, rng.choice(sizes))) for _ in range(n)]
    follow_hands, last_cards, last_info = [], [], []
    for hand in hands:
        moves = _kernel.generate_array(hand, 0, 0, rules.flags)
        m = moves[rng.randrange(len(moves))]
        last_cards.append(m["cards"])
        last_info.append(m["info"])
        rest = list(deck)
        for r in range(15):
            for _ in range((int(m["cards"]) >> (4 * r)) & 0xF):
                rest.remove(r)
        follow_hands.append(sum(1 << (4 * r) for r in rng.sample(rest, rng.choice(sizes))))
    as_words = [np.array(a, dtype=np.uint64) for a in (hands, follow_hands, last_cards, last_info)]
    return as_words[0], as_words[1], as_words[2], as_words[3]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_counts_and_overflow_match_the_written_moves(options: dict[str, Any]) -> None:
    rules = Rules(**options)
    flags = rules.flags
    hands, follow_hands, last_cards, last_info = positions(rules, seed=len(str(options)))
    for follow in (False, True):
        batch = follow_hands if follow else hands
        lc, li = (last_cards, last_info) if follow else (None, None)
        moves, offsets = _kernel.generate_batch(batch, lc, li, flags)
        assert np.array_equal(_kernel.count_batch(batch, lc, li, flags), np.diff(offsets))
        # one position at a time: the move-by-move path near and past the capacity
        for i, hand in enumerate(batch):
            last = (int(last_cards[i]), int(last_info[i])) if follow else (0, 0)
            got = _kernel.generate_array(int(hand), *last, flags)
            assert np.array_equal(got, moves[offsets[i]:offsets[i + 1]])
        # a buffer far too small: grown (the first attempt only counts past it)
        small, small_offsets = _kernel.generate_batch(batch, lc, li, flags, out=np.empty(3, MOVE_DTYPE))
        assert np.array_equal(small, moves) and np.array_equal(small_offsets, offsets)
