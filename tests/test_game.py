"""The three-player game state machine (docs/rules.md §3-5).

Deals are written by hand; expected values come from docs/rules.md, worked out
in the comments.  ``tests/test_game_cases.py`` holds the flow.md cases.
"""

from __future__ import annotations

import pytest

from ddzcore import (
    PASS, TERMINAL, Action, AmbiguousMoveError, Card, Game, Hand, IllegalActionError, IllegalMoveError,
    InvalidCardsError, InvalidDealError, InvalidMoveError, Move, Phase, Room, Rules, parse_cards,
)

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"

# One bomb in all (2222, seat 2); the jokers are split (no rocket).
DEAL_A = ("33445566778899TTB", "3456789TJJQQKKAAR", "3456789TJJQKA2222", "QKA")
# Seat 1 can go out in a few leads (3456789TJQKA, KK, A, 2) after beating a 3 with a 2.
DEAL_B = ("33344455566677788", "3456789TJQKKKAA22", "899TTTJJJQQQKAA22", "9BR")

QUIET = Rules(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0, doubling=False)


def deal_with(seat0: str, seat1: str, seat2: str = "") -> tuple[str, str, str, str]:
    """A whole deck: the given hands, seat 2 (if not given) then the bottom take the rest in rank order."""
    rest = str(Hand(DECK) - Hand(seat0) - Hand(seat1) - Hand(seat2))
    if not seat2:
        seat2, rest = rest[:17], rest[17:]
    return seat0, seat1, seat2, rest


def act(g: Game, *actions: object) -> None:
    for a in actions:
        g.apply(a)  # type: ignore[arg-type]


def no_shows(g: Game) -> None:
    while g.phase in (Phase.SHOW_START, Phase.SHOW_EARLY, Phase.SHOW_LATE):
        g.apply(Action.NO_SHOW)


def to_play(g: Game) -> None:
    """Decline every show and double until play starts."""
    while g.phase in (Phase.SHOW_START, Phase.SHOW_EARLY, Phase.SHOW_LATE, Phase.SHOW_BOTTOM, Phase.DOUBLE):
        g.apply(Action.NO_SHOW if g.phase != Phase.DOUBLE else Action.NO_DOUBLE)


def quiet_game(deal: tuple = DEAL_A, first: int = 0, landlord_calls: bool = True, **kw: object) -> Game:
    """QUIET rules, the first caller calls and nobody robs: seat ``first`` is landlord, in play."""
    g = Game(QUIET, deal=deal, first=first, **kw)  # type: ignore[arg-type]
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.phase == Phase.PLAY and g.landlord == first
    return g


def seq(g: Game) -> list[int]:
    return [p for p, _ in g.history]


# -- cards and deals (docs/rules.md §1, §4) -------------------------------------------

def test_cards() -> None:
    assert str(Card(0)) == "S3" and str(Card(51)) == "D2" and str(Card(52)) == "B" and str(Card(53)) == "R"
    assert Card.parse("h10") == Card("HT") == 4 * 7 + 1
    assert Card("DA").rank.char == "A" and Card("DA").suit == "D" and Card("R").suit is None
    assert [str(c) for c in parse_cards("S3 HT,B r")] == ["S3", "HT", "B", "R"]
    with pytest.raises(InvalidCardsError, match="twice"):
        parse_cards("S3 S3")
    with pytest.raises(InvalidCardsError):
        parse_cards("X3")
    with pytest.raises(InvalidCardsError):
        Card(54)


def test_seeded_deal_is_a_whole_deck_and_deterministic() -> None:
    g = Game(seed=7)
    deal = g.deal
    assert [len(p) for p in deal] == [17, 17, 17, 3]
    assert sorted(c for p in deal for c in p) == list(range(54))
    assert sum((g.hand(s) for s in range(3)), Hand()) + g.bottom == Hand(DECK)
    assert Game(seed=7) == g and Game(seed=7).deal == deal
    assert any(Game(seed=s).deal != deal for s in range(8, 12))
    assert g.first_caller in (0, 1, 2)
    # The first caller is drawn at random: every seat comes up.
    assert {Game(seed=s).first_caller for s in range(40)} == {0, 1, 2}


