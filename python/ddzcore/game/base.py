"""What every seat count shares: the game base under ``Game`` (three players,
docs/rules.md §3-§7) and ``FiveGame`` (five players, docs/rules.md §8).

One ``GameBase`` owns the trick (the move to beat and its player), the
checked ``apply`` and its illegal-move reasons, ``push``/``pop``, the play
step (cards out of the hand, bombs and plays counted, the end when a hand
empties), escape, the typed end of a game (``Outcome``), observations'
common fields, returns, copies and action text.  A game holds only what
differs: its phases and flow actions, its deal, its multiplier and its
settlement, through the class attributes and the few hooks below.

Units: points (settlement points), a multiplier is an integer factor,
beans are the room's currency (N beans a point).  Seats are ``0 ..
players - 1`` in turn order; ``TERMINAL`` (-1) is ``current_player()`` once
the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from fractions import Fraction
from inspect import isdatadescriptor
from types import MemberDescriptorType
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import _kernel
from .._gamecore import CORE_FIELDS, GameCore
from ..cards import Hand
from .._errors import as_index
from ..errors import AmbiguousMoveError, IllegalActionError, InvalidArgumentError, InvalidMoveError, RecordError
from ..generate import legal_moves
from ..moves import PASS, ActionSpace, Combo, Move, MoveList, action_space, classify
from ..rules import Rules
from .settlement import Room

__all__ = ["GameBase", "Outcome", "Termination", "TERMINAL", "MOVE_ID_BASE"]

#: ``current_player()`` once the game is over.
TERMINAL = -1

#: Dense action ids (``action_id``): a flow action's id is its value (below
#: 16); a move's is ``MOVE_ID_BASE`` plus its index in the game's action
#: space (``action_space(rules)``; pass is ``MOVE_ID_BASE``), with five
#: players ``MOVE_ID_BASE + 3 × index + k`` for k = 0, 1, 2 marked-face cards.
MOVE_ID_BASE = 16

# ``Rules`` fields of the game flow, not of the moves: the action space ignores them.
_FLOW_FIELDS = ("bidding", "rob_back", "show_start", "show_deal_early", "show_deal_late", "show_bottom",
                "show_early_cards", "show_combine", "doubling", "max_redeals", "laizi", "laizi_bombs")

# ``apply`` checks a move with the kernel's own predicates (as ``Move.beats``
# and ``Move.from_codes`` do) rather than generating the moves again: cards
# in hand (each game's ``_holds``), a valid reading, and beating the move to beat.
_valid = _kernel.is_valid_reading
_PACKAGE = __name__.rpartition(".")[0]  # ddzcore.game: a game class's own module is in it
_beats = _kernel.beats_codes
_new = object.__new__


def _hand(word: int, decks: int = 1) -> Hand:
    """``Hand._trusted(word, decks)`` without the class-method call (the play step makes one a move)."""
    h: Hand = _new(Hand)
    h._word = word
    h._decks = decks
    return h


_BOMB = int(Combo.BOMB)
_LAST_BOMB = int(Combo.JOKER_BOMB)  # bomb kinds are BOMB..JOKER_BOMB (the shuttle after them is not one)
_SOFT = int(Combo.SOFT_BOMB)

Points = Union[int, float, Fraction]


def _ncards(word: int) -> int:
    """Cards in a card word (the sum of its nibbles)."""
    w = (word & 0x0F0F0F0F0F0F0F0F) + ((word >> 4) & 0x0F0F0F0F0F0F0F0F)
    return ((w * 0x0101010101010101) & 0xFFFFFFFFFFFFFFFF) >> 56


def _parse_enum(cls: Any, text: Any, ints: Any, aliases: dict[str, Any], what: str) -> Any:
    """A member of the action enum ``cls`` from its value (an instance of
    ``ints``, not a bool), its name in any case (``-`` or a space for ``_``)
    or one of its ``aliases``.  Raises ``InvalidMoveError`` ("... is not
    ``what``") otherwise."""
    if isinstance(text, ints) and not isinstance(text, bool):
        try:
            return cls(int(text))
        except ValueError:
            pass
    elif isinstance(text, str):
        t = text.strip().lower().replace("-", "_").replace(" ", "_")
        if t in aliases:
            return aliases[t]
        try:
            return cls[t.upper()]
        except KeyError:
            pass
    raise InvalidMoveError(f"{text!r} is not {what}; one of: {' '.join(str(a) for a in cls)}")


def generator(seed: object) -> np.random.Generator:
    """The random generator of a game's ``seed``: a ``numpy.random.Generator``
    itself, else one seeded with ``seed`` (``None``: fresh entropy; a NumPy
    ``SeedSequence`` or bit generator; an int >= 0 read through
    ``__index__``).  Raises ``InvalidArgumentError`` naming a bad seed
    (chained from what reading it raised)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.BitGenerator)):
        return np.random.default_rng(seed)
    value = as_index(seed, "seed")
    if value < 0:
        raise InvalidArgumentError(f"seed must be an int >= 0 or a numpy.random.Generator, not {seed!r}")
    return np.random.default_rng(value)


def check_seat(player: object, players: int) -> int:
    """``player`` as a seat ``0 .. players - 1``.  Raises ``IllegalActionError`` naming it otherwise."""
    if not isinstance(player, (int, np.integer)) or isinstance(player, bool) or not 0 <= player < players:
        raise IllegalActionError(f"{player!r} is not a seat (0-{players - 1})")
    return int(player)


def check_room_beans(room: Optional[Room], beans: Optional[Sequence[int]], players: int
                     ) -> Optional[tuple[int, ...]]:
    """Check a game's ``room`` (a ``Room`` or ``None``) and carried ``beans``
    (one int >= 0 a seat, or ``None``); returns the beans as a tuple.
    Raises ``InvalidArgumentError`` naming the bad one."""
    if room is not None and not isinstance(room, Room):
        raise InvalidArgumentError(f"room must be a Room, not {room!r}")
    if beans is None:
        return None
    b = [int(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool) else x for x in beans]
    if len(b) != players or any(not isinstance(x, int) or x < 0 for x in b):
        raise InvalidArgumentError(f"beans must be {players} ints >= 0, not {beans!r}")
    return tuple(b)


# -- the end of a game -----------------------------------------------------------------------

class Termination(Enum):
    """Why a game ended (``Outcome.termination``)."""

    #: A player played its last card (docs/rules.md §3): its side wins.
    CARDS_OUT = "cards_out"
    #: A player left the game (逃跑, docs/rules.md §6, §8): charged as a loss.
    ESCAPE = "escape"
    #: Everybody passed the call up to the room's redeal cap (docs/rules.md §4): nobody is landlord.
    REDEAL_CAP = "redeal_cap"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (``game.outcome``; ``None`` while it goes on).

    - ``termination``: the ``Termination``.
    - ``winner``: the seat that went out (``CARDS_OUT``), else ``None``.
    - ``escaped``: the seat that left (``ESCAPE``), else ``None``.
    - ``landlords``: the landlords' seats (the open landlord first with five
      players), ``()`` when nobody became landlord.
    - ``winners``: the seats of the side that won (for an escape the side
      that receives the penalty; ``()`` at the redeal cap).
    - ``spring``: a spring or anti-spring (docs/rules.md §3, §8).
    - ``points``: signed settlement points per seat (sum zero), as
      ``returns()``: ints, or floats in laizi games (docs/rules.md §7; the
      settlement holds the exact fractions) and with five players.
    """

    termination: Termination
    winner: Optional[int]
    escaped: Optional[int]
    landlords: tuple[int, ...]
    winners: tuple[int, ...]
    spring: bool
    points: tuple[Points, ...]

    @property
    def landlords_won(self) -> Optional[bool]:
        """Whether the landlords' side won (``None`` with no landlord)."""
        if not self.landlords or not self.winners:
            return None
        return self.landlords[0] in self.winners


# -- the game base ---------------------------------------------------------------------------

@lru_cache(maxsize=16)
def _move_space(rules: Rules, max_cards: int) -> ActionSpace:
    """The action space of a game under ``rules``: the move rules with the
    flow fields at their defaults (cached: a ``Rules.replace`` costs about
    100 µs, and the environments ask for an id per legal move)."""
    defaults = Rules()
    return action_space(rules.replace(**{f: getattr(defaults, f) for f in _FLOW_FIELDS}), max_cards)


class GameBase(GameCore):
    """The game of any seat count (see the module docstring).

    A game sets the class attributes below and keeps this state: ``_rules``,
    ``_prules`` (the rules moves are generated under) and ``_flags``,
    ``_room``, ``_beans``, ``_ph``, ``_cur``, ``_queue``, ``_hands``,
    ``_last``/``_lastp`` (the trick), ``_bombs``/``_soft``, ``_plays``
    (moves played per seat), ``_doubles``, ``_winner``, ``_escaped``, and
    ``_hist``: a play ``(seat, move as played, move to beat before, its
    player before, marked-face cards played)``, a flow action or an escape
    ``(seat, action, undo)``, undo being what ``_undo`` needs (by default
    the game's snapshot before the action).

    The compiled base ``GameCore`` holds the fields the play phase changes
    (``CORE_FIELDS``) and the hands as card words in a native ``State``
    (``_word(p)``, ``_add_word(p, w)``; ``_hands`` reads and sets them as a
    list of ``Hand``), and makes ``is_terminal``, ``current_player``,
    ``legal_actions``, ``apply`` and the play step ``_play`` one C call
    each (the flow phases through ``_FLOW_TABLE``); the rest are slots here
    and in each game.
    """

    __slots__ = ("_rules", "_room", "_beans", "_queue", "_doubles", "_escaped")

    PLAYERS: int  #: seats at the table
    _DECKS: int  #: decks in the game (card words' decks)
    _P_PLAY: int  #: the play phase's value
    _P_END: int  #: the end phase's value
    _PHASE: Any  #: the phase enum
    _ACTION: Any  #: the flow-action enum
    _ESCAPE: Any  #: the flow-action member an escape is recorded as
    _ACTION_WHAT: str  #: what an unknown action value is not ("an action")
    _NOT_LEGAL: str  #: format of a flow action not legal here ({a}, {seat}, {phase}, {legal})
    _NO_WORDS: tuple[str, ...]  #: text for the phase's "no" action
    _NO_ACTION: dict[int, Any]  #: the "no" action of each flow phase
    _RULES_REF: str  #: docs/rules.md sections of the combinations
    _TOP_BOMB: str  #: what nothing beats, for the illegal-move reason ("the rocket")
    _LISTS: tuple[str, ...]  #: the state's lists, which ``copy`` copies (the rest is immutable)
    _MAX_CARDS: int  #: the most cards a move can hold (the largest hand), for the action space
    _ID_STRIDE: int  #: dense ids per move of the action space
    _MOVE = Move  #: the move type (``GameCore`` plays exactly this type on its fast path)
    _HAND = Hand  #: the hand type (``GameCore`` makes the hands after a play)
    _MOVES = MoveList  #: the list type ``GameCore.legal_actions`` returns in play
    _MARKED = False  #: whether a move's marked-face cards decide how it is recorded (``_push_move``; five players)
    #: The legal flow actions of each phase (indexed by its value) for ``GameCore``'s ``legal_actions`` and
    #: ``apply``, ``None`` for a phase whose actions ``_flow_legal`` works out; ``None``: no table.
    _FLOW_TABLE: Optional[tuple[Optional[tuple[Any, ...]], ...]] = None
    _holds: Callable[[int, int], bool]  #: whether a hand word holds a card word
    _unbeatable: Callable[[int, int], bool]  #: whether nothing beats a move (cards, info): the top bomb
    _doubling: Callable[[int, int], bool]  #: whether a bomb (cards, info) counts in the multiplier

    _rules: Rules
    _prules: Rules
    _flags: int
    _room: Optional[Room]
    _beans: Optional[tuple[int, ...]]
    _ph: int
    _cur: int
    _queue: list[int]
    _last: Move
    _lastp: int
    _bombs: int
    _soft: int
    _plays: list[int]
    _doubles: list[int]
    _winner: Optional[int]
    _escaped: Optional[int]
    _hist: list[Any]


    # -- what each game defines -------------------------------------------------------------
    def _flow_legal(self) -> list[Any]:
        raise NotImplementedError

    def _flow(self, a: Any) -> None:
        raise NotImplementedError

    def _snapshot(self) -> Any:
        raise NotImplementedError

    def _restore(self, snap: Any) -> None:
        raise NotImplementedError

    def _undo(self, entry: Any) -> None:
        """Undo a flow action or an escape, ``entry`` (already off ``_hist``):
        by default its third field is the ``_snapshot`` before it."""
        self._restore(entry[2])

    def _parse_move(self, t: str, low: str) -> Move:
        raise NotImplementedError

    def _parse_flow(self, t: str, legal: list[Any]) -> Any:
        raise NotImplementedError

    def _landlords(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _marked_played(self, p: int, k: int, sign: int) -> None:
        """Five players: ``k`` marked-face cards played (``sign`` 1) or taken back (-1)."""

    def settlement(self) -> Any:
        raise NotImplementedError

    def multiplier(self) -> Any:
        raise NotImplementedError

    def _seat(self, player: object) -> int:
        return check_seat(player, self.PLAYERS)

    # -- the OpenSpiel-like vocabulary ------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The game's ``Rules``."""
        return self._rules

    @property
    def play_rules(self) -> Rules:
        """The rules moves are generated under: ``rules`` (laizi: with the
        wild rank once it is known, docs/rules.md §7)."""
        return self._prules

    @property
    def room(self) -> Optional[Room]:
        """The ``Room`` (``None``: analysis mode)."""
        return self._room

    @property
    def beans(self) -> Optional[tuple[int, ...]]:
        """Each player's carried beans before the game (``None``: unlimited)."""
        return self._beans

    @property
    def players(self) -> int:
        """Seats at the table (3 or 5)."""
        return self.PLAYERS

    @property
    def last_move(self) -> Optional[Move]:
        """The move to beat in play, ``None`` when the player to move leads."""
        if self._ph != self._P_PLAY or self._cur == self._lastp:
            return None
        return self._last

    @property
    def last_player(self) -> Optional[int]:
        """Who played ``last_move`` (``None`` when the player to move leads)."""
        return None if self.last_move is None else self._lastp

    @property
    def history(self) -> list[tuple[int, Any]]:
        """Every action so far as ``(seat, action)`` pairs (escapes as the
        game's ``ESCAPE`` action; five players: moves as played, a
        ``MarkedMove`` when marked-face cards were among them)."""
        return [(e[0], e[1]) for e in self._hist]

    @property
    def winner(self) -> Optional[int]:
        """The seat that went out first (``None`` if nobody did)."""
        return self._winner

    @property
    def escaped(self) -> Optional[int]:
        """The seat that escaped (逃跑), or ``None``."""
        return self._escaped

    @property
    def doubles(self) -> tuple[int, ...]:
        """Each seat's doubling factor (1 or 2)."""
        return tuple(self._doubles)

    @property
    def bombs_played(self) -> int:
        """Bombs played so far that count in the multiplier (three players:
        every bomb and rocket, laizi ones of every kind; five players the
        doubling bombs of docs/rules.md §8)."""
        return self._bombs

    def hand(self, player: int) -> Hand:
        """Seat ``player``'s current cards (ranks; the landlord's include the bottom once taken)."""
        return _hand(self._word(self._seat(player)), self._DECKS)

    @property
    def hands(self) -> list[Hand]:
        """The current hands (a god's-eye view; see ``observation``)."""
        return self._hands

    # -- acting ---------------------------------------------------------------------------------
    # ``legal_actions``, ``apply`` and the play step ``_play`` are ``GameCore``'s (compiled).
    apply_action = GameCore.apply

    def push(self, action: Any) -> None:
        """Apply an action without the legality checks of play (for search and
        fast loops over ``legal_actions()``).  A move that is not legal
        leaves an inconsistent game.  Flow actions are checked as in ``apply``."""
        if self._ph == self._P_PLAY and isinstance(action, Move):
            self._push_move(self._cur, action)
            return
        self._apply_other(action)

    def _push_move(self, p: int, move: Move) -> None:
        """Play ``move`` for seat ``p`` (checked or not): the move as played
        and its marked-face cards (five players) go to ``_play``."""
        self._play(p, move if type(move) is Move else Move._from_codes(*move.codes), 0)

    def pop(self) -> Any:
        """Undo the last action (or escape) and return it (a move as played).
        Raises ``IllegalActionError`` when there is nothing to undo."""
        if not self._hist:
            raise IllegalActionError("nothing to undo")
        entry = self._hist.pop()
        if len(entry) == 3:
            self._undo(entry)
            return entry[1]
        p, move, last, lastp, k = entry
        i = move._info
        if i & 31:
            c = move._cards
            self._add_word(p, c)
            if _BOMB <= i & 31 <= _LAST_BOMB and self._doubling(c, i):
                self._bombs -= 1
                if i & 31 == _SOFT:
                    self._soft -= 1
            self._plays[p] -= 1
            if k:
                self._marked_played(p, k, -1)
            self._ph = self._P_PLAY
            self._winner = None
        self._last, self._lastp, self._cur = last, lastp, p
        return move

    def _why_illegal(self, move: Move) -> str:
        """Why ``move`` is not legal for the player to act (``apply``'s error)."""
        p = self._cur
        hand = _hand(self._word(p), self._DECKS)
        if move.is_pass:
            if move._cards or move._info:
                return f"{move._cards, move._info} is no move record: a pass has no cards, main or length"
            return f"seat {p} leads and cannot pass (docs/rules.md §3)"
        if not self._holds(hand._word, move._cards):
            return f"{move} is not in seat {p}'s hand {hand}"
        if not _valid(move._cards, move._info, self._flags):
            return f"{move} is not a valid combination under these rules"
        if p == self._lastp:
            return f"{move} is not a legal lead"
        if self._unbeatable(self._last._cards, self._last._info):
            return (f"{move} cannot be played: after {self._TOP_BOMB} every other player must pass "
                    f"(docs/rules.md §3)")
        return (f"{move} does not beat {self._last} (docs/rules.md {self._RULES_REF}: same type and number of "
                f"cards with a higher main rank, or a bomb that beats it)")

    def escape(self, player: int) -> None:
        """Player ``player`` leaves (逃跑) and the game ends, settled as an
        escape (docs/rules.md §6, §8; any phase, any player, not only the one
        to act).  Raises ``IllegalActionError`` if the game is over or the
        seat is bad; the game is then unchanged."""
        p = self._seat(player)
        if self._ph == self._P_END:
            raise IllegalActionError("the game is over: nobody can escape")
        self._hist.append((p, self._ESCAPE, self._snapshot()))
        self._escaped = p
        self._ph, self._cur, self._queue = self._P_END, TERMINAL, []

    def _apply_other(self, action: Any) -> None:
        """``apply`` off its hot path: text, flow actions and what is not legal."""
        ph = self._ph
        if type(action) is self._ACTION and ph != self._P_PLAY and ph != self._P_END:  # a flow action as listed
            a = action
        else:
            if isinstance(action, str):
                action = self.parse_action(action)
            if ph == self._P_END:
                raise IllegalActionError("the game is over: no action is legal")
            if ph == self._P_PLAY:
                if not isinstance(action, Move):
                    raise IllegalActionError(f"{action!r} is not a move; in play the actions are moves "
                                             f"(docs/rules.md §3)")
                self.apply(action)
                return
            if isinstance(action, Move) or not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise IllegalActionError(f"{action!r} is not an action of the {self._PHASE(ph)} phase; "
                                         f"legal: {', '.join(str(a) for a in self._flow_legal())}")
            try:
                a = self._ACTION(int(action))
            except ValueError:
                raise IllegalActionError(f"{action!r} is not {self._ACTION_WHAT}") from None
        legal = self._flow_legal()
        if a not in legal:
            raise IllegalActionError(self._NOT_LEGAL.format(a=a, seat=self._cur, phase=self._PHASE(ph),
                                                            legal=", ".join(str(x) for x in legal)))
        self._flow(a)

    # -- dense action ids (OpenSpiel style) ----------------------------------------------------
    def _space(self) -> ActionSpace:
        if self._rules.laizi or self._rules.wild is not None:
            raise IllegalActionError("dense move ids are not defined for laizi games (docs/rules.md §7): the move set "
                                     "depends on the wild rank; use the Move objects")
        return _move_space(self._rules, self._MAX_CARDS)

    def _marked_move(self, move: Move, k: int) -> Move:
        """The move playing ``k`` marked-face cards (five players); raises ``InvalidMoveError``."""
        raise InvalidMoveError(f"{move} has no marked-face variant in this game")

    def action_id(self, action: Any) -> int:
        """The dense integer id of an action (``MOVE_ID_BASE``): a flow
        action's value, or ``MOVE_ID_BASE`` + the move's index in the action
        space (with five players × 3, + the marked-face cards it plays).  The
        same for every game under the same move rules.  Raises
        ``IllegalMoveError`` for a move outside the action space (a forged
        ``Move`` included), its subclass ``IllegalActionError`` for any move
        in a laizi game (flow actions keep their ids), and
        ``InvalidMoveError`` for anything that is no action."""
        if isinstance(action, Move):
            k = getattr(action, "marked", 0) if self._ID_STRIDE > 1 else 0
            return MOVE_ID_BASE + self._ID_STRIDE * self._space().index(action) + k
        return int(self._ACTION.parse(action))

    def action_from_id(self, action_id: int) -> Any:
        """The action with this dense id (inverse of ``action_id``).  Raises
        ``InvalidMoveError`` for an id that is no action."""
        if isinstance(action_id, (int, np.integer)) and not isinstance(action_id, bool) and action_id >= MOVE_ID_BASE:
            index, k = divmod(int(action_id) - MOVE_ID_BASE, self._ID_STRIDE)
            move = self._space()[index]
            return self._marked_move(move, k) if k else move
        return self._ACTION.parse(action_id)

    def legal_action_ids(self) -> list[int]:
        """``legal_actions()`` as dense ids, ascending (OpenSpiel's convention)."""
        return sorted(self.action_id(a) for a in self.legal_actions())

    # -- the end --------------------------------------------------------------------------------
    @property
    def outcome(self) -> Optional[Outcome]:
        """How the game ended (an ``Outcome``), ``None`` while it goes on."""
        if self._ph != self._P_END:
            return None
        s = self.settlement()
        if self._escaped is not None:
            how = Termination.ESCAPE
        elif self._winner is not None:
            how = Termination.CARDS_OUT
        else:
            how = Termination.REDEAL_CAP
        return Outcome(how, self._winner, self._escaped, self._landlords(), tuple(s.winners), bool(s.spring),
                       tuple(self.returns()))

    def returns(self) -> list[Any]:
        """Points per seat (zero-sum; all 0 before the end): ints, or floats
        in laizi games (docs/rules.md §7, ``settlement().points`` holds the
        exact ``Fraction`` values) and with five players (exact halves).
        See ``settlement`` for beans."""
        if self._ph != self._P_END:
            return [0] * self.PLAYERS
        return [p if isinstance(p, int) else float(p) for p in self.settlement().points]

    # -- information sets -----------------------------------------------------------------------
    def _public(self, s: int) -> dict[str, Any]:
        """The fields of seat ``s``'s observation that every game shows the same way."""
        legal: Any = self.legal_actions() if s == self._cur else ()
        if isinstance(legal, list):
            legal = tuple(legal)
        lm = self.last_move
        return dict(player=s, phase=self._PHASE(self._ph), current_player=self._cur, doubles=self.doubles,
                    multiplier=self.multiplier(), last_move=lm, last_player=None if lm is None else self._lastp,
                    legal_actions=legal)

    # -- text -----------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Any:
        """Read an action typed as text: in play ``pass`` (or 不出, ``p``) or
        cards matched against the legal moves, otherwise a flow action's name
        or ``pass`` / ``no`` for the phase's "no" action (see each game's
        ``parse_action``)."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"{text!r} is not action text")
        t = text.strip()
        low = t.lower()
        ph = self._ph
        if ph == self._P_END:
            raise IllegalActionError("the game is over: no action is legal")
        if ph == self._P_PLAY:
            if low in ("pass", "p", "不出", "-", "no"):
                return PASS
            return self._parse_move(t, low)
        if low in self._NO_WORDS:
            return self._NO_ACTION[ph]
        legal = self._flow_legal()
        if low in ("yes", "y") and len(legal) == 2:
            return legal[1]
        return self._parse_flow(t, legal)

    def _one_reading(self, t: str, cards: Hand, readings: list[Move], held: bool, rules: Rules) -> Move:
        """The move typed as ``cards`` (text ``t``) from its legal
        ``readings``, or why there is none (``held``: the cards are in hand)."""
        if len(readings) == 1:
            return readings[0]
        if len(readings) > 1:
            listed = ", ".join(str(m) for m in readings)
            raise AmbiguousMoveError(f"{t!r} can be played {len(readings)} ways; give one of: {listed}", readings)
        if not classify(cards, rules):
            raise InvalidMoveError(f"{t!r} is not a valid combination (docs/rules.md {self._RULES_REF})")
        if not held:
            raise IllegalActionError(f"{t!r} is not in your hand {self.hand(self._cur)}")
        raise IllegalActionError(f"{t!r} does not beat {self.last_move}")

    # -- copies and equality -------------------------------------------------------------------
    def copy(self) -> Any:
        """An independent copy (same history, so it can ``pop`` too); a
        subclass's own attributes (``_own_state``) are copied shallowly."""
        g = self._copy_as(type(self))
        for k, v in self._own_state().items():
            object.__setattr__(g, k, v)
        return g

    def _copy_as(self, cls: "type[GameBase]") -> Any:
        """The game's state as an instance of ``cls``, this game's class or a
        subclass of it (unpickling a subclass's game), made without its
        ``__init__``; a subclass's own attributes are left unset."""
        g = cls.__new__(cls)
        mro = type(self).__mro__
        for c in mro[mro.index(self._game_class()):-2]:  # this package's classes, GameCore's and object's aside
            for n in c.__slots__:  # type: ignore[attr-defined]
                setattr(g, n, getattr(self, n))
        for n in CORE_FIELDS:
            setattr(g, n, getattr(self, n))
        self._copy_core(g)
        for n in self._LISTS:
            setattr(g, n, list(getattr(self, n)))
        return g

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    # -- pickling: through the record (``ddzcore.game.records``, "pickling") ---------------------
    #: ``__reduce__``'s work, ``records._pickled``: set by that module (which imports the games, so
    #: they cannot import it back; ``import ddzcore`` loads it).
    _PICKLER: Callable[[Any], tuple[Any, ...]]

    def __reduce__(self) -> tuple[Any, ...]:
        return self._PICKLER(self)

    @classmethod
    def _game_class(cls) -> type:
        """The game class of this package that ``cls`` is or derives from (``Game``, ``FiveGame``)."""
        return next(c for c in cls.__mro__ if c.__module__.startswith(_PACKAGE))

    def _own_state(self) -> dict[str, Any]:
        """A subclass's own attributes: its instance dict and the slots its
        classes add (those set), by name; empty for this package's games."""
        state = dict(getattr(self, "__dict__", {}))
        for c in type(self).__mro__[:type(self).__mro__.index(self._game_class())]:
            for name, v in vars(c).items():
                if isinstance(v, MemberDescriptorType) and hasattr(self, name):
                    state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: Any) -> None:
        """Set a subclass's own attributes back after unpickling (the game
        itself was replayed from its record and checked): ``state`` maps
        names to values, as ``_own_state`` gave.  Raises ``RecordError`` for
        a state that is not such a dict, that names the game's own state
        (its slots and properties, which a changed pickle could otherwise
        overwrite after the check) or that this class cannot set.
        A subclass whose attributes need checking overrides this and calls it."""
        if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
            raise RecordError(f"a pickled game's own attributes must be a dict by name, not {state!r}")
        game = self._game_class()
        taken = sorted(k for k in state if isdatadescriptor(getattr(game, k, None)))
        if taken:
            raise RecordError(f"a pickled game's own attributes {taken} name the game's state, which its record restores")
        for k, v in state.items():
            try:
                object.__setattr__(self, k, v)
            except AttributeError as e:  # no such slot, a read-only property...
                raise RecordError(f"a pickled game's own attribute {k!r} cannot be set on {type(self).__name__}: {e}") from e

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Any:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Any:
        return self.copy()

