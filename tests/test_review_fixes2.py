"""Faults the last review left open, each reproduced here (these tests
failed before their fix): bad input gets a typed error (a ``ValueError``
subclass from ``ddzcore.errors``) naming it, with no partial state change.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from ddzcore import MOVE_DTYPE, FiveGame, Game, Move, Rules, legal_moves_batch, moves_array
from ddzcore.errors import IllegalActionError, IllegalMoveError, InvalidMoveError, RecordError
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
