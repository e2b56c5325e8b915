"""Fuzzing the public API with hypothesis: card texts, lists, arrays of every
dtype, rules, integer arguments, records with mutated fields and pickled
play states with mutated state.  Every call must give a correct answer or
raise a typed error (a ``DdzError``, so a ``ValueError``; ``RecordError``
for records), never anything else and never crash.  The default run takes
some 20 s; ``-m slow`` runs the same properties with many more examples.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections import Counter
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from ddzcore import (
    RANK_CHARS, DdzError, FiveGame, Game, Hand, Move, PlayState, Rank, RecordError, Rules, classify, count_moves,
    count_moves_batch, legal_moves, legal_moves_batch, simulate,
)
from ddzcore.tools.bots import RandomBot
from ddzcore.tools.simulation import play_game
from ddzcore.game.records import replay, to_record

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULES = [Rules(), Rules(decks=2), Rules(wild="7"), Rules.preset("openspiel"), Rules(kicker_bomb=True)]
LIMITS = {1: (4,) * 13 + (1, 1), 2: (8,) * 13 + (2, 2)}


#: What ``typed_or`` returns for a call that raised the typed error.
REFUSED: Any = object()


def typed_or(call: Callable[[], Any], errors: "type[Exception] | tuple[type[Exception], ...]" = DdzError) -> Any:
    """``call()``'s answer, or ``REFUSED`` when it raised one of ``errors``;
    anything else it raises fails the test."""
    try:
        return call()
    except errors:
        return REFUSED


def expected_counts(cards: "str | list[object]") -> "list[int] | None":
    """The rank counts card text or a list of ranks names, written
    independently of ddzcore's parser; ``None`` when some item is no rank."""
    if isinstance(cards, str):
        items: list[object] = [c for c in cards.replace("10", "T") if c not in " ,+\t\n"]
    else:
        items = list(cards)
    counts = [0] * 15
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            return None
        if isinstance(item, int):
            if not 0 <= item < 15:
                return None
            counts[item] += 1
        elif item.strip().upper().replace("10", "T") in RANK_CHARS and len(item.strip().replace("10", "T")) == 1:
            counts[RANK_CHARS.index(item.strip().upper().replace("10", "T"))] += 1
        else:
            return None
    return counts


# -- cards ------------------------------------------------------------------------------------

CARD_CHARS = RANK_CHARS + RANK_CHARS.lower() + "10 ,+|xZ0!\n"
card_texts = st.text(alphabet=CARD_CHARS, max_size=40)
rank_items = st.one_of(st.sampled_from(list(RANK_CHARS) + ["10", "t", " 3 ", "", "11", "Q2"]),
                       st.integers(-2, 16), st.sampled_from(list(Rank)), st.none(), st.booleans(),
                       st.floats(allow_nan=True), st.binary(max_size=2))
card_lists = st.lists(rank_items, max_size=40)


def check_cards(cards: "str | list[object]", decks: int) -> None:
    want = expected_counts(cards)
    hand = typed_or(lambda: Hand(cards, decks=decks))  # type: ignore[arg-type]
    valid = want is not None and all(n <= m for n, m in zip(want, LIMITS[decks]))
    assert (hand is not REFUSED) == valid, (cards, want)
    if hand is REFUSED:
        return
    assert hand.counts() == want and Hand(str(hand), decks=decks) == hand
    rules = RULES[1] if decks == 2 else RULES[0]
    readings = typed_or(lambda: classify(cards, rules))  # type: ignore[arg-type]
    assert readings is not REFUSED and all(m.cards == hand and m.rules == rules for m in readings)
    if len(hand) <= 20:
        moves = legal_moves(hand, None, rules)
        assert all(m.cards <= hand for m in moves) and len(moves) == count_moves(hand, None, rules)


@FAST
@given(st.one_of(card_texts, card_lists), st.sampled_from([1, 2]))
def test_cards_from_text_and_lists(cards: "str | list[object]", decks: int) -> None:
    check_cards(cards, decks)


@FAST
@given(card_texts, st.one_of(card_texts, st.none()), st.sampled_from(RULES))
def test_moves_from_text(text: str, last: "str | None", rules: Rules) -> None:
    m = typed_or(lambda: Move(text, rules))
    if m is not REFUSED:
        assert m in classify(m.cards, rules) or m.is_pass
        assert m.rules in (rules, None)
        if rules.wild is None:  # laizi readings also fix what each wild card stands for
            assert Move(str(m), rules) == m
    moves = typed_or(lambda: legal_moves(text, last, rules))
    if moves is not REFUSED:
        hand = Hand(text, decks=rules.decks)
        assert all(x.cards <= hand for x in moves)
        if last is not None and last.strip():
            beaten = Move(last, rules)
            assert all(x.is_pass or x.beats(beaten) for x in moves)


