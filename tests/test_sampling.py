"""sample_deals: conservation, consistency with what the seat knows, uniformity, determinism."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np
import pytest

from ddzcore import FiveGame, Game, Hand, InvalidDealError, Move
from ddzcore.tools.bots import RuleBot
from ddzcore.game import Phase
from ddzcore.sampling import Knowledge, knowledge, sample_deals

ONE_DECK = Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR").word


def counts(word: int) -> list[int]:
    return [(int(word) >> (4 * r)) & 0xF for r in range(15)]


def played_word(obs) -> int:  # type: ignore[no-untyped-def]
    return sum(a.codes[0] for _, a in obs.history if isinstance(a, Move) and not a.is_pass)


def advance(game, plies: int) -> None:  # type: ignore[no-untyped-def]
    bot = RuleBot()
    for _ in range(plies):
        if game.is_terminal():
            break
        game.apply(bot.act(game.observation(game.current_player())))


@pytest.mark.parametrize("seed, plies", [(1, 0), (2, 4), (3, 10), (4, 25), (5, 40)])
def test_conservation_and_consistency(seed: int, plies: int) -> None:
    g = Game(seed=seed)
    advance(g, plies)
    for seat in range(3):
        obs = g.observation(seat)
        rows = sample_deals(obs, 300, seed)
        assert rows.shape == (300, 4) and rows.dtype == np.uint64
        played = played_word(obs)
        for row in rows:
            # every card of the deck exactly once: in a hand, undealt, or played
            assert sum(int(w) for w in row) + played == ONE_DECK
            assert int(row[seat]) == obs.hand.word
            assert [sum(counts(row[s])) for s in range(3)] == list(obs.card_counts)
            if obs.landlord is not None and obs.landlord != seat:
                # the bottom cards the landlord has not played are in its hand
                mine = sum(a.codes[0] for s, a in obs.history if s == obs.landlord and isinstance(a, Move))
                need = [max(0, b - p) for b, p in zip(counts(obs.bottom.word), counts(mine))]
                assert all(h >= k for h, k in zip(counts(row[obs.landlord]), need))


def test_shown_hands_are_kept() -> None:
    g = Game(seed=11)
    bot = RuleBot()
    while g.observation(0).phase != Phase.PLAY:
        p = g.current_player()
        obs = g.observation(p)
        g.apply(obs.legal_actions[-1] if obs.phase.name.startswith("SHOW") and p == 1 else bot.act(obs))
    obs = g.observation(0)
    assert 1 in obs.shown
    rows = sample_deals(obs, 50, 3)
    assert all(int(r[1]) == obs.shown[1].word for r in rows)


def test_deterministic_and_prefix_stable() -> None:
    g = Game(seed=5)
    advance(g, 8)
    obs = g.observation(2)
    a = sample_deals(obs, 100, 42)
    assert np.array_equal(a, sample_deals(obs, 100, 42))
    assert np.array_equal(a[:10], sample_deals(obs, 10, 42))
    assert not np.array_equal(a, sample_deals(obs, 100, 43))


def test_uniform_over_consistent_deals() -> None:
    """Six unseen cards 3 4 5 6 7 8 split 2 / 2 / 2 (two hands and the
    bottom-like column): each of the 90 splits of the six physical cards
    is equally likely, so each of the 90 rank splits (all ranks distinct)
    should come up about n / 90 times: a chi-square test at p = 0.001."""
    pool = Hand("345678").word
    k = Knowledge(seat=0, seats=3, known=(Hand("9TJ").word, 0, 0), counts=(3, 2, 2), hidden=2, pool=pool)
    n = 45_000
    rows = sample_deals(k, n, 7)
    seen = Counter((int(r[1]), int(r[2])) for r in rows)
    cards = "345678"
    expected_keys = {(Hand("".join(a)).word, Hand("".join(b)).word)
                     for a in itertools.combinations(cards, 2)
                     for b in itertools.combinations([c for c in cards if c not in a], 2)}
    assert set(seen) == expected_keys and len(expected_keys) == 90
    e = n / 90
    chi2 = sum((seen[key] - e) ** 2 / e for key in expected_keys)
    assert chi2 < 148.0  # chi-square, 89 degrees of freedom, p = 0.001


def test_uniform_over_physical_cards_not_rank_sets() -> None:
    """Unseen 3 3 3 3 4, two to seat 1 and three to seat 2: 6 of the 10 ways
    to give seat 1 two of the five cards are 33 (a sampler uniform over rank
    multisets would give 1/2)."""
    k = Knowledge(seat=0, seats=3, known=(Hand("5").word, 0, 0), counts=(1, 2, 3), hidden=0,
                  pool=Hand("33334").word)
    n = 20_000
    rows = sample_deals(k, n, 1)
    share = float(np.mean(rows[:, 1] == Hand("33").word))
    assert abs(share - 0.6) < 4 * math.sqrt(0.24 / n)


def test_five_players() -> None:
    g = FiveGame(seed=3)
    bot = RuleBot()
    for _ in range(20):
        g.apply(bot.act(g.observation(g.current_player())))
    two_decks = 2 * ONE_DECK
    for seat in range(5):
        obs = g.observation(seat)
        rows = sample_deals(obs, 100, seat)
        assert rows.shape == (100, 6)
        played = played_word(obs)
        for row in rows:
            assert sum(int(w) for w in row) + played == two_decks
            assert int(row[seat]) == obs.hand.word
            assert [sum(counts(row[s])) for s in range(5)] == list(obs.card_counts)


def test_bad_input() -> None:
    obs = Game(seed=1).observation(0)
    with pytest.raises(ValueError, match="seed"):
        sample_deals(obs, 1, -1)
    with pytest.raises(ValueError, match="n must"):
        sample_deals(obs, -1, 0)
    g = Game(seed=2)
    advance(g, 12)
    obs = g.observation(0)
    with pytest.raises(InvalidDealError, match="card counts"):
        sample_deals(dataclasses.replace(obs, card_counts=(obs.card_counts[0], 30, 30)), 1, 0)


def test_knowledge_of_a_fresh_deal() -> None:
    g = Game(seed=9)
    advance(g, 30)
    obs = g.observation(1)
    k = knowledge(obs)
    assert k.known[1] == obs.hand.word and k.counts == tuple(obs.card_counts)
