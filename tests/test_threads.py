"""``threads=`` on the batch calls and ``simulate``: the same result for any
thread count (positions and games are split into ranges whose results are
joined in order), and batch outputs handed over without a copy."""

from __future__ import annotations

import multiprocessing as mp
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from ddzcore import (MOVE_DTYPE, InvalidArgumentError, Rules, _kernel, count_moves_batch, legal_moves_batch, simulate,
                     thread_spin)
from ddzcore.search import PlayState


@pytest.fixture(autouse=True)
def small_parts() -> Iterator[None]:
    """Threads for batches of any size (by default a thread needs thousands
    of positions), so these small batches run the thread machinery."""
    old = _kernel._set_min_part(1, 1)
    yield
    _kernel._set_min_part(*old)


def make_positions(n: int) -> tuple[np.ndarray, np.ndarray]:
    """n free leads and n follows (the landlord and seat 1 in turn, answering
    one of the other's leads: a move the hand leaves possible)."""
    deals = [PlayState.deal(i).hand_words for i in range(n)]
    hands = np.array([d[i % 2] for i, d in enumerate(deals)], dtype=np.uint64)
    leads, offsets = legal_moves_batch(np.array([d[1 - i % 2] for i, d in enumerate(deals)], dtype=np.uint64))
    lasts = leads[offsets[:-1] + np.arange(n) % np.diff(offsets)]
    return hands, lasts


def within(seconds: float, calls: Callable[[], None]) -> None:
    """Run calls in a daemon thread: a lost wake-up (a call waiting for a
    helper forever) fails the test after `seconds` instead of hanging it."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            calls()
        except BaseException as e:  # re-raised below, in the test's thread
            failed.append(e)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"the calls did not finish within {seconds} s"
    if failed:
        raise failed[0]


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


@pytest.mark.parametrize("threads", [2**29, 2**30, 3 * 2**29, 2**31, 2**64])
def test_simulate_any_large_thread_count(threads: int) -> None:
    # Any int >= 1 is a thread count, as for the batch calls (at most 64 are
    # used); games and chunks were sized with 8 * threads in a C int, which
    # is 0 for multiples of 2**29 (a division by zero: the process died of
    # SIGFPE), and counts past a C int raised OverflowError.  In a child
    # process, so a crash fails this test instead of the whole run.
    code = ("import ddzcore; print(ddzcore.simulate(10, 1, threads=%d).turns.tolist(), "
            "ddzcore.simulate(0, 1, threads=%d).turns.tolist(), "
            "ddzcore.simulate(10, 1, policy='rule', threads=%d).turns.tolist())" % (threads, threads, threads))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, (run.returncode, run.stderr[-500:])
    want = [simulate(10, 1).turns.tolist(), [], simulate(10, 1, policy="rule").turns.tolist()]
    assert run.stdout.strip() == " ".join(map(str, want))


@pytest.mark.parametrize("kind", ["rule", "laizi", "five"])
def test_simulate_others_same_for_any_thread_count(kind: str) -> None:
    # The rule bot's games, laizi rooms and five players go through the same
    # runs of games (chunks claimed by the crew) as the random ones.
    args: dict[str, object] = {"rule": {"policy": "rule"}, "laizi": {"rules": Rules(laizi=True), "record": True},
                               "five": {"players": 5, "record": True}}[kind]
    one = simulate(300, 9, **args)  # type: ignore[arg-type]
    for threads in (2, 5):
        many = simulate(300, 9, threads=threads, **args)  # type: ignore[arg-type]
        for field in one.__dataclass_fields__:
            a, b = getattr(one, field), getattr(many, field)
            assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b)), field


def rich_hands(n: int) -> np.ndarray:
    """n hands with more legal leads than a threaded call's own block holds
    (128 a position): the richest of 3,000 deals' hands, repeated."""
    deals = [PlayState.deal(i).hand_words for i in range(3000)]
    hands = np.array([w for d in deals for w in d], dtype=np.uint64)
    counts = count_moves_batch(hands)
    assert counts.max() > 128
    return np.full(n, hands[counts.argmax()], dtype=np.uint64)


