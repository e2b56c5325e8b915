"""Speed of ddzcore.interop against the real DouZero and RLCard, in one run.

    pip install ".[interop]" && pip install --no-deps douzero
    python benchmarks/interop_speed.py [--rounds 7] [--no-count]
    python benchmarks/interop_speed.py --count    # only the instruction counts

Each ratio three ways in one table: the median of interleaved rounds (peer,
then ddzcore) of wall-clock rates, of rates per CPU second of the process
(less dependent on a shared machine's load), and of instructions counted
under callgrind (independent of load; skipped without valgrind or with
``--no-count``):

1. DouZero's ``Env``: whole random games, a full observation (``get_obs``,
   what DouZero's actors compute per step) at every decision; steps/s.
2. The batch encoder: DouZero's ``get_obs`` per decision, against
   ``douzero.encode_batch`` over the same decisions (landlord and farmer
   decisions in one call each, into reused buffers; DouZero's full
   repeated float32 arrays), and against ``douzero.encode_compact`` (the
   same observations without the repeats: ``x_no_action`` and ``z`` once
   per decision, 54 int8 features per legal action); time per observation.
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


def _batch_encoder(mine: list[Any], compact: bool = False) -> Callable[[], int]:
    """encode_batch (or encode_compact) of the decisions, landlord's and farmers' in one call each."""
    from ddzcore.interop import douzero as ours

    groups = []
    for landlord in (True, False):
        sel = [i for i in mine if (i.player_position == "landlord") == landlord]
        rows = np.stack([ours.decision_row(i) for i in sel])
        words = np.concatenate([i._words for i in sel])
        offsets = np.concatenate([[0], np.cumsum([len(i._words) for i in sel])]).astype(np.int64)
        width = 373 if landlord else 484
        per_decision = (np.empty((len(sel), width - 54), np.int8), np.empty((len(sel), 5, 162), np.int8))
        if compact:
            groups.append((ours.encode_compact, (rows, words, offsets, *per_decision,
                                                 np.empty((len(words), 54), np.int8))))
        else:
            groups.append((ours.encode_batch, (rows, words, offsets, np.empty((len(words), width), np.float32),
                                               np.empty((len(words), 5, 162), np.float32), *per_decision)))

    def run() -> int:
        for fn, args in groups:
            fn(*args)
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


# The rows: (task, label, peer workload, ddzcore workload, counted (peer, ddzcore) or None).
# Workloads are expressions over the names _SETUP defines; each returns its units.
ROWS: list[tuple[str, str, str, str, "tuple[str, str] | None"]] = [
    ("DouZero Env (steps/s)", "DouZero `Env`: random games, full observation at every decision (steps/s)",
     "_douzero_games(lambda: dz_env.Env('adp'), 3, 1)", "_douzero_games(lambda: ours.Env('adp'), 60, 1)",
     ("_douzero_games(lambda: dz_env.Env('adp'), 2, 1)", "_douzero_games(lambda: ours.Env('adp'), 20, 1)")),
    ("get_obs", "`get_obs`, one decision at a time (observations/s)",
     "len([dz_env.get_obs(i) for i in theirs_dec[:120]])", "len([ours.get_obs(i) for i in mine_dec])",
     ("len([dz_env.get_obs(i) for i in theirs_dec[:60]])", "len([ours.get_obs(i) for i in mine_dec])")),
    ("get_obs", "`get_obs` as `encode_batch`, DouZero's repeated arrays (observations/s)",
     "len([dz_env.get_obs(i) for i in theirs_dec[:120]])", "encode()",
     ("len([dz_env.get_obs(i) for i in theirs_dec[:60]])", "encode()")),
    ("get_obs", "`get_obs` as `encode_compact`, without the repeats (observations/s)",
     "len([dz_env.get_obs(i) for i in theirs_dec[:120]])", "encode_compact()",
     ("len([dz_env.get_obs(i) for i in theirs_dec[:60]])", "encode_compact()")),
    ("RLCard run", "RLCard `env.run`, RLCard's `RandomAgent` on both (games/s)",
     "_rlcard_runs(rlcard.make, 3, False)", "_rlcard_runs(ours_rl.make, 10, False)", None),
    ("RLCard run", "RLCard `env.run`, ddzcore's `RandomAgent` on ddzcore (games/s)",
     "_rlcard_runs(rlcard.make, 3, False)", "_rlcard_runs(ours_rl.make, 10, False, own_agent=True)",
     ("_rlcard_runs(rlcard.make, 2, False)", "_rlcard_runs(ours_rl.make, 20, False, own_agent=True)")),
    ("RLCard training", "RLCard `env.run(is_training=True)`, RLCard's `RandomAgent` on both (games/s)",
     "_rlcard_runs(rlcard.make, 3, True)", "_rlcard_runs(ours_rl.make, 10, True)",
     ("_rlcard_runs(rlcard.make, 2, True)", "_rlcard_runs(ours_rl.make, 20, True)")),
    ("RLCard training", "RLCard `env.run(is_training=True)`, ddzcore's `RandomAgent` on ddzcore (games/s)",
     "_rlcard_runs(rlcard.make, 3, True)", "_rlcard_runs(ours_rl.make, 10, True, own_agent=True)", None),
]
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
encode_compact = _batch_encoder(mine_dec, compact=True)
_rlcard_runs(rlcard.make, 1, False); _rlcard_runs(ours_rl.make, 1, False, own_agent=True)
_douzero_games(lambda: ours.Env('adp'), 1, 1)
encode(); encode_compact()
units = []
"""


