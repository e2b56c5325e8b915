"""Native search state, perft and batch random self-play (docs/rules.md §3, §4, §6).

For search and learning code that lives in one loop (list moves, apply one,
recurse or roll out, undo):

- ``PlayState``: the play phase of a three-player one-deck game or a
  five-player two-deck game held in a 72-byte C struct (``STATE_BYTES``):
  hands, seat to move, the move to beat and its owner, the landlord (and
  the five-player hidden landlord), bombs and spring bookkeeping.  ``push``/``pop``
  make and undo moves; ``copy()`` is a struct copy.  Moves cross as ``Move``
  objects or as integer codes (``legal_moves_into`` a reusable NumPy buffer,
  ``push_codes``, ``push_index``).  Cython code can ``cimport`` the struct
  and the nogil ``push``/``pop``/``legal`` from ``ddzcore._state``.
- ``perft(state, depth)``: play sequences of exactly ``depth`` moves.
- ``simulate(n_games, seed)``: whole random games (deal, calling, play) in
  the kernel without the GIL, results as NumPy arrays; three players (laizi
  rooms too) or five (``players=5``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

from . import _botplay, _state
from ._state import MAX_MOVES_HINT, RECORD_DTYPE, STATE_BYTES, UNDO_BYTES
from .errors import InvalidArgumentError, InvalidRulesError, InvalidStateError, MoveIndexError
from .cards import RANK_CHARS, Hand
from .generate import HandLike, LastLike, _hand_word, _last_codes
from .moves import Move, MoveList
from .rules import STANDARD, Rules

__all__ = [
    "PlayState",
    "perft",
    "simulate",
    "SelfPlay",
    "RECORD_DTYPE",
    "STATE_BYTES",
    "UNDO_BYTES",
    "MAX_MOVES_HINT",
]


class PlayState(_state.PlayState):
    """The play phase of a game, held natively: three players with one deck
    (docs/rules.md §3) or five players with two decks (五人斗地主, docs/rules.md §8).

    ``PlayState(hands, landlord=0, turn=None, last=None, owner=None, rules=None,
    *, bombs=0, landlord_plays=0, farmer_plays=0, partner=None)``:

    - ``hands``: three hands with one-deck rules, five with two-deck rules
      (``Hand``, card text or card words), seats in turn order (the next
      seat after s is (s + 1) mod seats); all open.
    - ``landlord``: the landlord's seat (five players: the open landlord,
      明地主); ``turn``: the seat to move (default: the landlord, who leads
      the first trick).
    - ``last``: the move to beat (``Move`` or move text; ``None`` = a free
      lead) and ``owner``, the seat that played it (default: the seat before
      ``turn``; the passes since then follow from the seats).
    - ``rules``: a ``Rules`` or preset name: one deck (move generation
      switches, and the laizi wild rank ``Rules.wild``, docs/rules.md §7) or
      two decks (``Rules(decks=2)``, five players, no wild cards).
    - ``bombs``, ``landlord_plays``, ``farmer_plays``: bookkeeping carried
      in from earlier play (bombs that double the multiplier; non-pass
      moves of the landlord side / of the farmers) for the multiplier and
      spring (docs/rules.md §3, §6, §8).
    - ``partner``: five players only, the hidden landlord's seat (暗地主,
      who holds the marked card's twin), ``None`` when the open landlord
      plays alone.

    The state is a ``STATE_BYTES``-byte C struct (``ddzcore._state``, which
    takes and returns integer codes only; this class parses hands, moves
    and rules and turns codes into ``Move`` objects); ``copy()`` copies it.
    ``push``/``pop`` make and undo moves (python-chess style: ``pop``
    undoes the last ``push``); moves also cross as integer codes:
    ``legal_moves_into(buf)`` fills a reusable ``MOVE_DTYPE`` array and
    ``push_codes(cards, info)`` / ``push_index(i)`` play without ``Move``
    objects.  Five-player play is by ranks: which concrete copy of the
    marked card a move holds is ``FiveGame``'s business, not the state's.

    Raises ``InvalidCardsError`` for a bad hand, ``InvalidDealError`` when the
    hands (with the move to beat) exceed the deck(s) or a seat other than the
    owner of the last move has no cards, ``InvalidMoveError`` for a bad
    ``last``, ``InvalidStateError`` for bad seats or counts (or a hand count
    that does not match the rules).  Unpickling checks everything it restores the
    same way, the undo history too (each step must be a legal move of the
    position before it), and raises ``InvalidStateError``.
    """

    __slots__ = ()
    _move = Move._from_codes  # the compiled state's records -> Move (a bound classmethod: no re-binding)
    _move_list = MoveList

    def __init__(self, hands: Sequence[HandLike], landlord: int = 0, turn: Optional[int] = None,
                 last: LastLike = None, owner: Optional[int] = None, rules: Union[Rules, str, None] = None, *,
                 bombs: int = 0, landlord_plays: int = 0, farmer_plays: int = 0,
                 partner: Optional[int] = None) -> None:
        rules = Rules.coerce(rules)
        ns = 3 if rules.decks == 1 else 5
        try:
            seq = list(hands) if not isinstance(hands, (str, bytes)) else None
        except TypeError:
            seq = None
        if seq is None or len(seq) != ns:
            raise InvalidStateError(f"hands must be a sequence of {ns} hands (seats 0-{ns - 1}, "
                                    f"{rules.decks} deck{'s' if rules.decks > 1 else ''}), not {hands!r}")
        super().__init__([_hand_word(h, rules) for h in seq], landlord, turn, _last_codes(last, rules), owner,
                         rules.flags, rules, bombs=bombs, landlord_plays=landlord_plays,
                         farmer_plays=farmer_plays, partner=partner)

    @classmethod
    def deal(cls, seed: int, landlord: Optional[int] = None, rules: Union[Rules, str, None] = None) -> "PlayState":
        """A random deal, the same for the same ``seed`` (int in 0..2**64-1)
        on every platform.  One deck: 17 cards each, the 3 bottom cards to
        ``landlord`` (default 0).  Two decks (``Rules(decks=2)``, docs/rules.md
        §8): 21 cards each and a marked card drawn among the dealt
        non-jokers; its holder is the landlord and takes the bottom, the
        twin's holder is the ``partner`` (give no ``landlord``: the deal
        decides).  Raises ``InvalidStateError`` for a bad ``landlord``."""
        rules = Rules.coerce(rules)
        words, ll, partner = _state._deal(seed, landlord, rules.decks)
        return cls(words, ll, rules=rules, partner=partner)

    @property
    def hands(self) -> tuple[Hand, ...]:
        """The hands, a tuple of ``Hand`` (one per seat)."""
        decks = self.rules.decks
        return tuple(Hand._trusted(w, decks) for w in self.hand_words)

    def push(self, move: Union[Move, str]) -> None:
        """Play ``move`` (a ``Move`` or move text, e.g. ``"33"`` or ``"pass"``)
        for the seat to move.  Raises ``InvalidMoveError`` for text that is no
        move and ``IllegalMoveError`` for a move that is not legal here (the
        state is then unchanged)."""
        m = move if type(move) is Move else Move.parse(move, self.rules)
        self.push_codes(getattr(m, "_cards", -1), getattr(m, "_info", -1))  # unset in a forged Move: refused

    def __repr__(self) -> str:
        hands, ll, turn, last, owner = self._args()
        extra = f", last={last!r}, owner={owner}" if last else ""
        if self.partner is not None:
            extra += f", partner={self.partner}"
        changed = [f"{f.name}={getattr(self.rules, f.name)!r}" for f in fields(self.rules)
                   if getattr(self.rules, f.name) != getattr(STANDARD, f.name)]
        rules = f", rules=Rules({', '.join(changed)})" if changed else ""
        over = f" (over: seat {self.owner} won)" if self.is_over else ""
        return f"<PlayState(hands={tuple(hands)!r}, landlord={ll}, turn={turn}{extra}{rules}){over}>"

    @classmethod
    def _rebuild(cls, hands: Sequence[str], landlord: int, turn: int, last: Optional[str], owner: Optional[int],
                 rules: Rules, bombs: int, landlord_plays: int, farmer_plays: int, ply: int,
                 hist: Any, partner: Optional[int] = None) -> "PlayState":
        """Unpickle (see ``_state.PlayState.__reduce__``): the position through
        the constructor's checks, then the undo history through ``_restore``'s."""
        s = cls(hands, landlord, turn, last, owner, rules, bombs=bombs, landlord_plays=landlord_plays,
                farmer_plays=farmer_plays, partner=partner)
        s._restore(ply, hist)
        return s

    if TYPE_CHECKING:
        rules: Rules

        @property
        def last(self) -> Optional[Move]: ...
        @property
        def move_stack(self) -> list[Move]: ...
        def legal_moves(self) -> MoveList: ...
        def pop(self) -> Move: ...
        def perft_divide(self, depth: int) -> dict[Move, int]: ...


def perft(state: PlayState, depth: int) -> int:
    """Number of play sequences of exactly ``depth`` moves from ``state``.

    Passes count as moves; a game that ends before ``depth`` moves
    contributes nothing below its end (as checkmate in chess); ``depth`` 0
    gives 1.  Counted in the kernel (bulk counting at the leaves, no GIL);
    ``state`` is left unchanged.  ``state.perft_divide(depth)`` splits the
    count by first move.  Raises ``InvalidArgumentError`` for a depth that
    is not an int in 0..168 (no game lasts longer) or a ``state`` that is
    not a ``PlayState``.
    """
    if not isinstance(state, PlayState):
        raise InvalidArgumentError(f"perft needs a PlayState, not {type(state).__name__}")
    return state.perft(depth)


@dataclass(frozen=True, repr=False)
class SelfPlay:
    """Results of ``simulate``: one entry per game, NumPy arrays of shape ``(n,)``.

    - ``landlord`` (int8): the landlord's seat; -1 when every deal was passed
      and ``Rules.max_redeals`` ran out (then the game has no play, winner -1).
    - ``winner`` (int8): the seat that went out first; -1 without a landlord.
    - ``landlord_won`` (bool): the winning side (``winner == landlord``).
    - ``first_caller`` (int8): the seat that spoke first in the last deal's calling.
    - ``calls`` (uint8, shape ``(n, 4)``): that deal's calling decisions in
      speaking order from ``first_caller``, as ``ddzcore.game.Action`` values
      (2 no call, 3 call, 4 no rob, 5 rob; point bidding: 6 no bid, 7-9 bid
      1-3), padded with 255.
    - ``redeals`` (uint16): deals thrown in because everybody passed.
    - ``base`` (uint8): base score: 1 under call-and-rob, the winning bid
      (1-3) under point bidding (``Rules(bidding="points")``).
    - ``robs`` (uint8): robs, each doubling (the caller's rob-back included).
    - ``bombs`` (uint8): bombs and rockets played, each doubling.
    - ``spring`` / ``anti_spring`` (bool): docs/rules.md §3; either doubles, once.
    - ``multiplier`` (int64): 2 ** (robs + bombs) × 2 if spring or anti-spring
      (docs/rules.md §6 without the room's initial multiplier, show cards and
      doubling, which random self-play leaves out); the per-farmer stake in
      points is ``base × multiplier``; 0 for a game without a landlord.
    - ``turns`` (uint16): moves of the play phase, passes included.
    - ``hands`` (uint64, shape ``(n, players)``): card words of the hands at
      the start of play (the landlord's with the bottom cards);
      ``bottom`` (uint64): the bottom cards.

    Laizi rooms (``Rules(laizi=True)``, docs/rules.md §7): ``wild`` (int8),
    each game's wild rank index (0 = 3 .. 12 = 2), drawn once the landlord
    is known (-1 without a landlord), and ``soft_bombs`` (uint8), the soft
    bombs among ``bombs``; with the tiered bomb table the multiplier counts
    soft bombs x2 and the other bombs and rockets x4.  ``None`` otherwise
    (with a fixed ``Rules.wild`` too: ``wild`` is then the rules' rank).

    Five players (``players=5``, docs/rules.md §8): ``landlord`` is the open
    landlord (明地主, the marked card's holder, who takes the bottom),
    ``partner`` (int8) the hidden landlord (暗地主, the twin's holder) or -1
    when the open landlord plays alone, ``marked`` (uint8) the marked card's
    id (copy × 54 + card: its twin is (id + 54) mod 108); ``landlord_won``
    says the landlord side won; ``bombs`` counts the doubling bombs (5-8
    cards, three and four jokers); ``spring`` means the losing side played
    no card, ``anti_spring`` is always False; there is no calling
    (``first_caller`` is the open landlord, ``calls`` all 255, ``robs`` and
    ``redeals`` 0, ``base`` 1) and the reveal and doubling are left out, so
    ``multiplier`` is 2 ** bombs × 2 if spring.  ``partner`` and ``marked``
    are ``None`` for three players.

    With ``record=True``: ``moves``, a ``RECORD_DTYPE`` array (``cards``
    uint64 card word, ``info`` uint16 reading, ``seat`` int8) of every play
    move of every game in order, passes included, and ``offsets`` (int64,
    shape ``(n + 1,)``): game i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    Otherwise both are ``None``.
    """

    landlord: np.ndarray
    winner: np.ndarray
    landlord_won: np.ndarray
    first_caller: np.ndarray
    calls: np.ndarray
    redeals: np.ndarray
    base: np.ndarray
    robs: np.ndarray
    bombs: np.ndarray
    spring: np.ndarray
    anti_spring: np.ndarray
    multiplier: np.ndarray
    turns: np.ndarray
    hands: np.ndarray
    bottom: np.ndarray
    moves: Optional[np.ndarray] = None
    offsets: Optional[np.ndarray] = None
    wild: Optional[np.ndarray] = None
    soft_bombs: Optional[np.ndarray] = None
    partner: Optional[np.ndarray] = None
    marked: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.winner)

    def __repr__(self) -> str:
        recorded = "" if self.moves is None else f", {len(self.moves)} moves recorded"
        return f"<SelfPlay {len(self)} games{recorded}>"

    def game_moves(self, i: int) -> np.ndarray:
        """Game i's recorded moves (``RECORD_DTYPE``).  Raises
        ``InvalidArgumentError`` unless recorded and ``MoveIndexError`` (an
        ``IndexError``) unless ``i`` is an int in 0..len-1."""
        if self.moves is None or self.offsets is None:
            raise InvalidArgumentError("moves were not recorded: call simulate(..., record=True)")
        if isinstance(i, np.integer):
            i = int(i)
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self):
            raise MoveIndexError(f"game index {i!r} out of range: {len(self)} games")
        return self.moves[self.offsets[i]:self.offsets[i + 1]]


_ALL = ((True,) * 3,) * 3  # every seat may double (unused: simulate plays no doubling)


def _seed_arg(seed: object, name: str) -> int:
    if isinstance(seed, np.integer):
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise InvalidArgumentError(f"{name} must be an int in 0..2**64-1, not {seed!r}")
    return seed


def _simulate_threads(n_games: int, seed: int, rules: Rules, cap: int, record: bool, first_game: int,
                      threads: int, players: int, policy: str = "random") -> dict[str, np.ndarray]:
    """The kernel's columns of games first_game.. (``_state._simulate``, or
    ``_botplay._play_games`` for the rule bot at every seat), over
    ``threads`` threads: the kernel's crew of helper threads claims chunks
    of games (the result is the same for any count, each game's stream
    depending only on its number)."""
    threads = min(threads, 64)  # the kernel uses at most 64 (as the batch calls); any int >= 1 is allowed
    if policy == "rule":
        return _botplay._play_games(n_games, seed, first_game, rules.flags, rules.bidding == "points",
                                    rules.rob_back, cap, (0, 0, 0), 0, False, _ALL, (1, 1, 1), threads=threads)[0]
    return dict(_state._simulate(n_games, seed, rules.flags, rules.bidding == "points", rules.rob_back, cap,
                                 record, first_game, rules.laizi and rules.wild is None, players, threads))


def simulate(n_games: int, seed: int, policy: str = "random", rules: "Rules | str | None" = None, *,
             record: bool = False, first_game: int = 0, threads: int = 1, players: int = 3) -> SelfPlay:
    """Play ``n_games`` whole games in the kernel, without the GIL.

    Each three-player game: a random deal (17 cards each, 3 bottom cards),
    calling with uniformly random choices among the legal ones (docs/rules.md
    §4: call and rob with the rob-back step, or point bidding with
    ``Rules(bidding="points")``; when everybody passes the cards are dealt
    again, up to ``rules.max_redeals`` times), in a laizi room
    (``Rules(laizi=True)``, docs/rules.md §7) the wild rank drawn uniformly
    from 3..2 once the landlord is known (a fixed ``Rules.wild`` is used as
    given), then play with a uniformly random legal move at every turn
    until a hand is empty (docs/rules.md §3).  Show cards and doubling are
    not part of random self-play.

    ``players=5``: the five-player two-deck game (docs/rules.md §8; ``rules``
    default ``Rules(decks=2)``): 21 cards each, 3 bottom cards, a marked
    card drawn among the dealt non-jokers names the open and the hidden
    landlord, the open landlord takes the bottom and leads; a trick ends
    after four passes; the side of the first player out wins.  The reveal
    and doubling are not part of random self-play.

    ``seed`` (int, 0..2**64-1) makes the run deterministic on every
    platform; game i uses its own stream derived from ``(seed, first_game +
    i)``, so ``simulate(n, s, first_game=k)`` plays games k..k+n-1 of the
    same run (split a run across threads this way: the GIL is released).
    ``policy``: ``"random"``, or ``"rule"`` (three players, one deck, no
    wild cards): every seat plays as ``ddzcore.tools.bots.RuleBot`` (its
    calls, robs, bids and moves, decided in C; the same deals and first
    callers as ``"random"``).  ``rules``: ``Rules`` (or preset name),
    one deck for three players, two decks without wild cards for five (its
    move-generation switches; three players also ``bidding``,
    ``rob_back``, ``max_redeals``, ``laizi``, ``laizi_bombs``).
    ``record``: also return every move (see ``SelfPlay``); with one thread
    the records are handed to NumPy without a copy.
    ``threads``: threads (int >= 1) playing the games: the kernel's helper
    threads, kept between calls (``ddzcore.thread_spin``), claim chunks of
    games (each game's stream depends only on its number, so the result is
    identical for any count); while another Python thread's call has the
    helpers, a call plays alone.  With ``record`` and several threads the
    threads' blocks of records are joined with one copy, each block freed
    once copied (peak memory 1.06x the result at a million games,
    ``benchmarks/batch_memory.py``).

    Returns a ``SelfPlay`` of arrays.  Raises ``InvalidArgumentError`` for a
    bad count (0..2**40), seed, policy, thread count or ``players`` (3 or
    5), ``InvalidRulesError`` for rules whose decks do not match
    ``players``.
    """
    if players not in (3, 5) or isinstance(players, bool):
        raise InvalidArgumentError(f"players must be 3 or 5, not {players!r}")
    rules = Rules.coerce(rules) if rules is not None or players == 3 else Rules(decks=2)
    if rules.decks != (1 if players == 3 else 2):
        raise InvalidRulesError(f"simulate plays three players with one deck and five with two (Rules.decks), "
                                f"not players={players} with decks={rules.decks}")
    if policy not in ("random", "rule"):
        raise InvalidArgumentError(f"unknown policy {policy!r}; the kernel plays 'random' and 'rule' "
                                   "(drive a PlayState from Python or Cython for other policies)")
    if policy == "rule" and (players != 3 or rules.laizi or rules.wild is not None):
        raise InvalidRulesError("policy='rule' plays three players with one deck and no wild cards")
    if policy == "rule" and record:
        raise InvalidArgumentError("simulate records the moves of policy='random' only")
    if isinstance(n_games, np.integer):
        n_games = int(n_games)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or not 0 <= n_games <= 1 << 40:
        raise InvalidArgumentError(f"n_games must be an int in 0..2**40, not {n_games!r}")
    seed = _seed_arg(seed, "seed")
    first_game = _seed_arg(first_game, "first_game")
    cap = -1 if rules.max_redeals is None else min(rules.max_redeals, 60000)
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise InvalidArgumentError(f"threads must be an int >= 1, not {threads!r}")
    cols = _simulate_threads(n_games, seed, rules, cap, bool(record), first_game, threads, players, policy)
    landlord = cols["landlord"]
    robs, bombs = cols["robs"].astype(np.int64), cols["bombs"].astype(np.int64)
    spring = cols["spring"] | cols["anti_spring"]
    laizi = rules.laizi or rules.wild is not None
    if rules.wild is not None:
        cols["wild"] = np.where(landlord >= 0, RANK_CHARS.index(rules.wild), -1).astype(np.int8)
    if laizi and rules.laizi_bombs == "tiered":  # docs/rules.md §7: soft bombs x2, the others x4
        bombs = 2 * bombs - cols["soft_bombs"]
    multiplier = np.left_shift(np.int64(1), robs + bombs + spring)
    won = cols["winner"] == landlord
    if players == 5:
        won = won | ((cols["winner"] == cols["partner"]) & (cols["partner"] >= 0))
    return SelfPlay(
        landlord=landlord,
        winner=cols["winner"],
        landlord_won=won & (landlord >= 0),
        first_caller=cols["first_caller"],
        calls=cols["calls"],
        redeals=cols["redeals"],
        base=cols["base"],
        robs=cols["robs"],
        bombs=cols["bombs"],
        spring=cols["spring"],
        anti_spring=cols["anti_spring"],
        multiplier=np.where(landlord >= 0, multiplier, 0),
        turns=cols["turns"],
        hands=cols["hands"],
        bottom=cols["bottom"],
        moves=cols.get("moves"),
        offsets=cols.get("offsets"),
        wild=cols["wild"] if laizi else None,
        soft_bombs=cols["soft_bombs"] if laizi else None,
        partner=cols["partner"] if players == 5 else None,
        marked=cols["marked"] if players == 5 else None,
    )
