"""Faults the last review left open, each reproduced here (these tests
failed before their fix): bad input gets a typed error (a ``ValueError``
subclass from ``ddzcore.errors``) naming it, with no partial state change.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from ddzcore import (MOVE_DTYPE, FiveGame, Game, Hand, MarkedMove, Move, PlayState, Rules, action_space, classify,
                     count_moves, hands_array, hint, legal_moves, legal_moves_array, legal_moves_batch, min_plays,
                     moves_array, solve)
from ddzcore.errors import (DdzError, IllegalActionError, IllegalMoveError, InvalidArgumentError, InvalidCardsError,
                            InvalidMoveError, MoveIndexError, RecordError)
from ddzcore.game.records import action_text
from ddzcore.game.settlement import FiveSettlement, Settlement


def _forged(cards: Any, info: Any) -> Move:
    m = object.__new__(Move)
    m._cards = cards
    m._info = info
    m._rules = None
    return m


# -- moves_array refuses a forged Move (docs/rules.md §2) --------------------------------------

FORGED_READINGS = {
    "junk combo": (Move("3").codes[0], 31 | (15 << 5) | (1 << 9)),
    "two cards read as a single": (Move("33").codes[0], Move("3").codes[1]),
    "pass holding cards": (Move("3").codes[0], 0),
    "not words": ("3", None),
}


@pytest.mark.parametrize("name", list(FORGED_READINGS))
def test_moves_array_refuses_a_forged_move(name: str) -> None:
    m = _forged(*FORGED_READINGS[name])
    with pytest.raises(InvalidMoveError, match="no move"):
        moves_array([m])
    with pytest.raises(InvalidMoveError):
        moves_array(["33", m])


def test_moves_array_refuses_a_move_of_other_rules_and_keeps_good_ones() -> None:
    laizi = Rules(laizi=True, wild="4")
    soft = Move("3334|soft_bomb|3|1", laizi)
    assert moves_array([soft], laizi)["info"][0] == soft.codes[1]
    with pytest.raises(InvalidMoveError):
        moves_array([soft])  # no soft bomb under the standard rules
    got = moves_array(["33", None, Move("3")])
    assert got.tolist() == [Move("33").codes, (0, 0), Move("3").codes]
    assert got.dtype == MOVE_DTYPE and got.shape == (3,)


# -- subclasses of Game / FiveGame pickle, checked as the games are (docs/rules.md §3-§8) -----

class MyGame(Game):
    """A user subclass with attributes of its own (instance dict)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.label = "table 7"


class SlottedGame(Game):
    __slots__ = ("note", "unset")


class MyFiveGame(FiveGame):
    pass


