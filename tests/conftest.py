"""Shared test data (tests/data/) and helpers.

The suite reads nothing outside the repository: the move cases and the
position corpus live in ``tests/data/``, in the project's own formats.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def load_cases() -> list[dict]:
    """The move cases of ``tests/data/cases.json`` (format in the file's ``notes``)."""
    return json.loads((DATA / "cases.json").read_text(encoding="utf-8"))["cases"]


def load_positions() -> list[tuple[str, str, "str | None"]]:
    """The 4000 positions of ``tests/data/positions.txt``: ``(kind, hand, last cards or None)``."""
    out = []
    for line in (DATA / "positions.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, hand, last = line.split()
            out.append((kind, hand, None if last == "-" else last))
    return out


def ref_rules(rules):  # type: ignore[no-untyped-def]
    """The reference generator's RefRules for a ddzcore Rules (move-generation fields only)."""
    from reference import RefRules

    names = {f.name for f in dataclasses.fields(RefRules)}
    return RefRules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name in names})