def count() -> "dict[str, float] | None":
    """Instructions per unit (callgrind Ir inside each workload's call):
    {row label: peer's per unit / ddzcore's per unit}; None without valgrind."""
    import glob
    import shutil
    import subprocess
    import sys
    import tempfile

    from callgrind_guard import ENTRY, interpreter, part_total

    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    here = os.path.dirname(os.path.abspath(__file__))
    counted = [(label, pair) for _, label, _, _, pair in ROWS if pair is not None]
    calls = [c for _, pair in counted for c in pair]
    script = _SETUP.format(here=here) + "".join(f"units.append(operator.call(lambda: {c}))\n" for c in calls)
    script += "print(units)\n"
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
    ratios = {}
    for k, (label, _) in enumerate(counted):
        peer, mine = totals[2 * k] / units[2 * k], totals[2 * k + 1] / units[2 * k + 1]
        ratios[label] = peer / mine
        print(f"| {label} | {peer:,.0f} | {mine:,.0f} | **{peer / mine:.0f}x** |")
    print()
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--count", action="store_true", help="only count instructions under callgrind")
    ap.add_argument("--no-count", action="store_true", help="time only, without the callgrind count")
    args = ap.parse_args()
    if args.count:
        if count() is None:
            raise SystemExit("valgrind is not installed")
        return
    uptime_before = _uptime()
    names: dict[str, Any] = {}
    exec(_SETUP.format(here=os.path.dirname(os.path.abspath(__file__))), names)
    timed: dict[str, Callable[[], int]] = {}
    for _, _, peer, mine, _ in ROWS:
        for expr in (peer, mine):
            timed.setdefault(expr, eval(f"lambda: {expr}", names))
    rates: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for expr, fn in timed.items():
            wall_rate, cpu_rate = _timed(fn)
            rates.setdefault(expr, []).append(wall_rate)
            cpu.setdefault(expr, []).append(cpu_rate)
    uptime_after = _uptime()
    med = {k: statistics.median(v) for k, v in rates.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    counted = None if args.no_count else count()
    print(f"{len(names['mine_dec'])} decisions in the encoder set; medians of {args.rounds} interleaved rounds "
          f"on {os.cpu_count()} CPUs; uptime before: {uptime_before}; after: {uptime_after}\n")
    print("| task | DouZero / RLCard | ddzcore | ratio (wall) | ratio of CPU time | ratio of instructions |")
    print("|---|---|---|---|---|---|")
    for _, label, peer, mine, _ in ROWS:
        ir = f"{counted[label]:.0f}x" if counted and label in counted else "-"
        print(f"| {label} | {med[peer]:,.1f} | {med[mine]:,.0f} | **{med[mine] / med[peer]:.0f}x** "
              f"| {med_cpu[mine] / med_cpu[peer]:.0f}x | {ir} |")


def _uptime() -> str:
    try:
        with open("/proc/loadavg") as f:
            return "load average " + ", ".join(f.read().split()[:3])
    except OSError:
        return f"load average {os.getloadavg()[0]:.2f}"


if __name__ == "__main__":
    main()
