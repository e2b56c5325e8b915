"""Drop-in compatibility with the two Dou Dizhu learning environments most
models are trained on: DouZero (``douzero``) and RLCard (``rlcard``).

``from ddzcore.interop import douzero, rlcard``.  Neither peer package is
needed at run time; the differential tests compare against them when they
are installed (``pip install "ddzcore[interop]"`` and
``pip install --no-deps douzero``).
"""

from __future__ import annotations

__all__ = ["douzero", "rlcard"]
