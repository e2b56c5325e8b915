"""Typed errors.  All subclass ``ValueError`` so ``except ValueError`` catches them.

The classes are defined in the compiled leaf module ``ddzcore._errors`` (so
the compiled modules raise them without importing the Python layer) and
belong to this module (``__module__``).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar, cast

from ._errors import (QUOTE_LIMIT, AmbiguousMoveError, DdzError, EnvActionError, IllegalActionError, IllegalMoveError,
                      InvalidArgumentError, InvalidCardsError, InvalidDealError, InvalidMoveError, InvalidRulesError,
                      InvalidStateError, MoveIndexError, RecordError, EnvStateError, ConcurrentUseError)

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
    "ConcurrentUseError",
    "EnvStateError",
]


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
