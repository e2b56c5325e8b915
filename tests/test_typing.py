"""Typing: ``mypy --strict`` over the Python package (pyproject.toml's
[tool.mypy]) and ``mypy.stubtest``: the .pyi stubs shipped beside the
compiled modules agree with the modules as built.

Both run wherever the suite runs: in .ci/run against the wheel built from
the sdist, and in every cibuildwheel test run (stubtest only: those copy
the tests without the sources).  mypy comes with the test extra."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWLIST = Path(__file__).resolve().parent / "stubtest_allowlist.txt"
COMPILED = ["ddzcore._errors", "ddzcore._kernel", "ddzcore._movelist", "ddzcore._state", "ddzcore._gamecore", "ddzcore._solver",
            "ddzcore._douzero", "ddzcore._eval", "ddzcore._botplay", "ddzcore._vecenv"]


def _require_mypy() -> None:
    if importlib.util.find_spec("mypy") is None:
        if os.environ.get("CI"):  # the test extra installs it: CI never skips
            pytest.fail("mypy is not installed (pip install '.[test]')")
        pytest.skip("mypy is not installed (pip install '.[test]')")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", errors="replace", timeout=600)


def test_mypy_strict_on_the_package(tmp_path: Path) -> None:
    if not (ROOT / "python" / "ddzcore").is_dir() or not (ROOT / "pyproject.toml").is_file():
        pytest.skip("no source tree beside the tests (a wheel's test run copies only tests/)")
    _require_mypy()
    proc = _run(["mypy", "--strict", "--cache-dir", str(tmp_path / "cache")], ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_stubtest_on_the_compiled_modules(tmp_path: Path) -> None:
    _require_mypy()
    # stubtest passes a private module (_kernel, ...) that has no stub at all.
    for name in COMPILED:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name
        stub = Path(spec.origin).with_name(name.rsplit(".", 1)[1] + ".pyi")
        assert stub.is_file(), f"{name} has no stub beside {spec.origin}"
    # From an empty directory: the stubs and modules checked are the ones
    # Python imports (the installed wheel), never a source tree's.
    proc = _run(["mypy.stubtest", *COMPILED, "--allowlist", str(ALLOWLIST)], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
