"""Batch random self-play in the kernel (ddzcore.simulate): determinism, the
recorded games replayed by an independent Python bookkeeping (docs/rules.md §3),
and the calling phase's outcome frequencies against an enumeration of
docs/rules.md §4 with uniformly random choices."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from ddzcore import Combo, Hand, Move, PlayState, Rules, legal_moves, simulate
from ddzcore.search import RECORD_DTYPE, SelfPlay

DECK = Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR")
FIELDS = ["landlord", "winner", "landlord_won", "first_caller", "calls", "redeals", "base", "robs", "bombs",
          "spring", "anti_spring", "multiplier", "turns", "hands", "bottom"]


def same_results(a: SelfPlay, b: SelfPlay) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS)


def test_shapes_and_dtypes():
    r = simulate(50, seed=1)
    assert len(r) == 50 and r.moves is None and r.offsets is None
    dtypes = {f: getattr(r, f).dtype for f in FIELDS}
    assert dtypes == {
        "landlord": np.int8, "winner": np.int8, "landlord_won": np.bool_, "first_caller": np.int8, "calls": np.uint8,
        "redeals": np.uint16, "base": np.uint8, "robs": np.uint8, "bombs": np.uint8,
        "spring": np.bool_, "anti_spring": np.bool_, "multiplier": np.int64, "turns": np.uint16,
        "hands": np.uint64, "bottom": np.uint64}
    assert r.hands.shape == (50, 3) and r.calls.shape == (50, 4)
    assert "50 games" in repr(r)
    with pytest.raises(ValueError):
        r.game_moves(0)
    assert len(simulate(0, seed=1)) == 0


def test_deterministic_and_splittable():
    a = simulate(300, seed=99)
    b = simulate(300, seed=99, record=True)
    assert same_results(a, b)
    assert not same_results(a, simulate(300, seed=100))
    parts = [simulate(100, seed=99, first_game=k) for k in (0, 100, 200)]
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), np.concatenate([getattr(p, f) for p in parts]))
    c = simulate(300, seed=99, record=True)
    assert np.array_equal(b.moves, c.moves) and np.array_equal(b.offsets, c.offsets)


@pytest.mark.parametrize("bad", [
    dict(n_games=-1, seed=1), dict(n_games=1.5, seed=1), dict(n_games=1, seed=-1),
    dict(n_games=1, seed=1 << 64), dict(n_games=1, seed="x"), dict(n_games=1, seed=1, policy="greedy"),
    dict(n_games=1, seed=1, rules=Rules(decks=2)), dict(n_games=1, seed=1, rules="nope"),
    dict(n_games=1, seed=1, rules=Rules(), players=5), dict(n_games=1, seed=1, players=4),
])
def test_errors(bad):
    with pytest.raises(ValueError):
        simulate(**bad)


def replay(hands, landlord, moves, rules):
    """Straight from docs/rules.md §3, independently of the native state: check every
    move is legal for the seat in turn and return (winner, bombs, spring,
    anti-spring, turns)."""
    hands = [Hand.from_word(int(w)) for w in hands]
    turn, last, last_seat, winner = landlord, None, None, None
    bombs, plays = 0, [0, 0, 0]
    for cards, info, seat in moves.tolist():
        assert winner is None, "moves after the game ended"
        assert seat == turn
        m = Move.from_codes(cards, info, rules)
        assert m in legal_moves(hands[turn], last, rules)
        if m.is_pass:
            if (turn + 1) % 3 == last_seat:     # everyone else passed: a new trick
                last = None
        else:
            hands[turn] = hands[turn] - m.cards
            last, last_seat = m, turn
            plays[turn] += 1
            bombs += m.combo in (Combo.BOMB, Combo.ROCKET)
            if not hands[turn]:
                winner = turn
        turn = (turn + 1) % 3
    assert winner is not None
    spring = winner == landlord and all(plays[p] == 0 for p in range(3) if p != landlord)
    anti = winner != landlord and plays[landlord] == 1
    return winner, bombs, spring, anti, len(moves)


@pytest.mark.parametrize("preset, games", [("standard", 1500), ("rlcard", 300), ("openspiel", 300)])
def test_recorded_games_replay(preset, games):
    rules = Rules.preset(preset)
    r = simulate(games, seed=2024, rules=rules, record=True)
    assert r.moves.dtype == RECORD_DTYPE and r.offsets[0] == 0 and r.offsets[-1] == len(r.moves)
    assert np.array_equal(np.diff(r.offsets), r.turns)
    for i in range(games):
        ll = int(r.landlord[i])
        hands = r.hands[i]
        # The deal: one deck, 17 cards each, the landlord's 20 with the bottom.
        assert sum((Hand.from_word(int(w)) for w in hands), Hand()) == DECK
        assert Hand.from_word(int(r.bottom[i])) <= Hand.from_word(int(hands[ll]))
        assert [len(Hand.from_word(int(w))) for w in hands] == [20 if p == ll else 17 for p in range(3)]
        got = replay(hands, ll, r.game_moves(i), rules)
        assert got == (r.winner[i], r.bombs[i], r.spring[i], r.anti_spring[i], r.turns[i]), i
        assert r.landlord_won[i] == (got[0] == ll)
        factor = 2 ** (int(r.robs[i]) + got[1] + (got[2] or got[3]))
        assert r.multiplier[i] == factor and r.base[i] == 1


def test_recorded_game_replays_on_play_state():
    r = simulate(200, seed=5, record=True)
    for i in range(200):
        s = PlayState([int(w) for w in r.hands[i]], landlord=int(r.landlord[i]))
        for cards, info, seat in r.game_moves(i).tolist():
            assert s.turn == seat
            s.push_codes(cards, info)
        assert s.is_over and s.winner == r.winner[i] and s.bombs == r.bombs[i]
        assert s.spring == r.spring[i] and s.anti_spring == r.anti_spring[i]
        assert s.multiplier * 2 ** int(r.robs[i]) == r.multiplier[i]


# ---------------------------------------------------------------- calling (docs/rules.md §4)

def call_rob_outcomes(rob_back: bool) -> dict:
    """P((landlord - first caller) mod 3, robs) for one deal with every choice
    a fair coin, enumerated; the remaining mass is 'everybody passed'."""
    out: Counter = Counter()
    for caller in range(3):                      # speakers 0..caller-1 passed, caller calls
        p_call = 0.5 ** (caller + 1)
        robbers = list(range(caller + 1, 3))     # only those who have not said 不叫
        for choice in itertools.product((0, 1), repeat=len(robbers)):
            p = p_call * 0.5 ** len(robbers)
            took = [j for j, c in zip(robbers, choice) if c]
            landlord = took[-1] if took else caller
            if took and rob_back:                # the caller may rob back, last
                out[(caller, len(took) + 1)] += p / 2
                out[(landlord, len(took))] += p / 2
            else:
                out[(landlord, len(took))] += p
    return out


def point_bid_outcomes() -> dict:
    """P((landlord - first) mod 3, base) with uniformly random legal bids."""
    out: Counter = Counter()

    def rec(speaker, best, holder, p):
        if speaker == 3 or best == 3:
            if holder is not None:
                out[(holder, best)] += p
            return
        options = [0] + list(range(best + 1, 4))
        for b in options:
            if b:
                rec(speaker + 1, b, speaker, p / len(options))
            else:
                rec(speaker + 1, best, holder, p / len(options))

    rec(0, 0, None, 1.0)
    return out


def check_frequencies(observed: Counter, probs: dict, n: int) -> None:
    total = sum(probs.values())
    assert set(observed) <= set(probs)
    for key, p in probs.items():
        p /= total                     # conditional on a landlord (the last deal)
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(observed[key] - n * p) <= 5 * sigma + 1, (key, observed[key], n * p)


@pytest.mark.parametrize("rob_back", [True, False])
def test_call_rob_frequencies(rob_back):
    n = 100_000
    r = simulate(n, seed=31, rules=Rules(rob_back=rob_back))
    assert (r.landlord >= 0).all() and (r.base == 1).all()
    rel = (r.landlord.astype(int) - r.first_caller) % 3
    check_frequencies(Counter(zip(rel.tolist(), r.robs.tolist())), call_rob_outcomes(rob_back), n)
    check_frequencies(Counter(r.first_caller.tolist()), {0: 1, 1: 1, 2: 1}, n)
    # Everybody passes a deal with probability 1/8: redeals are geometric.
    assert abs(r.redeals.mean() - 1 / 7) < 0.01


def test_point_bidding_frequencies():
    n = 100_000
    r = simulate(n, seed=32, rules=Rules(bidding="points"))
    assert (r.robs == 0).all()
    rel = (r.landlord.astype(int) - r.first_caller) % 3
    check_frequencies(Counter(zip(rel.tolist(), r.base.tolist())), point_bid_outcomes(), n)
    assert (r.multiplier == 2 ** (r.bombs.astype(np.int64) + (r.spring | r.anti_spring))).all()


def test_redeal_cap():
    r = simulate(4000, seed=3, rules=Rules(max_redeals=0))
    none = r.landlord < 0
    assert abs(none.mean() - 1 / 8) < 0.02
    assert (r.winner[none] == -1).all() and (r.turns[none] == 0).all() and (r.multiplier[none] == 0).all()
    assert not r.landlord_won[none].any() and (r.redeals == 0).all()
    r = simulate(20000, seed=3, rules=Rules(max_redeals=1), record=True)
    none = r.landlord < 0
    assert abs(none.mean() - 1 / 64) < 0.005
    assert (r.redeals[none] == 1).all() and r.redeals.max() == 1
    assert (np.diff(r.offsets)[none] == 0).all()


@pytest.mark.slow
def test_recorded_games_replay_many():
    for preset in ("standard", "rlcard", "openspiel"):
        rules = Rules.preset(preset)
        r = simulate(5000, seed=77, rules=rules, record=True)
        for i in range(len(r)):
            got = replay(r.hands[i], int(r.landlord[i]), r.game_moves(i), rules)
            assert got == (r.winner[i], r.bombs[i], r.spring[i], r.anti_spring[i], r.turns[i])
