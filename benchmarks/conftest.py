"""Fixtures for the pytest-benchmark suites: the shared corpus, parsed once.

Run with ``python -m pytest benchmarks/ --benchmark-only`` (``benchmarks/`` is
outside the default test path, so a plain ``pytest`` never runs these).
The corpus is given on the command line: ``--corpus PATH`` (the peer
corpus, e.g. ``../shared/data/positions.json``); without it the benchmarks
that need it fail saying so.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_corpus as bc  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--corpus", default=None, help="the peer position corpus (positions.json) to time on")


@pytest.fixture(scope="session")
def corpus(request) -> list[dict]:
    try:
        return bc.load_corpus(request.config.getoption("--corpus"))
    except FileNotFoundError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def prepared(corpus) -> dict[str, bc.Prepared]:
    """``{"lead": ..., "follow": ...}`` under the standard rules: every lead
    (lead20 + lead17) and the follows whose last move is valid (the rest are
    counted in ``.skipped``)."""
    groups = bc.split_by_kind(corpus)
    return {kind: bc.prepare(groups[kind], kind) for kind in ("lead", "follow")}


def pytest_report_header(config):
    import ddzcore

    out = [f"ddzcore {ddzcore.__version__} ({os.path.dirname(ddzcore.__file__)}); corpus {config.getoption('--corpus')}"]
    out.append("batch out= reuse: legal_moves_batch %s, count_moves_batch %s" % (
        "yes" if bc.accepts_out(ddzcore.legal_moves_batch) else "no",
        "yes" if bc.accepts_out(ddzcore.count_moves_batch) else "no"))
    return out
