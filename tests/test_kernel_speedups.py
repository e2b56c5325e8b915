"""The kernel's fast paths agree with their plain definitions.

- A last move's reading is checked from its own fields or by generating
  only its own combination type (``is_valid_reading``); it must accept
  exactly the readings that ``classify_array`` lists for the cards, also
  those the same cards have under other rules (docs/rules.md §2, §7, §8).
"""

from __future__ import annotations

import random

import pytest

from ddzcore import Rules, _kernel

RULES = [Rules(), Rules.preset("rlcard"), Rules.preset("openspiel"), Rules(kicker_bomb=True),
         Rules(kicker_repeat=False, jokers_both_kickers=False, wing_trio_adjacent=False),
         Rules(decks=2), Rules(decks=2, kicker_bomb=True, jokers_both_kickers=False),
         Rules(wild="7"), Rules(wild="3"), Rules(wild="2")]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_reading_check_matches_classify(rules: Rules) -> None:
    rng = random.Random(repr(rules))
    f = rules.flags
    deck = [r for r in range(13) for _ in range(4 * rules.decks)] + [13, 14] * rules.decks
    for _ in range(600):
        k = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 20])
        cards = sum(1 << (4 * r) for r in rng.sample(deck, k))
        readings = {int(i) for i in _kernel.classify_array(cards, f)["info"]}
        # Readings of the same cards under the other rules: valid here only if classify says so.
        candidates = {int(i) for other in RULES if other.decks == rules.decks
                      for i in _kernel.classify_array(cards, other.flags)["info"]}
        candidates |= readings | {rng.getrandbits(14), rng.getrandbits(38)}
        for i in list(readings)[:4]:
            candidates |= {i ^ (1 << rng.randrange(14)), i + 32, max(i - 32, 0), i ^ (1 << 9)}
        for info in candidates:
            assert _kernel.is_valid_reading(cards, info, f) == (info in readings), (hex(cards), hex(info))


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_reading_check_on_lead_moves(rules: Rules) -> None:
    """Moves of 17- and 20-card leads under every rule set (kickers, wings,
    chains in abundance), checked under `rules`."""
    rng = random.Random("leads" + repr(rules))
    f = rules.flags
    deck = [r for r in range(13) for _ in range(4 * rules.decks)] + [13, 14] * rules.decks
    for _ in range(12):
        hand = sum(1 << (4 * r) for r in rng.sample(deck, rng.choice([17, 20])))
        for other in (o for o in RULES if o.decks == rules.decks):
            moves = _kernel.generate_array(hand, 0, 0, other.flags).tolist()
            for cards, info in rng.sample(moves, min(40, len(moves))):
                expected = info in {int(i) for i in _kernel.classify_array(cards, f)["info"]}
                assert _kernel.is_valid_reading(cards, info, f) == expected, (hex(cards), hex(info))
