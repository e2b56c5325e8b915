"""The five-player two-deck game (五人斗地主), docs/rules.md §8.

Deals are written by hand (``five_deal`` fills the seats not given from the
rest of the two decks); every expected number is worked out from docs/rules.md
in the comment next to it.
"""

from __future__ import annotations

import pytest

from ddzcore import (
    PASS, FiveAction, FiveCard, FiveGame, FivePhase, Hand, IllegalActionError, InvalidCardsError, InvalidDealError,
    MarkedMove, Move, Room, Rules, TERMINAL, parse_five_cards,
)
from ddzcore.game import Action

DECK2 = Hand("".join(r * 8 for r in "3456789TJQKA2") + "BBRR", decks=2)


def ranks_of(text: str) -> Hand:
    """The ranks of deal text: ``S7`` / ``S7'`` are a 7, bare ranks are themselves."""
    out = ""
    for tok in text.split():
        out += tok[1] if tok[0] in "SHCD" else tok.replace("'", "")
    return Hand(out, decks=2)


def five_deal(hands: dict[int, str], bottom: str = "") -> list[str]:
    """Five hands of 21 and a bottom of 3: the given cards, then the rest of
    the two decks (ranks in order) to fill every part."""
    parts = [hands.get(s, "") for s in range(5)] + [bottom]
    rest = DECK2
    for p in parts:
        rest = rest - ranks_of(p)
    left = str(rest)
    out = []
    for p, size in zip(parts, [21] * 5 + [3]):
        need = size - len(ranks_of(p))
        out.append((p + " " + left[:need]).strip())
        left = left[need:]
    assert not left
    return out


def skip_to_play(g: FiveGame) -> None:
    """Nobody reveals or doubles."""
    while g.phase in (FivePhase.REVEAL, FivePhase.DOUBLE):
        g.apply(FiveAction.NO_REVEAL if g.phase == FivePhase.REVEAL else FiveAction.NO_DOUBLE)


def move(g: FiveGame, cards: str, marked: int = 0) -> Move:
    """The legal move of the player to act with exactly these cards (one reading)."""
    h = Hand(cards, decks=2)
    found = [m for m in g.legal_actions() if isinstance(m, Move) and not m.is_pass and m.cards == h
             and (m.marked if isinstance(m, MarkedMove) else 0) == marked]
    assert len(found) == 1, (cards, marked, found)
    return found[0]


# Seat 0 is the open landlord (marked H7); seat 2 holds the twin H7' and one
# more 7 (the hidden landlord); seat 3 holds a plain 7.
D_TWO = five_deal({0: "H7 33 44 55 66 88 99 TT JJ QQ KK", 2: "H7' S7 A 2 B R 3 4 5 6 8 9 T J Q K A 2 3 4 5",
                   3: "C7"}, bottom="AA2")


# -- cards (docs/rules.md §1) ---------------------------------------------------------------

def test_two_deck_cards_carry_their_copy() -> None:
    # id = copy x 54 + the one-deck card (4 x rank + suit; B 52, R 53)
    assert str(FiveCard(0)) == "S3" and str(FiveCard(54)) == "S3'" and FiveCard("S3'") == 54
    assert FiveCard("h10'") == 54 + 4 * 7 + 1 and FiveCard("HT'").copy == 1 and FiveCard("HT").copy == 0
    assert FiveCard("S3").twin == FiveCard("S3'") and FiveCard("S3'").twin == FiveCard("S3")
    assert FiveCard("DA'").rank.char == "A" and FiveCard("DA'").suit == "D" and FiveCard("R'").suit is None
    assert [int(c) for c in parse_five_cards("B B' R R'")] == [52, 106, 53, 107]
    assert str(FiveCard("C9'").card) == "C9"
    with pytest.raises(InvalidCardsError, match="twice"):
        parse_five_cards("S3' S3'")
    for bad in ("X3", "3'", "S1"):
        with pytest.raises(InvalidCardsError):
            parse_five_cards(bad)
    with pytest.raises(InvalidCardsError):
        FiveCard(108)


