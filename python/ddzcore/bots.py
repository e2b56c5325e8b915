"""Bots: one small interface, a uniform-random bot and a rule-based bot, and
a loop that plays whole games with them (docs/rules.md §3-6).

A bot sees only its ``Observation`` (its information set) and returns one
of ``obs.legal_actions``::

    class MyBot(Bot):
        def act(self, obs: Observation | FiveObservation) -> Action | FiveAction | Move:
            return obs.legal_actions[0]

    game = play_game(Game(seed=1), [MyBot(), RandomBot(2), RuleBot()])
    game.settlement()
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Protocol, Sequence, TypeVar, Union, cast

import numpy as np
import numpy.typing as npt

from .five import FiveAction, FiveGame, FiveObservation, FivePhase
from .game import Action, Game, Observation, Phase
from .moves import Combo, Move
from .rules import Rules
from .settlement import Room, Settlement

__all__ = ["Bot", "RandomBot", "RuleBot", "play_game", "run_games", "SimulationStats", "make_bot", "BOTS"]

ActionT = Union[Action, Move]
#: What a bot returns: a three-player ``Action``, a five-player ``FiveAction`` or a ``Move``.
AnyAction = Union[Action, FiveAction, Move]
#: What a bot sees: a three-player ``Observation`` or a five-player ``FiveObservation``.
AnyObservation = Union[Observation, FiveObservation]

_T_co = TypeVar("_T_co", covariant=True)
_G = TypeVar("_G", bound="Game | FiveGame")


class _Indexable(Protocol[_T_co]):
    """``len`` and integer indexing: a list, a tuple or a ``MoveList``."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int, /) -> _T_co: ...


class Bot:
    """The bot interface: subclass and implement ``act``.

    ``act(obs)`` gets the acting player's ``Observation`` (what that seat
    may see, with ``obs.legal_actions`` non-empty) and returns one of the
    legal actions.  ``new_game(seat, rules)`` is called before each game
    (optional).  A bot that returns an illegal action makes ``play_game``
    raise ``IllegalActionError``.
    """

    name = "bot"

    def new_game(self, seat: int, rules: Rules) -> None:
        """Called before a game with the bot's seat and the rules (optional)."""

    def act(self, obs: AnyObservation) -> AnyAction:  # pragma: no cover - interface
        """The action to take: one of ``obs.legal_actions``."""
        raise NotImplementedError


class RandomBot(Bot):
    """Chooses uniformly among the legal actions (every phase).  ``seed``:
    an int, a ``random.Random`` or ``None`` (fresh entropy)."""

    name = "random"

    def __init__(self, seed: "int | random.Random | None" = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, legal: _Indexable[_T_co]) -> _T_co:
        """One of ``legal``, uniformly."""
        return legal[self.rng.randrange(len(legal))]

    def act(self, obs: AnyObservation) -> AnyAction:
        """A uniformly random legal action."""
        return self.choose(obs.legal_actions)


# -- the rule-based bot ---------------------------------------------------------------

_SHIFTS = np.arange(15, dtype=np.uint64) * np.uint64(4)
_BOMBISH = int(Combo.BOMB)  # BOMB..JOKER_BOMB are bombs (rocket, soft and pure wild bombs; not the shuttle)
_LAST_BOMB = int(Combo.JOKER_BOMB)
#: Bomb strength tiers (docs/rules.md §7): soft < hard < pure wild < rocket; used to spend the cheapest bomb.
_BOMB_TIER = np.zeros(32, dtype=np.int64)
_BOMB_TIER[[int(Combo.SOFT_BOMB), int(Combo.BOMB), int(Combo.WILD_BOMB), int(Combo.ROCKET),
            int(Combo.JOKER_BOMB)]] = [0, 1, 2, 3, 3]  # joker bombs after rank bombs, as their main ranks are


def _counts(word: int) -> list[int]:
    return [(word >> (4 * r)) & 0xF for r in range(15)]


def _strength(word: int, wild: "int | None" = None) -> float:
    """A rough hand-strength score for bidding, showing and doubling
    (``wild``: the laizi wild rank, each wild card adds to it)."""
    c = _counts(word)
    rocket = c[13] and c[14]
    score = 3.0 * sum(1 for r in range(13) if c[r] >= 4) + (4.0 if rocket else 1.5 * c[13] + 2.0 * c[14])
    score += 1.0 * c[12] + 0.4 * c[11]
    # loose low singles are a burden
    score -= 0.25 * sum(1 for r in range(8) if c[r] == 1 and r != wild)
    if wild is not None:
        score += 1.5 * c[wild]  # a wild card completes a bomb or a chain
    return score


