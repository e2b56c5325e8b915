"""Laizi (癞子) rooms in the three-player game: docs/rules.md §7, with the
laizi escape of section 6 and the laizi room's game flow (docs/rules.md §7).

Every expected number is worked out by hand from docs/rules.md in the comment
next to it.  Golden laizi playthroughs live in ``tests/golden/laizi_*``;
regenerate them with ``DDZ_REGEN_GOLDEN=1 pytest tests/test_laizi_game.py``.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from fractions import Fraction
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzcore import (
    PASS, Action, AmbiguousMoveError, Combo, Game, IllegalActionError, Move, Multiplier, Phase, Rank, RecordError,
    Room, Rules, Settlement, settle_escape, settle_game,
)
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game, run_games
from ddzcore.tools.cli import main
from ddzcore.tools.cli_game import _rules_from, move_text
from ddzcore.game.three import _laizi_bombs_in
from ddzcore.game.records import dumps, load, loads, replay, to_record, transcript

from test_game import DEAL_A, act, deal_with

GOLDEN = Path(__file__).parent / "golden"
LZ = Rules.preset("laizi")
#: A laizi room without shows or doubling: the first caller calls, nobody robs.
QUIET_LZ = LZ.replace(show_start=0, show_bottom=0, doubling=False)


def fixed(wild: str = "7", **kw: object) -> Rules:
    """A laizi room with a fixed wild rank (analysis, end games)."""
    return Rules.preset("laizi", wild=wild, **kw)  # type: ignore[arg-type]


def h(word_text: str) -> int:
    from ddzcore import Hand
    return Hand(word_text).word


# -- Rules (docs/rules.md §7: the laizi room's flow) ------------------------------------

def test_laizi_preset_is_seed_002s_flow() -> None:
    assert LZ.laizi and LZ.wild is None and LZ.laizi_bombs == "tiered"
    assert (LZ.show_start, LZ.show_bottom, LZ.show_combine) == (4, 2, "product")
    assert LZ.show_deal_early == LZ.show_deal_late == 0  # a laizi room has no show during the deal
    assert Rules.preset("laizi", laizi_bombs="plain").laizi_bombs == "plain"
    assert LZ.flags == Rules().flags  # game flow only: move generation is untouched
    for bad in (dict(laizi_bombs="double"), dict(laizi=1)):
        with pytest.raises(ValueError):
            Rules(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Rules(laizi=True, decks=2)


def test_laizi_flow_shows_multiply() -> None:
    # x4 before the deal (seat 1) and x2 after the bottom (landlord 2): 4 x 2 = 8
    # (the happy rules would take the larger, 4).
    g = Game(LZ.replace(doubling=False), deal=DEAL_A, first=0)
    assert g.phase == Phase.SHOW_START
    act(g, Action.NO_SHOW, Action.SHOW, Action.NO_SHOW)
    assert g.phase == Phase.CALL and g.current_player() == 1  # no show during the deal; the shower calls first
    act(g, Action.NO_CALL, Action.CALL, Action.NO_ROB)  # seat 2 calls, seat 0 does not rob
    assert g.landlord == 2 and g.phase == Phase.SHOW_BOTTOM and g.wild is not None
    g.apply(Action.SHOW)
    assert g.shows == (0, 4, 2) and g.multiplier().show == 8 and g.phase == Phase.PLAY


# -- the wild draw (docs/rules.md §7) ---------------------------------------------------------

def test_wild_is_announced_only_when_the_landlord_is_decided() -> None:
    g = Game(QUIET_LZ, deal=DEAL_A, first=0, wild="9")
    assert g.is_laizi and g.drawn_wild == Rank.NINE
    for _ in range(2):
        assert g.wild is None and g.play_rules.wild is None
        assert all(g.observation(s).wild is None for s in range(3))
        g.apply(Action.CALL if g.phase == Phase.CALL else Action.NO_ROB)
    assert g.phase == Phase.ROB and g.wild is None
    g.apply(Action.NO_ROB)  # seat 0 is landlord: the wild rank is announced
    assert g.landlord == 0 and g.phase == Phase.PLAY
    assert g.wild == Rank.NINE and g.play_rules == QUIET_LZ.replace(wild="9")
    assert all(g.observation(s).wild == Rank.NINE for s in range(3))
    assert "wild rank: 9" in str(g)


def test_wild_draw_is_reproducible_and_uniform_over_3_to_2() -> None:
    def landlord_wild(seed: int, caller_offset: int = 0) -> tuple[Rank | None, Game]:
        g = Game(QUIET_LZ, seed=seed)
        for _ in range(caller_offset):
            g.apply(Action.NO_CALL)
        g.apply(Action.CALL)
        while g.phase == Phase.ROB:
            g.apply(Action.NO_ROB)
        return g.wild, g

    draws = [landlord_wild(s)[0] for s in range(150)]
    assert draws == [landlord_wild(s)[0] for s in range(150)]  # same seed, same wild rank
    assert set(draws) == set(Rank(r) for r in range(13))  # every rank 3..2, never a joker
    # The rank belongs to the deal, whoever becomes landlord.
    assert landlord_wild(4, 0)[0] == landlord_wild(4, 1)[0] == landlord_wild(4, 2)[0]
    # Drawn after the deal and the first caller: those are the happy rules' ones.
    for s in range(5):
        assert Game(LZ, seed=s).deal == Game(seed=s).deal
        assert Game(LZ, seed=s).first_caller == Game(seed=s).first_caller


def test_a_redeal_draws_a_new_wild_rank() -> None:
    ranks = set()
    for seed in range(30):
        g = Game(QUIET_LZ, seed=seed)
        act(g, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)  # everybody passes: a new deal
        assert g.redeals == 1 and g.wild is None
        act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
        ranks.add(g.wild)
        assert g.wild is not None
    assert len(ranks) > 5


def test_undo_and_copies_keep_the_wild_rank() -> None:
    g = Game(QUIET_LZ, seed=8)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    w = g.wild
    assert w is not None
    c = g.copy()
    g.pop()
    assert g.wild is None and g.play_rules == QUIET_LZ and g.phase == Phase.ROB
    g.apply(Action.NO_ROB)
    assert g.wild == w and g == c


def test_observation_does_not_leak_the_wild_rank() -> None:
    # Two deals identical but for the hidden wild rank: nobody can tell them
    # apart until the landlord is decided.
    a = Game(LZ, deal=DEAL_A, first=1, wild="4")
    b = Game(LZ, deal=DEAL_A, first=1, wild="J")
    while a.landlord is None:
        assert all(a.observation(s) == b.observation(s) for s in range(3))
        action = Action.CALL if a.phase == Phase.CALL else Action.NO_SHOW if a.phase == Phase.SHOW_START \
            else Action.NO_ROB
        a.apply(action)
        b.apply(action)
    assert a.observation(0).wild == Rank.FOUR and b.observation(0).wild == Rank.JACK
    assert a.observation(2) != b.observation(2)


def test_fixed_wild_for_analysis() -> None:
    g = Game(Rules(wild="7", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0, doubling=False),
             deal=DEAL_A, first=0)
    assert g.is_laizi and g.wild == Rank.SEVEN and g.observation(1).wild == Rank.SEVEN  # public from the start
    assert g.drawn_wild is None
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    leads = g.legal_actions()
    assert any(m.combo == Combo.SOFT_BOMB for m in leads)  # 3 3 + 7 7 is the soft bomb 3333
    with pytest.raises(ValueError):
        Game(Rules(wild="7"), wild="8", deal=DEAL_A)  # the wild rank is already fixed
    with pytest.raises(ValueError):
        Game.endgame(["3", "4", "5"], rules=LZ)  # a laizi end game needs its wild rank
    with pytest.raises(ValueError):
        Game(Rules(), deal=DEAL_A, wild="7")  # not a laizi room


def test_play_uses_the_wild_rank() -> None:
    # DEAL_A with 9 wild: the landlord (seat 0: 33445566778899TTB + QKA) may
    # lead 3399 as the soft bomb 3333 and 99+T as the trio of 10s.
    g = Game(QUIET_LZ, deal=DEAL_A, first=0, wild="9")
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    soft = Move("3399|soft_bomb|3|1", g.play_rules)
    assert soft in g.legal_actions() and soft.stand_ins == (Rank.THREE, Rank.THREE)
    with pytest.raises(AmbiguousMoveError):
        g.parse_action("3399")  # the soft bomb 3333, or 33 + 9 as 333 with the other 9 as the kicker
    assert g.parse_action("3399|soft_bomb|3|1") == soft
    g.apply(soft)
    assert g.bombs_played == 1 and g.multiplier().bombs == 1 and g.multiplier().total == 2
    g.apply(PASS)
    assert g.pop() == PASS and g.pop() == soft and g.multiplier().total == 1


def test_dense_move_ids_are_refused_in_laizi_games() -> None:
    g = Game(QUIET_LZ, deal=DEAL_A, first=0, wild="9")
    assert g.legal_action_ids() == [int(Action.NO_CALL), int(Action.CALL)]  # flow actions keep their ids
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    with pytest.raises(IllegalActionError, match="laizi"):
        g.legal_action_ids()


# -- scoring (docs/rules.md §7: the laizi table, coefficient, cap) ---------------------------

def out_with(landlord_hand: str, *leads: str, rules: Rules | None = None, room: Room | None = None) -> Game:
    """An end game: the landlord (seat 0) leads ``leads`` in turn and the
    farmers (holding a 4 and a 5) pass, until the landlord is out."""
    rules = rules or fixed()
    g = Game.endgame([landlord_hand, "4", "5"], landlord=0, rules=rules, room=room)
    for lead in leads:
        g.apply(Move(lead, rules))
        if not g.is_terminal():
            act(g, PASS, PASS)
    assert g.is_terminal() and g.winner == 0
    return g


@pytest.mark.parametrize("hand, lead, factor", [
    ("3337", "3337|soft_bomb|3|1", 2),     # soft bomb (333 + wild 7): x2
    ("3333", "3333|bomb|3|1", 4),          # hard bomb: x4
    ("7777", "7777|wild_bomb|7|1", 4),     # pure wild bomb: x4
    ("BR", "BR|rocket|R|1", 4),            # rocket: x4
    ("3337", "3337|trio_single|3|1", 1),   # the same cards read as 333 + 7: no bomb
])
def test_each_laizi_bomb_multiplier(hand: str, lead: str, factor: int) -> None:
    g = out_with(hand, lead, room=Room(coefficient=1000))
    assert g.multiplier().total == factor
    s = g.settlement()
    # X = base 1 x factor x 0.25 per farmer; beans X x 1000 each.
    x = factor * 0.25
    assert s.laizi and s.points == (2 * x, -x, -x) and s.stakes == (2 * x, x, x)
    assert s.transfers == (2 * int(x * 1000), -int(x * 1000), -int(x * 1000))


def test_bombs_multiply_together_and_the_breakdown_shows_each_factor() -> None:
    # soft 3337 (x2), hard 4444 (x4), rocket (x4): 2 x 4 x 4 = 32; X = 32 x 0.25 = 8.
    leads = ("3337|soft_bomb|3|1", "4444|bomb|4|1", "BR|rocket|R|1")
    g = Game.endgame(["33374444BR", "5", "6"], landlord=0, rules=fixed())
    for lead in leads:
        g.apply(Move(lead, g.play_rules))
        if not g.is_terminal():
            act(g, PASS, PASS)
    m = g.multiplier()
    assert (m.bombs, m.big_bombs, m.total) == (1, 2, 32) and g.bombs_played == 3
    assert g.settlement().points == (16.0, -8.0, -8.0)
    # pure wild 7777 (x4) then hard 3333 (x4): 16; X = 4.
    g = out_with("77773333", "7777|wild_bomb|7|1", "3333|bomb|3|1")
    assert (g.multiplier().bombs, g.multiplier().big_bombs, g.multiplier().total) == (0, 2, 16)
    assert g.settlement().points == (8.0, -4.0, -4.0)


def test_plain_option_every_bomb_doubles() -> None:
    # "plain": every bomb x2.  soft + hard + rocket: 2^3 = 8; X = 8 x 0.25 = 2.
    rules = fixed(laizi_bombs="plain")
    g = Game.endgame(["33374444BR", "5", "6"], landlord=0, rules=rules)
    for lead in ("3337|soft_bomb|3|1", "4444|bomb|4|1", "BR|rocket|R|1"):
        g.apply(Move(lead, rules))
        if not g.is_terminal():
            act(g, PASS, PASS)
    m = g.multiplier()
    assert (m.bombs, m.big_bombs, m.total) == (3, 0, 8)
    assert g.settlement().points == (4.0, -2.0, -2.0)


def test_coefficient_and_rounding_down() -> None:
    # Multiplier 1: X = 1 x 0.25 = 0.25 points per farmer, the landlord 0.5.
    g = out_with("3", "3", room=Room(coefficient=10))
    s = g.settlement()
    assert s.points == (0.5, -0.25, -0.25) and g.returns() == [0.5, -0.25, -0.25]
    # Beans: each transfer 0.25 x 10 = 2.5, rounded down to 2; the landlord gets 2 + 2 = 4, not 5.
    assert s.transfers == (4, -2, -2) and s.net == (4, -2, -2)
    # N = 3: 0.75 rounds down to 0 beans.
    assert out_with("3", "3", room=Room(coefficient=3)).settlement().transfers == (0, 0, 0)
    # X = 6 x 0.25 = 1.5 (show x6), N = 3: 4.5 -> 4 beans each; farmers win: the landlord pays 8.
    s = settle_game(0, False, 1, Multiplier(show=6), room=Room(coefficient=3), laizi=True)
    assert s.points == (-3.0, 1.5, 1.5) and s.transfers == (-8, 4, 4)
    # Doubling enters X before the coefficient: farmer 1 and the landlord double: 1 x 2 x 2 x 0.25 = 1.
    s = settle_game(0, True, 1, Multiplier(), doubles=(2, 2, 1), room=Room(coefficient=10), laizi=True)
    assert s.stakes == (1.5, 1.0, 0.5) and s.transfers == (15, -10, -5)


def test_cap_of_10000_points_per_farmer() -> None:
    # initial 2^16 = 65536: X = 65536 x 0.25 = 16384 per farmer; the winning landlord's 32768
    # are capped at 10000 (docs/rules.md §7, revision 4): 5000 from each farmer.
    s = settle_game(0, True, 1, Multiplier(initial=2**16), room=Room(coefficient=2), laizi=True)
    assert s.points == (10000, -5000, -5000) and s.transfers == (20000, -10000, -10000)
    # the landlord exactly at the cap (2 x 20000 x 0.25 = 10000), just over, just under
    assert settle_game(1, True, 1, Multiplier(initial=20000), laizi=True).stakes == (5000, 10000, 5000)
    assert settle_game(1, True, 1, Multiplier(initial=20004), laizi=True).stakes == (5000, 10000, 5000)
    assert settle_game(1, True, 1, Multiplier(initial=19996), laizi=True).stakes == (4999, 9998, 4999)
    # Each farmer capped on its own: doubles (landlord 2, farmer 1 2, farmer 2 1), initial 2^15:
    # farmer 1 32768 x 4 x 0.25 = 32768 -> 10000; farmer 2 32768 x 2 x 0.25 = 16384 -> 10000.
    s = settle_game(0, False, 1, Multiplier(initial=2**15), doubles=(2, 2, 1), laizi=True)
    assert s.points == (-20000.0, 10000.0, 10000.0)
    # Through a game: a room multiplier of 2^17 x hard bomb 4 = 2^19; X = 2^19 / 4 = 131072 each,
    # the landlord's 262144 capped at 10000.
    g = out_with("3333", "3333|bomb|3|1", room=Room(coefficient=1, initial_multiplier=2**17))
    assert g.settlement().points == (10000, -5000, -5000)


def test_laizi_settlement_round_trips_and_plain_ones_are_unchanged() -> None:
    s = settle_game(2, True, 3, Multiplier(robs=1, bombs=1, big_bombs=2, show=8), doubles=(2, 1, 2),
                    room=Room(coefficient=7, rake=3), beans=[100, 5000, 20], laizi=True)
    assert s.multiplier.total == 2 * 2 * 16 * 8  # 2^robs x 2^bombs x 4^big_bombs x show
    d = s.to_dict()
    assert d["laizi"] is True and d["multiplier"]["big_bombs"] == 2
    assert Settlement.from_dict(json.loads(json.dumps(d))) == s
    plain = settle_game(0, True, 1, Multiplier()).to_dict()
    assert "laizi" not in plain and "big_bombs" not in plain["multiplier"]  # old records read the same


# -- escape (docs/rules.md §6, laizi formula) -----------------------------------------------------

def test_laizi_escape_formula() -> None:
    # docs/rules.md §6-7: the landlord pays 4x, a farmer 2x its laizi loss at M, for every M
    # (no 20/10 floor below M = 10).  M = 16, base 1: each farmer's loss 16 / 4 = 4 points.
    # Landlord 0 escapes, N = 100: 4 x 8 = 32 points, 16 to each farmer.
    s = settle_escape(0, 0, 1, 16, room=Room(coefficient=100), laizi=True)
    assert s.points == (-32, 16, 16) and s.transfers == (-3200, 1600, 1600) and s.laizi
    # Farmer 2 escapes: 2 x 4 = 8 points to the landlord; the teammate is untouched.
    s = settle_escape(2, 0, 1, 16, room=Room(coefficient=100), laizi=True)
    assert s.points == (8, 0, -8) and s.transfers == (800, 0, -800)
    # M = 3, base 2: a farmer's loss is 3 x 2 / 4 = 3/2, its charge 3 points; the landlord's 12.
    assert settle_escape(1, 0, 2, 3, laizi=True).points == (3, -3, 0)
    assert settle_escape(0, 0, 2, 3, laizi=True).points == (-12, 6, 6)
    # Before a landlord: a farmer with M = 1 and base 1: 2 x 1/4 = 1/2 point, shared.
    s = settle_escape(1, None, 3, 99, room=Room(coefficient=10), laizi=True)
    assert s.points == (Fraction(1, 4), Fraction(-1, 2), Fraction(1, 4)) and s.transfers == (2, -4, 2)


@pytest.mark.parametrize("hand, wild, bombs", [
    ("3337777", 4, 1),        # 333 + 7 soft, 777 left (or the pure wild 7777): 1
    ("33344777", 4, 2),       # 333+7 and 44+77: 2
    ("3456777", 4, 1),        # one natural + three wild: 1 soft bomb
    ("7777", 4, 1),           # the pure wild bomb
    ("77778888", 4, 2),       # pure wild 7777 and hard 8888
    ("3333444477BR", 4, 3),   # 3333, 4444, the rocket; the two 7s have no naturals left to join
    ("33445566", None, 0),    # no wild cards: pairs are no bombs
    ("2227", 4, 1),           # 2s may be a soft bomb
    ("B2", 12, 0),            # a joker never joins a soft bomb (wild cannot stand for it)
])
def test_bombs_a_hand_could_form_with_wild_cards(hand: str, wild: int | None, bombs: int) -> None:
    assert sum(_laizi_bombs_in(h(hand), wild)) == bombs


# Wild 7.  Seat 0: 3333 44 77 5 6 8 9 T J Q K A; seat 1: B R 77 888 44 55 66 99 TT;
# seat 2 takes 5 6 9 T JJJ QQQ KKK AAA 2 and the bottom is 222.
ESCAPE_DEAL = deal_with("333344775689TJQKA", "BR7788844556699TT")


def escape_game(**kw: object) -> Game:
    """Seat 0 calls, 1 robs, 2 does not, 0 robs back (robs = 2), then shows after the bottom (x2)."""
    g = Game(Rules.preset("laizi", show_start=0, doubling=False), deal=ESCAPE_DEAL, first=0, wild="7", **kw)
    act(g, Action.CALL, Action.ROB, Action.NO_ROB, Action.ROB, Action.SHOW)
    assert g.landlord == 0 and g.robs == 2 and g.phase == Phase.PLAY and g.multiplier().show == 2
    return g


def test_escape_counts_every_bomb_with_wild_cards() -> None:
    assert ESCAPE_DEAL[2] == "569TJJJQQQKKKAAA2" and ESCAPE_DEAL[3] == "222"
    g = escape_game(room=Room(coefficient=10))
    # The bombs of the deal, each hand as dealt (docs/rules.md §6-7):
    #   landlord 0 (with the bottom 222): hard 3333 (x4), then 2 wild 7s: 222+7 (needs 1), 44 needs 2:
    #     one soft bomb (x2)
    #   seat 1: the rocket (x4), 888+7 (needs 1, x2), then 1 wild left and only pairs (need 2)
    #   seat 2: no wild card, no four of a rank
    # M = 2^robs 4 x show 2 x 2^2 x 4^2 = 512.
    assert g.deal_bombs() == (2, 2) and g.escape_multiplier() == 512
    # Played as something else, they still count (docs/rules.md §7, escape):
    act(g, "333345|four_two_single|3|1", PASS, PASS, "2227|trio_single|2|1", PASS, PASS)
    assert g.bombs_played == 0 and g.multiplier().total == 8 and g.escape_multiplier() == 512
    farmer = g.copy()
    g.escape(0)
    s = g.settlement()
    # Landlord escapes: each farmer's laizi loss would be 512 / 4 = 128; 4 x 256 = 1024 points,
    # 512 to each farmer; N = 10.
    assert s.escaped == 0 and s.escape_multiplier == 512
    assert s.points == (-1024, 512, 512) and s.transfers == (-10240, 5120, 5120)
    farmer.escape(1)
    s = farmer.settlement()
    # Farmer 1 escapes: 2 x 128 = 256 points to the landlord; farmer 2 neither pays nor receives.
    assert s.points == (256, -256, 0) and s.transfers == (2560, -2560, 0)


def test_escape_counts_bombs_played_as_bombs_too() -> None:
    g = escape_game()
    act(g, "3333|bomb|3|1", PASS, PASS)
    assert g.multiplier().big_bombs == 1 and g.escape_multiplier() == 512  # counted once, not twice


def test_escape_before_the_landlord_in_a_laizi_room() -> None:
    g = Game(QUIET_LZ, deal=ESCAPE_DEAL, first=0, wild="7", room=Room(coefficient=100))
    g.apply(Action.NO_CALL)
    g.escape(2)
    s = g.settlement()
    # A farmer's laizi loss at M = 1 is 1/4 point, charged twice: 1/2, shared (docs/rules.md §6).
    assert s.landlord is None and s.points == (0.25, 0.25, -0.5) and s.transfers == (25, 25, -50)


# -- bots (docs/rules.md §7) ---------------------------------------------------------------------

@pytest.mark.parametrize("rules", [LZ, LZ.replace(laizi_bombs="plain", bidding="points"),
                                   fixed("2", rob_back=False), Rules.preset("rlcard", laizi=True)],
                         ids=["laizi", "plain-points", "fixed-2", "rlcard-laizi"])
def test_bots_play_laizi_games_to_the_end(rules: Rules) -> None:
    for seed in range(8):
        bots = [RuleBot(), RandomBot(seed), RuleBot()] if seed % 2 else [RandomBot(seed), RuleBot(), RandomBot(9)]
        g = play_game(Game(rules, seed=seed, room=Room(coefficient=10, double_threshold=50), beans=[100, 40, 900]),
                      bots)
        assert g.is_terminal()
        if g.landlord is not None:
            assert g.wild is not None and g.settlement().laizi


def test_rule_bot_keeps_soft_bombs_and_spends_the_weakest_when_needed() -> None:
    rules = fixed("7")

    def choice(landlord_hand: str) -> Move:
        # Farmer 1 (3337 4444 + 6: soft 3333, soft 4444 as 444+7, hard 4444) must beat the landlord's 2.
        g = Game.endgame([landlord_hand, "333744446", "5"], landlord=0, to_move=1, last="2", last_player=0,
                         rules=rules)
        return RuleBot().act(g.observation(1))

    assert choice("89TJQKA2") == PASS  # nobody close to going out: the bombs are kept
    weakest = choice("89TJ")  # the landlord holds 4 cards: bomb, with the weakest tier and rank
    assert weakest.combo == Combo.SOFT_BOMB and weakest.main == Rank.THREE


def test_rule_bot_beats_random_bots_in_laizi_rooms() -> None:
    stats = run_games(60, [RuleBot(), RandomBot(1), RandomBot(2)], seed=3, rules=LZ)
    assert stats.seat_wins[0] / stats.played > 0.6


# -- records (JSON) ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_laizi_games_round_trip(seed: int) -> None:
    rules = [LZ, LZ.replace(laizi_bombs="plain"), Rules.preset("laizi", bidding="points", max_redeals=1)][seed % 3]
    g = play_game(Game(rules, seed=seed, room=Room(coefficient=100, rake=5), beans=None if seed % 2 else
                       [5000, 300, 90000]), [RandomBot(seed), RuleBot(), RandomBot(seed + 1)])
    rec = to_record(g)
    if g.landlord is not None:
        assert rec["deals"][-1]["wild"] == g.wild.char  # type: ignore[union-attr]
    assert all("wild" not in d for d in rec["deals"][:-1])
    again = loads(dumps(g))
    assert again == g and again.wild == g.wild and again.settlement() == g.settlement()
    assert to_record(again) == rec


def test_unfinished_laizi_records_replay_and_continue_identically() -> None:
    g = Game(LZ, seed=11)
    bot = RandomBot(4)
    while not g.is_terminal():
        again = loads(dumps(g))
        assert again == g and again.drawn_wild == g.drawn_wild  # even the still hidden wild rank
        g.apply(bot.choose(g.legal_actions()))
    assert loads(dumps(g)) == g


def test_a_record_with_another_wild_rank_does_not_replay() -> None:
    g = Game(QUIET_LZ, deal=DEAL_A, first=0, wild="9")
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB, "3399|soft_bomb|3|1")
    rec = to_record(g)
    assert rec["deals"][0]["wild"] == "9"
    rec["deals"][0]["wild"] = "8"
    with pytest.raises(RecordError):
        replay(rec)
    rec["deals"][0]["wild"] = "B"
    with pytest.raises(RecordError):
        replay(rec)


def test_fixed_wild_endgame_round_trips() -> None:
    g = Game.endgame(["33374444BR", "5", "6"], landlord=0, rules=fixed(), room=Room(coefficient=4))
    act(g, "3337|soft_bomb|3|1", PASS, PASS)
    assert loads(dumps(g)) == g
    g.escape(1)
    again = loads(dumps(g))
    assert again == g and again.settlement() == g.settlement() and again.settlement().laizi


# -- golden playthroughs ----------------------------------------------------------------------

def _laizi_rule_bots_room() -> Game:
    return play_game(Game(LZ, seed=162, room=Room(coefficient=1000, rake=50, double_threshold=2000),
                          beans=[30000, 2500, 90000]), [RuleBot(), RandomBot(5), RuleBot()])


def _laizi_escape() -> Game:
    g = escape_game(room=Room(coefficient=10, rake=1))
    act(g, "333345|four_two_single|3|1", PASS, PASS, "2227|trio_single|2|1", PASS, PASS)
    g.escape(0)
    return g


GOLDEN_GAMES: dict[str, Callable[[], Game]] = {
    "laizi_rule_bots_room": _laizi_rule_bots_room,
    "laizi_escape": _laizi_escape,
}


def _diff(expected: str, got: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), f"{name} (file)",
                                        f"{name} (now)"))


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_laizi_golden_playthrough(name: str) -> None:
    game = GOLDEN_GAMES[name]()
    record, text = dumps(game), transcript(game)
    jpath, tpath = GOLDEN / f"{name}.json", GOLDEN / f"{name}.txt"
    if os.environ.get("DDZ_REGEN_GOLDEN"):
        jpath.write_text(record, encoding="utf-8")
        tpath.write_text(text, encoding="utf-8")
    replayed = load(jpath)  # checks the recorded result and settlement
    assert dumps(replayed) == jpath.read_text(encoding="utf-8"), _diff(jpath.read_text(), dumps(replayed), name)
    assert transcript(replayed) == tpath.read_text(encoding="utf-8"), _diff(tpath.read_text(),
                                                                             transcript(replayed), name)
    assert record == jpath.read_text(encoding="utf-8"), _diff(jpath.read_text(), record, name)
    assert replayed == game


def test_golden_laizi_escape_is_settled_as_worked_out_by_hand() -> None:
    rec = json.loads((GOLDEN / "laizi_escape.json").read_text())
    # M = 512 (see test_escape_counts_every_bomb_with_wild_cards); N = 10, rake 1 from each player.
    assert rec["deals"][0]["wild"] == "7"
    s = rec["settlement"]
    assert s["escape_multiplier"] == 512 and s["transfers"] == [-10240, 5120, 5120]
    assert s["rake"] == [1, 1, 1] and s["net"] == [-10241, 5119, 5119]


# -- command line --------------------------------------------------------------------------

def run(args: list[str], text: str = "") -> tuple[int, str]:
    r = CliRunner().invoke(main, args, input=text)
    return r.exit_code, r.output


def test_play_laizi_marks_wild_cards_and_records(tmp_path: Path) -> None:
    path = tmp_path / "laizi.json"
    code, out = run(["play", "--laizi", "--seed", "3", "--room", "100", "--record", str(path)], "#1\n" * 400)
    assert code == 0, out
    assert "show cards before the deal? (x4)" in out  # the laizi room's flow (docs/rules.md §7)
    assert "Wild rank (癞子) drawn:" in out and "*" in out
    game = load(path)
    assert game.is_terminal() and game.rules.laizi and game.wild is not None
    assert f"wild rank (癞子): {game.wild.char.replace('T', '10')}" in out


def test_play_laizi_typed_moves_with_several_readings() -> None:
    rules = _rules_from("standard", "points", False, False, True)

    def ambiguous_lead(seed: int) -> "tuple[Game, object] | None":
        """The game after the human (seat 0, first to bid) bids 3, and a card
        set it may lead with several readings (needs wild cards)."""
        g = Game(rules, seed=seed)
        if g.first_caller != 0:
            return None
        g.apply(Action.BID_3)  # the human is landlord: the wild rank is drawn
        by_cards: dict[int, list[Move]] = {}
        for m in g.legal_actions():
            by_cards.setdefault(m.codes[0], []).append(m)
        return next(((g, ms[0].cards) for ms in by_cards.values() if len(ms) > 1), None)

    seed, (g, cards) = next((s, found) for s in range(200) if (found := ambiguous_lead(s)) is not None)
    with pytest.raises(AmbiguousMoveError) as e:
        g.parse_action(str(cards))
    readings = e.value.readings
    base = ["play", "--laizi", "--seed", str(seed), "--bidding", "points", "--no-shows", "--no-doubling",
            "--bots", "random"]
    # 1. type the cards, then choose the second reading by its number
    code, out = run(base, f"3\n={cards}\n#2\n" + "#1\n" * 300)
    assert code == 0, out
    assert "can be played several ways" in out
    assert f"You (landlord): {move_text(readings[1], g.wild)}" in out
    # 2. or give the whole reading as CARDS|COMBO|MAIN|LENGTH
    code, out = run(base, f"3\n{readings[-1]}\n" + "#1\n" * 300)
    assert code == 0, out
    assert f"You (landlord): {move_text(readings[-1], g.wild)}" in out


def test_simulate_laizi() -> None:
    code, out = run(["simulate", "--laizi", "--games", "20", "--bots", "rule,random,random", "--seed", "2",
                     "--room", "10", "--no-progress"])
    assert code == 0, out
    assert "20 games" in out and "average multiplier" in out


# -- properties and sweeps -----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(landlord=st.integers(0, 2), won=st.booleans(), base=st.integers(1, 3), robs=st.integers(0, 3),
       bombs=st.integers(0, 3), big=st.integers(0, 12), show=st.sampled_from([1, 2, 4, 8, 16]),
       doubles=st.tuples(*[st.sampled_from([1, 2])] * 3), n=st.integers(1, 2000), rake=st.integers(0, 500),
       beans=st.one_of(st.none(), st.lists(st.integers(0, 10**8), min_size=3, max_size=3)))
def test_laizi_settlement_invariants(landlord: int, won: bool, base: int, robs: int, bombs: int, big: int,
                                     show: int, doubles: tuple, n: int, rake: int,
                                     beans: "list[int] | None") -> None:
    m = Multiplier(robs=robs, bombs=bombs, big_bombs=big, show=show)
    s = settle_game(landlord, won, base, m, doubles, Room(coefficient=n, rake=rake), beans, laizi=True)
    assert sum(s.points) == 0 and sum(s.transfers) == 0 and sum(s.net) == -sum(s.rake)
    farmers = [f for f in range(3) if f != landlord]
    # docs/rules.md §6: X before the coefficient; §7: x 1/4, no winner gaining over 10000
    xs = {f: Fraction(base * m.total * doubles[f] * doubles[landlord], 4) for f in farmers}
    if won and sum(xs.values()) > 10000:
        xs = {f: x * 10000 / sum(xs.values()) for f, x in xs.items()}
    for f in farmers:
        x = xs[f] if won else min(xs[f], 10000)
        assert s.stakes[f] == x and abs(s.points[f]) == x
        assert abs(s.transfers[f]) <= math.floor(x * n)  # rounded down (less when floors or caps bind)
        if beans is None:
            assert abs(s.transfers[f]) == math.floor(x * n)
        else:
            assert beans[f] + s.net[f] >= 0


@pytest.mark.slow
def test_many_laizi_games_settle_consistently_and_round_trip() -> None:
    import numpy as np
    rng = np.random.default_rng(2024)
    variants = [LZ, LZ.replace(laizi_bombs="plain"), Rules.preset("laizi", bidding="points"),
                Rules.preset("rlcard", **Rules.PRESETS["laizi"]), fixed("2")]
    for k in range(3000):
        rules = variants[k % len(variants)]
        bots = [RuleBot() if (k >> s) & 1 else RandomBot(k + s) for s in range(3)]
        g = Game(rules, seed=rng, room=Room(coefficient=100, rake=3), beans=[10**6, 5000, 20000])
        if k % 7 == 0:  # an escape at some point
            steps = int(rng.integers(0, 40))
            for _ in range(steps):
                if g.is_terminal():
                    break
                g.apply(bots[g.current_player()].act(g.observation(g.current_player())))
            if not g.is_terminal():
                g.escape(int(rng.integers(0, 3)))
        else:
            play_game(g, bots)
        s = g.settlement()
        assert sum(s.points) == 0 and sum(s.transfers) == 0
        if g.landlord is not None:
            assert s.laizi and g.wild is not None
        if k % 10 == 0:
            assert loads(dumps(g)) == g
