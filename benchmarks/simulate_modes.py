"""Games per second of ``simulate`` on one core: five players and laizi
against the standard three-player game, in one run.

    python benchmarks/simulate_modes.py --rounds 7 --games 20000

Each round plays the three modes back to back (interleaved, one thread,
seed = round number); prints each mode's median games/s, its ratio to the
standard game's median, the average plies per game, and ``uptime``'s load
before and after (the machine may be shared: ratios carry over, absolute
figures less).  docs/rules.md §7 (laizi), §8 (five players).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time

from ddzcore import Rules, simulate

MODES = {
    "standard": dict(),
    "five": dict(players=5),
    "laizi": dict(rules=Rules(laizi=True)),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--games", type=int, default=20_000)
    args = ap.parse_args()
    print("before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
          f" cpus: {os.cpu_count()}")
    rates: dict[str, list[float]] = {m: [] for m in MODES}
    plies: dict[str, float] = {}
    for r in range(args.rounds):
        for name, kw in MODES.items():
            start = time.perf_counter()
            sp = simulate(args.games, r, **kw)  # type: ignore[arg-type]
            rates[name].append(args.games / (time.perf_counter() - start))
            plies[name] = float(sp.turns.mean())
    base = statistics.median(rates["standard"])
    for name in MODES:
        med = statistics.median(rates[name])
        print(f"{name:9s} {med:10,.0f} games/s  ratio {med / base:5.2f}  ({plies[name]:.0f} plies/game, "
              f"rounds min {min(rates[name]):,.0f} max {max(rates[name]):,.0f})")
    print("after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
