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
checks, the search, every root move's value and the principal variation).
Rounds interleave the rows; per position the median over rounds is kept,
then the median and 99th percentile over positions are printed, with nodes.
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


def time_solves(positions: list[list[str]]) -> tuple[list[float], list[int]]:
    secs, nodes = [], []
    for hands in positions:
        t = time.perf_counter()
        r = solve(hands, Rules())
        secs.append(time.perf_counter() - t)
        nodes.append(r.nodes)
        assert r.wins is not None
    return secs, nodes


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
    if a.only:
        rows = {k: v for k, v in rows.items() if k in a.only}
    hands20 = hands_array([h[0] for h in deals(2000, (20,), 4)])
    times: dict[str, list[list[float]]] = {k: [] for k in rows}
    nodes: dict[str, list[int]] = {}
    mp_rates = []
    for _ in range(a.rounds):
        for k, pos in rows.items():
            s, nd = time_solves(pos)
            times[k].append(s)
            nodes[k] = nd
        if not a.only or "min_plays" in a.only:
            t = time.perf_counter()
            min_plays_batch(hands20)
            mp_rates.append(len(hands20) / (time.perf_counter() - t))
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    print(f"{'row':<8} {'positions':>9} {'median ms':>10} {'p99 ms':>10} {'max ms':>10} {'median nodes':>13}")
    for k in rows:
        per_pos = [statistics.median(r[i] for r in times[k]) * 1e3 for i in range(len(rows[k]))]
        print(f"{k:<8} {len(per_pos):>9} {statistics.median(per_pos):>10.3f} {pct(per_pos, 99):>10.3f} "
              f"{max(per_pos):>10.3f} {int(statistics.median(nodes[k])):>13}")
    if mp_rates:
        print(f"min_plays on 20-card hands: {statistics.median(mp_rates):,.0f} hands/s "
              f"(median of {len(mp_rates)} rounds of {len(hands20)})")


if __name__ == "__main__":
    main()
