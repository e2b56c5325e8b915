"""Bot games in the kernel: the fast path of ``ddz simulate`` (docs/rules.md §3-6).

When every seat is a ``RandomBot`` or a default ``RuleBot`` (the rule-based
player), ``run_native_games`` plays the same three-player games as
``bots.run_games`` (the full flow of ``Game``: show cards 明牌, calling and
robbing 叫地主/抢地主 or point bidding 叫分 with redeals, the landlord's show
after the bottom, doubling 加倍, then play) without building a ``Game`` or an
``Observation``: the rule bot decides in C (``ddzcore._botplay``), and the
games are settled in Python once per distinct outcome.

- Rule bots only: the deals are drawn from ``numpy.random.default_rng(seed)``
  exactly as ``Game`` draws them, so the statistics equal ``run_games``'s
  for the same seed (``seconds`` aside).
- With a random seat: each game has its own kernel stream derived from
  ``(seed, game number)``, as ``ddzcore.simulate``'s (with random bots, no
  shows and no doubling, the very games ``simulate`` plays); Python's
  ``random`` stream of ``RandomBot`` cannot be reproduced, so the figures
  differ from ``run_games``'s game by game, not in distribution.

Five players (docs/rules.md §8): ``run_native_five_games`` plays
``run_five_games``'s games (the reveal 亮出身份, doubling 加倍 and play, a
seat holding marked-face cards choosing how many to play) the same way:
rule bots only on ``FiveGame``'s deals from ``default_rng(seed)`` (the
statistics equal ``run_five_games``'s), with a random seat on the kernel's
streams.

Laizi rooms and other bots are not played here (``native_runner`` returns
``None``; use ``run_games`` / ``run_five_games``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .. import _botplay
from .._gamecore import deal_perm
from ..errors import InvalidArgumentError
from ..game.base import check_room_beans
from ..game.settlement import (FiveMultiplier, Multiplier, Room, combine_shows, settle_five, settle_game,
                               settle_no_landlord)
from ..rules import Rules
from .bots import Bot, RandomBot, RuleBot
from .simulation import FiveStats, SimulationStats

__all__ = ["run_native_games", "run_native_five_games", "native_runner", "native_policy", "fresh_seed"]

#: Policy codes of the kernel: a uniformly random choice, or the rule bot's.
RANDOM, RULE = 0, 1
_CHUNK = 4096  # games per kernel call (the progress callback runs between calls)
# One card's word by concrete card 0-53 (4 × rank + suit; 52, 53 the jokers; docs/rules.md §1).
_UNITS = np.array([1 << (4 * (c >> 2 if c < 53 else 14)) for c in range(54)], dtype=np.uint64)
_DEFAULT_RULE = (RuleBot().call_at, RuleBot().rob_at, RuleBot().double_at, RuleBot().show_at)


def fresh_seed() -> int:
    """A new random seed, an int in 0..2**63-1 (for a run to print and be repeated with)."""
    return secrets.randbits(63)


def native_policy(bots: Sequence[Bot]) -> Optional[tuple[int, ...]]:
    """The kernel policies (``RANDOM`` 0, ``RULE`` 1) of the bots (one a seat), or
    ``None`` unless each is a ``RandomBot`` or a ``RuleBot`` with the default thresholds."""
    out = []
    for b in bots:
        if type(b) is RandomBot:
            out.append(RANDOM)
        elif type(b) is RuleBot and (b.call_at, b.rob_at, b.double_at, b.show_at) == _DEFAULT_RULE:
            out.append(RULE)
        else:
            return None
    return tuple(out)


def native_runner(bots: Sequence[Bot], rules: Optional[Rules] = None) -> "Callable[..., Any] | None":
    """The kernel runner for these bots under these rules, else ``None``:
    ``run_native_games`` for three random or default rule bots with one deck
    and no laizi, ``run_native_five_games`` for five with two decks."""
    rules = Rules.coerce(rules)
    if native_policy(bots) is None or rules.laizi or rules.wild is not None:
        return None
    return {(3, 1): run_native_games, (5, 2): run_native_five_games}.get((len(bots), rules.decks))


def _policy_of(bots: Sequence[Bot], rules: Rules, room: Optional[Room], beans: Optional[Sequence[int]],
               runner: Callable[..., Any], plays: str) -> tuple[tuple[int, ...], Optional[tuple[int, ...]]]:
    """The kernel policies of ``bots`` for ``runner`` and the beans as a tuple
    of ints; ``InvalidArgumentError`` (``runner`` plays ``plays``) unless it
    is their runner under ``rules``, or for a ``room`` or beans a game
    refuses (``check_room_beans``)."""
    policy = native_policy(bots)
    if policy is None or native_runner(bots, rules) is not runner:
        raise InvalidArgumentError(f"{runner.__name__} plays {plays}")
    return policy, check_room_beans(room, beans, len(bots))


def _streams(seed: Optional[int], given: bool) -> tuple[Optional[np.random.Generator], int]:
    """The generator of the deals (``given``: rule bots only, the deals the
    Python games draw from ``default_rng(seed)``; also the source of a fresh
    kernel seed when ``seed`` is ``None``) and the kernel seed.  Raises
    ``InvalidArgumentError`` for a seed that is not ``None`` or an int in
    [0, 2**64)."""
    if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool)
                             or not 0 <= seed < 1 << 64):
        raise InvalidArgumentError(f"seed must be None or an int in [0, 2**64), not {seed!r}")
    rng = np.random.default_rng(seed) if given or seed is None else None
    if seed is not None:
        return rng, int(seed)
    return rng, 0 if given or rng is None else int(rng.integers(0, 1 << 63))


def _draw_deals(rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The next ``k`` deals of ``rng`` as ``Game`` draws them (a permutation of
    the 54 cards, 17 to each seat in turn and 3 to the bottom, then the first
    caller): hands (k, 3) and bottom (k,) card words, first callers (k,)."""
    perms = np.empty((k, 54), np.intp)
    first = np.empty(k, np.int8)
    for i in range(k):
        perms[i] = rng.permutation(54)
        first[i] = int(rng.random() * 3)
    units = _UNITS[perms]
    hands = units[:, :51].reshape(k, 3, 17).sum(axis=2, dtype=np.uint64)
    return np.ascontiguousarray(hands), units[:, 51:].sum(axis=1, dtype=np.uint64), first


