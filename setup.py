"""Extension modules (and the .pxd files they export); everything else is in pyproject.toml.

DDZ_DEBUG=1 builds the kernel for hunting memory errors: Cython bounds and
initialisation checks on, -O0 -g, AddressSanitizer + UBSan (gcc or clang;
with MSVC only the checks and /Od /Zi).  The release build uses portable
flags only (-O3, no -march), as the wheels do.

The check directives live here, not in the .pyx headers: a `# cython:`
header comment overrides what is passed to cythonize, so a header
`boundscheck=False` would silently turn the debug checks off
(tests/test_packaging.py guards this).  Debug C goes to build/cython-debug/, and
switching modes forces a rebuild, so neither mode can reuse the other's
generated C or compiled modules.
"""
import glob
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("DDZ_DEBUG", "") not in ("", "0")
MODE = "debug" if DEBUG else "release"
MSVC = sys.platform == "win32"

if DEBUG and MSVC:
    compile_args, link_args = ["/Od", "/Zi"], ["/DEBUG"]
elif DEBUG:
    compile_args = ["-O0", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
    link_args = ["-fsanitize=address,undefined"]
else:
    compile_args = [] if MSVC else ["-O3"]
    link_args = []

# Semantics (wraparound=False, cdivision=True) are in each .pyx header; the
# checks are switched here.  With wraparound off, a negative index is out of
# bounds for the debug checks too.
directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "initializedcheck": DEBUG,
}

def extension(name: str) -> Extension:
    """The compiled module ddzcore.<name>, from src/ddzcore/<name>.pyx."""
    return Extension(
        f"ddzcore.{name}",
        [f"src/ddzcore/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )


extensions = [
    extension("_errors"),      # the exception classes (a leaf: imports no other ddzcore module)
    extension("_kernel"),      # move generation (RULES.md 2, 8)
    extension("_movelist"),    # MoveList and the single-position calls
    extension("_state"),       # native play state, perft, self-play (RULES.md 3-4)
    extension("_gamecore"),    # the games' play step in C (ddzcore.game.base, docs/rules.md §3)
    extension("_solver"),      # endgame solver and minimum plays (docs/rules.md §3, §6)
    extension("_douzero"),     # DouZero's move order and features (ddzcore.interop.douzero)
    extension("_eval"),        # sampling hidden cards and playouts (hand evaluation)
    extension("_botplay"),     # the native rule bot and whole bot games (docs/rules.md §3-6)
    extension("_vecenv"),      # native vector environment (ddzcore.envs.vector)
]

MODE_STAMP = os.path.join("build", "ddzcore-build-mode")


class build_ext_mode(build_ext):
    """Rebuild every module when DDZ_DEBUG differs from the last build here:
    build_ext judges staleness by file times alone, and would otherwise keep
    (or install) a module compiled in the other mode."""

    def run(self) -> None:
        try:
            with open(MODE_STAMP) as f:
                last = f.read().strip()
        except OSError:
            last = ""
        if last != MODE:
            self.force = True
        super().run()
        os.makedirs(os.path.dirname(MODE_STAMP), exist_ok=True)
        with open(MODE_STAMP, "w") as f:
            f.write(MODE + "\n")


class build_py_with_pxd(build_py):
    """Also install src/ddzcore/*.pxd into the ddzcore package, so that Cython
    code elsewhere can `cimport` the kernel (e.g. `from ddzcore._state cimport
    State, push, pop`); the Python sources live in python/ddzcore."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # editable: the .pxd files stay in src/ddzcore
            return
        target = os.path.join(self.build_lib, "ddzcore")
        self.mkpath(target)
        for pxd in sorted(glob.glob(os.path.join("src", "ddzcore", "*.pxd"))):
            self.copy_file(pxd, target)


setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src"],
        compiler_directives=directives,
        build_dir=os.path.join("build", "cython-debug") if DEBUG else None,
    ),
    cmdclass={"build_ext": build_ext_mode, "build_py": build_py_with_pxd},
)