def test_given_deals() -> None:
    g = Game(deal=DEAL_A, first=2)
    assert g.hand(0) == DEAL_A[0] and g.bottom == "QKA" and g.first_caller == 2
    g2 = Game(deal=tuple(" ".join(str(c) for c in part) for part in g.deal), first=2)
    assert g2.deal == g.deal
    for bad in [DEAL_A[:3], ("3" * 4,) + DEAL_A[1:], (DEAL_A[0][:-1],) + DEAL_A[1:]]:
        with pytest.raises(InvalidDealError):
            Game(deal=bad)
    with pytest.raises(InvalidCardsError):
        Game(deal=("33333",) + DEAL_A[1:])
    with pytest.raises(ValueError):
        Game(Rules(decks=2))


# -- show cards and the first caller (docs/rules.md §4-5) ---------------------------------

def test_phase_order_with_every_option_on() -> None:
    g = Game(deal=DEAL_A, first=1)
    for phase in (Phase.SHOW_START, Phase.SHOW_EARLY, Phase.SHOW_LATE):
        for seat in (1, 2, 0):  # in turn from the first caller
            assert g.phase == phase and g.current_player() == seat
            assert g.legal_actions() == [Action.NO_SHOW, Action.SHOW]
            g.apply(Action.NO_SHOW)
    assert g.phase == Phase.CALL and g.current_player() == 1
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.phase == Phase.SHOW_BOTTOM and g.current_player() == 1 and g.landlord == 1
    g.apply(Action.NO_SHOW)
    for seat in (1, 2, 0):  # doubling in turn from the landlord
        assert g.phase == Phase.DOUBLE and g.current_player() == seat
        assert g.legal_actions() == [Action.NO_DOUBLE, Action.DOUBLE]
        g.apply(Action.NO_DOUBLE)
    assert g.phase == Phase.PLAY and g.current_player() == 1 and g.last_move is None


@pytest.mark.parametrize("phase, mult", [(Phase.SHOW_START, 5), (Phase.SHOW_EARLY, 4), (Phase.SHOW_LATE, 3)])
def test_show_multipliers_before_calling(phase: Phase, mult: int) -> None:
    g = Game(deal=DEAL_A, first=0)
    while g.phase != phase:
        g.apply(Action.NO_SHOW)
    act(g, Action.NO_SHOW, Action.SHOW)  # seat 1 shows
    assert g.shows == (0, mult, 0)
    assert g.multiplier().show == mult
    # a player who has shown is not asked again
    while g.phase in (Phase.SHOW_START, Phase.SHOW_EARLY, Phase.SHOW_LATE):
        assert g.current_player() != 1
        g.apply(Action.NO_SHOW)
    # docs/rules.md §4: the (first) player who showed calls first
    assert g.phase == Phase.CALL and g.current_player() == 1


def test_show_after_the_bottom_and_combining() -> None:
    def game(rules: Rules) -> Game:
        g = Game(rules, deal=DEAL_A, first=0)
        act(g, Action.NO_SHOW, Action.NO_SHOW, Action.SHOW)  # seat 2 shows before the deal: x5
        no_shows(g)
        assert g.current_player() == 2  # the shower calls first
        act(g, Action.NO_CALL, Action.NO_CALL, Action.CALL)  # 2 and 0 pass, 1 calls: no robbers left
        assert g.landlord == 1 and g.phase == Phase.SHOW_BOTTOM
        g.apply(Action.SHOW)  # x2, landlord only
        return g
    assert game(Rules()).multiplier().show == 5  # happy rules: the largest
    assert game(Rules(show_combine="product")).multiplier().show == 10  # laizi rules: the product
    g = game(Rules())
    assert g.shows == (0, 2, 5)


def test_first_shower_is_the_first_in_time() -> None:
    # Seat 0 shows before the deal, seat 2 later in the deal; the first caller
    # is 1: in turn order from 1 (1, 2, 0) seat 2 would come first, but seat 0
    # showed first in time and calls first (docs/rules.md §5, revision 3).
    g = Game(deal=DEAL_A, first=1)
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.SHOW)  # seats 1, 2, 0 before the deal
    act(g, Action.NO_SHOW, Action.SHOW)  # early: seats 1, 2
    no_shows(g)
    assert g.phase == Phase.CALL and g.current_player() == 0


def test_landlord_who_already_showed_is_not_asked_again() -> None:
    g = Game(deal=DEAL_A, first=0)
    g.apply(Action.SHOW)
    no_shows(g)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.phase == Phase.DOUBLE and g.landlord == 0


