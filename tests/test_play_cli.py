"""``ddz play`` driven by scripted input: what typed text means (cards are
always cards, ``#N`` picks only what is on screen, readings are asked
back), the record path (checked first, written atomically, a fallback when
writing fails), leaving (confirmation with the penalty, Ctrl-C, exit
codes), custom bots by import path, help in every phase, and the 80×24
screen."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from ddzcore import Action, Game, Move, Rules
from ddzcore.tools.bots import Bot, RuleBot
from ddzcore.tools.cli import main
from ddzcore.tools.cli_ui import move_text
from ddzcore.game.records import load, save

QUIET = Rules(bidding="points", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0, doubling=False)
QUIET_ARGS = ["--bidding", "points", "--no-shows", "--no-doubling", "--bots", "random"]


def run(args: list[str], text: str = "", columns: int = 200) -> tuple[int, str]:
    r = CliRunner().invoke(main, args, input=text, env={"COLUMNS": str(columns), "LINES": "24"})
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r.exit_code, r.output


def landlord_lead(want: Any) -> tuple[int, Game]:
    """A seed where the human (seat 0) bids first; after a bid of 3 it leads
    as the landlord with a hand for which ``want(game)`` holds."""
    for seed in range(300):
        g = Game(QUIET, seed=seed)
        if g.first_caller != 0:
            continue
        g.apply(Action.BID_3)
        if want(g):
            return seed, g
    raise AssertionError("no such deal in 300 seeds")


def test_typed_digits_are_cards_never_a_list_entry() -> None:
    # The lead lists more than 33 moves and the hand holds a pair of 3s: 33 is the pair, not entry 33.
    seed, g = landlord_lead(lambda g: len(g.legal_actions()) > 40 and g.hand(0).counts()[0] == 2)
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "3\n33\n" + "#1\n" * 300)
    assert code == 0, out
    assert "You (landlord): 3 3  (pair)" in out
    # Holding no 8: 88 is refused in the notation on screen, nothing is played, and the question is asked again.
    seed, g = landlord_lead(lambda g: len(g.legal_actions()) > 40 and g.hand(0).counts()[5] == 0)
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "3\n88\n2\n" + "#1\n" * 300)
    assert code == 0, out
    assert "You do not hold 8 8: your hand is" in out
    first_play = out.split("You do not hold 8 8")[1]
    holds_2 = g.hand(0).counts()[12] > 0
    # 2 is the card 2: played as a single if held, else refused; never entry 2 of the list.
    assert ("You (landlord): 2  (single)" in first_play) if holds_2 else ("You do not hold 2:" in first_play)
    # 1 is no card: refused, with the way to pick entry 1.
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "3\n1\n" + "#1\n" * 300)
    assert code == 0 and "'1' is not cards" in out and "#1 picks entry 1 of the list" in " ".join(out.split())


def test_only_entries_on_screen_can_be_picked() -> None:
    seed, g = landlord_lead(lambda g: len(g.legal_actions()) > 40)
    legal = list(g.legal_actions())
    # #20 is on page 2 (a page lists 16 in 80 columns): refused on page 1, picked after turning the page.
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "3\n#20\n>\n#20\n" + "#1\n" * 300, columns=80)
    assert code == 0, out
    assert "There is no #20 on screen: pick one of #1-#16 or type cards" in out
    assert f"moves 17-32 of {len(legal)}" in out
    assert f"You (landlord): {move_text(legal[19])}" in out
    # A filter narrows the list; its entries keep their numbers.
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "3\n/pair\n" + "#1\n" * 300, columns=80)
    pairs = [i for i, m in enumerate(legal) if str(m.combo) == "pair"]
    assert f"#{pairs[0] + 1} {move_text(legal[pairs[0]])}" in out and "matching /pair" in out


def test_several_readings_are_asked_back_and_only_they_can_be_picked() -> None:
    rules = Rules(bidding="points", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0,
                  doubling=False, laizi=True)
    for seed in range(300):
        g = Game(rules, seed=seed)
        if g.first_caller != 0:
            continue
        g.apply(Action.BID_3)
        by_cards: dict[int, list[Move]] = {}
        for m in g.legal_actions():
            by_cards.setdefault(m.codes[0], []).append(m)
        found = next((ms for ms in by_cards.values() if 1 < len(ms) < 9), None)
        if found:
            break
    else:
        raise AssertionError("no ambiguous laizi lead in 300 seeds")
    cards = str(found[0].cards)
    code, out = run(["play", "--laizi", "--seed", str(seed), *QUIET_ARGS],
                    f"3\n{cards}\n#9\n#{len(found)}\n" + "#1\n" * 300)
    assert code == 0, out
    assert f"can be played several ways ({len(found)})" in out
    assert "There is no #9 on screen" in out  # the readings replace the list: #9 is not among them
    assert f"You (landlord): {move_text(found[-1], g.wild)}" in out


# -- the record ---------------------------------------------------------------------------

def test_record_path_in_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    code, out = run(["play", "--seed", "1", "--record", str(tmp_path / "nope" / "game.json")], "#1\n" * 400)
    assert code == 2 and "does not exist" in out and "Your hand" not in out
    code, out = run(["play", "--seed", "1", "--record", str(tmp_path)], "")
    assert code == 2 and "is a directory" in out


class FolderEater(Bot):
    """A bot that deletes the record's folder on its first move (from $DDZ_TEST_EAT), then plays by rule."""

    name = "eater"

    def __init__(self) -> None:
        self.rule = RuleBot()

    def act(self, obs: Any) -> Any:
        shutil.rmtree(os.environ["DDZ_TEST_EAT"], ignore_errors=True)
        return self.rule.act(obs)