# -- dealing and the marked card (docs/rules.md §8) --------------------------------------------

def test_seeded_deal_is_two_whole_decks_and_deterministic() -> None:
    g = FiveGame(seed=7)
    deal = g.deal
    assert [len(p) for p in deal] == [21, 21, 21, 21, 21, 3]
    assert sorted(c for p in deal for c in p) == list(range(108))
    assert FiveGame(seed=7).deal == deal and FiveGame(seed=7).marked == g.marked
    assert FiveGame(seed=8).deal != deal
    assert len(g.hand(g.open_landlord)) == 24  # the open landlord takes the 3 bottom cards
    assert g.hand(g.open_landlord) == ranks_of(" ".join(str(c) for c in deal[g.open_landlord] + deal[5]))


def test_marked_card_is_a_dealt_non_joker_and_fixes_the_landlords() -> None:
    solo = 0
    for seed in range(300):
        g = FiveGame(seed=seed)
        mk, twin = g.marked, g.twin
        assert mk.suit is not None  # never a joker
        assert mk not in g.deal[5]  # never a bottom card
        assert mk in g.deal[g.open_landlord]
        holder = next(s for s in range(6) if twin in g.deal[s])
        if holder in (5, g.open_landlord):  # the twin in the bottom or with the open landlord: one landlord
            assert g.solo and g.landlords == (g.open_landlord,) and g.hidden_landlord is None
            assert g.marked_held(g.open_landlord) == 2
            solo += 1
        else:
            assert g.landlords == (g.open_landlord, holder) and g.marked_held(holder) == 1
    # the twin is one of the other 107 cards; 20 + 3 of them end with the open landlord: 23/107 = 21.5%
    assert 40 <= solo <= 90


def test_marked_card_of_a_given_deal_is_drawn_from_the_dealt_cards_only() -> None:
    deal = five_deal({}, bottom="S3 H3 C3")
    for seed in range(200):
        g = FiveGame(deal=deal, seed=seed)
        assert g.marked not in g.deal[5] and g.marked.suit is not None


def test_given_deals_are_checked() -> None:
    d = five_deal({})
    d[0], d[5] = d[0][:-1], d[5] + d[0][-1]  # 20 cards and 4 in the bottom
    with pytest.raises(InvalidDealError, match="21 cards each"):
        FiveGame(deal=d)
    with pytest.raises(InvalidDealError, match="twice"):
        FiveGame(deal=five_deal({0: "S3", 1: "S3"}))
    with pytest.raises(InvalidDealError, match="than two decks hold"):
        FiveGame(deal=["333333333"] + five_deal({})[1:])
    d = five_deal({0: "H7"}, bottom="S9 B R")
    with pytest.raises(InvalidDealError, match="bottom"):
        FiveGame(deal=d, marked="S9")  # a bottom card is never the marked card
    with pytest.raises(InvalidDealError):
        FiveGame(deal=five_deal({0: "B'"}), marked="B'")  # nor a joker
    with pytest.raises(ValueError):
        FiveGame(marked="H7")  # marked without a deal
    with pytest.raises(ValueError):
        FiveGame(Rules())  # one deck
    with pytest.raises(ValueError):
        FiveGame(beans=[1, 2, 3])


def test_twin_in_the_bottom_means_one_landlord() -> None:
    g = FiveGame(deal=five_deal({1: "DQ"}, bottom="DQ' 3 4"), marked="DQ")
    assert g.open_landlord == 1 and g.solo and g.landlords == (1,) and g.marked_held(1) == 2
    assert g.observation(1).solo is True and g.observation(1).opponents == (0, 2, 3, 4)


def test_open_landlord_holding_both_plays_alone() -> None:
    g = FiveGame(deal=five_deal({4: "DQ DQ'"}), marked="DQ'")
    assert g.open_landlord == 4 and g.solo and g.landlords == (4,)


