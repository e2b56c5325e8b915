"""Cython code elsewhere can cimport the native state (docs/rules.md §3): the
README's example, compiled against the shipped .pxd files, counts the same
perft as the kernel."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ddzcore

ROOT = Path(__file__).resolve().parents[1]


def pxd_dir() -> Path:
    """Where `ddzcore/_state.pxd` is found: the installed package (pip install
    copies the .pxd files there) or, for an editable install, src/."""
    pkg = Path(ddzcore.__file__).resolve().parent
    return pkg.parent if (pkg / "_state.pxd").exists() else ROOT / "src"


# The test extra installs Cython; CI has a C compiler (it builds the package), so it never skips there.
@pytest.mark.skipif((importlib.util.find_spec("Cython") is None or shutil.which("cc") is None)
                    and not os.environ.get("CI"), reason="needs Cython and a C compiler (outside CI only)")
def test_readme_cython_example(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")  # Chinese text: not the locale's (Windows)
    code = re.search(r"```cython\n(.*?)```", readme, re.S).group(1)
    (tmp_path / "userperft.pyx").write_text("# cython: language_level=3\n" + code)
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup, Extension\nfrom Cython.Build import cythonize\n"
        f"setup(ext_modules=cythonize([Extension('userperft', ['userperft.pyx'])], include_path=[{str(pxd_dir())!r}]))\n")
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    sys.path.insert(0, str(tmp_path))
    try:
        import userperft
    finally:
        sys.path.remove(str(tmp_path))
    s = ddzcore.PlayState.deal(3)
    assert [userperft.perft_py(s, d) for d in range(7)] == [s.perft(d) for d in range(7)]
