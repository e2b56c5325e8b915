"""The C reference enumeration of free leads (``lead_ref.c``), built and loaded through ctypes.

    import lead_ref
    moves, offsets = lead_ref.leads(hands)         # like legal_moves_batch(hands) under Rules()
    lead_ref.leads(hands, out=moves)               # reuse a buffer (timed loops)

The shared library is compiled on first use with the C compiler Python was
built with (``-O2``, portable: no ``-march``) into ``build/lead_ref/`` beside
the sources, keyed by the source's hash, so an edit rebuilds it.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np

from ddzcore import MOVE_DTYPE

SOURCE = Path(__file__).resolve().parent / "lead_ref.c"
ROOM = 8192  # REF_ROOM in lead_ref.c: records a position must find free before it is written

_lib: "ctypes.CDLL | None" = None


def compiler() -> "list[str] | None":
    """The C compiler command Python was built with (``cc`` otherwise), None when it is not installed
    (Windows: Python's build records none; build the reference with a Unix-like compiler)."""
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    return cc if shutil.which(cc[0]) else None


def library() -> ctypes.CDLL:
    """The compiled reference (built once per source version)."""
    global _lib
    if _lib is not None:
        return _lib
    code = SOURCE.read_bytes()
    target = SOURCE.parent.parent / "build" / "lead_ref" / f"lead_ref-{hashlib.sha1(code).hexdigest()[:12]}.so"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        cc = compiler()
        if cc is None:
            raise RuntimeError("no C compiler (sysconfig CC or cc) to build lead_ref.c")
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run(cc + ["-O2", "-std=c99", "-shared", "-fPIC", "-o", str(tmp), str(SOURCE)], check=True)
        os.replace(tmp, target)
    lib = ctypes.CDLL(str(target))
    lib.ref_leads_batch.restype = ctypes.c_int64
    lib.ref_leads_batch.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                                    ctypes.c_void_p]
    _lib = lib
    return lib


def leads(hands: np.ndarray, out: "np.ndarray | None" = None) -> "tuple[np.ndarray, np.ndarray]":
    """Every free lead of each hand (uint64 card words, at most 20 cards each):
    (moves, offsets) as ``legal_moves_batch`` returns them (MOVE_DTYPE
    records; int64 offsets, shape (n + 1,)), in the reference's own order.
    ``out``: a MOVE_DTYPE buffer to write into when it is large enough."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    offsets = np.empty(len(hands) + 1, np.int64)
    if out is None or len(out) < ROOM:
        out = np.empty(64 * len(hands) + ROOM, MOVE_DTYPE)
    call = library().ref_leads_batch
    while True:
        got = call(hands.ctypes.data, len(hands), out.ctypes.data, len(out), offsets.ctypes.data)
        if got >= 0:
            return out[:got], offsets
        bad = -1 - got
        if sum((int(hands[bad]) >> (4 * r)) & 15 for r in range(15)) > 20:
            raise ValueError(f"hands[{bad}] has more than 20 cards")
        out = np.empty(2 * len(out), MOVE_DTYPE)
