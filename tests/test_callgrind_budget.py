"""The instruction-count guard (benchmarks/callgrind_guard.py): fixed lead,
follow, laizi, two-deck and count-only batches, self-play, perft and the
Python Game loop must not execute more than 3 % above the budget committed
in benchmarks/callgrind_budget.json (instructions, and apart from them the
divisions and square roots of ddzcore's modules, whose cost an instruction
count hides), and a fixed batch's peak memory must
stay within 3 % of the output's size of its budget (so a batch call that
ignores ``out=`` fails).  Callgrind counts instructions, so machine noise
cannot fail (or pass) this test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GUARD = Path(__file__).resolve().parents[1] / "benchmarks" / "callgrind_guard.py"


# valgrind is on every machine of this project's kind; CI must never skip the guard.
@pytest.mark.skipif(shutil.which("valgrind") is None and not os.environ.get("CI"),
                    reason="valgrind is not installed (outside CI only)")
def test_instruction_budget():
    proc = subprocess.run([sys.executable, str(GUARD)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
