"""``ddz replay`` and ``ddz view`` (three and five players), and what
``records.load``/``replay`` say about a bad file: not JSON (with the line),
truncated, the wrong format version, an action that does not replay (with
its index), a game cut short."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzcore import FiveGame, Game, Room
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.tools.cli import main
from ddzcore.tools.cli_replay import frames, view_html
from ddzcore.errors import RecordError
from ddzcore.game.records import dumps, load, replay, save


def run(args: list[str], text: str = "") -> tuple[int, str]:
    r = CliRunner().invoke(main, args, input=text, env={"COLUMNS": "100"})
    return r.exit_code, r.output


@pytest.fixture(scope="module")
def three() -> Game:
    return play_game(Game(seed=21, room=Room(coefficient=100, rake=5)), [RuleBot(), RandomBot(3), RuleBot()])


@pytest.fixture(scope="module")
def five() -> FiveGame:
    return play_game(FiveGame(seed=4), [RuleBot(), RandomBot(1), RuleBot(), RandomBot(2), RuleBot()])


def test_records_load_and_replay_take_paths(tmp_path: Path, three: Game, five: FiveGame) -> None:
    for game in (three, five):
        path = tmp_path / "game.json"
        save(game, path)
        assert load(path) == game and replay(path) == game and replay(str(path)) == game
        assert replay(dumps(game)) == game  # the JSON text itself


@pytest.mark.parametrize("mangle, message", [
    (lambda t: t.replace('"actions": [', '"actions": [[', 1), r"not valid JSON: .* at line \d+, column \d+"),
    (lambda t: t[: len(t) // 2], r"truncated: its JSON stops at line \d+"),
    (lambda t: t.replace('"version": ', '"version": 99, "old": ', 1), r"version 99"),
    (lambda t: re.sub(r'"(\d) ([^"|]+\|[a-z_]+\|[^"]*)"', r'"\1 3333|bomb|3|1"', t, count=1),
     r"action \d+ \('\d 3333\|bomb\|3\|1'\) does not replay"),
    (lambda t: t.replace('"actions": [', '"actions": ["0 fly", ', 1), r"action 0: bad action '0 fly'"),
])
def test_a_bad_record_file_says_what_is_wrong(tmp_path: Path, three: Game, mangle, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(mangle(dumps(three)), encoding="utf-8")
    with pytest.raises(RecordError, match=message) as e:
        load(path)
    assert str(path) in str(e.value)
    code, out = run(["replay", str(path), "--no-step"])
    assert code == 2 and re.search(message, " ".join(out.split())), out


def test_a_game_cut_short_is_truncated(tmp_path: Path, three: Game, five: FiveGame) -> None:
    for game in (three, five):
        rec = json.loads(dumps(game))
        n = len(rec["actions"])
        rec["actions"] = rec["actions"][:-3]
        with pytest.raises(RecordError, match=f"truncated: .* its {n - 3} actions end in the play phase"):
            replay(rec)
    path = tmp_path / "x.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="not UTF-8"):
        load(path)


def test_frames_follow_the_game(three: Game, five: FiveGame) -> None:
    for game, n in ((three, 3), (five, 5)):
        fs = frames(game)
        assert len(fs) == len(game.history) + 1 and [f.step for f in fs] == list(range(len(fs)))
        assert sum(len(h) for h in fs[0].hands) == (51 if n == 3 else 108)  # 3 players: the bottom aside
        assert fs[-1].multiplier == game.multiplier().total and fs[-1].to_act == -1 and fs[-1].settlement
        assert all(f.settlement == [] for f in fs[:-1])
        last_seat, last = game.history[-1]
        assert fs[-1].trick[-1][0] == last_seat and len(fs[-1].hands[last_seat]) == 0  # went out with it


def test_replay_command_steps(tmp_path: Path, three: Game, five: FiveGame) -> None:
    path = tmp_path / "game.json"
    save(three, path)
    total = len(three.history)
    code, out = run(["replay", str(path), "--no-step"])
    assert code == 0 and f"step {total}/{total}" in out and "Game over" in out and "net" in out
    code, out = run(["replay", str(path), "--step"], "\n\nb\nq\n")
    assert code == 0 and "step 2/" in out and f"step {total}/" not in out
    assert out.count("step 1/") == 2  # b went back one
    code, out = run(["replay", str(path), "--step"], "\na\n")
    assert code == 0 and f"step {total}/{total}" in out
    save(five, path)
    code, out = run(["replay", str(path), "--no-step"])
    assert code == 0 and "open landlord" in out and "Seat 4" in out
    code, out = run(["replay", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in out


def test_view_writes_one_self_contained_file(tmp_path: Path, three: Game, five: FiveGame) -> None:
    for game in (three, five):
        path = tmp_path / "g.json"
        save(game, path)
        code, out = run(["view", str(path)])
        assert code == 0 and "g.html" in out, out
        html = (tmp_path / "g.html").read_text(encoding="utf-8")
        assert html.count("<script") == 1 and "src=" not in html and "http" not in html.replace("http-equiv", "")
        data = json.loads(re.search(r"const DATA = (\{.*?\});\n", html).group(1).replace("<\\/", "</"))
        assert len(data["frames"]) == len(game.history) + 1 and data["players"] == len(data["frames"][0]["hands"])
    assert "</script><b>" not in view_html(three, title="</script><b>")
