"""Time of reading card text: ``Hand(text)`` and ``legal_moves(text)``
(docs/rules.md §1), against a checkout given on the command line (e.g. the
main branch's, built in place) or, without one, against the
character-at-a-time reading this release keeps for errors.

    python benchmarks/hand_parse.py                       # this tree: one-pass vs character-at-a-time
    python benchmarks/hand_parse.py /work/main/python     # this tree vs another tree's ddzcore

Each round times every variant over the same 2000 hand texts (20- and
17-card hands of ``PlayState.deal``); rounds are interleaved and the
median per call is reported (seconds are noisy on a shared machine: run
it twice and say what else was running).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 15

CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import ddzcore
from ddzcore import Hand, PlayState, legal_moves
texts = []
for i in range(1000):
    s = PlayState.deal(i)
    texts += [str(s.hands[0]), str(s.hands[1])]
def per_call(fn):
    t = time.perf_counter()
    for x in texts:
        fn(x)
    return (time.perf_counter() - t) / len(texts)
variants = {"Hand(text)": Hand, "legal_moves(text)": legal_moves}
try:
    from ddzcore.cards import _pack, _parse_slowly, _unpack
    variants["character-at-a-time Hand"] = lambda t: _pack(_unpack(_parse_slowly(t, t.replace("10", "T"))), 1, t)
except ImportError:
    pass
per_call(Hand)  # warm up
for name, fn in variants.items():
    print(name, per_call(fn))
print("from", ddzcore.__file__)
"""


def run(tree: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, tree], capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        if line.startswith("from "):
            continue
        name, t = line.rsplit(" ", 1)
        times[name] = float(t)
    return times


def main() -> None:
    here = str(Path(__file__).resolve().parents[1] / "python")
    trees = {"this tree": here}
    if len(sys.argv) > 1:
        trees["other tree"] = sys.argv[1]
    samples: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        for label, tree in trees.items():
            for name, t in run(tree).items():
                samples.setdefault(f"{label}: {name}", []).append(t)
    for key, ts in samples.items():
        print(f"{key:45s} median {statistics.median(ts) * 1e6:6.2f} µs/call  ({len(ts)} rounds)")


if __name__ == "__main__":
    main()
