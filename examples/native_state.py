"""Build native_state.pyx against ddzcore's shipped .pxd files and check its
games against the same games played through the Python API (needs Cython and a C compiler: pip install ".[test]").

    python examples/native_state.py [BUILD_FOLDER]
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import ddzcore

here = Path(__file__).resolve().parent
build = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
build.mkdir(parents=True, exist_ok=True)
pkg = Path(ddzcore.__file__).resolve().parent
include = pkg.parent if (pkg / "_state.pxd").exists() else here.parent / "src"  # installed, or editable
(build / "native_state.pyx").write_text((here / "native_state.pyx").read_text(encoding="utf-8"), encoding="utf-8")
(build / "setup.py").write_text(
    "from setuptools import setup, Extension\nfrom Cython.Build import cythonize\n"
    f"setup(ext_modules=cythonize([Extension('native_state', ['native_state.pyx'])], include_path=[{str(include)!r}]))\n")
subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=build, check=True)
sys.path.insert(0, str(build))
import native_state  # noqa: E402

for seed in range(5):
    state = ddzcore.PlayState.deal(seed)  # a seeded deal, landlord to lead
    plies, winner = native_state.last_move_game(state)
    python = state.copy()  # the same game through the Python API
    while not python.is_over:
        python.push(python.legal_moves()[-1])
    assert (plies, winner) == (python.ply, python.winner)
    print(f"deal {seed}: seat {winner} went out after {plies} plies (C and Python agree)")
