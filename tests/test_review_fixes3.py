"""Faults and slow paths the last review left open, each reproduced here
(these tests failed before their fix): the one-position calls share one
compiled fast path; a ``Hand`` or ``MarkedMove`` forged with fields of the
wrong type or junk values gets a typed error (a ``ValueError`` subclass from
``ddzcore.errors``) naming the field; ``MoveList`` slices exactly as a list
does (docs/rules.md §1-3, §8).
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from ddzcore import (MOVE_DTYPE, Hand, MarkedMove, Move, Rules, count_moves, count_moves_batch, hands_array,
                     legal_moves, legal_moves_array, legal_moves_batch)
from ddzcore.errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError, InvalidRulesError
from test_review_fixes2 import _UNSET, _forged_hand

ONE_POSITION: list[Callable[..., Any]] = [legal_moves, legal_moves_array, count_moves]
HAND = Hand("334455667789TTJQKA2")
PAIR = Move("44")

# -- one compiled fast path for legal_moves, legal_moves_array and count_moves --------------


def _python_calls(fn: Callable[..., Any], *args: Any) -> list[str]:
    """The Python functions ``fn(*args)`` enters (``sys.setprofile`` sees each frame)."""
    seen: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("fn", ONE_POSITION, ids=lambda f: f.__name__)
@pytest.mark.parametrize("last", [None, PAIR], ids=["lead", "follow"])
def test_a_plain_position_is_read_and_generated_in_one_compiled_call(fn: Callable[..., Any], last: Any) -> None:
    # Only the public function's own frame: no Python parser (_position), no Move object a move.
    rules = Rules()
    assert _python_calls(fn, HAND, last, rules) == [fn.__name__]
    assert _python_calls(fn, HAND, last) == [fn.__name__]


@pytest.mark.parametrize("rules", [Rules(), Rules(decks=2), Rules.preset("laizi"), "openspiel"], ids=str)
@pytest.mark.parametrize("last", [None, PAIR, "55", Move("3"), "TJQKA"], ids=str)
@pytest.mark.parametrize("hand", [HAND, str(HAND), HAND.word, Hand("3456789TJQKA2BR", decks=2)], ids=str)
def test_the_three_calls_agree_on_every_kind_of_argument(hand: Any, last: Any, rules: Any) -> None:
    r = Rules.coerce(rules)
    if isinstance(last, str):
        last = Move(last, r)
    ml = legal_moves(hand, last, rules)
    arr = legal_moves_array(hand, last, rules)
    assert arr.dtype == MOVE_DTYPE and arr.shape == (len(ml),) and arr.flags.writeable
    assert np.array_equal(arr, ml.codes) and count_moves(hand, last, rules) == len(ml)
    moves, offsets = legal_moves_batch(hands_array([hand], r), None if last is None else [last], r)
    assert np.array_equal(moves[offsets[0]:offsets[1]], arr)
    assert all(m.rules == r for m in ml[:3])


def test_array_results_are_independent_copies() -> None:
    a = legal_moves_array(HAND)
    b = legal_moves_array(Hand("3"))  # the scratch buffer is reused: a must not change
    assert len(b) == 1 and np.array_equal(a, legal_moves(HAND).codes)


# -- a Hand forged with fields of the wrong type (docs/rules.md §1) --------------------------

class _Int(int):
    pass


_W = Hand("33").word
WRONG_HANDS = {  # field -> (the forged hand's fields): every value would be a valid one as an int
    "_word": [(np.uint64(_W), 1), (np.int64(_W), 1), (True, 1), (_Int(_W), 1), (float(_W), 1)],
    "_decks": [(_W, True), (_W, 1.0), (_W, np.int64(1)), (_W, _Int(1)), (_W, 0), (_W, -1), (_W, 3)],
}
FORGED = [(field, fields) for field, cases in WRONG_HANDS.items() for fields in cases]


@pytest.mark.parametrize("fn", [*ONE_POSITION, lambda h: legal_moves(h, PAIR), lambda h: count_moves(h, None, "laizi"),
                                lambda h: legal_moves_array(h, PAIR, Rules(decks=2)), lambda h: h.word, len, hash,
                                lambda h: h == Hand("33"), pickle.dumps, hands_array],
                         ids=["legal_moves", "legal_moves_array", "count_moves", "following", "laizi", "two decks",
                              "word", "len", "hash", "eq", "pickle", "hands_array"])
@pytest.mark.parametrize("field,fields", FORGED, ids=[f"{f}={v[f == '_decks']!r}" for f, v in FORGED])
def test_a_hand_with_a_field_of_the_wrong_type_gets_invalid_cards_error_naming_it(
        fn: Callable[[Any], Any], field: str, fields: tuple[Any, Any]) -> None:
    h = _forged_hand(*fields)
    with pytest.raises(InvalidCardsError, match=field):
        fn([h] if fn is hands_array else h)


def test_hands_built_from_int_subclasses_hold_exact_ints() -> None:
    h = Hand.from_word(_Int(_W))
    assert type(h._word) is int and legal_moves(h) == legal_moves("33")
    assert type(Hand.from_word(_W, decks=2)._decks) is int


# -- a MarkedMove forged with junk fields (docs/rules.md §8) ----------------------------------

_TWO = Rules(decks=2)
_THREE = Move("3|single|3|1", _TWO).codes


def _forged_marked(cards: Any = _THREE[0], info: Any = _THREE[1], marked: Any = 1, rules: Any = None) -> MarkedMove:
    m = object.__new__(MarkedMove)
    m._cards, m._info, m._marked, m._rules = cards, info, marked, rules
    return m


JUNK_MARKED = {  # name -> (fields, the field the error names)
    "no reading": ((_THREE[0], 0x1F), "_info"),  # combo 31: no combination
    "reading of other cards": ((Hand("4").word, _THREE[1]), "_cards"),  # a single three read on a four
    "cards past the deck": ((0xF, _THREE[1]), "_cards"),
    "rules junk": ((*_THREE, 1, "standard"), "_rules"),
    "count numpy": ((*_THREE, np.int64(1)), "_marked"),
    "count float": ((*_THREE, 1.0), "_marked"),
}


@pytest.mark.parametrize("name", list(JUNK_MARKED))
def test_a_marked_move_with_junk_fields_raises_naming_the_field(name: str) -> None:
    fields, field = JUNK_MARKED[name]
    m = _forged_marked(*fields)
    for read in (lambda: m.marked, lambda: m.move, lambda: pickle.dumps(m)):
        with pytest.raises(InvalidMoveError, match=field):
            read()


def test_a_good_marked_move_reads_and_round_trips() -> None:
    m = MarkedMove(Move("3|single|3|1", _TWO), 1)
    assert m.marked == 1 and m.move == Move("3|single|3|1", _TWO) and pickle.loads(pickle.dumps(m)) == m
    assert MarkedMove("3|single|3|1", 2, "standard").marked == 2  # a preset name, as every rules= takes
    assert type(MarkedMove("3|single|3|1", _Int(2), _TWO)._marked) is int


def test_marked_move_refuses_bad_rules_with_typed_errors() -> None:
    with pytest.raises(InvalidRulesError):
        MarkedMove(Move("3|single|3|1", _TWO), 1, "no such preset")
    forged = object.__new__(Move)
    forged._cards, forged._info, forged._rules = *_THREE, 5
    with pytest.raises(InvalidMoveError, match="_rules"):
        MarkedMove(forged, 1)


# -- MoveList slices exactly as a list does ----------------------------------------------------

ML = legal_moves(Hand("3456789TJ"))  # 7 singles, straights... a few dozen moves


def _same_as_list(s: slice) -> None:
    want = list(ML)[s]
    got = ML[s]
    assert type(got) is type(ML) and list(got) == want and len(got) == len(want)
    assert np.array_equal(got.codes, np.array([m.codes for m in want], dtype=MOVE_DTYPE).reshape(len(want)))
    assert all(m.rules is ML.rules for m in got)


def test_a_zero_step_raises_the_lists_value_error() -> None:
    for s in (slice(None, None, 0), slice(1, 3, 0), slice("a", None, 0), slice(None, None, np.int64(0))):
        with pytest.raises(ValueError, match="^slice step cannot be zero$") as lst:
            list(ML)[s]
        with pytest.raises(InvalidArgumentError, match="^slice step cannot be zero$") as ours:
            ML[s]
        assert str(ours.value) == str(lst.value)


def test_huge_and_odd_bounds_slice_as_a_list() -> None:
    big = 1 << 100
    for s in (slice(None, None, big), slice(None, None, -big), slice(-big, big), slice(big, -big, -1),
              slice(True, None), slice(np.int64(2), np.uint8(9), np.int16(3)), slice(None, None, sys.maxsize),
              slice(None, None, -sys.maxsize - 1), slice(-sys.maxsize - 1, sys.maxsize)):
        _same_as_list(s)


def test_non_integer_bounds_get_invalid_argument_error() -> None:
    for s in (slice("a", None), slice(None, 1.0), slice(None, None, "x")):
        with pytest.raises(InvalidArgumentError, match="must be integers"):
            ML[s]


_BOUND = st.one_of(st.none(), st.integers(-60, 60), st.integers(-(1 << 70), 1 << 70))


@settings(max_examples=300, deadline=None)
@given(_BOUND, _BOUND, _BOUND.filter(lambda b: b != 0))
def test_slices_match_a_plain_list(start: Any, stop: Any, step: Any) -> None:
    _same_as_list(slice(start, stop, step))


# -- `in` on a MoveList answers as on a list of its moves ------------------------------------


class _RaisingIndex:
    def __index__(self) -> int:
        raise RuntimeError("no index today")


def test_membership_matches_a_list_for_marked_and_forged_moves() -> None:
    ml = legal_moves(Hand("33344", decks=2), None, _TWO)
    three = Move("3|single|3|1", _TWO)
    marked = MarkedMove(three, 1)
    assert three in ml and three in list(ml)
    assert (marked in list(ml)) is False and (marked in ml) is False  # a MarkedMove never equals a plain Move
    forged = object.__new__(Move)
    forged._cards, forged._info, forged._rules = three.codes[0], _RaisingIndex(), None
    assert (forged in ml) is False  # no move: in no list (its __index__ is never called)


def test_an_action_space_refuses_a_bool_id_as_game_action_from_id_does() -> None:
    from ddzcore import Game, action_space

    space = action_space()
    assert space[1] == space[np.int64(1)] == Move("3")
    for bad in (True, False, np.bool_(True)):
        with pytest.raises(InvalidMoveError, match="action id"):
            space[bad]
    with pytest.raises(InvalidMoveError):
        Game(seed=1).action_from_id(True)


@pytest.mark.parametrize("flags", ["0", 1.0, -1, 1 << 40, np.int64(0), _UNSET], ids=repr)
@pytest.mark.parametrize("fn", [*ONE_POSITION, lambda h, last, r: legal_moves_batch([h], None, r),
                                lambda h, last, r: count_moves_batch([h], None, r)],
                         ids=["legal_moves", "legal_moves_array", "count_moves", "legal_moves_batch",
                              "count_moves_batch"])
def test_rules_forged_with_a_junk_flag_word_get_invalid_rules_error(fn: Callable[..., Any], flags: Any) -> None:
    r = object.__new__(Rules) if flags is _UNSET else Rules()
    if flags is not _UNSET:
        object.__setattr__(r, "_flags", flags)
    for hand in (HAND, str(HAND)):
        with pytest.raises(InvalidRulesError, match="_flags"):
            fn(hand, None, r)


@pytest.mark.parametrize("entry", ["flags", "MoveList", "beats", "Move.from_codes"])
def test_every_reader_of_a_forged_rules_flag_word_gets_invalid_rules_error(entry: str) -> None:
    from ddzcore import MoveList

    r = Rules()
    object.__setattr__(r, "_flags", "junk")
    read = {"flags": lambda: r.flags, "MoveList": lambda: MoveList(legal_moves("3").codes, r),
            "beats": lambda: Move("4").beats(Move("3"), r), "Move.from_codes": lambda: Move.from_codes(*PAIR.codes, r)}
    with pytest.raises(InvalidRulesError, match="_flags"):
        read[entry]()


# -- the merged tree's review ----------------------------------------------------------------

# A Move forged with an __index__ object in one slot that, while it runs,
# replaces the other slot (or its own), so that the object the fast path saw
# is freed: it must still get InvalidMoveError, never a crash.  In a child
# process, so that a crash fails the test instead of ending the run.
_DROPS_A_SLOT = """
import sys
from ddzcore import Hand, Move, count_moves, legal_moves, legal_moves_array
from ddzcore.errors import InvalidMoveError
mine, other = sys.argv[1], sys.argv[2]
class Evil:
    def __index__(self):
        object.__setattr__(m, other, 0)
        object.__setattr__(m, mine, 0)
        return -1
for call in (legal_moves, legal_moves_array, count_moves):
    m = object.__new__(Move)
    object.__setattr__(m, other, 1)
    object.__setattr__(m, mine, Evil())
    try:
        call(Hand("3456"), m)
    except InvalidMoveError:
        print("typed")
"""


@pytest.mark.parametrize("mine,other", [("_info", "_cards"), ("_cards", "_info")])
def test_a_move_whose_index_frees_its_slots_gets_invalid_move_error(mine: str, other: str) -> None:
    proc = subprocess.run([sys.executable, "-c", _DROPS_A_SLOT, mine, other], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.split() == ["typed"] * 3, (proc.returncode, proc.stderr[-800:])


@pytest.mark.parametrize("threads", [0, -1, 2.5, True])
def test_count_moves_batch_names_a_bad_row_before_a_bad_thread_count(threads: Any) -> None:
    hands = np.array([Hand("345").word, 5], np.uint64)  # row 1: no card word
    for call in (legal_moves_batch, count_moves_batch):
        with pytest.raises(InvalidCardsError, match=r"hands\[1\]"):
            call(hands, threads=threads)
    with pytest.raises(InvalidArgumentError, match="threads"):
        count_moves_batch(hands[:1], threads=threads)