def _played(g: Any, steps: int, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal():
            break
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return g


@pytest.mark.parametrize("make", [lambda: MyGame(seed=3), lambda: _slotted(), lambda: MyFiveGame(seed=3)])
def test_a_subclass_game_pickles_with_its_own_attributes(make: Any) -> None:
    g = _played(make(), 12)
    back = pickle.loads(pickle.dumps(g))
    assert type(back) is type(g) and back == g and back.history == g.history
    assert back._own_state() == g._own_state()
    for _ in range(30):  # the same future (redeals from the restored generator included)
        if g.is_terminal():
            break
        legal = g.legal_actions()
        assert list(back.legal_actions()) == list(legal)
        g.apply(legal[-1])
        back.apply(legal[-1])
    assert back == g


def _slotted() -> SlottedGame:
    g = SlottedGame(seed=5)
    g.note = ["kept"]
    return g


def test_own_attributes_are_what_a_subclass_adds() -> None:
    assert MyGame(seed=1)._own_state() == {"label": "table 7"}
    assert _slotted()._own_state() == {"note": ["kept"]}  # an unset slot stays unset
    assert Game(seed=1)._own_state() == {} and len(Game(seed=1).__reduce__()) == 2  # the format of before


def _reduced(g: Any) -> tuple[Any, list[Any], Any]:
    fn, args, state = g.__reduce__()
    return fn, list(args), state


def _tamper(g: Any, change: Any) -> None:
    fn, args, state = _reduced(g)
    state = change(args, state)
    with pytest.raises(RecordError):
        obj = fn(*args)
        obj.__setstate__(state)


@pytest.mark.parametrize("g", [_played(MyGame(seed=2), 10), _played(MyFiveGame(seed=2), 10)],
                         ids=["three", "five"])
def test_a_changed_subclass_pickle_raises_record_error(g: Any) -> None:
    def action(args: list[Any], state: Any) -> Any:
        args[0] = dict(args[0], actions=args[0]["actions"][:-1])
        return state

    def other_class(args: list[Any], state: Any) -> Any:
        args[3] = SlottedGame if isinstance(g, Game) else MyGame
        return state

    def not_a_class(args: list[Any], state: Any) -> Any:
        args[3] = "MyGame"
        return state

    def base_class(args: list[Any], state: Any) -> Any:
        args[3] = g._game_class()
        return state

    def overwrite_state(args: list[Any], state: Any) -> Any:
        return {**state, "_hist": []}

    def overwrite_core(args: list[Any], state: Any) -> Any:
        return {**state, "_cur": 2}

    def not_a_dict(args: list[Any], state: Any) -> Any:
        return [("label", 1)]

    for change in (action, other_class, not_a_class, base_class, overwrite_state, overwrite_core, not_a_dict):
        _tamper(g, change)
    before = g.copy()
    fn, args, state = _reduced(g)
    back = fn(*args)
    with pytest.raises(RecordError):
        back.__setstate__({"_hist": [], "extra": 1})
    assert back == before and not hasattr(back, "extra")  # nothing set


def test_a_subclass_game_unpickled_from_bytes_with_a_changed_attribute_name_is_refused() -> None:
    g = MyGame(seed=4)
    g.__dict__["zzzzz"] = 1
    data = pickle.dumps(g)
    assert b"zzzzz" in data
    with pytest.raises(RecordError):
        pickle.loads(data.replace(b"zzzzz", b"_hist"))


# -- docstrings name the errors raised ---------------------------------------------------------

def test_action_id_raises_what_its_docstring_says() -> None:
    g = Game(seed=1)
    doc = Game.action_id.__doc__ or ""
    with pytest.raises(IllegalMoveError) as e:
        g.action_id(Move("33333", Rules(decks=2)))  # a two-deck bomb: not in the one-deck action space
    assert type(e.value) is IllegalMoveError and "``IllegalMoveError`` for a move outside" in doc
    with pytest.raises(IllegalActionError):
        Game(Rules(laizi=True), seed=1).action_id(Move("3"))
    with pytest.raises(InvalidMoveError):
        g.action_id("no such action")


@pytest.mark.parametrize("cls", [Settlement, FiveSettlement])
@pytest.mark.parametrize("bad", [{}, {"multiplier": {}}, [], {"multiplier": []}, None])
def test_settlement_from_dict_raises_record_error(cls: Any, bad: Any) -> None:
    with pytest.raises(RecordError):
        cls.from_dict(bad)
    assert "RecordError" in (cls.from_dict.__doc__ or "")


# -- legal_moves_batch documents what a too-small out holds afterwards ------------------------

def test_a_too_small_out_is_written_into_as_documented() -> None:
    out = np.zeros(3, dtype=MOVE_DTYPE)
    moves, offsets = legal_moves_batch(["33445566", "345678"], out=out)
    assert len(moves) > len(out) and not np.shares_memory(moves, out)
    assert out.tolist() != [(0, 0)] * 3  # written into, as the docstring says
    doc = " ".join((legal_moves_batch.__doc__ or "").split())
    assert "A too-small ``out`` is written into" in doc


# -- forged Hands and MarkedMoves get typed errors (docs/rules.md §1, §8) ----------------------

_UNSET = object()


def _forged_hand(word: Any = _UNSET, decks: Any = _UNSET) -> Hand:
    h = object.__new__(Hand)
    if word is not _UNSET:
        h._word = word
    if decks is not _UNSET:
        h._decks = decks
    return h


FORGED_HANDS = {
    "unset": (_UNSET, _UNSET),
    "no decks": (Hand("33").word, _UNSET),
    "text word": ("33", 1),
    "float word": (3.0, 1),
    "negative": (-1, 1),
    "too big": (1 << 64, 1),
    "five threes": (5, 1),
    "decks 7": (Hand("33").word, 7),
    "decks text": (Hand("33").word, "1"),
}

HAND_ENTRIES: dict[str, Any] = {
    "len": len, "word": lambda h: h.word, "decks": lambda h: h.decks, "count": lambda h: h.count("3"),
    "iter": list, "bool": bool, "hash": hash, "eq": lambda h: h == Hand("33"), "eq other": lambda h: Hand("33") == h,
    "le": lambda h: h <= Hand("345"), "ge": lambda h: Hand("345") >= h, "in": lambda h: h in Hand("345"),
    "add": lambda h: Hand("345") + h, "radd": lambda h: h + Hand("345"), "sub": lambda h: Hand("345") - h,
    "Hand(h)": Hand, "pickle": pickle.dumps,
    "legal_moves": legal_moves, "legal_moves_array": legal_moves_array, "count_moves": count_moves,
    "legal_moves following": lambda h: legal_moves(h, "4"), "hands_array": lambda h: hands_array([h]),
    "legal_moves_batch": lambda h: legal_moves_batch([h]), "classify": classify,
    "Move.from_parts": lambda h: Move.from_parts(h, "pair", "3", 1),
    "Game.endgame": lambda h: Game.endgame([h, "4", "5"], 0), "PlayState": lambda h: PlayState([h, "4", "5"], 0, 0),
    "min_plays": min_plays, "solve": lambda h: solve([h, "4", "5"]), "hint": lambda h: hint(h, playouts=0),
}


_METHODS = ("len", "word", "decks", "count", "iter", "bool", "hash", "eq", "eq other", "le", "ge", "in", "pickle")


@pytest.mark.parametrize("entry", list(HAND_ENTRIES))
def test_a_forged_hand_gets_invalid_cards_error(entry: str) -> None:
    for name, fields in FORGED_HANDS.items():
        h = _forged_hand(*fields)
        assert isinstance(str(h), str) and isinstance(repr(h), str)  # errors can name it
        if name == "five threes" and entry in _METHODS:
            continue  # a word two decks hold: the hand's own methods read it, one-deck rules refuse it
        # a word two decks hold is Hand("33333", decks=2)'s: refused as that is (hint: IllegalActionError)
        with pytest.raises(DdzError if name == "five threes" else InvalidCardsError):
            HAND_ENTRIES[entry](h)


def test_a_forged_hand_with_a_good_word_still_counts_and_good_hands_are_unchanged() -> None:
    assert legal_moves(_forged_hand(Hand("33").word, 1)) == legal_moves("33")
    assert Hand("33") + Hand("4") == Hand("334") and Hand("3345") - "34" == Hand("35")
    assert len(Hand("33", decks=2)) == 2 and Hand("33").decks == 1 and hash(Hand("3")) == hash(Hand("3"))


def _forged_marked(cards: Any = _UNSET, info: Any = _UNSET, marked: Any = _UNSET) -> MarkedMove:
    m = object.__new__(MarkedMove)
    for k, v in (("_cards", cards), ("_info", info), ("_marked", marked)):
        if v is not _UNSET:
            setattr(m, k, v)
    m._rules = None
    return m


_THREE = Move("3|single|3|1", Rules(decks=2)).codes
FORGED_MARKED = {
    "unset": (_UNSET, _UNSET, _UNSET),
    "no count": (*_THREE, _UNSET),
    "count text": (*_THREE, "1"),
    "count 5": (*_THREE, 5),
    "count bool": (*_THREE, True),
    "junk cards": ("3", _THREE[1], 1),
    "a pass": (0, 0, 1),
}


def _five_in_play() -> FiveGame:
    g = FiveGame(seed=1)
    rng = np.random.default_rng(1)
    while g.phase.name != "PLAY":
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    g._face[g.current_player()] = 1  # the seat holds a marked-face card whose play matters
    g._revealed = False
    return g


@pytest.mark.parametrize("name", list(FORGED_MARKED))
def test_a_forged_marked_move_gets_typed_errors(name: str) -> None:
    m = _forged_marked(*FORGED_MARKED[name])
    assert isinstance(str(m), str) and isinstance(repr(m), str) and isinstance(hash(m), int)
    if name != "count bool":  # True == 1
        assert m != MarkedMove(Move("3|single|3|1", Rules(decks=2)), 1)
    for read in (lambda: m.marked, lambda: m.move, lambda: pickle.dumps(m)):
        with pytest.raises(InvalidMoveError):
            read()
    g = _five_in_play()
    before = g.copy()
    with pytest.raises(IllegalMoveError):
        g.apply(m)
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        g.push(m)
    with pytest.raises(InvalidMoveError):
        g.action_id(m)
    assert g == before and g.history == before.history
    if name in ("unset", "junk cards"):
        with pytest.raises(InvalidMoveError):
            action_text(0, m)
        with pytest.raises(InvalidMoveError):
            MarkedMove(m, 1)


# -- an int read through __index__ gets InvalidArgumentError, chained (ddzcore._errors.as_index) --

class _RaisingIndex:
    """An int-like whose ``__index__`` (and ``__int__``) raise an error of their own."""

    def __index__(self) -> int:
        raise RuntimeError("no index today")

    def __int__(self) -> int:
        raise RuntimeError("no int today")


INT_ARGUMENTS: dict[str, Any] = {
    "MoveList[i]": lambda v: legal_moves("3456")[v],
    "MoveList[i:]": lambda v: legal_moves("3456")[v:],
    "Game(seed)": lambda v: Game(seed=v),
    "FiveGame(seed)": lambda v: FiveGame(seed=v),
    "action_space(max_cards)": lambda v: action_space(max_cards=v),
    "move record word": lambda v: legal_moves(Hand("3456789"), Move._from_codes(Move("3").codes[0], v)),
    "move record word (array)": lambda v: legal_moves_array(Hand("3456789"), Move._from_codes(v, v)),
}


@pytest.mark.parametrize("entry", list(INT_ARGUMENTS))
def test_a_raising_index_gets_a_typed_error_chained_from_it(entry: str) -> None:
    with pytest.raises(DdzError) as e:
        INT_ARGUMENTS[entry](_RaisingIndex())
    assert isinstance(e.value.__cause__, RuntimeError) and "today" in str(e.value.__cause__)
    expected = InvalidMoveError if entry.startswith("move record") else InvalidArgumentError
    assert isinstance(e.value, expected)


@pytest.mark.parametrize("entry", [e for e in INT_ARGUMENTS if not e.startswith("move record")])
def test_non_integers_get_invalid_argument_error(entry: str) -> None:
    for bad in ("1", 1.0, [1]) if entry.endswith(":]") else ("1", 1.0, True, [1]):  # a slice takes bools, as a list's
        with pytest.raises(InvalidArgumentError):
            INT_ARGUMENTS[entry](bad)


def test_integers_of_any_type_still_read() -> None:
    moves = legal_moves("3456")
    assert moves[np.int64(1)] == moves[1] and moves[-1] == moves[len(moves) - 1]
    assert list(moves[np.int8(1):]) == list(moves)[1:]
    with pytest.raises(MoveIndexError):  # an IndexError too, as for a list
        moves[len(moves)]
    with pytest.raises(IndexError):
        moves[-10 ** 30]
    assert Game(seed=np.uint32(3)) == Game(seed=3) and FiveGame(seed=np.int64(3)) == FiveGame(seed=3)
    with pytest.raises(InvalidArgumentError):
        Game(seed=-1)
    assert Game(seed=np.random.SeedSequence(3)) == Game(seed=np.random.PCG64(np.random.SeedSequence(3)))
    assert len(action_space(max_cards=np.int16(20))) == len(action_space())
    with pytest.raises(InvalidArgumentError):
        action_space(max_cards=-1)