# -- arrays of every dtype to the batch calls -----------------------------------------------------

DTYPES = [np.dtype(t) for t in ("u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c8", "c16",
                                "?", "U3", "S3", "M8[s]", "m8[s]", "O")]


@st.composite
def batch_arrays(draw: st.DrawFn) -> np.ndarray:
    dtype = draw(st.sampled_from(DTYPES))
    if dtype.kind == "O":
        return np.array(draw(st.lists(st.one_of(card_texts, st.integers(-5, 2**64 + 5), st.none()), max_size=6)),
                        dtype=object)
    shape = draw(st.sampled_from([(0,), (1,), (5,), (2, 2)]))
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        words = st.one_of(st.integers(max(info.min, -3), min(info.max, 0x41)),  # small valid hands
                          st.integers(int(info.min), int(info.max)))
        return draw(hnp.arrays(dtype, shape, elements=words))
    return draw(hnp.arrays(dtype, shape))


@FAST
@given(batch_arrays(), st.sampled_from(RULES))
def test_batch_calls_take_arrays_of_every_dtype(arr: np.ndarray, rules: Rules) -> None:
    counts = typed_or(lambda: count_moves_batch(arr, None, rules))
    batch = typed_or(lambda: legal_moves_batch(arr, None, rules))
    assert (counts is REFUSED) == (batch is REFUSED)
    if counts is REFUSED:
        return
    assert arr.dtype.kind in "uiO" and arr.ndim == 1  # floats and the rest are refused, never truncated
    words = [int(Hand(h, decks=rules.decks).word) if isinstance(h, str) else int(h) for h in arr.tolist()]
    assert counts.tolist() == [count_moves(w, None, rules) for w in words]
    moves, offsets = batch
    assert offsets[-1] == len(moves) and np.diff(offsets).tolist() == counts.tolist()


# -- rules and integer arguments -----------------------------------------------------------------

any_value = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=8),
                      st.sampled_from([1, 2, 4, 5, 6, 0, "7", "T", "max", "product", "points", "plain"]),
                      st.builds(np.int64, st.integers(-5, 5)))
FIELDS = [f.name for f in dataclasses.fields(Rules)]


def _setstate(state: dict[str, Any]) -> Rules:
    rules = Rules.__new__(Rules)
    rules.__setstate__(state)
    return rules


@FAST
@given(st.dictionaries(st.sampled_from(FIELDS), any_value, max_size=3))
def test_rules_fields(fields: dict[str, Any]) -> None:
    rules = typed_or(lambda: Rules(**fields))
    if rules is not REFUSED:
        for name, value in fields.items():
            got = getattr(rules, name)
            assert type(got) is type(value) or name == "wild", (name, value, got)
        assert pickle.loads(pickle.dumps(rules)) == rules
    restored = typed_or(lambda: _setstate(fields))  # what a tampered pickle reaches
    assert restored == rules


@FAST
@given(any_value, st.sampled_from(["push_index", "perft", "perft_divide", "playouts", "game_moves"]))
def test_integer_arguments(value: Any, method: str) -> None:
    s = PlayState(["3456", "789", "TJ"])  # 4 legal moves; every game ends within 12 plies
    ok = type(value) in (int, np.int64)
    if method == "game_moves":
        sp = simulate(2, 1, record=True)
        got = typed_or(lambda: sp.game_moves(value))
        assert (got is not REFUSED) == (ok and 0 <= value < 2)
        return
    if method == "playouts":
        n = value if not ok or value < 50 else 2**41 + value  # a large count must be refused, not played
        got = typed_or(lambda: s.playouts(n, 0))
        assert (got is not REFUSED) == (ok and 0 <= n < 50)
        assert got is REFUSED or got.shape == (n,) and set(got.tolist()) <= {0, 1, 2}
        return
    got = typed_or(lambda: getattr(s, method)(value))
    if method == "push_index":
        assert (got is REFUSED) == (not ok or not 0 <= value < 4)
    else:
        assert (got is REFUSED) == (not ok or not (1 if method == "perft_divide" else 0) <= value <= 168)


# -- records with mutated fields ----------------------------------------------------------------

