"""Move generation and classification speed on the shared corpus.

    python -m pytest benchmarks/ --benchmark-only

Groups ``lead`` (1000 twenty-card + 1000 seventeen-card free leads) and
``follow`` (the follow positions whose last move is valid under the standard
rules; ``extra_info["skipped"]`` says how many were left out and why), each
through every ddzcore level:

- ``legal_moves`` (a ``MoveList``), ``legal_moves_array``, ``count_moves``:
  one call per position;
- ``legal_moves_batch`` (reusing the previous result as ``out=`` when the API
  accepts it), ``count_moves_batch``: one call for all positions.

Group ``classify``: ``classify`` on every follow position's last move.

Hands and moves are parsed before timing.  ``extra_info`` records
``positions`` and ``moves`` (every record the call returned, pass included
when following) so positions/s and moves/s follow from the timings.  Absolute
times are machine-dependent; ``benchmarks/peers.py`` gives ratios to other
engines measured in one run.
"""

from __future__ import annotations

import pytest

import bench_corpus as bc
from ddzcore import Hand, classify


def _record(benchmark, prep: bc.Prepared, level: bc.Level, result) -> None:
    counts = level.counts(result)
    assert len(counts) == len(prep)
    benchmark.extra_info.update(
        kind=prep.kind,
        level=level.name,
        positions=len(prep),
        moves=int(sum(counts)),
        skipped=int(sum(prep.skipped.values())),
        skipped_by_reason=dict(prep.skipped),
        out_reused=level.reuses_out,
    )


@pytest.mark.parametrize("level", bc.LEVELS)
@pytest.mark.parametrize("kind", ["lead", "follow"])
def test_movegen(benchmark, prepared, kind, level):
    prep = prepared[kind]
    lv = bc.levels(prep)[level]
    benchmark.group = kind
    lv.run()  # warm up (and give the batch its out= buffer)
    result = benchmark(lv.run)
    _record(benchmark, prep, lv, result)
    assert benchmark.extra_info["moves"] > 0


def test_levels_agree(prepared):
    """Not a benchmark: every level counts the same moves (catches a benchmark
    that times the wrong thing).  Skipped under --benchmark-only."""
    for prep in prepared.values():
        got = {name: lv.counts(lv.run()) for name, lv in bc.levels(prep).items()}
        first = got["legal_moves"]
        assert all(v == first for v in got.values()), {k: sum(v) for k, v in got.items()}


def test_classify(benchmark, corpus):
    follows = bc.split_by_kind(corpus)["follow"]
    cards = [Hand(p["last_move"]) for p in follows]
    benchmark.group = "classify"

    def run():
        return [len(classify(c)) for c in cards]

    result = benchmark(run)
    benchmark.extra_info.update(
        kind="classify",
        positions=len(cards),
        moves=int(sum(result)),
        unreadable=sum(1 for n in result if n == 0),
        ambiguous=sum(1 for n in result if n > 1),
    )
    assert len(result) == len(cards)
