"""The arena: bots compared on duplicate deals (docs/rules.md §3, §6).

Each deal (17/17/17 cards and 3 bottom cards, seeded) is played several
times with the bots' seats permuted, so that the luck of the cards cancels:

- two bots ``A,B``: A as landlord (seat 0, with the bottom) against two B
  farmers, then B as landlord against two A farmers (the evaluation of
  DouZero and PerfectDou);
- three bots ``A,B,C``: all six seatings.

Calling is not played: seat 0 calls, nobody robs, no cards are shown and
nobody doubles, so every deal's roles are the same for every seating.
Each game scores for each side the multiplier (docs/rules.md §6: 2 per bomb
or rocket, 2 for a spring or anti-spring), positive for the side that went
out first; a bot's ADP (average difference in points) in a role is the mean
of that score over its games in the role, its WP (winning percentage) the
share of them won.  A bot that breaks the protocol (``ProtocolError``) or
plays an illegal action loses the game for its side with multiplier 1 and
the reason is recorded.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .bots import Bot, RandomBot, RuleBot
from ..errors import IllegalActionError, InvalidArgumentError
from ..cards import Card
from ..game.three import Action, Game, Phase
from .protocol import ExecBot, ProtocolError
from ..rules import Rules
from .searchbot import SearchBot

__all__ = ["arena", "ArenaResult", "RoleStats", "make_arena_bot", "seatings", "make_bot", "BOTS"]

#: Bot constructors by name (for the command line): ``make_bot("random", seed)``.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "rule": lambda seed=None: RuleBot(),
                                       "search": SearchBot}


def make_bot(name: str, seed: Optional[int] = None) -> Bot:
    """A bot by name (``"random"``, ``"rule"`` or ``"search"``).  Raises
    ``InvalidArgumentError`` (a ``ValueError``) naming an unknown name."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise InvalidArgumentError(f"unknown bot {name!r}; choose one of {sorted(BOTS)}") from None

Z95 = 1.959963984540054


def make_arena_bot(spec: str, seed: Optional[int] = None, timeout: float = 5.0) -> Bot:
    """A bot from its arena name: ``random``, ``rule``, ``search``,
    ``rlcard`` (RLCard's rule agent, when rlcard is installed),
    ``exec:COMMAND`` (a program over the JSON-lines protocol,
    ``ddzcore.tools.protocol``) or ``botzone:COMMAND`` (a Botzone FightTheLandlord2
    program, ``ddzcore.tools.botzone``).  Raises ``InvalidArgumentError`` for an unknown name."""
    if spec.startswith("exec:"):
        return ExecBot(spec[5:], timeout)
    if spec.startswith("botzone:"):
        from .botzone import BotzoneProgram

        return BotzoneProgram(spec[8:], timeout)
    if spec == "rlcard":
        from .rlcard_bot import RLCardRuleBot

        return RLCardRuleBot(seed)
    return make_bot(spec, seed)


def seatings(n_bots: int) -> list[tuple[int, int, int]]:
    """Bot index per seat (seat 0 the landlord) for each replay of a deal."""
    if n_bots == 2:
        return [(0, 1, 1), (1, 0, 0)]
    if n_bots == 3:
        return list(itertools.permutations(range(3)))  # type: ignore[arg-type]
    raise InvalidArgumentError(f"the arena takes 2 or 3 bots, not {n_bots}")


@dataclass
class RoleStats:
    """One bot in one role: ``games``, ``wins``, ``wp`` (0-1) with its 95 %
    interval ``wp_ci`` (normal approximation), ``adp`` (points per game)
    with ``adp_ci``, ``forfeits`` (games lost by breaking the protocol)."""

    games: int = 0
    wins: int = 0
    wp: float = 0.0
    wp_ci: tuple[float, float] = (0.0, 0.0)
    adp: float = 0.0
    adp_ci: tuple[float, float] = (0.0, 0.0)
    forfeits: int = 0
    _scores: list[float] = field(default_factory=list, repr=False)

    def add(self, won: bool, score: float, forfeit: bool) -> None:
        self.games += 1
        self.wins += won
        self.forfeits += forfeit
        self._scores.append(score)

    def finish(self) -> None:
        n = self.games
        if not n:
            return
        p = self.wins / n
        h = Z95 * math.sqrt(p * (1 - p) / n)
        self.wp, self.wp_ci = p, (p - h, p + h)
        s = np.array(self._scores)
        self.adp = float(s.mean())
        h = Z95 * float(s.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        self.adp_ci = (self.adp - h, self.adp + h)


@dataclass
class ArenaResult:
    """``arena``'s figures: ``bots`` (names), ``deals``, ``games``, ``seed``,
    ``stats[bot][role]`` (role ``"landlord"``, ``"farmer"`` or ``"all"``: a
    ``RoleStats``), ``forfeits`` (one dict per forfeited game: deal,
    seating, seat, bot, reason), ``seconds``.  ``to_json()`` is the JSON
    result of ``ddz arena --json``."""

    bots: list[str]
    deals: int
    games: int
    seed: int
    rules: str
    stats: dict[str, dict[str, RoleStats]]
    forfeits: list[dict[str, Any]]
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for roles in out["stats"].values():
            for st in roles.values():
                st.pop("_scores", None)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)


