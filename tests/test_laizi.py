"""Laizi (癞子) move generation: docs/rules.md §7.

Expected readings below are worked out by hand from the rule text; the
differential tests check the rest against tests/reference.py.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ddzcore import Combo, Hand, Move, Rank, Rules, classify, count_moves, legal_moves
from ddzcore.tools.cli import main


def readings(cards: str, wild: str) -> set[tuple[str, str, int]]:
    return {(str(m.combo), str(m.main), m.length) for m in classify(cards, Rules(wild=wild))}


@pytest.mark.parametrize("cards, reading", [
    ("489JQ", ("straight", "Q", 5)),          # 4+89JQ: the 4 is the 10
    ("455677", ("pair_chain", "7", 3)),       # 4+55677: the 4 is a 6
    ("466777", ("plane", "7", 2)),            # 4+66777: the 4 is a 6
    ("34677788", ("plane_single", "8", 2)),   # 4+7778836: the 4 is an 8, wings 3 and 6
])
def test_seed_examples_with_wild_four(cards: str, reading: tuple[str, str, int]) -> None:
    assert reading in readings(cards, "4")


def test_wild_cards_alone_are_face_value() -> None:
    assert readings("77", "7") == {("pair", "7", 1)}
    assert readings("777", "7") == {("trio", "7", 1)}
    assert readings("7777", "7") == {("wild_bomb", "7", 1)}
    assert [str(m) for m in legal_moves("7", None, Rules(wild="7"))] == ["7|single|7|1"]


def test_wild_cards_make_a_whole_part_inside_a_larger_move() -> None:
    # With 7 wild, 777+3: a trio of any rank 4..2 with the single 3 (not of 3s),
    # the soft bomb 3333, and (as LZ-08's 333+5) the trio 3+77 with the third 7
    # as a face-value kicker.
    got = readings("3777", "7")
    trios = {("trio_single", r, 1) for r in "456789TJQKA2"}
    assert got == trios | {("soft_bomb", "3", 1), ("trio_single", "3", 1)}


def test_kickers_use_wild_cards_at_face_value() -> None:
    m = Move("3335|trio_single|3|1", Rules(wild="5"))
    assert m.kickers == "5" and m.stand_ins == ()
    m = Move("34677788|plane_single|8|2", Rules(wild="4"))
    assert m.stand_ins == (Rank.EIGHT,) and m.wild is Rank.FOUR and m.kickers == "36"
    assert ("pair", "5", 1) not in readings("5B", "5") and not readings("B9", "9")  # never a joker


def test_move_records_what_each_wild_card_stood_for() -> None:
    low, high = sorted(classify("5TJQK", Rules(wild="5")), key=lambda m: m.main)
    assert (low.main, low.stand_ins) == (Rank.KING, (Rank.NINE,))
    assert (high.main, high.stand_ins) == (Rank.ACE, (Rank.ACE,))
    soft = Move("3555|soft_bomb|3|1", Rules(wild="5"))
    assert soft.stand_ins == (Rank.THREE,) * 3 and soft.is_bomb
    assert Move(str(soft), Rules(wild="5")) == soft


def test_bomb_tiers() -> None:
    rules = Rules(wild="5")
    soft_a, soft_3 = Move("AAA5|soft_bomb|A|1", rules), Move("3335|soft_bomb|3|1", rules)
    hard_3, wild = Move("3333", rules), Move("5555|wild_bomb|5|1", rules)
    rocket = Move("BR", rules)
    order = [soft_3, soft_a, hard_3, wild, rocket]
    for i, lower in enumerate(order):
        for higher in order[i + 1:]:
            assert higher.beats(lower, rules) and not lower.beats(higher, rules)
    assert Move("3335|soft_bomb|3|1", rules).beats("22", rules)


def test_follow_needs_a_higher_rank_with_or_without_wild_cards() -> None:
    rules = Rules(wild="7")
    got = {str(m) for m in legal_moves("7Q3", "JJ", rules)}
    assert got == {"|pass||0", "7Q|pair|Q|1"}


def test_no_duplicate_moves_from_equivalent_substitutions() -> None:
    rules = Rules(wild="9")
    for hand in ("3456789TJQKA2B", "99993344556677", "9933344455566677"):
        moves = list(legal_moves(hand, None, rules))
        assert len(moves) == len(set(moves)) == count_moves(hand, None, rules)
        assert len({(m.cards, m.combo, m.main, m.length) for m in moves}) == len(moves)


def test_rules_wild_validation() -> None:
    assert Rules(wild="10").wild == "T" and Rules(wild=Rank.ACE).wild == "A"
    for bad in ("B", "R", "x", 15):
        with pytest.raises(ValueError):
            Rules(wild=bad)
    with pytest.raises(ValueError):
        Rules(wild="7", decks=2)


def test_cli_wild_option() -> None:
    r = CliRunner().invoke(main, ["classify", "5TJQK", "--wild", "5"])
    assert r.exit_code == 0 and "straight" in r.output and "A" in r.output
    r = CliRunner().invoke(main, ["moves", "33", "--wild", "B"])
    assert r.exit_code == 2 and "wild" in r.output


def test_hand_without_wild_cards_moves_as_standard() -> None:
    no_seven = Hand("345689TJQKA2B")
    assert list(legal_moves(no_seven, None, Rules(wild="7"))) == list(legal_moves(no_seven))
    assert all(m.combo is not Combo.SOFT_BOMB for m in legal_moves(no_seven, None, Rules(wild="7")))
