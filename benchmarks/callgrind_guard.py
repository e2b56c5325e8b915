"""Throughput guard that noise cannot fool: instruction counts and peak memory, not seconds.

Runs fixed workloads once under ``valgrind --tool=callgrind`` and compares
the instructions executed inside each workload's call (Ir, counted with
``--toggle-collect`` on ``operator.call``, through which every workload is
made, so interpreter start-up and imports never count; ``--dump-after``
closes one profile part per call) with the budget committed in
``callgrind_budget.json``:

- ``lead``: ``generate_batch`` over 2000 fixed free-lead hands (the landlord's
  20 cards and seat 1's 17 of ``PlayState.deal(i)``, i < 1000) into a
  preallocated buffer;
- ``follow``: ``generate_batch`` over 2000 follow positions (seat 1 and seat
  2 of deal i answering one of the landlord's lead moves);
- ``laizi``: ``generate_batch`` over 500 landlord leads with wild rank 7
  (``Rules(wild="7")``, docs/rules.md §7);
- ``two_decks``: ``generate_batch`` over 1000 fixed 25-card leads of two
  decks (docs/rules.md §8);
- ``count``: ``count_batch`` over the lead and follow positions;
- ``selfplay``: ``simulate``'s kernel, 300 whole games from seed 12345
  (deal, calling, play);
- ``perft``: ``PlayState.deal(2).perft(7)`` (711,617 leaves);
- ``game``: the Python ``Game`` loop, 20 whole games (``legal_actions()`` +
  ``apply()`` each turn).

Each workload also counts the *slow* instructions it executes in ddzcore's
own compiled modules: integer and floating-point divisions and square roots
(``--dump-instr=yes`` gives each instruction's executions; ``objdump -d``
says which addresses hold such instructions).  An instruction count cannot
see them (one instruction, tens of cycles): four chained divisions per call
add about 1 % of perft's instructions but a fifth of its time, so their
count has a budget of its own (the same 3 %, plus 100 for run-to-run noise;
most workloads execute none).

and, outside valgrind, the allocation behaviour of a fixed batch of 20,000
20-card leads (peak resident memory growth, Linux's VmHWM reset through
/proc/self/clear_refs, per mille of the output's bytes):

- ``alloc_fresh``: the peak growth of one call without ``out=`` (the output
  itself plus any grow-and-copy);
- ``alloc_out``: the peak growth of three more calls that pass the first
  call's output as ``out=``: about the offsets array only; a call that
  ignores ``out=`` allocates the whole output again and fails.

    python benchmarks/callgrind_guard.py            # measure and check (exit 1: over budget)
    python benchmarks/callgrind_guard.py --update   # write the measured figures as the budget

An instruction workload fails when it executes more than ``tolerance`` (3 %)
above its budget, or more slow instructions than 3 % above theirs; a memory workload when it exceeds its budget by more than
3 % of the output's size.  When the code gets better (more than 3 % under),
the script says so: lower the budget with ``--update`` in the same commit,
so the guard keeps what was won.  Counts depend a little on the compiler
and the Cython and NumPy versions; the budget file records what it was
measured with.  ``tests/test_callgrind_budget.py`` runs this within the
normal test run (one valgrind process for all workloads, one plain process
for the memory).  Needs valgrind and objdump (binutils).
"""

from __future__ import annotations

import argparse
import glob
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
TOLERANCE = 0.03

# Every workload is one call of operator.call (CPython's _operator_call), the
# only function counted: collection is on inside it, and a profile part is
# dumped after each call.  (Valgrind keeps only one --dump-after function.)
ENTRY = "_operator_call"

# Workload name -> the call, in order; POSITIONS sets up their inputs.
CALLS = {
    "lead": "_kernel.generate_batch(hands, None, None, flags, out)",
    "follow": "_kernel.generate_batch(f_hands, f_cards, f_info, flags, out)",
    "laizi": "_kernel.generate_batch(hands[:500], None, None, laizi, out)",
    "two_decks": "_kernel.generate_batch(hands2, None, None, two, out)",
    "count": "_kernel.count_batch(c_hands, c_cards, c_info, flags)",
    "selfplay": "_state._simulate(300, 12345, flags, False, True, -1, False, 0)",
    "perft": "state.perft(7)",
    "game": "games()",
}

