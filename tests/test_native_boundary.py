"""The compiled modules and the Python layer: which way imports go, and the
tables both sides share.

- No compiled module (src/ddzcore/*.pyx) imports a Python module of the
  package at run time: only other compiled modules (``cimport`` is a
  compile-time link and always allowed).  The imports not yet moved to
  integer codes are listed in ``NOT_YET`` exactly, so a new one fails and a
  removed one must be struck from the list.
- The flow actions of ``ddzcore/flow.pxd`` (``_state.FLOW_ACTIONS``) are the
  values of ``Action`` and ``FiveAction``.
- The exception classes live in the compiled leaf ``ddzcore._errors`` and
  keep their public identity ``ddzcore.errors.X``.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import ddzcore.errors as errors
from ddzcore import _errors, _state
from ddzcore.game.five import FiveAction
from ddzcore.game import Action

SRC = Path(__file__).resolve().parents[1] / "src" / "ddzcore"
COMPILED = {p.stem for p in SRC.glob("*.pyx")}
IMPORT = re.compile(r"^\s*(?:from\s+(ddzcore(?:\.\w+)*|\.+\w*)\s+import\s+([\w, ()]+)|import\s+(ddzcore(?:\.\w+)*))",
                    re.MULTILINE)

# Python-level imports of the Python layer still in compiled modules (issue 11):
# PlayState takes and returns Hand / Move / Rules objects.
NOT_YET = {
    ("_state", "ddzcore.cards"),
    ("_state", "ddzcore.generate"),
    ("_state", "ddzcore.moves"),
    ("_state", "ddzcore.rules"),
}


def python_layer_imports(text: str) -> set[str]:
    """The ddzcore modules a .pyx imports at run time that are not compiled modules."""
    found = set()
    for m in IMPORT.finditer(text):
        target = m.group(1) or m.group(3)
        if target.startswith("."):
            target = "ddzcore." + target.lstrip(".") if target.lstrip(".") else "ddzcore"
        if target == "ddzcore":  # from ddzcore import a, b: each name is a module or a Python-layer name
            names = [n.strip(" ()") for n in m.group(2).split(",")]
            found |= {f"ddzcore.{n}" for n in names if n and n not in COMPILED}
        elif target.split(".")[1] not in COMPILED:
            found.add(target)
    return found


def test_scanner_sees_every_form():
    text = "from ddzcore.moves import Move\n    from ddzcore.cards import Hand\nimport ddzcore.rules\n" \
           "from . import game\nfrom ddzcore import _kernel, bots\nfrom ddzcore._kernel import MOVE_DTYPE\n" \
           "from ddzcore.bits cimport u64\n"
    assert python_layer_imports(text) == {"ddzcore.moves", "ddzcore.cards", "ddzcore.rules", "ddzcore.game",
                                          "ddzcore.bots"}


def test_compiled_modules_import_no_python_layer():
    found = {(p.stem, t) for p in sorted(SRC.glob("*.pyx")) for t in python_layer_imports(p.read_text("utf-8"))}
    assert found == NOT_YET, f"new: {sorted(found - NOT_YET)}; gone (strike from NOT_YET): {sorted(NOT_YET - found)}"


def test_errors_module_is_a_leaf():
    assert not re.search(r"^\s*(from|import)\s+(ddzcore|\.)", (SRC / "_errors.pyx").read_text("utf-8"), re.MULTILINE)


def test_flow_table_is_the_games_enums():
    assert {a.name: int(a) for a in Action} == {k: v for k, v in _state.FLOW_ACTIONS.items()
                                                if k not in ("NO_REVEAL", "REVEAL")}
    assert {a.name: int(a) for a in FiveAction} == {k: _state.FLOW_ACTIONS[k] for k in
                                                    ("NO_DOUBLE", "DOUBLE", "ESCAPE", "NO_REVEAL", "REVEAL")}


@pytest.mark.parametrize("name", errors.__all__)
def test_error_classes_keep_their_identity(name):
    cls = getattr(errors, name)
    assert cls is getattr(_errors, name) and cls.__module__ == "ddzcore.errors"
    assert issubclass(cls, ValueError)
    e = pickle.loads(pickle.dumps(cls("'" + "3" * 100 + "' is bad")))
    assert type(e) is cls and str(e) == "'" + "3" * 60 + "…' is bad"
