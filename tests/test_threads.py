"""``threads=`` on the batch calls and ``simulate``: the same result for any
thread count (positions and games are split into ranges whose results are
joined in order), and batch outputs handed over without a copy."""

from __future__ import annotations

import numpy as np
import pytest

from ddzcore import MOVE_DTYPE, Rules, count_moves_batch, legal_moves_batch, simulate
from ddzcore.search import PlayState


def make_positions(n: int) -> tuple[np.ndarray, np.ndarray]:
    """n free leads and n follows (the landlord and seat 1 in turn, answering
    one of the other's leads: a move the hand leaves possible)."""
    deals = [PlayState.deal(i).hand_words for i in range(n)]
    hands = np.array([d[i % 2] for i, d in enumerate(deals)], dtype=np.uint64)
    leads, offsets = legal_moves_batch(np.array([d[1 - i % 2] for i, d in enumerate(deals)], dtype=np.uint64))
    lasts = leads[offsets[:-1] + np.arange(n) % np.diff(offsets)]
    return hands, lasts


@pytest.fixture(scope="module")
def batch() -> tuple[np.ndarray, np.ndarray]:
    return make_positions(9000)  # many chunks of 256 positions


@pytest.mark.parametrize("follow", [False, True])
def test_batch_same_for_any_thread_count(batch: tuple[np.ndarray, np.ndarray], follow: bool) -> None:
    hands, lasts = batch
    lasts_arg = lasts if follow else None
    moves, offsets = legal_moves_batch(hands, lasts_arg)
    counts = count_moves_batch(hands, lasts_arg)
    assert np.array_equal(np.diff(offsets), counts)
    for threads in (2, 3, 5):
        m, o = legal_moves_batch(hands, lasts_arg, threads=threads)
        assert np.array_equal(o, offsets) and np.array_equal(m, moves)
        assert np.array_equal(count_moves_batch(hands, lasts_arg, threads=threads), counts)
        for size in (1, len(moves) // 2, len(moves) + 10):  # out too small (grows) or large enough
            out = np.zeros(size, MOVE_DTYPE)
            m, o = legal_moves_batch(hands, lasts_arg, out=out, threads=threads)
            assert np.array_equal(o, offsets) and np.array_equal(m, moves)
            assert (m.base is out) == (size > len(moves))


def test_fresh_output_is_handed_over() -> None:
    hands, _ = make_positions(50)
    moves, offsets = legal_moves_batch(hands)
    full = moves.base
    assert isinstance(full, np.ndarray) and len(full) == len(moves) == offsets[-1]
    # The array owns no copy: its memory is the kernel's block (an object keeps it alive).
    assert full.base is not None and not isinstance(full.base, np.ndarray)
    again, _ = legal_moves_batch(hands, out=full)  # reusable as out=
    assert again.base is full and np.array_equal(again, moves)


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_bad_thread_count(threads: object) -> None:
    hands, _ = make_positions(4)
    with pytest.raises(ValueError, match="threads"):
        legal_moves_batch(hands, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        count_moves_batch(hands, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        simulate(3, 1, threads=threads)  # type: ignore[arg-type]


@pytest.mark.parametrize("record", [False, True])
def test_simulate_same_for_any_thread_count(record: bool) -> None:
    rules = Rules.preset("openspiel", bidding="points", max_redeals=1)
    one = simulate(101, 77, rules=rules, record=record, first_game=5)
    for threads in (2, 3, 7):
        many = simulate(101, 77, rules=rules, record=record, first_game=5, threads=threads)
        for field in one.__dataclass_fields__:
            a, b = getattr(one, field), getattr(many, field)
            assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b)), field
    if record:
        assert one.moves is not None and one.moves.base is not None
        assert not isinstance(one.moves.base, np.ndarray)  # the kernel's block, not a copy