@pytest.mark.parametrize("threads", [2, 3])
def test_parts_overflowing_the_block(threads: int) -> None:
    # Each part outgrows its share of the block and continues in one of its own.
    hands = np.concatenate([make_positions(700)[0], rich_hands(1500)])
    moves, offsets = legal_moves_batch(hands)
    assert offsets[-1] > 128 * len(hands) + 1024
    m, o = legal_moves_batch(hands, threads=threads)
    assert np.array_equal(o, offsets) and np.array_equal(m, moves)
    out = np.zeros(len(moves) // 3, MOVE_DTYPE)  # out too small: the parts past it overflow
    m, o = legal_moves_batch(hands, out=out, threads=threads)
    assert np.array_equal(o, offsets) and np.array_equal(m, moves) and m.base is not out


@pytest.mark.parametrize("threads", [2, 3])
def test_stolen_parts_same_result(threads: int) -> None:
    # Rich hands before plain ones: the calling thread's part (begun at
    # once) is the heaviest, so the helpers steal from it (and from what
    # was stolen), however late they start.
    plain, _ = make_positions(3000)
    hands = np.concatenate([rich_hands(3000), plain])
    moves, offsets = legal_moves_batch(hands)
    out = np.zeros(len(moves) + 10, MOVE_DTYPE)
    steals = 0
    for _ in range(10):
        _kernel._trace(True)
        m, o = legal_moves_batch(hands, out=out, threads=threads)
        trace = _kernel._trace(False)
        assert np.array_equal(o, offsets) and np.array_equal(m, moves)
        steals += sum(trace["steals"])
        assert sum(trace["made"]) == len(hands)  # every position generated once
    assert steals > 0


@pytest.fixture
def scratch_left() -> Iterator[None]:
    """Every position leaves the most scratch the generator may write past
    its moves (its room allows ROOM records; laizi's two-kicker rows did,
    until their rows were narrowed)."""
    old = _kernel._set_scratch_test(True)
    yield
    _kernel._set_scratch_test(old)


@pytest.mark.parametrize("threads", [2, 3, 5])
@pytest.mark.parametrize("kind", ["leads", "follows", "laizi"])
def test_scratch_past_a_part_is_not_left_in_the_next(scratch_left: None, threads: int, kind: str) -> None:
    # A part's last position writes its scratch over the first moves of the
    # part after it, already written (its thread counted its start back
    # while this one generated): those are generated again at the join.
    hands, lasts = make_positions(3000)
    rules = Rules(wild="7") if kind == "laizi" else Rules()
    lasts_arg = lasts if kind == "follows" else None
    moves, offsets = legal_moves_batch(hands, lasts_arg, rules=rules)
    for i in range(6):
        out = None if i % 2 else np.zeros(len(moves), MOVE_DTYPE)
        m, o = legal_moves_batch(hands, lasts_arg, rules=rules, out=out, threads=threads)
        assert np.array_equal(o, offsets) and np.array_equal(m, moves)


@pytest.mark.parametrize("n", [255, 256, 257, 513, 1000])
def test_part_boundaries(n: int) -> None:
    # Parts (and the chunks counting claims) of any size, down to one chunk per thread.
    hands, lasts = make_positions(n)
    for lasts_arg in (None, lasts):
        moves, offsets = legal_moves_batch(hands, lasts_arg)
        counts = np.diff(offsets)
        for threads in (2, 4, 64):
            m, o = legal_moves_batch(hands, lasts_arg, threads=threads)
            assert np.array_equal(o, offsets) and np.array_equal(m, moves)
            assert np.array_equal(count_moves_batch(hands, lasts_arg, threads=threads), counts)


def test_bad_input_writes_nothing() -> None:
    hands, _ = make_positions(2000)
    hands[1500] = ~np.uint64(0)  # every bit set: more of a rank than the deck holds
    out = np.zeros(200_000, MOVE_DTYPE)
    with pytest.raises(ValueError, match=r"hands\[1500\]"):
        legal_moves_batch(hands, out=out, threads=2)
    assert not out.view(np.uint64).any()
    with pytest.raises(ValueError, match=r"hands\[1500\]"):
        count_moves_batch(hands, threads=2)


def test_bad_rows_named_first_whichever_thread_finds_them() -> None:
    # count_moves_batch's threads check their own chunks; the first bad row is named.
    hands, lasts = make_positions(3000)
    hands[2900] = hands[400] = ~np.uint64(0)
    for threads in (1, 2, 3):
        with pytest.raises(ValueError, match=r"hands\[400\]"):
            count_moves_batch(hands, threads=threads)
    hands, lasts = make_positions(3000)
    lasts[2500] = lasts[2000] = (np.uint64(0x1), np.uint64(0xFFFF))  # a three with no valid reading
    for threads in (1, 2, 3):
        with pytest.raises(ValueError, match="last move 2000"):
            count_moves_batch(hands, lasts, threads=threads)


@pytest.mark.slow
def test_big_batches_same_for_any_thread_count() -> None:
    # Many positions, many thread counts: the meeting of each counting thread
    # with the thread before falls anywhere in a part.
    hands, lasts = make_positions(60_000)
    for lasts_arg in (None, lasts):
        moves, offsets = legal_moves_batch(hands, lasts_arg)
        counts = np.diff(offsets)
        for threads in (2, 3, 4, 7, 16):
            for _ in range(3):
                m, o = legal_moves_batch(hands, lasts_arg, threads=threads)
                assert np.array_equal(o, offsets) and np.array_equal(m, moves)
            assert np.array_equal(count_moves_batch(hands, lasts_arg, threads=threads), counts)


@pytest.mark.parametrize("spin", [0.0, 0.01])
def test_crew_awake_or_asleep(batch: tuple[np.ndarray, np.ndarray], spin: float) -> None:
    # The helper threads kept between calls: polling for the next call, or
    # asleep (spin 0: they sleep at once, and a pause lets them) and woken.
    hands, lasts = batch
    moves, offsets = legal_moves_batch(hands[:3000], lasts[:3000])
    counts = np.diff(offsets)
    games = simulate(300, 4)

    def calls() -> None:
        for i in range(12):
            if i % 3 == 0:
                time.sleep(0.003)
            threads = 2 + i % 3
            m, o = legal_moves_batch(hands[:3000], lasts[:3000], threads=threads)
            assert np.array_equal(o, offsets) and np.array_equal(m, moves)
            assert np.array_equal(count_moves_batch(hands[:3000], lasts[:3000], threads=threads), counts)
            assert np.array_equal(simulate(300, 4, threads=threads).turns, games.turns)

    old = thread_spin(spin)
    try:
        within(60, calls)
    finally:
        assert thread_spin(old) == spin


def test_crew_shared_by_python_threads(batch: tuple[np.ndarray, np.ndarray]) -> None:
    # Calls from several Python threads at once: one has the crew, the
    # others find it busy and run alone; every result is the same.
    hands, lasts = batch
    moves, offsets = legal_moves_batch(hands, lasts)

    games = simulate(400, 3, record=True)

    def call(i: int) -> bool:
        m, o = legal_moves_batch(hands, lasts, threads=2 + i % 3)
        c = count_moves_batch(hands, lasts, threads=2 + i % 2)
        g = simulate(400, 3, record=True, threads=2 + i % 2)
        return bool(np.array_equal(o, offsets) and np.array_equal(m, moves) and np.array_equal(c, np.diff(offsets))
                    and np.array_equal(g.moves, games.moves) and np.array_equal(g.winner, games.winner))

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(call, range(24)))


