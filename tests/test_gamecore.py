"""The compiled helpers of the games' core (ddzcore._gamecore) against plain
references: the deal's permutation against NumPy's own draws (so a seed
deals what it dealt before; records do not depend on it), card words
against the sum of card units, the native hands against ``Hand`` objects."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddzcore import Game, Hand, legal_moves
from ddzcore._gamecore import cards_word, deal_perm
from ddzcore.cards import _UNIT
from ddzcore.moves import Move


@pytest.mark.parametrize("n", [1, 2, 54, 108])
def test_deal_perm_draws_as_numpy(n: int) -> None:
    for seed in range(50):
        ours, ref = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(3):
            perm, u = deal_perm(ours, n)
            assert perm == ref.permutation(n).tolist()
            assert u == ref.random()
        assert ours.random() == ref.random()  # the generators stay in step


def test_deal_perm_refuses_bad_sizes() -> None:
    for n in (0, -1, 109):
        with pytest.raises(ValueError):
            deal_perm(np.random.default_rng(0), n)


def test_cards_word_is_the_sum_of_units() -> None:
    rng = random.Random(3)
    for _ in range(500):
        cards = rng.sample(range(108), rng.randrange(0, 30))
        assert cards_word(cards) == sum(_UNIT[c] for c in cards)
    with pytest.raises(ValueError):
        cards_word([108])


def test_native_hands_read_and_set_as_hand_objects() -> None:
    g = Game(seed=11)
    words = [g._word(s) for s in range(3)]
    assert [h.word for h in g.hands] == words == [g.hand(s).word for s in range(3)]
    assert sum(words) + g.bottom.word == Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR").word
    h = g.copy()
    h._hands = [Hand("3"), Hand("4"), Hand("5")]
    assert [x.word for x in h.hands] == [Hand(t).word for t in "345"]
    assert [x.word for x in g.hands] == words  # the copy's hands are its own


def test_indexed_moves_are_moves_of_the_records() -> None:
    moves = legal_moves("334455666789TJQKA2B")
    for i, (c, info) in enumerate(moves.codes.tolist()):
        m = moves[i]
        assert type(m) is Move and m == Move._from_codes(c, info) and m.rules is moves.rules
    assert list(moves) == [moves[i] for i in range(len(moves))]
