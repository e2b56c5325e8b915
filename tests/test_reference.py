"""Tests of the slow reference move generator (tests/reference.py) itself.

Every case of shared/cases/cases.json, the action-space totals of
the README's "Rules presets" table, and consistency checks between the reference's two
independent derivations (sub-multiset classification vs structural
enumeration).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference  # noqa: E402
from reference import (  # noqa: E402
    PASS,
    RANKS,
    RefRules,
    canonical,
    cards_str,
    parse_cards,
    parse_move,
    ref_action_space,
    ref_beats,
    ref_classify,
    ref_legal,
)


def _shared() -> Path:
    p = Path(__file__).resolve().parents[2] / "shared"
    if (p / "cases" / "cases.json").exists():
        return p
    env = os.environ.get("DDZ_SHARED")
    if env:
        return Path(env)
    pytest.skip("shared/ not found (set DDZ_SHARED)")


def _cases():
    path = _shared() / "cases" / "cases.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


try:
    CASES = _cases()
except BaseException:  # pytest.skip raises outside a test
    CASES = []


def _rules(case) -> RefRules:
    return RefRules.preset(case["rules"], wild=case.get("wild"))


def _move(d) -> tuple:
    return (canonical(d["cards"]), d["combo"], d["main"], d["length"])


def _by_kind(kind):
    return [pytest.param(c, id=c["id"]) for c in CASES if c["kind"] == kind]


@pytest.mark.parametrize("case", _by_kind("classify"))
def test_classify_case(case):
    rules = _rules(case)
    cards = canonical(case["cards"])
    want = {(cards, r["combo"], r["main"], r["length"]) for r in case["expect_readings"]}
    assert ref_classify(case["cards"], rules) == want


@pytest.mark.parametrize("case", _by_kind("compare"))
def test_compare_case(case):
    rules = _rules(case)
    assert ref_beats(_move(case["move"]), _move(case["last"]), rules) is case["expect_beats"]


@pytest.mark.parametrize("case", _by_kind("legal"))
def test_legal_case(case):
    rules = _rules(case)
    last = _move(case["last"]) if case.get("last") else None
    got = ref_legal(case["hand"], last, rules)
    for text in case.get("must", []):
        assert parse_move(text) in got, text
    for text in case.get("must_not", []):
        assert parse_move(text) not in got, text
    if case.get("exactly") is not None:
        assert got == {parse_move(t) for t in case["exactly"]}


def test_cases_loaded():
    assert len(CASES) >= 30


# ---------------------------------------------------------------------------
# Action-space totals (DESIGN.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "preset, readings, card_sets",
    [("standard", 29726, 29327), ("rlcard", None, 27471), ("openspiel", 26053, 25661)],
)
def test_action_space_totals(preset, readings, card_sets):
    space = ref_action_space(RefRules.preset(preset))
    assert len({m[0] for m in space}) == card_sets
    if readings is not None:
        assert len(space) == readings


def test_action_space_multi_readings():
    space = ref_action_space(RefRules())
    by_cards = {}
    for m in space:
        by_cards.setdefault(m[0], set()).add(m)
    assert sum(1 for v in by_cards.values() if len(v) > 1) == 390


@pytest.mark.parametrize("preset", ["standard", "rlcard", "openspiel"])
def test_action_space_agrees_with_classify(preset):
    """The structural count and the type-by-type classifier agree on every card set."""
    rules = RefRules.preset(preset)
    space = ref_action_space(rules)
    by_cards = {}
    for m in space:
        by_cards.setdefault(m[0], set()).add(m)
    for cards, readings in by_cards.items():
        assert ref_classify(cards, rules) == readings, cards


def _deck(decks=1):
    return list(RANKS[:13] * 4 * decks + "BR" * decks)


def test_classify_random_sets_in_action_space():
    """Anything the classifier accepts is in the structural action space."""
    rules = RefRules()
    space = ref_action_space(rules)
    rng = random.Random(1)
    deck = _deck()
    for _ in range(20000):
        cards = "".join(rng.sample(deck, rng.randint(1, 20)))
        for m in ref_classify(cards, rules):
            assert m in space


def test_legal_lead_matches_action_space_subsets():
    """A free lead is every action-space move whose cards fit in the hand."""
    from collections import Counter

    rules = RefRules()
    space = ref_action_space(rules)
    rng = random.Random(7)
    for _ in range(5):
        hand = "".join(rng.sample(_deck(), 17))
        hc = Counter(hand)
        want = {m for m in space if not Counter(m[0]) - hc}
        assert ref_legal(hand, None, rules) == want


# ---------------------------------------------------------------------------
# Spot checks of the rule book (docs/rules.md §2, §7, §8)
# ---------------------------------------------------------------------------

def test_pass_only_with_last():
    assert PASS not in ref_legal("3", None)
    assert PASS in ref_legal("3", ("4", "single", "4", 1))


def test_rulebook_examples():
    std = RefRules()
    # 333444555+888: three single wings of one rank (docs/rules.md §2)
    assert ref_classify("333444555888", std) == {("333444555888", "plane_single", "5", 3)}
    # pair kickers of one rank would hide a bomb: 4444+55+55, 333444+66+66
    assert ref_classify("44445555", std) == set()
    assert ref_classify("3334446666", std) == set()
    assert ref_classify("3334446666", RefRules(kicker_bomb=True)) == {
        ("3334446666", "plane_pair", "4", 2)}
    assert ref_classify("44445555", std) == set()
    assert ref_classify("33344434", std) == set()
    assert ref_classify("33334455", std) == {("33334455", "four_two_pair", "3", 1)}
    assert ref_classify("444455", std) == {("444455", "four_two_single", "4", 1)}
    assert ref_classify("33444666", std) == set()  # chain ranks must be consecutive
    readings = ref_classify("333444555666", std)
    assert readings == {
        ("333444555666", "plane", "6", 4),
        ("333444555666", "plane_single", "5", 3),
        ("333444555666", "plane_single", "6", 3),
    }


def test_kicker_options():
    assert ref_classify("55553", RefRules()) == set()
    assert ref_classify("555533", RefRules(kicker_repeat=False)) == set()
    assert ref_classify("555534", RefRules(kicker_repeat=False)) == {
        ("345555", "four_two_single", "5", 1)}
    assert ref_classify("333444BR", RefRules.preset("rlcard")) == set()
    assert ref_classify("333444BR", RefRules()) == {("333444BR", "plane_single", "4", 2)}
    # kicker_bomb: all four cards of a rank among the kickers
    assert ref_classify("333444555666KKKK", RefRules(kicker_bomb=True)) == {
        ("333444555666KKKK", "plane_single", "6", 4)}
    # RLCard: a wing trio that could extend the chain is illegal...
    assert ref_classify("3334445556667778", RefRules.preset("rlcard")) == set()
    # ...but a trio of 2s beside a plane ending in A is fine.
    assert ("QQQKKKAAA222", "plane_single", "A", 3) in ref_classify(
        "QQQKKKAAA222", RefRules.preset("rlcard"))


def test_compare_basics():
    std = RefRules()
    assert ref_beats(("44", "pair", "4", 1), ("33", "pair", "3", 1), std)
    assert not ref_beats(("33", "pair", "3", 1), ("33", "pair", "3", 1), std)
    assert not ref_beats(("44", "pair", "4", 1), ("3", "single", "3", 1), std)
    assert not ref_beats(("456789", "straight", "9", 6), ("34567", "straight", "7", 5), std)
    assert ref_beats(("BR", "rocket", "R", 1), ("2222", "bomb", "2", 1), std)
    assert ref_beats(("4444", "bomb", "4", 1), ("3333", "bomb", "3", 1), std)


# ---------------------------------------------------------------------------
# Two decks (docs/rules.md §8)
# ---------------------------------------------------------------------------

TWO = RefRules(decks=2)


def test_two_deck_bombs_each_size():
    moves = ref_legal("777777", None, TWO)
    bombs = {m for m in moves if m[1] == "bomb"}
    assert bombs == {("7777", "bomb", "7", 1), ("77777", "bomb", "7", 1),
                     ("777777", "bomb", "7", 1)}


def test_two_deck_jokers():
    assert ref_classify("BR", TWO) == {("BR", "joker_bomb", "R", 1)}
    assert ref_classify("BB", TWO) == {("BB", "joker_bomb", "B", 1)}
    assert ref_classify("BBR", TWO) == {("BBR", "joker_bomb", "R", 1)}
    assert ref_classify("BBRR", TWO) == {("BBRR", "joker_bomb", "R", 1)}
    assert ref_classify("333BB", TWO) == set()  # jokers never a (kicker) pair
    assert ref_classify("333B", TWO) == {("333B", "trio_single", "3", 1)}
    assert ref_classify("333444BB", TWO) == {("333444BB", "plane_single", "4", 2)}
    assert ref_classify("333444555666BBRR", TWO) == {
        ("333444555666BBRR", "plane_single", "6", 4)}
    assert ref_classify("333444555666BBRR", RefRules(decks=2, jokers_both_kickers=False)) == set()
    # kickers never hold four or more cards of one rank
    assert ref_classify("333444555666KKKK", TWO) == set()
    assert ref_classify("3334445556667777", TWO) == set()
    assert ref_classify("33334455", TWO) == {("33334455", "four_two_pair", "3", 1)}
    assert ref_classify("3333344", TWO) == set()


def test_two_deck_bomb_order():
    order = ["4444", "BB", "BR", "RR", "33333", "22222", "333333", "BBR", "BRR",
             "3333333", "33333333", "22222222", "BBRR"]
    moves = []
    for cards in order:
        (m,) = ref_classify(cards, TWO)
        moves.append(m)
    for i, a in enumerate(moves):
        for j, b in enumerate(moves):
            assert ref_beats(a, b, TWO) is (i > j), (a, b)
    assert ref_beats(moves[0], ("22", "pair", "2", 1), TWO)
    assert ref_legal("2222BBRR", ("BBRR", "joker_bomb", "R", 1), TWO) == {PASS}


def test_two_deck_legal_follow():
    got = ref_legal("33334444555BR", ("22", "pair", "2", 1), TWO)
    assert got == {PASS, ("3333", "bomb", "3", 1), ("4444", "bomb", "4", 1),
                   ("BR", "joker_bomb", "R", 1)}


# ---------------------------------------------------------------------------
# Laizi (docs/rules.md §7)
# ---------------------------------------------------------------------------

def test_laizi_examples():
    w4 = RefRules(wild="4")
    assert ("489JQ", "straight", "Q", 5) in ref_classify("489JQ", w4)
    assert ("455677", "pair_chain", "7", 3) in ref_classify("455677", w4)
    assert ("466777", "plane", "7", 2) in ref_classify("466777", w4)
    assert ("3467778", "plane_single", "8", 2) not in ref_classify("3467778", w4)
    # 4+7778836: plane 777888 (the wild makes an 8) with wings 3 and 6
    assert ("34677788", "plane_single", "8", 2) in ref_classify("34677788", w4)


def test_laizi_wild_only_face_value():
    w7 = RefRules(wild="7")
    assert ref_classify("77", w7) == {("77", "pair", "7", 1)}
    assert ref_classify("7777", w7) == {("7777", "wild_bomb", "7", 1)}
    got = ref_classify("3777", w7)
    assert ("3777", "soft_bomb", "3", 1) in got
    # 777 as a trio of 4..2 with the natural 3 as kicker (never 333+3: a
    # kicker never shares the main rank) ...
    # ... and also 3+77 as the trio 333 with the third wild as a face-value
    # kicker 7 (the LZ-08 pattern), so trio mains cover 3..2.
    assert {m[2] for m in got if m[1] == "trio_single"} == set("3456789TJQKA2")
    assert got == {("3777", "soft_bomb", "3", 1)} | {
        ("3777", "trio_single", r, 1) for r in "3456789TJQKA2"}


def test_laizi_bomb_tiers():
    w7 = RefRules(wild="7")
    order = [("3337", "soft_bomb", "3", 1), ("2227", "soft_bomb", "2", 1),
             ("3333", "bomb", "3", 1), ("2222", "bomb", "2", 1),
             ("7777", "wild_bomb", "7", 1), ("BR", "rocket", "R", 1)]
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            assert ref_beats(a, b, w7) is (i > j), (a, b)
    assert ref_beats(order[0], ("22", "pair", "2", 1), w7)


def test_laizi_kicker_face_value():
    w7 = RefRules(wild="7")
    # 333+7: the wild as kicker stays a 7; it may not pose as a 4.
    assert ref_classify("3337", w7) == {("3337", "soft_bomb", "3", 1),
                                        ("3337", "trio_single", "3", 1)}
    # 33+77: trio 333 (one wild) + kicker 7 (the other wild at face value)
    assert ref_classify("3377", w7) == {("3377", "soft_bomb", "3", 1),
                                        ("3377", "trio_single", "3", 1)}
    # trio + pair of wild 7s at face value
    assert ("33377", "trio_pair", "3", 1) in ref_classify("33377", w7)
    assert ("33477", "trio_pair", "3", 1) not in ref_classify("33477", w7)


# ---------------------------------------------------------------------------
# The pruning in ref_legal / the wild-card search drops nothing: compare with
# a naive enumeration of every sub-multiset and every wild assignment.
# ---------------------------------------------------------------------------

def _naive_legal(hand, last, rules):
    h = parse_cards(hand, rules)
    moves = {PASS} if last is not None else set()
    for c in itertools.product(*[range(k + 1) for k in h]):
        if not any(c):
            continue
        if rules.wild is not None:
            readings = reference._classify_laizi(c, rules, prune=False)
        else:
            readings = reference._classify_counts(c, rules)
        for combo, main, length in readings:
            mv = (cards_str(c), combo, main, length)
            if last is None or ref_beats(mv, last, rules):
                moves.add(mv)
    return moves


def _random_follow(rng, rules, deck):
    """A last move drawn from the legal leads of a random hand."""
    leads = sorted(ref_legal("".join(rng.sample(deck, 10)), None, rules))
    return rng.choice(leads)


@pytest.mark.parametrize("rules", [
    RefRules(), RefRules.preset("rlcard"), RefRules.preset("openspiel"),
    RefRules(kicker_bomb=True), RefRules(kicker_repeat=False),
    RefRules(decks=2), RefRules(decks=2, jokers_both_kickers=False),
], ids=repr)
def test_legal_matches_naive(rules):
    rng = random.Random(repr(rules))
    deck = _deck(rules.decks)
    for i in range(25):
        hand = "".join(rng.sample(deck, rng.randint(6, 12)))
        last = None if i % 2 == 0 else _random_follow(rng, rules, deck)
        assert ref_legal(hand, last, rules) == _naive_legal(hand, last, rules), (hand, last)


@pytest.mark.parametrize("wild", list("37TA2"))
def test_laizi_legal_matches_naive(wild):
    rules = RefRules(wild=wild)
    rng = random.Random(ord(wild))
    others = [c for c in _deck() if c != wild]
    for i in range(12):
        nwild = rng.randint(1, 4)
        hand = wild * nwild + "".join(rng.sample(others, rng.randint(4, 9 - nwild)))
        last = None if i % 2 == 0 else _random_follow(rng, rules, _deck())
        assert ref_legal(hand, last, rules) == _naive_legal(hand, last, rules), (hand, last)


def test_laizi_pruned_search_matches_brute_force():
    rng = random.Random(5)
    for _ in range(400):
        wild = rng.choice(RANKS[:13])
        rules = RefRules(wild=wild)
        others = [c for c in _deck() if c != wild]
        cards = wild * rng.randint(1, 4) + "".join(rng.sample(others, rng.randint(0, 8)))
        c = parse_cards(cards)
        assert reference._classify_laizi(c, rules, True) == \
            reference._classify_laizi(c, rules, False), cards


# ---------------------------------------------------------------------------
# Speed (one deck, no wilds): CI runs the reference on hundreds of hands
# ---------------------------------------------------------------------------

def test_legal_speed():
    rng = random.Random(3)
    deck = _deck()
    t0 = time.perf_counter()
    for size in (17, 20):
        for _ in range(5):
            ref_legal("".join(rng.sample(deck, size)), None, RefRules())
    assert time.perf_counter() - t0 < 20
