"""Packaging: the version the package reports, what a wheel installs, and
the build settings the debug switch relies on.

With DDZ_TEST_INSTALLED=1 (.ci/run's wheel-from-sdist run, cibuildwheel) the
suite must be testing an installed, non-editable wheel: ddzcore imported
from site-packages, never from a source tree, with everything a wheel must
carry (compiled modules, their .pyi stubs, py.typed, the .pxd files for
cimport) and nothing it must not (Cython sources, generated C)."""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import json
import os
import re
import sysconfig
from pathlib import Path

import pytest

import ddzcore

ROOT = Path(__file__).resolve().parents[1]
PKG = Path(ddzcore.__file__).resolve().parent
INSTALLED = os.environ.get("DDZ_TEST_INSTALLED", "") not in ("", "0")
COMPILED = ("_errors", "_kernel", "_movelist", "_state", "_gamecore", "_solver", "_douzero", "_eval", "_botplay", "_vecenv")
PXD = ("__init__.pxd", "bits.pxd", "_kernel.pxd", "_state.pxd", "_botplay.pxd", "_douzero.pxd")
EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _distribution() -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution("ddzcore")
    except importlib.metadata.PackageNotFoundError:
        if INSTALLED:
            raise
        pytest.skip("ddzcore is not installed (an in-place build on PYTHONPATH)")


def _editable(dist: importlib.metadata.Distribution) -> bool:
    text = dist.read_text("direct_url.json")
    return bool(text and json.loads(text).get("dir_info", {}).get("editable"))


def _wheel_files() -> set[str]:
    """The package's files as the wheel's RECORD lists them, relative to ddzcore/."""
    dist = _distribution()
    if not INSTALLED and (_editable(dist) or PKG.is_relative_to(ROOT)):
        pytest.skip("an editable or in-place build: no wheel to inspect (DDZ_TEST_INSTALLED=1 requires one)")
    return {"/".join(f.parts[1:]) for f in dist.files or () if f.parts and f.parts[0] == "ddzcore"}


def test_version_is_pep440_and_matches_the_metadata() -> None:
    assert re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", ddzcore.__version__)
    assert _distribution().version == ddzcore.__version__


def test_changelog_has_a_section_for_this_version() -> None:
    changelog = ROOT / "CHANGELOG.md"
    assert changelog.is_file(), "CHANGELOG.md must ship in the sdist (MANIFEST.in) and beside the tests"
    headings = re.findall(r"^## \[?([^\]\s]+)\]?", changelog.read_text(encoding="utf-8"), re.M)
    assert ddzcore.__version__ in headings, f"no '## [{ddzcore.__version__}]' section in CHANGELOG.md"


def test_imported_from_an_installed_wheel() -> None:
    if not INSTALLED:
        pytest.skip("set DDZ_TEST_INSTALLED=1 to require an installed wheel")
    dist = _distribution()
    assert not _editable(dist), "an editable install, not a wheel"
    assert not PKG.is_relative_to(ROOT), f"ddzcore imported from the source tree: {PKG}"
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    assert PKG.parent in site, f"ddzcore imported from {PKG}, not from site-packages {sorted(map(str, site))}"


def test_wheel_carries_modules_stubs_py_typed_and_pxd() -> None:
    files = _wheel_files()
    for name in COMPILED:
        assert any(re.fullmatch(rf"{name}\..*(so|pyd)", f) for f in files), f"compiled {name} missing: {sorted(files)}"
        assert f"{name}.pyi" in files
    assert "py.typed" in files
    for pxd in PXD:
        assert pxd in files
    assert "tools/viewer.html" in files  # the HTML replay's page (ddz view)
    annotated = [f for f in files if f.endswith((".pyx", ".c")) or (f.endswith(".html") and f != "tools/viewer.html")]
    assert not annotated, "Cython sources, generated C or annotation pages in the wheel"


def test_wheel_matches_the_sdist_sources() -> None:
    """Every Python module and stub of python/ddzcore is in the wheel, byte for byte."""
    src = ROOT / "python" / "ddzcore"
    if not src.is_dir():
        pytest.skip("no source tree beside the tests")
    files = _wheel_files()
    for path in sorted(src.glob("*.py*")):
        if path.suffix in (".py", ".pyi") or path.name == "py.typed":
            assert path.name in files, f"{path.name} is not in the wheel"
            assert (PKG / path.name).read_bytes() == path.read_bytes(), f"{path.name} differs from the source"
    for pxd in PXD:
        assert (PKG / pxd).read_bytes() == (ROOT / "src" / "ddzcore" / pxd).read_bytes()


def test_every_compiled_module_has_a_stub() -> None:
    built = {p.name.split(".")[0] for p in PKG.iterdir() if p.name.endswith(EXT_SUFFIXES)}
    assert built == set(COMPILED), f"compiled modules {sorted(built)}: add a .pyi for each and list it here"
    for name in built:
        assert (PKG / f"{name}.pyi").is_file(), f"ddzcore/{name}.pyi missing"


def test_pyx_headers_leave_the_checks_to_the_build() -> None:
    """DDZ_DEBUG=1 (setup.py) turns Cython's bounds and initialisation checks
    on; a `# cython:` header or a decorator naming them would override it."""
    pyx = sorted((ROOT / "src" / "ddzcore").glob("*.pyx"))
    if not pyx:
        pytest.skip("no Cython sources beside the tests")
    for path in pyx:
        text = path.read_text(encoding="utf-8")
        header = "\n".join(line for line in text.splitlines()[:5] if line.startswith("# cython:"))
        assert not re.search(r"boundscheck|initializedcheck", header), f"{path.name}: {header}"
        assert not re.search(r"cython\.(boundscheck|initializedcheck)\(", text), f"{path.name} sets a check locally"
