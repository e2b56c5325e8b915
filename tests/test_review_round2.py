"""Faults a review of the closed-form counting, threads and validation round
found: copies of Game subclasses, simulate's game numbers near 2**64 with
threads, huge thread counts, and unpicklable subclass attributes."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from ddzcore import FiveGame, Game, count_moves_batch, legal_moves_batch, simulate
from ddzcore.errors import RecordError


class Unset(Game):
    __slots__ = ("who",)  # left unset


class Private(Game):
    __slots__ = ("__priv",)  # name-mangled

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.__priv = 1

    def priv(self) -> int:
        return self.__priv


class Text(FiveGame):
    __slots__ = "tag"  # one slot named by a string


class WithDict(Game):
    def __init__(self, who: str, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.who = who


def test_subclass_copies_keep_their_attributes() -> None:
    g = Unset(seed=1)
    assert not hasattr(g.copy(), "who") and g.copy() == g
    g.who = "x"
    assert g.copy().who == "x"
    assert Private(seed=1).copy().priv() == 1
    t = Text(seed=1)
    t.tag = 5
    assert t.copy().tag == 5 and type(t.copy()) is Text
    d = WithDict("alice", seed=1)
    for c in (d.copy(), copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert type(c) is WithDict and c.who == "alice" and c == d


def test_subclass_attribute_shadowing_a_method_round_trips() -> None:
    g = WithDict("bob", seed=3)
    g.escape = "mine"  # type: ignore[assignment,method-assign]
    back = pickle.loads(pickle.dumps(g))
    assert back.escape == "mine" and back == g


def test_changed_slot_name_in_a_pickle_is_a_record_error() -> None:
    g = Unset(seed=3)
    g.who = 1
    data = pickle.dumps(g)
    assert b"\x03who" in data
    with pytest.raises(RecordError):
        pickle.loads(data.replace(b"\x03who", b"\x03wha"))


@pytest.mark.parametrize("first_game, n, threads", [(2**64 - 10, 17, 4), (2**64 - 1, 4, 2)])
def test_simulate_game_numbers_wrap_alike_for_any_thread_count(first_game: int, n: int, threads: int) -> None:
    one = vars(simulate(n, 99, first_game=first_game, record=True))
    many = vars(simulate(n, 99, first_game=first_game, record=True, threads=threads))
    for k, v in one.items():
        if isinstance(v, np.ndarray):
            assert np.array_equal(v, many[k]), k


def test_huge_thread_counts_are_capped_not_overflowed() -> None:
    hands = np.array([0x44, 0x1111], np.uint64)
    for t in (2**31, 2**63):
        assert np.array_equal(count_moves_batch(hands, threads=t), count_moves_batch(hands))
        m, o = legal_moves_batch(hands, threads=t)
        m1, o1 = legal_moves_batch(hands)
        assert np.array_equal(m, m1) and np.array_equal(o, o1)
