"""The native state with five seats and two decks (docs/rules.md §8) and the
laizi ``simulate`` (docs/rules.md §7), against the Python games.

- ``PlayState`` with five seats against ``FiveGame`` over seeded random
  games: the same legal move set at every decision and the same end
  (winner, winning side, spring, doubling bombs).
- ``simulate(players=5)`` and laizi ``simulate`` replayed move by move on
  ``FiveGame`` / ``Game`` from the same deals and decisions.
- Perft of small five-player positions (tests/data/perft_five.json) against
  the slow reference generator (tests/reference.py).
"""

from __future__ import annotations

import json
import os
import pickle
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from conftest import ref_rules
from ddzcore import FiveGame, Game, Rules
from ddzcore.game.five import FiveAction, FivePhase
from ddzcore.game import Action, Phase
from ddzcore.moves import Move
from ddzcore.search import PlayState, simulate
from test_state_perft import ref_perft

TWO = Rules(decks=2)
PERFT_FIVE = Path(__file__).parent / "data" / "perft_five.json"
RANKS = "3456789TJQKA2BR"


def codes(moves) -> set[tuple[int, int]]:
    """The (card word, info word) set of a move list (a MarkedMove counts as its plain move)."""
    return {(m._cards, m._info) for m in moves}


def to_play(g: FiveGame, rng: random.Random) -> None:
    """Random reveal and doubling decisions up to the play phase."""
    while g.phase in (FivePhase.REVEAL, FivePhase.DOUBLE):
        g.apply(rng.choice(g.legal_actions()))


def native_of(g: FiveGame) -> PlayState:
    return PlayState([g.hand(s) for s in range(5)], g.open_landlord, rules=g.rules, partner=g.hidden_landlord)


def play_both(seed: int) -> None:
    """One seeded game on FiveGame and PlayState side by side."""
    rng = random.Random(seed)
    g = FiveGame(seed=seed)
    to_play(g, rng)
    s = native_of(g)
    assert s.landlords == tuple(sorted(g.landlords))
    while not g.is_terminal():
        assert s.turn == g.current_player()
        legal = s.legal_moves()
        assert codes(legal) == codes(g.legal_actions()), (seed, s)
        m = legal[rng.randrange(len(legal))]
        g.apply(m)
        s.push(m)
        assert s.hand_words[s.owner] == g.hand(s.owner)._word
    assert s.is_over and s.winner == g.winner
    assert s.landlord_won == (g.winner in g.landlords)
    assert s.spring == g.multiplier().spring
    assert s.bombs == g.bombs_played
    assert not s.anti_spring


@pytest.mark.parametrize("chunk", range(3))
def test_five_state_matches_five_game(chunk):
    for seed in range(60 * chunk, 60 * chunk + 60):
        play_both(seed)


@pytest.mark.slow
def test_five_state_matches_five_game_thousands():
    for seed in range(1000, 4000):
        play_both(seed)


def test_five_push_pop_copy_pickle():
    s = PlayState.deal(7, rules=TWO)
    assert s.players == 5 and len(s.hands) == 5 and s.turn == s.landlord
    start = s.copy()
    rng = random.Random(7)
    seen = []
    while not s.is_over:
        seen.append(s.copy(stack=False))
        s.push_index(rng.randrange(s.count_moves()))
    assert pickle.loads(pickle.dumps(s)) == s
    for before in reversed(seen):
        s.pop()
        assert s == before
    assert s == start and s.ply == 0


def test_five_passes_and_trick():
    """Four passes end a trick: the owner leads again (docs/rules.md §8)."""
    s = PlayState(["39", "44", "55", "66", "77"], landlord=0, rules=TWO, partner=2)
    s.push("3")
    for k in range(1, 4):
        s.push("pass")
        assert s.passes == k and s.last is not None
    s.push("pass")
    assert s.turn == 0 and s.last is None and s.passes == 4


def test_five_bad_arguments():
    from ddzcore.errors import InvalidDealError, InvalidStateError
    with pytest.raises(InvalidStateError):
        PlayState(["3", "4", "5"], rules=TWO)
    with pytest.raises(InvalidStateError):
        PlayState(["3", "4", "5", "6", "7"], rules=TWO, partner=0)
    with pytest.raises(InvalidStateError):
        PlayState(["3", "4", "5"], partner=1)
    with pytest.raises(InvalidDealError):
        PlayState(["333", "333", "333", "6", "7"], rules=TWO)
    with pytest.raises(InvalidStateError):
        PlayState.deal(1, landlord=2, rules=TWO)


