"""Endgame solver and min_plays speed on seeded random deals (issue 12).

    python benchmarks/solver_bench.py [--n N] [--rounds R] [--only ROW ...]

Rows (each hand drawn from one shuffled deck, seeded, the first side to lead
on a free lead):

- ``2p-10``: two hands of exactly 10 cards (the worst case of "≤ 10 a side");
- ``2p-13``: two hands of exactly 13 cards;
- ``3p-8``: landlord and two farmers, 8 cards each;
- ``famous``: ``448999TJJQQAR`` to lead against ``336688TAA22B``;
- ``min_plays``: ``min_plays_batch`` over 20-card hands (hands/s).

Each solve is timed around the whole ``solve()`` call (wall clock: argument
checks and the search for the value); row ``2p-10+`` also reads
``winning_moves`` and ``line`` (every root move's value and the principal
variation, computed when first read).
Rounds interleave the rows; per position the median over rounds is kept,
then the median and 99th percentile over positions are printed, in wall
time and in this thread's CPU time (on a shared machine the CPU time is the
closer measure of the work), with node counts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

from ddzcore import Rules, hands_array, min_plays_batch, solve

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"


def deals(n: int, sizes: tuple[int, ...], seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(DECK)
        rng.shuffle(cards)
        hands, at = [], 0
        for k in sizes:
            hands.append("".join(cards[at:at + k]))
            at += k
        out.append(hands)
    return out


def time_solves(positions: list[list[str]], full: bool) -> tuple[list[float], list[float], list[int]]:
    """Wall and CPU seconds (this thread) and nodes of each solve."""
    secs, cpu, nodes = [], [], []
    for hands in positions:
        t, c = time.perf_counter(), time.thread_time()
        r = solve(hands, Rules())
        if full:
            r.winning_moves, r.line
        secs.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
        nodes.append(r.nodes)
        assert r.wins is not None
    return secs, cpu, nodes


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.array(xs), q))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200, help="positions per row (default 200)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--only", nargs="*", default=None, help="rows to run")
    a = ap.parse_args()
    rows = {
        "2p-10": deals(a.n, (10, 10), 1),
        "2p-13": deals(max(a.n // 4, 10), (13, 13), 2),
        "3p-8": deals(a.n, (8, 8, 8), 3),
        "famous": [["448999TJJQQAR", "336688TAA22B"]],
    }
    rows["2p-10+"] = rows["2p-10"]
    if a.only:
        rows = {k: v for k, v in rows.items() if k in a.only}
    hands20 = hands_array([h[0] for h in deals(2000, (20,), 4)])
    times: dict[str, list[list[float]]] = {k: [] for k in rows}
    cpus: dict[str, list[list[float]]] = {k: [] for k in rows}
    nodes: dict[str, list[int]] = {}
    mp_rates = []
    for _ in range(a.rounds):
        for k, pos in rows.items():
            s, c, nd = time_solves(pos, k.endswith("+"))
            times[k].append(s)
            cpus[k].append(c)
            nodes[k] = nd
        if not a.only or "min_plays" in a.only:
            c = time.thread_time()
            min_plays_batch(hands20)
            mp_rates.append(len(hands20) / (time.thread_time() - c))
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    print(f"{'row':<8} {'positions':>9} {'median ms':>10} {'p99 ms':>10} {'cpu median':>11} {'cpu p99':>10} "
          f"{'median nodes':>13} {'p99 nodes':>10}")
    for k in rows:
        wall = [statistics.median(r[i] for r in times[k]) * 1e3 for i in range(len(rows[k]))]
        cpu = [statistics.median(r[i] for r in cpus[k]) * 1e3 for i in range(len(rows[k]))]
        print(f"{k:<8} {len(wall):>9} {statistics.median(wall):>10.3f} {pct(wall, 99):>10.3f} "
              f"{statistics.median(cpu):>11.3f} {pct(cpu, 99):>10.3f} {int(statistics.median(nodes[k])):>13} "
              f"{int(pct(nodes[k], 99)):>10}")
    if mp_rates:
        print(f"min_plays on 20-card hands: {statistics.median(mp_rates):,.0f} hands/s of CPU time "
              f"(median of {len(mp_rates)} rounds of {len(hands20)})")


if __name__ == "__main__":
    main()
