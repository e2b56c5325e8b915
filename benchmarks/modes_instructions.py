"""Instructions per move of lead generation per rules mode (the rows of modes.py), counted.

    python benchmarks/modes_instructions.py [--positions N] [--branches]

The same seeded hands as ``benchmarks/modes.py`` (one deck; laizi, wild rank
7, with exactly 0-4 wild cards; two decks), each row one ``generate_batch``
call into a preallocated buffer run under ``valgrind --tool=callgrind``
(collection on only inside ``operator.call``, one profile part per call, as
``benchmarks/callgrind_guard.py`` does).  Prints instructions per position,
per move, and per move relative to one deck, and a last line summing up
the laizi rows' ratios (issue 16's target: at most 1.5x).  With
``--branches`` (callgrind's ``--branch-sim=yes``) also the mispredicted
branches per move (conditional and indirect, callgrind's simulated
predictor): what wall time sees and an instruction count does not.  Needs valgrind.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from callgrind_guard import ENTRY, interpreter, part_events  # noqa: E402
from modes import rows  # noqa: E402

WORKLOAD = r"""
import operator, sys
import numpy as np
sys.path.insert(0, {here!r})
from ddzcore import _kernel, hands_array
from modes import deal_hands, rows
calls = []
for name, rules, sizes, deck, wilds in rows():
    hands = hands_array(deal_hands({n}, sizes, deck, rules.wild, wilds, seed=7), rules)
    moves, _ = _kernel.generate_batch(hands, None, None, rules.flags)
    out = np.empty(len(moves) + 1000, moves.dtype)
    print("row", name, len(hands), len(moves))
    calls.append((hands, rules.flags, out))
for hands, flags, out in calls:
    operator.call(lambda: _kernel.generate_batch(hands, None, None, flags, out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--branches", action="store_true", help="also count mispredicted branches (slower)")
    args = ap.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
               f"--toggle-collect={ENTRY}", f"--dump-after={ENTRY}",
               *(["--branch-sim=yes"] if args.branches else []), interpreter(), "-c",
               WORKLOAD.format(here=str(HERE), n=args.positions)]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
        if proc.returncode != 0:
            raise SystemExit(f"valgrind run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        info = [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("row ")]
        parts = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        events = [part_events(p) for p in parts][: len(info)]
    names = [name for name, *_ in rows()]
    print(f"{'mode':<16} {'moves/pos':>9} {'instr/pos':>10} {'instr/move':>10} {'x one deck':>10}"
          + (f" {'misp/move':>10} {'x one deck':>10}" if args.branches else ""))
    base = miss_base = None
    ratios = []
    for name, (*_, n_pos, n_moves), ev in zip(names, info, events):
        per_move = ev["Ir"] / int(n_moves)
        base = base or per_move
        if name.startswith("laizi") and not name.startswith("laizi, 0"):
            ratios.append(f"{name.split(', ')[1]} {per_move / base:.2f}x")
        line = (f"{name:<16} {int(n_moves) / int(n_pos):>9.1f} {ev['Ir'] / int(n_pos):>10.0f} "
                f"{per_move:>10.2f} {per_move / base:>10.2f}")
        if args.branches:
            miss = (ev["Bcm"] + ev["Bim"]) / int(n_moves)
            miss_base = miss_base or miss
            line += f" {miss:>10.3f} {miss / miss_base:>10.2f}"
        print(line)
    print("laizi instructions per move / one deck's: " + ", ".join(ratios) + " (target <= 1.5x)")


if __name__ == "__main__":
    main()
