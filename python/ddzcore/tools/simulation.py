"""Simulation runners: play whole games with one bot per seat and gather
statistics (docs/rules.md §3-6 for three players, §8 for five).

``play_game`` plays one game to its end; ``run_games`` and
``run_five_games`` play many seeded deals and count them into
``SimulationStats`` / ``FiveStats``::

    stats = run_games(1000, [RandomBot(1), RuleBot(), RuleBot()], seed=7)
    stats.landlord_win_rate
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, TypeVar

import numpy as np

from ..errors import InvalidArgumentError
from ..game.five import FiveGame
from ..game.settlement import FiveSettlement, Room, Settlement
from ..game.three import Game
from ..rules import Rules
from .bots import AnyAction, Bot, RandomBot, _Indexable

__all__ = ["play_game", "run_games", "SimulationStats", "run_five_games", "FiveStats"]

_G = TypeVar("_G", bound="Game | FiveGame")
PLAYERS = 5


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
        raise InvalidArgumentError(f"a game needs {seats} bots, not {len(bots)}")
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
class _Stats:
    """What the statistics of both seat counts count (see ``SimulationStats``)."""

    games: int = 0
    landlord_wins: int = 0
    farmer_wins: int = 0
    multiplier_total: int = 0
    springs: int = 0
    net: list[int] = field(default_factory=list)  # one a seat (each game's own default)
    landlord_net: int = 0
    farmer_net: int = 0
    rake: int = 0
    seat_wins: list[int] = field(default_factory=list)  # one a seat
    seconds: float = 0.0

    @property
    def played(self) -> int:
        """Games that had a landlord."""
        return self.landlord_wins + self.farmer_wins

    @property
    def landlord_win_rate(self) -> float:
        """Share of the games with a landlord that the landlords' side won (0-1)."""
        return self.landlord_wins / self.played if self.played else 0.0

    @property
    def average_multiplier(self) -> float:
        """Mean final multiplier over the games with a landlord."""
        return self.multiplier_total / self.played if self.played else 0.0

    @property
    def spring_rate(self) -> float:
        """Share of the games with a landlord that ended in a spring (or anti-spring) (0-1)."""
        return self.springs / self.played if self.played else 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    def _count(self, s: Any, landlords: Sequence[int], times: int = 1) -> None:
        """Count ``times`` games that each settled as ``s``, with ``landlords`` (none: no landlord)."""
        n = len(s.net)
        self.games += times
        self.rake += sum(s.rake) * times
        for seat in range(n):
            self.net[seat] += s.net[seat] * times
        if not landlords:
            return
        for seat in range(n):
            if seat in landlords:
                self.landlord_net += s.net[seat] * times
            else:
                self.farmer_net += s.net[seat] * times
        self.multiplier_total += s.multiplier.total * times
        self.springs += s.spring * times
        for seat in s.winners:
            self.seat_wins[seat] += times
        if landlords[0] in s.winners:
            self.landlord_wins += times
        else:
            self.farmer_wins += times


@dataclass
class SimulationStats(_Stats):
    """Results of ``run_games`` (three players).

    - ``games``; ``landlord_wins`` and ``farmer_wins`` (games each side won,
      no-landlord games aside); ``no_landlord`` (redeal cap);
    - ``multiplier_total``: sum of the final multipliers (for the average);
    - ``springs``: springs plus anti-springs;
    - ``net``: beans per seat summed over the games (after the rake);
      ``landlord_net`` / ``farmer_net``: beans won by role; ``rake``: beans
      the room took;
    - ``seat_wins``: games each seat's side won; ``seconds``: wall time.
    """

    net: list[int] = field(default_factory=lambda: [0] * 3)
    seat_wins: list[int] = field(default_factory=lambda: [0] * 3)
    no_landlord: int = 0

    def add(self, game: Game) -> None:
        """Count one finished game."""
        self.add_settlement(game.settlement())

    def add_settlement(self, s: Settlement, times: int = 1) -> None:
        """Count ``times`` finished games that each settled as ``s``."""
        self.no_landlord += (s.landlord is None) * times
        self._count(s, () if s.landlord is None else (s.landlord,), times)


@dataclass
class FiveStats(_Stats):
    """Results of ``run_five_games`` (docs/rules.md §8): as ``SimulationStats``
    (every game has landlords), and

    - ``solo`` (games where the open landlord played alone);
    - ``reveals_chosen`` (a landlord chose to reveal, x2), ``reveals_played``
      (the landlords became public when the twin was played);
    - ``bombs`` (doubling bombs); ``points``: points per seat summed.
    """

    net: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    seat_wins: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    solo: int = 0
    reveals_chosen: int = 0
    reveals_played: int = 0
    bombs: int = 0
    points: list[float] = field(default_factory=lambda: [0.0] * PLAYERS)

    def add(self, game: FiveGame) -> None:
        """Count one finished game."""
        how = game.revealed_by
        self.add_settlement(game.settlement(), game.solo, how is not None and how[0] == "play")

    def add_settlement(self, s: FiveSettlement, solo: bool, reveal_played: bool, times: int = 1) -> None:
        """Count ``times`` finished games that each settled as ``s``, the open
        landlord alone or not (``solo``), the landlords made public by the
        twin played or not (``reveal_played``)."""
        self.solo += solo * times
        self.reveals_chosen += s.multiplier.reveal * times
        self.reveals_played += reveal_played * times
        self.bombs += s.multiplier.bombs * times
        for seat in range(PLAYERS):
            self.points[seat] += s.points[seat] * times
        self._count(s, s.landlords, times)


_S = TypeVar("_S", SimulationStats, FiveStats)


def _run(n: int, make: Callable[[np.random.Generator], Any], bots: Sequence[Bot], stats: _S,
         seed: Optional[int], progress: Optional[Callable[[int], None]]) -> _S:
    """Play ``n`` games made by ``make(rng)`` with ``bots`` into ``stats``."""
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    for k in range(n):
        stats.add(play_game(make(rng), bots))
        if progress is not None:
            progress(k + 1)
    stats.seconds = time.perf_counter() - t
    return stats


def run_games(n: int, bots: Sequence[Bot], seed: Optional[int] = None, rules: Optional[Rules] = None,
              room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
              progress: Optional[Callable[[int], None]] = None) -> SimulationStats:
    """Play ``n`` games with ``bots`` (seat order) and gather statistics.

    ``seed`` makes the deals reproducible (one ``numpy`` Generator for the
    run); ``progress(k)`` is called after each game.  Every game starts
    from the same ``beans`` (they are not carried from game to game).
    """
    return _run(n, lambda rng: Game(rules, seed=rng, room=room, beans=beans), bots, SimulationStats(), seed,
                progress)


def run_five_games(n: int, bots: Sequence[Bot], seed: Optional[int] = None, rules: Optional[Rules] = None,
                   room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
                   progress: Optional[Callable[[int], None]] = None) -> FiveStats:
    """Play ``n`` five-player games with five ``bots`` (seat order) and
    gather ``FiveStats``, as ``run_games``.  Raises ``InvalidArgumentError``
    unless five bots."""
    return _run(n, lambda rng: FiveGame(rules, seed=rng, room=room, beans=beans), bots, FiveStats(), seed, progress)