def _child_counts(hands: np.ndarray, out: "mp.Queue[list[int]]") -> None:
    out.put(count_moves_batch(hands, threads=2).tolist() + legal_moves_batch(hands, threads=3)[1].tolist()
            + simulate(300, 1, threads=2).turns.tolist())


@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="no fork on this platform")
def test_crew_after_fork(batch: tuple[np.ndarray, np.ndarray]) -> None:
    # A forked child has none of the parent's helper threads: it starts its own.
    hands = batch[0][:2000]
    legal_moves_batch(hands, threads=3)  # the parent's crew exists, maybe polling
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_child_counts, args=(hands, out))
    child.start()
    got = out.get(timeout=60)  # a child waiting for helpers that are not there: queue.Empty, not a hang
    child.join(60)
    offsets = legal_moves_batch(hands)[1]
    assert child.exitcode == 0 and got == np.diff(offsets).tolist() + offsets.tolist() + simulate(300, 1).turns.tolist()


@pytest.mark.parametrize("bad", [-0.001, 10.5, float("nan"), "0.01", True, 1j, None])
def test_thread_spin_bad(bad: object) -> None:
    before = thread_spin()
    if bad is None:
        assert thread_spin(None) == before  # None only reads it
        return
    with pytest.raises(InvalidArgumentError, match="seconds"):
        thread_spin(bad)  # type: ignore[arg-type]
    assert thread_spin() == before


def test_thread_spin_takes_numpy_numbers() -> None:
    before = thread_spin(np.float32(0.5))
    try:
        assert thread_spin(np.int64(0)) == 0.5 and thread_spin() == 0.0
    finally:
        thread_spin(before)


def test_wide_call_leaves_no_crowd_polling(batch: tuple[np.ndarray, np.ndarray]) -> None:
    # After a call with more threads than CPUs, the mates past the CPUs'
    # count sleep at once, and mates with no share in later calls stop
    # polling when their time is up: a process that then idles uses
    # (almost) no CPU time.
    hands, lasts = batch
    old = thread_spin(0.01)
    try:
        count_moves_batch(hands[:4000], lasts[:4000], threads=16)
        for _ in range(20):  # narrow calls less than a spin apart
            count_moves_batch(hands[:4000], lasts[:4000], threads=2)
        time.sleep(0.05)  # every mate's 0.01 s is up
        c0, w0 = time.process_time(), time.perf_counter()
        time.sleep(0.2)
        assert time.process_time() - c0 < 0.05 * (time.perf_counter() - w0)
        thread_spin(5.0)
        count_moves_batch(hands[:4000], lasts[:4000], threads=2)  # a mate polls for up to 5 s ...
        thread_spin(0.0)  # ... and stops now
        time.sleep(0.05)
        c0, w0 = time.process_time(), time.perf_counter()
        time.sleep(0.2)
        assert time.process_time() - c0 < 0.05 * (time.perf_counter() - w0)
    finally:
        thread_spin(old)
