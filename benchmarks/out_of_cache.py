"""What writing the moves out of cache costs a batch call (helper's check, 2026-12-02).

    python benchmarks/out_of_cache.py [ROUNDS] [TARGET]

For one deck and laizi with 1, 2 and 4 wild cards (benchmarks/modes.py's
hands, 2,000 positions): ns per move of one legal_moves_batch call over all
positions (out= reused: 2 MB to 106 MB written a call, past the caches for
the laizi rows) against the same positions in chunks of about TARGET moves
(default 65,536: ~1 MB, out= reused, so the records stay in cache; each
chunk pays a call's overhead).  chunks/one near 1: the output's memory
traffic is not what limits the row.  Medians over ROUNDS interleaved rounds
of the best of 9 calls.
"""
import sys, time, statistics
sys.path.insert(0, __import__("os").path.dirname(__file__))
import numpy as np
from ddzcore import hands_array, legal_moves_batch
from modes import deal_hands, rows
R, K = 9, int(sys.argv[1]) if len(sys.argv) > 1 else 7
TARGET = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
setups = []
for name, rules, sizes, deck, wilds in rows():
    if name not in ("one deck", "laizi, 1 wild", "laizi, 2 wild", "laizi, 4 wild"):
        continue
    hands = hands_array(deal_hands(2000, sizes, deck, rules.wild, wilds, seed=1), rules)
    moves, off = legal_moves_batch(hands, rules=rules)
    out = moves.base if moves.base is not None else moves
    per = len(moves) / 2000
    step = max(1, int(TARGET / per))
    chunks = [hands[i:i + step] for i in range(0, 2000, step)]
    # room for the largest chunk's moves (a reused out)
    largest = max(off[min(i + step, 2000)] - off[i] for i in range(0, 2000, step))
    small = np.empty(int(largest) + 1, moves.dtype)
    setups.append((name, rules, hands, out, chunks, small, len(moves), step))
res = {}
for _ in range(K):
    for name, rules, hands, out, chunks, small, nm, step in setups:
        ts = []
        for _ in range(R):
            t = time.perf_counter(); legal_moves_batch(hands, rules=rules, out=out); ts.append(time.perf_counter() - t)
        res.setdefault((name, "one call"), []).append(min(ts) / nm * 1e9)
        ts = []
        for _ in range(R):
            t = time.perf_counter()
            for c in chunks:
                legal_moves_batch(c, rules=rules, out=small)
            ts.append(time.perf_counter() - t)
        res.setdefault((name, "chunks"), []).append(min(ts) / nm * 1e9)
for name, rules, hands, out, chunks, small, nm, step in setups:
    a, b = statistics.median(res[(name, "one call")]), statistics.median(res[(name, "chunks")])
    print(f"{name:14s} {nm*16/1e6:6.1f} MB a call: {a:5.2f} ns/move; {len(chunks):4d} chunks of {step:4d} positions ({small.nbytes/1e6:4.1f} MB out): {b:5.2f} ns/move; chunks/one {b/a:5.3f}")
