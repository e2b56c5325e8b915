"""Speed of ddzcore.interop against the real DouZero and RLCard, in one run.

    pip install ".[interop]" && pip install --no-deps douzero
    python benchmarks/interop_speed.py [--rounds 5]
    python benchmarks/interop_speed.py --count    # instructions under callgrind instead

Three ratios, each the median of interleaved rounds (peer, then ddzcore), of
wall-clock rates and of rates per CPU second of the process (the second
depends less on a shared machine's load):

1. DouZero's ``Env``: whole random games, a full observation (``get_obs``,
   what DouZero's actors compute per step) at every decision; steps/s.
2. The batch encoder: DouZero's ``get_obs`` per decision, against
   ``douzero.encode_batch`` over the same decisions (landlord and farmer
   decisions in one call each, into reused buffers); time per observation.
3. RLCard's ``env.run`` with RLCard's ``RandomAgent`` (``is_training`` False,
   RLCard's default, and True), against ddzcore's environment with RLCard's
   ``RandomAgent`` and with ``ddzcore.interop.rlcard.RandomAgent`` (the same
   choices without RLCard's 27,472-entry probability list a step); games/s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any, Callable

import numpy as np


def _douzero_games(make_env: Callable[[], Any], games: int, seed: int) -> int:
    rng = random.Random(seed)
    np.random.seed(seed)
    steps = 0
    for _ in range(games):
        env = make_env()
        obs = env.reset()
        done = False
        while not done:
            obs, _, done, _ = env.step(rng.choice(obs["legal_actions"]))
            steps += 1
    return steps


def _collect_decisions(games: int) -> tuple[list[Any], list[Any]]:
    """DouZero infosets (their GameEnv's) and ours, of the same random games."""
    from douzero.env import env as dz_env

    from ddzcore.interop import douzero as ours

    theirs, mine = [], []
    rng = random.Random(7)
    for g in range(games):
        np.random.seed(g)
        a = dz_env.Env("adp")
        oa = a.reset()
        np.random.seed(g)
        b = ours.Env("adp")
        b.reset()
        done = False
        while not done:
            theirs.append(a.infoset)
            mine.append(b.infoset)
            action = rng.choice(oa["legal_actions"])
            oa, _, done, _ = a.step(action)
            b.step(action)
    return theirs, mine


def _batch_encoder(mine: list[Any]) -> Callable[[], int]:
    from ddzcore.interop import douzero as ours

    groups = []
    for landlord in (True, False):
        sel = [i for i in mine if (i.player_position == "landlord") == landlord]
        rows = np.stack([ours.decision_row(i) for i in sel])
        words = np.concatenate([i._words for i in sel])
        offsets = np.concatenate([[0], np.cumsum([len(i._words) for i in sel])]).astype(np.int64)
        width = 373 if landlord else 484
        bufs = (np.empty((len(words), width), np.float32), np.empty((len(words), 5, 162), np.float32),
                np.empty((len(sel), width - 54), np.int8), np.empty((len(sel), 5, 162), np.int8))
        groups.append((rows, words, offsets, bufs))

    def run() -> int:
        for rows, words, offsets, bufs in groups:
            ours.encode_batch(rows, words, offsets, *bufs)
        return len(mine)
    return run


def _rlcard_runs(make: Callable[..., Any], games: int, training: bool, own_agent: bool = False) -> int:
    from rlcard.agents import RandomAgent

    from ddzcore.interop import rlcard as ours_rl

    env = make("doudizhu", config={"seed": 0})
    agent = ours_rl.RandomAgent if own_agent else RandomAgent
    env.set_agents([agent(num_actions=env.num_actions) for _ in range(3)])
    np.random.seed(0)
    for _ in range(games):
        env.run(is_training=training)
    return games


def _timed(fn: Callable[[], int]) -> tuple[float, float]:
    """(units per wall second, units per CPU second of this process)."""
    t, c = time.perf_counter(), time.process_time()
    n = fn()
    return n / (time.perf_counter() - t), n / (time.process_time() - c)


# Instruction counts (--count): each workload one operator.call in one
# valgrind run (callgrind_guard's method); units are steps, observations, games.
COUNTED = {
    "DouZero Env, per step": ("_douzero_games(lambda: dz_env.Env('adp'), 2, 1)",
                              "_douzero_games(lambda: ours.Env('adp'), 20, 1)"),
    "get_obs, per observation": ("len([dz_env.get_obs(i) for i in theirs_dec[:60]])", "encode()"),
    "RLCard env.run, per game": ("_rlcard_runs(rlcard.make, 2, False)",
                                 "_rlcard_runs(ours_rl.make, 20, False, own_agent=True)"),
    "RLCard env.run training, RLCard's agent, per game": ("_rlcard_runs(rlcard.make, 2, True)",
                                                          "_rlcard_runs(ours_rl.make, 20, True)"),
}
_SETUP = """
import operator, sys
sys.path.insert(0, {here!r})
from interop_speed import _collect_decisions, _batch_encoder, _rlcard_runs, _douzero_games
import rlcard
from douzero.env import env as dz_env
from ddzcore.interop import douzero as ours
from ddzcore.interop import rlcard as ours_rl
theirs_dec, mine_dec = _collect_decisions(8)
encode = _batch_encoder(mine_dec)
_rlcard_runs(rlcard.make, 1, False); _rlcard_runs(ours_rl.make, 1, False, own_agent=True)
_douzero_games(lambda: ours.Env('adp'), 1, 1)
units = []
"""


def count() -> None:
    """Instructions per unit (callgrind Ir inside each workload's call)."""
    import glob
    import shutil
    import subprocess
    import sys
    import tempfile

    from callgrind_guard import ENTRY, interpreter, part_total

    here = os.path.dirname(os.path.abspath(__file__))
    calls = [c for pair in COUNTED.values() for c in pair]
    script = _SETUP.format(here=here) + "".join(f"units.append(operator.call(lambda: {c}))\n" for c in calls)
    script += "print(units)\n"
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        proc = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
                               f"--toggle-collect={ENTRY}", f"--dump-after={ENTRY}", interpreter(), "-c", script],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(proc.stderr[-3000:])
        units = eval(proc.stdout.strip().splitlines()[-1])
        parts = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = [part_total(p) for p in parts][:len(calls)]
    print(f"instructions (callgrind Ir) per unit; python {sys.version.split()[0]}\n")
    print("| task | DouZero / RLCard | ddzcore | ratio |")
    print("|---|---|---|---|")
    for k, task in enumerate(COUNTED):
        peer, mine = totals[2 * k] / units[2 * k], totals[2 * k + 1] / units[2 * k + 1]
        print(f"| {task} | {peer:,.0f} | {mine:,.0f} | **{peer / mine:.0f}x** |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--count", action="store_true", help="count instructions under callgrind instead of timing")
    args = ap.parse_args()
    if args.count:
        count()
        return

    import rlcard
    from douzero.env import env as dz_env

    from ddzcore.interop import douzero as ours
    from ddzcore.interop import rlcard as ours_rl

    theirs_dec, mine_dec = _collect_decisions(8)
    encode = _batch_encoder(mine_dec)
    contenders: list[tuple[str, str, Callable[[], int]]] = [
        ("DouZero Env (steps/s)", "peer", lambda: _douzero_games(lambda: dz_env.Env("adp"), 3, 1)),
        ("DouZero Env (steps/s)", "ddzcore", lambda: _douzero_games(lambda: ours.Env("adp"), 60, 1)),
        ("get_obs (observations/s)", "peer", lambda: [dz_env.get_obs(i) for i in theirs_dec[:120]] and 120),
        ("get_obs (observations/s)", "ddzcore", lambda: [ours.get_obs(i) for i in mine_dec] and len(mine_dec)),
        ("get_obs (observations/s)", "ddzcore batch", encode),
        ("RLCard env.run (games/s)", "peer", lambda: _rlcard_runs(rlcard.make, 3, False)),
        ("RLCard env.run (games/s)", "ddzcore", lambda: _rlcard_runs(ours_rl.make, 10, False)),
        ("RLCard env.run (games/s)", "ddzcore, its RandomAgent",
         lambda: _rlcard_runs(ours_rl.make, 10, False, own_agent=True)),
        ("RLCard env.run training (games/s)", "peer", lambda: _rlcard_runs(rlcard.make, 3, True)),
        ("RLCard env.run training (games/s)", "ddzcore", lambda: _rlcard_runs(ours_rl.make, 10, True)),
        ("RLCard env.run training (games/s)", "ddzcore, its RandomAgent",
         lambda: _rlcard_runs(ours_rl.make, 10, True, own_agent=True)),
    ]
    rates: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for task, who, fn in contenders:
            wall_rate, cpu_rate = _timed(fn)
            rates.setdefault((task, who), []).append(wall_rate)
            cpu.setdefault((task, who), []).append(cpu_rate)
    med = {k: statistics.median(v) for k, v in rates.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"{len(mine_dec)} decisions in the encoder set; medians of {args.rounds} interleaved rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    print("| task | DouZero / RLCard | ddzcore | ratio | ratio of CPU time |")
    print("|---|---|---|---|---|")
    for task, who, _ in contenders:
        if who == "peer":
            continue
        peer, peer_cpu = med[(task, "peer")], med_cpu[(task, "peer")]
        label = task if who == "ddzcore" else f"{task}, {who}"
        print(f"| {label} | {peer:,.0f} | {med[(task, who)]:,.0f} | **{med[(task, who)] / peer:.0f}x** "
              f"| {med_cpu[(task, who)] / peer_cpu:.0f}x |")


if __name__ == "__main__":
    main()
