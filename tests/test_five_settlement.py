"""Five-player settlement (docs/rules.md §8; beans as docs/rules.md §6).

``S(f, l) = base × multiplier × dbl(f) × dbl(l)``, halved with two
landlords; each player wins or loses the sum of its stakes.  Every expected
number is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzcore import FiveMultiplier, FiveSettlement, Room, settle_five
from ddzcore.game.settlement import _side_transfers, _transfers

BIG = 10**9


def test_multiplier_parts() -> None:
    # initial 3 x 2^2 bombs x 2 reveal x 2 spring = 48
    assert FiveMultiplier(initial=3, bombs=2, reveal=True, spring=True).total == 48
    assert int(FiveMultiplier(bombs=1)) == 2 and FiveMultiplier().total == 1


def test_two_landlords_without_doubling_farmer_x_landlord_one_and_a_half_x() -> None:
    # landlords 0 and 2 win, multiplier 3: X = 3; S = 3/2 per pair.
    # Each farmer: 2 pairs = 3 = X; each landlord: 3 pairs = 4.5 = 1.5X.
    s = settle_five((0, 2), True, 1, FiveMultiplier(initial=3), room=Room(coefficient=100, rake=10))
    assert s.stakes == (4.5, 3.0, 4.5, 3.0, 3.0)
    assert s.points == (4.5, -3.0, 4.5, -3.0, -3.0) and sum(s.points) == 0
    assert s.winners == (0, 2) and s.landlord_won and s.landlords == (0, 2)
    # beans: 1.5 x 100 = 150 per pair; a farmer pays 300, a landlord gets 450; rake 10 each
    assert s.transfers == (450, -300, 450, -300, -300)
    assert s.rake == (10,) * 5 and s.net == (440, -310, 440, -310, -310)


def test_one_landlord_farmer_x_landlord_four_x() -> None:
    # landlord 3 loses alone, multiplier 2: each farmer +2, the landlord -8; N = 1000
    s = settle_five((3,), False, 1, FiveMultiplier(bombs=1), room=Room(coefficient=1000))
    assert s.points == (2.0, 2.0, 2.0, -8.0, 2.0) and s.winners == (0, 1, 2, 4) and not s.landlord_won
    assert s.transfers == (2000, 2000, 2000, -8000, 2000) and s.net == s.transfers


def test_doubling_factors_multiply_each_pair() -> None:
    # landlords 0 (doubled) and 1 lose, multiplier 2, farmer 2 doubled: S(f, l) = 2 x dbl f x dbl l / 2.
    # farmer 2: S(2,0) = 4, S(2,1) = 2 -> +6; farmers 3, 4: 2 + 1 = +3;
    # landlord 0: 4 + 2 + 2 = -8; landlord 1: 2 + 1 + 1 = -4.
    s = settle_five((0, 1), False, 1, FiveMultiplier(initial=2), doubles=(2, 1, 2, 1, 1))
    assert s.stakes == (8.0, 4.0, 6.0, 3.0, 3.0)
    assert s.points == (-8.0, -4.0, 6.0, 3.0, 3.0)
    # one landlord doubled, one farmer doubled, multiplier 1: farmer 1: 2 x 2 = 4; others 2; landlord 10
    s = settle_five((0,), True, 1, FiveMultiplier(), doubles=(2, 2, 1, 1, 1))
    assert s.points == (10.0, -4.0, -2.0, -2.0, -2.0)


def test_half_points_move_no_bean_at_n_1() -> None:
    # two landlords, multiplier 1: S = 0.5 per pair, 0.5 x N = 0.5 beans, rounded down to 0 (N = 1)
    s = settle_five((1, 4), True, 1, FiveMultiplier())
    assert s.points == (-1.0, 1.5, -1.0, -1.0, 1.5) and s.transfers == (0,) * 5
    # N = 3: 1.5 beans per pair rounded down to 1: farmers -2, landlords +3
    s = settle_five((1, 4), True, 1, FiveMultiplier(), room=Room(coefficient=3))
    assert s.transfers == (-2, 3, -2, -2, 3)


def test_floors_and_the_winners_cap_with_two_landlords() -> None:
    # Landlords 0 and 1 win, multiplier 2: S = 1 per pair = 100 beans (N = 100), rake 20.
    # Farmer 2 has 50: owes 200, pays 50, split equally: 25 to each landlord (floors first: the
    # payers are the larger side).  Landlord 0 carried 120: it would get 25 + 100 + 100 = 225, so
    # the payments shrink in proportion to 120: 25*120/225 = 13.3, 100*120/225 = 53.3 (twice);
    # 13 + 53 + 53 = 119, the leftover bean goes to the earliest payer (equal remainders): 14, 53, 53.
    beans = [120, BIG, 50, BIG, BIG]
    s = settle_five((0, 1), True, 1, FiveMultiplier(initial=2), room=Room(coefficient=100, rake=20), beans=beans)
    assert s.transfers == (120, 225, -39, -153, -153)
    # rake after transfers, never below zero: farmer 2 has 50 - 39 = 11 left
    assert s.rake == (20, 20, 11, 20, 20) and s.net == (100, 205, -50, -173, -173)


def test_the_winners_cap_binds_before_the_losers_floors_when_farmers_win() -> None:
    # Landlords 0 and 1 lose, S = 1 per pair = 100 beans.  Farmer 2 carried 150: its 200 shrink to
    # 150, 75 from each landlord (the receivers are the larger side: the cap first).
    beans = [BIG, BIG, 150, BIG, BIG]
    s = settle_five((0, 1), False, 1, FiveMultiplier(initial=2), room=Room(coefficient=100), beans=beans)
    assert s.transfers == (-275, -275, 150, 200, 200)
    # without the cap option farmer 2 gets all 200
    s = settle_five((0, 1), False, 1, FiveMultiplier(initial=2), room=Room(coefficient=100, winner_cap=False),
                    beans=beans)
    assert s.transfers == (-300, -300, 200, 200, 200)


def test_a_lone_landlord_short_of_beans_is_split_equally() -> None:
    # Landlord 0 loses alone, S = 1 per farmer = 100 beans; it has 150 for 400 owed: 150 / 4 = 37.5
    # each, 37 each and the 2 leftover beans to the earliest farmers (docs/rules.md §6: split equally).
    s = settle_five((0,), False, 1, FiveMultiplier(), room=Room(coefficient=100), beans=[150, BIG, BIG, BIG, BIG])
    assert s.transfers == (-150, 38, 38, 37, 37)


def test_bad_arguments() -> None:
    for lords in [(), (0, 0), (0, 1, 2), (5,), (True,)]:
        with pytest.raises(ValueError):
            settle_five(lords, True, 1, FiveMultiplier())
    with pytest.raises(ValueError):
        settle_five((0,), True, 1, FiveMultiplier(), doubles=(1, 1, 1))
    with pytest.raises(ValueError):
        settle_five((0,), True, 1, FiveMultiplier(), doubles=(1, 3, 1, 1, 1))
    with pytest.raises(ValueError):
        settle_five((0,), True, 1, FiveMultiplier(), beans=[1, 2, 3])


def test_to_dict_round_trips() -> None:
    s = settle_five((0, 2), False, 1, FiveMultiplier(initial=2, bombs=1, reveal=True), doubles=(1, 2, 1, 1, 2),
                    room=Room(coefficient=10, rake=3), beans=[100, 5, 1000, 0, 60])
    assert FiveSettlement.from_dict(s.to_dict()) == s
    assert sum(s.transfers) == 0 and all(r >= 0 for r in s.rake)


@settings(max_examples=300, deadline=None)
@given(one=st.integers(0, 2), one_pays=st.booleans(), debts=st.lists(st.integers(0, 500), min_size=2, max_size=2),
       beans=st.lists(st.integers(0, 600), min_size=3, max_size=3), cap=st.booleans())
def test_side_transfers_are_the_three_player_rule_when_one_side_is_one_player(
        one: int, one_pays: bool, debts: list[int], beans: list[int], cap: bool) -> None:
    others = [(one + 1) % 3, (one + 2) % 3]
    if one_pays:
        owed = {(one, q): d for q, d in zip(others, debts)}
        args = ([one], others)
    else:
        owed = {(p, one): d for p, d in zip(others, debts)}
        args = (others, [one])
    assert _side_transfers(3, *args, owed, beans, cap) == _transfers(*args, owed, beans, cap)


@settings(max_examples=300, deadline=None)
@given(lords=st.lists(st.integers(0, 4), min_size=1, max_size=2, unique=True), won=st.booleans(),
       bombs=st.integers(0, 4), dbl=st.lists(st.sampled_from([1, 2]), min_size=5, max_size=5),
       beans=st.one_of(st.none(), st.lists(st.integers(0, 3000), min_size=5, max_size=5)),
       n=st.sampled_from([1, 10, 100]), rake=st.integers(0, 50), cap=st.booleans())
def test_settlement_invariants(lords: list[int], won: bool, bombs: int, dbl: list[int], beans: "list[int] | None",
                               n: int, rake: int, cap: bool) -> None:
    s = settle_five(lords, won, 1, FiveMultiplier(bombs=bombs), dbl, Room(coefficient=n, rake=rake, winner_cap=cap),
                    beans)
    assert sum(s.points) == 0 and sum(s.transfers) == 0
    for seat in range(5):
        winner = seat in s.winners
        assert (s.points[seat] > 0) == winner
        assert (s.transfers[seat] >= 0) if winner else (s.transfers[seat] <= 0)
        assert abs(s.transfers[seat]) <= s.stakes[seat] * n  # never more than the stake
        if beans is not None:
            assert beans[seat] + s.net[seat] >= 0  # nobody below zero
            if cap and winner:
                assert s.transfers[seat] <= beans[seat]  # winners' cap