class RuleBot(Bot):
    """A simple rule-based player (docs/rules.md §3-5).

    Bidding: calls, robs, bids and doubles by a hand-strength score (bombs,
    the rocket, 2s and aces; loose low singles count against); shows only a
    very strong hand.  Play: goes out whenever it can; leads the move that
    sheds most cards at the lowest rank without breaking a pair, trio or bomb;
    follows an opponent with the cheapest beating move, keeping bombs and
    the rocket for when an opponent is close to going out; lets its
    teammate's move stand.

    Laizi games (docs/rules.md §7): soft and pure wild bombs are bombs like the
    others (kept back, and the weakest tier spent first: soft, hard, pure
    wild, rocket); wild cards count towards hand strength once the wild
    rank is known, and spending them outside a bomb is avoided.

    Five players (docs/rules.md §8, ``FiveObservation``): reveals only as a landlord
    with a hand worth a show, doubles by the same score, and in play treats
    every seat not known to be an ally as an opponent (a farmer knows its
    allies only once the landlords are public).
    """

    name = "rule"

    def __init__(self, call_at: float = 4.0, rob_at: float = 6.0, double_at: float = 6.0,
                 show_at: float = 11.0) -> None:
        self.call_at, self.rob_at, self.double_at, self.show_at = call_at, rob_at, double_at, show_at

    def act(self, obs: AnyObservation) -> AnyAction:
        """The rule-based choice (see the class docstring)."""
        legal = obs.legal_actions
        if isinstance(obs, FiveObservation):
            return self._act_five(obs)
        if obs.phase == Phase.PLAY:
            return self._play(obs, cast(Sequence[Move], legal))  # in play the legal actions are moves
        s = _strength(obs.hand.word, None if obs.wild is None else int(obs.wild))
        ph = obs.phase
        if ph in (Phase.SHOW_START, Phase.SHOW_EARLY):
            return Action.NO_SHOW  # too early to judge
        if ph in (Phase.SHOW_LATE, Phase.SHOW_BOTTOM):
            return Action.SHOW if s >= self.show_at + (3 if ph == Phase.SHOW_BOTTOM else 0) else Action.NO_SHOW
        if ph == Phase.CALL:
            return Action.CALL if s >= self.call_at else Action.NO_CALL
        if ph == Phase.ROB:
            return Action.ROB if s >= self.rob_at else Action.NO_ROB
        if ph == Phase.BID:
            return highest_bid(legal, 3 if s >= self.rob_at + 1 else 2 if s >= self.call_at + 1
                               else 1 if s >= self.call_at else 0)
        if ph == Phase.DOUBLE:
            return Action.DOUBLE if s >= self.double_at else Action.NO_DOUBLE
        return legal[0]

    def _act_five(self, obs: FiveObservation) -> "FiveAction | Move":
        """Five players (docs/rules.md §8): reveal (landlords only) a hand worth a
        show, double by the same score as with three; play as below, with the
        sides this seat knows (seats not known to be allies count as opponents)."""
        if obs.phase == FivePhase.PLAY:
            return self._play(obs, cast(Sequence[Move], obs.legal_actions))  # in play the legal actions are moves
        s = _strength(obs.hand.word)
        if obs.phase == FivePhase.REVEAL:
            reveal = len(obs.legal_actions) > 1 and s >= self.show_at
            return FiveAction.REVEAL if reveal else FiveAction.NO_REVEAL
        return FiveAction.DOUBLE if s >= self.double_at else FiveAction.NO_DOUBLE

    def _play(self, obs: "Observation | FiveObservation", legal: Sequence[Move]) -> Move:
        moves = list(legal)
        hand = obs.hand.word
        n_hand = len(obs.hand)
        # 1. go out if one move does it
        for m in moves:
            if m.codes[0] == hand:
                return m
        if len(moves) == 1:
            return moves[0]
        codes: npt.NDArray[Any] = legal.codes if hasattr(legal, "codes") else np.array([m.codes for m in moves], dtype=np.uint64)
        cards = np.asarray(codes["cards"] if codes.dtype.names else codes[:, 0], dtype=np.uint64)
        info = np.asarray(codes["info"] if codes.dtype.names else codes[:, 1], dtype=np.uint64)
        mc = ((cards[:, None] >> _SHIFTS) & np.uint64(0xF)).astype(np.int64)  # (n, 15) cards per rank
        hc = np.array(_counts(hand), dtype=np.int64)
        combo = (info & np.uint64(31)).astype(np.int64)
        main = ((info >> np.uint64(5)) & np.uint64(15)).astype(np.int64)
        ncards = mc.sum(axis=1)
        is_pass = combo == 0
        is_bomb = (combo >= _BOMBISH) & (combo <= _LAST_BOMB)
        bomb_ranks = hc >= 4  # two decks: bombs of 4-8 cards and of 2-4 jokers
        if hc[13] + hc[14] >= 2:
            bomb_ranks = bomb_ranks.copy()
            bomb_ranks[13] = bomb_ranks[14] = True
        uses_bomb_cards = (mc[:, bomb_ranks] > 0).any(axis=1) & ~is_bomb
        wild = getattr(obs, "wild", None)  # laizi (three players only)
        if wild is not None:  # wild cards are kept for bombs
            uses_bomb_cards = uses_bomb_cards | ((mc[:, int(wild)] > 0) & ~is_bomb)
        breaks = ((mc > 0) & (mc < hc)).sum(axis=1)
        lead = obs.last_move is None
        counts = obs.card_counts
        opponents, allies = _sides(obs)
        danger = min(counts[s] for s in opponents) <= 4
        if lead:
            score = 2.0 * ncards - 0.6 * main - 3.0 * breaks - 20.0 * uses_bomb_cards - 40.0 * is_bomb
            if danger:  # keep the opponent from shedding its last cards cheaply: lead bigger sets
                score += 1.0 * ncards + 0.8 * main * (ncards == 1)
            score = np.where(is_pass, -1e9, score)
            return moves[int(np.argmax(score))]
        if obs.last_player in allies:
            return moves[0]  # PASS comes first when following: let the teammate's move stand
        normal = ~is_pass & ~is_bomb
        if normal.any():
            score = -1.0 * main - 3.0 * breaks - 20.0 * uses_bomb_cards
            if danger:
                score = score + 2.0 * main  # beat hard when an opponent is about to go out
            score = np.where(normal, score, -1e9)
            return moves[int(np.argmax(score))]
        bombs = np.flatnonzero(is_bomb)
        if bombs.size and (danger or n_hand <= 6):  # the weakest bomb: by tier, then rank
            return moves[int(bombs[np.argmin(16 * _BOMB_TIER[combo[bombs]] + main[bombs])])]
        return moves[0]