# Shared by both workloads: the fixed positions.
POSITIONS = r"""
import random
import numpy as np
import ddzcore
from ddzcore import _kernel, _state, Game, Rules
from ddzcore.search import PlayState

flags = Rules().flags
deals = [PlayState.deal(i).hand_words for i in range(1000)]
hands = np.array([d[0] for d in deals] + [d[1] for d in deals], dtype=np.uint64)
f_hands, f_cards, f_info = [], [], []
for i, d in enumerate(deals):
    leads = _kernel.generate_array(d[0], 0, 0, flags)
    for seat in (1, 2):
        m = leads[(7 * i + seat) % len(leads)]
        f_hands.append(d[seat]); f_cards.append(m["cards"]); f_info.append(m["info"])
f_hands, f_cards, f_info = (np.array(a, dtype=np.uint64) for a in (f_hands, f_cards, f_info))
two = Rules(decks=2).flags
rng = random.Random(2026)
deck2 = [r for r in range(13) for _ in range(8)] + [13, 13, 14, 14]
hands2 = np.array([sum(1 << (4 * r) for r in rng.sample(deck2, 25)) for _ in range(1000)], dtype=np.uint64)
laizi = Rules(wild="7").flags
"""

WORKLOAD = POSITIONS + r"""
import operator
out = np.empty(400_000, ddzcore.MOVE_DTYPE)
state = PlayState.deal(2)
zeros = np.zeros_like(hands)
c_hands, c_cards, c_info = np.concatenate([hands, f_hands]), np.concatenate([zeros, f_cards]), \
    np.concatenate([zeros, f_info])

def games():
    choice = random.Random(5).choice
    for g in range(20):
        game = Game(seed=1000 + g)
        while not game.is_terminal():
            game.apply(choice(game.legal_actions()))

print("ddzcore", ddzcore.__file__)
# The set-up's objects out of the collector's reach: a full collection then
# costs the same whatever the set-up left behind, so a build that allocates a
# little differently does not move a collection into or out of a workload.
import gc
gc.collect()
gc.freeze()
""" + "".join(f"operator.call(lambda: {call})\n" for call in CALLS.values())

MEMORY = POSITIONS + r"""
import json

def kb(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))

def peak_growth(call):
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")                                   # the peak (VmHWM) restarts from here
    before = kb("VmRSS")
    result = call()
    return 1024 * (kb("VmHWM") - before), result

big = np.concatenate([hands[:1000]] * 20)              # 20,000 landlord leads of 20 cards
fresh, (moves, offsets) = peak_growth(lambda: _kernel.generate_batch(big, None, None, flags))
out = moves if moves.base is None else moves.base
with_out, _ = peak_growth(lambda: [_kernel.generate_batch(big, None, None, flags, out) for _ in range(3)])
print(json.dumps({"alloc_out": round(1000 * with_out / moves.nbytes),
                  "alloc_fresh": round(1000 * fresh / moves.nbytes)}))
"""

MEMORY_WORKLOADS = ["alloc_out", "alloc_fresh"]


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


def part_events(path: str) -> "dict[str, int]":
    """The event totals (Ir; with branch simulation also Bcm, Bim...) of one callgrind profile part."""
    names: "list[str]" = []
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith(("summary:", "totals:")):
                return dict(zip(names, (int(x) for x in line.split()[1:])))
    raise SystemExit(f"{path}: no totals line")


def part_total(path: str) -> int:
    """The Ir total of one callgrind profile part."""
    return part_events(path)["Ir"]


# Instructions whose cost an instruction count hides: integer and floating-point
# division and square root (tens of cycles each, one instruction to callgrind).
# Run-to-run noise of the slow count: a few (0-18 seen) in Cython's object
# plumbing, which varies with addresses; one division per perft node is ~150,000.
SLOW_SLACK = 100
SLOW = re.compile(r"^\s*([0-9a-f]+):\s+(?:i?div[bwlq]?|v?(?:div|sqrt)[sp][sd])\s", re.M)


