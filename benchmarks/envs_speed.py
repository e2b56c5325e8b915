"""Speed of ddzcore's learning environments against their references, in one run.

    pip install ".[pettingzoo,ray]" "rlcard==1.2.0"
    python benchmarks/envs_speed.py [--rounds 5] [--pz-games 300] [--sim-games 10000000]

Two ratios, each the median of interleaved rounds (reference, then ddzcore):

1. RLCard's Dou Dizhu ``env.run`` (rlcard 1.2.0, three ``RandomAgent``),
   against ddzcore's PettingZoo AEC environment stepped in a Python loop
   (``env.agent_iter()``, ``env.last()`` observing every step, a uniformly
   random id among the mask's ones), the play phase with the landlord drawn
   (RLCard has no bidding either), with the ``compact`` and the ``rlcard``
   encodings; games/s.
2. ``ddzcore.simulate(n)`` in this process (one thread) against
   ``ddzcore.distributed.simulate(n, summary=True)`` on a local Ray with 2
   CPUs (``--chunks`` tasks; each sends back a ``SimulationSummary`` with a
   checksum of every game, checked equal to ``summarize`` of the
   one-process arrays, which is not timed); games/s.  Ray's start-up
   (``ray.init`` and the first task, which starts the worker processes) is
   timed apart and the ratio is given with and without it.  ``--arrays``
   also times the per-game arrays sent back and joined (``summary=False``).

Prints ``uptime`` before and after: the machines are shared.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from typing import Callable

import numpy as np


def rlcard_games(games: int, seed: int) -> int:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])
    np.random.seed(seed)
    for _ in range(games):
        env.run(is_training=False)
    return games


def pettingzoo_games(games: int, seed: int, encoding: str) -> int:
    from ddzcore.envs import pettingzoo as ddz_pz

    env = ddz_pz.env(phases="play", encoding=encoding)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(games):
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        env.reset()
    return games


def timed(fn: Callable[[], int]) -> float:
    t = time.perf_counter()
    n = fn()
    return n / (time.perf_counter() - t)


def ray_round(args: argparse.Namespace) -> None:
    import ray

    import ddzcore
    from ddzcore import distributed

    t = time.perf_counter()
    distributed.connect(num_cpus=2, include_dashboard=False)
    init = time.perf_counter() - t
    t = time.perf_counter()
    distributed.simulate(1000, 0, chunks=args.chunks, summary=True)  # the worker processes start
    first = time.perf_counter() - t
    print(f"Ray start-up: ray.init {init:.2f} s, first task (workers start) {first:.2f} s")
    n = args.sim_games
    times: dict[str, list[float]] = {"one process": [], "Ray summary": [], "Ray arrays": []}
    for r in range(args.rounds):
        t = time.perf_counter()
        ref = ddzcore.simulate(n, r)
        times["one process"].append(time.perf_counter() - t)
        t = time.perf_counter()
        got = distributed.simulate(n, r, chunks=args.chunks, summary=True)
        times["Ray summary"].append(time.perf_counter() - t)
        assert got == distributed.summarize(ref), "Ray's games differ from the one-process run"
        if args.arrays:
            t = time.perf_counter()
            full = distributed.simulate(n, r, chunks=args.chunks)
            times["Ray arrays"].append(time.perf_counter() - t)
            assert all(np.array_equal(getattr(ref, k), getattr(full, k)) for k in ("winner", "hands", "calls", "turns"))
            del full
        del ref
    one = statistics.median(times["one process"])
    for name in ("Ray summary", "Ray arrays") if args.arrays else ("Ray summary",):
        m = statistics.median(times[name])
        print(f"simulate {n:,} games, {name} ({args.chunks} tasks): {n / m:,.0f} games/s against one process "
              f"{n / one:,.0f}: x{one / m:.2f} without Ray's start-up, x{one / (m + init + first):.2f} with it "
              f"(identical results; seconds per round: {', '.join(f'{x:.2f}' for x in times['one process'])} | "
              f"{', '.join(f'{x:.2f}' for x in times[name])})")
    ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pz-games", type=int, default=300)
    ap.add_argument("--sim-games", type=int, default=10_000_000)
    ap.add_argument("--skip-ray", action="store_true")
    ap.add_argument("--skip-pettingzoo", action="store_true")
    ap.add_argument("--chunks", type=int, default=2, help="Ray tasks per simulate")
    ap.add_argument("--arrays", action="store_true", help="also time the per-game arrays sent back")
    args = ap.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())

    rates: dict[str, list[float]] = {"rlcard env.run": [], "pettingzoo compact": [], "pettingzoo rlcard": []}
    for r in range(0 if args.skip_pettingzoo else args.rounds):
        rates["rlcard env.run"].append(timed(lambda: rlcard_games(args.pz_games, r)))
        rates["pettingzoo compact"].append(timed(lambda: pettingzoo_games(args.pz_games, r, "compact")))
        rates["pettingzoo rlcard"].append(timed(lambda: pettingzoo_games(args.pz_games, r, "rlcard")))
    base = statistics.median(rates["rlcard env.run"] or [1.0])
    for name, xs in rates.items() if not args.skip_pettingzoo else ():
        m = statistics.median(xs)
        print(f"{name:22s} {m:10.1f} games/s  x{m / base:.2f}  (rounds: {', '.join(f'{x:.0f}' for x in xs)})")

    if not args.skip_ray:
        ray_round(args)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
