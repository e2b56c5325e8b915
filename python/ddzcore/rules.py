"""House rules as one immutable object (RULES.md; defaults = RULES.md).

Every switch is a keyword; presets reproduce other engines' whole move sets
(``Rules.preset("rlcard")``, ``Rules.preset("openspiel")``), checked by the
action-space totals in the tests.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["Rules"]

# Kernel flag bits (src/ddzcore/bits.pxd).
_F_FOUR_TWO = 1
_F_KICKER_REPEAT = 2
_F_JOKERS_BOTH = 4
_F_WING_TRIO_ADJ = 8
_F_KICKER_BOMB = 16
_F_TWO_DECKS = 32


@dataclass(frozen=True)
class Rules:
    """A rule set.  Immutable and hashable; ``dataclasses.replace`` or
    ``rules.replace(...)`` derives a variant.

    Move generation (RULES.md section 2):

    - ``four_two``: four-with-two (四带二) exists, with two singles or two pairs.
    - ``kicker_repeat``: single kickers may repeat a rank (5555+3+3, 333444+7+7,
      333444555+888).
    - ``jokers_both_kickers``: the two jokers may both be single kickers
      (666777+B+R); they are never a kicker *pair* either way.
    - ``wing_trio_adjacent``: a plane's single wings may be three cards of a
      rank adjacent to the chain (333444555666+777+8); RLCard forbids it.
    - ``kicker_bomb``: kickers may hold all four cards of a rank (RULES.md's
      decision: never).
    - ``decks``: 1, or 2 for the five-player two-deck rules (RULES.md 8).
    - ``wild``: the laizi (癞子) wild rank for analysis, a rank character of
      ``3..2`` (``"7"``; ``Rank`` or ``"10"`` accepted and normalised), or
      ``None``; its cards stand for other ranks (RULES.md 7).  One deck only.

    Raises ``ValueError`` for an unknown preset or a bad field value.
    """

    four_two: bool = True
    kicker_repeat: bool = True
    jokers_both_kickers: bool = True
    wing_trio_adjacent: bool = True
    kicker_bomb: bool = False
    decks: int = 1
    wild: "str | None" = None

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        # RLCard: 27,471 card sets.
        "rlcard": {"jokers_both_kickers": False, "wing_trio_adjacent": False},
        # OpenSpiel: 25,661 card sets as 26,053 readings.
        "openspiel": {"four_two": False, "jokers_both_kickers": False},
    }

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.type in (bool, "bool") and not isinstance(v, bool):
                raise ValueError(f"Rules.{f.name} must be True or False, not {v!r}")
        if self.decks not in (1, 2):
            raise ValueError(f"Rules.decks must be 1 or 2, not {self.decks!r}")
        if self.wild is not None:
            from .cards import Rank

            try:
                rank = Rank.parse(self.wild)
            except ValueError:
                rank = None
            if rank is None or rank > Rank.TWO:
                raise ValueError(f"Rules.wild must be a rank 3..2 or None, not {self.wild!r}")
            if self.decks != 1:
                raise ValueError("Rules.wild (laizi) needs decks=1")
            object.__setattr__(self, "wild", rank.char)
        object.__setattr__(self, "_flags", self._make_flags())

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> "Rules":
        """A named rule set ("standard", "rlcard", "openspiel"), optionally adjusted."""
        try:
            base = cls.PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown rules preset {name!r}; choose one of {sorted(cls.PRESETS)}") from None
        return cls(**{**base, **overrides})

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    @property
    def flags(self) -> int:
        """The kernel's rule-flag word (``int``)."""
        return self._flags  # type: ignore[attr-defined,no-any-return]

    def _make_flags(self) -> int:
        return (
            _F_FOUR_TWO * self.four_two
            | _F_KICKER_REPEAT * self.kicker_repeat
            | _F_JOKERS_BOTH * self.jokers_both_kickers
            | _F_WING_TRIO_ADJ * self.wing_trio_adjacent
            | _F_KICKER_BOMB * self.kicker_bomb
            | _F_TWO_DECKS * (self.decks == 2)
            | (0 if self.wild is None else ("3456789TJQKA2".index(self.wild) + 1) << 8)
        )


STANDARD = Rules()
