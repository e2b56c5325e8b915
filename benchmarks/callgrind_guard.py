"""Throughput guard that noise cannot fool: instruction counts, not seconds.

Runs fixed workloads once under ``valgrind --tool=callgrind`` and compares
the instructions executed inside each workload's entry function (Ir, counted
with ``--toggle-collect``, so interpreter start-up and imports never count)
with the budget committed in ``callgrind_budget.json``:

- ``lead``: ``generate_batch`` over 2000 fixed free-lead hands (the landlord's
  20 cards and seat 1's 17 of ``PlayState.deal(i)``, i < 1000) into a
  preallocated buffer;
- ``selfplay``: ``simulate``'s kernel, 300 whole games from seed 12345
  (deal, calling, play);
- ``perft``: ``PlayState.deal(2).perft(7)`` (711,617 leaves).

    python benchmarks/callgrind_guard.py            # measure and check (exit 1: over budget)
    python benchmarks/callgrind_guard.py --update   # write the measured counts as the budget

A workload fails when it executes more than ``tolerance`` (10 %) above its
budget.  When the code gets faster (more than 10 % under), the script says
so: lower the budget with ``--update`` in the same commit, so the guard keeps
what was won.  Counts depend a little on the compiler and the Cython and
NumPy versions; the budget file records what it was measured with.
``tests/test_callgrind_budget.py`` runs this within the normal test run
(a few seconds: one valgrind process for all workloads).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUDGET = HERE / "callgrind_budget.json"
TOLERANCE = 0.10

# workload -> the (Cython-generated) entry function whose inclusive cost is counted.
ENTRY = {
    "lead": "__pyx_pw_7ddzcore_7_kernel_*generate_batch",
    "selfplay": "__pyx_pw_7ddzcore_6_state_*_simulate",
    "perft": "__pyx_pw_7ddzcore_6_state_9PlayState_*perft",
}

# Run by the interpreter under valgrind: every workload once, in ENTRY's order.
WORKLOAD = r"""
import numpy as np
import ddzcore
from ddzcore import _kernel, _state
from ddzcore.search import PlayState

deals = [PlayState.deal(i).hand_words for i in range(1000)]
hands = np.array([d[0] for d in deals] + [d[1] for d in deals], dtype=np.uint64)
out = np.empty(400_000, ddzcore.MOVE_DTYPE)
flags = ddzcore.Rules().flags
state = PlayState.deal(2)
print("ddzcore", ddzcore.__file__)

_kernel.generate_batch(hands, None, None, flags, out)
_state._simulate(300, 12345, flags, False, True, -1, False, 0)
state.perft(7)
"""


def interpreter() -> str:
    """The Python binary to run under valgrind: sys.executable if it is (a
    symlink to) an ELF file (a venv's python keeps its prefix that way);
    a shell shim (pyenv) would make valgrind trace the shell instead."""
    exe = sys.executable
    with open(os.path.realpath(exe), "rb") as f:
        if f.read(4) != b"\x7fELF":
            raise SystemExit(f"{exe} is not an executable binary (a shim?); run this script "
                             "with the real interpreter, e.g. $(pyenv which python)")
    return exe


def measure() -> dict[str, int]:
    """Instructions executed in each workload's entry function (inclusive:
    with everything it calls).  One valgrind run collects only inside the
    entry functions; callgrind_annotate splits the count by function."""
    valgrind, annotate = shutil.which("valgrind"), shutil.which("callgrind_annotate")
    if valgrind is None or annotate is None:
        raise SystemExit("valgrind (with callgrind_annotate) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}"]
        cmd += [f"--toggle-collect={fn}" for fn in ENTRY.values()]
        cmd += [interpreter(), "-c", WORKLOAD]
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise SystemExit(f"valgrind run failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr[-3000:]}")
        report = subprocess.run([annotate, "--inclusive=yes", "--auto=no", "--threshold=100", out],
                                capture_output=True, text=True, check=True).stdout
    counts: dict[str, int] = {}
    for name, fn in ENTRY.items():
        pattern = re.compile(r"^\s*([\d,]+)\s.*:(" + ".*".join(map(re.escape, fn.split("*"))) + r")\s")
        hits = [(m.group(2), int(m.group(1).replace(",", ""))) for m in map(pattern.match, report.splitlines()) if m]
        if len({f for f, _ in hits}) != 1:
            raise SystemExit(f"workload {name}: expected one function matching {fn}, found {hits}")
        counts[name] = hits[0][1]
    return counts


def environment() -> dict[str, str]:
    import Cython
    import numpy

    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()
    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "cython": Cython.__version__, "cc": cc[0] if cc else "?", "machine": platform.machine()}


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="write the measured counts as the new budget")
    ap.add_argument("--budget", type=Path, default=BUDGET)
    args = ap.parse_args(argv)
    counts = measure()
    if args.update:
        data = {"tolerance": TOLERANCE, "instructions": counts, "measured_with": environment(),
                "note": "Ir inside each workload's entry function; see benchmarks/callgrind_guard.py"}
        args.budget.write_text(json.dumps(data, indent=2) + "\n")
        for name, n in counts.items():
            print(f"{name:10s} {n:>14,d}  (budget written)")
        return 0
    data = json.loads(args.budget.read_text())
    tol = data.get("tolerance", TOLERANCE)
    failed = False
    for name, n in counts.items():
        budget = data["instructions"][name]
        ratio = n / budget
        verdict = "ok"
        if ratio > 1 + tol:
            verdict = f"OVER BUDGET by {100 * (ratio - 1):.1f} % (limit {100 * tol:.0f} %)"
            failed = True
        elif ratio < 1 - tol:
            verdict = f"{100 * (1 - ratio):.1f} % under budget: lower it (--update) to keep the gain"
        print(f"{name:10s} {n:>14,d} / budget {budget:>14,d}  ({ratio:.3f})  {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
