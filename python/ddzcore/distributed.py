"""Self-play, simulation and the arena across a Ray cluster (``pip install "ddzcore[ray]"``).

Every function splits its work into ranges whose results depend only on
the seed and the range, runs the ranges as Ray tasks (or in this process
with ``ray=False``) and joins them in order, so the result is identical
to a one-process run for the same seeds, whatever the cluster:

- ``simulate(n_games, seed, ...)``: ``ddzcore.simulate`` (random self-play
  in the kernel, docs/rules.md §3-4, §6), game ranges by ``first_game``;
  equal, array for array, to ``ddzcore.simulate(n_games, seed, ...)``.
  With ``summary=True`` each task sends back a ``SimulationSummary`` (a few
  counts and a checksum of every game's columns) instead of its arrays:
  equal to ``summarize(ddzcore.simulate(n_games, seed, ...))``.
- ``selfplay_shards(n_games, seed, out_dir, ...)``: the same games with every
  move recorded, written as one shard per range (Parquet or ``.npz``);
  ``read_shards`` joins them back into ``ddzcore.simulate(..., record=True)``'s
  arrays.
- ``arena(bots, deals, seed, ...)``: ``ddzcore.arena``'s duplicate deals
  (docs/rules.md §3, §6) by deal ranges.  Bots named here are made anew for
  each deal, seeded from ``(seed, deal, bot, seat)``, so the result does
  not depend on the ranges; with deterministic bots (``rule``) it equals
  ``ddzcore.arena``'s.

Ray: ``connect(address)`` calls ``ray.init(address=...)`` for a real
cluster (``"auto"`` inside one); without it the first call starts a local
Ray.  ``ray=False`` runs the same ranges in this process (tests, no Ray).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Sequence, overload

import numpy as np

from .tools.arena import (ArenaResult, RoleStats, arena_rules, deal_cards, make_arena_bot, play_deal, seatings,
                          tally)
from .errors import InvalidArgumentError
from .rules import Rules
from .search import SelfPlay, simulate as _simulate

__all__ = ["connect", "simulate", "summarize", "SimulationSummary", "selfplay_shards", "read_shards", "arena",
           "SHARD_FORMATS"]

SHARD_FORMATS = ("parquet", "npz")
_GAME_FIELDS = ("landlord", "winner", "landlord_won", "first_caller", "calls", "redeals", "base", "robs", "bombs",
                "spring", "anti_spring", "multiplier", "turns", "hands", "bottom")


def connect(address: Optional[str] = None, **init: Any) -> None:
    """``ray.init(address=address, **init)`` unless Ray is already running
    here (``address=None``: a local Ray on this machine's CPUs)."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, **init)


def _ranges(n: int, chunks: int) -> list[tuple[int, int]]:
    if not isinstance(chunks, int) or isinstance(chunks, bool) or chunks < 1:
        raise InvalidArgumentError(f"chunks must be an int >= 1, not {chunks!r}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise InvalidArgumentError(f"the count must be an int >= 0, not {n!r}")
    chunks = max(1, min(chunks, n))
    bounds = [n * k // chunks for k in range(chunks + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def _map(fn: Callable[..., Any], args: list[tuple[Any, ...]], use_ray: bool) -> list[Any]:
    """``[fn(*a) for a in args]``, as Ray tasks when ``use_ray``."""
    if not use_ray:
        return [fn(*a) for a in args]
    import ray

    connect()
    task = ray.remote(fn)
    return list(ray.get([task.remote(*a) for a in args]))


def _default_chunks(use_ray: bool) -> int:
    if not use_ray:
        return 1
    import ray

    connect()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _join(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    cols = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k not in ("moves", "offsets")}
    if parts[0].get("moves") is not None:
        cols["moves"] = np.concatenate([p["moves"] for p in parts])
        ends = np.cumsum([0] + [len(p["moves"]) for p in parts[:-1]])
        cols["offsets"] = np.concatenate([parts[0]["offsets"][:1]] + [p["offsets"][1:] - p["offsets"][0] + e
                                                                       for p, e in zip(parts, ends)])
    return cols


def _columns(sp: SelfPlay) -> dict[str, Any]:
    out = {k: getattr(sp, k) for k in _GAME_FIELDS}
    out["moves"], out["offsets"] = sp.moves, sp.offsets
    return out


_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class SimulationSummary:
    """Totals of a ``simulate`` run (three players), small enough to send
    back from every task instead of the per-game arrays; ranges add up
    (``+``) to the summary of the whole run.

    - ``games``; ``no_landlord`` (every deal passed, docs/rules.md §4);
      ``landlord_wins``; ``seat_wins`` (games each seat's side won);
    - ``springs`` and ``anti_springs`` (春天 / 反春, docs/rules.md §3);
      ``bombs`` (bombs and rockets played); ``multiplier_total`` (sum of
      ``SelfPlay.multiplier``, for the mean); ``turns`` (play-phase moves);
    - ``checksum``: the sum mod 2**64 of a 64-bit mix of each game's number
      and every column of ``SelfPlay`` (hands, bottom, calls, landlord, ...),
      so two runs with equal summaries played the same games, to a 2**-64
      chance of a collision.
    """

    games: int = 0
    no_landlord: int = 0
    landlord_wins: int = 0
    seat_wins: tuple[int, int, int] = (0, 0, 0)
    springs: int = 0
    anti_springs: int = 0
    bombs: int = 0
    multiplier_total: int = 0
    turns: int = 0
    checksum: int = 0

    def __add__(self, other: "SimulationSummary") -> "SimulationSummary":
        s, o = self, other
        return SimulationSummary(
            s.games + o.games, s.no_landlord + o.no_landlord, s.landlord_wins + o.landlord_wins,
            (s.seat_wins[0] + o.seat_wins[0], s.seat_wins[1] + o.seat_wins[1], s.seat_wins[2] + o.seat_wins[2]),
            s.springs + o.springs, s.anti_springs + o.anti_springs, s.bombs + o.bombs,
            s.multiplier_total + o.multiplier_total, s.turns + o.turns, (s.checksum + o.checksum) & _MASK64)


def summarize(sp: SelfPlay, first_game: int = 0) -> SimulationSummary:
    """The ``SimulationSummary`` of a three-player ``simulate`` result whose
    first game is game ``first_game`` of its run (``simulate(...,
    first_game=)``)."""
    n = len(sp.winner)
    landlord = sp.landlord.astype(np.int64)
    won = sp.landlord_won.astype(bool) & (landlord >= 0)
    side = np.where(won, landlord == np.arange(3)[:, None], (landlord >= 0) & (landlord != np.arange(3)[:, None]))
    mix = np.arange(first_game, first_game + n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    for name in _GAME_FIELDS:
        col = np.asarray(getattr(sp, name)).reshape(n, -1).astype(np.uint64)
        for j in range(col.shape[1]):
            mix = (mix ^ col[:, j]) * np.uint64(0xBF58476D1CE4E5B9)
            mix ^= mix >> np.uint64(29)
    return SimulationSummary(
        games=n, no_landlord=int((landlord < 0).sum()), landlord_wins=int(won.sum()),
        seat_wins=(int(side[0].sum()), int(side[1].sum()), int(side[2].sum())),
        springs=int(sp.spring.sum()), anti_springs=int(sp.anti_spring.sum()), bombs=int(sp.bombs.sum(dtype=np.int64)),
        multiplier_total=int(sp.multiplier.sum(dtype=np.int64)), turns=int(sp.turns.sum(dtype=np.int64)),
        checksum=int(mix.sum(dtype=np.uint64)))


def _simulate_range(lo: int, hi: int, seed: int, rules: Rules, record: bool, threads: int) -> dict[str, Any]:
    return _columns(_simulate(hi - lo, seed, rules=rules, record=record, first_game=lo, threads=threads))


def _summarize_range(lo: int, hi: int, seed: int, rules: Rules, threads: int) -> SimulationSummary:
    return summarize(_simulate(hi - lo, seed, rules=rules, first_game=lo, threads=threads), lo)


@overload
def simulate(n_games: int, seed: int, rules: "Rules | str | None" = None, *, record: bool = False,
             summary: Literal[False] = False, chunks: Optional[int] = None, threads: int = 1,
             ray: bool = True) -> SelfPlay: ...


@overload
def simulate(n_games: int, seed: int, rules: "Rules | str | None" = None, *, record: bool = False,
             summary: Literal[True], chunks: Optional[int] = None, threads: int = 1,
             ray: bool = True) -> SimulationSummary: ...


def simulate(n_games: int, seed: int, rules: "Rules | str | None" = None, *, record: bool = False,
             summary: bool = False, chunks: Optional[int] = None, threads: int = 1,
             ray: bool = True) -> "SelfPlay | SimulationSummary":
    """``ddzcore.simulate(n_games, seed, rules=rules, record=record)`` as
    ``chunks`` Ray tasks (default: one per CPU of the cluster) of
    ``threads`` threads each; the ``SelfPlay`` is identical to the
    one-process run.  ``summary=True`` (three players, no ``record``): each
    task returns only its ``SimulationSummary`` and the result is their
    sum, ``summarize(ddzcore.simulate(n_games, seed, rules=rules))``.
    Raises what ``ddzcore.simulate`` raises, and ``InvalidArgumentError``
    for a bad ``chunks`` or ``summary`` with ``record``."""
    rules = Rules.coerce(rules)
    _simulate(0, seed, rules=rules, threads=threads)  # the arguments' checks, before any task
    if summary and record:
        raise InvalidArgumentError("summary=True sends back totals, not records: leave record=False")
    ranges = _ranges(n_games, _default_chunks(ray) if chunks is None else chunks)
    if summary:
        return sum(_map(_summarize_range, [(lo, hi, seed, rules, threads) for lo, hi in ranges], ray),
                   SimulationSummary())
    if not ranges:
        return _simulate(0, seed, rules=rules, record=record)
    parts = _map(_simulate_range, [(lo, hi, seed, rules, record, threads) for lo, hi in ranges], ray)
    cols = _join(parts)
    return SelfPlay(**{k: cols[k] for k in _GAME_FIELDS}, moves=cols.get("moves"), offsets=cols.get("offsets"))


def _write_shard(lo: int, hi: int, seed: int, rules: Rules, path: str, fmt: str) -> str:
    cols = _simulate_range(lo, hi, seed, rules, True, 1)
    games = {k: cols[k] for k in _GAME_FIELDS}
    games["game"] = np.arange(lo, hi, dtype=np.int64)
    moves, offsets = cols["moves"], cols["offsets"]
    if fmt == "npz":
        np.savez(path, **games, moves=moves, offsets=offsets)
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = {k: (list(v) if v.ndim > 1 else v) for k, v in games.items()}
    pq.write_table(pa.table(table), path + ".games.parquet")
    pq.write_table(pa.table({"game": np.repeat(games["game"], np.diff(offsets)), "cards": moves["cards"],
                             "info": moves["info"], "seat": moves["seat"]}), path + ".moves.parquet")
    return path


def selfplay_shards(n_games: int, seed: int, out_dir: "str | os.PathLike[str]", rules: "Rules | str | None" = None,
                    *, shard_games: int = 100_000, fmt: str = "parquet", ray: bool = True) -> list[str]:
    """Play games ``0..n_games-1`` of ``simulate``'s run ``seed`` with every
    move recorded and write them to ``out_dir`` as shards of
    ``shard_games`` games: ``shard-NNNNN.games.parquet`` (a row per game:
    ``game`` and ``SelfPlay``'s columns, ``calls`` and ``hands`` as lists)
    and ``shard-NNNNN.moves.parquet`` (a row per move: ``game``, ``cards``
    uint64 card word, ``info`` uint16 reading, ``seat`` int8), or
    ``shard-NNNNN.npz`` (the same arrays plus ``offsets``, the shard's
    move offsets) with ``fmt="npz"``.  Returns the shards' paths without
    suffix, in game order.  Raises ``InvalidArgumentError`` for a bad
    format or shard size."""
    if fmt not in SHARD_FORMATS:
        raise InvalidArgumentError(f"fmt must be one of {list(SHARD_FORMATS)}, not {fmt!r}")
    if not isinstance(shard_games, int) or isinstance(shard_games, bool) or shard_games < 1:
        raise InvalidArgumentError(f"shard_games must be an int >= 1, not {shard_games!r}")
    rules = Rules.coerce(rules)
    _simulate(0, seed, rules=rules)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ranges = _ranges(n_games, -(-n_games // shard_games) or 1)
    args = [(lo, hi, seed, rules, str(out / f"shard-{k:05d}"), fmt) for k, (lo, hi) in enumerate(ranges) if hi > lo]
    return list(_map(_write_shard, args, ray))


def read_shards(paths: Sequence[str], fmt: str = "parquet") -> dict[str, np.ndarray]:
    """The shards of ``selfplay_shards`` joined: ``SelfPlay``'s columns plus
    ``game``, ``moves`` (``RECORD_DTYPE``) and ``offsets``, as one
    ``simulate(..., record=True)`` run gives them."""
    from .search import RECORD_DTYPE

    parts = []
    for p in paths:
        if fmt == "npz":
            with np.load(p + ".npz") as z:
                parts.append({k: z[k] for k in z.files})
            continue
        import pyarrow.parquet as pq

        g = pq.read_table(p + ".games.parquet").to_pydict()
        m = pq.read_table(p + ".moves.parquet")
        part: dict[str, Any] = {k: np.asarray(v) for k, v in g.items()}
        moves = np.empty(m.num_rows, RECORD_DTYPE)
        for k in ("cards", "info", "seat"):
            moves[k] = m.column(k).to_numpy()
        counts = np.bincount(m.column("game").to_numpy() - part["game"][0], minlength=len(part["game"]))
        part["moves"], part["offsets"] = moves, np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        parts.append(part)
    return _join(parts)


def _arena_range(lo: int, hi: int, bots: Sequence[str], seed: int, rules: Rules, timeout: float
                 ) -> list[tuple[int, int, bool, int, Optional[tuple[int, str]]]]:
    out = []
    plan = seatings(len(bots))
    for d in range(lo, hi):
        cards = deal_cards(seed, d)
        for k, seating in enumerate(plan):
            players = [make_arena_bot(bots[seating[s]], int(np.random.default_rng([seed, d, seating[s], s])
                                                            .integers(2 ** 31)), timeout) for s in range(3)]
            try:
                out.append((d, k, *play_deal(cards, players, rules)))
            finally:
                for b in players:
                    close = getattr(b, "close", None)
                    if close is not None:
                        close()
    return out


def arena(bots: Sequence[str], deals: int = 100, seed: int = 0, rules: Optional[Rules] = None, *,
          chunks: Optional[int] = None, timeout: float = 5.0, ray: bool = True) -> ArenaResult:
    """``ddzcore.arena`` over deal ranges run as Ray tasks (see the module
    docstring for the bots' seeds).  ``bots``: 2 or 3 arena names
    (``random``, ``rule``, ``search``, ``exec:...``: each worker makes its
    own).  Returns the same ``ArenaResult`` as a one-process run.  Raises
    ``InvalidArgumentError`` for a bad bot list or count."""
    import time

    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 0:
        raise InvalidArgumentError(f"deals must be an int >= 0, not {deals!r}")
    if not all(isinstance(b, str) for b in bots):
        raise InvalidArgumentError("distributed.arena takes bot names (each worker makes its own bots)")
    plan = seatings(len(bots))
    names = list(bots) if len(set(bots)) == len(bots) else [f"{n}#{i}" for i, n in enumerate(bots)]
    t = time.perf_counter()
    ranges = _ranges(deals, _default_chunks(ray) if chunks is None else chunks)
    games = [g for part in _map(_arena_range, [(lo, hi, list(bots), seed, arena_rules(rules), timeout)
                                              for lo, hi in ranges], ray) for g in part]
    stats = {n: {r: RoleStats() for r in ("landlord", "farmer", "all")} for n in names}
    forfeits: list[dict[str, Any]] = []
    for d, k, landlord_won, mult, forfeit in games:
        tally(stats, forfeits, names, d, k, plan[k], landlord_won, mult, forfeit)
    for roles in stats.values():
        for st in roles.values():
            st.finish()
    preset = next((n for n in Rules.PRESETS if Rules.preset(n) == (rules or Rules())), "custom")
    return ArenaResult(names, deals, len(games), seed, preset, stats, forfeits, time.perf_counter() - t)
