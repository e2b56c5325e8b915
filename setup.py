"""Extension modules only; everything else is in pyproject.toml.

DDZ_DEBUG=1 builds the kernel with bounds checks, -O0 -g and
AddressSanitizer/UBSan (gcc or clang) for hunting memory errors.
"""
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

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
]

setup(ext_modules=cythonize(extensions, include_path=["src"], compiler_directives=directives))
