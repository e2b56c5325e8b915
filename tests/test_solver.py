"""Endgame solver, banned combinations and minimum plays (docs/rules.md §2-§3, §6).

``solve`` is checked against tests/solver_reference.py (plain minimax over
the reference move generator) on seeded random positions: its value, and
that every move in ``winning_moves`` keeps the win and every other move
loses.  The default suite runs a few hundred positions, ``-m slow`` thousands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import ref_rules
from reference import RANKS, ref_legal
from solver_reference import Position, RefSolver

from ddzcore import Combo, Hand, Move, PlayState, Rules, legal_moves
from ddzcore.tools.cli import main
from ddzcore.errors import InvalidCardsError, InvalidDealError, InvalidMoveError
from ddzcore.solver import min_plays, min_plays_batch, solve


def ref_move(m: Move) -> tuple:
    return (str(m.cards), str(m.combo), "" if m.main is None else str(m.main), m.length)


# ---------------------------------------------------------------- examples

def test_issue_example_two_hands() -> None:
    r = solve(["3455KK", "345522"])
    assert r.wins is True and r.value == 1 and not r.unknown
    assert r.winning_moves and all(r.move_values[m] == 1 for m in r.winning_moves)
    assert r.line and r.line_seats[0] == 0 and r.nodes > 0 and r.seconds >= 0


def test_one_combination_wins_at_once() -> None:
    r = solve(["33", "4"])
    assert r.wins and [str(m.cards) for m in r.winning_moves] == ["33"]
    assert [str(m.cards) for m in r.line] == ["33"]


def test_line_replays_to_the_end() -> None:
    r = solve(["3455KK", "345522", "789TJ"], landlord=0)
    hands = [Hand("3455KK"), Hand("345522"), Hand("789TJ")]
    for seat, m in zip(r.line_seats, r.line):
        hands[seat] = hands[seat] - m.cards
    last = r.line_seats[-1]
    assert len(hands[last]) == 0
    assert (last == 0) == (r.wins if r.to_move == 0 else not r.wins)


def test_follow_and_last_player() -> None:
    # Seat 1 must beat a pair of 2s it cannot: it passes and seat 0 leads 3.
    r = solve(["22", "AA3"], to_move=1, last="22", last_player=0)
    assert r.wins is False and r.winning_moves == [] and list(r.move_values.values()) == [-1]
    assert [str(m) for m in r.line] == ["|pass||0", "22|pair|2|1"]


def test_farmers_cooperate() -> None:
    # Landlord A3: leading A, farmer 2's single 2 goes out; leading 3, farmer 1's 4 does.
    r = solve(["A3", "4", "2"], landlord=0, to_move=0)
    assert r.wins is False and r.winning_moves == []
    r = solve(["A3", "3", "4"], landlord=0, to_move=0)
    assert r.wins is True and [str(m.cards) for m in r.winning_moves] == ["A"]


def test_score_mode_counts_bombs_and_spring() -> None:
    # The landlord plays the bomb then the single: bomb x2, spring x2.
    r = solve(["33336", "4"], objective="score")
    assert r.value == 4 and r.wins
    # Farmer already played: no spring.
    r = solve(["33336", "4"], objective="score", farmer_plays=1)
    assert r.value == 2
    # Carried bombs scale the value.
    r = solve(["33336", "4"], objective="score", farmer_plays=1, bombs=2)
    assert r.value == 8


def test_score_mode_anti_spring() -> None:
    # The landlord played once already; the farmer goes out on its lead: anti-spring x2.
    r = solve(["44", "3"], to_move=1, objective="score", landlord_plays=1)
    assert r.value == 2 and r.wins
    assert solve(["44", "3"], to_move=1, objective="score", landlord_plays=2).value == 1


def test_playstate_in() -> None:
    st = PlayState(["3455KK", "345522", "789TJ"], landlord=0)
    a = solve(st)
    b = solve(["3455KK", "345522", "789TJ"], landlord=0)
    assert a.value == b.value and a.winning_moves == b.winning_moves


def test_playstate_errors() -> None:
    st = PlayState(["3", "4", "5"], landlord=0)
    with pytest.raises(ValueError, match="PlayState"):
        solve(st, to_move=1)
    st.push("3")
    st2 = st.copy()
    assert st2.is_over
    with pytest.raises(InvalidDealError, match="over"):
        solve(st2)


def test_timeout_gives_unknown() -> None:
    r = solve(["448999TJJQQAR", "336688TAA22B"], timeout=1e-4)
    assert r.unknown and r.wins is None and r.value is None and r.winning_moves == []


def test_tt_size_bound_still_exact() -> None:
    a = solve(["448999TJJQ", "336688TAA2"], tt_size=1)
    b = solve(["448999TJJQ", "336688TAA2"])
    assert a.value == b.value and a.winning_moves == b.winning_moves


@pytest.mark.parametrize("kwargs, error", [
    ({"hands": ["33"]}, ValueError),
    ({"hands": ["33", "44", "55", "66"]}, ValueError),
    ({"hands": ["33", ""]}, InvalidDealError),
    ({"hands": ["3333", "3"]}, InvalidDealError),
    ({"hands": ["333", "44"], "last": "33"}, InvalidDealError),
    ({"hands": ["33", "44"], "last": "45"}, InvalidMoveError),
    ({"hands": ["33", "44"], "last": "5", "last_player": 0}, ValueError),
    ({"hands": ["3X", "44"]}, InvalidCardsError),
    ({"hands": ["33", "44"], "objective": "points"}, ValueError),
    ({"hands": ["33", "44"], "to_move": 2}, ValueError),
    ({"hands": ["33", "44"], "timeout": 0}, ValueError),
    ({"hands": ["33", "44"], "tt_size": 0}, ValueError),
])
def test_bad_input(kwargs: dict, error: type) -> None:
    hands = kwargs.pop("hands")
    with pytest.raises(error):
        solve(hands, **kwargs)


# ---------------------------------------------------------------- banned combinations

def test_banned_normalised_and_validated() -> None:
    r = Rules(banned=["trio_pair", Combo.TRIO_SINGLE, "trio_pair"])
    assert r.banned == ("trio_single", "trio_pair")
    assert r.flags != Rules().flags and Rules(banned=()).flags == Rules().flags
    for bad in ("single", "rocket", "pair", "nonsense"):
        with pytest.raises(ValueError, match="banned"):
            Rules(banned=(bad,))
    with pytest.raises(ValueError, match="banned"):
        Rules(banned="trio_pair")


def test_each_ban_has_its_own_bit() -> None:
    from ddzcore.rules import BANNABLE

    bits = [Rules(banned=(b,)).flags ^ Rules().flags for b in BANNABLE]
    assert len(set(bits)) == len(bits) and all(b and b & (b - 1) == 0 for b in bits)
    assert all(b & 0x3F3F == 0 for b in bits)  # none of the other owners' bits


@pytest.mark.parametrize("banned", [("trio_pair",), ("trio_single", "trio_pair", "four_two_single",
                                                    "four_two_pair"), ("straight", "pair_chain", "plane",
                                                                       "plane_single", "plane_pair"),
                                    ("trio", "bomb")])
def test_move_generation_honours_bans(banned: tuple) -> None:
    rng = random.Random(7)
    rules = Rules(banned=banned)
    deck = [r for r in RANKS[:13] for _ in range(4)] + ["B", "R"]
    for _ in range(30):
        hand = "".join(rng.sample(deck, 12))
        got = {str(m.combo) for m in legal_moves(hand, None, rules)}
        assert not got & set(banned)
        full = {ref_move(m) for m in legal_moves(hand, None, Rules())}
        assert {ref_move(m) for m in legal_moves(hand, None, rules)} == {m for m in full if m[1] not in banned}
    with pytest.raises(InvalidMoveError):
        Move("33344|trio_pair|3|1", Rules(banned=("trio_pair",)))


def test_banned_changes_a_solution() -> None:
    # 333+44 in one lead wins; with 3+2 banned the hand needs two leads.
    assert solve(["33344", "55"]).wins
    r = solve(["33344", "55"], Rules(banned=("trio_pair",)))
    assert "33344" not in {str(m.cards) for m in r.move_values}


# ---------------------------------------------------------------- min_plays

@pytest.mark.parametrize("hand, count", [
    ("", 0), ("3", 1), ("34", 2), ("33", 1), ("34567", 1), ("333444", 1), ("33344456", 1),
    ("3333", 1), ("BR", 1), ("345678", 1), ("3456789TJQKA2BR", 3), ("33334", 2),
])
def test_min_plays_examples(hand: str, count: int) -> None:
    r = min_plays(hand)
    assert r.count == count == int(r)
    total = Hand("")
    for m in r.parts:
        total = total + m.cards
    assert total == Hand(hand) and len(r.parts) == count


def brute_min_plays(hand: str, rules: Rules) -> int:
    """Fewest combinations partitioning hand, by plain recursion over the reference generator."""
    rr = ref_rules(rules)
    from functools import lru_cache

    from reference import cards_str, parse_cards

    @lru_cache(maxsize=None)
    def f(h: str) -> int:
        if not h:
            return 0
        c = parse_cards(h, rr)
        best = 99
        for m in ref_legal(h, None, rr):
            if m[1] in rules.banned:
                continue
            k = parse_cards(m[0], rr)
            best = min(best, 1 + f(cards_str(tuple(a - b for a, b in zip(c, k)))))
        return best

    return f(hand)


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("openspiel"), Rules(wild="7"),
                                   Rules(banned=("trio_pair", "straight"))])
def test_min_plays_against_brute_force(rules: Rules) -> None:
    rng = random.Random(11)
    deck = [r for r in RANKS[:13] for _ in range(4)] + ["B", "R"]
    hands = ["".join(rng.sample(deck, rng.randint(1, 8))) for _ in range(25)]
    want = [brute_min_plays(str(Hand(h)), rules) for h in hands]
    assert [min_plays(h, rules).count for h in hands] == want
    assert min_plays_batch(hands, rules).tolist() == want
    words = np.array([Hand(h).word for h in hands], np.uint64)
    assert min_plays_batch(words, rules).tolist() == want


# ---------------------------------------------------------------- reference agreement

def random_position(rng: random.Random, rules: Rules, players: int, most: int) -> dict:
    rr = ref_rules(rules)
    per = 4 * rules.decks
    deck = [r for r in RANKS[:13] for _ in range(per)] + ["B", "R"] * rules.decks
    rng.shuffle(deck)
    hands = []
    for _ in range(players):
        k = rng.randint(1, most)
        hands.append(str(Hand("".join(deck[:k]), decks=rules.decks)))
        del deck[:k]
    landlord = rng.randrange(players)
    to_move = rng.randrange(players)
    last = last_player = None
    if rng.random() < 0.5:
        extra = "".join(deck[:rng.randint(1, 5)])
        leads = sorted(m for m in ref_legal(extra, None, rr) if m[1] not in rules.banned)
        if leads:
            last = rng.choice(leads)
            last_player = rng.choice([s for s in range(players) if s != to_move])
    kw = {}
    if rng.random() < 0.3:
        kw = {"bombs": rng.randint(0, 2), "landlord_plays": rng.randint(0, 2), "farmer_plays": rng.randint(0, 1)}
    return dict(hands=hands, landlord=landlord, to_move=to_move, last=last, last_player=last_player, **kw)


def check_against_reference(pos: dict, rules: Rules, score: bool) -> None:
    last = pos["last"]
    r = solve(pos["hands"], rules, landlord=pos["landlord"], to_move=pos["to_move"],
              last=None if last is None else "|".join(str(x) for x in last), last_player=pos["last_player"],
              objective="score" if score else "win", bombs=pos.get("bombs", 0),
              landlord_plays=pos.get("landlord_plays", 0), farmer_plays=pos.get("farmer_plays", 0))
    ref = RefSolver(ref_rules(rules), frozenset(rules.banned), score)
    n = len(pos["hands"])
    owner = -1 if last is None else pos["last_player"]
    p = Position(tuple(pos["hands"]), pos["to_move"], last, owner, pos["landlord"], pos.get("bombs", 0),
                 pos.get("landlord_plays", 0), pos.get("farmer_plays", 0))
    sign = 1 if pos["to_move"] == pos["landlord"] else -1
    want = {m: sign * v for m, v in ref.move_values(p).items()}
    got = {ref_move(m): v for m, v in r.move_values.items()}
    assert got == want, (pos, n)
    best = max(want.values())
    assert r.value == best and r.wins == (best > 0)
    assert {ref_move(m) for m in r.winning_moves} == {m for m, v in want.items() if v > 0}
    assert {ref_move(m) for m in r.best_moves} == {m for m, v in want.items() if v == best}
    assert r.line and ref_move(r.line[0]) in {m for m, v in want.items() if v == best}


CONFIGS = [
    ("standard", Rules(), 2, 6),
    ("standard", Rules(), 3, 4),
    ("openspiel", Rules.preset("openspiel"), 2, 6),
    ("rlcard", Rules.preset("rlcard"), 3, 4),
    ("banned", Rules(banned=("trio_single", "trio_pair", "four_two_single", "four_two_pair")), 2, 6),
    ("banned-chains", Rules(banned=("straight", "pair_chain", "bomb")), 3, 4),
    ("laizi", Rules(wild="7"), 2, 5),
    ("laizi", Rules(wild="9"), 3, 4),
    ("two-decks", Rules(decks=2), 2, 6),
    ("two-decks", Rules(decks=2), 3, 4),
]


@pytest.mark.parametrize("name, rules, players, most", CONFIGS, ids=[f"{c[0]}-{c[2]}p" for c in CONFIGS])
@pytest.mark.parametrize("score", [False, True], ids=["win", "score"])
def test_agrees_with_reference(name: str, rules: Rules, players: int, most: int, score: bool) -> None:
    rng = random.Random(f"{name}-{players}-{score}")
    for _ in range(15):
        check_against_reference(random_position(rng, rules, players, min(most, 5) if not score else 3), rules, score)


@pytest.mark.slow
@pytest.mark.parametrize("name, rules, players, most", CONFIGS, ids=[f"{c[0]}-{c[2]}p" for c in CONFIGS])
@pytest.mark.parametrize("score", [False, True], ids=["win", "score"])
def test_agrees_with_reference_many(name: str, rules: Rules, players: int, most: int, score: bool) -> None:
    rng = random.Random(f"slow-{name}-{players}-{score}")
    # Up to 6 cards a side with two players, 5 with three (plain minimax over
    # three 6-card hands takes up to a minute a position); score mode one less.
    most = (6 if players == 2 else 5) - score
    for _ in range(120):
        check_against_reference(random_position(rng, rules, players, most), rules, score)


# ---------------------------------------------------------------- command line

def test_cli_solve() -> None:
    out = CliRunner().invoke(main, ["solve", "3455KK", "345522"])
    assert out.exit_code == 0, out.output
    assert "seat 0 to move wins" in out.output and "nodes" in out.output
    out = CliRunner().invoke(main, ["solve", "33336", "4", "--score"])
    assert out.exit_code == 0 and "+4" in out.output
    out = CliRunner().invoke(main, ["solve", "33344", "55", "--ban", "trio_pair"])
    assert out.exit_code == 0


@pytest.mark.parametrize("args, needle", [
    (["solve", "3333", "3"], "one deck has 4"),
    (["solve", "33", ""], "empty hand"),
    (["solve", "33", "44", "--last", "5", "--last-player", "0"], "seat to move"),
    (["solve", "33", "44", "--ban", "single"], "cannot be banned"),
    (["solve", "33"], "two or three"),
])
def test_cli_solve_errors(args: list, needle: str) -> None:
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2 and needle in out.output
    assert "Traceback" not in out.output
