"""Five-player escape (逃跑, docs/rules.md §8 with §6's formula) and the
five-player dense action ids, both ways.

The escape figures are worked by hand from the rule book: S is the escaper's
stake per unit of multiplier (halved with two landlords), M the escape
multiplier (2 per doubling bomb of the deal, 2 for a chosen reveal), the
charge 20 × S or 10 × S below M = 10, 4 × S × M or 2 × S × M from it, shared
by the other side.
"""

from __future__ import annotations

import random

import pytest

from ddzcore import FiveAction, FiveGame, IllegalActionError, InvalidArgumentError, InvalidMoveError, Move, Room
from ddzcore.game.base import Termination
from ddzcore.game.records import dumps, loads, replay, to_record
from ddzcore.game.settlement import settle_five_escape

ROOM = Room(coefficient=100, initial_multiplier=5)


# -- the settlement, worked by hand (docs/rules.md §8's example) ----------------------------------

def test_open_landlord_escapes_below_ten() -> None:
    # S = 1 × 5 × (1 + 1 + 1) / 2 = 7.5; 20 × 7.5 = 150 points, 50 to each farmer
    s = settle_five_escape(0, (0, 2), 1, 2, room=ROOM)
    assert s.points == (-150.0, 50.0, 0.0, 50.0, 50.0)
    assert s.transfers == (-15000, 5000, 0, 5000, 5000)
    assert s.winners == (1, 3, 4) and s.escaped == 0 and s.escape_multiplier == 2
    assert sum(s.points) == 0 and s.landlord_won is False


def test_farmer_and_lone_landlord_escape() -> None:
    # a farmer against two landlords: S = 5 × (1 + 1) / 2 = 5; 10 × 5 = 50 points, 25 to each landlord
    s = settle_five_escape(1, (0, 2), 1, 2, room=ROOM)
    assert s.points == (25.0, -50.0, 25.0, 0.0, 0.0) and s.winners == (0, 2)
    # a lone landlord: S = 5 × 4 = 20; 20 × 20 = 400 points, 100 to each of the four farmers
    s = settle_five_escape(0, (0,), 1, 2, room=ROOM)
    assert s.points == (-400.0, 100.0, 100.0, 100.0, 100.0)
    # a farmer against a lone landlord: S = 5; 50 points, all to the landlord
    s = settle_five_escape(3, (0,), 1, 2, room=ROOM)
    assert s.points == (50.0, 0.0, 0.0, -50.0, 0.0)


def test_escape_from_ten_and_with_doubling() -> None:
    # M = 32 >= 10: 4 × 7.5 × 32 = 960 points, 320 to each farmer
    s = settle_five_escape(0, (0, 2), 1, 32, room=ROOM)
    assert s.points == (-960.0, 320.0, 0.0, 320.0, 320.0)
    # M = 10 exactly takes the second branch: farmer 2 × 5 × 10 = 100
    assert settle_five_escape(1, (0, 2), 1, 10, room=ROOM).points[1] == -100.0
    # landlord 0 and farmer 1 doubled; farmer 1 escapes: S = 5 × (2×2 + 2×1) / 2 = 15; 150 points
    s = settle_five_escape(1, (0, 2), 1, 2, doubles=(2, 2, 1, 1, 1), room=ROOM)
    assert s.points == (75.0, -150.0, 75.0, 0.0, 0.0)


def test_escape_beans_floor_and_checks() -> None:
    # 15000 beans owed, 100 held: all 100 go, split equally among the three farmers (34, 33, 33)
    rich = 10**6
    s = settle_five_escape(0, (0, 2), 1, 2, room=ROOM, beans=[100, rich, 0, rich, rich])
    assert s.transfers == (-100, 34, 0, 33, 33)
    # the winners' cap: a farmer who carried 1000 beans receives at most 1000 of its 5000
    s = settle_five_escape(0, (0, 2), 1, 2, room=ROOM, beans=[rich, 1000, 0, rich, rich])
    assert s.transfers == (-11000, 1000, 0, 5000, 5000)
    with pytest.raises(InvalidArgumentError, match="escaper"):
        settle_five_escape(5, (0, 2), 1, 2)
    with pytest.raises(InvalidArgumentError, match="landlords"):
        settle_five_escape(0, (0, 0), 1, 2)


# -- the game ------------------------------------------------------------------------------------