# -- reveal (亮出身份) ---------------------------------------------------------------------

def test_every_player_is_asked_to_reveal_in_turn_from_the_open_landlord() -> None:
    g = FiveGame(deal=five_deal({1: "S5", 3: "S5'"}), marked="S5")
    assert g.phase == FivePhase.REVEAL and g.landlords == (1, 3)
    asked = []
    while g.phase == FivePhase.REVEAL:
        p = g.current_player()
        asked.append(p)
        legal = g.legal_actions()
        if p in (1, 3):
            assert legal == [FiveAction.NO_REVEAL, FiveAction.REVEAL]
        else:  # farmers can only decline
            assert legal == [FiveAction.NO_REVEAL]
            with pytest.raises(IllegalActionError):
                g.apply(FiveAction.REVEAL)
        g.apply(FiveAction.NO_REVEAL)
    assert asked == [1, 2, 3, 4, 0]
    assert not g.revealed and g.multiplier().total == 1


@pytest.mark.parametrize("revealers", [(0,), (2,), (0, 2)])
def test_a_chosen_reveal_doubles_once(revealers: tuple[int, ...]) -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    while g.phase == FivePhase.REVEAL:
        g.apply(FiveAction.REVEAL if g.current_player() in revealers else "no")
    # x2 once however many landlords reveal (docs/rules.md §8)
    assert g.revealed and g.revealed_by == ("choice", revealers[0]) and g.multiplier().reveal
    assert g.multiplier().total == 2


def test_the_open_landlord_playing_alone_may_reveal() -> None:
    g = FiveGame(deal=five_deal({0: "H7 H7'"}), marked="H7")
    assert g.legal_actions() == [FiveAction.NO_REVEAL, FiveAction.REVEAL]
    g.apply("reveal")
    assert g.revealed and g.multiplier().total == 2
    assert g.observation(3).solo is True and g.observation(3).allies == (1, 2, 4)


def test_playing_the_twin_reveals_the_hidden_landlord_without_doubling() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    g.apply(move(g, "3"))
    g.apply(PASS)
    assert g.current_player() == 2
    legal = list(g.legal_actions())
    single7 = Move("7|single|7|1", Rules(decks=2))
    assert single7 in legal and MarkedMove(single7, 1) in legal  # it chooses: S7 or the twin H7'
    before = g.copy()
    g.apply(single7)  # the plain 7
    assert not g.revealed and g.marked_held(2) == 1 and g.history[-1][1] == single7
    g = before
    g.apply(MarkedMove(single7, 1))  # the twin
    assert g.revealed and g.revealed_by == ("play", 2) and g.marked_held(2) == 0
    assert not g.multiplier().reveal and g.multiplier().total == 1  # no doubling for that
    assert g.history[-1] == (2, MarkedMove(single7, 1))
    # From then on the landlords see each other's hands; farmers learn who they are.
    o0, o2, o4 = g.observation(0), g.observation(2), g.observation(4)
    assert o0.hidden_landlord == 2 and o0.shown == {2: g.hand(2)} and o0.allies == (2,)
    assert o2.shown == {0: g.hand(0)}
    assert o4.hidden_landlord == 2 and o4.shown == {} and o4.allies == (1, 3) and o4.opponents == (0, 2)
    # once the landlords are public, only plain moves are offered
    g.apply(PASS)
    assert not any(isinstance(m, MarkedMove) for m in g.legal_actions())


