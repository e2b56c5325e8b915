"""Every script in examples/ runs and says what it should (each one a
newcomer may copy from; the Cython one compiles against the shipped .pxd
files, like the README's example)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(script: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_every_example_is_tested() -> None:
    tested = {"move_generation.py", "game_loop.py", "record_replay.py", "native_state.py", "native_state.pyx",
              "rllib_pettingzoo.py", "vector_env_training.py"}
    assert {p.name for p in EXAMPLES.iterdir() if p.suffix in (".py", ".pyx")} == tested


def test_move_generation() -> None:
    out = run("move_generation.py")
    assert "3334445556789TJQKA2B: 404 legal leads" in out
    assert "to beat 777888999TTT|plane_single|9|3: 11 moves" in out and "20 moves of 3777" in out


def test_vector_env_training() -> None:
    lines = run("vector_env_training.py").strip().splitlines()
    assert lines[0].startswith("games ") and int(lines[0].split()[1].rstrip(",")) > 1000
    assert lines[1].startswith("weights (cards, pass, bomb): [")


def test_game_loop() -> None:
    out = run("game_loop.py")
    last = out.strip().splitlines()
    assert last[-2].startswith("landlord ") and last[-1].startswith("points [")
    points = eval(last[-1].split("points ")[1].split("]")[0] + "]")
    assert sum(points) == 0 and any(points)


def test_record_replay(tmp_path: Path) -> None:
    out = run("record_replay.py", str(tmp_path))
    assert (tmp_path / "game.json").is_file() and "<script>" in (tmp_path / "game.html").read_text(encoding="utf-8")
    assert "step " in out and f"record {tmp_path / 'game.json'}" in out


@pytest.mark.skipif((importlib.util.find_spec("Cython") is None or shutil.which("cc") is None)
                    and not os.environ.get("CI"), reason="needs Cython and a C compiler (outside CI only)")
def test_native_state(tmp_path: Path) -> None:
    out = run("native_state.py", str(tmp_path))
    assert out.count("(C and Python agree)") == 5


@pytest.mark.slow
def test_rllib_pettingzoo() -> None:
    """RLlib (ray[rllib], torch) trains on the PettingZoo environment: slow (a local Ray, about a minute)."""
    for module in ("ray.rllib", "torch", "pettingzoo"):
        pytest.importorskip(module, reason="the rllib extra is not installed: pip install 'ddzcore[rllib]'")
    out = run("rllib_pettingzoo.py", "1")
    assert out.strip().splitlines()[-1].startswith("iteration 1: ") and " episodes, 512" in out
