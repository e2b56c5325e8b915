"""Run the self-play, perft and make/unmake loops under valgrind memcheck and
report the memory errors and definite leaks that involve ddzcore's compiled
modules (CPython itself, not built for valgrind, reports noise of its own
that is not ours; it is counted but not judged).

    python benchmarks/memcheck.py            # exit 1 when a ddzcore frame is in an error or a leak

No rebuild is needed (the installed modules are checked as built).  The
sanitizer alternative, a DDZ_DEBUG=1 (AddressSanitizer + UBSan) build, is in
the README's developer section.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

WORKLOAD = r"""
import pickle
import numpy as np
import ddzcore
from ddzcore import MOVE_DTYPE, PlayState, Rules, simulate
r = simulate(300, 1, record=True)
simulate(200, 2, rules=Rules.preset("openspiel", bidding="points", max_redeals=0), record=True)
simulate(200, 3, rules=Rules.preset("rlcard", max_redeals=1))
s = PlayState.deal(3)
s.perft(7)
s.playouts(100, 9)
buf = np.empty(8, MOVE_DTYPE)
for i in range(30):
    t = PlayState.deal(i, landlord=i % 3)
    while not t.is_over:
        t.legal_moves_into(buf)
        t.legal_moves()
        t.push_index(i % t.count_moves())
        c = pickle.loads(pickle.dumps(t.copy()))
    while t.ply:
        t.pop()
print("workload done:", len(r.moves), "moves recorded")
"""

# A frame of ours: a Cython symbol (__pyx_f_7ddzcore_...), the modules' C files or their
# shared objects.  Not any text containing "ddzcore": a venv under ~/ddzcore/ or
# .../ddzcore-ci/ would make every NumPy frame look like ours.
OURS = re.compile(r"\dddzcore_|_state\.c|_kernel\.c|_movelist\.c|_state\.cpython|_kernel\.cpython|_movelist\.cpython")


def main() -> int:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind is not installed")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "memcheck.log")
        cmd = [valgrind, "--tool=memcheck", "--leak-check=full", "--num-callers=40", f"--log-file={log}",
               sys.executable, "-c", WORKLOAD]
        env = dict(os.environ, PYTHONMALLOC="malloc")
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        print(proc.stdout.strip())
        if proc.returncode != 0:
            print(proc.stderr[-3000:])
            return 1
        text = open(log).read()
    blocks = re.split(r"\n==\d+== \n", text)
    errors = [b for b in blocks if re.search(r"== (Invalid|Conditional|Use of uninit|Syscall param|"
                                             r"Mismatched|Source and destination|Argument)", b)]
    leaks = [b for b in blocks if "definitely lost in loss record" in b]
    ours = [b for b in errors + leaks if OURS.search(b)]
    summary = re.search(r"ERROR SUMMARY: .*", text)
    print(f"memcheck: {len(errors)} error contexts and {len(leaks)} definite leaks in the whole process "
          f"({summary.group(0) if summary else '?'}); involving ddzcore: {len(ours)}")
    for b in ours:
        print(b)
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
