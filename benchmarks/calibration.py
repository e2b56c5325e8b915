"""Calibration of ``win_probability``: predicted before play against the game played.

For each of N seeded deals, seat 0's 17 cards are evaluated before play
(``win_probability(hand, role, policy=...)``: the hidden cards sampled,
each sample played out), then the real deal is played by the same policy
(the landlord seat 0 takes the real bottom; as a farmer the landlord is
seat 1 for even deals and seat 2 for odd ones, as the estimate assumes).
Hands are grouped by decile of the prediction; in each decile the mean
prediction and the observed win rate should agree.

    python benchmarks/calibration.py --hands 10000 --playouts 500 --policy rule --role landlord
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from ddzcore import _eval
from ddzcore.cards import Hand
from ddzcore.evaluate import win_probability
from ddzcore.search import PlayState


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--playouts", type=int, default=500)
    ap.add_argument("--policy", choices=["random", "rule"], default="rule")
    ap.add_argument("--role", choices=["landlord", "farmer"], default="landlord")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    code = {"random": _eval.RANDOM, "rule": _eval.RULE}[args.policy]
    pred = np.empty(args.hands)
    won = np.empty(args.hands, bool)
    t = time.perf_counter()
    for i in range(args.hands):
        perm = np.random.default_rng([args.seed, i]).permutation(54)
        ranks = np.where(perm < 52, perm // 4, perm - 39)
        words = [sum(1 << (4 * int(r)) for r in part) for part in (ranks[:17], ranks[17:34], ranks[34:51], ranks[51:])]
        pred[i] = win_probability(Hand._trusted(words[0]), args.role, playouts=args.playouts, policy=args.policy,
                                  seed=args.seed * 1_000_003 + i).p
        ll = 0 if args.role == "landlord" else 1 + (i & 1)
        hands = words[:3]
        hands[ll] += words[3]
        state = PlayState(hands, landlord=ll)
        winner = int(_eval._playouts(state, np.array([hands], np.uint64), code, i)[0])
        won[i] = (winner == ll) == (args.role == "landlord")
    secs = time.perf_counter() - t
    order = np.argsort(pred, kind="stable")
    rows = []
    for k, idx in enumerate(np.array_split(order, 10)):
        p, o = float(pred[idx].mean()), float(won[idx].mean())
        rows.append({"decile": k + 1, "hands": len(idx), "predicted": p, "observed": o, "diff_points": 100 * (o - p),
                     "se_points": 100 * float(np.sqrt(o * (1 - o) / len(idx)))})
    print(f"{args.hands} hands, {args.playouts} {args.policy} playouts each, role {args.role}, {secs:.0f} s")
    print("decile  hands  predicted  observed  diff (points)  SE of observed")
    for r in rows:
        print(f"{r['decile']:6d}  {r['hands']:5d}  {r['predicted']:9.1%}  {r['observed']:8.1%}  "
              f"{r['diff_points']:+13.1f}  {r['se_points']:14.1f}")
    print(json.dumps({"args": vars(args), "seconds": secs, "deciles": rows}))


if __name__ == "__main__":
    main()
