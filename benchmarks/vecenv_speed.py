"""Steps per second of ``VectorEnv`` (self-play: every step is one move of each game).

Figures, each the median of interleaved rounds (the machine may be shared:
the wall time and the process CPU time are both reported, and each round's
threads=2 / threads=1 ratio, so rounds at low load can be told apart):

1. compact encoding, random legal actions drawn natively
   (``env.step_random()``), ``threads=1`` and ``threads=2``;
2. the same with the actions chosen in NumPy from ``legal_ids`` and passed
   to ``env.step(actions)`` (every action checked; the NumPy choice, serial,
   is in the time);
3. DouZero encoding (x rows of every legal move, z, positions) under the
   ``douzero`` rules, against DouZero's own ``douzero.env.env.Env``
   stepping random legal actions (``pip install --no-deps douzero==1.1.0``;
   left out when it is not installed).

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


def native_round(env: VectorEnv, steps: int, seed: int) -> tuple[float, float, int]:
    """(wall s, CPU s, steps) of `steps` ``step_random`` calls."""
    env.reset(seed=seed)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(steps):
        env.step_random()
    return time.perf_counter() - t, time.process_time() - c, steps * env.num_envs


def vec_round(env: VectorEnv, steps: int, seed: int) -> tuple[float, float, int]:
    """(wall s, CPU s, steps) of `steps` random steps of every game, the
    actions chosen in NumPy; the wall time inside ``env.step`` alone is
    appended to STEP_ONLY[id(env)]."""
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


WALL: dict[str, list[float]] = {}


def interleave(runs: dict[str, Callable[[int], tuple[float, float, int]]], rounds: int) -> dict[str, tuple[float, float]]:
    """Median (steps/s by wall time, steps/s by CPU time) of each run over
    interleaved rounds; every round's wall rate is kept in WALL."""
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for k in runs:
        WALL[k] = []
    for r in range(rounds):
        for name, run in runs.items():
            w, c, n = run(r)
            WALL[name].append(n / w)
            cpu[name].append(n / c)
    return {k: (statistics.median(WALL[k]), statistics.median(cpu[k])) for k in runs}


def douzero_installed() -> bool:
    try:
        import douzero.env.env  # noqa: F401
    except ImportError:
        return False
    return True


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
    runs = {
        "random threads=1": lambda r: native_round(one, args.steps, r),
        "random threads=2": lambda r: native_round(two, args.steps, r),
        "numpy threads=1": lambda r: vec_round(one, args.steps, r),
        "numpy threads=2": lambda r: vec_round(two, args.steps, r),
    }
    dz = VectorEnv(args.dz_envs, rules="douzero", encoding="douzero", seed=1)
    if douzero_installed():
        runs["douzero encoding"] = lambda r: vec_round(dz, args.dz_steps, r)
        runs["DouZero Env"] = lambda r: douzero_round(args.douzero_steps, r)
    else:
        print("douzero is not installed: the DouZero comparison is left out")
    res = interleave(runs, args.rounds)
    two.close()
    for name, (w, c) in res.items():
        print(f"{name:20s} {w:14,.0f} steps/s wall {c:14,.0f} steps/s per CPU second "
              f"({1e9 / c:6.0f} CPU ns a step)")
    if "DouZero Env" in res:
        print(f"douzero encoding / DouZero Env: {res['douzero encoding'][0] / res['DouZero Env'][0]:.0f}x wall, "
              f"{res['douzero encoding'][1] / res['DouZero Env'][1]:.0f}x CPU")
    for how in ("random", "numpy"):
        a, b = res[f"{how} threads=1"], res[f"{how} threads=2"]
        per_round = [y / x for x, y in zip(WALL[f"{how} threads=1"], WALL[f"{how} threads=2"])]
        print(f"{how}: threads=2 / threads=1 {b[0] / a[0]:.2f}x wall (median of rates; per round "
              f"{', '.join(f'{x:.2f}' for x in per_round)}; best {max(per_round):.2f}); CPU per step x{a[1] / b[1]:.2f}")
    s1, s2 = statistics.median(STEP_ONLY[id(one)]), statistics.median(STEP_ONLY[id(two)])
    print(f"inside env.step only (the NumPy choice left out): threads=1 {s1:,.0f} steps/s, "
          f"threads=2 {s2:,.0f} steps/s, {s2 / s1:.2f}x")
    print("uptime:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
