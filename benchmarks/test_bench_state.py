"""Native search state: self-play, perft and the make/unmake loop.

    python -m pytest benchmarks/test_bench_state.py --benchmark-only

Groups:

- ``selfplay``: ``simulate`` (whole random games in the kernel: deal,
  calling, play) and, when ``pyspiel`` is importable, OpenSpiel's Python
  random-playout loop on the same machine in the same run
  (``benchmarks/game_speed.py`` prints the ratio; ``extra_info["games"]``
  gives games/s from these timings).
- ``perft``: ``perft`` of fixed deals; ``extra_info["nodes"]`` is the count.
- ``state``: Python-level calls on a ``PlayState``: ``push_index``/``pop``,
  ``legal_moves_into`` a reused buffer, ``copy``, a Python-driven random game.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddzcore import MOVE_DTYPE, PlayState, Rules, simulate
from ddzcore.search import MAX_MOVES_HINT

import game_speed


@pytest.mark.parametrize("rules", ["standard", "openspiel"])
def test_simulate(benchmark, rules):
    benchmark.group = "selfplay"
    r = Rules() if rules == "standard" else Rules.preset("openspiel", bidding="points", max_redeals=0)
    n = 20_000
    result = benchmark(simulate, n, 7, rules=r)
    benchmark.extra_info.update(games=n, moves=int(result.turns.sum()), rules=rules)


def test_simulate_recording(benchmark):
    benchmark.group = "selfplay"
    n = 20_000
    result = benchmark(simulate, n, 7, record=True)
    benchmark.extra_info.update(games=n, moves=len(result.moves), recorded_bytes=result.moves.nbytes)


def test_openspiel_loop(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    benchmark.group = "selfplay"
    game = pyspiel.load_game("dou_dizhu")
    n = 300
    games, decisions = benchmark(game_speed.openspiel_loop, game, n, random.Random(7))
    benchmark.extra_info.update(games=n, decisions=decisions)


@pytest.mark.parametrize("seed, depth", [(1, 10), (2, 10), (3, 9)])
def test_perft(benchmark, seed, depth):
    benchmark.group = "perft"
    s = PlayState.deal(seed)
    nodes = benchmark(s.perft, depth)
    benchmark.extra_info.update(nodes=nodes, seed=seed, depth=depth)


def test_push_pop(benchmark):
    benchmark.group = "state"
    s = PlayState.deal(5)
    n = s.count_moves()

    def run():
        for i in range(n):
            s.push_index(i)
            s.pop()

    benchmark(run)
    benchmark.extra_info.update(pairs=n)


def test_legal_moves_into(benchmark):
    benchmark.group = "state"
    s = PlayState.deal(5)
    buf = np.empty(MAX_MOVES_HINT, MOVE_DTYPE)
    n = benchmark(s.legal_moves_into, buf)
    benchmark.extra_info.update(moves=n)


def test_copy(benchmark):
    benchmark.group = "state"
    s = PlayState.deal(5)
    benchmark(s.copy, False)


def test_python_driven_game(benchmark):
    benchmark.group = "state"
    games, moves = benchmark(game_speed.ours_python, 100, 3)
    benchmark.extra_info.update(games=games, moves=moves)
