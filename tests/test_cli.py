"""The ``ddz`` command line (issue 2: ``ddz moves``, ``ddz classify``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddzcore import legal_moves
from ddzcore.tools.cli import main


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


def test_newcomer_trial_points(monkeypatch) -> None:
    """Empty input is an error; long inputs are quoted cut to 60 characters;
    a bad wild rank is a typed error; a pass reads as pass; a huge listing
    says how many first (issue 17's smaller points)."""
    from ddzcore import PASS, Rules
    from ddzcore.errors import DdzError
    import ddzcore.tools.cli as cli

    for args in (("moves", ""), ("moves", "  "), ("classify", "")):
        code, out = run(*args)
        assert code == 2 and "is empty" in out
    code, out = run("moves", "3" * 200)
    assert code == 2 and "'" + "3" * 60 + "…'" in out and "3" * 61 not in out
    code, out = run("moves", "33", "--last", "x" * 100)
    assert code == 2 and "x" * 61 not in out
    with pytest.raises(DdzError, match="Rules.wild must be a rank"):
        Rules(wild="Z")
    assert repr(PASS) == "Move('pass')"
    code, out = run("moves", "33", "--last", "4")
    assert code == 0 and out.splitlines()[1].split()[:2] == ["-", "pass"]
    code, out = run("moves", "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR", "--wild", "7", "--count")
    assert code == 0 and out == "1683997 moves\n"
    monkeypatch.setattr(cli, "_MANY", 100)
    code, out = run("moves", "3334445556789TJQKA2B")
    assert code == 0 and out.startswith("404 moves: listing them") and out.endswith("404 moves\n")
