"""Faults found by fuzzing the public API, each pinned by a test: every kind
fails with a typed error (a ``DdzError``, so a ``ValueError``) naming the bad
input, or gives the right answer (docs/rules.md §1-3, §8).
``tests/test_fuzz.py`` searches the same kinds with hypothesis."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from conftest import ref_rules
from ddzcore import (
    Combo, DdzError, Hand, InvalidArgumentError, InvalidCardsError, InvalidMoveError, InvalidRulesError,
    InvalidStateError, Move, MoveIndexError, MoveList, PlayState, RecordError, Rules, action_space, classify,
    count_moves, count_moves_batch, hands_array, legal_moves, legal_moves_array, legal_moves_batch, moves_array,
    simulate,
)
from reference import parse_move, ref_beats

TWO = Rules(decks=2)


# -- counts: every constructor path checks them (docs/rules.md §1) ------------------

@pytest.mark.parametrize("cards", [["3"] * 16, ["3"] * 5, ["B"] * 16, ["B", "B"], ["R"] * 2, [0] * 17,
                                   ["2"] * 31, "3" * 16, "BB"])
def test_too_many_cards_of_a_rank_are_refused_on_every_path(cards: object) -> None:
    for make in (lambda: Hand(cards), lambda: classify(cards), lambda: legal_moves(cards),  # type: ignore[arg-type]
                 lambda: count_moves(cards), lambda: hands_array([cards])):  # type: ignore[list-item]
        with pytest.raises(InvalidCardsError):
            make()


def test_counts_up_to_the_deck_still_read_right() -> None:
    assert Hand(["3"] * 4) == Hand("3333") and Hand(["B", "R"]) == Hand("BR")
    assert Hand(["3"] * 8, decks=2) == Hand("33333333", decks=2)
    with pytest.raises(InvalidCardsError):
        Hand(["3"] * 9, decks=2)
    assert [str(m) for m in classify(["3"] * 4)] == ["3333|bomb|3|1"]
    with pytest.raises(InvalidCardsError):
        Hand("3", decks=True)  # type: ignore[arg-type]


def test_tampered_hand_and_move_pickles_are_checked() -> None:
    h = Hand("33")
    assert pickle.loads(pickle.dumps(h)) == h
    fn, args = h.__reduce__()  # what unpickling calls, here with tampered words
    for word in (0xF, 5, -1, 1 << 60, 1.0):
        with pytest.raises(InvalidCardsError):
            fn(word, *args[1:])
    m = Move("33")
    assert pickle.loads(pickle.dumps(m)) == m and pickle.loads(pickle.dumps(m)).rules == Rules()
    with pytest.raises(InvalidMoveError):
        Move.from_codes(m.codes[0] + 1, m.codes[1])  # the path unpickling takes


# -- a move carries its rules (docs/rules.md §8 bomb order) -------------------------

def _two_deck_moves() -> list[Move]:
    """Every two-deck bomb (4 to 8 cards of each rank) and joker bomb, and one
    move of each other kind: 65 + 6 + 7 = 78 moves."""
    texts = [r * n for r in "3456789TJQKA2" for n in range(4, 9)]
    texts += ["BB", "BR", "RR", "BBR", "BRR", "BBRR"]
    texts += ["9", "KK", "555", "34567", "334455", "777888", "666645"]
    moves = [m for t in texts for m in classify(t, TWO)]
    assert len(moves) == 78 and {m.combo for m in moves} >= {Combo.BOMB, Combo.JOKER_BOMB}
    return moves


def test_move_beats_under_the_rules_it_was_read_under() -> None:
    assert Move("33333", TWO).beats(Move("BR", TWO))
    assert not Move("3333", TWO).beats(Move("BR", TWO))
    assert Move("33333", TWO).rules == TWO and Move("33").rules == Rules()


def test_every_two_deck_pair_compares_as_the_reference() -> None:
    """All 78 x 78 = 6,084 pairs: ``a.beats(b)`` with no ``rules=`` (the
    moves read under two decks, from text and from ``classify``) agrees with
    the independent reference and with an explicit ``rules=``."""
    moves = _two_deck_moves()
    ref = ref_rules(TWO)
    texts = [str(m) for m in moves]
    wrong = []
    for a, ta in zip(moves, texts):
        pa = Move(ta, TWO)
        for b, tb in zip(moves, texts):
            want = ref_beats(parse_move(ta), parse_move(tb), ref)
            got = (a.beats(b), pa.beats(Move(tb, TWO)), a.beats(tb), a.beats(b, TWO))
            if got != (want,) * 4:
                wrong.append((ta, tb, want, got))
    assert not wrong, wrong[:10]


def test_moves_from_every_source_carry_their_rules() -> None:
    for rules in (Rules(), TWO, Rules(wild="7"), Rules.preset("openspiel")):
        hand = "3334445556789TJQKA" if rules.decks == 1 else "33334444555566789"
        ml = legal_moves(hand, None, rules)
        assert ml.rules == rules and all(m.rules == rules for m in ml) and ml[0].rules == rules
        assert all(m.rules == rules for m in classify("3334", rules))
        assert Move.parse("3334", rules).rules == rules
        assert Move.from_codes(*ml[1].codes, rules).rules == rules
    assert action_space("openspiel")[5].rules == Rules.preset("openspiel")
    s = PlayState(["3334", "5556", "777"], rules=Rules(wild="7"))
    s.push("3334")
    assert s.last.rules == s.rules and s.move_stack[0].rules == s.rules and s.pop().rules == s.rules


# -- rules= takes a preset name everywhere, or raises typed --------------------------

def test_rules_argument_takes_a_preset_name_everywhere() -> None:
    std = Rules.preset("openspiel")
    hand, last = "3333456", "4|single|4|1"
    assert legal_moves(hand, last, "openspiel") == legal_moves(hand, last, std)
    assert (legal_moves_array(hand, None, "openspiel") == legal_moves_array(hand, None, std)).all()
    assert count_moves(hand, None, "openspiel") == count_moves(hand, None, std)
    assert classify("333345", "openspiel") == [] and classify("333345", "standard") != []
    assert Move("33", "standard").beats("22", "standard") is False
    assert (count_moves_batch([hand], None, "openspiel") == count_moves_batch([hand], None, std)).all()
    assert len(legal_moves_batch([hand], [last], "openspiel")[0]) == len(legal_moves(hand, last, std))
    assert (hands_array([hand], "standard") == hands_array([hand])).all()
    assert (moves_array([last], "standard") == moves_array([last])).all()
    assert PlayState(["3", "4", "5"], rules="standard").rules == Rules()
    assert len(simulate(2, 1, rules="standard")) == 2
    assert MoveList(legal_moves_array(hand), "standard").rules == Rules()
    assert len(action_space("standard")) == len(action_space(Rules()))


@pytest.mark.parametrize("bad", ["nope", 3, 2.0, True, ["standard"], {}, object()])
def test_bad_rules_arguments_raise_typed(bad: object) -> None:
    calls = [lambda: legal_moves("33", None, bad), lambda: count_moves("33", None, bad),
             lambda: legal_moves_array("33", None, bad), lambda: classify("33", bad),
             lambda: Move("33", bad), lambda: Move("33").beats("44", bad),
             lambda: legal_moves_batch(["33"], None, bad), lambda: count_moves_batch(["33"], None, bad),
             lambda: PlayState(["3", "4", "5"], rules=bad), lambda: simulate(1, 1, rules=bad),
             lambda: Rules.preset(bad)]  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(InvalidRulesError):
            call()


@pytest.mark.parametrize("field, value", [
    ("decks", True), ("decks", 2.0), ("decks", np.int64(2)), ("two_jokers_above", 5.0), ("two_jokers_above", True),
    ("show_start", 5.0), ("show_early_cards", False), ("max_redeals", True), ("max_redeals", 1.0),
    ("four_two", 1), ("bidding", 1), ("laizi_bombs", None)])
def test_rules_fields_are_exact_types(field: str, value: object) -> None:
    with pytest.raises(InvalidRulesError):
        Rules(**{field: value})  # type: ignore[arg-type]
    with pytest.raises(InvalidCardsError):  # a bad wild rank is a bad rank (docs/rules.md §7)
        Rules(wild=5.5)  # type: ignore[arg-type]


def test_tampered_rules_pickles_are_checked() -> None:
    data = pickle.dumps(Rules(decks=2))
    assert pickle.loads(data) == Rules(decks=2) and pickle.loads(data).flags == Rules(decks=2).flags
    bad = Rules.__new__(Rules)
    with pytest.raises(InvalidRulesError):
        bad.__setstate__({"decks": True})
    with pytest.raises(InvalidRulesError):
        bad.__setstate__({"no_such_field": 1})
    with pytest.raises(InvalidRulesError):
        bad.__setstate__(["decks", 2])


# -- integer arguments out of range ------------------------------------------------------

def test_push_index_perft_and_game_moves_raise_typed() -> None:
    s = PlayState.deal(3)
    for i in (2**64, -1, -2**70, s.count_moves(), 1.0, "0", True, None):
        with pytest.raises(MoveIndexError):
            s.push_index(i)
        with pytest.raises(IndexError):  # still an IndexError too
            s.push_index(i)
    s.push_index(np.int64(0))
    assert s.ply == 1
    for d in (2**40, 2**64, -1, 1.5, "2", None):
        with pytest.raises(InvalidArgumentError):
            s.perft(d)
        with pytest.raises(InvalidArgumentError):
            s.perft_divide(d)
    assert s.perft(np.int32(1)) == s.count_moves()
    with pytest.raises(InvalidArgumentError):
        s.playouts(-1, 0)
    with pytest.raises(InvalidArgumentError):
        s.playouts(1, 2**64)
    sp = simulate(3, 5, record=True)
    for i in (-1, 3, 2**64, 1.0, True):
        with pytest.raises(MoveIndexError):
            sp.game_moves(i)  # type: ignore[arg-type]
    assert sum(len(sp.game_moves(i)) for i in range(3)) == len(sp.moves)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        simulate(2, 1).game_moves(0)
    for n in (-1, 2**41, 1.0):
        with pytest.raises(InvalidArgumentError):
            simulate(n, 1)  # type: ignore[arg-type]


def test_perft_beyond_the_longest_game_is_refused_not_searched() -> None:
    s = PlayState(["3", "4", "5"])
    assert s.perft(168) == 0
    with pytest.raises(InvalidArgumentError):
        s.perft(169)


# -- batch arrays of the wrong dtype ------------------------------------------------------

WORDS = hands_array(["33445", "BR", "3456789"])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.complex128, np.bool_, "U8", "S8",
                                   "datetime64[s]", "timedelta64[s]"])
def test_batch_calls_refuse_hand_arrays_of_other_dtypes(dtype: object) -> None:
    arr = np.array([1.0, 2.0, 17.0]).astype(dtype) if np.dtype(dtype).kind in "fcb" else np.zeros(3, dtype)
    for call in (legal_moves_batch, count_moves_batch):
        with pytest.raises(InvalidCardsError):
            call(arr)


@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint32, np.int32, np.uint16, np.int8, np.uint8, object])
def test_batch_calls_take_integer_and_object_arrays(dtype: object) -> None:
    small = hands_array(["3", "33", "34", "334", "333"])  # words up to 0x21: they fit in every integer dtype
    arr = small.astype(dtype)
    assert (count_moves_batch(arr) == count_moves_batch(small)).all()
    assert (legal_moves_batch(arr)[0] == legal_moves_batch(small)[0]).all()


def test_batch_calls_refuse_negative_words_and_other_shapes() -> None:
    with pytest.raises(InvalidCardsError):
        count_moves_batch(np.array([1, -1], np.int64))
    with pytest.raises(InvalidCardsError):
        count_moves_batch(WORDS.reshape(3, 1))
    with pytest.raises(InvalidCardsError):
        count_moves_batch("33445")  # one text, not a sequence of hands
    with pytest.raises(InvalidCardsError):
        count_moves_batch(5)  # type: ignore[arg-type]
    lasts = moves_array(["4", None, None])
    for bad in (lasts["info"], lasts.astype([("cards", "<u8"), ("info", "<f8")]), np.zeros(3), lasts.reshape(3, 1),
                "4", 4):
        with pytest.raises(InvalidMoveError):
            legal_moves_batch(WORDS, bad)  # type: ignore[arg-type]


def test_batch_out_takes_the_previous_result() -> None:
    first = legal_moves_batch(WORDS)
    again = legal_moves_batch(WORDS, out=first)
    assert again[0].base is first[0].base  # the buffer is reused, not reallocated
    fresh = legal_moves_batch(WORDS)
    assert (again[0] == fresh[0]).all() and (again[1] == fresh[1]).all()
    buf = first[0].base
    assert legal_moves_batch(WORDS, out=buf)[0].base is buf
    for bad in (5, (1, 2), np.zeros(10), np.zeros(10, first[0].dtype)[::2], np.zeros((2, 5), first[0].dtype)):
        with pytest.raises(InvalidArgumentError):
            legal_moves_batch(WORDS, out=bad)  # type: ignore[arg-type]


# -- PlayState: constructor and unpickling check everything (docs/rules.md §3) --------------

def _played(seed: int, plies: int) -> PlayState:
    s = PlayState.deal(seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.push_index(int(rng.integers(s.count_moves())))
    return s


def _tamper(s: PlayState, k: int, value: object) -> tuple:
    args = list(s.__reduce__()[1])
    args[k] = value
    return tuple(args)


def test_pickles_round_trip_with_their_history() -> None:
    for seed in range(20):
        s = _played(seed, 30)
        t = pickle.loads(pickle.dumps(s))
        assert t == s and t.move_stack == s.move_stack
        while t.move_stack:
            t.pop()
        assert t == PlayState.deal(seed)


def test_tampered_history_is_refused() -> None:
    """The reported out-of-bounds read: an undo history whose owner is any
    byte; after pop, is_over read hand[owner] past the array."""
    s = _played(1, 12)
    fn, args = s.__reduce__()
    hist = args[-1]
    for k in range(len(hist)):
        for field, values in ((4, [-128, 127, 3, -2, 5]), (0, [0, 1, 2**64 - 1, 0xF]), (1, [0, 1, 0x3FFF]),
                              (2, [0, 1 << 56, 2**63]), (3, [0, 5, 2**64 - 1])):
            for v in values:
                h = [list(e) for e in hist]
                if h[k][field] == v:
                    continue
                h[k][field] = v
                with pytest.raises(InvalidStateError):
                    fn(*args[:-1], h)
    for bad in ([hist[0]] * len(hist), hist[1:] + hist[:1], hist + hist[-1:], [(0, 0, 0, 0, 0, 0)], "x", 5,
                [None], [[1.0, 0, 0, 0, 0]], [(2**64, 0, 0, 0, -1)]):
        with pytest.raises(InvalidStateError):
            fn(*args[:-1], bad)


def test_tampered_position_and_counters_are_refused() -> None:
    s = _played(2, 9)
    fn, args = s.__reduce__()
    hands = args[0]
    cases = {
        0: [[hands[0] + "2222", hands[1], hands[2]], hands[:2], "3", None, 5, [hands[0], hands[0], hands[2]]],
        1: [3, -1, 1.0, True],
        2: [3, -1, "1"],
        3: ["BR|rocket|R|1", "33|pair|3|1", "pass", 5],
        4: [args[2], 3, -128] if args[3] else [7],
        5: [TWO, "nope", 3],
        6: [55, -1, 2.0], 7: [55, -1], 8: [55, -1],
        9: [-1, 2**16, len(args[-1]) - 1, 169, 1.5],
    }
    for k, values in cases.items():
        for v in values:
            with pytest.raises(DdzError):
                fn(*_tamper(s, k, v))
    assert fn(*_tamper(s, 10, [])) == s  # a state may forget its history (copy(stack=False))


def test_a_live_state_always_has_a_legal_move() -> None:
    """The other fault of the report: a live state with no legal moves made
    ``playouts`` play a move from an unwritten buffer."""
    with pytest.raises(DdzError):
        PlayState(["", "4", "5"], landlord=0, turn=0)
    s = PlayState(["3", "4", "5"])
    assert (s.playouts(5, 1) >= 0).all()


def test_legal_moves_into_refuses_other_buffers() -> None:
    s = PlayState.deal(1)
    for bad in (5, np.zeros(10), np.zeros(10, WORDS.dtype), None):
        with pytest.raises(InvalidArgumentError):
            s.legal_moves_into(bad)


def test_move_lists_check_their_records() -> None:
    codes = legal_moves_array("334455")
    assert MoveList(codes) == legal_moves("334455")
    bad = codes.copy()
    bad["info"][1] += np.uint64(1 << 5)
    with pytest.raises(InvalidMoveError):
        MoveList(bad)
    for other in (codes["cards"], [1, 2], codes.reshape(-1, 1)):
        with pytest.raises(InvalidArgumentError):
            MoveList(other)


# -- records: RecordError only ------------------------------------------------------------

def test_records_with_fields_of_the_wrong_kind_raise_record_errors() -> None:
    from ddzcore import FiveGame, Game
    from ddzcore.tools.bots import RandomBot
    from ddzcore.tools.simulation import play_game
    from ddzcore.game.records import loads, replay, to_record

    three = to_record(play_game(Game(seed=3), [RandomBot(1), RandomBot(2), RandomBot(3)]))
    five = to_record(play_game(FiveGame(seed=3), [RandomBot(s) for s in range(5)]))
    for rec in (three, five):
        replay(rec)
        for key in list(rec):
            for value in (None, [1, 2], {}, 1, "x", [None], {"a": 1}, True, 1.5):
                bad = dict(rec)
                bad[key] = value
                try:
                    replay(bad)
                except RecordError:
                    pass
        for value in ([1, 2], None, [None], ["0"], ["9 call"], [["0 call"]]):
            with pytest.raises(RecordError):
                replay({**rec, "actions": value})
        with pytest.raises(RecordError):
            replay({**rec, "settlement": {}})
    for text in ("[]", "1", '{"format": "ddzcore-game", "version": 1}', "[" * 100000, "\"x\""):
        with pytest.raises(RecordError):
            loads(text)
    with pytest.raises(RecordError):
        replay({**five, "deal": None})