# ---------------------------------------------------------------- simulate(players=5)

def five_deal(hands: np.ndarray, bottom: int, landlord: int, partner: int, marked: int):
    """Concrete card ids of a simulated five-player deal (hands at the start
    of play, the landlord's with the bottom): the marked card in the
    landlord's hand, its twin in the partner's (a lone landlord: its own
    hand when the rank allows, else the bottom), the other copies anywhere."""
    rank = lambda c: (c % 54) // 4 if c % 54 < 52 else c % 54 - 39  # noqa: E731
    words = [int(w) for w in hands]
    words[landlord] -= int(bottom)
    parts = words + [int(bottom)]
    want = [Counter({r: (w >> (4 * r)) & 15 for r in range(15)}) for w in parts]
    twin = (marked + 54) % 108
    if partner >= 0:
        twin_at = partner
    else:
        twin_at = landlord if want[landlord][rank(marked)] >= 2 else 5
    out: list[list[int]] = [[] for _ in range(6)]
    for c, at in ((marked, landlord), (twin, twin_at)):
        out[at].append(c)
        want[at][rank(c)] -= 1
    for c in range(108):
        if c in (marked, twin):
            continue
        at = next(i for i in range(6) if want[i][rank(c)] > 0)
        out[at].append(c)
        want[at][rank(c)] -= 1
    return out


def replay_five(sp, i: int, rng: random.Random) -> None:
    g = FiveGame(deal=five_deal(sp.hands[i], sp.bottom[i], sp.landlord[i], sp.partner[i], sp.marked[i]),
                 marked=int(sp.marked[i]))
    assert g.open_landlord == sp.landlord[i]
    assert g.hidden_landlord == (None if sp.partner[i] < 0 else sp.partner[i])
    while g.phase != FivePhase.PLAY:
        g.apply(FiveAction.NO_REVEAL if g.phase == FivePhase.REVEAL else FiveAction.NO_DOUBLE)
    for cards, info, seat in sp.game_moves(i).tolist():
        assert g.current_player() == seat
        g.apply(Move._from_codes(cards, info, TWO))
    assert g.is_terminal() and g.winner == sp.winner[i]
    assert bool(sp.landlord_won[i]) == (g.winner in g.landlords)
    assert bool(sp.spring[i]) == g.multiplier().spring and not sp.anti_spring[i]
    assert sp.bombs[i] == g.bombs_played and sp.turns[i] == len(sp.game_moves(i))
    assert sp.multiplier[i] == int(g.multiplier())


@pytest.mark.parametrize("n", [150, pytest.param(3000, marks=pytest.mark.slow)])
def test_simulate_five_replays_on_five_game(n):
    sp = simulate(n, 11, players=5, record=True)
    assert sp.hands.shape == (n, 5) and sp.partner is not None and sp.wild is None
    rng = random.Random(0)
    for i in range(n):
        replay_five(sp, i, rng)


@pytest.mark.parametrize("rules", [TWO, Rules(laizi=True), Rules(wild="9", laizi=True)])
def test_simulate_deterministic_and_thread_independent(rules):
    players = 5 if rules.decks == 2 else 3
    a = simulate(400, 5, rules=rules, players=players, record=True)
    b = simulate(400, 5, rules=rules, players=players, record=True, threads=3)
    c = simulate(150, 5, rules=rules, players=players, record=True, first_game=250)
    for f in ("winner", "landlord", "bombs", "turns", "hands", "multiplier", "moves", "wild", "partner"):
        x, y = getattr(a, f), getattr(b, f)
        if x is None:
            assert y is None
            continue
        assert np.array_equal(x, y), f
    assert np.array_equal(a.moves[a.offsets[250]:], c.moves)
    assert not np.array_equal(a.hands, simulate(400, 6, rules=rules, players=players).hands)


def test_simulate_argument_errors():
    from ddzcore.errors import InvalidArgumentError, InvalidRulesError
    with pytest.raises(InvalidArgumentError):
        simulate(1, 1, players=4)
    with pytest.raises(InvalidRulesError):
        simulate(1, 1, players=5, rules=Rules())
    with pytest.raises(InvalidRulesError):
        simulate(1, 1, rules=TWO)


