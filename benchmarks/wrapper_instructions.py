"""Instructions per call of the single-position entry points (a lead of
the landlord's 20 cards, docs/rules.md §2-3) and of their parts, counted by
callgrind (``callgrind_guard``'s method: Ir inside ``operator.call`` only),
so a shared machine's noise cannot move them:

- ``legal_moves`` / ``legal_moves_array`` / ``count_moves``: the public calls;
- ``_legal_moves`` / ``_legal_moves_array`` / ``_count_moves``: the
  compiled fast path they share alone (reading and checking the position,
  generation, the ``MoveList`` or the NumPy array);
- ``_position``: the Python parser the fast path calls for any other
  argument (text, card words, a forged object), shown for comparison.

    python benchmarks/wrapper_instructions.py [--calls 2000]

Needs valgrind.  Each figure is (Ir of 2n calls - Ir of n calls) / n, so the
loop's set-up cancels; a figure includes the loop's lambda call (~500).
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import tempfile

from callgrind_guard import ENTRY, interpreter, part_total

CALLS = {
    "legal_moves": "legal_moves(h)",
    "legal_moves_array": "legal_moves_array(h)",
    "count_moves": "count_moves(h)",
    "_legal_moves": "_legal_moves(h, None, r)",
    "_legal_moves_array": "_legal_moves_array(h, None, r)",
    "_count_moves": "_count_moves(h, None, r)",
    "_position": "_position(h, None, None)",
}

CHILD = """
import operator
from ddzcore import Hand, Rules, count_moves, legal_moves, legal_moves_array
from ddzcore._movelist import _count_moves, _legal_moves, _legal_moves_array
from ddzcore.generate import _position
h = Hand("334455667789TTJQKA2"); r = Rules()
def loop(n, call):
    for _ in range(n):
        call()
for call in CALLS:
    fn = eval("lambda: " + call)
    fn()  # warm (scratch buffers, caches)
    operator.call(loop, N, fn)
    operator.call(loop, 2 * N, fn)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=2000)
    n = ap.parse_args().calls
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        code = f"CALLS = {list(CALLS.values())!r}\nN = {n}\n" + CHILD
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        f"--toggle-collect={ENTRY}", f"--dump-after={ENTRY}", interpreter(), "-c", code],
                       check=True, capture_output=True)
        parts = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = [part_total(p) for p in parts]
    for k, name in enumerate(CALLS):  # the 2n run minus the n run: loop set-up cancels out
        per_call = (totals[2 * k + 1] - totals[2 * k]) / n
        print(f"{name:20s} {per_call:8.0f} instructions per call")


if __name__ == "__main__":
    main()