def test_a_move_the_hand_forces_to_hold_the_twin_is_only_the_marked_move() -> None:
    # seat 2 holds the twin H7' and no other 7
    g = FiveGame(deal=five_deal({0: "H7 33 44 55 66 88 99 TT JJ QQ KK",
                                 2: "H7' A 2 B R 3 4 5 6 8 9 T J Q K A 2 3 4 5 6"},
                                bottom="AA2"), marked="H7")
    skip_to_play(g)
    g.apply(move(g, "3"))
    g.apply(PASS)
    single7 = Move("7|single|7|1", Rules(decks=2))
    legal = list(g.legal_actions())
    assert MarkedMove(single7, 1) in legal and single7 not in legal
    g.apply(single7)  # a plain move plays as few marked cards as it can: here one
    assert g.history[-1] == (2, MarkedMove(single7, 1)) and g.revealed_by == ("play", 2)


def test_open_landlord_alone_is_revealed_once_it_has_played_both_copies() -> None:
    g = FiveGame(deal=five_deal({0: "H7 H7' S7 33 44 55 66 88 99 TT JJ QQ"}, bottom="AA2"), marked="H7")
    skip_to_play(g)
    single7 = Move("7|single|7|1", Rules(decks=2))
    assert [m for m in g.legal_actions() if m.cards == Hand("7")] == [single7, MarkedMove(single7, 1)]
    g.apply(MarkedMove(single7, 1))  # one H7: nobody can tell which copy
    assert not g.revealed and g.marked_held(0) == 1
    for _ in range(4):
        g.apply(PASS)
    g.apply(MarkedMove(single7, 1))  # the second H7: it held the twin
    assert g.revealed and g.revealed_by == ("play", 0) and g.multiplier().total == 1
    assert g.observation(3).solo is True and g.observation(3).allies == (1, 2, 4)


def test_bad_marked_moves_are_refused() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    with pytest.raises(IllegalActionError):
        g.apply(MarkedMove("3|single|3|1", 1))  # no marked card among 3s
    g.apply(move(g, "3"))
    with pytest.raises(IllegalActionError):
        g.apply(MarkedMove("7|single|7|1", 1))  # seat 1 holds no marked-face card
    g.apply(PASS)
    with pytest.raises(IllegalActionError):
        g.apply(MarkedMove("7|single|7|1", 2))  # one 7 holds at most one marked card (and seat 2 has one)
    assert MarkedMove("7|single|7|1", 1) != Move("7|single|7|1", Rules(decks=2))
    assert Move("7|single|7|1", Rules(decks=2)) != MarkedMove("7|single|7|1", 1)
    assert str(MarkedMove("77|pair|7|1", 1)) == "77|pair|7|1 marked 1"
    assert g.parse_action("77|pair|7|1 marked 1") == MarkedMove("77|pair|7|1", 1)


# -- observation: nothing leaks ---------------------------------------------------------

def test_observations_do_not_tell_who_holds_the_twin() -> None:
    # The same ranks everywhere; the twin H7' with seat 2 (a) or seat 3 (b), a plain C7 with the other.
    base = {0: "H7 33 44 55 66 88 99 TT JJ QQ KK", 4: "A 2 B R 3 4 5 6 8 9 T J Q K A 2 3 4 5 6 8"}
    rest2, rest3 = "S7 9 T J Q K A 2 3 4 5 6 8 9 T J Q K A 2", "D7 9 T J Q K A 2 3 4 5 6 8 9 T J Q K A 2"
    a = FiveGame(deal=five_deal({**base, 2: "H7' " + rest2, 3: "C7 " + rest3}, bottom="AA2"), marked="H7")
    b = FiveGame(deal=five_deal({**base, 2: "C7 " + rest2, 3: "H7' " + rest3}, bottom="AA2"), marked="H7")
    assert a.hidden_landlord == 2 and b.hidden_landlord == 3
    assert [a.hand(s) for s in range(5)] == [b.hand(s) for s in range(5)]

    def same(*seats: int) -> None:
        for s in seats:
            assert a.observation(s) == b.observation(s), s

    same(0, 1, 4)  # the open landlord and the farmers 1 and 4 cannot tell
    assert a.observation(0).hidden_landlord is None and a.observation(0).solo is False
    assert a.observation(4).solo is None and a.observation(4).opponents == (0,) and a.observation(4).allies == ()
    assert a.observation(2).hidden_landlord == 2 and a.observation(2).allies == (0,)
    assert a.observation(2) != b.observation(2)  # seat 2 knows which it is
    while a.phase == FivePhase.REVEAL:  # everyone declines: the farmers are asked too
        for g in (a, b):
            g.apply(FiveAction.NO_REVEAL)
        same(0, 1, 4)
    skip_to_play(a)
    skip_to_play(b)
    for text in ("3", "pass", "7", "pass", "pass"):  # seat 2 plays its plain 7 in both
        for g in (a, b):
            g.apply(g.parse_action(text))
        same(0, 1, 4)
    assert a.observation(0).bottom == Hand("AA2") and a.observation(1).bottom is None


