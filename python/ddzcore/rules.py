"""House rules as one immutable object (docs/rules.md §9; the defaults are the rule book's rules).

Every switch is a keyword; presets reproduce other engines' whole move sets
(``Rules.preset("rlcard")``, ``Rules.preset("openspiel")``), checked by the
action-space totals in the tests.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import InvalidRulesError

__all__ = ["Rules"]

# Kernel flag bits (src/ddzcore/bits.pxd).
_F_FOUR_TWO = 1
_F_KICKER_REPEAT = 2
_F_JOKERS_BOTH = 4
_F_WING_TRIO_ADJ = 8
_F_KICKER_BOMB = 16
_F_TWO_DECKS = 32
_F_WING_BOMB = 1 << 14
_F_DZ_READ = 1 << 15
_F_SHUTTLE = 1 << 18  # bits 18-21: Botzone's combinations (bit 18: the shuttle)

#: Combinations a rule set may ban (禁手, ``Rules.banned``), with their Combo
#: values; the kernel keeps one flag bit for each (bits.pxd ``banned_mask``).
BANNABLE = {"trio": 3, "trio_single": 4, "trio_pair": 5, "straight": 6, "pair_chain": 7, "plane": 8,
            "plane_single": 9, "plane_pair": 10, "four_two_single": 11, "four_two_pair": 12, "bomb": 13}


def _banned_bits(combo: int) -> int:
    """The flag bit of a banned combo: 3, 4 -> bits 6, 7; 5..13 -> bits 22..30."""
    return 1 << (combo + 3 if combo < 5 else combo + 17)


class _Unset:
    """The default of a game-flow field whose value depends on ``laizi``
    (resolved in ``Rules.__post_init__``)."""

    def __repr__(self) -> str:
        return "<by laizi>"


_UNSET: Any = _Unset()

#: The game-flow fields whose default depends on the room (docs/rules.md §5, §7):
#: a happy room's value and a laizi room's.
ROOM_DEFAULTS: dict[str, tuple[Any, Any]] = {
    "show_start": (5, 4),
    "show_deal_early": (4, 0),
    "show_deal_late": (3, 0),
    "show_bottom": (2, 2),
    "show_combine": ("max", "product"),
}


@dataclass(frozen=True)
class Rules:
    """A rule set.  Immutable and hashable; ``dataclasses.replace`` or
    ``rules.replace(...)`` derives a variant.

    Move generation (docs/rules.md §2):

    - ``four_two``: four-with-two (四带二) exists, with two singles or two pairs.
    - ``kicker_repeat``: single kickers may repeat a rank (5555+3+3, 333444+7+7,
      333444555+888).
    - ``jokers_both_kickers``: the two jokers may both be single kickers
      (666777+B+R); they are never a kicker *pair* either way.
    - ``wing_trio_adjacent``: a plane's single wings may be three cards of a
      rank adjacent to the chain (333444555666+777+8); RLCard forbids it.
    - ``kicker_bomb``: kickers may hold all four cards of a rank (docs/rules.md
      §2: never).
    - ``wing_bomb``: a plane's single wings may hold all four cards of a rank
      (333444555666+7777); pairs and four-with-two kickers never do (DouZero).
    - ``douzero_follow``: the move to beat is read from its cards alone, as
      DouZero's ``move_detector.get_move_type`` reads them, and compared as
      DouZero compares (planes with single wings by the highest rank held
      exactly three times, wings included; a set it cannot type is answered
      only by bombs and the rocket).
    - ``decks``: 1, or 2 for the five-player two-deck rules (docs/rules.md §8).
    - ``two_jokers_above``: two decks: two jokers beat card bombs of up to
      this many cards (4, 5 or 6) and lose to bigger ones; docs/rules.md §8's
      decision is 4 (4-card bomb < two jokers < 5-card bomb).
    - ``shuttle``: two or more consecutive quads (航天飞机, Botzone's
      FightTheLandlord2), bare or each quad with two single or two pair
      kickers, are a combination (``Combo.SHUTTLE``): not a bomb, it beats
      only a shuttle of as many cards with a higher top quad; one deck
      without wild cards.
    - ``wild``: the laizi (癞子) wild rank for analysis, a rank character of
      ``3..2`` (``"7"``; ``Rank`` or ``"10"`` accepted and normalised), or
      ``None``; its cards stand for other ranks (docs/rules.md §7).  One deck only.
    - ``banned``: combination types that are never moves (禁手, puzzle
      rules), a tuple of ``Combo`` names from ``BANNABLE``: ``"trio"``,
      ``"trio_single"`` (3+1), ``"trio_pair"`` (3+2), ``"straight"``,
      ``"pair_chain"``, ``"plane"``, ``"plane_single"``, ``"plane_pair"``,
      ``"four_two_single"``, ``"four_two_pair"``, ``"bomb"``.  Any iterable of
      names or ``Combo`` values is accepted and normalised to a sorted tuple
      of names; move generation honours it everywhere (the kernel).  Singles,
      pairs and the rocket cannot be banned (every hand must stay playable).

    Game flow (docs/rules.md §4-6; used by ``Game``, ignored by move
    generation, so ``flags`` does not depend on them):

    - ``bidding``: ``"call_rob"`` (叫地主/抢地主, base score 1) or ``"points"``
      (classic 叫分: one bid of 1, 2 or 3 each, base score = the bid).
    - ``rob_back``: after someone robbed, the caller gets the last rob chance
      (docs/rules.md §4).
    - ``show_start``, ``show_deal_early``, ``show_deal_late``, ``show_bottom``:
      the show-cards (明牌) multipliers before the deal (5; laizi room 4),
      during the deal while holding at most ``show_early_cards`` cards (4;
      laizi 0), later in the deal (3; laizi 0) and for the landlord after
      taking the bottom cards (2); 0 means that chance to show is not
      offered.  Not given, they follow ``laizi`` (``ROOM_DEFAULTS``).
    - ``show_early_cards``: dealt cards up to which a show is "early" (8).
    - ``show_combine``: several shows take the largest multiplier (``"max"``,
      happy rooms' default) or multiply together (``"product"``, laizi
      rooms' default).
    - ``doubling``: the doubling (加倍) round before play exists.
    - ``max_redeals``: redeals allowed after everybody passes the call
      (``None`` = no cap); past it the game ends with no landlord and a zero
      settlement (OpenSpiel's behaviour is ``max_redeals=0``).
    - ``laizi``: a laizi room (癞子场, docs/rules.md §7): once the landlord is
      decided a wild rank 3..2 is drawn at random and announced (unless
      ``wild`` fixes it, for analysis), and the game is scored by the laizi
      table with its 1/4 coefficient and its 10000-point cap on each
      winner's gain, and escapes by the laizi charge (docs/rules.md §6-7).  It
      sets the laizi room's game flow too: the show-cards fields not given
      take the laizi room's defaults (x4 before the deal, none during the
      deal, x2 after the bottom, several shows multiplied), so
      ``Rules(laizi=True)`` is ``Rules.preset("laizi")``; a show field given
      explicitly keeps its value.  ``rules.replace(...)`` keeps that
      distinction (a field given explicitly stays given, the others follow
      ``laizi``); ``dataclasses.replace`` passes every field explicitly.  A
      ``Game`` with ``wild`` set is a laizi game whether or not ``laizi`` is.
    - ``laizi_bombs``: laizi bomb scoring: ``"tiered"`` (the laizi
      table of docs/rules.md §7: soft bomb x2; hard bomb, pure wild bomb and rocket x4 each) or
      ``"plain"`` (every bomb and the rocket x2).

    Raises ``InvalidRulesError`` (a ``ValueError``) for an unknown preset or
    a bad field value: switches must be ``bool``, counts exact ``int`` (not
    ``bool`` or ``float``).  An unpickled ``Rules`` is checked the same way.
    """

    four_two: bool = True
    kicker_repeat: bool = True
    jokers_both_kickers: bool = True
    wing_trio_adjacent: bool = True
    kicker_bomb: bool = False
    wing_bomb: bool = False
    douzero_follow: bool = False
    decks: int = 1
    two_jokers_above: int = 4
    wild: "str | None" = None
    banned: "tuple[str, ...]" = ()
    shuttle: bool = False

    # -- game flow (docs/rules.md §4-6); not part of ``flags`` ----------------------
    bidding: str = "call_rob"
    rob_back: bool = True
    show_start: int = _UNSET
    show_deal_early: int = _UNSET
    show_deal_late: int = _UNSET
    show_bottom: int = _UNSET
    show_early_cards: int = 8
    show_combine: str = _UNSET
    doubling: bool = True
    max_redeals: "int | None" = None
    laizi: bool = False
    laizi_bombs: str = "tiered"

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        # Botzone FightTheLandlord2 (叫分斗地主): kickers of distinct ranks, shuttles, point bidding.
        "botzone": {"kicker_repeat": False, "shuttle": True, "bidding": "points"},
        # RLCard: 27,471 card sets.
        "rlcard": {"jokers_both_kickers": False, "wing_trio_adjacent": False},
        # OpenSpiel: 25,661 card sets as 26,053 readings.
        "openspiel": {"four_two": False, "jokers_both_kickers": False},
        # DouZero (douzero.env): GameEnv.get_legal_card_play_actions's card sets.
        "douzero": {"wing_bomb": True, "douzero_follow": True},
        # Laizi rooms (docs/rules.md §7): their show cards follow from laizi; move generation as standard.
        "laizi": {"laizi": True},
    }

    def __post_init__(self) -> None:
        given = []
        for name, defaults in ROOM_DEFAULTS.items():
            if getattr(self, name) is _UNSET:
                object.__setattr__(self, name, defaults[self.laizi is True])
            else:
                given.append(name)
        object.__setattr__(self, "_given", frozenset(given))
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.type in (bool, "bool") and not isinstance(v, bool):
                raise InvalidRulesError(f"Rules.{f.name} must be True or False, not {v!r}")
            if f.type in (int, "int") and (type(v) is not int):
                raise InvalidRulesError(f"Rules.{f.name} must be an int, not {v!r}")
            if f.type == "str" and not isinstance(v, str):
                raise InvalidRulesError(f"Rules.{f.name} must be a str, not {v!r}")
        if self.decks not in (1, 2):
            raise InvalidRulesError(f"Rules.decks must be 1 or 2, not {self.decks!r}")
        if self.two_jokers_above not in (4, 5, 6):
            raise InvalidRulesError(f"Rules.two_jokers_above must be 4, 5 or 6, not {self.two_jokers_above!r}")
        if self.wild is not None:
            from .cards import Rank

            try:
                rank = Rank.parse(self.wild)
            except ValueError:
                rank = None
            if rank is None or rank > Rank.TWO:
                from .errors import InvalidCardsError  # typed like every bad rank (docs/rules.md §7)

                raise InvalidCardsError(f"Rules.wild must be a rank 3..2 or None, not {self.wild!r}")
            if self.decks != 1:
                raise InvalidRulesError("Rules.wild (laizi) needs decks=1")
            object.__setattr__(self, "wild", rank.char)
        object.__setattr__(self, "banned", self._check_banned())
        if self.shuttle and (self.decks != 1 or self.wild is not None):
            raise InvalidRulesError("Rules.shuttle (航天飞机) needs one deck without wild cards (decks=1, wild=None)")
        self._check_flow()
        object.__setattr__(self, "_flags", self._make_flags())

    def _check_banned(self) -> "tuple[str, ...]":
        """``banned`` as a sorted tuple of names (``ValueError`` naming a bad one)."""
        if isinstance(self.banned, str):
            raise InvalidRulesError(f"Rules.banned must be a tuple of combination names, not the string {self.banned!r}")
        try:
            items = list(self.banned)
        except TypeError:
            raise InvalidRulesError(f"Rules.banned must be a tuple of combination names, not {self.banned!r}") from None
        names = set()
        for b in items:
            name = b.name.lower() if hasattr(b, "name") else b
            if name not in BANNABLE:
                raise InvalidRulesError(f"Rules.banned: {b!r} cannot be banned; choose from {sorted(BANNABLE)}")
            names.add(name)
        return tuple(sorted(names, key=BANNABLE.__getitem__))

    def _check_flow(self) -> None:
        """Validate the game-flow fields (``ValueError`` naming the field)."""
        if self.bidding not in ("call_rob", "points"):
            raise InvalidRulesError(f"Rules.bidding must be 'call_rob' or 'points', not {self.bidding!r}")
        if self.show_combine not in ("max", "product"):
            raise InvalidRulesError(f"Rules.show_combine must be 'max' or 'product', not {self.show_combine!r}")
        for name in ("show_start", "show_deal_early", "show_deal_late", "show_bottom", "show_early_cards"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise InvalidRulesError(f"Rules.{name} must be an int >= 0, not {v!r}")
        if not 0 <= self.show_early_cards <= 17:
            raise InvalidRulesError(f"Rules.show_early_cards must be in 0..17, not {self.show_early_cards!r}")
        m = self.max_redeals
        if m is not None and (type(m) is not int or m < 0):
            raise InvalidRulesError(f"Rules.max_redeals must be None or an int >= 0, not {m!r}")
        if self.laizi_bombs not in ("tiered", "plain"):
            raise InvalidRulesError(f"Rules.laizi_bombs must be 'tiered' or 'plain', not {self.laizi_bombs!r}")
        if (self.wing_bomb or self.douzero_follow) and (self.decks != 1 or self.wild is not None):
            raise InvalidRulesError("Rules.wing_bomb and Rules.douzero_follow (DouZero) need decks=1 and no wild rank")
        if self.laizi and self.decks != 1:
            raise InvalidRulesError("Rules.laizi (a laizi room) needs decks=1")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> "Rules":
        """A named rule set ("standard", "rlcard", "openspiel", "douzero",
        "botzone" (Botzone's FightTheLandlord2), or "laizi": a laizi room,
        the same as ``Rules(laizi=True)``, docs/rules.md §7), optionally adjusted."""
        try:
            base = cls.PRESETS[name]
        except (KeyError, TypeError):
            raise InvalidRulesError(f"unknown rules preset {name!r}; choose one of {sorted(cls.PRESETS)}") from None
        return cls(**{**base, **overrides})

    @classmethod
    def coerce(cls, rules: "Rules | str | None") -> "Rules":
        """The ``Rules`` a ``rules=`` argument names: a ``Rules`` itself, a
        preset name (``"standard"``, ``"laizi"``, ...) or ``None`` (the
        defaults, docs/rules.md).  Raises ``InvalidRulesError`` otherwise."""
        if isinstance(rules, cls):
            return rules
        if rules is None:
            return STANDARD
        if isinstance(rules, str):
            return cls.preset(rules)
        raise InvalidRulesError(f"rules must be a Rules or a preset name {sorted(cls.PRESETS)}, not {rules!r}")

    def __setstate__(self, state: Any) -> None:
        """Unpickle through the constructor's checks (a tampered pickle raises
        ``InvalidRulesError``, never builds a rule set the constructor refuses)."""
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots) from protocols that add them
            state = state[0]
        names = {f.name for f in dataclasses.fields(self)}
        if not isinstance(state, dict) or not set(state) <= names | {"_flags", "_given"}:
            raise InvalidRulesError(f"not the state of a pickled Rules: {state!r}")
        given = state.get("_given")  # absent in pickles made before it: every field given
        if given is not None and not (isinstance(given, frozenset) and given <= set(ROOM_DEFAULTS)):
            raise InvalidRulesError(f"not the state of a pickled Rules: {state!r}")
        checked = Rules(**{k: v for k, v in state.items()
                           if k in names and (given is None or k not in ROOM_DEFAULTS or k in given)})
        self.__dict__.update(checked.__dict__)

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some fields changed.  The show-cards fields this rule
        set took from its room (not given explicitly) follow ``laizi`` in the
        copy too: ``Rules().replace(laizi=True) == Rules.preset("laizi")``."""
        kw = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
              if f.name not in ROOM_DEFAULTS or f.name in self.given_flow}
        kw.update(changes)
        return type(self)(**kw)

    @property
    def given_flow(self) -> frozenset[str]:
        """The show-cards fields of ``ROOM_DEFAULTS`` given explicitly (the
        others took the happy or the laizi room's default)."""
        return self.__dict__.get("_given", frozenset())  # type: ignore[no-any-return]

    @property
    def flags(self) -> int:
        """The kernel's rule-flag word (``int``).  Raises ``InvalidRulesError``
        naming ``_flags`` for a ``Rules`` forged around its constructor
        (``object.__new__``, or a flag word that is no int below 2**31)."""
        try:
            f = self._flags  # type: ignore[attr-defined]
        except AttributeError:
            f = None
        if type(f) is int and f >> 31 == 0:
            return f
        raise InvalidRulesError(f"a Rules whose rule-flag word (_flags) is {f!r} is no rule set")

    def _make_flags(self) -> int:
        return (
            _F_FOUR_TWO * self.four_two
            | _F_KICKER_REPEAT * self.kicker_repeat
            | _F_JOKERS_BOTH * self.jokers_both_kickers
            | _F_WING_TRIO_ADJ * self.wing_trio_adjacent
            | _F_KICKER_BOMB * self.kicker_bomb
            | _F_TWO_DECKS * (self.decks == 2)
            | _F_WING_BOMB * self.wing_bomb
            | _F_DZ_READ * self.douzero_follow
            | _F_SHUTTLE * self.shuttle
            | (0 if self.wild is None else ("3456789TJQKA2".index(self.wild) + 1) << 8)
            | (self.two_jokers_above - 4) << 12
            | sum(_banned_bits(BANNABLE[b]) for b in self.banned)
        )


STANDARD = Rules()
