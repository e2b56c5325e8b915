"""Botzone FightTheLandlord2: the `botzone` preset's move set, request parsing
(replaying request logs written from Botzone's published format), the
keep-running loop, and Botzone programs in the arena."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from conftest import ref_rules
from ddzcore import Combo, Hand, InvalidRulesError, Move, Rules, action_space, classify, legal_moves
from ddzcore.tools.arena import arena
from ddzcore.tools.arena import make_bot
from ddzcore.tools.bots import RuleBot
from ddzcore.tools.botzone import KEEP_RUNNING, BotzoneError, BotzoneGame, answer, read_move, run_botzone
from ddzcore.game import Action, Phase
from positions import positions
from reference import ref_action_space, ref_legal

DATA = Path(__file__).parent / "data" / "botzone"
BZ = Rules.preset("botzone")


def log(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((DATA / name).read_text())


# -- the preset's move set ------------------------------------------------------------

def test_action_space_matches_reference() -> None:
    ours = {(str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)
            for m in action_space(BZ) if not m.is_pass}
    theirs = ref_action_space(ref_rules(BZ))
    assert ours == theirs
    shuttles = [m for m in ours if m[1] == "shuttle"]
    # 2..5 consecutive quads within 3..A, bare or with wings, at most 20 cards
    assert len(shuttles) > 0 and len(action_space(BZ)) - 1 == len(theirs)


@pytest.mark.parametrize("cards, expected", [
    ("33334444", {"33334444|shuttle|4|2"}),
    ("333344445678", {"333344445678|shuttle|4|2"}),
    ("3333444455667788", {"3333444455667788|shuttle|4|2"}),
    ("333344445555", {"333344445555|shuttle|5|3"}),
    ("3333455", set()),               # four with a single and a pair: nothing
    ("333344", set()),                # four with two singles of one rank: not under Botzone's rules
    ("333456", set()),                # a trio and three singles: nothing
    ("33334456", set()),
    ("3333BR", {"3333BR|four_two_single|3|1"}),
    ("33344455", set()),              # plane with two single wings of one rank
    ("33344456", {"33344456|plane_single|4|2"}),
    ("KKKKAAAA22223333", set()),      # 2 never in a chain; K-A + 2s + 3s is no shuttle with pairs either
])
def test_botzone_readings(cards: str, expected: set[str]) -> None:
    assert {str(m) for m in classify(cards, BZ)} == expected


def test_shuttle_is_not_a_bomb() -> None:
    shuttle = Move("33334444", BZ)
    assert shuttle.combo == Combo.SHUTTLE and not shuttle.is_bomb
    assert not shuttle.beats("3", BZ)
    assert Move("44445555", BZ).beats(shuttle, BZ)
    assert not Move("444455556789", BZ).beats(shuttle, BZ)  # another kind of shuttle
    assert Move("2222", BZ).beats(shuttle, BZ)
    follow = {str(m) for m in legal_moves("555566667777BR", "33334444", BZ)}  # a hand the 4s leave possible
    assert {"55556666|shuttle|6|2", "66667777|shuttle|7|2", "5555|bomb|5|1", "BR|rocket|R|1"} <= follow
    assert "555566667777|shuttle|7|3" not in follow
    with pytest.raises(InvalidRulesError, match="shuttle"):
        Rules(shuttle=True, wild="7")


FAST = positions(seed=1802, rules=BZ, leads=12, follows_per_combo=3)


@pytest.mark.parametrize("pos", FAST, ids=[f"{i}-{p.kind}" for i, p in enumerate(FAST)])
def test_kernel_matches_reference(pos) -> None:  # type: ignore[no-untyped-def]
    ours = [(str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)
            for m in legal_moves(pos.hand, pos.last, BZ)]
    last = None
    if pos.last:
        m = Move(pos.last, BZ)
        last = (str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)
    assert len(ours) == len(set(ours))
    assert set(ours) == ref_legal(pos.hand, last, ref_rules(BZ))


@pytest.mark.slow
def test_kernel_matches_reference_sweep() -> None:
    """1,000+ seeded positions under Botzone's rules: leads of 17 and 20 cards, follows of every type."""
    sweep = positions(seed=20261201, rules=BZ, leads=72, follows_per_combo=72)
    assert len(sweep) >= 1000
    for pos in sweep:
        test_kernel_matches_reference(pos)


def test_shuttle_follows_match_reference() -> None:
    for hand, last in [("55556666777788889999T", "33334444"), ("9999TTTTJJJJQQQB", "333344445678"),
                       ("9999TTTTJJQQKKAA2", "3333444455667788")]:  # hands the moves to beat leave possible
        ours = {(str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)
                for m in legal_moves(hand, last, BZ)}
        lm = Move(last, BZ)
        lt = (str(lm.cards), str(lm.combo), str(lm.main), lm.length)
        assert ours == ref_legal(hand, lt, ref_rules(BZ)) and len(ours) > 1


