"""The Python value types and the generation functions (docs/rules.md §1-3)."""

from __future__ import annotations

import numpy as np
import pytest

import ddzcore
from ddzcore import (
    MOVE_DTYPE, PASS, AmbiguousMoveError, Combo, Hand, IllegalMoveError, InvalidCardsError,
    InvalidMoveError, Move, MoveList, Rank, Rules, classify, count_moves, count_moves_batch,
    legal_moves, legal_moves_array, legal_moves_batch, moves_array,
)


# -- Hand (docs/rules.md §1) ------------------------------------------------------

def test_hand_parsing_and_canonical_text() -> None:
    assert str(Hand("RB5443 3")) == "33445BR"
    assert Hand("10jqka") == Hand("TJQKA") == "TJQKA"
    assert repr(Hand("33")) == "Hand('33')"
    assert len(Hand("33445BR")) == 7 and not Hand("") and Hand("3")
    assert Hand(["3", Rank.FOUR, 14]) == Hand("34R")
    assert Hand.from_word(Hand("3TR").word) == Hand("3TR")


@pytest.mark.parametrize("text, fragment", [
    ("33x", "'x'"), ("33333", "5 cards of rank 3"), ("BB", "2 cards of rank B"), ("1", "'1'"),
])
def test_hand_errors_name_the_input(text: str, fragment: str) -> None:
    with pytest.raises(InvalidCardsError, match=fragment):
        Hand(text)


def test_hand_two_decks() -> None:
    assert str(Hand("33333333BBRR", decks=2)) == "33333333BBRR"
    with pytest.raises(InvalidCardsError):
        Hand("333333333", decks=2)
    with pytest.raises(InvalidCardsError):
        Hand.from_word(1 << 60)


def test_hand_multiset_operations() -> None:
    h = Hand("334455BR")
    assert "3" in h and Rank.BIG_JOKER in h and "6" not in h
    assert "3345" in h and "333" not in h and Hand("BR") in h
    assert h - "34" == Hand("3455BR")
    assert Hand("33") + "4" == Hand("334")
    assert Hand("33") <= h and Hand("33") < h and h >= "BR" and not (h < h)
    assert h.count("5") == 2 and h.counts()[:3] == [2, 2, 2]
    assert list(Hand("43")) == [Rank.THREE, Rank.FOUR]
    with pytest.raises(InvalidCardsError):
        Hand("3") - "4"
    with pytest.raises(InvalidCardsError):
        Hand("3333") + "3"
    assert {Hand("34"): 1}[Hand("43")] == 1


# -- Combo, Move ------------------------------------------------------------

def test_combo_names_are_the_issue_vocabulary() -> None:
    names = "pass single pair trio trio_single trio_pair straight pair_chain plane plane_single " \
            "plane_pair four_two_single four_two_pair bomb rocket"
    assert [str(c) for c in Combo][:15] == names.split()
    assert Combo.parse("plane_single") is Combo.PLANE_SINGLE
    with pytest.raises(InvalidMoveError):
        Combo.parse("airplane")


def test_move_attributes_and_round_trip() -> None:
    m = Move("444555666777|plane_single|6|3")
    assert m.cards == "444555666777" and m.combo is Combo.PLANE_SINGLE
    assert m.main is Rank.SIX and m.length == 3 and m.kickers == "777"
    assert Move(str(m)) == m and eval(repr(m), {"Move": Move}) == m
    assert Move("7777BR").kickers == "BR" and Move("7777BR").combo is Combo.FOUR_TWO_SINGLE
    assert Move("34567").main is Rank.SEVEN and Move("34567").length == 5
    assert Move("BR").combo is Combo.ROCKET and Move("BR").main is Rank.BIG_JOKER
    assert Move("pass") == PASS and Move.parse("pass") is PASS and str(PASS) == "|pass||0" and Move("|pass||0") == PASS
    assert PASS.main is None and PASS.length == 0 and PASS.kickers == ""
    assert hash(Move("33")) == hash(Move("33|pair|3|1"))


@pytest.mark.parametrize("text, error", [
    ("34", InvalidMoveError),                        # not a combination
    ("33|pair|4|1", InvalidMoveError),               # wrong main
    ("33|single|3|1", InvalidMoveError),             # wrong combo
    ("3333|trio_single|3|1", InvalidMoveError),      # a bomb is never a trio + its fourth card
    ("33|pair|3", InvalidMoveError),                 # missing field
    ("33|pear|3|1", InvalidMoveError),               # unknown combo
    ("33|pair|3|x", InvalidMoveError),               # bad length
    ("3x|pair|3|1", InvalidMoveError),               # bad cards
    ("444555666777", AmbiguousMoveError),            # three readings
])
def test_move_errors(text: str, error: type) -> None:
    with pytest.raises(error):
        Move(text)


