"""The API reference builds from the docstrings with warnings as errors
(mkdocs --strict, mkdocs.yml): needs the docs extra, pip install ".[docs]".
Slow (about 15 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(tmp_path / "site")], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, "pip install '.[docs]' first?\n" + proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    game = (tmp_path / "site" / "api" / "game" / "index.html").read_text(encoding="utf-8")
    assert "legal_actions" in game and "Observation" in game  # generated from the docstrings
    assert "legal_moves" in (tmp_path / "site" / "api" / "generate" / "index.html").read_text(encoding="utf-8")
