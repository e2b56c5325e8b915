"""Speed of hand evaluation and of SearchBot's decisions (one core).

- ``win_probability`` of 17-card hands with 10,000 random (and rule)
  playouts: median wall time of interleaved rounds, one hand per round;
- SearchBot against two RuleBots: wall time of every decision (median,
  95th percentile, maximum, share over 100 ms), its default budget.

    python benchmarks/eval_speed.py --rounds 15 --games 20
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from ddzcore import Game
from ddzcore.tools.bots import RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.cards import Hand
from ddzcore.evaluate import win_probability
from ddzcore.tools.searchbot import SearchBot


class TimedSearchBot(SearchBot):
    """SearchBot that records the wall time of each decision."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.times: list[float] = []
        self.cpu: list[float] = []

    def act(self, obs):  # type: ignore[no-untyped-def]
        t, c = time.perf_counter(), time.process_time()
        a = super().act(obs)
        self.cpu.append(time.process_time() - c)
        self.times.append(time.perf_counter() - t)
        return a


def hands(n: int) -> list[Hand]:
    out = []
    for i in range(n):
        perm = np.random.default_rng(i).permutation(54)[:17]
        ranks = np.where(perm < 52, perm // 4, perm - 39)
        out.append(Hand._trusted(sum(1 << (4 * int(r)) for r in ranks)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    wall: dict[str, list[float]] = {"random": [], "rule": []}
    cpu: dict[str, list[float]] = {"random": [], "rule": []}
    for h in hands(args.rounds):
        for policy in ("random", "rule"):  # interleaved
            t, c = time.perf_counter(), time.process_time()
            win_probability(h, "landlord", playouts=10_000, policy=policy, seed=1)
            cpu[policy].append(time.process_time() - c)
            wall[policy].append(time.perf_counter() - t)
    for policy in wall:
        print(f"win_probability, 10,000 {policy} playouts of a 17-card hand: median {1000 * statistics.median(wall[policy]):.1f} ms "
              f"wall, {1000 * statistics.median(cpu[policy]):.1f} ms CPU (min wall {1000 * min(wall[policy]):.1f} ms; "
              f"{args.rounds} rounds)")
    bot = TimedSearchBot(1)
    for g in range(args.games):
        seats = [bot, RuleBot(), RuleBot()]
        play_game(Game(seed=g), seats[g % 3:] + seats[:g % 3])
    ts = np.array(bot.times) * 1000
    print(f"SearchBot decisions: {len(ts)} in {args.games} games; median {np.median(ts):.1f} ms, "
          f"95th percentile {np.percentile(ts, 95):.1f} ms, max {ts.max():.1f} ms, "
          f"over 100 ms: {100 * np.mean(ts > 100):.1f} %; CPU: median {1000 * np.median(bot.cpu):.1f} ms, "
          f"max {1000 * max(bot.cpu):.1f} ms (the budget is wall time: a loaded machine gets fewer samples)")


if __name__ == "__main__":
    main()
