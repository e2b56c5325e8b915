"""Peak resident memory of one big batch call against the size of its output.

    python benchmarks/batch_memory.py --positions 1000000   # 20-card leads (PlayState.deal(i), landlord)
    python benchmarks/batch_memory.py --games 1000000       # simulate(record=True)

Linux only (VmHWM, reset through /proc/self/clear_refs).  Prints the peak
growth during the call, the output's bytes (every array returned) and their ratio (target <= 1.15).
"""

from __future__ import annotations

import argparse

import numpy as np

from ddzcore import legal_moves_batch, simulate
from ddzcore.search import PlayState


def kb(field: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=0)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    if args.positions:
        distinct = np.array([PlayState.deal(i).hand_words[0] for i in range(min(args.positions, 20000))],
                            dtype=np.uint64)
        hands = np.resize(distinct, args.positions)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    before = kb("VmRSS")
    if args.positions:
        moves, offsets = legal_moves_batch(hands, threads=args.threads)
        out = moves.nbytes + offsets.nbytes
        what = f"legal_moves_batch({args.positions:,} 20-card leads, threads={args.threads})"
    else:
        r = simulate(args.games, 1, record=True, threads=args.threads)
        # the output: every array returned (records, offsets and the per-game columns)
        out = sum(a.nbytes for a in vars(r).values() if isinstance(a, np.ndarray))
        what = f"simulate({args.games:,}, record=True, threads={args.threads})"
    peak = 1024 * (kb("VmHWM") - before)
    print(f"{what}: peak growth {peak / 2**20:,.0f} MiB, output {out / 2**20:,.0f} MiB, ratio {peak / out:.3f}")


if __name__ == "__main__":
    main()
