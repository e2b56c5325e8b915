"""Kernel perft (ddzcore.perft) against a slow perft written on the independent
reference generator (tests/reference.py) over small open-hand positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import ref_rules
from ddzcore import PlayState, Rules, perft
from reference import cards_str, parse_cards, ref_legal

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
PERFT_FILE = Path(__file__).parent / "data" / "perft.txt"


def file_positions():
    if not PERFT_FILE.exists():
        return []
    from ddzcore.game.perft import load_perft
    return load_perft(PERFT_FILE)


@pytest.mark.parametrize("pos", file_positions(), ids=lambda p: p.id)
def test_perft_data_file(pos):
    """Every count of tests/data/perft.txt, and the per-move split at depth
    2 against the Python Game's perft (ddzcore.perft_suite.game_divide)."""
    from ddzcore.game.perft import game_divide
    s = PlayState(list(pos.hands), pos.landlord, turn=pos.to_move, last=pos.last, owner=pos.last_player)
    for depth, n in sorted(pos.counts.items()):
        got = s.perft(depth)
        if got != n:
            theirs = game_divide(pos.game(), depth)
            ours = {str(m): c for m, c in s.perft_divide(depth).items()}
            diff = {m: (ours.get(m), theirs.get(m)) for m in set(ours) | set(theirs) if ours.get(m) != theirs.get(m)}
            pytest.fail(f"{pos.id}: perft {depth} = {got}, file says {n}; split (ours, Game): {diff}")
    ours = {str(m): c for m, c in s.perft_divide(2).items()}
    assert ours == game_divide(pos.game(), 2)


def ref_perft(hands: list, turn: int, last, owner, depth: int, rr) -> int:
    """Play sequences of exactly `depth` moves (docs/rules.md §3, §8 for five
    seats): a pass hands the turn on, and when it comes back to the last
    player to play, that player leads freely; the game ends when a hand is
    empty."""
    if depth == 0:
        return 1
    if owner is not None and not hands[owner]:
        return 0
    total = 0
    nxt = (turn + 1) % len(hands)
    for m in ref_legal(hands[turn], last, rr):
        if m[1] == "pass":
            total += ref_perft(hands, nxt, None if nxt == owner else last, owner, depth - 1, rr)
        else:
            left = [a - b for a, b in zip(parse_cards(hands[turn], rr), parse_cards(m[0], rr))]
            h = list(hands)
            h[turn] = cards_str(left)
            total += ref_perft(h, nxt, m, turn, depth - 1, rr)
    return total


def small_positions(n: int, seed: int, sizes=(4, 8)):
    """Seeded open-hand positions with a few cards each: some free leads, some
    after a few random moves (follows, tricks just won)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(DECK)
        rng.shuffle(deck)
        k = [rng.randint(*sizes) for _ in range(3)]
        hands = [deck[:k[0]], deck[k[0]:k[0] + k[1]], deck[k[0] + k[1]:sum(k)]]
        rules = rng.choice([Rules(), Rules.preset("rlcard"), Rules.preset("openspiel"),
                            Rules(wild=rng.choice("3456789TJQKA2"))])
        s = PlayState(["".join(h) for h in hands], landlord=rng.randrange(3), turn=rng.randrange(3), rules=rules)
        for _ in range(rng.randrange(4)):
            if s.is_over:
                break
            s.push_index(rng.randrange(s.count_moves()))
        out.append(s.copy(stack=False))
    return out


def ref_args(s: PlayState):
    last = s.last
    last_t = None
    if last is not None:
        cards, combo, main, length = str(last).split("|")
        last_t = (cards, combo, main, int(length))
    owner = s.owner if s.owner >= 0 else None
    return [str(h) for h in s.hands], s.turn, last_t, owner


@pytest.mark.parametrize("seed", range(4))
def test_perft_matches_reference(seed):
    for s in small_positions(15, seed):
        rr = ref_rules(s.rules)
        hands, turn, last, owner = ref_args(s)
        for depth in range(5):
            assert s.perft(depth) == ref_perft(hands, turn, last, owner, depth, rr), (s, depth)


def test_divide_sums_and_leaves_state():
    s = PlayState.deal(42)
    before = s.copy()
    d = s.perft_divide(4)
    assert sum(d.values()) == s.perft(4) == perft(s, 4)
    assert list(d) == list(s.legal_moves())
    assert s == before


def test_perft_over_position():
    s = PlayState(["3", "4", "5"])
    s.push("3")
    assert s.is_over
    assert [s.perft(d) for d in range(3)] == [1, 0, 0]


@pytest.mark.slow
def test_perft_matches_reference_deep():
    for s in small_positions(40, 99, sizes=(5, 9)):
        rr = ref_rules(s.rules)
        hands, turn, last, owner = ref_args(s)
        for depth in range(7):
            assert s.perft(depth) == ref_perft(hands, turn, last, owner, depth, rr), (s, depth)
