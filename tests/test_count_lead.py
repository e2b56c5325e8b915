"""The count-only path (a count that writes nothing) against generation.

A one-deck free lead is counted in closed form from the hand word
(``count_lead`` in src/ddzcore/_kernel.pyx, "counting a free lead"); every
other position is counted by the generator itself with no room.  Either way
the count must be exactly the number of moves the generator writes, under
every rule switch that changes which moves exist (docs/rules.md §2, §7, §9):
checked here on random hands of every size (biased towards trios, quads,
planes and jokers), hypothesis-drawn hands and rules, and the corpora of
tests/data.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ddzcore import Rules, _kernel, count_moves, count_moves_batch, legal_moves
from ddzcore.cards import Hand

from conftest import load_cases, load_positions

SWITCHES = ("four_two", "kicker_repeat", "jokers_both_kickers", "wing_trio_adjacent", "kicker_bomb", "wing_bomb")
BANNABLE = ("trio", "trio_single", "trio_pair", "straight", "pair_chain", "plane", "plane_single",
            "plane_pair", "four_two_single", "four_two_pair", "bomb")


def written(hands: np.ndarray, flags: int, last_cards: Any = None, last_info: Any = None) -> np.ndarray:
    """How many moves the generator writes for each position."""
    return np.diff(_kernel.generate_batch(hands, last_cards, last_info, flags)[1])


def counted(hands: np.ndarray, flags: int, last_cards: Any = None, last_info: Any = None) -> np.ndarray:
    return _kernel.count_batch(hands, last_cards, last_info, flags)


def random_hands(rng: random.Random, n: int) -> np.ndarray:
    """n one-deck hands: rank counts drawn with weights that favour trios and
    quads (planes, bombs, fours with two) or uniformly, jokers half the time,
    now and then the whole deck."""
    hands = []
    for _ in range(n):
        style = rng.random()
        if style < 0.02:
            counts = [4] * 13 + [1, 1]
        elif style < 0.5:
            size = rng.randint(1, 24)
            deck = [r for r in range(13) for _ in range(4)] + [13, 14]
            counts = [0] * 15
            for r in rng.sample(deck, size):
                counts[r] += 1
        else:
            weights = [rng.random() for _ in range(5)]
            counts = [rng.choices(range(5), weights)[0] for _ in range(13)]
            counts += [rng.random() < 0.5, rng.random() < 0.5]
        hand = sum(int(c) << (4 * r) for r, c in enumerate(counts))
        hands.append(hand or 1)
    return np.array(hands, dtype=np.uint64)


def cards(hand: int) -> int:
    return sum((int(hand) >> (4 * r)) & 15 for r in range(15))


def fit(hand: int, last: int, decks: int = 1) -> int:
    """hand less the cards of each rank the deck cannot hold besides last's."""
    counts = [min((hand >> (4 * r)) & 15, decks * (1 if r >= 13 else 4) - ((last >> (4 * r)) & 15))
              for r in range(15)]
    return sum(c << (4 * r) for r, c in enumerate(counts)) or (1 << 4 * next(r for r in range(15) if not last >> 4 * r & 15))


def every_switch(seed: int, n: int) -> None:
    """n hands under each of the 64 combinations of the six kicker/four-two switches."""
    rng = random.Random(seed)
    for values in itertools.product((False, True), repeat=len(SWITCHES)):
        flags = Rules(**dict(zip(SWITCHES, values))).flags
        hands = random_hands(rng, n)
        assert np.array_equal(counted(hands, flags), written(hands, flags)), dict(zip(SWITCHES, values))


def test_lead_counts_match_generation_under_every_switch() -> None:
    every_switch(16, 300)


@pytest.mark.slow
def test_lead_counts_match_generation_large_sample() -> None:
    every_switch(1016, 20_000)     # 1.28 M leads


