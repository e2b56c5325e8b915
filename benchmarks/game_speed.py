"""Random self-play games per second: ddzcore's kernel against OpenSpiel's
Python random-playout loop, side by side in one run, one core.

    /work/peers-venv/bin/python benchmarks/game_speed.py          # any env with pyspiel + ddzcore
    python benchmarks/game_speed.py --games 200000 --os-games 3000 --repeat 5

Both sides count whole games: the deal, the calling and the play, every
choice uniformly random among the legal ones.

- OpenSpiel (``pyspiel``, game ``dou_dizhu``): the loop of OpenSpiel's own
  examples (``open_spiel/python/examples/example.py``): from
  ``new_initial_state()``, sample chance nodes (each dealt card is one) from
  ``chance_outcomes()`` and pick ``random.choice(legal_actions())`` at
  decision nodes, ``apply_action`` until terminal.  Two samplers are timed:
  ``random.choices`` from the standard library (the faster, used for the
  ratio) and ``np.random.choice`` as in example.py.  OpenSpiel bids points
  (1-3) and ends a deal that everybody passes (no redeal).
- ddzcore: ``simulate(n, seed)`` (deal, calling and play in C, no GIL):
  with the default rules (call and rob with rob-back, redeal when all pass)
  and with OpenSpiel's ("openspiel" move set, point bidding, no redeal).
- ddzcore, Python-driven: a Python loop over a native ``PlayState``
  (``PlayState.deal`` + ``count_moves`` / ``push_index`` with ``random``),
  i.e. what a Python policy pays per move; play phase only, no calling.

Measurement: the median of ``--repeat`` rounds, interleaved (round 1 of
every contender, then round 2, ...), each after ``gc.collect()``, timed
with ``time.perf_counter``.  The ratio is ddzcore's kernel (default rules) over
OpenSpiel with ``random.choices``; the target is 50x.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time

import numpy as np

import ddzcore
from ddzcore import OPENSPIEL_FLOW, Game, PlayState, Rules, simulate

TARGET = 50.0
#: The Game loop's targets against OpenSpiel's hand-tuned loop, by flow (issue 11).
GAME_TARGETS = {"OpenSpiel's rules and flow": 3.0, "docs/rules.md flow": 2.0}


def openspiel_loop(game, n: int, rng: random.Random, chance: str = "choices") -> tuple[int, int]:
    """n random games through pyspiel; returns (games, decisions made).

    chance: how chance nodes (the deal) are sampled -- "choices"
    (random.choices with the probabilities), "numpy" (np.random.choice, as
    OpenSpiel's example.py) or "uniform" (random.choice: the deal is uniform;
    a hand-tuned loop).
    """
    decisions = 0
    choice = rng.choice
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if chance == "uniform":
                    action = choice(outcomes)[0]
                else:
                    actions, probs = zip(*outcomes)
                    action = (rng.choices(actions, probs)[0] if chance == "choices"
                              else np.random.choice(actions, p=probs))
            else:
                action = choice(state.legal_actions())
                decisions += 1
            state.apply_action(action)
    return n, decisions


def ours_game(n: int, seed: int, rules: Rules) -> tuple[int, int]:
    """The Python Game: legal_actions() + apply() each turn, whole games.

    The deals come from one ``numpy.random.Generator`` shared by the
    round's games (``Game(rules, seed=generator)``, the documented way to
    play many games; an int seed per game would build a generator per game,
    about 20-40 us, as OpenSpiel's loop builds none)."""
    rng = random.Random(seed)
    deals = np.random.default_rng(seed)
    choice = rng.choice
    decisions = 0
    for g in range(n):
        game = Game(rules, seed=deals)
        while not game.is_terminal():
            game.apply(choice(game.legal_actions()))
            decisions += 1
    return n, decisions


def ours(n: int, seed: int, rules: Rules) -> tuple[int, int]:
    r = simulate(n, seed, rules=rules)
    return n, int(r.turns.sum())