def test_observation_before_and_after_a_chosen_reveal() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    o = g.observation(3)
    assert o.marked == FiveCard("H7") and o.open_landlord == 0 and o.hidden_landlord is None and o.shown == {}
    assert o.legal_actions == () and o.card_counts == (24, 21, 21, 21, 21) and not o.revealed
    assert g.observation(0).legal_actions == (FiveAction.NO_REVEAL, FiveAction.REVEAL)
    g.apply(FiveAction.NO_REVEAL)
    g.apply(FiveAction.NO_REVEAL)
    g.apply(FiveAction.REVEAL)  # seat 2 reveals itself
    assert g.revealed_by == ("choice", 2)
    o = g.observation(3)
    assert o.hidden_landlord == 2 and o.solo is False and o.opponents == (0, 2) and o.allies == (1, 4)
    assert g.observation(0).shown == {2: g.hand(2)} and g.observation(2).shown == {0: g.hand(0)}
    assert o.history == ((0, FiveAction.NO_REVEAL), (1, FiveAction.NO_REVEAL), (2, FiveAction.REVEAL))


# -- play -------------------------------------------------------------------------------------

def test_a_trick_ends_after_four_passes() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    assert g.current_player() == 0 and g.last_move is None  # the open landlord leads
    with pytest.raises(IllegalActionError):
        g.apply(PASS)  # a leader cannot pass
    three = move(g, "3")
    g.apply(three)
    for seat in (1, 2, 3):
        assert g.current_player() == seat and g.last_move == three and g.last_player == 0
        g.apply(PASS)
    assert g.current_player() == 4 and g.last_move == three  # three passes do not end the trick
    g.apply(PASS)
    assert g.current_player() == 0 and g.last_move is None and PASS not in g.legal_actions()
    g.apply(move(g, "4"))  # any lead: the 3 no longer has to be beaten
    assert g.current_player() == 1


BOMB_CASES = [  # (cards, doubles?) docs/rules.md §8: 5-8 card bombs, three and four jokers double
    ("33333", True), ("333333", True), ("3333333", True), ("33333333", True), ("BBR", True), ("BRR", True),
    ("BBRR", True), ("3333", False), ("BR", False), ("BB", False), ("RR", False),
]


@pytest.mark.parametrize("cards,doubles", BOMB_CASES)
def test_bomb_multipliers(cards: str, doubles: bool) -> None:
    g = FiveGame(deal=five_deal({0: "S9 " + cards}), marked="S9")
    skip_to_play(g)
    bomb = move(g, cards)
    assert bomb.is_bomb
    g.apply(bomb)
    assert g.bombs_played == int(doubles) and g.multiplier().total == (2 if doubles else 1)


def test_bombs_accumulate_and_four_jokers_force_passes() -> None:
    g = FiveGame(deal=five_deal({0: "S9 33333 BBRR", 1: "44444444"}), marked="S9")
    skip_to_play(g)
    g.apply(move(g, "33333"))
    assert move(g, "44444444").is_bomb  # seat 1 may beat it with a bigger bomb
    g.apply(move(g, "44444444"))
    assert g.multiplier().total == 4  # two doubling bombs: x2 x2
    for _ in range(3):
        g.apply(PASS)
    g.apply(move(g, "BBRR"))
    assert g.multiplier().total == 8
    for seat in (1, 2, 3, 4):
        assert list(g.legal_actions()) == [PASS]  # nothing answers four jokers
        g.apply(PASS)
    assert g.current_player() == 0 and g.last_move is None


