"""The arena's duplicate deals and the external-bot protocols (misbehaving bots included)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ddzcore import Game
from ddzcore.tools.arena import arena, deal_cards, seatings
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.tools.protocol import ExecBot, ProtocolError

BOT = Path(__file__).parent / "data" / "bots" / "lines_bot.py"


def lines_bot(mode: str) -> str:
    return f"exec:{sys.executable} {BOT} {mode}"


def test_seatings_permute_roles() -> None:
    assert seatings(2) == [(0, 1, 1), (1, 0, 0)]
    six = seatings(3)
    assert len(set(six)) == 6 and all(sorted(s) == [0, 1, 2] for s in six)
    with pytest.raises(ValueError):
        seatings(4)


def test_deals_are_seeded_whole_decks() -> None:
    d = deal_cards(3, 5)
    assert [len(p) for p in d] == [17, 17, 17, 3]
    assert sorted(c for p in d for c in p) == list(range(54))
    assert d == deal_cards(3, 5) and d != deal_cards(3, 6)


def test_duplicate_deals_cancel_the_cards() -> None:
    """Two copies of the same deterministic bot: every deal is played twice
    with the same cards and roles, so both copies score exactly alike."""
    r = arena([RuleBot(), RuleBot()], deals=12, seed=1)
    a, b = (r.stats[n] for n in r.bots)
    assert r.games == 24
    for role in ("landlord", "farmer", "all"):
        assert a[role].games == b[role].games
        assert a[role].wins == b[role].wins and a[role].adp == b[role].adp
    assert a["all"].adp == pytest.approx(0.0)  # each deal's two plays score +m and -m


def test_figures_and_json() -> None:
    r = arena(["rule", "random"], deals=15, seed=2)
    rule = r.stats["rule"]
    assert rule["landlord"].games == 15 and rule["farmer"].games == 15 and rule["all"].games == 30
    assert rule["all"].wp > r.stats["random"]["all"].wp
    lo, hi = rule["landlord"].wp_ci
    assert lo <= rule["landlord"].wp <= hi
    data = json.loads(r.dumps())
    assert data["bots"] == ["rule", "random"] and data["deals"] == 15
    assert set(data["stats"]["rule"]) == {"landlord", "farmer", "all"}
    assert json.loads(arena(["rule", "random"], deals=15, seed=2).dumps())["stats"] == data["stats"]  # seeded


def test_exec_bot_plays_a_game() -> None:
    bot = ExecBot(f"{sys.executable} {BOT} first", timeout=5)
    try:
        g = play_game(Game(seed=1), [bot, RandomBot(1), RandomBot(2)])
    finally:
        bot.close()
    assert g.is_terminal()


@pytest.mark.parametrize("mode, reason", [
    ("crash", "exited"), ("hang", "timeout"), ("badjson", "not JSON"), ("illegal", "not a legal action"),
    ("late:3", "timeout"),
])
def test_misbehaving_bots_forfeit_and_never_crash_the_arena(mode: str, reason: str) -> None:
    r = arena(["rule", lines_bot(mode)], deals=1, seed=3, timeout=2.0)
    assert r.games == 2
    bad = r.bots[1]
    assert r.forfeits and all(f["bot"] == bad and reason in f["reason"] for f in r.forfeits)
    st = r.stats[bad]["all"]
    assert st.forfeits == len(r.forfeits) and st.wins <= st.games - st.forfeits


def test_missing_program() -> None:
    r = arena(["rule", "exec:/nonexistent/bot"], deals=1, seed=0, timeout=2.0)
    assert r.forfeits and "cannot start" in r.forfeits[0]["reason"]


def test_protocol_error_is_a_value_error() -> None:
    assert issubclass(ProtocolError, ValueError)


def test_rlcard_rule_agent_plays_in_the_arena() -> None:
    pytest.importorskip("rlcard", reason="optional peer (pip install rlcard)")
    from ddzcore import Rules

    r = arena(["rule", "rlcard"], deals=2, seed=5, rules=Rules.preset("rlcard"))
    assert r.games == 4 and not r.forfeits