# ---------------------------------------------------------------- laizi simulate

def replay_laizi(sp, i: int, rules: Rules) -> None:
    """Game i of a laizi simulate on Game: the same deal, first caller,
    calling decisions and wild rank (the room's shows and doubling declined),
    then the recorded moves."""
    ll = int(sp.landlord[i])
    hands = [int(w) for w in sp.hands[i]]
    hands[ll] -= int(sp.bottom[i])
    text = ["".join(RANKS[r] * ((w >> (4 * r)) & 15) for r in range(15)) for w in hands + [int(sp.bottom[i])]]
    wild = RANKS[sp.wild[i]] if rules.wild is None else None
    g = Game(rules, deal=tuple(text), first=int(sp.first_caller[i]), wild=wild)
    calls = [Action(c) for c in sp.calls[i] if c != 255]
    while g.phase != Phase.PLAY:
        if g.phase in (Phase.CALL, Phase.ROB, Phase.BID):
            g.apply(calls.pop(0))
        else:
            g.apply(min(g.legal_actions()))  # NO_SHOW / NO_DOUBLE
    assert not calls and g.landlord == ll and g.wild == sp.wild[i]
    for cards, info, seat in sp.game_moves(i).tolist():
        assert g.current_player() == seat
        # the record keeps the low 16 bits of the info word: combo, main and
        # length, which fix the move's meaning; take the legal reading with them
        m = next(m for m in g.legal_actions() if m._cards == cards and m._info & 0xFFFF == info)
        g.apply(m)
    assert g.is_terminal() and g.winner == sp.winner[i]
    mult = g.multiplier()
    assert sp.bombs[i] == g.bombs_played
    assert sp.soft_bombs[i] == (mult.bombs if rules.laizi_bombs == "tiered" else sum(
        m._info & 31 == 15 for _, m in g.history if isinstance(m, Move)))
    assert bool(sp.spring[i]) == mult.spring and bool(sp.anti_spring[i]) == mult.anti_spring
    assert sp.multiplier[i] == 2 ** (mult.robs + mult.bombs + 2 * mult.big_bombs + (mult.spring or mult.anti_spring))


@pytest.mark.parametrize("rules", [Rules(laizi=True), Rules(laizi=True, laizi_bombs="plain"),
                                   Rules(laizi=True, bidding="points"), Rules(laizi=True, wild="8")])
def test_simulate_laizi_replays_on_game(rules):
    n = int(os.environ.get("DDZ_LAIZI_GAMES", 60))
    sp = simulate(n, 3, rules=rules, record=True)
    assert sp.wild is not None and sp.soft_bombs is not None
    played = np.flatnonzero(sp.landlord >= 0)
    assert len(played) > n // 2
    if rules.wild is None:
        assert len(set(sp.wild[played].tolist())) > 5   # drawn per game
    for i in played:
        replay_laizi(sp, int(i), rules)


@pytest.mark.slow
def test_simulate_laizi_replays_on_game_many():
    sp = simulate(2000, 9, rules=Rules(laizi=True), record=True)
    assert sp.soft_bombs.sum() > 0
    for i in np.flatnonzero(sp.landlord >= 0):
        replay_laizi(sp, int(i), Rules(laizi=True))


# ---------------------------------------------------------------- perft

def perft_positions() -> list[dict]:
    return json.loads(PERFT_FIVE.read_text(encoding="utf-8"))


def position(p: dict) -> PlayState:
    return PlayState(p["hands"], p["landlord"], p["turn"], rules=TWO, partner=p["partner"])


@pytest.mark.parametrize("p", perft_positions(), ids=lambda p: p["id"])
def test_five_perft_file(p):
    s = position(p)
    assert {int(d): s.perft(int(d)) for d in p["perft"]} == {int(d): n for d, n in p["perft"].items()}


@pytest.mark.parametrize("p", perft_positions(), ids=lambda p: p["id"])
def test_five_perft_file_against_reference(p):
    """The file's counts recounted by the slow reference (about a second a position)."""
    rr = ref_rules(TWO)
    for d, n in p["perft"].items():
        assert ref_perft(list(p["hands"]), p["turn"], None, None, int(d), rr) == n, (p["id"], d)
