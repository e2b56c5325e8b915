"""Extension modules (and the .pxd files they export); everything else is in pyproject.toml.

DDZ_DEBUG=1 builds the kernel with bounds checks, -O0 -g and
AddressSanitizer/UBSan (gcc or clang) for hunting memory errors.
"""
import glob
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("DDZ_DEBUG", "") not in ("", "0")
MSVC = sys.platform == "win32"

if DEBUG and not MSVC:
    compile_args = ["-O0", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
    link_args = ["-fsanitize=address,undefined"]
else:
    compile_args = [] if MSVC else ["-O3"]
    link_args = []

directives = {"language_level": 3}
if DEBUG:
    directives.update(boundscheck=True, wraparound=True, initializedcheck=True)

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
    extension("_kernel"),      # move generation (RULES.md 2, 8)
    extension("_movelist"),    # MoveList and the single-position calls
    extension("_state"),       # native play state, perft, self-play (RULES.md 3-4)
]


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
    ext_modules=cythonize(extensions, include_path=["src"], compiler_directives=directives),
    cmdclass={"build_py": build_py_with_pxd},
)
