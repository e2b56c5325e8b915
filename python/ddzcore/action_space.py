"""The whole action space of a rule set, with a dense integer id per move.

For machine-learning users (docs/rules.md §2; DESIGN.md "Action-space totals"):
every distinct move (cards + reading) of at most ``max_cards`` cards that one
deck can hold, plus pass.  Ids are stable for a rule set: pass is 0, then the
moves sorted by (combo, length, main rank, card word).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

import numpy as np

from . import _kernel
from .errors import IllegalMoveError, InvalidMoveError
from .moves import MOVE_DTYPE, Move
from .rules import Rules

__all__ = ["ActionSpace", "action_space"]

_FULL_DECK = {1: sum(4 << (4 * r) for r in range(13)) + (1 << 52) + (1 << 56),
              2: sum(8 << (4 * r) for r in range(13)) + (2 << 52) + (2 << 56)}


def _card_totals(cards: np.ndarray) -> np.ndarray:
    total = np.zeros(len(cards), dtype=np.int64)
    for r in range(15):
        total += ((cards >> np.uint64(4 * r)) & np.uint64(0xF)).astype(np.int64)
    return total


class ActionSpace:
    """Every move of a rule set with its dense id.

    ``len(space)``; ``space[i]`` -> ``Move``; ``space.index(move)`` -> id
    (``IllegalMoveError`` for a move outside the space); ``codes`` is the
    ``MOVE_DTYPE`` array of shape ``(len(space),)`` in id order.
    """

    def __init__(self, rules: Rules, max_cards: int) -> None:
        self.rules = rules
        self.max_cards = max_cards
        moves = _kernel.generate_array(_FULL_DECK[rules.decks], 0, 0, rules.flags)
        moves = moves[_card_totals(moves["cards"]) <= max_cards]
        info = moves["info"]
        order = np.lexsort((moves["cards"], (info >> np.uint64(5)) & np.uint64(0xF),
                            (info >> np.uint64(9)) & np.uint64(0x1F), info & np.uint64(0x1F)))
        self.codes: np.ndarray = np.concatenate([np.zeros(1, MOVE_DTYPE), moves[order]])
        self._ids = {(c << 64) | i: k for k, (c, i) in enumerate(self.codes.tolist())}

    def __len__(self) -> int:
        return len(self.codes)

    def __iter__(self) -> Iterator[Move]:
        for c, i in self.codes.tolist():
            yield Move._from_codes(c, i)

    def __getitem__(self, action_id: int) -> Move:
        if not isinstance(action_id, (int, np.integer)) or not 0 <= action_id < len(self.codes):
            raise InvalidMoveError(f"action id {action_id!r} is not in 0..{len(self.codes) - 1}")
        c, i = self.codes[int(action_id)].tolist()
        return Move._from_codes(c, i)

    def index(self, move: Move) -> int:
        """The id of ``move``."""
        c, i = move.codes
        try:
            return self._ids[(c << 64) | i]
        except KeyError:
            raise IllegalMoveError(f"{move} is not in the action space of {self.rules!r}") from None

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and ((move.codes[0] << 64) | move.codes[1]) in self._ids

    def card_sets(self) -> int:
        """How many distinct card sets the moves use (pass excluded)."""
        return len(np.unique(self.codes["cards"][1:]))

    def __repr__(self) -> str:
        return f"<ActionSpace {len(self)} ids ({self.rules!r}, max_cards={self.max_cards})>"


@lru_cache(maxsize=16)
def action_space(rules: Rules | None = None, max_cards: int = 20) -> ActionSpace:
    """The action space of ``rules`` (cached): standard 29,726 moves + pass.

    ``max_cards`` caps a move's size (20 = the landlord's hand with one deck).
    """
    return ActionSpace(rules or Rules(), max_cards)