def test_ambiguous_error_lists_readings() -> None:
    with pytest.raises(AmbiguousMoveError) as e:
        Move("333444555666")
    assert {str(m) for m in e.value.readings} == {
        "333444555666|plane|6|4", "333444555666|plane_single|5|3", "333444555666|plane_single|6|3"}
    assert isinstance(e.value, ValueError)


def test_beats() -> None:
    assert Move("8888").beats("QQ") and not Move("22").beats("8888")
    assert Move("BR").beats("2222") and not Move("2222").beats("BR")
    assert Move("3333").beats("2222BR") and not Move("444456").beats("33334455")
    assert Move("4445").beats("3336") and not Move("44455").beats("3336")
    assert not Move("45678").beats("3456789")  # same type, different length


# -- legal_moves (docs/rules.md §2-3) --------------------------------------------

def test_lead_has_no_pass_and_follow_starts_with_pass() -> None:
    lead = legal_moves("33445")
    assert PASS not in lead and Move("3") in lead and "33" in lead and "445" not in lead
    follow = legal_moves("33445", last="3")
    assert follow[0] == PASS and {str(m) for m in follow} == {"|pass||0", "4|single|4|1", "5|single|5|1"}


def test_rocket_forces_pass() -> None:
    assert [str(m) for m in legal_moves("22223456", last="BR")] == ["|pass||0"]  # even a bomb passes


def test_move_list_protocol() -> None:
    ml = legal_moves("3334445556")
    assert isinstance(ml, MoveList) and len(ml) == ml.count() and bool(ml)
    assert list(ml) == list(ml)  # re-iterable
    assert ml[1:3] == MoveList(ml.codes[1:3]) and len(ml[1:3]) == 2
    assert ml[-1] == list(ml)[-1]
    assert "zz" not in ml and 5 not in ml
    assert "3334445556" not in ml  # ambiguous text is simply not in the list
    assert "333444555|plane|5|3" in ml


def test_every_level_gives_the_same_moves() -> None:
    hand, last = "3344556677889TTJQKA2B", "345678"
    ml = legal_moves(hand, last)
    arr = legal_moves_array(hand, last)
    assert arr.dtype == MOVE_DTYPE and np.array_equal(ml.codes, arr)
    assert count_moves(hand, last) == len(ml)
    moves, offsets = legal_moves_batch([hand, hand], [last, None])
    assert np.array_equal(moves[offsets[0]:offsets[1]], arr)
    assert np.array_equal(moves[offsets[1]:offsets[2]], legal_moves_array(hand))
    assert count_moves_batch([hand, hand], moves_array([last, ""])).tolist() == [len(ml), count_moves(hand)]
    # Reusing an output buffer: moves land in it; one too small is replaced.
    buf = np.zeros(1000, MOVE_DTYPE)
    again, offsets2 = legal_moves_batch([hand, hand], [last, None], out=buf)
    assert again.base is buf and np.array_equal(again, moves) and np.array_equal(offsets2, offsets)
    small = np.zeros(3, MOVE_DTYPE)
    again, _ = legal_moves_batch([hand, hand], [last, None], out=small)
    assert again.base is not small and np.array_equal(again, moves)


def test_bad_inputs_are_typed_errors() -> None:
    with pytest.raises(InvalidCardsError):
        legal_moves("333334")
    with pytest.raises(InvalidMoveError):
        legal_moves("3334", last="34")
    with pytest.raises(AmbiguousMoveError):
        legal_moves("3334", last="333444555666")
    with pytest.raises(InvalidMoveError):
        legal_moves("3334", last="pass")
    with pytest.raises(InvalidMoveError):  # four-with-two does not exist under OpenSpiel's rules
        legal_moves("3334", last=Move("444456"), rules=Rules.preset("openspiel"))
    with pytest.raises(InvalidCardsError):
        legal_moves(Hand("33333", decks=2))
    with pytest.raises(InvalidCardsError, match=r"hands\[1\]"):
        count_moves_batch(np.array([Hand("33").word, 5 << 0], dtype=np.uint64))
    bad = np.zeros(2, MOVE_DTYPE)
    bad[1] = (Hand("34").word, 2 | (1 << 9))
    with pytest.raises(InvalidMoveError, match="last move 1"):
        legal_moves_batch(["33", "44"], bad)
    with pytest.raises(InvalidMoveError):
        legal_moves_batch(["33", "44"], bad[:1])