def test_show_phases_can_be_switched_off() -> None:
    g = Game(Rules(show_start=0, show_deal_late=0), deal=DEAL_A, first=0)
    assert g.phase == Phase.SHOW_EARLY
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.NO_SHOW)
    assert g.phase == Phase.CALL


# -- calling and robbing (docs/rules.md §4) -----------------------------------------------

def test_first_call_ends_calling_and_opens_robbing() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0)
    assert g.phase == Phase.CALL and g.legal_actions() == [Action.NO_CALL, Action.CALL]
    g.apply(Action.CALL)
    assert g.phase == Phase.ROB and g.current_player() == 1
    assert g.legal_actions() == [Action.NO_ROB, Action.ROB]


def test_passers_are_never_offered_a_rob() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0)
    act(g, Action.NO_CALL, Action.CALL)  # seat 0 said 不叫, seat 1 calls
    assert g.phase == Phase.ROB and g.current_player() == 2
    g.apply(Action.ROB)
    assert g.current_player() == 1  # the rob back, not seat 0
    g.apply(Action.NO_ROB)
    assert g.landlord == 2 and g.robs == 1 and 0 not in seq(g)[2:]


def test_last_caller_has_nobody_to_rob_it() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0)
    act(g, Action.NO_CALL, Action.NO_CALL, Action.CALL)
    assert g.landlord == 2 and g.robs == 0 and g.phase == Phase.PLAY


def test_no_rob_no_rob_back() -> None:
    g = Game(QUIET, deal=DEAL_A, first=1)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.landlord == 1 and g.robs == 0 and len(g.history) == 3


def test_rob_back_option_off() -> None:
    g = Game(QUIET.replace(rob_back=False), deal=DEAL_A, first=0)
    act(g, Action.CALL, Action.ROB, Action.NO_ROB)
    assert g.landlord == 1 and g.robs == 1 and g.phase == Phase.PLAY


def test_every_rob_doubles() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0)
    act(g, Action.CALL, Action.ROB, Action.ROB, Action.ROB)  # B, C rob; A robs back
    assert g.landlord == 0 and g.robs == 3 and g.multiplier().total == 8


def test_landlord_takes_and_reveals_the_bottom() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0)
    assert all(g.observation(s).bottom is None for s in range(3))
    act(g, Action.NO_CALL, Action.CALL, Action.NO_ROB)
    assert len(g.hand(1)) == 20 and g.hand(1) == Hand(DEAL_A[1]) + Hand("QKA")
    assert all(g.observation(s).bottom == "QKA" for s in range(3))
    assert [len(c) for c in (g.cards(0), g.cards(1), g.cards(2))] == [17, 20, 17]


# -- point bidding (docs/rules.md §4 option) ---------------------------------------------

POINTS = QUIET.replace(bidding="points")


def test_point_bidding() -> None:
    g = Game(POINTS, deal=DEAL_A, first=1)
    assert g.phase == Phase.BID
    assert g.legal_actions() == [Action.NO_BID, Action.BID_1, Action.BID_2, Action.BID_3]
    g.apply(Action.BID_1)
    assert g.legal_actions() == [Action.NO_BID, Action.BID_2, Action.BID_3]  # must exceed the last bid
    with pytest.raises(IllegalActionError):
        g.apply(Action.BID_1)
    act(g, Action.BID_2, Action.NO_BID)
    assert g.landlord == 2 and g.base == 2 and g.phase == Phase.PLAY


def test_a_bid_of_three_ends_the_bidding() -> None:
    g = Game(POINTS, deal=DEAL_A, first=0)
    act(g, Action.NO_BID, Action.BID_3)
    assert g.landlord == 1 and g.base == 3 and g.phase == Phase.PLAY and len(g.history) == 2


def test_point_bidding_all_pass_redeals_or_shower_lands() -> None:
    g = Game(POINTS, deal=DEAL_A, first=0, seed=3)
    act(g, Action.NO_BID, Action.NO_BID, Action.NO_BID)
    assert g.redeals == 1 and g.phase == Phase.BID and g.landlord is None
    g = Game(POINTS.replace(show_start=5), deal=DEAL_A, first=0)
    act(g, Action.NO_SHOW, Action.SHOW, Action.NO_SHOW)
    assert g.current_player() == 1  # show cards work the same under point bidding
    act(g, Action.NO_BID, Action.NO_BID, Action.NO_BID)
    assert g.landlord == 1 and g.base == 1 and g.multiplier().show == 5


