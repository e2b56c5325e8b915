"""Wall-time speed-up of ``threads=`` on the batch calls and ``simulate``.

    python benchmarks/threads_speed.py --rounds 7 --threads 2

Interleaved rounds (each round runs every call with 1 thread, then N),
medians of wall time and of CPU time: with 1 thread the calling thread's
(the whole call runs there: helper threads still polling after the last
threaded call are not counted), with N the process's (all threads: the
work, plus what threading costs, the helpers' polling included); prints
the machine load (os.getloadavg) before and after, since a shared
machine cannot show a parallel speed-up (the CPU time still shows the
overhead: with no overhead N threads use the CPU time of one).

In the same run, two ceilings: the machine's (memset of as many bytes as
legal_moves_batch writes, by 1 and by N threads through ctypes, which
releases the GIL: what N threads can write to memory at all), and the
design's for legal_moves_batch: thread t counts part t - 1 backwards until
it meets thread t - 1 generating it (src/ddzcore/_kernel.pyx, "batches"),
so with r = count time / generation time (CPU time, 1 thread) N
threads can give at most the sum of the part sizes of that model (2 - r/(1+r)
for 2 threads).  And the machine's for work that shares nothing, in the
same interleaved rounds: the same simulate call in N separate processes at
once (forked, started together at a barrier, no threads; each times its own
call, the slowest counts) against one process alone; N times the one
process's time over the N processes' is what N cores give that work at
the moment (N if running together slows no process).
"""

from __future__ import annotations

import argparse
import ctypes
import multiprocessing as mp
import os
import statistics
import threading
import time
from typing import Callable

import numpy as np

from ddzcore import count_moves_batch, legal_moves_batch, simulate
from ddzcore.search import PlayState


def memset_threads(buf: np.ndarray, threads: int) -> None:
    """Fill buf's bytes, split over `threads` threads (ctypes.memset releases the GIL)."""
    base, n = buf.ctypes.data, buf.nbytes
    cuts = [n * t // threads // 64 * 64 for t in range(threads)] + [n]
    def part(t: int) -> None:
        ctypes.memset(base + cuts[t], t + 1, cuts[t + 1] - cuts[t])
    helpers = [threading.Thread(target=part, args=(t,)) for t in range(1, threads)]
    for h in helpers:
        h.start()
    part(0)
    for h in helpers:
        h.join()


def _timed_simulate(games: int, barrier: "mp.synchronize.Barrier", out: "mp.Queue[float]") -> None:
    barrier.wait()
    t0 = time.perf_counter()
    simulate(games, 1)
    out.put(time.perf_counter() - t0)


def simulate_processes(games: int, procs: int) -> float:
    """Seconds of the slowest of `procs` forked processes each running simulate(games) at once."""
    ctx = mp.get_context("fork")
    barrier, out = ctx.Barrier(procs), ctx.Queue()
    ps = [ctx.Process(target=_timed_simulate, args=(games, barrier, out)) for _ in range(procs)]
    for p in ps:
        p.start()
    times = [out.get(timeout=600) for _ in range(procs)]  # a child that died raises queue.Empty, not a hang
    for p in ps:
        p.join()
    return max(times)


def model_speedup(r: float, threads: int) -> float:
    """The batch design's ceiling (see _Batch.run): the part sizes' sum when all finish at time 1."""
    size, begin, total = 1.0, 0.0, 0.0
    for _ in range(threads):
        total += size
        meet = begin if r * size <= begin else r * (size + begin) / (1 + r)
        size, begin = 1.0 - meet, meet
    return total


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
    written = legal_moves_batch(hands, out=out)[0].nbytes
    scratch = np.ones(written, np.uint8)  # pages touched before timing
    work: dict[str, Callable[[int], object]] = {
        "legal_moves_batch": lambda t: legal_moves_batch(hands, out=out, threads=t),
        "count_moves_batch": lambda t: count_moves_batch(hands, threads=t),
        "simulate": lambda t: simulate(args.games, 1, threads=t),
        f"memset {written / 1e6:.0f} MB": lambda t: memset_threads(scratch, t),
        "simulate, processes": lambda t: simulate_processes(args.games, t),  # returns its own time
    }
    print(f"load before: {os.getloadavg()}  cpus: {os.cpu_count()}")
    one: dict[str, float] = {}
    one_cpu: dict[str, float] = {}
    counts = (1, args.threads)
    walls = {name: {t: [] for t in counts} for name in work}  # type: dict[str, dict[int, list[float]]]
    cpus = {name: {t: [] for t in counts} for name in work}  # type: dict[str, dict[int, list[float]]]
    for _ in range(args.rounds):  # every call and count in every round: all see the same moments
        for name, fn in work.items():
            for t in counts:
                clock = time.thread_time if t == 1 else time.process_time
                c0, w0 = clock(), time.perf_counter()
                own = fn(t)
                walls[name][t].append(own if isinstance(own, float) else time.perf_counter() - w0)
                cpus[name][t].append(clock() - c0)
    for name in work:
        wall, cpu = walls[name], cpus[name]
        one[name], many = statistics.median(wall[1]), statistics.median(wall[args.threads])
        c1, cn = statistics.median(cpu[1]), statistics.median(cpu[args.threads])
        one_cpu[name] = c1
        if name == "simulate, processes":
            print(f"{name:18s} wall: 1 alone {one[name] * 1e3:7.1f} ms, each of {args.threads} at once "
                  f"{many * 1e3:7.1f} ms: {args.threads} cores give work sharing nothing "
                  f"{args.threads * one[name] / many:.2f}x at the moment")
            continue
        print(f"{name:18s} wall: 1 thread {one[name] * 1e3:7.1f} ms, {args.threads} threads {many * 1e3:7.1f} ms, "
              f"speed-up {one[name] / many:.2f}x;  CPU: {c1 * 1e3:7.1f} ms, {cn * 1e3:7.1f} ms ({cn / c1:.2f}x)")
        if name.startswith("memset"):
            print(f"{'':18s} write bandwidth: 1 thread {written / one[name] / 1e9:.1f} GB/s, "
                  f"{args.threads} threads {written / many / 1e9:.1f} GB/s; legal_moves_batch writes "
                  f"{written / one['legal_moves_batch'] / 1e9:.1f} GB/s with 1 thread")
    r = one_cpu["count_moves_batch"] / one_cpu["legal_moves_batch"]  # CPU time: less disturbed by load
    print(f"legal_moves_batch design ceiling: r = count/generate (CPU time) = {r:.2f}, "
          f"{args.threads} threads at most {model_speedup(r, args.threads):.2f}x")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
