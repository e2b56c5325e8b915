"""Rewrite citations of the old specification as citations of the rule book.

    python .ci/cite_rule_book.py [PATH ...]      (default: python src tests benchmarks)

"RULES.md 6", "RULES.md section 2", "RULES.md sections 3 to 6", "RULES.md 2, 7, 8"
become "docs/rules.md §6", "§2", "§3-6", "§2, §7, §8" (docs/rules.md keeps the
section numbers of the old specification, §1 cards .. §8 five players).  What
the patterns cannot rewrite safely (the seeds, "RULES.md's decision", paths
into ../shared) is listed for a person to mend; tests/test_rule_book.py fails
while any is left.  Generated C files are skipped (they are rebuilt).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SUFFIXES = {".py", ".pyx", ".pxd", ".pyi", ".md", ".txt", ".json"}
NUM = r"\d(?:\s*(?:-|–|to|and|,)\s*\d)*"
SECTIONS = re.compile(r"RULES\.md(?:'s)?,?(\s+)(?:sections?\s+)?(" + NUM + r")(?!\d)")
LEFT = re.compile(r"RULES\.md|[Ss]eeds?\s*0\d\d|\bshared/|\.\./shared")


def _sections(m: re.Match[str]) -> str:
    parts = re.split(r"\s*(-|–|to|and|,)\s*", m.group(2))
    out = "§" + parts[0]
    for sep, n in zip(parts[1::2], parts[2::2]):
        out += f"-{n}" if sep in ("-", "–", "to") else f", §{n}"
    space = m.group(1) if "\n" in m.group(1) else " "  # keep a line break where the citation wrapped
    return "docs/rules.md" + space + out


def rewrite(text: str) -> str:
    """``text`` with every numbered RULES.md citation made a rule-book citation."""
    return SECTIONS.sub(_sections, text)


def main(paths: list[str]) -> int:
    left = 0
    for root in map(Path, paths or ["python", "src", "tests", "benchmarks"]):
        for path in sorted(root.rglob("*") if root.is_dir() else [root]):
            if path.suffix not in SUFFIXES or "egg-info" in path.parts or path.name == "test_rule_book.py":
                continue
            text = path.read_text(encoding="utf-8")
            new = rewrite(text)
            if new != text:
                path.write_text(new, encoding="utf-8")
            for i, line in enumerate(new.splitlines(), 1):
                if LEFT.search(line):
                    left += 1
                    print(f"{path}:{i}: {line.strip()}")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