def _records() -> list[dict[str, Any]]:
    bots3 = [RandomBot(1), RandomBot(2), RandomBot(3)]
    games: list[Any] = [play_game(Game(seed=7), bots3), play_game(Game(Rules.preset("laizi"), seed=8), bots3),
                        Game.endgame(["3334445559TJQKA", "66778899TJ", "JQKA22BR"], landlord=0),
                        play_game(FiveGame(seed=3), [RandomBot(s) for s in range(5)])]
    return [json.loads(json.dumps(to_record(g))) for g in games]


RECORDS = _records()


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


PATHS = [(k, p) for k, rec in enumerate(RECORDS) for p in _paths(rec) if p]
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**64, 2**64), st.floats(), st.text(max_size=12),
              st.sampled_from(["0 call", "1 pass", "0 33|pair|3|1", "S3 H3", "escape", "ddzcore-game"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8)


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    k, path = draw(st.sampled_from(PATHS))
    rec = copy.deepcopy(RECORDS[k])
    node = rec
    for key in path[:-1]:
        node = node[key]
    if draw(st.booleans()) and isinstance(node, list):
        del node[path[-1]]
    else:
        node[path[-1]] = draw(json_values)
    return rec


def check_record(rec: dict[str, Any]) -> None:
    game = typed_or(lambda: replay(rec), RecordError)
    assert game is REFUSED or isinstance(game, (Game, FiveGame))


@FAST
@given(mutated_records())
def test_records_with_mutated_fields(rec: dict[str, Any]) -> None:
    check_record(rec)


def test_unmutated_records_replay() -> None:
    for rec in RECORDS:
        assert json.loads(json.dumps(to_record(replay(rec)))) == rec


# -- pickled play states with mutated state ------------------------------------------------------

def _states() -> list[PlayState]:
    out = []
    for seed, plies in ((1, 0), (2, 7), (3, 25), (4, 80)):
        s = PlayState.deal(seed, landlord=seed % 3, rules=Rules(wild="5") if seed == 3 else None)
        rng = np.random.default_rng(seed)
        while s.ply < plies and not s.is_over:
            s.push_index(int(rng.integers(s.count_moves())))
        out.append(s)
    return out


STATES = _states()
state_values = st.one_of(any_value, st.integers(-130, 130), st.sampled_from([2**63, 2**64 - 1, 1 << 56, 0xF]),
                         st.lists(st.text(alphabet=RANK_CHARS, max_size=20), max_size=4))


@st.composite
def mutated_pickles(draw: st.DrawFn) -> tuple[Callable[..., Any], list[Any]]:
    s = draw(st.sampled_from(STATES))
    fn, args = s.__reduce__()
    args = list(args)
    hist = [list(e) for e in args[-1]]
    if hist and draw(st.booleans()):
        i = draw(st.integers(0, len(hist) - 1))
        j = draw(st.integers(0, 4))
        hist[i][j] = draw(st.one_of(state_values, st.integers(0, 2**64 - 1)))
    else:
        args[draw(st.integers(0, len(args) - 2))] = draw(state_values)
    args[-1] = hist
    return fn, args


def check_pickle(fn: Callable[..., Any], args: list[Any]) -> None:
    s = typed_or(lambda: fn(*args))
    if s is REFUSED:
        return
    # A state that unpickles is a state some game reaches: everything works on it.
    s.legal_moves()
    if not s.is_over:
        assert s.count_moves() > 0
        assert set(s.playouts(2, 1).tolist()) <= {0, 1, 2}
    while s.move_stack:
        m = s.pop()
        t = s.copy(stack=False)
        t.push(m)  # each undone step was legal


@FAST
@given(mutated_pickles())
def test_pickles_with_mutated_state(case: tuple[Callable[..., Any], list[Any]]) -> None:
    check_pickle(*case)


# -- the same, much longer ------------------------------------------------------------------------

@pytest.mark.slow
@SLOW
@given(st.one_of(card_texts, card_lists), st.sampled_from([1, 2]))
def test_cards_long(cards: "str | list[object]", decks: int) -> None:
    check_cards(cards, decks)


@pytest.mark.slow
@SLOW
@given(mutated_records())
def test_records_long(rec: dict[str, Any]) -> None:
    check_record(rec)


@pytest.mark.slow
@SLOW
@given(mutated_pickles())
def test_pickles_long(case: tuple[Callable[..., Any], list[Any]]) -> None:
    check_pickle(*case)
