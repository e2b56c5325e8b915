"""The package's layout (README "Layout"): the Python modules' imports, read
with ``ast``, form no cycle, and the game never imports the tools (bots, the
command line, the simulation runners).  Every import counts: top-level, inside
a function and under ``TYPE_CHECKING`` alike."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ddzcore

ROOT = Path(ddzcore.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(["ddzcore", *parts])] = path
    return out


MODULES = _modules()
#: The compiled modules (their stubs sit beside them): not part of the Python walk.
COMPILED = {"ddzcore." + p.stem for p in ROOT.glob("*.pyi")}


def _package(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str) -> set[str]:
    """The package's Python modules that ``name`` imports (compiled modules aside)."""
    out = set()
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package(name)
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = f"{pkg}.{base}" if base else pkg
            # ``from X import y``: y itself when it is a module, else X
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES.keys() | COMPILED else base
                       for a in node.names]
        out.update(t for t in targets if t in MODULES and t != name)
    return out


GRAPH = {name: _imports(name) for name in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_walk_sees_the_layout() -> None:
    # the walker itself: known arrows are found, so an empty result below means something
    assert "ddzcore.game.three" in GRAPH["ddzcore.game.records"]
    assert "ddzcore.game.five" in GRAPH["ddzcore.game.records"]
    assert "ddzcore.tools.bots" in GRAPH["ddzcore.tools.simulation"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    # the package's __init__ re-exports everything and imports nothing back
    # from a module that imports it, so it takes part like any module
    assert _cycles(GRAPH) == []


@pytest.mark.parametrize("layer", ["ddzcore.game"])
def test_the_game_never_imports_the_tools(layer: str) -> None:
    arrows = sorted((a, b) for a, bs in GRAPH.items() for b in bs
                    if (a == layer or a.startswith(layer + ".")) and b.startswith("ddzcore.tools"))
    assert arrows == []
