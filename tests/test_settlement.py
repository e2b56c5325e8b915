"""Multiplier, stakes, beans, escape and titles (docs/rules.md §5-6).

Every expected number below is worked out by hand from docs/rules.md, in the
comment next to it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzcore import (
    Multiplier, Room, Settlement, combine_shows, escape_multiplier, escape_penalty, settle_escape, settle_game,
    settle_no_landlord, title,
)
from ddzcore.game.settlement import TITLES, _scale_to, _split_equally

BIG = 10**9  # beans nobody runs out of


# -- the multiplier (docs/rules.md §6) ------------------------------------------------

def test_multiplier_is_the_product_of_its_parts() -> None:
    # initial 2 x 2^2 robs x 2^3 bombs x show 5 x spring 2 = 2*4*8*5*2
    assert Multiplier(initial=2, robs=2, bombs=3, show=5, spring=True).total == 640
    assert int(Multiplier(initial=2, robs=2, bombs=3, show=5, anti_spring=True)) == 640
    assert Multiplier(initial=2, robs=2, bombs=3, show=5).total == 320
    assert Multiplier().total == 1
    assert Multiplier(robs=1).total == 2 and Multiplier(bombs=1).total == 2 and Multiplier(show=3).total == 3


def test_show_combining() -> None:
    assert combine_shows([0, 0, 0]) == 1
    assert combine_shows([5, 0, 2]) == 5  # happy rules: the largest
    assert combine_shows([4, 0, 2], "product") == 8  # laizi rules: all multiplied
    assert combine_shows([3, 4, 2], "max") == 4
    with pytest.raises(ValueError):
        combine_shows([2], "sum")


# -- stakes and the worked example (FL-05) ----------------------------------------

def test_worked_example_seed_000() -> None:
    # N = 1000, X = 6, A = 50, landlord (seat 0) wins, nobody doubles.
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000, rake=50))
    assert s.stakes == (12, 6, 6)  # the landlord's stake is both farmers' X
    assert s.points == (12, -6, -6)
    assert s.transfers == (12000, -6000, -6000)  # landlord 6 x 2 x 1000; each farmer 6 x 1000
    assert s.rake == (50, 50, 50)
    assert s.net == (11950, -6050, -6050)
    assert s.winners == (0,) and s.landlord_won


def test_farmers_win_points() -> None:
    # base 2 (a bid), multiplier 3: X = 6 per farmer; landlord seat 1 loses 12.
    s = settle_game(1, False, 2, Multiplier(show=3))
    assert s.points == (6, -12, 6) and s.winners == (0, 2) and s.landlord_won is False


def test_doubling_factors_multiply_each_farmers_stake() -> None:
    # multiplier 4, base 1; landlord 0 doubles, farmer 1 doubles, farmer 2 not:
    # X1 = 4*2*2 = 16, X2 = 4*1*2 = 8, landlord 24.
    s = settle_game(0, True, 1, Multiplier(robs=2), doubles=(2, 2, 1))
    assert s.stakes == (24, 16, 8)
    assert s.points == (24, -16, -8)


# -- floors, caps and the short landlord -----------------------------------------

def test_a_loser_pays_only_what_it_has() -> None:
    # X = 6, N = 1000; farmer 1 holds 1000 beans: pays 1000; farmer 2 pays 6000.
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000), beans=[BIG, 1000, BIG])
    assert s.transfers == (7000, -1000, -6000)


def test_winner_cap_shrinks_payments_in_proportion() -> None:
    # Landlord carries 5000 but would win 12000: each farmer's 6000 shrinks to 2500.
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000), beans=[5000, BIG, BIG])
    assert s.transfers == (5000, -2500, -2500)
    # Unequal debts 8000 and 4000 (farmer 1 doubled), landlord carries 6000:
    # shares 8/12 and 4/12 of 6000.
    s = settle_game(0, True, 1, Multiplier(initial=2), doubles=(1, 2, 1), room=Room(coefficient=2000),
                    beans=[6000, BIG, BIG])
    assert s.transfers == (6000, -4000, -2000)


def test_winner_cap_can_be_switched_off() -> None:
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000, winner_cap=False),
                    beans=[5000, BIG, BIG])
    assert s.transfers == (12000, -6000, -6000)


def test_farmer_winner_cap() -> None:
    # Landlord 0 loses 6000 to each; farmer 1 carries 1000 so receives 1000.
    s = settle_game(0, False, 1, Multiplier(initial=6), room=Room(coefficient=1000), beans=[BIG, 1000, BIG])
    assert s.transfers == (-7000, 1000, 6000)


def test_short_landlord_split_equally() -> None:
    # Landlord 2 owes 6000 to each farmer but holds 5001: 2500 each, the odd
    # bean to the first farmer after the landlord (seat 0).
    s = settle_game(2, False, 1, Multiplier(initial=6), room=Room(coefficient=1000), beans=[BIG, BIG, 5001])
    assert s.transfers == (2501, 2500, -5001)
    # Unequal claims 8000 (farmer 0 doubled) and 2000 with 5000 to share: the
    # equal 2500 would exceed farmer 1's claim of 2000, so farmer 0 gets 3000.
    s = settle_game(2, False, 1, Multiplier(initial=2), doubles=(2, 1, 1), room=Room(coefficient=1000),
                    beans=[BIG, BIG, 5000])
    assert s.transfers == (3000, 2000, -5000)


def test_rake_after_transfers_never_below_zero() -> None:
    # Farmer 1 holds 6020, loses 6000: 20 left, so the rake takes 20, not 50.
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000, rake=50),
                    beans=[BIG, 6020, BIG])
    assert s.transfers == (12000, -6000, -6000)
    assert s.rake == (50, 20, 50)
    assert s.net == (11950, -6020, -6050)
    # A farmer left with nothing pays no rake at all.
    s = settle_game(0, True, 1, Multiplier(initial=6), room=Room(coefficient=1000, rake=50),
                    beans=[BIG, 300, BIG])
    assert s.transfers == (6300, -300, -6000) and s.rake == (50, 0, 50)


def test_scale_and_split_helpers() -> None:
    # 7 and 6 scaled to 10: exact 70/13 = 5.38 and 60/13 = 4.62 -> 5, 4 and
    # the leftover bean to the larger remainder (60 % 13 = 8 > 70 % 13 = 5).
    assert _scale_to(10, [7, 6]) == [5, 5]
    assert _scale_to(20, [7, 6]) == [7, 6]
    assert _split_equally(7, [10, 10]) == [4, 3]
    assert _split_equally(7, [2, 10]) == [2, 5]
    assert _split_equally(0, [3, 3]) == [0, 0]


# -- escape (docs/rules.md §6) ---------------------------------------------------------

@pytest.mark.parametrize("landlord, m, points", [
    (True, 1, 40), (True, 9, 40),      # S = base 1 x 2 opponents; 20 x S when M < 10
    (True, 10, 80), (True, 16, 128),   # 4 x S x M from M = 10 on
    (False, 9, 10), (False, 10, 20), (False, 32, 64),  # farmer (S = 1): 10 x S, or 2 x S x M
])
def test_escape_penalty_branches(landlord: bool, m: int, points: int) -> None:
    s = 2 if landlord else 1
    assert escape_penalty(landlord, s, m) == points
    assert escape_penalty(landlord, 3 * s, m) == 3 * points


def test_escape_multiplier() -> None:
    # robs x show x 2 per bomb: one rob, show 5, two bombs -> 2 * 5 * 4
    assert escape_multiplier(1, 5, 2) == 40
    assert escape_multiplier(0, 1, 0) == 1


def test_fl07_escape_numbers() -> None:
    # N = 100, base 1, one rob, one bomb in the hands: M = 2 * 2 = 4 < 10.
    m = escape_multiplier(1, 1, 1)
    assert m == 4
    s = settle_escape(0, 0, 1, m, room=Room(coefficient=100))
    assert s.points == (-40, 20, 20) and s.transfers == (-4000, 2000, 2000)  # 1 x 100 x 2 x 20
    s = settle_escape(1, 0, 1, m, room=Room(coefficient=100))
    assert s.points == (10, -10, 0) and s.transfers == (1000, -1000, 0)  # 1 x 100 x 10, teammate 0
    assert s.escaped == 1 and s.winners == (0,) and s.escape_multiplier == 4


def test_escape_before_a_landlord() -> None:
    # Charged as a farmer with M = 1: 10 points, the other two share.
    s = settle_escape(2, None, 3, 99, room=Room(coefficient=10, rake=1))
    assert s.points == (5, 5, -10)
    assert s.transfers == (50, 50, -100) and s.rake == (1, 1, 1) and s.net == (49, 49, -101)


def test_escape_floors() -> None:
    # The landlord escapes owing 4000 but holds 1001: 501 and 500.
    s = settle_escape(0, 0, 1, 4, room=Room(coefficient=100), beans=[1001, BIG, BIG])
    assert s.transfers == (-1001, 501, 500)


def test_no_landlord_is_all_zero() -> None:
    s = settle_no_landlord()
    assert s.points == s.transfers == s.rake == s.net == (0, 0, 0) and s.landlord is None and not s.winners


def test_settlement_dict_round_trip() -> None:
    s = settle_game(1, True, 2, Multiplier(robs=1, bombs=2, show=4, spring=True), doubles=(2, 1, 2),
                    room=Room(coefficient=7, rake=3), beans=[100, 5000, 20])
    assert Settlement.from_dict(s.to_dict()) == s


# -- room ---------------------------------------------------------------------------

def test_doubling_eligibility() -> None:
    room = Room(double_threshold=1000)
    beans = [2000, 2000, 1000]
    assert not room.may_double(0, 0, beans)  # landlord: every player must exceed 1000
    assert room.may_double(1, 0, beans)  # farmer: itself and the landlord
    assert not room.may_double(2, 0, beans)  # holds exactly 1000: not more
    assert not room.may_double(1, 2, beans)  # the landlord (seat 2) holds too few
    assert room.may_double(0, 0, None)  # unknown beans: everyone may


def test_room_validation() -> None:
    with pytest.raises(ValueError):
        Room(coefficient=0)
    with pytest.raises(ValueError):
        Room(rake=-1)
    with pytest.raises(ValueError):
        Room(winner_cap=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        settle_game(0, True, 1, Multiplier(), beans=[1, 2])


# -- titles ----------------------------------------------------------------------------

@pytest.mark.parametrize("points, name", [
    (-50, "包身工"), (0, "包身工"), (29, "包身工"), (30, "短工"), (59, "短工"), (60, "长工"), (90, "佃户"),
    (180, "贫农"), (320, "渔夫"), (530, "猎人"), (840, "中农"), (1150, "富农"), (1600, "掌柜"), (2300, "商人"),
    (3450, "衙役"), (5000, "小财主"), (6900, "大财主"), (9200, "小地主"), (12600, "大地主"), (17700, "知县"),
    (23000, "通判"), (32200, "知府"), (46000, "总督"), (69000, "巡抚"), (103000, "丞相"), (160999, "丞相"),
    (161000, "帝王"), (10**9, "帝王"),
])
def test_titles(points: int, name: str) -> None:
    assert title(points) == name


def test_titles_table_is_increasing() -> None:
    assert len(TITLES) == 23 and [t[0] for t in TITLES] == sorted({t[0] for t in TITLES})
    assert title(161000, english=True) == "emperor"


# -- conservation (property) ---------------------------------------------------------

beans_st = st.one_of(st.none(), st.lists(st.integers(0, 50_000), min_size=3, max_size=3))


@settings(max_examples=400, deadline=None)
@given(landlord=st.integers(0, 2), won=st.booleans(), base=st.integers(1, 3), robs=st.integers(0, 3),
       bombs=st.integers(0, 4), show=st.sampled_from([1, 2, 3, 4, 5]), spring=st.booleans(),
       doubles=st.tuples(*[st.sampled_from([1, 2])] * 3), n=st.integers(1, 2000), rake=st.integers(0, 500),
       cap=st.booleans(), beans=beans_st)
def test_settlement_conserves_beans(landlord: int, won: bool, base: int, robs: int, bombs: int, show: int,
                                    spring: bool, doubles: tuple, n: int, rake: int, cap: bool,
                                    beans: "list[int] | None") -> None:
    m = Multiplier(robs=robs, bombs=bombs, show=show, spring=spring)
    s = settle_game(landlord, won, base, m, doubles, Room(coefficient=n, rake=rake, winner_cap=cap), beans)
    check_settlement(s, beans, rake, cap)


@settings(max_examples=300, deadline=None)
@given(escaper=st.integers(0, 2), landlord=st.one_of(st.none(), st.integers(0, 2)), m=st.integers(1, 64),
       n=st.integers(1, 2000), rake=st.integers(0, 500), cap=st.booleans(), beans=beans_st)
def test_escape_conserves_beans(escaper: int, landlord: "int | None", m: int, n: int, rake: int, cap: bool,
                                beans: "list[int] | None") -> None:
    s = settle_escape(escaper, landlord, 1, m, room=Room(coefficient=n, rake=rake, winner_cap=cap), beans=beans)
    check_settlement(s, beans, rake, cap)
    if landlord is not None and escaper != landlord:
        teammate = 3 - escaper - landlord
        assert s.transfers[teammate] == 0 and s.points[teammate] == 0


def check_settlement(s: Settlement, beans: "list[int] | None", rake: int, cap: bool) -> None:
    assert sum(s.points) == 0
    assert sum(s.transfers) == 0  # beans only move between players ...
    assert sum(s.net) == -sum(s.rake)  # ... apart from the rake
    assert all(0 <= r <= rake for r in s.rake)
    for seat in range(3):
        assert s.net[seat] == s.transfers[seat] - s.rake[seat]
        # nobody pays when winning, nobody receives when losing
        assert s.transfers[seat] * s.points[seat] >= 0
        if beans is not None:
            assert beans[seat] + s.net[seat] >= 0  # floors at zero
            if cap:
                assert s.transfers[seat] <= beans[seat]  # winners' cap
        else:
            assert s.rake[seat] == rake