def test_point_bid_text() -> None:
    g = Game(POINTS, deal=DEAL_A, first=0)
    g.apply("2")
    assert g.history[-1] == (0, Action.BID_2)
    g.apply("pass")
    assert g.history[-1] == (1, Action.NO_BID)


# -- redeals (docs/rules.md §4) -------------------------------------------------------------

def test_all_pass_redeals_from_the_seed() -> None:
    g = Game(QUIET, deal=DEAL_A, first=0, seed=11)
    act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g.redeals == 1 and g.phase == Phase.CALL and g.landlord is None
    assert g.hand(0) != DEAL_A[0]  # new cards (drawn from the seed)
    assert sorted(c for p in g.deal for c in p) == list(range(54))
    assert g.observation(0).history == () and len(g.history) == 3
    assert "redeals 1" in str(g) and repr(g)
    again = Game(QUIET, deal=DEAL_A, first=0, seed=11)
    act(again, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert again == g  # deterministic


def test_redeal_cap_ends_with_no_landlord() -> None:
    g = Game(QUIET.replace(max_redeals=1), deal=DEAL_A, first=0, seed=1)
    act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g.redeals == 1 and not g.is_terminal()
    for _ in range(3):
        g.apply(Action.NO_CALL)
    assert g.is_terminal() and g.current_player() == TERMINAL and list(g.legal_actions()) == []
    s = g.settlement()
    assert s.landlord is None and s.points == s.net == (0, 0, 0) and g.returns() == [0, 0, 0]
    assert "no landlord" in str(g)
    g0 = Game(QUIET.replace(max_redeals=0), deal=DEAL_A, first=0)
    act(g0, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g0.is_terminal() and g0.redeals == 0


# -- doubling (docs/rules.md §5) -----------------------------------------------------------

def test_doubling_factors_reach_the_stakes() -> None:
    rules = Rules(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0)
    g = Game(rules, deal=DEAL_A, first=0)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.phase == Phase.DOUBLE and g.current_player() == 0
    act(g, Action.DOUBLE, Action.NO_DOUBLE, Action.DOUBLE)
    assert g.doubles == (2, 1, 2) and g.phase == Phase.PLAY
    g.escape(1)  # settle something to see the factors reported
    assert g.settlement().doubles == (2, 1, 2)


def test_doubling_eligibility_by_beans() -> None:
    rules = Rules(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0)
    room = Room(double_threshold=1000)

    def doublers(beans: list[int], landlord_seat: int = 0) -> list[int]:
        g = Game(rules, deal=DEAL_A, first=landlord_seat, room=room, beans=beans)
        act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
        out = []
        while g.phase == Phase.DOUBLE:
            out.append(g.current_player())
            g.apply(Action.NO_DOUBLE)
        return out

    assert doublers([5000, 5000, 5000]) == [0, 1, 2]
    assert doublers([5000, 5000, 1000]) == [1]  # landlord needs all above 1000; seat 2 is not
    assert doublers([1000, 5000, 5000]) == []  # the landlord's beans block every farmer too
    assert doublers([5000, 999, 5000], landlord_seat=2) == [0]  # seat 1's 999 blocks itself and the landlord
    g = Game(rules, deal=DEAL_A, first=0)  # no room: analysis, everyone may
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    assert g.phase == Phase.DOUBLE


# -- play (docs/rules.md §3) ------------------------------------------------------------------

def test_landlord_leads_and_cannot_pass() -> None:
    g = quiet_game(first=2)
    assert g.current_player() == 2 and PASS not in g.legal_actions()
    before = g.copy()
    with pytest.raises(IllegalActionError, match="cannot pass"):
        g.apply(PASS)
    assert g == before
    assert isinstance(IllegalActionError("x"), IllegalMoveError) and isinstance(IllegalActionError("x"), ValueError)


def test_following_and_illegal_moves_leave_the_game_unchanged() -> None:
    g = quiet_game()
    g.apply("55")
    assert g.current_player() == 1 and g.last_move == Move("55") and g.last_player == 0
    legal = list(g.legal_actions())
    assert legal[0] == PASS and Move("JJ") in legal and Move("33") not in legal
    before = g.copy()
    for bad, why in [("3", "does not beat"), ("22", "not in"), ("JJQQKK", "does not beat"), ("J", "does not beat")]:
        with pytest.raises(IllegalActionError, match=why):
            g.apply(Move(bad))
        assert g == before
    with pytest.raises(IllegalActionError):
        g.apply(Action.CALL)  # not a play action
    with pytest.raises(IllegalActionError, match="not in your hand"):
        g.apply("333")
    assert g == before


def test_rocket_forces_passes_explicitly() -> None:
    # Seat 0 holds the rocket, seat 1 holds a bomb it may not play after it.
    deal = deal_with("3339TTJJQQKKAA2BR", "44445555666677778")
    g = quiet_game(deal=deal)
    g.apply("3")
    g.apply("4444")  # a bomb beats the single
    g.apply(PASS)
    g.apply("BR")
    assert g.multiplier().bombs == 2
    for seat in (1, 2):
        assert g.current_player() == seat and list(g.legal_actions()) == [PASS]
        if seat == 1:
            with pytest.raises(IllegalActionError, match="rocket"):
                g.apply("5555")
        g.apply(PASS)
    assert g.current_player() == 0 and g.last_move is None  # the rocket's owner leads again


def test_the_game_ends_when_a_hand_is_empty() -> None:
    g = Game.endgame(["334", "4", "5"], landlord=0)
    g.apply("33")
    act(g, PASS, PASS)
    assert not g.is_terminal()
    with pytest.raises(IllegalActionError):
        g.apply(PASS)
    g2 = Game.endgame(["3", "4", "55"], landlord=2)
    g2.apply("55")
    assert g2.is_terminal() and g2.winner == 2 and g2.current_player() == TERMINAL
    assert list(g2.legal_actions()) == []
    with pytest.raises(IllegalActionError):
        g2.apply(PASS)
    with pytest.raises(IllegalActionError):
        g2.escape(0)
    assert g2.settlement().points == (-1, -1, 2)  # base 1 x multiplier 1 per farmer


def test_bombs_counted_in_the_multiplier() -> None:
    g = Game.endgame(["3333BR6", "44447", "5"], landlord=0)
    act(g, "3333", "4444", PASS, "BR", PASS, PASS)
    assert g.bombs_played == 3 and g.multiplier().total == 8  # 3333, 4444 and the rocket


def test_endgame_positions() -> None:
    g = Game.endgame(["34", "56", "7"], landlord=1, to_move=2, last="5", last_player=1)
    assert g.current_player() == 2 and g.last_move == Move("5") and g.last_player == 1
    assert list(g.legal_actions()) == [PASS, Move("7")]
    with pytest.raises(InvalidDealError):
        Game.endgame(["33", "33", "33"])
    with pytest.raises(InvalidDealError):
        Game.endgame(["3", "", "4"])
    with pytest.raises(IllegalActionError):
        Game.endgame(["3", "4", "5"], to_move=0, last="6", last_player=0)


# -- text input ---------------------------------------------------------------------------

def test_parse_action() -> None:
    g = Game(deal=DEAL_A, first=0)
    assert g.parse_action("show") == Action.SHOW and g.parse_action("明牌") == Action.SHOW
    assert g.parse_action("pass") == Action.NO_SHOW and g.parse_action("no") == Action.NO_SHOW
    while g.phase != Phase.CALL:
        g.apply("no")
    assert g.parse_action("叫地主") == Action.CALL and g.parse_action("pass") == Action.NO_CALL
    act(g, "call", "rob", "不抢", "y")
    assert g.robs == 2 and g.landlord == 0
    to_play(g)
    assert g.parse_action("10") == Move("T")
    with pytest.raises(InvalidMoveError):
        g.parse_action("3x")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        g.parse_action("22")
    with pytest.raises(InvalidMoveError):
        g.parse_action("35")  # not a combination
    with pytest.raises(InvalidMoveError):
        Action.parse("fold")


def test_ambiguous_cards_list_their_readings() -> None:
    g = Game.endgame(["333444555666", "7", "8"], landlord=0)
    with pytest.raises(AmbiguousMoveError) as e:
        g.parse_action("333444555666")
    assert len(e.value.readings) == 3  # a four-trio plane and two three-trio planes with wings
    assert g.parse_action("333444555666|plane|6|4").combo.name == "PLANE"


# -- undo, copy, observation ------------------------------------------------------------

def test_pop_undoes_every_kind_of_action() -> None:
    g = Game(deal=DEAL_B, first=0, seed=5)
    states = [g.copy()]
    while not g.is_terminal():
        legal = list(g.legal_actions())
        g.apply(legal[len(g.history) % len(legal)])
        states.append(g.copy())
    assert len(states) == len(g.history) + 1
    while g.history:
        states.pop()
        g.pop()
        assert g == states[-1]
    with pytest.raises(IllegalActionError):
        g.pop()


def test_copy_is_independent() -> None:
    g = quiet_game()
    c = g.copy()
    c.apply("3")
    assert g.current_player() == 0 and len(g.history) == 3 and c.current_player() == 1
    assert g.hand(0) == DEAL_A[0] + "QKA" and c.hand(0) != g.hand(0)
    c.pop()
    assert c == g


def test_observation_hides_what_it_must() -> None:
    # Seats 1 and 2 swap one hidden card; seat 0 sees no difference.
    d1 = DEAL_A
    d2 = (DEAL_A[0], "3456789TJJQQKKAA2", "3456789TJJQKA222R", "QKA")
    g1, g2 = quiet_game(d1), quiet_game(d2)
    assert g1.observation(0) == g2.observation(0)
    assert g1.observation(1) != g2.observation(1)
    o = g1.observation(0)
    assert o.hand == DEAL_A[0] + "QKA" and o.card_counts == (20, 17, 17) and o.shown == {}
    assert o.legal_actions and not g1.observation(1).legal_actions
    # Before the landlord is known, the bottom is hidden too: swap it with a hidden card.
    h1 = Game(deal=DEAL_A, first=0)
    h2 = Game(deal=(DEAL_A[0], DEAL_A[1], "3456789TJJQQKA222", "KA2"), first=0)  # bottom Q <-> seat 2's 2
    for g in (h1, h2):
        no_shows(g)
    assert h1.observation(0) == h2.observation(0)


def test_observation_during_the_deal() -> None:
    g = Game(deal=DEAL_A, first=0)
    assert g.observation(0).hand == "" and g.observation(0).card_counts == (0, 0, 0)
    act(g, Action.SHOW, Action.NO_SHOW, Action.NO_SHOW)  # seat 0 shows before the deal
    assert g.phase == Phase.SHOW_EARLY
    o = g.observation(1)
    assert o.card_counts == (8, 8, 8)
    assert o.hand == Hand(DEAL_A[1][:8])  # the first 8 cards dealt, in dealing order
    assert o.shown == {0: Hand(DEAL_A[0][:8])}  # a shown hand is visible as it is dealt
    no_shows(g)
    assert g.observation(1).shown == {0: Hand(DEAL_A[0])}
    assert g.observation(0).shown == {}  # one's own hand is in ``hand``


def test_public_history_and_multiplier_in_observation() -> None:
    g = quiet_game()
    g.apply("3")
    o = g.observation(2)
    assert o.history == ((0, Action.CALL), (1, Action.NO_ROB), (2, Action.NO_ROB), (0, Move("3")))
    assert o.landlord == 0 and o.multiplier.total == 1 and o.last_move == Move("3") and o.last_player == 0


def test_copies_redeal_what_the_original_would() -> None:
    a = Game(QUIET, seed=9)
    b = a.copy()
    for g in (b, a):  # the copy draws first: the original's next deal must not change
        act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    c = Game(QUIET, seed=9)
    act(c, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert a == b == c and a.redeals == 1


def test_dense_action_ids() -> None:
    from ddzcore import MOVE_ID_BASE, action_space
    g = Game(deal=DEAL_A, first=0)
    assert g.legal_action_ids() == [int(Action.NO_SHOW), int(Action.SHOW)] == [0, 1]
    while g.phase != Phase.PLAY:
        g.apply(g.legal_actions()[-1] if g.phase == Phase.CALL else g.legal_actions()[0])
    g.apply("3")
    ids = g.legal_action_ids()
    assert ids == sorted(ids) and ids[0] == MOVE_ID_BASE  # pass first
    for a in g.legal_actions():
        assert g.action_from_id(g.action_id(a)) == a
    # a move's id is its place in the rules' action space, the same in every game
    assert g.action_id(Move("BR")) == MOVE_ID_BASE + action_space(Rules()).index(Move("BR"))
    assert Game(Rules(bidding="points"), seed=1).action_id(Move("BR")) == g.action_id(Move("BR"))
    assert g.action_from_id(3) == Action.CALL
    with pytest.raises(InvalidMoveError):
        g.action_from_id(MOVE_ID_BASE + 10**6)
