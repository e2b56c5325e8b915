"""The project's rule book, docs/rules.md: it ships with the sources, has
the section numbers the code cites (§1 cards .. §8 five players, §9 the
house-rule switches), documents every ``Rules`` and ``Room`` keyword, and is
the only rule book the package, its messages and its tests cite.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from ddzcore import Room, Rules

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "docs" / "rules.md"

SECTIONS = ["Cards", "Combinations", "Play", "Dealing, calling and robbing", "Show cards",
            "Multiplier and settlement", "Laizi", "Five players", "House-rule switches"]

#: Citations of documents outside the repository: the old specification
#: (its file name, spelled out here only), the seed documents and their folder.
FOREIGN = re.compile("RULES" r"\.md|(?i:\bseeds?\s*0\d\d\b|\bseeds/)")
SOURCE_SUFFIXES = {".py", ".pyx", ".pxd", ".pyi", ".md", ".txt", ".json", ".toml", ".cfg"}


def _book() -> str:
    if not BOOK.is_file():
        pytest.fail("docs/rules.md must ship beside the tests (MANIFEST.in)")
    return BOOK.read_text(encoding="utf-8")


def test_rule_book_has_the_cited_sections_in_order() -> None:
    headings = re.findall(r"^## (.+)$", _book(), re.M)
    numbered = [h for h in headings if h.startswith("§")]
    assert [h.split(" ", 1)[0] for h in numbered] == [f"§{i}" for i in range(1, 10)]
    for heading, title in zip(numbered, SECTIONS):
        assert heading.split(" ", 1)[1].startswith(title), heading
    assert "Revisions" in headings


@pytest.mark.parametrize("cls", [Rules, Room])
def test_rule_book_documents_every_switch(cls: type) -> None:
    book = _book()
    missing = [f.name for f in dataclasses.fields(cls) if f"`{f.name}`" not in book]
    assert not missing, f"docs/rules.md §9 does not document {cls.__name__} keywords {missing}"
    for name in Rules.PRESETS:
        assert f'"{name}"' in book


def test_rule_book_covers_the_combinations_and_the_worked_examples() -> None:
    book = _book()
    for term in ("单牌", "对牌", "三张", "三带一", "三带一对", "单顺", "双顺", "飞机", "四带二", "四带两对",
                 "炸弹", "火箭", "春天", "反春", "叫地主", "抢地主", "叫分", "明牌", "加倍", "逃跑", "癞子",
                 "五人斗地主", "等级", "*Worked example.*"):
        assert term in book, term


def _sources() -> list[Path]:
    out = []
    for top in ("python", "src", "tests"):
        for path in sorted((ROOT / top).rglob("*")):
            if (path.suffix in SOURCE_SUFFIXES and path.is_file() and "egg-info" not in str(path)
                    and path.resolve() != Path(__file__).resolve()):
                out.append(path)
    return out


def test_nothing_cites_documents_outside_the_repository() -> None:
    """The package (python/, src/: docstrings, help texts, error messages) and the tests cite
    docs/rules.md, never the old specification or a seed file (generated C is rebuilt from
    the .pyx and not checked)."""
    hits = []
    for path in _sources():
        for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if FOREIGN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()[:100]}")
    assert not hits, "cite docs/rules.md §N instead (.ci/cite_rule_book.py rewrites most):\n" + "\n".join(hits)


def test_the_worked_bean_example_of_section_6() -> None:
    """docs/rules.md §6: N = 100, A = 10, one rob, a show after the bottom, one bomb (x8); the
    landlord (seat 0) and seat 1 doubled; the landlord wins."""
    from ddzcore import Multiplier, settle_game

    m = Multiplier(robs=1, bombs=1, show=2)
    s = settle_game(0, True, 1, m, (2, 2, 1), Room(coefficient=100, rake=10))
    assert m.total == 8 and s.points == (48, -32, -16) and s.transfers == (4800, -3200, -1600)
    assert s.rake == (10, 10, 10) and s.net == (4790, -3210, -1610)
    s = settle_game(0, True, 1, m, (2, 2, 1), Room(coefficient=100, rake=10), beans=[10000, 50000, 1000])
    assert s.transfers == (4200, -3200, -1000) and s.rake == (10, 10, 0) and s.net[0] == 4190
