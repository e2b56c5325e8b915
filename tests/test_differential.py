"""The kernel against the independent reference generator (tests/reference.py).

Both are written from docs/rules.md §2 (and 8 for two decks) without
looking at each other; they must agree on every position: the same set of
moves (cards + reading), no duplicates from the kernel.  A fast subset runs
in CI; the full sweep (thousands of seeded positions per rule set, plus all
4000 positions of ../shared/data/positions.json) is marked slow.
"""

from __future__ import annotations

import pytest

from conftest import load_positions, ref_rules
from ddzcore import Move, Rules, legal_moves
from positions import Position, positions
from reference import ref_legal

RULE_SETS = {
    "standard": Rules(),
    "rlcard": Rules.preset("rlcard"),
    "openspiel": Rules.preset("openspiel"),
    "strict-kickers": Rules(kicker_repeat=False, jokers_both_kickers=False, wing_trio_adjacent=False),
    "bomb-kickers": Rules(kicker_bomb=True, four_two=False),
    "two-decks": Rules(decks=2),
}


def _as_tuple(m: Move) -> tuple[str, str, str, int]:
    return (str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)


def check(pos: Position, rules: Rules) -> None:
    ours = [_as_tuple(m) for m in legal_moves(pos.hand, pos.last, rules)]
    last = _as_tuple(Move(pos.last, rules)) if pos.last else None
    theirs = ref_legal(pos.hand, last, ref_rules(rules))
    assert len(ours) == len(set(ours)), f"{pos}: duplicate moves"
    missing, extra = theirs - set(ours), set(ours) - theirs
    assert not missing and not extra, f"{pos}\n missing {sorted(missing)[:10]}\n extra {sorted(extra)[:10]}"


#: Laizi (docs/rules.md §7): the reference tries every assignment of the wild cards,
#: so its hands are kept smaller in CI.
LAIZI_SETS = {"laizi-7": Rules(wild="7"), "laizi-3": Rules(wild="3"), "laizi-A-openspiel":
              Rules.preset("openspiel", wild="A")}

FAST = [(name, p) for name, rules in RULE_SETS.items()
        for p in positions(seed=sum(map(ord, name)), rules=rules, leads=15, follows_per_combo=5)]
FAST += [(name, p) for name, rules in LAIZI_SETS.items()
         for p in positions(seed=sum(map(ord, name)), rules=rules, leads=3, follows_per_combo=1, sizes=(10, 13))]
ALL_SETS = {**RULE_SETS, **LAIZI_SETS}


@pytest.mark.parametrize("name, pos", FAST, ids=[f"{n}-{i}-{p.kind}" for i, (n, p) in enumerate(FAST)])
def test_kernel_matches_reference(name: str, pos: Position) -> None:
    check(pos, ALL_SETS[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_kernel_matches_reference_sweep(name: str) -> None:
    rules = RULE_SETS[name]
    n = 3000 if name == "standard" else 1000
    per_kind = n // 14 + 1  # at least 14 kinds: two lead sizes, >= 12 follow types
    sweep = positions(seed=20261129 + len(name), rules=rules, leads=per_kind, follows_per_combo=per_kind)
    assert len(sweep) >= n
    for pos in sweep:
        check(pos, rules)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LAIZI_SETS))
def test_laizi_kernel_matches_reference_sweep(name: str) -> None:
    """At least 1000 laizi positions in all: 0-4 wild cards, leads and follows of every type."""
    rules = LAIZI_SETS[name]
    sweep = positions(seed=20261130 + len(name), rules=rules, leads=30, follows_per_combo=20)
    assert len(sweep) >= 1000 // len(LAIZI_SETS)
    for pos in sweep:
        check(pos, rules)


@pytest.mark.slow
def test_kernel_matches_reference_on_shared_positions() -> None:
    """All 4000 corpus positions under the standard rules (last moves with one reading)."""
    checked = 0
    for p in load_positions():
        last = p["last_move"] or None
        if last:
            from ddzcore import classify
            readings = classify(last)
            # The corpus gives cards only; every reading is its own position.
            for r in readings:
                check(Position(p["hand"], str(r), p["kind"]), Rules())
                checked += 1
        else:
            check(Position(p["hand"], None, p["kind"]), Rules())
            checked += 1
    assert checked >= 4000