def test_bomb_order_two_jokers_between_four_and_five_cards() -> None:
    g = FiveGame(deal=five_deal({0: "S9 3333", 1: "BR", 2: "44444"}), marked="S9")
    skip_to_play(g)
    g.apply(move(g, "3333"))
    g.apply(move(g, "BR"))  # two jokers beat a 4-card bomb
    assert g.multiplier().total == 1
    g.apply(move(g, "44444"))  # a 5-card bomb beats two jokers
    assert g.multiplier().total == 2


def lead_out(g: FiveGame) -> None:
    """The player to act leads its lowest move until its hand is empty; everybody else passes."""
    leader = g.current_player()
    while not g.is_terminal():
        if g.current_player() == leader:
            hand = g.hand(leader)
            whole = [m for m in g.legal_actions() if m.cards == hand]
            g.apply(whole[0] if whole else g.legal_actions()[0])
        else:
            g.apply(PASS)


def test_spring_when_the_losers_never_played() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    lead_out(g)
    assert g.winner == 0 and g.settlement().landlord_won
    m = g.multiplier()
    assert m.spring and m.total == 2  # the farmers played no card: x2
    # Two landlords, multiplier 2, no doubling: S(f, l) = 1 x 2 / 2 = 1 per pair;
    # each farmer -2, each landlord +3.
    assert g.returns() == [3.0, -2.0, 3.0, -2.0, -2.0]


def test_no_spring_once_a_farmer_has_played() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    g.apply(move(g, "3"))
    g.apply(move(g, "4"))  # seat 1, a farmer, plays one card
    for _ in range(3):
        g.apply(PASS)
    g.apply(move(g, "5"))  # the open landlord takes the trick back
    for _ in range(4):
        g.apply(PASS)
    lead_out(g)
    assert g.winner == 0 and not g.multiplier().spring
    # multiplier 1, two landlords: S = 1/2 per pair; farmers -1 each, landlords +1.5 each
    assert g.returns() == [1.5, -1.0, 1.5, -1.0, -1.0]


def test_no_spring_for_the_farmers_the_open_landlord_always_plays() -> None:
    g = FiveGame(deal=D_TWO, marked="H7")
    skip_to_play(g)
    g.apply(move(g, "3"))
    g.apply(move(g, "4"))
    for _ in range(4):
        g.apply(PASS)
    lead_out(g)  # seat 1 leads out; the hidden landlord (seat 2) never played, the open landlord did
    assert g.winner == 1 and not g.multiplier().spring and g.returns() == [-1.5, 1.0, -1.5, 1.0, 1.0]


def test_one_landlord_spring_settles_four_x() -> None:
    # twin in the bottom: seat 0 plays alone and goes out while the four farmers pass
    g = FiveGame(deal=five_deal({0: "H7 33 44 55 66 88 99 TT JJ QQ KK"}, bottom="H7' AA"), marked="H7")
    skip_to_play(g)
    lead_out(g)
    # one landlord, multiplier 2 (spring), no doubling: each farmer -2, the landlord +8 (4X)
    assert g.returns() == [8.0, -2.0, -2.0, -2.0, -2.0]
    assert g.settlement().landlords == (0,)


# -- doubling --------------------------------------------------------------------------------

