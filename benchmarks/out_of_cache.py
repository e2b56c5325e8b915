"""What writing the moves out of cache costs a batch call.

    python benchmarks/out_of_cache.py [--rounds K] [--target MOVES]

For one deck and laizi with 1, 2 and 4 wild cards (benchmarks/modes.py's
hands, 2,000 positions): ns per move of one legal_moves_batch call over all
positions (out= reused: 2 MB to 106 MB written a call, past the caches for
the laizi rows) against the same positions in chunks of about MOVES moves
(default 65,536: ~1 MB, out= reused, so the records stay in cache; each
chunk pays a call's overhead).  chunks/one near 1: the output's memory
traffic is not what limits the row.  Medians over K interleaved rounds of
each round's median of 9 calls (after one that warms the caches).
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from ddzcore import hands_array, legal_moves_batch
from modes import deal_hands, median_call, rows

ROWS = ("one deck", "laizi, 1 wild", "laizi, 2 wild", "laizi, 4 wild")
POSITIONS = 2000


def median_ns(calls, n_moves: int, repeat: int = 9) -> float:
    """calls()'s median of `repeat` runs (modes.median_call), in ns a move."""
    return median_call(calls, repeat) / n_moves * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--target", type=int, default=65536, help="moves a chunk, about")
    args = ap.parse_args()
    setups = []
    for name, rules, sizes, deck, wilds in rows():
        if name not in ROWS:
            continue
        hands = hands_array(deal_hands(POSITIONS, sizes, deck, rules.wild, wilds, seed=1), rules)
        moves, off = legal_moves_batch(hands, rules=rules)
        out = moves.base if moves.base is not None else moves
        step = max(1, int(args.target * POSITIONS / len(moves)))
        chunks = [hands[i:i + step] for i in range(0, POSITIONS, step)]
        largest = max(off[min(i + step, POSITIONS)] - off[i] for i in range(0, POSITIONS, step))
        small = np.empty(int(largest) + 1, moves.dtype)  # a reused out for the largest chunk's moves
        setups.append((name, rules, hands, out, chunks, small, len(moves), step))
    one: dict[str, list[float]] = {s[0]: [] for s in setups}
    split: dict[str, list[float]] = {s[0]: [] for s in setups}
    for _ in range(args.rounds):
        for name, rules, hands, out, chunks, small, n_moves, step in setups:
            one[name].append(median_ns(lambda: legal_moves_batch(hands, rules=rules, out=out), n_moves))
            split[name].append(median_ns(lambda: [legal_moves_batch(c, rules=rules, out=small) for c in chunks],
                                       n_moves))
    for name, rules, hands, out, chunks, small, n_moves, step in setups:
        a, b = statistics.median(one[name]), statistics.median(split[name])
        print(f"{name:14s} {n_moves * 16 / 1e6:6.1f} MB a call: {a:5.2f} ns/move; {len(chunks):4d} chunks of "
              f"{step:4d} positions ({small.nbytes / 1e6:4.1f} MB out): {b:5.2f} ns/move; chunks/one {b / a:5.3f}")


if __name__ == "__main__":
    main()
