"""Wall-time speed-up of ``threads=`` on the batch calls and ``simulate``.

    python benchmarks/threads_speed.py --rounds 7 --threads 2

Interleaved rounds (1 thread, then N, each round), medians of wall time and
of the process's CPU time (all threads: the work, plus what threading
costs); prints the machine load (os.getloadavg) before and after, since a
shared machine cannot show a parallel speed-up (the CPU time still shows
the overhead: with no overhead N threads use the CPU time of one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable

import numpy as np

from ddzcore import count_moves_batch, legal_moves_batch, simulate
from ddzcore.search import PlayState


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--positions", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=20_000)
    args = ap.parse_args()
    deals = [PlayState.deal(i).hand_words for i in range(args.positions // 2)]
    hands = np.array([w for d in deals for w in d[:2]], dtype=np.uint64)
    out = np.empty(80 * len(hands), legal_moves_batch(hands[:1])[0].dtype)
    work: dict[str, Callable[[int], object]] = {
        "legal_moves_batch": lambda t: legal_moves_batch(hands, out=out, threads=t),
        "count_moves_batch": lambda t: count_moves_batch(hands, threads=t),
        "simulate": lambda t: simulate(args.games, 1, threads=t),
    }
    print(f"load before: {os.getloadavg()}  cpus: {os.cpu_count()}")
    for name, fn in work.items():
        wall: dict[int, list[float]] = {1: [], args.threads: []}
        cpu: dict[int, list[float]] = {1: [], args.threads: []}
        for _ in range(args.rounds):
            for t in wall:
                c0, w0 = time.process_time(), time.perf_counter()
                fn(t)
                wall[t].append(time.perf_counter() - w0)
                cpu[t].append(time.process_time() - c0)
        one, many = statistics.median(wall[1]), statistics.median(wall[args.threads])
        c1, cn = statistics.median(cpu[1]), statistics.median(cpu[args.threads])
        print(f"{name:18s} wall: 1 thread {one * 1e3:7.1f} ms, {args.threads} threads {many * 1e3:7.1f} ms, "
              f"speed-up {one / many:.2f}x;  CPU: {c1 * 1e3:7.1f} ms, {cn * 1e3:7.1f} ms ({cn / c1:.2f}x)")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
