"""Hypothesis properties of move generation (docs/rules.md §2-3), in several rule sets."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from ddzcore import (
    PASS, Hand, Move, Rules, classify, count_moves, count_moves_batch, legal_moves, legal_moves_array,
    legal_moves_batch, moves_array,
)

RULES = st.sampled_from([Rules(), Rules.preset("rlcard"), Rules.preset("openspiel"),
                         Rules(kicker_repeat=False, kicker_bomb=True)])
FULL = Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR")


@st.composite
def hands(draw: st.DrawFn, max_cards: int = 20) -> Hand:
    counts = draw(st.lists(st.integers(0, 4), min_size=13, max_size=13))
    counts += draw(st.lists(st.integers(0, 1), min_size=2, max_size=2))
    word, total = 0, 0
    for r, n in enumerate(counts):
        n = min(n, max_cards - total)
        word |= n << (4 * r)
        total += n
    return Hand.from_word(word)


@st.composite
def follows(draw: st.DrawFn) -> tuple[Hand, Move, Rules]:
    rules = draw(RULES)
    hand = draw(hands(17))
    rest = FULL - hand
    leads = legal_moves(Hand(str(rest)[:20]) if len(rest) > 20 else rest, None, rules)
    last = draw(st.sampled_from(list(leads)))
    return hand, last, rules


@settings(max_examples=150, deadline=None)
@given(hands(), RULES)
def test_lead_moves_are_contained_valid_and_unique(hand: Hand, rules: Rules) -> None:
    moves = list(legal_moves(hand, None, rules))
    assert PASS not in moves
    assert len(set(moves)) == len(moves)
    for m in moves:
        assert m.cards <= hand
        assert m in classify(m.cards, rules)          # classifies back to itself
        assert Move(str(m), rules) == m                # text round-trips
        assert m.kickers <= m.cards


@settings(max_examples=150, deadline=None)
@given(follows())
def test_follow_moves_beat_the_last_move(case: tuple[Hand, Move, Rules]) -> None:
    hand, last, rules = case
    moves = list(legal_moves(hand, last, rules))
    assert moves[0] == PASS
    for m in moves[1:]:
        assert m.cards <= hand and m.beats(last, rules) and not last.beats(m, rules)
    # Every lead move that beats `last` is a legal follow: nothing is missed.
    beating = {m for m in legal_moves(hand, None, rules) if m.beats(last, rules)} if hand else set()
    assert beating == set(moves[1:])


@settings(max_examples=100, deadline=None)
@given(hands(), hands(3), RULES)
def test_more_cards_never_lose_a_lead(hand: Hand, extra: Hand, rules: Rules) -> None:
    try:
        bigger = hand + extra
    except ValueError:
        return
    assert set(legal_moves(hand, None, rules)) <= set(legal_moves(bigger, None, rules))


@settings(max_examples=60, deadline=None)
@given(st.lists(follows(), min_size=1, max_size=6))
def test_every_api_level_agrees(cases: list[tuple[Hand, Move, Rules]]) -> None:
    rules = Rules()
    hands_ = [h for h, _, _ in cases]
    lasts = [m if m in classify(m.cards, rules) else None for _, m, _ in cases]
    moves, offsets = legal_moves_batch(hands_, lasts, rules)
    counts = count_moves_batch(hands_, moves_array(lasts, rules), rules)
    for i, (h, last) in enumerate(zip(hands_, lasts)):
        single = legal_moves_array(h, last, rules)
        assert np.array_equal(moves[offsets[i]:offsets[i + 1]], single)
        assert counts[i] == len(single) == count_moves(h, last, rules) == len(legal_moves(h, last, rules))