def slow_addresses(obj: str) -> "frozenset[int]":
    """Addresses (in the object file, as callgrind writes them) of the SLOW instructions of obj."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True,
                          check=True).stdout
    return frozenset(int(a, 16) for a in SLOW.findall(text))


def part_slow(path: str, slow: "dict[str, frozenset[int]]", names: "dict[str, str]") -> int:
    """Executions of SLOW instructions of ddzcore's compiled modules in one
    profile part (written with --dump-instr=yes: one cost line per
    instruction, addresses relative to the previous line's).  ``names``:
    object ids seen so far; a part may use an id an earlier part of the
    same run named, so the parts are read in order with one dict."""
    obj, addr, total, skip_call = "", 0, 0, False
    for line in open(path):
        c = line[:1]
        if c in "0123456789+-*":
            pos, _, rest = line.partition(" ")
            if pos.startswith("0x"):
                addr = int(pos, 16)
            elif pos != "*":
                addr += int(pos)
            if skip_call:  # the inclusive cost of a call, not this instruction's own
                skip_call = False
            elif addr in slow.get(obj, ()):
                total += int(rest.split()[1])
        elif line.startswith(("ob=", "cob=")):  # an object is named at its first mention, of either kind
            key, _, rest = line.partition("=")
            ident, _, name = rest.strip().partition(" ")
            if name:
                names[ident] = os.path.realpath(name)
            if key == "ob":
                if ident not in names:  # its divisions would go uncounted, silently
                    raise SystemExit(f"{path}: object {ident} used before callgrind named it")
                obj = names[ident]
        elif line.startswith("calls="):
            skip_call = True
    return total


def measure() -> "tuple[dict[str, int], dict[str, int]]":
    """Instructions executed in each workload's call (inclusive: with
    everything it calls), and the SLOW instructions among them in ddzcore's
    own modules.  One valgrind run collects only inside operator.call and
    dumps a profile part after each call."""
    import ddzcore

    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed")
    package = Path(ddzcore.__file__).parent
    slow = {os.path.realpath(so): slow_addresses(str(so)) for so in package.glob("_*.so")}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=yes"]
        cmd += [f"--toggle-collect={ENTRY}", f"--dump-after={ENTRY}"]
        cmd += [interpreter(), "-c", WORKLOAD]
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise SystemExit(f"valgrind run failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr[-3000:]}")
        if f"ddzcore {package / '__init__.py'}" not in proc.stdout:
            raise SystemExit(f"the workload imported another ddzcore than {package}:\n{proc.stdout}")
        # callgrind.out.1, .2, ... one per entry call in order; the final dump (at exit) is empty.
        parts = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = [part_total(p) for p in parts]
        if len(totals) < len(CALLS) or any(totals[len(CALLS):]):
            raise SystemExit(f"expected {len(CALLS)} counted entry calls, got parts {totals}")
        names: dict[str, str] = {}
        slow_counts = [part_slow(p, slow, names) for p in parts[:len(CALLS)]]
        if not set(slow) & set(names.values()):  # the names no longer match the .so paths: nothing counted
            raise SystemExit(f"no ddzcore module ({', '.join(sorted(slow))}) is named in the profile")
    return dict(zip(CALLS, totals)), dict(zip(CALLS, slow_counts))


def measure_memory() -> dict[str, int]:
    """Peak resident growth per mille of the output (MEMORY_WORKLOADS), in a fresh process."""
    proc = subprocess.run([sys.executable, "-c", MEMORY], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"memory workload failed:\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def environment() -> dict[str, str]:
    import Cython
    import numpy

    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()
    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "cython": Cython.__version__, "cc": cc[0] if cc else "?", "machine": platform.machine()}


def verdict(name: str, n: int, budget: int, tol: float) -> "tuple[str, bool]":
    """(text, over budget) for one workload."""
    if name in MEMORY_WORKLOADS:  # per mille of the output: tolerance in points of it
        slack = 1000 * tol
        if n > budget + slack:
            return f"OVER BUDGET by {(n - budget) / 10:.1f} % of the output (limit {100 * tol:.0f} %)", True
        if n < budget - slack:
            return f"{(budget - n) / 10:.1f} % of the output under budget: lower it (--update)", False
        return "ok", False
    ratio = n / budget
    if ratio > 1 + tol:
        return f"OVER BUDGET by {100 * (ratio - 1):.1f} % (limit {100 * tol:.0f} %)", True
    if ratio < 1 - tol:
        return f"{100 * (1 - ratio):.1f} % under budget: lower it (--update) to keep the gain", False
    return "ok", False


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="write the measured figures as the new budget")
    ap.add_argument("--budget", type=Path, default=BUDGET)
    args = ap.parse_args(argv)
    instructions, slow = measure()
    counts = {**instructions, **measure_memory()}
    if args.update:
        data = {"tolerance": TOLERANCE, "instructions": counts, "slow": slow, "measured_with": environment(),
                "note": "instructions: Ir inside each workload's call; slow: divisions and square roots "
                        "executed in ddzcore's modules; alloc_*: peak RSS growth per mille of the "
                        "output; see benchmarks/callgrind_guard.py"}
        args.budget.write_text(json.dumps(data, indent=2) + "\n")
        for name, n in counts.items():
            print(f"{name:10s} {n:>14,d}  {slow.get(name, 0):>10,d} slow  (budget written)")
        return 0
    data = json.loads(args.budget.read_text())
    tol = data.get("tolerance", TOLERANCE)
    failed = False
    for name, n in counts.items():
        budget = data["instructions"][name]
        text, over = verdict(name, n, budget, tol)
        failed |= over
        print(f"{name:10s} {n:>14,d} / budget {budget:>14,d}  ({n / max(budget, 1):.3f})  {text}")
    for name, n in slow.items():
        if name not in data.get("slow", {}):
            failed = True
            print(f"{name:10s} {n:>14,d} slow instructions  NO BUDGET (--update)")
            continue
        budget = data["slow"][name]
        over = n > budget * (1 + tol) + SLOW_SLACK
        failed |= over
        text = (f"OVER BUDGET: {n - budget:,d} more divisions/square roots" if over else
                "fewer: lower it (--update)" if n < budget * (1 - tol) else "ok")
        print(f"{name:10s} {n:>14,d} / budget {budget:>14,d}  slow instructions  {text}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
