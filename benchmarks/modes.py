"""Lead generation speed per rules mode, in one run (issues 5 and 6).

    python benchmarks/modes.py [--positions N] [--repeat R] [--rounds K]

Rows: one deck without wild cards; laizi (wild rank 7) with exactly 0, 1, 2,
3 and 4 wild cards in hand; two decks (21-card hands).  Hands are seeded
deals of alternately 17 and 20 cards (21 and 24 with two decks).  For each
row: positions/s and moves/s through ``count_moves_batch`` and
``legal_moves_batch`` (one call, ``out=`` reused), ns per move, and ns per
move relative to one deck's (issue 16's laizi target: at most 1.5x).  Each
of K interleaved rounds times every row: one call to warm the caches, then
R calls, the round's figure their median (not their best: a best-of
flatters the rows with short calls, one deck's 0.15 ms against laizi's
3-13 ms); the figures are the medians over the rounds, so a slow spell of
a shared machine hits all rows alike.  The last line sums up the laizi
rows' ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from ddzcore import Rules, count_moves_batch, hands_array, legal_moves_batch

ONE_DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
TWO_DECKS = ONE_DECK.replace("B", "").replace("R", "") * 2 + "BBRR"


def deal_hands(n: int, sizes: tuple[int, int], deck: str, wild: "str | None", wilds: "int | None",
               seed: int) -> list[str]:
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        size = sizes[i % 2]
        cards = list(deck)
        rng.shuffle(cards)
        if wild is not None and wilds is not None:
            others = [c for c in cards if c != wild]
            cards = [wild] * wilds + others[: size - wilds]
        hands.append("".join(cards[:size]))
    return hands


def median_call(fn, repeat: int) -> float:
    """Seconds of fn's median call of `repeat`, after one call that warms the caches."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def rows() -> "list[tuple[str, Rules, tuple[int, int], str, int | None]]":
    """The modes: (name, rules, hand sizes, deck, wild cards in hand or None)."""
    modes = [("one deck", Rules(), (17, 20), ONE_DECK, None)]
    modes += [(f"laizi, {k} wild", Rules(wild="7"), (17, 20), ONE_DECK, k) for k in range(5)]
    modes += [("two decks", Rules(decks=2), (21, 24), TWO_DECKS, None)]
    return modes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    setups = []
    for name, rules, sizes, deck, wilds in rows():
        hands = hands_array(deal_hands(args.positions, sizes, deck, rules.wild, wilds, seed=7), rules)
        moves, _ = legal_moves_batch(hands, rules=rules)
        out = moves.base if moves.base is not None else moves
        setups.append((name, rules, hands, out, len(moves)))
    counts: "list[list[float]]" = [[] for _ in setups]
    batches: "list[list[float]]" = [[] for _ in setups]
    for _ in range(args.rounds):
        for i, (name, rules, hands, out, n_moves) in enumerate(setups):
            counts[i].append(median_call(lambda: count_moves_batch(hands, rules=rules), args.repeat))
            batches[i].append(median_call(lambda: legal_moves_batch(hands, rules=rules, out=out), args.repeat))
    print(f"{'mode':<16} {'moves/pos':>9} {'count pos/s':>12} {'batch pos/s':>12} {'batch moves/s':>14} "
          f"{'ns/move':>8} {'x one deck':>10}")
    base = None
    ratios = []
    for (name, rules, hands, out, n_moves), tc, tb in zip(setups, counts, batches):
        t_count, t_batch, n = statistics.median(tc), statistics.median(tb), len(hands)
        per_move = t_batch / n_moves
        base = base or per_move
        if name.startswith("laizi") and not name.startswith("laizi, 0"):
            ratios.append(f"{name.split(', ')[1]} {per_move / base:.2f}x")
        print(f"{name:<16} {n_moves / n:>9.1f} {n / t_count / 1e6:>11.2f}M {n / t_batch / 1e6:>11.2f}M "
              f"{n_moves / t_batch / 1e6:>13.0f}M {per_move * 1e9:>8.2f} {per_move / base:>10.2f}")
    print(f"laizi time per move / one deck's ({args.rounds} interleaved rounds, medians): "
          + ", ".join(ratios) + " (target <= 1.5x)")


if __name__ == "__main__":
    main()