def test_rules_presets_and_validation() -> None:
    assert Rules.preset("standard") == Rules()
    assert Rules.preset("openspiel").four_two is False
    assert Rules.preset("rlcard", kicker_bomb=True).kicker_bomb is True
    with pytest.raises(ValueError):
        Rules.preset("nope")
    with pytest.raises(ValueError):
        Rules(decks=3)
    with pytest.raises(ValueError):
        Rules(four_two="yes")  # type: ignore[arg-type]
    assert len({Rules(), Rules.preset("standard")}) == 1


@pytest.mark.parametrize("rules, cards, readings", [
    (Rules(kicker_repeat=False), "555533", 0),
    (Rules(kicker_repeat=False), "555534", 1),
    (Rules(jokers_both_kickers=False), "666777BR", 0),
    (Rules(jokers_both_kickers=False), "666777B3", 1),
    (Rules(wing_trio_adjacent=False), "3334445556667778", 0),
    (Rules(wing_trio_adjacent=False), "QQQKKKAAA222", 1),   # 2 cannot extend a chain: still a wing
    (Rules(wing_trio_adjacent=False), "JJJQQQKKKAAA", 1),   # only the four-trio plane
    (Rules(), "JJJQQQKKKAAA", 3),
    (Rules(), "3334445556667778", 2),                       # 333..666+7778 and 444..777+3338
    (Rules(kicker_bomb=True), "3334445556667777", 1),
    (Rules(kicker_bomb=True), "33334444", 2),               # bombs in kickers lift the distinct-pairs rule
    (Rules(kicker_bomb=True), "3334446666", 1),
    (Rules(), "3334446666", 0),
    (Rules(), "3334445556667777", 0),
    (Rules(four_two=False), "333345", 0),
])
def test_kicker_switches(rules: Rules, cards: str, readings: int) -> None:
    assert len(classify(cards, rules)) == readings


def test_version() -> None:
    assert isinstance(ddzcore.__version__, str) and ddzcore.__version__.count(".") >= 2


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


@pytest.mark.parametrize("decks, limits", [(1, (4,) * 13 + (1, 1)), (2, (8,) * 13 + (2, 2))])
def test_kernel_hand_check_matches_per_rank_limits(decks: int, limits: tuple[int, ...]) -> None:
    """The kernel's branch-free deck check against a rank-by-rank one (docs/rules.md §1)."""
    import random

    rng = random.Random(decks)
    rules = Rules(decks=decks)
    for _ in range(20_000):
        counts = [rng.choice([0, 1, 2, 3, 4, 5, 8, 9, 15]) if rng.random() < 0.3 else rng.randint(0, lim)
                  for lim in limits]
        word = sum(c << (4 * r) for r, c in enumerate(counts)) | (rng.choice([0, 0, 0, 1]) << 60)
        ok = all(c <= lim for c, lim in zip(counts, limits)) and not word >> 60
        try:
            count_moves_batch(np.array([word], dtype=np.uint64), rules=rules)
            accepted = True
        except InvalidCardsError:
            accepted = False
        assert accepted == ok, hex(word)


@pytest.mark.parametrize("above, order", [
    (4, ["4444", "BR", "55555", "666666", "BBR", "7777777", "88888888", "BBRR"]),
    (5, ["4444", "55555", "BR", "666666", "BBR", "7777777", "88888888", "BBRR"]),
    (6, ["4444", "55555", "666666", "BR", "BBR", "7777777", "88888888", "BBRR"]),
])
def test_two_deck_bomb_order_and_the_two_jokers_option(above: int, order: list[str]) -> None:
    """docs/rules.md §8: 4 < two jokers < 5 < 6 < three jokers < 7 < 8 < four jokers, and where
    two jokers stand is a Rules option; same size by rank, joker bombs by big jokers."""
    rules = Rules(decks=2, two_jokers_above=above)
    moves = [Move(text, rules) for text in order]
    for i, low in enumerate(moves):
        for high in moves[i + 1:]:
            assert high.beats(low, rules) and not low.beats(high, rules), (high, low)
    assert Move("RR", rules).beats(Move("BR", rules), rules) and Move("BR", rules).beats(Move("BB", rules), rules)
    assert Move("5555", rules).beats(Move("4444", rules), rules)
    with pytest.raises(ValueError):
        Rules(decks=2, two_jokers_above=7)
