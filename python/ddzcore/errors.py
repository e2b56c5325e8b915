"""Typed errors.  All subclass ``ValueError`` so ``except ValueError`` catches them."""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterable, TypeVar, cast

__all__ = [
    "DdzError",
    "InvalidCardsError",
    "InvalidMoveError",
    "AmbiguousMoveError",
    "IllegalMoveError",
    "IllegalActionError",
    "InvalidDealError",
    "RecordError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidArgumentError",
    "MoveIndexError",
    "EnvActionError",
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


class InvalidRulesError(DdzError):
    """A ``Rules`` field of the wrong type or value (ints must be exact
    ``int``, not ``bool`` or ``float``), an unknown preset name, or a
    ``rules=`` argument that is neither a ``Rules`` nor a preset name."""


class InvalidStateError(DdzError):
    """A play state (``PlayState``) that no game reaches: bad seats or
    counters, or a pickle whose position, counters or undo history do not
    fit together (each undo step must be a legal move of the state before
    it, docs/rules.md §3)."""


class InvalidArgumentError(DdzError):
    """An argument that is not cards, a move or rules and is out of range or
    of the wrong type or dtype: a count, a depth, a game number, a batch
    array that is not ``uint64`` / ``MOVE_DTYPE``, an ``out=`` buffer."""


class MoveIndexError(InvalidArgumentError, IndexError):
    """A move index outside ``0 <= i < count``; also an ``IndexError``."""


class EnvActionError(IllegalActionError, InvalidArgumentError):
    """An action given to a learning environment (``ddzcore.envs``) that is
    not an integer id (a float, a bool, an array that is not 0-d) or whose
    id is not set in the current action mask (docs/rules.md §3-8).  The
    message names the environment, the agent and the action; the game is
    left unchanged.  ``env``, ``agent`` and ``action`` hold them."""

    def __init__(self, message: str, env: str = "", agent: object = None, action: object = None) -> None:
        super().__init__(message)
        self.env, self.agent, self.action = env, agent, action


_F = TypeVar("_F", bound=Callable[..., Any])


def record_errors(read: _F) -> _F:
    """Decorate a function that reads a game record so that every failure a
    malformed record can cause (a field of the wrong type, a missing key, a
    bad value, an action that does not replay) raises ``RecordError`` naming
    it, never ``TypeError``, ``KeyError``, ``AttributeError``, ``IndexError``
    or a bare ``ValueError``: a record is untrusted input."""

    @functools.wraps(read)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        except RecordError:
            raise
        except (TypeError, KeyError, AttributeError, IndexError, ValueError, OverflowError, RecursionError) as e:
            raise RecordError(f"malformed record ({type(e).__name__}: {e})") from e

    return cast(_F, checked)
