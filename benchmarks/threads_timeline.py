"""Where a batch call's wall time goes, thread by thread (its timeline).

    python benchmarks/threads_timeline.py --positions 100000 --rounds 7

Runs legal_moves_batch (17-card leads, ``out=`` reused) and
count_moves_batch with 1 thread and with N, interleaved, with the kernel's
trace on (``ddzcore._kernel._trace``: a monotonic clock read at a dozen
points of a call, nothing else changes), and prints the medians of each
stamp in milliseconds from the call's start: the serial input check, the
helper threads' start, each thread's begin / start known / finish, the
join and the end.  For legal_moves_batch it also prints the generating
rate of thread 0 (positions per ms) alone with 1 thread, before the meeting
point (thread 1 still counting) and after it (both generating): a rate that
drops once both threads write is memory contention.  Then simulate(--games)
with 1 and N threads: the call's end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any, Callable

import numpy as np

from ddzcore import _kernel, count_moves_batch, legal_moves_batch, simulate
from ddzcore.search import PlayState


def simulate_timeline(games: int, threads: int, rounds: int) -> None:
    """simulate(games) with 1 and N threads: the median of the call's end
    (ms; one kernel call, its threads the batches' crew)."""
    ends: dict[int, list[float]] = {1: [], threads: []}
    for _ in range(rounds):
        for t in ends:
            t0 = time.perf_counter()
            simulate(games, 1, threads=t)
            ends[t].append(time.perf_counter() - t0)
    for t, e in ends.items():
        print(f"simulate({games}) threads={t}: end {statistics.median(e) * 1e3:.3f} ms")


def med(values: list[Any]) -> str:
    """The median in ms of stamps in seconds, "-" where the call had none."""
    got = [v for v in values if v is not None]
    return f"{statistics.median(got) * 1e3:.3f}" if got else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--positions", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    deals = [PlayState.deal(i).hand_words for i in range((args.positions + 1) // 2)]
    hands = np.array([w for d in deals for w in d[:2]][: args.positions], dtype=np.uint64)
    out = np.empty(80 * len(hands), legal_moves_batch(hands[:1])[0].dtype)
    work: dict[str, Callable[[int], object]] = {
        "legal_moves_batch": lambda t: legal_moves_batch(hands, out=out, threads=t),
        "count_moves_batch": lambda t: count_moves_batch(hands, threads=t),
    }
    print(f"load before: {os.getloadavg()}  positions: {len(hands)}")
    for name, fn in work.items():
        traces: dict[int, list[dict[str, Any]]] = {1: [], args.threads: []}
        for _ in range(args.rounds):
            for t in traces:
                _kernel._trace(True)
                fn(t)
                traces[t].append(_kernel._trace(False))
        for t, tr in traces.items():
            print(f"{name} threads={t}: input checked {med([x['checked'] for x in tr])}  helpers started "
                  f"{med([x['started'] for x in tr])}  joined {med([x['joined'] for x in tr])}  "
                  f"end {med([x['end'] for x in tr])} ms")
            for i in range(len(tr[0]["threads"])):
                began, known, done = ([x["threads"][i][k] for x in tr] for k in range(3))
                print(f"    thread {i}: began {med(began)}  start known {med(known)}  finished {med(done)}  "
                      f"stole {statistics.median(x['steals'][i] for x in tr):g} parts"
                      + (f"  (met thread {i - 1} at position {statistics.median(x['meet'][i] for x in tr):.0f},"
                         f" its part from {statistics.median(x['lo'][i] for x in tr):.0f})" if i else ""))
            if name == "legal_moves_batch":  # thread 0's rate (positions per ms) alone, then beside thread 1
                alone, before, after = [], [], []
                for one in tr:
                    b0, _, d0 = one["threads"][0]
                    if t == 1:
                        alone.append(len(hands) / (d0 - b0) / 1e3)
                        continue
                    k1, meet, made = one["threads"][1][1], one["meet"][1], one["made"][0]
                    before.append(meet / (k1 - b0) / 1e3)
                    after.append((made - meet) / (d0 - k1) / 1e3)
                if t == 1:
                    print(f"    thread 0 generates {statistics.median(alone):.0f} positions/ms alone")
                else:
                    print(f"    thread 0 generates {statistics.median(before):.0f} positions/ms while thread 1 "
                          f"counts, {statistics.median(after):.0f} while both generate")
    simulate_timeline(args.games, args.threads, args.rounds)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
