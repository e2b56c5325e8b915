"""Where a lead position's cycles go, counted: instructions, mispredicted branches, cache misses.

    python benchmarks/lead_branches.py [--reps R] [--top N]

Runs the guard's lead workload (``generate_batch`` over the 2000 free-lead
hands of ``callgrind_guard.py``: the landlord's 20 cards and seat 1's 17 of
``PlayState.deal(i)``, i < 1000, into a preallocated buffer) R times under
``valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes``, and once
with no call; the difference, per position, is what the calls cost:

- ``Ir`` instructions, ``Bc`` conditional branches, ``Bcm`` mispredicted
  conditional branches, ``Bim`` mispredicted indirect branches (cachegrind's
  simulated predictor: a table of 2-bit counters indexed by address and
  global history, not the CPU's, but the branches it misses are the
  data-dependent ones: loop exits over a hand's ranks, tests that go either
  way from one rank to the next), ``D1mw`` first-level data-cache write
  misses (the output stream: 16 bytes a move, one miss per 64-byte line);

for the kernel's own functions (``_kernel``; the interpreter's share
moves from run to run by more than the kernel's), and for the N kernel
functions with the most mispredictions.  Counted, so
the same on a busy machine as on an idle one: the wall-time figures
(``peers.py``) are not.  Needs valgrind (cg_diff, cg_annotate).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

EVENTS = ("Ir", "Bc", "Bcm", "Bim", "D1mw")
N_POSITIONS = 2000

WORKLOAD = r"""
import sys
import numpy as np
from ddzcore import _kernel, Rules
from ddzcore.search import PlayState

flags = Rules().flags
deals = [PlayState.deal(i).hand_words for i in range(1000)]
hands = np.array([d[0] for d in deals] + [d[1] for d in deals], dtype=np.uint64)
out = np.empty(400_000, _kernel.MOVE_DTYPE)
for _ in range(int(sys.argv[1])):
    _kernel.generate_batch(hands, None, None, flags, out)
"""


def cachegrind(script: str, reps: int, out: str) -> None:
    """One cachegrind run of the workload with `reps` calls, profile to `out`."""
    subprocess.run(["valgrind", "--tool=cachegrind", "--branch-sim=yes", "--cache-sim=yes",
                    f"--cachegrind-out-file={out}", sys.executable, script, str(reps)],
                   check=True, capture_output=True)


def rows(diff: str) -> "list[tuple[str, list[int]]]":
    """(file:function, counts of EVENTS) for every function of a cg_diff profile."""
    text = subprocess.run(["cg_annotate", f"--show={','.join(EVENTS)}", "--auto=no", "--threshold=0", diff],
                          capture_output=True, text=True, check=True).stdout
    found = []
    for line in text.splitlines():
        parts = re.sub(r"\([^)]*\)", "", line).split()
        if len(parts) != len(EVENTS) + 1 or ":" not in parts[-1]:
            continue
        try:
            counts = [0 if x == "." else int(x.replace(",", "")) for x in parts[:-1]]
        except ValueError:
            continue
        found.append((parts[-1], counts))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5, help="calls over the 2000 positions (default 5)")
    ap.add_argument("--top", type=int, default=8, help="kernel functions listed (default 8)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "lead_workload.py")
        with open(script, "w") as f:
            f.write(WORKLOAD)
        base, full, diff = (os.path.join(tmp, name) for name in ("cg.0", "cg.n", "cg.diff"))
        cachegrind(script, 0, base)
        cachegrind(script, args.reps, full)
        with open(diff, "w") as f:
            subprocess.run(["cg_diff", base, full], stdout=f, stderr=subprocess.DEVNULL, check=True)
        found = rows(diff)
    n = args.reps * N_POSITIONS
    ours = [(name, c) for name, c in found if "_kernel" in name.split(":")[-1] or "intrin" in name]
    total = [sum(c[i] for _, c in ours) for i in range(len(EVENTS))]
    print("kernel per position: " + "  ".join(f"{e} {t / n:,.2f}" for e, t in zip(EVENTS, total)))
    print(f"\nkernel functions by mispredicted conditional branches (per position, {n} positions):")
    for name, c in sorted(ours, key=lambda row: -row[1][2])[:args.top]:
        func = name.split(":")[-1].replace("__pyx_f_7ddzcore_7_kernel_", "")
        print(f"  {func:40s} " + "  ".join(f"{e} {v / n:8.2f}" for e, v in zip(EVENTS, c)))


if __name__ == "__main__":
    main()
