"""Bad positions and forged moves get a typed error (a ``ValueError``
subclass naming the input), never a crash or a wrong answer, and change
nothing:

- a move to beat that the hand makes impossible (hand and move together
  hold more of a rank than the deck: docs/rules.md §1, §7, §8), in every
  form of legal-move generation, batches included (``out=`` untouched);
- a ``Move`` forged with ``object.__new__`` whose private record is not two
  card/info words (or a pass holding cards), at every public entry that
  takes a move."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np
import pytest

from ddzcore import (IllegalMoveError, InvalidCardsError, InvalidMoveError, Move, PlayState, Rules, count_moves,
                     count_moves_batch, legal_moves, legal_moves_array, legal_moves_batch, moves_array)
from ddzcore import Game, Hand, hands_array, hint
from ddzcore import _kernel
from ddzcore.errors import IllegalActionError
from ddzcore.game import FiveGame

RANKS = "3456789TJQKA2BR"
TWO = Rules(decks=2)
WILD7 = Rules(wild="7")


def _fits(hand: str, last: str, decks: int = 1) -> bool:
    """Reference: the deck(s) hold hand and last together (4 of a rank, one joker each, a deck)."""
    both = Counter(hand) + Counter(last)
    return all(n <= (1 if r in "BR" else 4) * decks for r, n in both.items())


SINGLE = [legal_moves, legal_moves_array, count_moves]

IMPOSSIBLE = [  # (hand, last, rules): the move to beat needs cards the hand holds
    ("3", "3333", Rules()),
    ("45B", "BR", Rules()),
    ("AA", "AAA3|trio_single|A|1", Rules()),
    ("37", "7777", WILD7),  # the pure wild bomb with a 7 in hand (docs/rules.md §7)
    ("3456", "33333333", TWO),  # two decks: 8 of a rank at most (docs/rules.md §8)
    ("RR", "BBRR", TWO),
]


@pytest.mark.parametrize("hand,last,rules", IMPOSSIBLE)
@pytest.mark.parametrize("fn", SINGLE, ids=lambda f: f.__name__)
def test_impossible_move_to_beat_is_refused(fn: Callable[..., Any], hand: str, last: str, rules: Rules) -> None:
    move = Move(last, rules)
    assert not _fits(hand, str(move.cards), rules.decks)
    for given in (move, str(move)):
        with pytest.raises(InvalidMoveError, match="deck"):
            fn(hand, given, rules)
    with pytest.raises(InvalidMoveError, match="deck"):
        _kernel.generate_array(_kernel_word(hand, rules), move.codes[0], move.codes[1], rules.flags)


def _kernel_word(hand: str, rules: Rules) -> int:
    return int(hands_array([hand], rules)[0])


def test_possible_follows_still_generate() -> None:
    assert count_moves("3", "4444") == 1  # pass only
    assert count_moves("3333333", "3", TWO) > 1  # 8 threes in all: two decks hold them
    assert count_moves("BR", "3", Rules()) > 1
    assert count_moves("7", "777", WILD7) >= 1


def test_random_positions_match_the_reference() -> None:
    """Hand and move to beat drawn independently: refused exactly when the
    deck cannot hold both (the reference counts ranks), else generated."""
    rng = np.random.default_rng(11)
    seen = Counter()
    for rules, decks in ((Rules(), 1), (TWO, 2), (WILD7, 1)):
        deck = "".join(r * ((1 if r in "BR" else 4) * decks) for r in RANKS)
        for _ in range(300):
            hand = "".join(rng.choice(list(deck), int(rng.integers(5, 21)), replace=False))
            follow = legal_moves("".join(rng.choice(list(deck), 12, replace=False)), None, rules)
            last = follow[int(rng.integers(len(follow)))]
            ok = _fits(hand, str(last.cards), decks)
            seen[ok] += 1
            if ok:
                assert count_moves(hand, last, rules) == len(legal_moves(hand, last, rules)) >= 1
            else:
                with pytest.raises(InvalidMoveError):
                    count_moves(hand, last, rules)
    assert seen[True] > 50 and seen[False] > 20


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_names_the_first_impossible_row_and_leaves_out_untouched(threads: int) -> None:
    hands = ["3456789", "3", "44"]
    lasts = ["3", "3333", None]
    good_moves, _ = legal_moves_batch(hands[:1], lasts[:1])
    out = np.zeros(500, good_moves.dtype)
    out["cards"] = 7
    before = out.copy()
    with pytest.raises(InvalidMoveError, match=r"last move 1 .*hands\[1\]"):
        legal_moves_batch(hands, lasts, out=out, threads=threads)
    assert (out == before).all()
    with pytest.raises(InvalidMoveError, match=r"last move 1"):
        count_moves_batch(hands, lasts, threads=threads)
    # A bad hand before the bad row is named first, as a bad hand.
    with pytest.raises(InvalidCardsError, match=r"hands\[0\]"):
        count_moves_batch(np.array([0x5, 0x1], np.uint64), moves_array(["4", "3333"]))
    # The impossible row alone, in a long batch of good ones, anywhere.
    words = hands_array(["3456789TJQKA2"] * 300)
    lm = moves_array(["3"] * 300)
    for bad in (0, 17, 299):
        w = words.copy()
        w[bad] = hands_array(["3"])[0]
        m = lm.copy()
        m[bad] = moves_array(["3333"])[0]
        with pytest.raises(InvalidMoveError, match=fr"last move {bad} "):
            count_moves_batch(w, m)
    assert (count_moves_batch(words, lm) > 1).all()


def test_game_and_play_state_refuse_impossible_positions() -> None:
    from ddzcore.errors import InvalidDealError
    with pytest.raises(InvalidDealError):
        Game.endgame(["3", "44", "55"], 0, last="3333", last_player=2)
    with pytest.raises(InvalidDealError):
        PlayState(["3", "44", "55"], 0, 0, last="3333", owner=2)


# -- forged moves ------------------------------------------------------------------------------

_UNSET = object()


def forged(cards: Any = _UNSET, info: Any = _UNSET, rules: Any = None) -> Move:
    m = object.__new__(Move)
    if cards is not _UNSET:
        m._cards = cards
    if info is not _UNSET:
        m._info = info
    m._rules = rules
    return m


BAD_RECORDS = {
    "negative": (-1, Move("3").codes[1]),
    "too big": (1 << 64, Move("3").codes[1]),
    "text": ("3", Move("3").codes[1]),
    "float info": (Move("3").codes[0], 33.0),
    "None": (None, None),
    "unset": (_UNSET, _UNSET),
    "junk info": (Move("3").codes[0], (1 << 64) - 1),
    "junk combo": (Move("3").codes[0], 31 | (15 << 5) | (1 << 9)),
}
NOT_WORDS = [name for name in BAD_RECORDS if not name.startswith("junk")]  # not two ints in 0..2**64-1
PASSES_WITH_CARDS = {"pass with cards": (Move("3").codes[0], 0), "pass with a main": (0, 15 << 5)}


def _game_following() -> Game:
    return Game.endgame(["3345", "66", "KKA"], 0, last="4", last_player=2, to_move=0)


@pytest.mark.parametrize("name", list(BAD_RECORDS) + list(PASSES_WITH_CARDS))
def test_game_apply_refuses_forged_moves(name: str) -> None:
    cards, info = {**BAD_RECORDS, **PASSES_WITH_CARDS}[name]
    for g in (_game_following(), Game.endgame(["3345", "66", "KKA"], 0)):
        before = g.copy()
        with pytest.raises(IllegalActionError):
            g.apply(forged(cards, info))
        assert g == before and g.history == before.history
        assert forged(cards, info) not in g.legal_actions()
        if name in NOT_WORDS:  # push (unchecked play) still refuses what is no move record
            with pytest.raises(InvalidMoveError):
                g.push(forged(cards, info))
            assert g == before and g.history == before.history


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_five_game_apply_refuses_forged_moves(name: str) -> None:
    g = FiveGame(seed=1)
    rng = np.random.default_rng(1)
    while g.phase.name != "PLAY":
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    before = g.copy()
    with pytest.raises(IllegalActionError):
        g.apply(forged(*BAD_RECORDS[name]))
    assert g == before


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_generation_refuses_a_forged_move_to_beat(name: str) -> None:
    m = forged(*BAD_RECORDS[name])
    for fn in SINGLE:
        for hand in ("3456789", Hand("3456789")):  # a Hand takes the fast path
            with pytest.raises(InvalidMoveError):
                fn(hand, m)
    with pytest.raises(InvalidMoveError):
        legal_moves_batch(["3456789"], [m])


@pytest.mark.parametrize("name", list(BAD_RECORDS) + list(PASSES_WITH_CARDS))
def test_other_entries_refuse_forged_moves(name: str) -> None:
    m = forged(*{**BAD_RECORDS, **PASSES_WITH_CARDS}[name])
    s = PlayState(["3345", "66", "KKA"], 0, 0)
    with pytest.raises(InvalidMoveError):
        s.push(m)
    assert s.ply == 0 and s.hand_words == PlayState(["3345", "66", "KKA"], 0, 0).hand_words
    assert isinstance(str(m), str) and isinstance(repr(m), str)
    assert m not in legal_moves("3456789")
    with pytest.raises(InvalidMoveError):
        Move("3").beats(m)
    with pytest.raises(InvalidMoveError):
        m.beats(Move("3"))
    with pytest.raises(InvalidMoveError):
        hint("3456", last=m, playouts=0)
    del m._rules  # forged without any rules slot: still the typed error, not AttributeError
    with pytest.raises(InvalidMoveError):
        m.beats(Move("3"))
    with pytest.raises(InvalidMoveError):
        Move._from_codes(*Move("3").codes).beats(m)
    g = Game.endgame(["3345", "66", "KKA"], 0)
    with pytest.raises(IllegalMoveError):
        g.action_id(m)
    with pytest.raises(IllegalActionError):
        Game.endgame(["3345", "66", "KKA"], 0, last=m, last_player=2)


def test_integer_words_of_any_int_type_still_play() -> None:
    """A record held as NumPy integers (``__index__``) is two card/info words
    too: played and generated as before."""
    g = _game_following()
    legal = list(g.legal_actions())
    m = legal[1]
    numpy_move = Move._from_codes(np.uint64(m.codes[0]), np.uint64(m.codes[1]))  # type: ignore[arg-type]
    assert count_moves("3456789", numpy_move) == count_moves("3456789", m)
    g.apply(numpy_move)
    assert g.history[-1][1] == m