def _deal(nines: bool = False) -> list[str]:
    """Ranks dealt round robin (at most two of a rank a hand), bottom ``BRR``:
    seat 0 with the bottom holds three jokers, the deal's one doubling bomb.
    ``nines``: seat 3 also gets five 9s (seats 0, 1, 2 each swap a 9 for a
    Q, a T and a 7 of seat 3's), a second doubling bomb."""
    ranks = [r for r in "3456789TJQKA2" for _ in range(8)] + ["B", "B", "R", "R"]
    hands = [[r for i, r in enumerate(ranks[:105]) if i % 5 == s] for s in range(5)]
    if nines:
        for seat, rank in ((0, "Q"), (1, "T"), (2, "7")):
            hands[seat].remove("9")
            hands[3].append("9")
            hands[3].remove(rank)
            hands[seat].append(rank)
    return ["".join(h) for h in hands] + ["BRR"]


def _game(nines: bool = False) -> FiveGame:
    # bare ranks take S H C D of deck 0 first, in seat order: seat 0 holds S3, seat 2 its twin S3'
    g = FiveGame(deal=_deal(nines), marked="S3", room=ROOM)
    assert g.landlords == (0, 2)
    return g


def test_deal_bombs_and_escape_multiplier() -> None:
    g = _game()
    assert g.deal_bombs() == 1 and g.escape_multiplier() == 2  # three jokers
    g2 = _game(nines=True)
    assert g2.deal_bombs() == 2 and g2.escape_multiplier() == 4
    g2.apply(FiveAction.REVEAL)  # the open landlord reveals: x2
    assert g2.escape_multiplier() == 8


@pytest.mark.parametrize("phase", ["reveal", "double", "play"])
def test_escape_in_every_phase(phase: str) -> None:
    g = _game()
    if phase != "reveal":
        for _ in range(5):
            g.apply(FiveAction.NO_REVEAL)
    if phase == "play":
        for _ in range(5):
            g.apply(FiveAction.NO_DOUBLE)
        g.apply(g.legal_actions()[-1])
    before = g.copy()
    g.escape(2)  # the hidden landlord, not the player to act: a landlord's charge, 150 points
    assert g.is_terminal() and g.current_player() == -1 and g.escaped == 2
    s = g.settlement()
    assert s.points == (0.0, 50.0, -150.0, 50.0, 50.0) and s.escaped == 2
    assert g.returns() == [0.0, 50.0, -150.0, 50.0, 50.0]
    o = g.outcome
    assert o is not None and o.termination is Termination.ESCAPE and o.escaped == 2 and o.winner is None
    assert o.winners == (1, 3, 4) and o.landlords == (0, 2) and o.landlords_won is False
    assert g.pop() is FiveAction.ESCAPE and g == before and g.outcome is None


def test_escape_after_doubling() -> None:
    g = _game()
    for _ in range(5):
        g.apply(FiveAction.NO_REVEAL)
    g.apply(FiveAction.DOUBLE)  # the open landlord doubles; then farmer 1 leaves
    g.escape(1)  # S = 5 × (1×2 + 1×1) / 2 = 7.5; 10 × 7.5 = 75 points, 37.5 to each landlord
    assert g.settlement().points == (37.5, -75.0, 37.5, 0.0, 0.0)
    assert g.settlement().transfers == (3750, -7500, 3750, 0, 0)


def test_escape_records_replay() -> None:
    g = _game()
    g.apply(FiveAction.NO_REVEAL)
    g.escape(4)
    rec = to_record(g)
    assert rec["actions"][-1] == "4 escape" and rec["result"]["escaped"] == 4
    again = replay(rec)
    assert again == g and again.settlement() == g.settlement() and loads(dumps(g)) == g
    with pytest.raises(IllegalActionError, match="over"):
        g.escape(0)


# -- dense action ids -----------------------------------------------------------------------------

def test_five_action_ids_both_ways() -> None:
    rng = random.Random(5)
    seen = 0
    for seed in range(6):
        g = FiveGame(seed=seed)
        while not g.is_terminal():
            legal = list(g.legal_actions())
            ids = g.legal_action_ids()
            assert ids == sorted(ids) and len(set(ids)) == len(legal)
            for a in legal:
                i = g.action_id(a)
                back = g.action_from_id(i)
                assert back == a and type(back) is type(a) and i in ids
                if isinstance(a, Move):
                    assert getattr(back, "marked", 0) == getattr(a, "marked", 0)
                seen += 1
            g.apply(legal[rng.randrange(len(legal))])
    assert seen > 1000


def test_five_action_ids_layout() -> None:
    g = FiveGame(seed=1)
    assert g.action_id(FiveAction.REVEAL) == 14 and g.action_from_id(13) is FiveAction.NO_REVEAL
    assert g.action_id(Move("pass")) == 16  # MOVE_ID_BASE: pass is index 0, no marked card
    # a plain move and its marked variants are neighbours: 16 + 3 × index + k
    three = Move("3")
    base_id = g.action_id(three)
    assert (base_id - 16) % 3 == 0
    with pytest.raises(InvalidMoveError):
        g.action_from_id(10**9)
