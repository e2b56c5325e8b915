"""benchmarks/guard_slowdowns.py shows the instruction guard failing on four
slowdowns, each a source edit at an anchor of the compiled modules' source.
Every anchor must occur exactly once in the current source, or the script
would stop (or, worse, edit the wrong place) the next time it runs: this
checks that without building anything."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import guard_slowdowns  # noqa: E402


@pytest.mark.parametrize("slowdown", guard_slowdowns.SLOWDOWNS, ids=lambda s: s.name)
def test_every_anchor_occurs_once(slowdown: guard_slowdowns.Slowdown) -> None:
    assert guard_slowdowns.apply(slowdown, ROOT, write=False)


def test_a_lost_anchor_is_named(tmp_path: Path) -> None:
    edit = guard_slowdowns.SLOWDOWNS[0].edits[0]
    (tmp_path / edit.path).parent.mkdir(parents=True)
    (tmp_path / edit.path).write_text("the code moved on\n")
    with pytest.raises(SystemExit, match="anchor found 0 times in src/ddzcore/_state.pyx"):
        guard_slowdowns.apply(guard_slowdowns.SLOWDOWNS[0], tmp_path, write=False)
