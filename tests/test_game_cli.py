"""``ddz play`` and ``ddz simulate`` (click's test runner; no terminal colours)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ddzcore import Action, Game, Rules
from ddzcore.tools.cli import main
from ddzcore.game.records import load


def run(args: list[str], text: str = "") -> tuple[int, str]:
    r = CliRunner().invoke(main, args, input=text)
    return r.exit_code, r.output


def test_play_a_whole_game_choosing_the_first_action(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run(["play", "--seed", "3", "--room", "100", "--rake", "5", "--record", str(path)], "#1\n" * 400)
    assert code == 0, out
    assert "Your hand" in out and "Game over" in out and "Settlement" in out and "net beans" in out
    assert "♠" in out or "♥" in out or "♣" in out or "♦" in out  # cards drawn with suits
    game = load(path)  # the record replays
    assert game.is_terminal() and game.settlement().net[0] != 0


def test_play_explains_bad_input_then_leaving_asks_and_is_an_escape() -> None:
    code, out = run(["play", "--seed", "4", "--no-shows", "--bots", "random"], "xyz\n77\n?\nq\ny\n")
    assert code == 0, out
    assert "There is no 77 on screen: pick one of 1-2" in out
    assert "'xyz' is not a choice here: type a number on screen (1, 2)" in out
    assert "Calling (叫地主) offers" in out and "move notation" not in out  # the call phase's help
    assert "Leaving now counts as an escape (逃跑): −10 beans (−10 points). Leave? [y/N]" in " ".join(out.split())
    assert "You left the game" in out and "Penalty: -10 points for You" in out


def test_play_types_cards() -> None:
    # Point bidding without shows: find a seed where the human (seat 0) bids first, bid 3, lead by typing.
    rules = Rules(bidding="points", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0,
                  doubling=False)
    seed = next(s for s in range(100) if Game(rules, seed=s).first_caller == 0)
    g = Game(rules, seed=seed)
    g.apply(Action.BID_3)
    low = g.hand(0).ranks()[0].char  # the human's lowest card
    typed = "10" if low == "T" else low
    code, out = run(["play", "--seed", str(seed), "--bidding", "points", "--no-shows", "--no-doubling",
                     "--bots", "random"], f"3\nBR3\n{typed}\n" + "#1\n" * 300)
    assert code == 0, out
    assert "You: bid 3" in out and "You are the landlord (地主)" in out
    assert "You do not hold 3 B R" in out  # explained in screen notation
    shown = "10" if low == "T" else low
    assert f"You (landlord): {shown}  (single)" in out


def test_play_rejects_bad_options() -> None:
    code, out = run(["play", "--bots", "nope"])
    assert code == 2 and "unknown bot" in out
    code, out = run(["play", "--seat", "3"])
    assert code == 2


def test_simulate_prints_the_statistics() -> None:
    code, out = run(["simulate", "--games", "40", "--bots", "rule,random,random", "--seed", "1", "--room", "10",
                     "--rake", "1"])
    assert code == 0, out
    for words in ("landlord wins", "farmer wins", "average multiplier", "spring rate", "beans to landlords",
                  "rake, per game", "games per second", "40 games"):
        assert words in out, words
    code, out = run(["simulate", "--games", "30", "--seed", "2", "--bidding", "points", "--no-shows",
                     "--no-doubling", "--rules", "openspiel", "--no-progress"])
    assert code == 0 and "30 games" in out
    code, out = run(["simulate", "--games", "3", "--bots", "rule,rule"])
    assert code == 2 and "3 bot names" in out