# -- request logs ------------------------------------------------------------------------

def test_bid_request() -> None:
    data = log("bid_pos1.json")
    g = BotzoneGame.parse(data["requests"], data["responses"])
    assert g.bidding and g.pos == 1 and len(g.own) == 17
    obs = g.observation()
    assert obs.phase == Phase.BID and obs.legal_actions == (Action.NO_BID, Action.BID_2, Action.BID_3)
    assert answer(RuleBot(), data["requests"], data["responses"]) in (0, 2, 3)


def test_landlord_first_play() -> None:
    data = log("landlord_first_play.json")
    g = BotzoneGame.parse(data["requests"], data["responses"])
    assert g.landlord == 0 and g.pos == 0 and g.last is None and g.counts() == (20, 17, 17)
    assert len(g.hand_ids) == 20
    resp = answer(make_bot("search", 1), data["requests"], data["responses"])
    assert resp and set(resp) <= set(g.hand_ids)
    assert read_move(resp, None) in legal_moves(Hand._trusted(sum(1 << (4 * (i // 4 if i < 52 else i - 39))
                                                               for i in g.hand_ids)), None, BZ)


def test_farmer_after_a_shuttle() -> None:
    data = log("farmer_after_shuttle.json")
    g = BotzoneGame.parse(data["requests"], data["responses"])
    assert [(s, str(m)) for s, m in g.events] == [
        (0, "33334444|shuttle|4|2"), (1, "|pass||0"), (2, "|pass||0"), (0, "5|single|5|1"), (1, "9|single|9|1")]
    assert g.last == Move("9") and g.last_seat == 1 and g.counts() == (11, 16, 17)
    obs = g.observation()
    assert obs.last_move == Move("9") and obs.card_counts == (11, 16, 17) and obs.bottom == Hand("A2B")
    resp = answer(RuleBot(), data["requests"], data["responses"])
    assert resp == [] or read_move(resp, Move("9")).beats("9", BZ)


@pytest.mark.parametrize("mutate, match", [
    (lambda d: d["requests"][2].update(history=[[8], [8]]), "not in|twice|beating|hold"),
    (lambda d: d["requests"][2].update(history=[[8]]), "two plays"),
    (lambda d: d["requests"][1].update(landlord=5), "landlord"),
    (lambda d: d["requests"][2].update(history=[[0, 52], [24]]), "no combination"),
    (lambda d: d["responses"].pop(), "responses"),
])
def test_bad_requests(mutate, match) -> None:  # type: ignore[no-untyped-def]
    data = log("farmer_after_shuttle.json")
    mutate(data)
    with pytest.raises(BotzoneError, match=match):
        BotzoneGame.parse(data["requests"], data["responses"])


def test_keep_running_loop() -> None:
    data = log("landlord_first_play.json")
    second = {"history": [[], []]}  # both farmers passed: the landlord leads again
    lines = json.dumps(data) + "\n" + json.dumps(second) + "\n"
    out = io.StringIO()
    turns = run_botzone(RuleBot(), io.StringIO(lines), out)
    got = out.getvalue().splitlines()
    assert turns == 2 and got[1] == KEEP_RUNNING and got[3] == KEEP_RUNNING
    first, again = json.loads(got[0])["response"], json.loads(got[2])["response"]
    assert first and again and not set(first) & set(again)
    bad = io.StringIO()
    run_botzone(RuleBot(), io.StringIO("{\"requests\": [{\"own\": [1, 1]}]}\n"), bad, keep_running=False)
    assert json.loads(bad.getvalue())["response"] is None


# -- Botzone programs in the arena ------------------------------------------------------------

DDZ = f"{sys.executable} -c 'from ddzcore.tools.cli import main; main()'"


def _program_vs_rule(flags: str) -> None:
    """ddzcore's own Botzone bot (rule policy) as an external program plays like RuleBot."""
    r = arena(["rule", f"botzone:{DDZ} botzone --bot rule {flags}"], deals=1, seed=4, rules=BZ, timeout=30)
    assert not r.forfeits, r.forfeits
    a, b = r.stats["rule"], r.stats[r.bots[1]]
    assert a["all"].wins == b["all"].wins  # the same policy on both sides of every duplicate deal


def test_botzone_program_in_the_arena() -> None:
    _program_vs_rule("")  # keep-running: one process a game


@pytest.mark.slow
def test_botzone_program_started_every_turn() -> None:
    _program_vs_rule("--once")  # a new process, and the whole history, every turn
