"""Action-space totals per preset (DESIGN.md "Action-space totals"; docs/rules.md §2).

The totals are published by other engines and by the rule book's authors;
the kernel's enumeration of a full deck must reproduce each exactly.
"""

from __future__ import annotations

import pytest

from ddzcore import PASS, Move, Rules, action_space, IllegalMoveError, InvalidMoveError

TOTALS = {  # preset: (readings, distinct card sets)
    "standard": (29_726, 29_327),
    "rlcard": (27_471, 27_471),
    "openspiel": (26_053, 25_661),
}


@pytest.mark.parametrize("preset", sorted(TOTALS))
def test_totals(preset: str) -> None:
    space = action_space(Rules.preset(preset))
    readings, card_sets = TOTALS[preset]
    assert len(space) == readings + 1  # + pass
    assert space.card_sets() == card_sets


def test_ids_round_trip_and_are_dense() -> None:
    space = action_space()
    assert space[0] == PASS and PASS.action_id() == 0
    for i in (1, 2, 100, 5000, len(space) - 1):
        m = space[i]
        assert m.action_id() == i and Move.from_action_id(i) == m
        assert Move(str(m)) == m
    assert len({m for m in space}) == len(space)


def test_ids_are_ordered_by_combo_then_length_then_main() -> None:
    keys = [(int(m.combo), m.length, int(m.main) if m.main is not None else -1) for m in action_space()]
    assert keys == sorted(keys)


def test_outside_the_space() -> None:
    four_two = Move("333345")
    assert four_two in action_space()
    assert four_two not in action_space(Rules.preset("openspiel"))
    with pytest.raises(IllegalMoveError):
        four_two.action_id(Rules.preset("openspiel"))
    with pytest.raises(InvalidMoveError):
        Move.from_action_id(10**6)


@pytest.mark.parametrize("rules, max_cards", [
    (Rules(), 20), (Rules.preset("rlcard"), 20), (Rules.preset("openspiel"), 20),
    (Rules(kicker_repeat=False, kicker_bomb=True), 20), (Rules(decks=2), 24),
], ids=["standard", "rlcard", "openspiel", "no-repeat-bomb-kickers", "two-decks"])
def test_every_move_matches_the_reference_enumeration(rules: Rules, max_cards: int) -> None:
    """The kernel's full-deck enumeration against tests/reference.py's structural one."""
    from conftest import ref_rules
    from reference import ref_action_space

    ref = ref_action_space(ref_rules(rules), max_cards=max_cards)
    ours = {(str(m.cards), str(m.combo), str(m.main), m.length) for m in action_space(rules, max_cards)
            if not m.is_pass}
    assert ours == ref