def highest_bid(legal: "Iterable[object]", want: int) -> Action:
    """The highest legal point bid (叫分) of at most ``want`` points (0: ``NO_BID``)."""
    best = Action.NO_BID
    for a in legal:
        if isinstance(a, Action) and a != Action.NO_BID and int(a) - Action.BID_1 + 1 <= want:
            best = a
    return best


def _sides(obs: "Observation | FiveObservation") -> tuple[list[int], set[int]]:
    """The seats ``obs.player`` plays against and with, as far as it knows
    (five players: seats not known to be allies count as opponents)."""
    me = obs.player
    if isinstance(obs, FiveObservation):
        allies = set(obs.allies)
        return [s for s in range(len(obs.card_counts)) if s != me and s not in allies], allies
    landlord = obs.landlord
    opponents = [s for s in range(3) if s != me and (me == landlord or s == landlord)]
    others = {s for s in range(3) if s != me and s not in opponents} if landlord is not None else set()
    return opponents, others


#: Bot constructors by name (for the command line): ``make_bot("random", seed)``.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "rule": lambda seed=None: RuleBot(),
                                       "search": lambda seed=None: _search_bot(seed)}


def _search_bot(seed: Optional[int]) -> Bot:
    from .searchbot import SearchBot  # imported late: searchbot builds on this module

    return SearchBot(seed)


