"""Faults the last review left open, each reproduced here (these tests
failed before their fix): bad input gets a typed error (a ``ValueError``
subclass from ``ddzcore.errors``) naming it, with no partial state change.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ddzcore import MOVE_DTYPE, Move, Rules, moves_array
from ddzcore.errors import InvalidMoveError


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
