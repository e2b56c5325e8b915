"""Steps per second of ``VectorEnv`` (self-play: every step is one move of each game).

Three figures, each the median of interleaved rounds (the machine may be
shared: the wall time and the process CPU time are both reported):

1. compact encoding, random legal actions chosen in NumPy from
   ``legal_ids`` (included in the time), ``threads=1``;
2. DouZero encoding (x rows of every legal move, z, positions) under the
   ``douzero`` rules, against DouZero's own ``douzero.env.env.Env``
   stepping random legal actions (``pip install --no-deps douzero==1.1.0``);
3. ``threads=2`` against ``threads=1`` (compact).

    python benchmarks/vecenv_speed.py --rounds 7 --envs 1024 --steps 200
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Callable

import numpy as np

from ddzcore.envs.vector import VectorEnv


STEP_ONLY: dict[int, list[float]] = {}


def vec_round(env: VectorEnv, steps: int, seed: int) -> tuple[float, float, int]:
    """(wall s, CPU s, steps) of `steps` random steps of every game; the
    wall time inside ``env.step`` alone is appended to STEP_ONLY[id(env)]."""
    rng = np.random.default_rng(seed)
    K = env.num_envs
    rows = np.arange(K)
    env.reset()
    inside = 0.0
    t, c = time.perf_counter(), time.process_time()
    for _ in range(steps):
        a = env.legal_ids[rows, (rng.random(K) * env.n_legal).astype(np.int64)].astype(np.int64)
        s = time.perf_counter()
        env.step(a)
        inside += time.perf_counter() - s
    STEP_ONLY.setdefault(id(env), []).append(steps * K / inside)
    return time.perf_counter() - t, time.process_time() - c, steps * K


def douzero_round(steps: int, seed: int) -> tuple[float, float, int]:
    """(wall s, CPU s, steps) of DouZero's Env playing random legal actions."""
    from douzero.env.env import Env

    np.random.seed(seed)
    rnd = random.Random(seed)
    env = Env("adp")
    obs = env.reset()
    t, c = time.perf_counter(), time.process_time()
    for _ in range(steps):
        obs, _, done, _ = env.step(rnd.choice(obs["legal_actions"]))
        if done:
            obs = env.reset()
    return time.perf_counter() - t, time.process_time() - c, steps


def interleave(runs: dict[str, Callable[[int], tuple[float, float, int]]], rounds: int) -> dict[str, tuple[float, float]]:
    """Median (steps/s by wall time, steps/s by CPU time) of each run over interleaved rounds."""
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(rounds):
        for name, run in runs.items():
            w, c, n = run(r)
            wall[name].append(n / w)
            cpu[name].append(n / c)
    return {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=200, help="steps of every game per round")
    ap.add_argument("--dz-envs", type=int, default=256)
    ap.add_argument("--dz-steps", type=int, default=100)
    ap.add_argument("--douzero-steps", type=int, default=1000, help="steps of DouZero's Env per round")
    args = ap.parse_args()
    print("uptime:", os.popen("uptime").read().strip())

    one = VectorEnv(args.envs, seed=1, threads=1)
    two = VectorEnv(args.envs, seed=1, threads=2)
    dz = VectorEnv(args.dz_envs, rules="douzero", encoding="douzero", seed=1)
    res = interleave({
        "compact threads=1": lambda r: vec_round(one, args.steps, r),
        "compact threads=2": lambda r: vec_round(two, args.steps, r),
        "douzero encoding": lambda r: vec_round(dz, args.dz_steps, r),
        "DouZero Env": lambda r: douzero_round(args.douzero_steps, r),
    }, args.rounds)
    two.close()
    for name, (w, c) in res.items():
        print(f"{name:20s} {w:14,.0f} steps/s wall {c:14,.0f} steps/s per CPU second")
    print(f"douzero encoding / DouZero Env: {res['douzero encoding'][0] / res['DouZero Env'][0]:.0f}x wall, "
          f"{res['douzero encoding'][1] / res['DouZero Env'][1]:.0f}x CPU")
    print(f"threads=2 / threads=1: {res['compact threads=2'][0] / res['compact threads=1'][0]:.2f}x wall "
          f"(CPU per step ratio {res['compact threads=1'][1] / res['compact threads=2'][1]:.2f})")
    s1, s2 = statistics.median(STEP_ONLY[id(one)]), statistics.median(STEP_ONLY[id(two)])
    print(f"inside env.step only (the action choice left out): threads=1 {s1:,.0f} steps/s, "
          f"threads=2 {s2:,.0f} steps/s, {s2 / s1:.2f}x")
    print("uptime:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
