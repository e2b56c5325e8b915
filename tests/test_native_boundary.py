"""The compiled modules and the Python layer: which way imports go, and the
tables both sides share.

- No compiled module (src/ddzcore/*.pyx) imports a Python module of the
  package at run time: only other compiled modules (``cimport`` is a
  compile-time link and always allowed).  Moves cross as integer codes;
  the Python classes that turn them into objects subclass the compiled ones
  (``moves.MoveList``, ``search.PlayState``), nothing is registered into a
  compiled module.
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
    assert {"_state", "_movelist", "_botplay", "_vecenv", "_douzero", "_eval", "_solver", "_kernel"} <= COMPILED
    found = {(p.stem, t) for p in sorted(SRC.glob("*.pyx")) for t in python_layer_imports(p.read_text("utf-8"))}
    assert found == set()


def test_nothing_is_registered_into_compiled_modules():
    """The Python layer reaches the compiled modules only by subclassing:
    no hook function takes its types, and the compiled classes stand alone
    on codes (items are (cards, info) pairs)."""
    assert not [p.stem for p in SRC.glob("*.pyx") if re.search(r"^def _register", p.read_text("utf-8"), re.MULTILINE)]
    from ddzcore import _movelist
    from ddzcore.cards import Hand
    from ddzcore.moves import Move, MoveList
    from ddzcore.search import PlayState
    three = Move("3").codes
    base = _state.PlayState([Hand("3").word, Hand("4").word, Hand("5").word])
    assert base.legal_moves().codes.tolist() == [three] and list(base.legal_moves()) == [three]
    assert type(base.legal_moves()) is _movelist.MoveList and base.last is None and three in base.legal_moves()
    base.push_index(0)
    assert base.last == three and base.move_stack == [three] and base.pop() == three
    state = PlayState(["3", "4", "5"])
    assert type(state.legal_moves()) is MoveList and state.legal_moves()[0] == Move("3")
    assert issubclass(MoveList, _movelist.MoveList) and issubclass(PlayState, _state.PlayState)


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


def test_concurrent_use_is_a_runtime_error_too():
    """Two threads in one solver search: misuse by the caller, typed, and still caught as RuntimeError."""
    assert issubclass(errors.ConcurrentUseError, RuntimeError) and issubclass(errors.ConcurrentUseError, errors.DdzError)
