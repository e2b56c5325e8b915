"""Perft over open-hand positions (docs/rules.md §3; DESIGN.md "Perft").

``tests/data/perft.txt`` holds positions and counts computed by the
independent reference generator (``tests/reference.py``'s ``ref_legal``)
with the small trick logic below, written again from docs/rules.md §3.  The
tests recount them with ``Game`` (Python trick logic over the kernel's
move lists) and the native ``PlayState`` of
``ddzcore.search``, and print the per-move split on a mismatch.

Regenerate the file (a second or two) with ``DDZ_REGEN_PERFT=1 pytest tests/test_perft.py``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest

from ddzcore import Game, Move, PlayState
from ddzcore.game.perft import (
    PerftPosition, check_positions, format_perft, game_divide, game_perft, load_perft, parse_perft,
)

import reference as ref

DATA = Path(__file__).parent / "data" / "perft.txt"

# (id, hands, landlord, to_move, last, last_player, max depth)
POSITIONS = [
    ("singles", ("3456", "789T", "JQKA"), 0, 0, None, None, 7),
    ("pairs", ("33445566", "778899TT", "JJQQKKAA"), 0, 0, None, None, 6),
    ("bombs-and-rocket", ("3333BR", "4444K", "55552"), 0, 0, None, None, 7),
    ("follow-a-pair", ("3344", "5566", "77"), 1, 2, "99|pair|9|1", 1, 7),
    ("planes", ("333444578", "666777JQ", "88899TT2"), 0, 0, None, None, 5),
    ("four-with-two", ("555536", "7777TJ", "888QK"), 2, 2, None, None, 6),
    ("one-card-each", ("3", "4", "5"), 1, 1, None, None, 6),
    ("straights", ("3456789", "456789T", "56789TJ"), 0, 0, None, None, 5),
    ("after-the-rocket", ("3456", "2222", "789"), 0, 1, "BR|rocket|R|1", 0, 7),
    ("trios-and-kickers", ("333K", "444QQ", "555JJ2"), 0, 0, None, None, 6),
    ("mixed", ("3579JKA2B", "4468TQQA", "357TJK22R"), 1, 1, None, None, 5),
    ("follow-a-plane", ("888999TJ", "QQQKKK34", "6677"), 2, 0, "333444|plane|4|2", 2, 6),
    ("ten-cards-each", ("3344556677", "889TTJJQQK", "KAA22BR345"), 0, 0, None, None, 5),
    ("landlord-twenty", ("33344455566677789TJQ", "KKKK2", "AAAA22"), 0, 0, None, None, 3),
]


# -- the reference count --------------------------------------------------------------

R = ref.RefRules()


def _minus(hand: str, cards: str) -> str:
    h = list(ref.parse_cards(hand))
    for i, k in enumerate(ref.parse_cards(cards)):
        h[i] -= k
        assert h[i] >= 0
    return ref.cards_str(h)


@lru_cache(maxsize=None)
def ref_perft(hands: tuple[str, str, str], to_move: int, last: "tuple | None", owner: "int | None", depth: int) -> int:
    """docs/rules.md §3 again: a leader (the owner of the last play, or the first
    mover) plays anything but pass; followers pass or beat; the game ends
    when a hand is empty."""
    if depth == 0:
        return 1
    if any(not h for h in hands):
        return 0
    lead = last is None or owner == to_move
    moves = ref.ref_legal(hands[to_move], None if lead else last, R)
    nxt = (to_move + 1) % 3
    total = 0
    for m in moves:
        if m[1] == "pass":
            total += ref_perft(hands, nxt, last, owner, depth - 1)
        else:
            hs = list(hands)
            hs[to_move] = _minus(hs[to_move], m[0])
            total += ref_perft(tuple(hs), nxt, m, to_move, depth - 1)
    return total


def ref_divide(p: PerftPosition, depth: int) -> dict[str, int]:
    last = None if p.last is None else ref.parse_move(p.last)
    lead = last is None
    out = {}
    for m in ref.ref_legal(p.hands[p.to_move], last, R):
        if m[1] == "pass":
            args = (p.hands, (p.to_move + 1) % 3, last, p.last_player)
        else:
            hs = list(p.hands)
            hs[p.to_move] = _minus(hs[p.to_move], m[0])
            args = (tuple(hs), (p.to_move + 1) % 3, m, p.to_move)
        out[ref.move_text(m) if m[1] != "pass" else "|pass||0"] = ref_perft(*args, depth - 1)  # type: ignore[arg-type]
    assert lead or "|pass||0" in out
    return out


def reference_positions() -> list[PerftPosition]:
    out = []
    for pid, hands, landlord, to_move, last, last_player, depth in POSITIONS:
        last_t = None if last is None else ref.parse_move(last)
        counts = {d: ref_perft(hands, to_move, last_t, last_player, d) for d in range(1, depth + 1)}
        out.append(PerftPosition(pid, hands, landlord, to_move, last, last_player, counts))
    return out


# -- the tests ---------------------------------------------------------------------------

def positions() -> list[PerftPosition]:
    return load_perft(DATA)


def test_perft_file_lists_the_positions() -> None:
    ps = positions()
    assert [p.id for p in ps] == [row[0] for row in POSITIONS]
    assert parse_perft(format_perft(ps)) == ps


@pytest.mark.parametrize("pos", positions(), ids=lambda p: p.id)
def test_game_perft_matches_the_reference(pos: PerftPosition) -> None:
    problems = check_positions([pos])
    if problems:
        depth = int(problems[0].split("perft ")[1].split(" ")[0]) if "perft " in problems[0] else 1
        ours = game_divide(pos.game(), depth)
        theirs = ref_divide(pos, depth)
        split = "\n".join(f"  {m:28} game {ours.get(m, '-'):>8}  reference {theirs.get(m, '-'):>8}"
                          for m in sorted(set(ours) | set(theirs)) if ours.get(m) != theirs.get(m))
        pytest.fail(problems[0].split("\n")[0] + "\nper-move split (differences only):\n" + split)


@pytest.mark.parametrize("pos", positions(), ids=lambda p: p.id)
def test_native_play_state_perft_matches_too(pos: PerftPosition) -> None:
    state = PlayState(list(pos.hands), pos.landlord, turn=pos.to_move,
                             last=None if pos.last is None else Move(pos.last), owner=pos.last_player)
    for d, n in sorted(pos.counts.items()):
        assert state.perft(d) == n, f"{pos.id}: PlayState perft {d}"


def test_perft_basics() -> None:
    g = Game.endgame(["34", "5", "6"], landlord=0)
    # depth 1: 3 or 4; depth 2: seat 1 passes or plays its 5 (2 x 2); depth 3: after the
    # 5 seat 1 is out (nothing below), after a pass seat 2 passes or plays 6 (2 x 2).
    assert [game_perft(g, d) for d in range(4)] == [1, 2, 4, 4]
    # the landlord plays 3 and goes out: nothing below the end
    g = Game.endgame(["3", "4", "5"], landlord=0)
    g.apply("3")
    assert g.is_terminal() and game_perft(g, 0) == 1 and game_perft(g, 2) == 0
    with pytest.raises(ValueError):
        game_perft(g, -1)
    assert game_divide(Game.endgame(["34", "5", "6"], landlord=0), 1) == {"3|single|3|1": 1, "4|single|4|1": 1}


def test_mismatch_reports_the_split() -> None:
    p = PerftPosition("wrong", ("34", "5", "6"), counts={1: 2, 2: 99})
    problems = check_positions([p])
    assert len(problems) == 1 and "perft 2 = " in problems[0] and "3|single|3|1" in problems[0]


def test_perft_file_is_the_reference_count() -> None:
    fresh = reference_positions()
    if os.environ.get("DDZ_REGEN_PERFT"):
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text("# Perft counts (play sequences of exactly d moves) from tests/reference.py's ref_legal\n"
                        "# and the trick logic of tests/test_perft.py.  Regenerate: DDZ_REGEN_PERFT=1 pytest "
                        "tests/test_perft.py\n\n" + format_perft(fresh), encoding="utf-8")
    assert positions() == fresh