_Flow = tuple[int, bool, bool, int, tuple[int, int, int], int, bool, list[list[bool]]]
_Deals = tuple[Optional[np.ndarray], Optional[np.ndarray], Optional[np.ndarray]]


def _kernel_args(rules: Rules, room: Optional[Room], beans: Optional[Sequence[int]]) -> _Flow:
    """The flow arguments of ``_botplay._play_games`` for these rules and room."""
    cap = -1 if rules.max_redeals is None else min(rules.max_redeals, 60000)
    may = [[room is None or room.may_double(s, ll, beans) for s in range(3)] for ll in range(3)]
    return (rules.flags, rules.bidding == "points", rules.rob_back, cap,
            (rules.show_start, rules.show_deal_early, rules.show_deal_late), rules.show_bottom, rules.doubling, may)


def _distinct_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of an int64 table (n, k): each one's first row index,
    its count and every row's group (as ``np.unique(axis=0)``, through one
    int64 key per row: one sort instead of a sort of rows)."""
    key = np.zeros(len(table), np.int64)
    span = 1
    for col in table.T:
        lo, hi = int(col.min()), int(col.max())
        span *= hi - lo + 1
        key = key * (hi - lo + 1) + (col - lo)
    if span >= 1 << 63:  # too wide to pack (never with game outcomes): sort the rows
        _, first, group, counts = np.unique(table, axis=0, return_index=True, return_inverse=True, return_counts=True)
    else:
        _, first, group, counts = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    return first, counts, group.reshape(-1)


def _add_games(stats: SimulationStats, cols: dict[str, np.ndarray], rules: Rules, room: Optional[Room],
               beans: Optional[Sequence[int]]) -> None:
    """Count the games of ``cols`` in ``stats`` (docs/rules.md §6).  Games
    alike in landlord, winning side, base, doubling, spring and multiplier
    total settle alike (``settle_game`` reads the multiplier's total only),
    so each such outcome is settled and counted once."""
    if not len(cols["landlord"]):
        return
    initial = room.initial_multiplier if room is not None else 1
    spring = cols["spring"] | cols["anti_spring"]
    parts = np.column_stack([cols["robs"], cols["bombs"], cols["spring"], cols["anti_spring"], cols["shows"]])
    pfirst, _, which = _distinct_rows(parts.astype(np.int64))
    mults = [Multiplier(initial=initial, robs=r, bombs=b, show=combine_shows(shows, rules.show_combine),
                        spring=bool(sp), anti_spring=bool(anti)) for r, b, sp, anti, *shows in parts[pfirst].tolist()]
    total = np.array([m.total for m in mults], dtype=np.int64)[which]
    won = cols["winner"] == cols["landlord"]
    table = np.column_stack([cols["landlord"].astype(np.int64), won, cols["base"], total, spring, cols["doubles"]])
    first, counts, _ = _distinct_rows(table)
    for key, i, times in zip(map(tuple, table[first].tolist()), first.tolist(), counts.tolist()):
        landlord, m = key[0], mults[which[i]]
        s = settle_no_landlord(m) if landlord < 0 else settle_game(landlord, bool(key[1]), key[2], m, key[5:8],
                                                                     room, beans)
        stats.add_settlement(s, times)


def run_native_games(n: int, bots: Sequence[Bot], seed: Optional[int] = None, rules: Optional[Rules] = None,
                     room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
                     progress: Optional[Callable[[int], None]] = None) -> SimulationStats:
    """``bots.run_games`` in the kernel, for three ``RandomBot`` / default
    ``RuleBot`` seats (see the module docstring for which figures equal
    ``run_games``'s).  ``seed``: int (``None``: fresh entropy); ``progress(k)``
    is called after every few thousand games.  Returns ``SimulationStats``.
    Raises ``InvalidArgumentError`` for other bots, laizi or two-deck rules."""
    rules = Rules.coerce(rules)
    policy, beans = _policy_of(bots, rules, room, beans, run_native_games,
                               "RandomBot and default RuleBot seats under one-deck rules without laizi; use run_games")
    flow = _kernel_args(rules, room, beans)
    given = policy == (RULE, RULE, RULE)  # rule bots only: Game's deals from this generator
    rng, kseed = _streams(seed, given)
    stats = SimulationStats()
    t = time.perf_counter()
    hands, bottom, first = np.empty((0, 3), np.uint64), np.empty(0, np.uint64), np.empty(0, np.int8)
    done, short = 0, False
    parts: list[dict[str, np.ndarray]] = []
    while done < n:
        want = min(_CHUNK, n - done)
        if rng is not None and given and (short or len(first) < want + 8):  # a deal a game, more for redeals
            more = _draw_deals(rng, want + want // 4 + 16)
            hands, bottom, first = (np.concatenate([a, b]) for a, b in zip((hands, bottom, first), more))
        deals: _Deals = (hands, bottom, first) if given else (None, None, None)
        cols, played, used = _botplay._play_games(want, kseed, done, *flow, policy, *deals)
        hands, bottom, first = hands[used:], bottom[used:], first[used:]
        parts.append(cols)
        done += played
        short = played < want
        if progress is not None:
            progress(done)
    if parts:
        _add_games(stats, {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, rules, room, beans)
    stats.seconds = time.perf_counter() - t
    return stats


# -- five players ---------------------------------------------------------------------------

_FiveDeals = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _draw_five_deals(rng: np.random.Generator, k: int) -> _FiveDeals:
    """The next ``k`` deals of ``rng`` as ``FiveGame`` draws them (a permutation
    of the 108 card ids, 21 to each seat in turn and 3 to the bottom, then
    the marked card among the dealt non-jokers; docs/rules.md §8): hands
    (k, 5) as dealt and bottom (k,) card words, the marked card (k,), the
    open landlord (k,) and the partner (k,; -1: alone)."""
    perms = np.empty((k, 108), np.intp)
    marked = np.empty(k, np.uint8)
    for i in range(k):
        perm, u = deal_perm(rng, 108)  # rng.permutation(108) then rng.random(), as FiveGame draws them
        perms[i] = perm
        pool = [c for c in perm[:105] if c % 54 < 52]
        marked[i] = pool[int(u * len(pool))]
    units = _UNITS[perms % 54]
    hands = units[:, :105].reshape(k, 5, 21).sum(axis=2, dtype=np.uint64)
    where = np.argsort(perms, axis=1)  # where[i, card]: its position in deal i
    pos = where[np.arange(k), marked.astype(np.intp)]
    twin = where[np.arange(k), ((marked.astype(np.intp) + 54) % 108)]
    open_ll = (pos // 21).astype(np.int8)
    partner = np.where((twin < 105) & (twin // 21 != open_ll), twin // 21, -1).astype(np.int8)
    return np.ascontiguousarray(hands), units[:, 105:].sum(axis=1, dtype=np.uint64), marked, open_ll, partner


def _add_five_games(stats: FiveStats, cols: dict[str, np.ndarray], room: Optional[Room],
                    beans: Optional[Sequence[int]]) -> None:
    """Count the five-player games of ``cols`` in ``stats`` (docs/rules.md §8).
    ``settle_five`` reads the multiplier's total only, so games alike in
    landlords, winning side, multiplier total and doubling settle alike:
    each such outcome is settled once, and the counts by the multiplier's
    parts (bombs, chosen reveals, springs) and by the twin played are summed
    over the games themselves."""
    if not len(cols["landlord"]):
        return
    initial = room.initial_multiplier if room is not None else 1
    partner = cols["partner"].astype(np.int64)
    won = (cols["winner"] == cols["landlord"]) | (cols["winner"] == partner)
    bombs, spring = cols["bombs"].astype(np.int64), cols["spring"].astype(bool)
    reveal = cols["reveals"].max(axis=1) > 0
    total = np.left_shift(np.int64(initial), bombs + reveal + spring)
    table = np.column_stack([cols["landlord"].astype(np.int64), partner, won, total, cols["doubles"]])
    first, counts, _ = _distinct_rows(table)
    before = (stats.bombs, stats.reveals_chosen, stats.springs)
    for i, times in zip(first.tolist(), counts.tolist()):
        ll, hid, lw = table[i, :3].tolist()
        m = FiveMultiplier(initial=initial, bombs=int(bombs[i]), reveal=bool(reveal[i]), spring=bool(spring[i]))
        s = settle_five((ll,) if hid < 0 else (ll, hid), bool(lw), 1, m, cols["doubles"][i].tolist(), room, beans)
        stats.add_settlement(s, hid < 0, False, times)
    # the parts of the multiplier were counted from each outcome's first game: count them game by game
    stats.bombs, stats.reveals_chosen, stats.springs = (b + int(x.sum())
                                                        for b, x in zip(before, (bombs, reveal, spring)))
    stats.reveals_played += int((cols["public"] == 2).sum())


def run_native_five_games(n: int, bots: Sequence[Bot], seed: Optional[int] = None, rules: Optional[Rules] = None,
                          room: Optional[Room] = None, beans: Optional[Sequence[int]] = None,
                          progress: Optional[Callable[[int], None]] = None) -> FiveStats:
    """``simulation.run_five_games`` in the kernel (docs/rules.md §8), for five
    ``RandomBot`` / default ``RuleBot`` seats: rule bots only give
    ``run_five_games``'s statistics for the same ``seed`` (``seconds``
    aside); with a random seat the games come from the kernel's streams (see
    the module docstring).  Returns ``FiveStats``.  Raises
    ``InvalidArgumentError`` for other bots or rules that are not two-deck."""
    rules = Rules.coerce(rules) if rules is not None else Rules(decks=2)
    policy, beans = _policy_of(bots, rules, room, beans, run_native_five_games,
                               "five RandomBot and default RuleBot seats under two-deck rules; use run_five_games")
    may = [[room is None or room.may_double(s, ll, beans) for ll in range(5)] for s in range(5)]
    given = all(p == RULE for p in policy)  # rule bots only: FiveGame's deals from this generator
    rng, kseed = _streams(seed, given)
    stats = FiveStats()
    t = time.perf_counter()
    done = 0
    parts: list[dict[str, np.ndarray]] = []
    while done < n:
        want = min(_CHUNK, n - done)
        deals = _draw_five_deals(rng, want) if given and rng is not None else (None,) * 5
        cols, played, _ = _botplay._play_five_games(want, kseed, done, rules.flags, rules.doubling, may, policy,
                                                    False, *deals)
        parts.append(cols)
        done += played
        if progress is not None:
            progress(done)
    if parts:
        _add_five_games(stats, {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, room, beans)
    stats.seconds = time.perf_counter() - t
    return stats