def arena_rules(rules: Optional[Rules]) -> Rules:
    """The arena's flow: call and rob without shows or doubling (the deal's
    roles are fixed), move generation from ``rules``."""
    rules = Rules() if rules is None else rules
    return rules.replace(bidding="call_rob", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0,
                         doubling=False, laizi=False, wild=None)


def deal_cards(seed: int, d: int) -> tuple[list[int], ...]:
    """Deal number ``d`` of an arena run: four lists of ``Card`` ints (17, 17, 17, 3)."""
    perm = np.random.default_rng([seed, d]).permutation(54).tolist()
    return perm[0:17], perm[17:34], perm[34:51], perm[51:54]


def play_deal(deal: Sequence[Sequence[int]], bots: Sequence[Bot], rules: Rules) -> tuple[bool, int, Optional[tuple[int, str]]]:
    """Play one seating of a deal: ``(landlord_won, multiplier, forfeit)``;
    ``forfeit`` is ``(seat, reason)`` when a bot broke the rules or the protocol."""
    g = Game(rules, deal=[[Card(c) for c in part] for part in deal], first=0)
    for b, seat in zip(bots, range(3)):
        b.new_game(seat, rules)
    for a in (Action.CALL, Action.NO_ROB, Action.NO_ROB):
        if g.phase != Phase.PLAY:
            g.apply(a)
    while not g.is_terminal():
        p = g.current_player()
        try:
            g.apply(bots[p].act(g.observation(p)))
        except (ProtocolError, IllegalActionError) as e:
            return p != 0, 1, (p, getattr(e, "reason", str(e)))
    s = g.settlement()
    return 0 in s.winners, s.multiplier.total, None


def tally(stats: dict[str, dict[str, RoleStats]], forfeits: list[dict[str, Any]], names: Sequence[str], d: int,
          k: int, seating: Sequence[int], landlord_won: bool, mult: int, forfeit: Optional[tuple[int, str]]) -> None:
    """Count one game of deal ``d`` under seating ``k`` (``play_deal``'s result) into ``stats`` and ``forfeits``."""
    if forfeit is not None:
        forfeits.append({"deal": d, "seating": k, "seat": forfeit[0], "bot": names[seating[forfeit[0]]],
                         "reason": forfeit[1]})
    for role, members in (("landlord", {seating[0]}), ("farmer", {seating[1], seating[2]})):
        won = landlord_won == (role == "landlord")
        for member in members:
            ff = forfeit is not None and seating[forfeit[0]] == member
            for key in (role, "all"):
                stats[names[member]][key].add(won, mult if won else -mult, ff)


def arena(bots: Sequence["str | Bot"], deals: int = 100, seed: int = 0, rules: Optional[Rules] = None, *,
          timeout: float = 5.0, progress: Optional[Callable[[int, int], None]] = None) -> ArenaResult:
    """Play ``deals`` duplicate deals between 2 or 3 bots (see the module docstring).

    ``bots``: arena names (``make_arena_bot``) or ``Bot`` objects (each used
    in one seat at a time: give distinct objects for the seats, or names);
    ``seed``: the deals and the bots' seeds; ``rules``: move generation
    (one deck); ``timeout``: seconds per move for external programs;
    ``progress(done, total)`` after each game.  Returns an ``ArenaResult``.
    Raises ``ValueError`` for a bad bot list or count.
    """
    import time

    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 0:
        raise InvalidArgumentError(f"deals must be an int >= 0, not {deals!r}")
    plan = seatings(len(bots))
    names = [b if isinstance(b, str) else getattr(b, "name", type(b).__name__) for b in bots]
    if len(set(names)) != len(names):
        names = [f"{n}#{i}" for i, n in enumerate(names)]
    # one bot object per (bot, seat): bots may keep state within a game
    seats: list[list[Bot]] = []
    for i, b in enumerate(bots):
        if isinstance(b, str):
            seats.append([make_arena_bot(b, seed * 1000 + 10 * i + s, timeout) for s in range(3)])
        else:
            seats.append([b, b, b])
    ar = arena_rules(rules)
    stats = {n: {r: RoleStats() for r in ("landlord", "farmer", "all")} for n in names}
    forfeits: list[dict[str, Any]] = []
    total = deals * len(plan)
    done = 0
    t = time.perf_counter()
    try:
        for d in range(deals):
            cards = deal_cards(seed, d)
            for k, seating in enumerate(plan):
                players = [seats[seating[s]][s] for s in range(3)]
                tally(stats, forfeits, names, d, k, seating, *play_deal(cards, players, ar))
                done += 1
                if progress is not None:
                    progress(done, total)
    finally:
        for bot in {id(x): x for per_seat in seats for x in per_seat}.values():
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    for roles in stats.values():
        for st in roles.values():
            st.finish()
    preset = next((n for n, v in Rules.PRESETS.items() if Rules.preset(n) == (rules or Rules())), "custom")
    return ArenaResult(names, deals, total, seed, preset, stats, forfeits, time.perf_counter() - t)
