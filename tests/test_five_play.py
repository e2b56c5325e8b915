"""Five-player games played through (docs/rules.md §8): seeded random playouts
(card conservation, push/pop, copies, observations), bots, records and the
command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzcore import (
    PASS, FiveAction, FiveGame, FiveObservation, FivePhase, Hand, MarkedMove, RecordError, Room, run_five_games,
)
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.tools.cli import main
from ddzcore.game.records import dumps, load, loads, replay

ALL = Hand("".join(r * 8 for r in "3456789TJQKA2") + "BBRR", decks=2).word


def played_word(g: FiveGame) -> int:
    return sum(a.codes[0] for _, a in g.history if hasattr(a, "codes"))


def check_state(g: FiveGame) -> None:
    """Cards are conserved; what each seat sees is consistent with the rules of section 8."""
    assert sum(h.word for h in g.hands) + played_word(g) == ALL  # 108 cards, none lost or duplicated
    assert sum(len(h) for h in g.hands) + sum(len(a.cards) for _, a in g.history if hasattr(a, "cards")) == 108
    for s in range(5):
        o = g.observation(s)
        assert o.hand == g.hand(s) and len(o.cards) == len(o.hand)
        assert (o.bottom is not None) == (s == g.open_landlord)
        if not g.revealed:
            if s not in g.landlords:  # before the reveal a farmer knows only the open landlord
                assert o.hidden_landlord is None and o.solo is None and o.opponents == (g.open_landlord,)
            assert o.shown == {}
        elif s in g.landlords and not g.solo:
            assert set(o.shown) == set(g.landlords) - {s}
        else:
            assert o.shown == {}


def random_playout(seed: int, check_every: int = 1) -> FiveGame:
    rng = random.Random(seed)
    g = FiveGame(seed=seed, room=Room(coefficient=10, rake=1, double_threshold=100),
                 beans=[rng.randrange(0, 3000) for _ in range(5)])
    k = 0
    while not g.is_terminal():
        legal = g.legal_actions()
        assert len(legal) > 0
        a = legal[rng.randrange(len(legal))]
        if k % check_every == 0:
            before = g.copy()
            g.push(a)
            assert g.pop() == a  # legal actions are listed as they are recorded (a forced twin as MarkedMove)
            assert g == before  # push and pop restore the state exactly
            check_state(g)
        g.apply(a)
        k += 1
    check_state(g)
    return g


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_conserve_cards_and_undo(seed: int) -> None:
    g = random_playout(seed)
    s = g.settlement()
    assert sum(s.points) == 0 and sum(s.transfers) == 0 and g.winner in s.winners
    n = len(g.history)
    while g.history:  # undo everything back to the deal
        g.pop()
    assert g.phase == FivePhase.REVEAL and g == FiveGame(seed=seed, room=g.room, beans=g.beans)
    assert n > 0


def test_push_is_apply_without_checks_and_copies_are_independent() -> None:
    rng = random.Random(3)
    a, b = FiveGame(seed=11), FiveGame(seed=11)
    while not a.is_terminal():
        legal = a.legal_actions()
        m = legal[rng.randrange(len(legal))]
        c = a.copy()
        a.apply(m)
        b.push(m)
        assert a == b and c != a
        c.apply(m)
        assert c == a


def test_records_replay_identically() -> None:
    for seed in range(6):
        g = random_playout(seed, check_every=50)
        text = dumps(g)
        g2 = loads(text)
        assert isinstance(g2, FiveGame) and g2 == g and g2.settlement() == g.settlement()
        assert json.loads(text)["format"] == "ddzcore-five"
    g = FiveGame(seed=4)
    g.apply(FiveAction.NO_REVEAL)
    assert replay(json.loads(dumps(g))) == g  # unfinished games too
    rec = json.loads(dumps(random_playout(2, check_every=50)))
    rec["actions"][-1] = rec["actions"][-1].replace(rec["actions"][-1].split()[0], "9", 1)
    with pytest.raises(RecordError):
        replay(rec)
    rec = json.loads(dumps(random_playout(2, check_every=50)))
    rec["result"]["winner"] = (rec["result"]["winner"] + 1) % 5
    with pytest.raises(RecordError):
        replay(rec)
    with pytest.raises(RecordError):
        replay({"format": "ddzcore-five", "version": 1, "rules": {"decks": 2}, "room": None, "beans": None,
                "deal": ["33"], "marked": "S3", "actions": []})


def test_records_keep_the_marked_moves() -> None:
    for seed in range(40):
        g = play_game(FiveGame(seed=seed), [RandomBot(seed + s) for s in range(5)])
        marked = [a for _, a in g.history if isinstance(a, MarkedMove)]
        if marked:
            rec = json.loads(dumps(g))
            assert any(" marked " in t for t in rec["actions"])
            assert replay(rec) == g
            return
    raise AssertionError("no game with a marked move in 40 seeds")


def test_bots_play_five_player_games() -> None:
    for seed in range(8):
        bots = [RuleBot(), RandomBot(seed), RuleBot(), RandomBot(seed + 1), RuleBot()]
        g = play_game(FiveGame(seed=seed, room=Room(coefficient=10, double_threshold=50),
                               beans=[100, 40, 900, 0, 70]), bots)
        assert g.is_terminal()
    with pytest.raises(ValueError):
        play_game(FiveGame(seed=1), [RandomBot()] * 3)


def test_rule_bot_lets_a_known_ally_stand_and_never_reveals_as_a_farmer() -> None:
    seen: list[FiveObservation] = []

    class Spy(RuleBot):
        def act(self, obs):  # type: ignore[no-untyped-def]
            seen.append(obs)
            a = super().act(obs)
            assert a in obs.legal_actions
            if obs.phase == FivePhase.PLAY and obs.last_player in obs.allies:
                assert a == PASS
            return a

    for seed in range(6):
        play_game(FiveGame(seed=seed), [Spy() for _ in range(5)])
    assert any(o.allies for o in seen if o.phase == FivePhase.PLAY)


def test_run_five_games_is_reproducible() -> None:
    bots = [RuleBot(), RandomBot(1), RuleBot(), RandomBot(2), RuleBot()]
    a = run_five_games(20, bots, seed=5, room=Room(coefficient=100, rake=5))
    bots = [RuleBot(), RandomBot(1), RuleBot(), RandomBot(2), RuleBot()]
    b = run_five_games(20, bots, seed=5, room=Room(coefficient=100, rake=5))
    assert a.games == 20 and a.landlord_wins + a.farmer_wins == 20
    assert (a.net, a.points, a.solo, a.multiplier_total) == (b.net, b.points, b.solo, b.multiplier_total)
    assert sum(a.net) == -a.rake == -20 * 5 * 5
    assert abs(sum(a.points)) < 1e-9


def test_parse_action_in_five_player_games() -> None:
    g = FiveGame(seed=2)
    assert g.parse_action("no") == FiveAction.NO_REVEAL and g.parse_action("亮出身份") == FiveAction.REVEAL
    while g.phase != FivePhase.PLAY:
        g.apply("no")
    lead = next(m for m in g.legal_actions() if m.combo.name == "SINGLE")
    assert g.parse_action(str(lead.cards)) == lead and g.parse_action(str(lead)) == lead
    g.apply(str(lead.cards))
    assert g.parse_action("pass") == PASS and g.last_move == lead


# -- the command line ---------------------------------------------------------------------

def run(args: list[str], text: str = "") -> tuple[int, str]:
    r = CliRunner().invoke(main, args, input=text)
    return r.exit_code, r.output


def test_simulate_five_players() -> None:
    code, out = run(["simulate", "--players", "5", "--games", "5", "--seed", "1", "--no-progress",
                     "--bots", "rule,random,rule,random,rule", "--room", "100", "--rake", "5"])
    assert code == 0, out
    assert "5 five-player games" in out and "open landlord alone" in out and "seat 4 (rule)" in out
    assert "rake, per game" in out and "25.0" in out  # 5 players x 5 beans


def test_play_five_players(tmp_path: Path) -> None:
    path = tmp_path / "five.json"
    code, out = run(["play", "--players", "5", "--seat", "4", "--seed", "3", "--record", str(path)], "#1\n" * 600)
    assert code == 0, out
    assert "marked card" in out and "Game over" in out and "Settlement" in out and "hidden landlord" in out
    g = load(path)
    assert isinstance(g, FiveGame) and g.is_terminal()


def test_play_five_refuses_three_player_options() -> None:
    code, out = run(["play", "--players", "5", "--laizi"])
    assert code != 0 and "three-player" in out
    code, out = run(["simulate", "--players", "5", "--bidding", "points", "--games", "1"])
    assert code != 0 and "do not bid" in out
    code, out = run(["play", "--seat", "3"])
    assert code != 0 and "0-2" in out
    code, out = run(["simulate", "--players", "5", "--games", "1", "--bots", "rule,random"])
    assert code != 0 and "give 5 bot names" in out


@pytest.mark.slow
def test_sweep_random_and_rule_bot_games() -> None:
    """300 random playouts checked every few plies and 200 rule-bot games,
    each record replayed (about 10 s)."""
    for seed in range(300):
        g = random_playout(10_000 + seed, check_every=7)
        assert replay(json.loads(dumps(g))) == g
    bots = [RuleBot() for _ in range(5)]
    rng = np.random.default_rng(9)
    for _ in range(200):
        g = play_game(FiveGame(seed=rng, room=Room(coefficient=100, rake=3)), bots)
        check_state(g)
        assert replay(json.loads(dumps(g))) == g