def test_a_record_that_cannot_be_written_goes_to_a_fallback_file(tmp_path: Path, monkeypatch: Any) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    monkeypatch.setenv("DDZ_TEST_EAT", str(folder))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    r = CliRunner().invoke(main, ["play", "--seed", "2", "--bots", f"{__name__}:FolderEater,rule",
                                  "--record", str(folder / "game.json")], input="#1\n" * 400)
    assert r.exit_code == 0 and r.exception is None, r.output
    said = re.search(r"it was saved to (\S+) instead", " ".join(r.output.split()))
    assert said and "Could not write the record to" in r.output, r.output
    game = load(said.group(1))
    assert game.is_terminal() and Path(said.group(1)).resolve().parent == cwd.resolve()


def test_save_is_atomic(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "game.json"
    save(Game(seed=1), path)
    before = path.read_text(encoding="utf-8")
    g = Game(seed=2)
    g.apply(g.legal_actions()[0])

    def broken(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        save(g, path)
    assert path.read_text(encoding="utf-8") == before and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# -- leaving, exit codes -------------------------------------------------------------------

def test_leaving_asks_first_and_no_goes_back_to_the_game() -> None:
    code, out = run(["play", "--seed", "4", "--no-shows", "--bots", "random"], "q\nn\n" + "#1\n" * 400)
    assert code == 0, out
    assert "Leave? [y/N]" in out and "Back to the game." in out and "You left" not in out and "Game over" in out


def test_end_of_input_leaves_with_exit_code_1() -> None:
    code, out = run(["play", "--seed", "4", "--no-shows", "--bots", "random"], "")
    assert code == 1 and "Leaving now counts as an escape" in out and "You left the game" in out


def _read_until(proc: "subprocess.Popen[bytes]", marker: bytes, seen: bytearray, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    assert proc.stdout is not None
    while marker not in seen:
        assert time.monotonic() < end, seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen.decode(errors="replace")
            seen += chunk


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("answer, code", [("y", 130), ("n", 0)])
def test_ctrl_c_asks_too_and_exits_130(answer: str, code: int) -> None:
    env = dict(os.environ, COLUMNS="80", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-c", "from ddzcore.tools.cli import main; main()", "play", "--seed", "4",
                             "--no-shows", "--bots", "random"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)
    seen = bytearray()
    try:
        _read_until(proc, b"> ", seen)
        proc.send_signal(signal.SIGINT)
        _read_until(proc, b"Leave?", seen)
        assert proc.stdin is not None
        rest, _ = proc.communicate((answer + "\n" + "#1\n" * 400).encode(), timeout=120)
    finally:
        proc.kill() if proc.poll() is None else None
    out = (bytes(seen) + rest).decode()
    assert proc.returncode == code, out
    assert "Leaving now counts as an escape (逃跑)" in out and "Traceback" not in out
    assert ("You left the game" in out) == (answer == "y") and "Game over" in out


# -- bots, help, the screen -----------------------------------------------------------------

class FirstBot(Bot):
    """A custom bot for --bots by import path: always the first legal action."""

    name = "first"

    def act(self, obs: Any) -> Any:
        return obs.legal_actions[0]


def test_bots_by_import_path() -> None:
    code, out = run(["play", "--seed", "5", "--bots", f"{__name__}:FirstBot,rule"], "#1\n" * 400)
    assert code == 0 and "seat 1: first, seat 2: rule" in out, out
    code, out = run(["play", "--bots", "no_such_module_xyz:Bot"])
    assert code == 2 and "cannot import the bot module 'no_such_module_xyz'" in out
    code, out = run(["play", "--bots", f"{__name__}:Nope"])
    assert code == 2 and "has no 'Nope'" in out


def test_help_in_every_phase_and_both_player_counts() -> None:
    code, out = run(["play", "--seed", "3"], "?\n" + "#1\n" * 6 + "?\n" + "#1\n" * 400)
    assert code == 0 and "Showing your cards (明牌)" in out, out
    seed, g = landlord_lead(lambda g: True)
    code, out = run(["play", "--seed", str(seed), *QUIET_ARGS], "?\n3\n?\n" + "#1\n" * 300)
    assert "Bid 1-3 (叫分)" in out and "Cards always mean cards: 2 is the card 2" in out
    code, out = run(["play", "--players", "5", "--seed", "3", "--seat", "1"], "?\n" + "#1\n" * 600)
    assert code == 0 and "Revealing (亮出身份) tells everybody" in out, out
    code, out = run(["play", "--help"])
    assert "three players" in out and "five with --players 5" in out


def test_the_end_screen_explains_the_settlement() -> None:
    code, out = run(["play", "--seed", "5", "--room", "100", "--rake", "5"], "#1\n" * 400)
    assert code == 0, out
    assert re.search(r"You \((farmer|landlord)\): base 1 x multiplier \d+", out)
    assert "Beans: points x 100 beans a point" in out and re.search(r"rake -5 = net [-+]\d+ beans", out)


def screens(out: str) -> list[list[str]]:
    """The blocks the player sees at each question: from the table's top rule to the prompt."""
    lines = out.split("\n")
    blocks, start = [], None
    for i, line in enumerate(lines):
        if line.startswith("─") or line.startswith(" ─"):
            start = i
        if line.startswith(">") and start is not None:
            blocks.append(lines[start:i + 1])
            start = None
    return blocks


@pytest.mark.parametrize("players, seat", [("3", "0"), ("3", "1"), ("5", "2")])
def test_each_turn_fits_80x24_with_the_hand_visible(players: str, seat: str) -> None:
    code, out = run(["play", "--players", players, "--seat", seat, "--seed", "8"], "#1\n" * 600, columns=80)
    assert code == 0, out
    assert max(cell_len(line) for line in out.split("\n")) <= 80
    blocks = screens(out)
    assert len(blocks) > 5
    for block in blocks:
        assert len(block) <= 23, "\n".join(block)  # with the line being typed: 24
        assert any("Your hand" in line for line in block), "\n".join(block)
        assert any(line.startswith(" Multiplier x") for line in block)


def test_the_hand_comes_back_after_a_few_replies_and_five_players_can_leave() -> None:
    code, out = run(["play", "--seed", "4", "--no-shows", "--bots", "random"], "x\n" * 9 + "q\ny\n", columns=80)
    assert code == 0 and out.count("Your hand") == 3, out  # drawn, then again after every 4 replies
    code, out = run(["play", "--players", "5", "--seed", "3"], "q\ny\n")
    flat = " ".join(out.split())
    assert code == 0 and "Leaving now counts as an escape" in flat and "escaped (逃跑)" in flat, out