def ours_python(n: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    moves = 0
    for g in range(n):
        s = PlayState.deal(seed + g, landlord=g % 3)
        while not s.is_over:
            s.push_index(rng.randrange(s.count_moves()))
            moves += 1
    return n, moves


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description="random self-play games/s: ddzcore vs OpenSpiel, one run")
    ap.add_argument("--games", type=int, default=100_000, help="games per round for ddzcore's kernel")
    ap.add_argument("--os-games", type=int, default=2_000, help="games per round for OpenSpiel")
    ap.add_argument("--py-games", type=int, default=2_000, help="games per round for the Python-driven PlayState")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (the median is reported)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed here: OpenSpiel is skipped (pip install open_spiel)")

    contenders = {
        "ddzcore simulate (standard rules, call/rob)":
            lambda k: ours(args.games, args.seed + k, Rules()),
        "ddzcore simulate (openspiel moves, points, no redeal)":
            lambda k: ours(args.games, args.seed + k,
                           Rules.preset("openspiel", bidding="points", max_redeals=0)),
        "ddzcore PlayState driven from Python (play only)":
            lambda k: ours_python(args.py_games, args.seed + 1000 * k),
        "ddzcore Game, Python loop (OpenSpiel's rules and flow)":
            lambda k: ours_game(args.py_games, args.seed + k, Rules.preset("openspiel", **OPENSPIEL_FLOW)),
        "ddzcore Game, Python loop (docs/rules.md flow)":
            lambda k: ours_game(args.py_games, args.seed + k, Rules()),
    }
    if pyspiel is not None:
        game = pyspiel.load_game("dou_dizhu")
        contenders["OpenSpiel Python loop (random.choices)"] = \
            lambda k: openspiel_loop(game, args.os_games, random.Random(args.seed + k))
        contenders["OpenSpiel Python loop (np.random.choice, example.py)"] = \
            lambda k: openspiel_loop(game, args.os_games, random.Random(args.seed + k), "numpy")
        contenders["OpenSpiel Python loop (random.choice, hand-tuned)"] = \
            lambda k: openspiel_loop(game, args.os_games, random.Random(args.seed + k), "uniform")

    rounds: dict[str, list[tuple[float, int, int]]] = {name: [] for name in contenders}
    for k in range(args.repeat):
        for name, run in contenders.items():
            gc.collect()
            t = time.perf_counter()
            games, moves = run(k)
            dt = time.perf_counter() - t
            rounds[name].append((games / dt, games, moves))
    med = {name: sorted(r)[len(r) // 2] for name, r in rounds.items()}  # the median round (upper for even)

    print(f"ddzcore {ddzcore.__version__}, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} interleaved rounds, one core")
    print(f"{'contender':58s} {'games/s':>12s} {'games':>8s} {'moves/game':>10s}")
    for name, (rate, games, moves) in med.items():
        print(f"{name:58s} {rate:12,.0f} {games:8d} {moves / games:10.1f}")
    if pyspiel is not None:
        base = med["OpenSpiel Python loop (random.choices)"][0]
        ratio = med["ddzcore simulate (standard rules, call/rob)"][0] / base
        like = med["ddzcore simulate (openspiel moves, points, no redeal)"][0] / base
        ex = med["OpenSpiel Python loop (np.random.choice, example.py)"][0]
        print(f"\nratio ddzcore kernel / OpenSpiel loop: {ratio:.0f}x (standard rules), "
              f"{like:.0f}x (OpenSpiel's rules); {med['ddzcore simulate (standard rules, call/rob)'][0] / ex:.0f}x "
              f"against example.py's sampler.  Target {TARGET:.0f}x: {'met' if min(ratio, like) >= TARGET else 'NOT met'}")
        tuned = med["OpenSpiel Python loop (random.choice, hand-tuned)"][0]
        for flow, target in GAME_TARGETS.items():
            py = med[f"ddzcore Game, Python loop ({flow})"][0]
            print(f"ratio ddzcore Game Python loop ({flow}) / OpenSpiel loops: {py / ex:.2f}x (example.py), "
                  f"{py / base:.2f}x (random.choices), {py / tuned:.2f}x (hand-tuned).  "
                  f"Target {target:.0f}x hand-tuned: {'met' if py / tuned >= target else 'NOT met'}")
        print("(moves/game: OpenSpiel counts its decisions, bids included; ddzcore its play moves, passes "
              "included; the Game loops count every decision)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
