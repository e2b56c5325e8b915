"""The kernel against the independent reference generator (tests/reference.py).

Both are written from docs/rules.md §2 (and 8 for two decks) without
looking at each other; they must agree on every position: the same set of
moves (cards + reading), no duplicates from the kernel.  A fast subset runs
in CI; the full sweep (thousands of seeded positions per rule set, plus all
4000 positions of tests/data/positions.txt) is marked slow.
"""

from __future__ import annotations

import pytest

from conftest import load_positions, ref_rules
from ddzcore import Move, Rules, classify, legal_moves
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


def _check_corpus(corpus: list[tuple[str, str, "str | None"]]) -> int:
    """Check corpus positions under the standard rules; the corpus gives the last
    move as cards only, so every reading of them is its own position."""
    checked = 0
    for kind, hand, last in corpus:
        for r in classify(last) if last else [None]:
            check(Position(hand, None if r is None else str(r), kind), Rules())
            checked += 1
    return checked


def test_corpus_is_whole() -> None:
    corpus = load_positions()
    kinds = [kind for kind, _, _ in corpus]
    assert (kinds.count("lead20"), kinds.count("lead17"), kinds.count("follow")) == (1000, 1000, 2000)
    assert all(last for kind, _, last in corpus if kind == "follow")


def test_kernel_matches_reference_on_corpus_sample() -> None:
    """Every 40th position of tests/data/positions.txt (the whole corpus is a slow test)."""
    assert _check_corpus(load_positions()[::40]) >= 100


@pytest.mark.slow
def test_kernel_matches_reference_on_corpus() -> None:
    """All 4000 positions of tests/data/positions.txt under the standard rules."""
    assert _check_corpus(load_positions()) >= 4000
