"""``ddz simulate`` on its fast path against ``ddzcore.simulate`` and the Python bot loop.

    python benchmarks/simulate_speed.py                     # --games 20000 --slow-games 300 --repeat 5
    python benchmarks/simulate_speed.py --players 5         # the five-player game (docs/rules.md §8)

Contenders (games per second, one core, whole games: deal, flow, play, statistics):

- ``simulate``: ``ddzcore.simulate(n, seed)``, random self-play in the kernel.
- ``cli random``: the command ``ddz simulate --games n --seed s --no-progress``
  (random bots; run in-process with click's runner, so the interpreter start
  is left out, the option parsing, settlement and table printing are in),
  with the default flow (shows, doubling) and with ``--no-shows
  --no-doubling`` (then the very games ``simulate(n, s)`` plays).
- ``cli rule``: ``ddz simulate --bots rule`` (the rule bot in C).
- ``python rule``: ``bots.run_games`` with three ``RuleBot`` (the command's
  path before the fast path; ``--slow-games`` games, it is slow).
- ``simulate rule``: ``simulate(n, seed, policy="rule")``.

``--players 5``: ``simulate(n, seed, players=5)`` (random play, no reveal
or doubling), ``ddz simulate --players 5`` with random bots (reveal,
doubling, marked-face choices, play, all in C) and with rule bots, and the
Python loop ``run_five_games`` with five ``RandomBot`` and five ``RuleBot``
(the command's path before the fast path).

Rounds are interleaved (round 1 of every contender, then round 2, ...), each
after ``gc.collect()``; the figures are medians.  Targets (issue 11): cli
random within 2x of simulate (ratio <= 2); cli rule >= 10x the Python rule
loop (120 games/s when the issue was filed).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from typing import Callable

from click.testing import CliRunner

from ddzcore import simulate
from ddzcore.tools.bots import RuleBot
from ddzcore.tools.bots import RandomBot
from ddzcore.tools.simulation import run_five_games, run_games
from ddzcore.tools.cli import main as ddz
from ddzcore.rules import Rules
from ddzcore.game.settlement import Room


def cli(args: list[str]) -> Callable[[], None]:
    def run() -> None:
        r = CliRunner().invoke(ddz, ["simulate", "--no-progress", *args])
        assert r.exit_code == 0, r.output
    return run


def rounds(contenders: dict[str, tuple[int, Callable[[], object]]], repeat: int) -> dict[str, float]:
    """Interleaved rounds of every contender; prints and returns the median games per second."""
    times: dict[str, list[float]] = {k: [] for k in contenders}
    for _ in range(repeat):
        for name, (_, f) in contenders.items():
            gc.collect()
            t = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t)
    rate = {k: contenders[k][0] / statistics.median(v) for k, v in times.items()}
    print(f"uptime: {os.popen('uptime').read().strip()}")
    print(f"{'contender':34} {'games':>7} {'games/s (median)':>17}")
    for k, r in rate.items():
        print(f"{k:34} {contenders[k][0]:7d} {r:17,.0f}")
    return rate


def five(a: argparse.Namespace) -> int:
    """The five-player contenders (docs/rules.md §8)."""
    n, s, slow = a.games, str(a.seed), a.slow_games
    two = Rules(decks=2)
    contenders: dict[str, tuple[int, Callable[[], object]]] = {
        "simulate players=5": (n, lambda: simulate(n, a.seed, players=5)),
        "cli random --players 5": (n, cli(["--players", "5", "--games", str(n), "--seed", s])),
        "cli rule --players 5": (n, cli(["--players", "5", "--games", str(n), "--seed", s, "--bots", "rule"])),
        "python random five": (slow, lambda: run_five_games(slow, [RandomBot(a.seed)] * 5, a.seed, two, Room())),
        "python rule five": (slow, lambda: run_five_games(slow, [RuleBot()] * 5, a.seed, two, Room())),
    }
    rate = rounds(contenders, a.repeat)
    print(f"simulate / cli random --players 5:      "
          f"{rate['simulate players=5'] / rate['cli random --players 5']:.2f}x (target <= 2)")
    print(f"cli random / python random (5 seats):   "
          f"{rate['cli random --players 5'] / rate['python random five']:.0f}x")
    print(f"cli rule / python rule (5 seats):       "
          f"{rate['cli rule --players 5'] / rate['python rule five']:.0f}x")
    return 0


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--slow-games", type=int, default=300, help="games of the Python rule-bot loop")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(3, 5), default=3)
    a = ap.parse_args(argv)
    n, s = a.games, str(a.seed)
    if a.players == 5:
        return five(a)
    contenders: dict[str, tuple[int, Callable[[], object]]] = {
        "simulate": (n, lambda: simulate(n, a.seed)),
        "cli random": (n, cli(["--games", str(n), "--seed", s])),
        "cli random, no shows/doubling": (n, cli(["--games", str(n), "--seed", s, "--no-shows", "--no-doubling"])),
        "simulate rule": (n, lambda: simulate(n, a.seed, policy="rule")),
        "cli rule": (n, cli(["--games", str(n), "--seed", s, "--bots", "rule"])),
        "python rule": (a.slow_games, lambda: run_games(a.slow_games, [RuleBot()] * 3, a.seed, Rules(), Room())),
    }
    rate = rounds(contenders, a.repeat)
    print(f"simulate / cli random:                  {rate['simulate'] / rate['cli random']:.2f}x (target <= 2)")
    print(f"simulate / cli random, same games:      "
          f"{rate['simulate'] / rate['cli random, no shows/doubling']:.2f}x (target <= 2)")
    print(f"cli rule / python rule:                 {rate['cli rule'] / rate['python rule']:.1f}x (target >= 10)")
    print(f"cli rule / 120 games/s (issue 11):      {rate['cli rule'] / 120:.1f}x (target >= 10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
