"""Card text and card words are read by a one-pass path (``_parse_text``'s
``map`` over a table, ``_check_word``'s branch-free deck test) that must
agree exactly with the character-at-a-time reading (``_parse_slowly``) and
the rank-by-rank limit check (``_pack``): the same word, or the same error
type and message (docs/rules.md §1)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from ddzcore import Hand, InvalidCardsError
from ddzcore.cards import RANK_CHARS, _check_word, _pack, _parse_slowly, _parse_text, _unpack

ALPHABET = list(RANK_CHARS + RANK_CHARS.lower()) + ["10", " ", ",", "+", "\t", "\n", "1", "0", "x", "é", "ſ", "Ｊ"]


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", fn()
    except InvalidCardsError as e:
        return "error", str(e)


def _texts(seed: int, n: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(0, 70))
        weights = np.ones(len(ALPHABET))
        weights[-6:] = 0.05  # mostly good characters, some bad ones
        picks = rng.choice(len(ALPHABET), k, p=weights / weights.sum())
        if rng.random() < 0.2:  # many of one rank: 15 or more overflow a nibble
            picks = np.concatenate([picks, np.full(int(rng.integers(13, 18)), rng.integers(15))])
        out.append("".join(ALPHABET[i] for i in picks))
    return out


def test_text_matches_the_slow_reading() -> None:
    kinds = set()
    for t in _texts(3, 4000) + ["", "10", "1O", "3" * 15, "3" * 14, "R" * 16, "R" * 15, "B" * 60, "B" * 61]:
        fast = _outcome(lambda: _parse_text(t))
        slow = _outcome(lambda: _parse_slowly(t, t.replace("10", "T")))
        assert fast == slow, t
        kinds.add(fast[0])
        for decks in (1, 2):
            assert _outcome(lambda: Hand(t, decks=decks).word) == _outcome(
                lambda: _pack(_unpack(_parse_slowly(t, t.replace("10", "T"))), decks, t)), t
    assert kinds == {"ok", "error"}


@pytest.mark.parametrize("decks", [1, 2, 3, True, 1.0])
def test_words_match_the_rank_by_rank_check(decks: Any) -> None:
    rng = np.random.default_rng(5)
    words = [int(w) for w in rng.integers(0, 1 << 60, 500, dtype=np.uint64)]
    words += [sum(int(c) << (4 * r) for r, c in enumerate(rng.integers(0, 10, 15))) for _ in range(2000)]
    words += [0, 0x114444444444444, 0x228888888888888, 0x114444444444445, 0x214444444444444, 1 << 59]
    for w in words:
        assert _outcome(lambda: _check_word(w, decks, w)) == _outcome(lambda: _pack(_unpack(w), decks, w))
