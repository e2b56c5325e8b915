# cython: language_level=3
"""The exception classes of ddzcore (all ``ValueError`` subclasses), in a
compiled leaf module so that the other compiled modules raise them without
importing the Python layer.  ``ddzcore.errors`` re-exports them and
documents them; each class's ``__module__`` is ``ddzcore.errors``, so names,
pickles and ``except`` clauses are the same as when they lived there.
"""

from cpython.number cimport PyNumber_Index

import re

#: The most characters of a user's input an error message quotes (longer inputs end in "…").
QUOTE_LIMIT = 60
_QUOTED = re.compile("'[^'\n]*'|\"[^\"\n]*\"")  # quoted texts, paired left to right


def _clip(m):
    text = m.group(0)
    return text if len(text) <= QUOTE_LIMIT + 2 else f"{text[:QUOTE_LIMIT + 1]}…{text[-1]}"


class DdzError(ValueError):
    """Base class of every error ddzcore raises for bad input.  A quoted
    input longer than ``QUOTE_LIMIT`` characters is cut to its first 60 in
    the message (``'3333…'``), so a long bad input never floods the screen."""

    __module__ = "ddzcore.errors"

    def __init__(self, *args):
        if args and isinstance(args[0], str):
            args = (_QUOTED.sub(_clip, args[0]),) + args[1:]
        super().__init__(*args)


class InvalidCardsError(DdzError):
    """Card text or a card word that is not a valid set of cards (docs/rules.md §1):
    a bad character, more copies of a rank than the deck holds, too many jokers."""

    __module__ = "ddzcore.errors"


class InvalidMoveError(DdzError):
    """Cards, or a ``CARDS|COMBO|MAIN|LENGTH`` text, that are not a valid
    combination (docs/rules.md §2)."""

    __module__ = "ddzcore.errors"


class AmbiguousMoveError(InvalidMoveError):
    """Cards that have several readings where one was needed; ``readings``
    lists them (each a ``Move``)."""

    __module__ = "ddzcore.errors"

    def __init__(self, message, readings=()):
        super().__init__(message)
        self.readings = list(readings)


class IllegalMoveError(DdzError):
    """A valid combination that is not legal here: not contained in the hand,
    or not beating the move to beat (docs/rules.md §2-3)."""

    __module__ = "ddzcore.errors"


class IllegalActionError(IllegalMoveError):
    """An action that is not legal in the game's current state (docs/rules.md §3-6):
    the wrong phase or player, a move not in the hand or not beating the last
    one, a pass on a lead, a bid not above the last, escaping a finished game.
    The game is left unchanged."""

    __module__ = "ddzcore.errors"


class InvalidDealError(InvalidCardsError):
    """A given deal that is not one deck dealt 17/17/17 + 3 bottom cards, or
    an end-game position whose hands overlap or exceed the deck (docs/rules.md §4);
    with five players, not two decks dealt 5 × 21 + 3, or a marked card that
    is a joker or not dealt to a player (docs/rules.md §8)."""

    __module__ = "ddzcore.errors"


class RecordError(DdzError):
    """A game record (JSON) that is malformed, or whose replay does not reach
    the recorded result."""

    __module__ = "ddzcore.errors"


class InvalidRulesError(DdzError):
    """A ``Rules`` field of the wrong type or value (ints must be exact
    ``int``, not ``bool`` or ``float``), an unknown preset name, or a
    ``rules=`` argument that is neither a ``Rules`` nor a preset name."""

    __module__ = "ddzcore.errors"


class InvalidStateError(DdzError):
    """A play state (``PlayState``) that no game reaches: bad seats or
    counters, or a pickle whose position, counters or undo history do not
    fit together (each undo step must be a legal move of the state before
    it, docs/rules.md §3)."""

    __module__ = "ddzcore.errors"


class InvalidArgumentError(DdzError):
    """An argument that is not cards, a move or rules and is out of range or
    of the wrong type or dtype: a count, a depth, a game number, a batch
    array that is not ``uint64`` / ``MOVE_DTYPE``, an ``out=`` buffer."""

    __module__ = "ddzcore.errors"


class MoveIndexError(InvalidArgumentError, IndexError):
    """A move index outside ``0 <= i < count``; also an ``IndexError``."""

    __module__ = "ddzcore.errors"


class EnvActionError(IllegalActionError, InvalidArgumentError):
    """An action given to a learning environment (``ddzcore.envs``) that is
    not an integer id (a float, a bool, an array that is not 0-d) or whose
    id is not set in the current action mask (docs/rules.md §3-8).  The
    message names the environment, the agent and the action; the game is
    left unchanged.  ``env``, ``agent`` and ``action`` hold them."""

    __module__ = "ddzcore.errors"

    def __init__(self, message, env="", agent=None, action=None):
        super().__init__(message)
        self.env, self.agent, self.action = env, agent, action


class ConcurrentUseError(DdzError, RuntimeError):
    """One object that is not thread-safe (a solver search behind a
    ``SolveResult``) used by two threads at once: the caller must give each
    thread its own.  Also a ``RuntimeError``."""

    __module__ = "ddzcore.errors"


class EnvStateError(DdzError):
    """A learning environment (``ddzcore.envs``) asked to step when it has no
    game to step: before its first ``reset()``, or after a game left the
    kernel's limits (more than 1024 legal moves, or a legal move outside the
    rules' action space, docs/rules.md §2), which needs ``reset()``.  The
    message says which; ``env`` holds the game's index (``None`` when the
    error is not one game's)."""

    __module__ = "ddzcore.errors"

    def __init__(self, message, env=None):
        super().__init__(message)
        self.env = env


def as_index(value, what, error=InvalidArgumentError):
    """``value`` as an ``int`` read through ``__index__`` (an ``int``, a
    NumPy integer, any integer type; a ``bool`` is refused), else ``error``
    (default ``InvalidArgumentError``) naming ``what``, chained from whatever
    ``__index__`` raised (``TypeError`` for a non-integer, or any error of its
    own): the one place the compiled and Python layers read an int argument
    that way."""
    if value is True or value is False:
        raise error(f"{what} must be an integer, not {value!r}")
    try:
        return PyNumber_Index(value)
    except Exception as e:
        raise error(f"{what} must be an integer, not {value!r}") from e
