"""Every known-failure case of ../shared/cases/cases.json (docs/rules.md §2-3, and 7
for the laizi cases, whose ``wild`` names the wild rank)."""

from __future__ import annotations

import pytest

from conftest import load_cases
from ddzcore import Move, Rules, classify, legal_moves

CASES = load_cases()


def _rules(case: dict) -> Rules:
    return Rules.preset(case["rules"], wild=case["wild"])


def _text(m: dict) -> str:
    return f"{m['cards']}|{m['combo']}|{m['main']}|{m['length']}"


def _reading(m: Move) -> tuple[str, str, int]:
    return (str(m.combo), str(m.main), m.length)


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "classify"], ids=lambda c: c["id"])
def test_classify_case(case: dict) -> None:
    rules = _rules(case)
    got = sorted(_reading(m) for m in classify(case["cards"], rules))
    want = sorted((r["combo"], r["main"], r["length"]) for r in case["expect_readings"])
    assert got == want, case["note"]


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "compare"], ids=lambda c: c["id"])
def test_compare_case(case: dict) -> None:
    rules = _rules(case)
    move = Move(_text(case["move"]), rules)
    last = Move(_text(case["last"]), rules)
    assert move.beats(last, rules) is case["expect_beats"], case["note"]


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "legal"], ids=lambda c: c["id"])
def test_legal_case(case: dict) -> None:
    rules = _rules(case)
    last = _text(case["last"]) if case["last"] else None
    got = {str(m) for m in legal_moves(case["hand"], last, rules)}
    assert set(case["must"]) <= got, case["note"]
    assert not set(case["must_not"]) & got, case["note"]
    if case["exactly"] is not None:
        assert got == set(case["exactly"]), case["note"]


def test_every_case_is_run() -> None:
    assert len(CASES) >= 30 and {c["kind"] for c in CASES} == {"classify", "compare", "legal"}
    assert any(c["wild"] for c in CASES)
