"""The ``ddz`` command line (issue 2: ``ddz moves``, ``ddz classify``)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ddzcore import legal_moves
from ddzcore.cli import main


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_moves_table() -> None:
    code, out = run("moves", "3334445556789TJQKA2BR")
    assert code == 0
    assert out.splitlines()[-1] == f"{len(legal_moves('3334445556789TJQKA2BR'))} moves"
    assert any(line.split()[:2] == ["BR", "rocket"] for line in out.splitlines())


def test_moves_json_follow() -> None:
    code, out = run("moves", "22223B", "--last", "JQQQ", "--json")
    assert code == 0
    assert sorted(m["move"] for m in json.loads(out)) == [
        "2222|bomb|2|1", "222B|trio_single|2|1", "3222|trio_single|2|1", "|pass||0"]


def test_ambiguous_last_lists_readings() -> None:
    code, out = run("moves", "3333JJJQQQQKKKAAA", "--last", "777888999TTT")
    assert code == 2 and "777888999TTT|plane_single|9|3" in out
    code, out = run("moves", "3333JJJQQQQKKKAAA", "--last", "777888999TTT|plane_single|9|3")
    assert code == 0 and "333JJJQQQKKK" in out


def test_presets_and_errors() -> None:
    code, out = run("classify", "333345", "--rules", "openspiel")
    assert code == 0 and "not a combination" in out and "0 readings" in out
    code, out = run("moves", "3447789", "--rules", "laizi")
    assert code == 2 and "--wild" in out
    code, out = run("moves", "3447789", "--rules", "laizi", "--wild", "4")
    assert code == 0 and "wild cards as" in out
    code, out = run("moves", "33x")
    assert code == 2 and "'x'" in out
    code, out = run("moves", "3", "--rules", "nope")
    assert code == 2
