"""The game-flow cases FL-01.. (docs/rules.md §3-6), each with a concrete deal that produces it, and
escape (docs/rules.md §6) in every phase.  Default (happy) rules throughout: every
show and doubling chance is offered and declined unless the case says so."""

from __future__ import annotations

import pytest

from ddzcore import PASS, Action, Game, Hand, Move, Phase, Room, Rules

from test_game import DEAL_A, DEAL_B, DECK, act, no_shows, to_play


def landlord_game(deal: tuple, first: int, *bidding: object, room: Room | None = None,
                  rules: Rules | None = None) -> Game:
    """Default rules: no shows, the given calls/robs, no doubling: in play."""
    g = Game(rules, deal=deal, first=first, room=room)
    no_shows(g)
    act(g, *bidding)
    to_play(g)
    assert g.phase == Phase.PLAY
    return g


# -- FL-01 anti-spring --------------------------------------------------------------

def test_fl01_anti_spring() -> None:
    g = landlord_game(DEAL_B, 0, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    act(g, "3", "2", PASS, PASS)  # the landlord's opening lead, never to play again
    act(g, "3456789TJQKA", PASS, PASS, "KK", PASS, PASS, "A", PASS, PASS, "2")
    assert g.is_terminal() and g.winner == 1
    m = g.multiplier()
    assert m.anti_spring and not m.spring and m.total == 2
    assert g.returns() == [-4, 2, 2]
    s = g.settlement()
    assert s.points == (-4, 2, 2) and s.transfers == (-4, 2, 2) and s.rake == (0, 0, 0)


# -- FL-02 spring counted once ---------------------------------------------------------

def test_fl02a_spring() -> None:
    g = landlord_game(DEAL_B, 0, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    for lead in ("333444555666777", "88", "9", "B", "R"):
        act(g, lead)
        if not g.is_terminal():
            act(g, PASS, PASS)
    assert g.winner == 0 and g.multiplier().spring and g.multiplier().total == 2
    assert g.returns() == [4, -2, -2]


def test_fl02b_one_farmer_card_is_no_spring() -> None:
    g = landlord_game(DEAL_B, 0, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    act(g, "9", "2", PASS, "R", PASS, PASS)  # one farmer card; R as a single, not a bomb
    for lead in ("333444555666777", "88", "B"):
        act(g, lead)
        if not g.is_terminal():
            act(g, PASS, PASS)
    assert g.winner == 0 and not g.multiplier().spring and g.multiplier().total == 1
    assert g.returns() == [2, -1, -1]


def test_fl02c_out_on_the_opening_lead_is_one_spring() -> None:
    rest = str(Hand(DECK) - Hand("33344455566677789") - Hand("TJQ"))
    deal = ("33344455566677789", rest[:17], rest[17:], "TJQ")
    g = landlord_game(deal, 0, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.hand(0) == "33344455566677789TJQ"
    g.apply("33344455566677789TJQ|plane_single|7|5")  # a five-trio plane with five single wings
    m = g.multiplier()
    assert g.is_terminal() and m.spring and not m.anti_spring and m.total == 2  # x2 once, not x4
    assert g.returns() == [4, -2, -2]


# -- FL-03 everybody passes the call ------------------------------------------------------

def test_fl03_all_pass_redeals() -> None:
    g = Game(deal=DEAL_A, first=0, seed=3)
    no_shows(g)
    act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g.redeals == 1 and not g.is_terminal() and g.landlord is None
    assert g.phase == Phase.SHOW_START  # the round starts over, with a new deal
    assert g.hand(0) != Hand(DEAL_A[0])
    assert "redeals 1" in str(g) and g.observation(0).redeals == 1
    from ddzcore.game.records import dumps, loads
    assert loads(dumps(g)) == g  # serialising that state works (and round-trips)
    # and the game goes on to an end
    no_shows(g)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.landlord == g.first_caller


def test_fl03_all_pass_with_a_shower() -> None:
    g = Game(deal=DEAL_A, first=0)
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.NO_SHOW)  # before the deal
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.NO_SHOW)  # early in the deal
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.SHOW)  # seat 2 shows late (x3)
    assert g.current_player() == 2  # the shower calls first
    act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g.landlord == 2 and g.redeals == 0 and g.base == 1 and g.robs == 0
    assert g.phase == Phase.DOUBLE  # the shower has shown: no second show offered
    assert g.multiplier().total == 3


# -- FL-04 a new trick ------------------------------------------------------------------------

def test_fl04_new_trick() -> None:
    g = landlord_game(DEAL_A, 0, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    act(g, "5", PASS, PASS)
    assert g.current_player() == 0 and g.last_move is None
    legal = list(g.legal_actions())
    assert PASS not in legal
    assert Move("3") in legal and Move("33") in legal and Move("4") in legal  # the 5 no longer has to be beaten


# -- FL-05 the worked example ---------------------------------------------------------------

def test_fl05_worked_example_in_a_game() -> None:
    # Room: N = 1000, rake 50, initial multiplier 3; one rob: X = 3 x 2 = 6.
    room = Room(coefficient=1000, rake=50, initial_multiplier=3)
    g = landlord_game(DEAL_B, 1, Action.CALL, Action.NO_ROB, Action.ROB, Action.NO_ROB, room=room)
    assert g.landlord == 0 and g.robs == 1
    act(g, "9", "2", PASS, "R", PASS, PASS)  # a farmer plays: no spring
    for lead in ("333444555666777", "88", "B"):
        act(g, lead)
        if not g.is_terminal():
            act(g, PASS, PASS)
    s = g.settlement()
    assert s.multiplier.total == 6 and s.stakes == (12, 6, 6)
    assert s.transfers == (12000, -6000, -6000)
    assert s.rake == (50, 50, 50)
    assert s.net == (11950, -6050, -6050)


# -- FL-06 robbing -----------------------------------------------------------------------------

def test_fl06_rob_back() -> None:
    g = landlord_game(DEAL_A, 0, Action.CALL, Action.ROB, Action.NO_ROB, Action.ROB)
    assert g.landlord == 0 and g.robs == 2 and g.multiplier().total == 4


def test_fl06_later_robber_wins() -> None:
    g = landlord_game(DEAL_A, 0, Action.CALL, Action.NO_ROB, Action.ROB, Action.NO_ROB)
    assert g.landlord == 2 and g.robs == 1 and g.multiplier().total == 2


def test_fl06_passers_never_rob() -> None:
    g = Game(deal=DEAL_A, first=0)
    no_shows(g)
    act(g, Action.NO_CALL, Action.CALL, Action.ROB)  # seat 0 said 不叫; seat 2 robs
    assert g.phase == Phase.ROB and g.current_player() == 1  # the caller's rob back; seat 0 never asked
    g.apply(Action.NO_ROB)
    assert g.landlord == 2 and [p for p, a in g.history if a in (Action.ROB, Action.NO_ROB)] == [2, 1]


# -- FL-07 escape ---------------------------------------------------------------------------------

def fl07_game() -> Game:
    # A (0) calls, B (1) robs, C (2) declines, A does not rob back: B is landlord, one rob.
    # The hands hold one bomb between them (2222, seat 2), unplayed.
    g = Game(deal=DEAL_A, first=0, room=Room(coefficient=100))
    no_shows(g)
    act(g, Action.CALL, Action.ROB, Action.NO_ROB, Action.NO_ROB)
    assert g.landlord == 1 and g.phase == Phase.SHOW_BOTTOM
    return g


def test_fl07_landlord_escapes() -> None:
    g = fl07_game()
    assert g.escape_multiplier() == 4  # 2 (rob) x 2 (one bomb) < 10
    g.escape(1)
    s = g.settlement()
    assert s.escaped == 1 and s.escape_multiplier == 4
    assert s.transfers == (2000, -4000, 2000)  # 1 x 100 x 2 x 20, split equally


def test_fl07_farmer_escapes() -> None:
    g = fl07_game()
    g.escape(2)
    s = g.settlement()
    assert s.transfers == (0, 1000, -1000)  # 1 x 100 x 10, all to the landlord; the teammate 0


# -- escape in every phase ------------------------------------------------------------------

def advance_to(phase: Phase, g: Game) -> Game:
    script = {
        Phase.CALL: [Action.NO_SHOW] * 9,
        Phase.ROB: [Action.NO_SHOW] * 9 + [Action.CALL],
        Phase.SHOW_BOTTOM: [Action.NO_SHOW] * 9 + [Action.CALL, Action.ROB, Action.NO_ROB, Action.NO_ROB],
        Phase.DOUBLE: [Action.NO_SHOW] * 9 + [Action.CALL, Action.ROB, Action.NO_ROB, Action.NO_ROB,
                                              Action.NO_SHOW],
        Phase.PLAY: [Action.NO_SHOW] * 9 + [Action.CALL, Action.ROB, Action.NO_ROB, Action.NO_ROB, Action.NO_SHOW,
                                            Action.DOUBLE, Action.NO_DOUBLE, Action.NO_DOUBLE],
        Phase.SHOW_START: [],
        Phase.SHOW_EARLY: [Action.NO_SHOW] * 3,
        Phase.SHOW_LATE: [Action.NO_SHOW] * 6,
    }[phase]
    act(g, *script)
    assert g.phase == phase
    return g


@pytest.mark.parametrize("phase", [Phase.SHOW_START, Phase.SHOW_EARLY, Phase.SHOW_LATE, Phase.CALL, Phase.ROB])
def test_escape_before_a_landlord(phase: Phase) -> None:
    g = advance_to(phase, Game(deal=DEAL_A, first=0, room=Room(coefficient=100, rake=7)))
    g.escape(1)
    s = g.settlement()
    # charged as a farmer with M = 1: 1 x 100 x 10, the other two share it
    assert s.landlord is None and s.escape_multiplier == 1
    assert s.transfers == (500, -1000, 500) and s.rake == (7, 7, 7) and s.net == (493, -1007, 493)
    assert g.is_terminal() and g.returns() == [5, -10, 5]


def test_escape_during_point_bidding() -> None:
    g = Game(Rules(bidding="points"), deal=DEAL_A, first=0)
    no_shows(g)
    act(g, Action.BID_2)
    g.escape(0)
    assert g.returns() == [-10, 5, 5]


@pytest.mark.parametrize("phase", [Phase.SHOW_BOTTOM, Phase.DOUBLE, Phase.PLAY])
def test_escape_with_a_landlord(phase: Phase) -> None:
    g = advance_to(phase, Game(deal=DEAL_A, first=0, room=Room(coefficient=100)))
    assert g.landlord == 1  # one rob, one bomb in the hands: M = 4
    # In play the landlord has doubled (docs/rules.md §6: S counts the doubling factors).
    d = 2 if phase == Phase.PLAY else 1
    g.escape(0)  # a farmer: S = 1 x d, 10 x S x 100 beans, to the landlord
    assert g.settlement().transfers == (-1000 * d, 1000 * d, 0)
    g.pop()
    g.escape(1)  # the landlord: S = 2 x d, 20 x S x 100 beans, shared
    assert g.settlement().transfers == (2000 * d, -4000 * d, 2000 * d)


def test_escape_counts_bombs_played_and_in_hand() -> None:
    # Seat 0 lands with the bottom 2 completing 2222; seat 1 holds 3333 and the rocket.
    deal = ("2224456789TJQKA56", "3333BR456789TJQKA", "", "")
    rest = str(Hand(DECK) - Hand(deal[0]) - Hand(deal[1]))
    deal = (deal[0], deal[1], rest[:17], rest[17:])
    assert "2" in deal[3]
    g = Game(deal=deal, first=0, room=Room(coefficient=1))
    no_shows(g)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    # 2222 (landlord, with the bottom), 3333 and BR (seat 1), and whatever seat 2 holds
    extra = sum(1 for r in "3456789TJQKA" if Hand(deal[2]).count(r) == 4)
    assert g.escape_multiplier() == 2 ** (3 + extra)
    to_play(g)
    g.apply("2222")  # played bombs still count, once
    assert g.escape_multiplier() == 2 ** (3 + extra)


def test_escape_m_of_ten_takes_the_second_branch() -> None:
    # No bomb anywhere (seat 2's fourth 2 is in the bottom; seat 0 lands without it).
    deal = (DEAL_A[0], DEAL_A[1], "3456789TJJQQKA222", "KA2")

    def game() -> Game:
        g = Game(deal=deal, first=0)
        act(g, Action.NO_SHOW, Action.SHOW, Action.NO_SHOW)  # seat 1 shows before the deal: x5
        no_shows(g)
        act(g, Action.CALL, Action.NO_ROB, Action.ROB, Action.NO_ROB)  # seat 1 calls, seat 0 robs
        assert g.landlord == 0 and g.robs == 1
        return g

    g = game()
    assert g.escape_multiplier() == 10  # 5 x 2: exactly 10 takes the second branch
    g.escape(0)
    assert g.returns() == [-80, 40, 40]  # landlord: 1 x 2 x 4M = 80
    g = game()
    g.escape(2)
    assert g.returns() == [20, 0, -20]  # farmer: 1 x 2M = 20
