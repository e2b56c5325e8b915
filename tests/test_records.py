"""Game records (JSON) round-trip, and golden playthroughs replay and diff.

Golden files live in ``tests/golden/``: ``NAME.json`` (the record) and
``NAME.txt`` (its transcript).  Regenerate them after an intended change of
behaviour with ``DDZ_REGEN_GOLDEN=1 pytest tests/test_records.py`` and
review the diff.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from ddzcore import PASS, Action, Game, Move, RecordError, Room, Rules
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.game import OPENSPIEL_FLOW
from ddzcore.game.records import action_text, dumps, load, loads, parse_action_text, replay, to_record, transcript

from test_game import DEAL_B, act, no_shows, to_play

GOLDEN = Path(__file__).parent / "golden"


def random_game(seed: int, rules: Rules | None = None, **kw: object) -> Game:
    return play_game(Game(rules, seed=seed, **kw), [RandomBot(seed + 1), RandomBot(seed + 2), RandomBot(seed + 3)])


# -- golden playthroughs ------------------------------------------------------------

def _anti_spring() -> Game:
    # flow.md FL-01, settled by hand in test_game_cases.py: landlord -4, farmers +2.
    g = Game(deal=DEAL_B, first=0)
    no_shows(g)
    act(g, Action.CALL, Action.NO_ROB, Action.NO_ROB)
    to_play(g)
    act(g, "3", "2", PASS, PASS, "3456789TJQKA", PASS, PASS, "KK", PASS, PASS, "A", PASS, PASS, "2")
    return g


def _redeal_then_escape() -> Game:
    g = Game(Rules(show_start=0, show_deal_early=0), deal=DEAL_B, first=1, seed=21,
             room=Room(coefficient=50, rake=3))
    act(g, Action.NO_SHOW, Action.NO_SHOW, Action.NO_SHOW, Action.NO_CALL, Action.NO_CALL, Action.NO_CALL)
    assert g.redeals == 1
    bots = [RandomBot(5), RandomBot(6), RandomBot(7)]
    for _ in range(30):
        p = g.current_player()
        g.apply(bots[p].choose(g.legal_actions()))
    g.escape(2)
    return g


def _endgame() -> Game:
    g = Game.endgame(["3334445559TJQKA", "66778899TJ", "JQKA22BR"], landlord=0, room=Room(coefficient=10))
    return play_game(g, [RuleBot(), RuleBot(), RuleBot()])


GOLDEN_GAMES: dict[str, Callable[[], Game]] = {
    "anti_spring": _anti_spring,
    "random_happy_rules": lambda: random_game(1),
    "random_points_capped_room": lambda: random_game(
        7, Rules(bidding="points", show_combine="product"),
        room=Room(coefficient=100, rake=10, initial_multiplier=2, double_threshold=1000),
        beans=[5000, 800, 100000]),
    "rule_bots_openspiel_flow": lambda: play_game(
        Game(Rules.preset("openspiel", **OPENSPIEL_FLOW), seed=3), [RuleBot(), RuleBot(), RuleBot()]),
    "rule_vs_random_room": lambda: play_game(
        Game(seed=12, room=Room(coefficient=1000, rake=50), beans=[30000, 2000, 9000]),
        [RuleBot(), RandomBot(1), RandomBot(2)]),
    "redeal_then_escape": _redeal_then_escape,
    "endgame": _endgame,
}


def _diff(expected: str, got: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), f"{name} (file)",
                                        f"{name} (now)"))


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough(name: str) -> None:
    game = GOLDEN_GAMES[name]()
    record, text = dumps(game), transcript(game)
    jpath, tpath = GOLDEN / f"{name}.json", GOLDEN / f"{name}.txt"
    if os.environ.get("DDZ_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        jpath.write_text(record, encoding="utf-8")
        tpath.write_text(text, encoding="utf-8")
    # 1. the file replays (checking its recorded result and settlement) ...
    replayed = load(jpath)
    # 2. ... to a game that writes the same record and transcript back
    assert dumps(replayed) == jpath.read_text(encoding="utf-8"), _diff(jpath.read_text(), dumps(replayed), name)
    assert transcript(replayed) == tpath.read_text(encoding="utf-8"), _diff(tpath.read_text(),
                                                                             transcript(replayed), name)
    # 3. and the engine still plays the same game today
    assert record == jpath.read_text(encoding="utf-8"), _diff(jpath.read_text(), record, name)
    assert replayed == game


def test_golden_anti_spring_is_settled_as_worked_out_by_hand() -> None:
    rec = json.loads((GOLDEN / "anti_spring.json").read_text())
    assert rec["result"]["returns"] == [-4, 2, 2]  # flow.md FL-01
    assert rec["settlement"]["multiplier"]["anti_spring"] is True


# -- round trips ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_random_games_round_trip(seed: int) -> None:
    rules = [Rules(), Rules(bidding="points"), Rules.preset("rlcard", max_redeals=1),
             Rules(show_combine="product", rob_back=False)][seed % 4]
    g = random_game(seed, rules, room=Room(coefficient=3, rake=1, initial_multiplier=2),
                    beans=None if seed % 2 else [seed * 7, 100, 2000])
    again = loads(dumps(g))
    assert again == g
    assert again.settlement() == g.settlement()
    assert to_record(again) == to_record(g)


def test_unfinished_games_round_trip_at_every_step() -> None:
    g = Game(seed=5)
    bot = RandomBot(9)
    while not g.is_terminal():
        assert loads(dumps(g)) == g
        g.apply(bot.choose(g.legal_actions()))
    assert loads(dumps(g)) == g


def test_endgame_and_escape_round_trip() -> None:
    g = Game.endgame(["3344", "55", "66"], landlord=1, to_move=2, last="4", last_player=0)
    assert loads(dumps(g)) == g
    g.apply("6")
    g.escape(0)
    again = loads(dumps(g))
    assert again == g and again.escaped == 0 and again.settlement() == g.settlement()


def test_action_text() -> None:
    assert action_text(2, Move("33")) == "2 33|pair|3|1"
    assert action_text(0, PASS) == "0 pass"
    assert action_text(1, Action.NO_ROB) == "1 no_rob"
    for text in ("2 33|pair|3|1", "0 pass", "1 no_rob", "2 escape"):
        assert action_text(*parse_action_text(text)) == text
    for bad in ("x call", "1", "1 fly", "1 33|pair|4|1"):
        with pytest.raises(RecordError):
            parse_action_text(bad)


def test_bad_records_are_rejected() -> None:
    g = random_game(3)
    rec = to_record(g)

    def broken(change: Callable[[dict], None]) -> dict:
        r = json.loads(json.dumps(rec))
        change(r)
        return r

    cases = [
        lambda r: r.update(format="other"),
        lambda r: r.update(version=3),
        lambda r: r["rules"].update(bidding="auction"),
        lambda r: r.pop("deals"),
        lambda r: r["deals"][0]["cards"].__setitem__(0, "S3 S3"),
        lambda r: r["actions"].insert(0, "1 call"),  # not seat 1's turn, nor a show phase action
        lambda r: r["actions"].__setitem__(-1, r["actions"][-1].split()[0] + " 3|single|3|1"),
        lambda r: r["result"].update(winner=(r["result"]["winner"] + 1) % 3),
        lambda r: r["settlement"].update(points=[0, 0, 0]),
    ]
    for change in cases:
        with pytest.raises(RecordError):
            replay(broken(change))
    with pytest.raises(RecordError):
        loads("{not json")
    assert replay(broken(lambda r: r["result"].update(winner=None)), check=False).winner == g.winner


def test_seeded_games_with_a_shared_generator_are_reproducible() -> None:
    a = np.random.default_rng(4)
    b = np.random.default_rng(4)
    for _ in range(3):
        assert Game(seed=a) == Game(seed=b)