def test_lead_counts_match_generation_with_bans_and_wild_cards() -> None:
    """Each combination banned alone and several at once; laizi rules with and
    without the wild rank in hand (only hands without it are counted in
    closed form); shuttles and two decks (the generator's own count)."""
    rng = random.Random(17)
    options: list[dict[str, Any]] = [{"banned": (b,)} for b in BANNABLE]
    options += [{"banned": tuple(rng.sample(BANNABLE, 4))} for _ in range(6)]
    options += [{"wild": w} for w in "37TA2"] + [{"wild": "5", "kicker_repeat": False}, {"shuttle": True}]
    options += [{"decks": 2}]
    for opts in options:
        flags = Rules(**opts).flags
        hands = random_hands(rng, 400)
        if "wild" in opts:              # laizi generation grows fast with the cards: up to 20
            hands = np.array([h for h in hands if cards(h) <= 20], dtype=np.uint64)
        if opts.get("decks") == 2:      # two one-deck hands make a two-deck hand (of at most 33 cards)
            hands = np.array([h for h in hands + random_hands(rng, 400) if cards(h) <= 33], dtype=np.uint64)
        assert np.array_equal(counted(hands, flags), written(hands, flags)), opts


def test_follow_counts_match_generation_for_every_move_kind() -> None:
    """Follows (count_follow in closed form; DouZero's reading, two decks and
    hands holding a wild card: the generator's count) answering moves of
    every combination type, drawn from the leads of random hands."""
    rng = random.Random(18)
    options: list[dict[str, Any]] = [{}, {"kicker_bomb": True, "jokers_both_kickers": False},
                                     {"wing_trio_adjacent": False, "kicker_repeat": False},
                                     {"wing_bomb": True, "banned": ("plane", "bomb", "four_two_pair")},
                                     {"wild": "7"}, {"douzero_follow": True}, {"decks": 2}]
    for opts in options:
        rules = Rules(**opts)
        flags = rules.flags
        leads = random_hands(rng, 300)
        if opts.get("decks") == 2:
            leads = np.array([h for h in leads + random_hands(rng, 300) if cards(h) <= 33], dtype=np.uint64)
        hands, lc, li = [], [], []
        kinds = set()
        for lead in leads:
            moves = _kernel.generate_array(int(lead), 0, 0, flags)
            combos = moves["info"] & 0x1F
            for kind in np.unique(combos):
                m = moves[rng.choice(np.flatnonzero(combos == kind))]
                kinds.add(int(kind))
                hands.append(fit(int(random_hands(rng, 1)[0]), int(m["cards"]), rules.decks))
                lc.append(int(m["cards"]))
                li.append(int(m["info"]))
        h, c, i = (np.array(a, dtype=np.uint64) for a in (hands, lc, li))
        assert np.array_equal(counted(h, flags, c, i), written(h, flags, c, i)), opts
        if not opts:
            assert kinds >= set(range(1, 15)), kinds    # single .. rocket


@st.composite
def hand_and_rules(draw: st.DrawFn) -> tuple[int, int]:
    counts = draw(st.lists(st.integers(0, 4), min_size=13, max_size=13))
    counts += draw(st.lists(st.integers(0, 1), min_size=2, max_size=2))
    switches = draw(st.fixed_dictionaries({s: st.booleans() for s in SWITCHES}))
    banned = draw(st.lists(st.sampled_from(BANNABLE), max_size=3, unique=True))
    hand = sum(c << (4 * r) for r, c in enumerate(counts)) or 1
    return hand, Rules(**switches, banned=tuple(banned)).flags


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_rules())
def test_lead_count_hypothesis(case: tuple[int, int]) -> None:
    hand, flags = case
    hands = np.array([hand], dtype=np.uint64)
    assert int(counted(hands, flags)[0]) == len(_kernel.generate_array(hand, 0, 0, flags))


def test_corpus_counts() -> None:
    """tests/data: the 4000 positions (leads and follows of every type) and the
    hands of the move cases, through the public count_moves / count_moves_batch."""
    positions = load_positions()
    leads = [hand for _, hand, last in positions if last is None]
    assert np.array_equal(count_moves_batch(leads), [len(legal_moves(h)) for h in leads])
    for _, hand, last in positions[::8]:
        if last is not None:
            assert count_moves(hand, legal_moves(last)[0]) == len(legal_moves(hand, legal_moves(last)[0]))
    for case in load_cases():
        for key in ("hand", "cards"):
            if isinstance(case.get(key), str) and case[key]:
                rules = Rules.preset(case["rules"]) if case.get("wild") is None else Rules(wild=case["wild"])
                words = np.array([Hand(case[key]).word], dtype=np.uint64)
                assert np.array_equal(counted(words, rules.flags), written(words, rules.flags)), case["id"]
