"""The C reference enumeration of leads (benchmarks/lead_ref.c, the yardstick
of benchmarks/peers.py) against the kernel, set for set: every lead position
of tests/data/positions.txt (2000 hands of 20 and 17 cards) has exactly the
same moves, each reading once (docs/rules.md §2, standard rules)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import load_positions

from ddzcore import Rules, hands_array, legal_moves_batch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import lead_ref  # noqa: E402

# The package itself needs a C compiler to build; installed wheels (cibuildwheel on Windows) may lack one.
pytestmark = pytest.mark.skipif(lead_ref.compiler() is None, reason="no C compiler to build benchmarks/lead_ref.c")


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return hands_array([hand for kind, hand, last in load_positions() if last is None], Rules())


def by_position(moves: np.ndarray, offsets: np.ndarray) -> list[list[tuple[int, int]]]:
    return [sorted(zip(moves["cards"][a:b].tolist(), moves["info"][a:b].tolist()))
            for a, b in zip(offsets[:-1], offsets[1:])]


def test_reference_equals_kernel_on_corpus_leads(hands: np.ndarray) -> None:
    assert len(hands) == 2000
    ours = by_position(*legal_moves_batch(hands))
    ref = by_position(*lead_ref.leads(hands))
    diff = [i for i, (a, b) in enumerate(zip(ours, ref)) if a != b]
    assert not diff, f"{len(diff)} positions differ, first hands[{diff[0]}] = {int(hands[diff[0]]):#x}"
    assert all(len(set(m)) == len(m) for m in ref)  # each reading once
    assert sum(map(len, ref)) > 100_000  # the corpus's leads hold every kind of kicker


def test_reference_grows_a_small_buffer(hands: np.ndarray) -> None:
    small = np.empty(lead_ref.ROOM, legal_moves_batch(hands[:1])[0].dtype)
    moves, offsets = lead_ref.leads(hands[:300], out=small)
    again, offsets2 = lead_ref.leads(hands[:300])
    assert moves.base is not small and np.array_equal(moves, again) and np.array_equal(offsets, offsets2)