def test_doubling_once_each_in_turn_from_the_open_landlord() -> None:
    g = FiveGame(deal=five_deal({3: "S5 33 44 66 77 88 99 TT JJ QQ KK", 1: "S5'"}, bottom="AA2"), marked="S5")
    for _ in range(5):
        g.apply(FiveAction.NO_REVEAL)
    asked = []
    while g.phase == FivePhase.DOUBLE:
        asked.append(g.current_player())
        g.apply(Action.DOUBLE if g.current_player() in (3, 4) else FiveAction.NO_DOUBLE)  # either enum works
    assert asked == [3, 4, 0, 1, 2] and g.doubles == (1, 1, 1, 2, 2)
    assert g.phase == FivePhase.PLAY and g.current_player() == 3
    lead_out(g)
    assert g.bombs_played == 0
    # landlords 3 (doubled) and 1 win with a spring (multiplier 2): S(f, l) = 2 x dbl f x dbl l / 2.
    # Farmer 4 (doubled): S(4,3) = 4, S(4,1) = 2 -> -6; farmers 0, 2: 2 + 1 = -3 each;
    # landlord 3: 4 + 2 + 2 = +8; landlord 1: 2 + 1 + 1 = +4.
    assert g.returns() == [-3.0, 4.0, -3.0, 8.0, -6.0]


def test_doubling_eligibility_uses_the_public_roles() -> None:
    deal = five_deal({0: "S5", 1: "S5'"})
    room = Room(coefficient=10, double_threshold=100)

    def asked(beans: list[int], reveal: bool) -> list[int]:
        g = FiveGame(deal=deal, marked="S5", room=room, beans=beans)
        while g.phase == FivePhase.REVEAL:
            g.apply(FiveAction.REVEAL if reveal and g.current_player() == 1 else FiveAction.NO_REVEAL)
        out = []
        while g.phase == FivePhase.DOUBLE:
            out.append(g.current_player())
            g.apply(FiveAction.NO_DOUBLE)
        return out

    # Seat 2 has 10 beans: the open landlord (needs everyone above 100) and seat 2 are skipped; the
    # hidden landlord, not yet public, is asked like a farmer (its own and the open landlord's beans).
    assert asked([1000, 1000, 10, 1000, 1000], reveal=False) == [1, 3, 4]
    assert asked([1000, 1000, 10, 1000, 1000], reveal=True) == [3, 4]  # public now: needs everyone
    # The hidden landlord has 10: unrevealed it is skipped for its own beans; once public, no farmer
    # may double either (their landlords' beans), and nobody is left: play starts at once.
    assert asked([1000, 10, 1000, 1000, 1000], reveal=False) == [2, 3, 4]
    assert asked([1000, 10, 1000, 1000, 1000], reveal=True) == []
    g = FiveGame(Rules(decks=2, doubling=False), deal=deal, marked="S5")
    for _ in range(5):
        g.apply(FiveAction.NO_REVEAL)
    assert g.phase == FivePhase.PLAY


def test_game_settlement_with_a_room() -> None:
    g = FiveGame(deal=D_TWO, marked="H7", room=Room(coefficient=100, rake=10, initial_multiplier=3))
    skip_to_play(g)
    lead_out(g)
    # multiplier 3 x 2 (spring) = 6; two landlords: S = 6 / 2 = 3 per pair: 300 beans;
    # each farmer pays 600 (+ rake 10), each landlord gets 900 (- rake 10).
    s = g.settlement()
    assert s.multiplier.total == 6 and s.points == (9.0, -6.0, 9.0, -6.0, -6.0)
    assert s.transfers == (900, -600, 900, -600, -600) and s.rake == (10,) * 5
    assert s.net == (890, -610, 890, -610, -610)


def test_settlement_only_at_the_end() -> None:
    g = FiveGame(seed=1)
    with pytest.raises(IllegalActionError):
        g.settlement()
    assert g.returns() == [0.0] * 5 and g.current_player() == g.open_landlord
    skip_to_play(g)
    lead_out(g)
    assert g.is_terminal() and g.current_player() == TERMINAL and g.legal_actions() == []
    with pytest.raises(IllegalActionError):
        g.apply(PASS)
