"""Shared fixtures: where ../shared lives (cases, positions)."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest


def shared_dir() -> Path:
    env = os.environ.get("DDZ_SHARED")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared"


def load_cases() -> list[dict]:
    return json.loads((shared_dir() / "cases" / "cases.json").read_text(encoding="utf-8"))["cases"]


def load_positions() -> list[dict]:
    return json.loads((shared_dir() / "data" / "positions.json").read_text(encoding="utf-8"))["positions"]


@pytest.fixture(scope="session")
def positions() -> list[dict]:
    return load_positions()


def ref_rules(rules):  # type: ignore[no-untyped-def]
    """The reference generator's RefRules for a ddzcore Rules (move-generation fields only)."""
    from reference import RefRules

    names = {f.name for f in dataclasses.fields(RefRules)}
    return RefRules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name in names})