def make_bot(name: str, seed: Optional[int] = None) -> Bot:
    """A bot by name (``"random"``, ``"rule"`` or ``"search"``).  Raises ``ValueError`` for an unknown name."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {sorted(BOTS)}") from None


# -- playing games ----------------------------------------------------------------------

def play_game(game: _G, bots: Sequence[Bot], max_actions: int = 100_000) -> _G:
    """Play ``game`` to the end with one bot per seat and return it (a
    three-player ``Game`` or a five-player ``FiveGame``, docs/rules.md §8).

    Each bot's ``new_game`` is called first.  Raises ``IllegalActionError``
    if a bot returns an illegal action, ``RuntimeError`` after
    ``max_actions`` actions (a bot that always passes the call, with no
    redeal cap, would deal forever).
    """
    seats = 5 if isinstance(game, FiveGame) else 3
    if len(bots) != seats:
        raise ValueError(f"a game needs {seats} bots, not {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.new_game(seat, game.rules)
    randoms = [b if type(b) is RandomBot else None for b in bots]
    n = 0
    while not game.is_terminal():
        p = game.current_player()
        r = randoms[p]
        action: AnyAction
        if r is not None:  # a random bot needs no observation: same choice, faster
            legal: _Indexable[AnyAction] = game.legal_actions()
            action = r.choose(legal)
        else:
            action = bots[p].act(game.observation(p))
        game.apply(action)
        n += 1
        if n >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
    return game


@dataclass
class SimulationStats:
    """Results of ``run_games``.

    - ``games``; ``landlord_wins`` and ``farmer_wins`` (games each side won,
      escapes and no-landlord games aside); ``no_landlord`` (redeal cap);
    - ``multiplier_total``: sum of the final multipliers (for the average);
    - ``springs``: springs plus anti-springs;
    - ``net``: beans per seat summed over the games (after the rake);
      ``landlord_net`` / ``farmer_net``: beans won by role; ``rake``: beans
      the room took;
    - ``seat_wins``: games each seat's side won; ``seconds``: wall time.
    """

    games: int = 0
    landlord_wins: int = 0
    farmer_wins: int = 0
    no_landlord: int = 0
    multiplier_total: int = 0
    springs: int = 0
    net: list[int] = field(default_factory=lambda: [0, 0, 0])
    landlord_net: int = 0
    farmer_net: int = 0
    rake: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0, 0])
    seconds: float = 0.0

    @property
    def played(self) -> int:
        """Games that had a landlord."""
        return self.landlord_wins + self.farmer_wins

    @property
    def landlord_win_rate(self) -> float:
        """Share of the games with a landlord that the landlord won (0-1)."""
        return self.landlord_wins / self.played if self.played else 0.0

    @property
    def average_multiplier(self) -> float:
        """Mean final multiplier over the games with a landlord."""
        return self.multiplier_total / self.played if self.played else 0.0

    @property
    def spring_rate(self) -> float:
        """Share of the games with a landlord that ended in a spring or anti-spring (0-1)."""
        return self.springs / self.played if self.played else 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    def add(self, game: Game) -> None:
        """Count one finished game."""
        self.add_settlement(game.settlement())

    def add_settlement(self, s: Settlement, times: int = 1) -> None:
        """Count ``times`` finished games that each settled as ``s``."""
        self.games += times
        self.rake += sum(s.rake) * times
        for seat in range(3):
            self.net[seat] += s.net[seat] * times
        if s.landlord is None:
            self.no_landlord += times
            return
        for seat in range(3):
            if seat == s.landlord:
                self.landlord_net += s.net[seat] * times
            else:
                self.farmer_net += s.net[seat] * times
        self.multiplier_total += s.multiplier.total * times
        self.springs += s.spring * times
        for seat in s.winners:
            self.seat_wins[seat] += times
        if s.landlord in s.winners:
            self.landlord_wins += times
        else:
            self.farmer_wins += times


def run_games(n: int, bots: Sequence[Bot], seed: Optional[int] = None, rules: Optional[Rules] = None,
              room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
              progress: Optional[Callable[[int], None]] = None) -> SimulationStats:
    """Play ``n`` games with ``bots`` (seat order) and gather statistics.

    ``seed`` makes the deals reproducible (one ``numpy`` Generator for the
    run); ``progress(k)`` is called after each game.  Every game starts
    from the same ``beans`` (they are not carried from game to game).
    """
    rng = np.random.default_rng(seed)
    stats = SimulationStats()
    t = time.perf_counter()
    for k in range(n):
        g = play_game(Game(rules, seed=rng, room=room, beans=beans), bots)
        stats.add(g)
        if progress is not None:
            progress(k + 1)
    stats.seconds = time.perf_counter() - t
    return stats

