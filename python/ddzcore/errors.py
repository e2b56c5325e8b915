"""Typed errors.  All subclass ``ValueError`` so ``except ValueError`` catches them."""

from __future__ import annotations

import re
from typing import Any, Iterable

__all__ = [
    "DdzError",
    "InvalidCardsError",
    "InvalidMoveError",
    "AmbiguousMoveError",
    "IllegalMoveError",
    "IllegalActionError",
    "InvalidDealError",
    "RecordError",
]


#: The most characters of a user's input an error message quotes (longer inputs end in "…").
QUOTE_LIMIT = 60
_QUOTED = re.compile("'[^'\n]*'|\"[^\"\n]*\"")  # quoted texts, paired left to right


def _clip(m: "re.Match[str]") -> str:
    text = m.group(0)
    return text if len(text) <= QUOTE_LIMIT + 2 else f"{text[:QUOTE_LIMIT + 1]}…{text[-1]}"


class DdzError(ValueError):
    """Base class of every error ddzcore raises for bad input.  A quoted
    input longer than ``QUOTE_LIMIT`` characters is cut to its first 60 in
    the message (``'3333…'``), so a long bad input never floods the screen."""

    def __init__(self, *args: Any) -> None:
        if args and isinstance(args[0], str):
            args = (_QUOTED.sub(_clip, args[0]),) + args[1:]
        super().__init__(*args)


class InvalidCardsError(DdzError):
    """Card text or a card word that is not a valid set of cards (docs/rules.md §1):
    a bad character, more copies of a rank than the deck holds, too many jokers."""


class InvalidMoveError(DdzError):
    """Cards, or a ``CARDS|COMBO|MAIN|LENGTH`` text, that are not a valid
    combination (docs/rules.md §2)."""


class AmbiguousMoveError(InvalidMoveError):
    """Cards that have several readings where one was needed; ``readings``
    lists them (each a ``Move``)."""

    def __init__(self, message: str, readings: Iterable[Any] = ()) -> None:
        super().__init__(message)
        self.readings = list(readings)


class IllegalMoveError(DdzError):
    """A valid combination that is not legal here: not contained in the hand,
    or not beating the move to beat (docs/rules.md §2-3)."""


class IllegalActionError(IllegalMoveError):
    """An action that is not legal in the game's current state (docs/rules.md §3-6):
    the wrong phase or player, a move not in the hand or not beating the last
    one, a pass on a lead, a bid not above the last, escaping a finished game.
    The game is left unchanged."""


class InvalidDealError(InvalidCardsError):
    """A given deal that is not one deck dealt 17/17/17 + 3 bottom cards, or
    an end-game position whose hands overlap or exceed the deck (docs/rules.md §4);
    with five players, not two decks dealt 5 × 21 + 3, or a marked card that
    is a joker or not dealt to a player (docs/rules.md §8)."""


class RecordError(DdzError):
    """A game record (JSON) that is malformed, or whose replay does not reach
    the recorded result."""
