"""The shared position corpus, prepared for ddzcore's benchmarks.

Used by the pytest-benchmark suites (``conftest.py``) and by the peer
comparison (``peers.py``), so both time exactly the same calls on exactly the
same inputs.  Everything here runs outside the timed regions: parsing hands
and last moves into ``Hand`` / ``Move`` objects and NumPy arrays, and choosing
which follow positions to skip.

The corpus (the peer format ``doudizhu-peer-corpus/1``, e.g. the project's
``shared/data/positions.json``) is not part of the repository: every
benchmark takes its path on the command line (``--corpus PATH`` for the
pytest-benchmark suites, ``--positions PATH`` for ``peers.py``).

A follow position's ``last_move`` is bare cards; when those cards have several
readings (``999TTTJJJQQQ`` is a four-trio plane and two three-trio planes with
wings) the corpus metadata (``last_type``, ``last_main``) picks one.  A follow
position is skipped, and counted under a reason, when its ``last_move`` is no
valid move under the rules in use (``not_a_move``: bombs as wings under the
standard rules; also four-with-two and both jokers as kickers under the
``openspiel`` preset) or its cards have no reading matching the metadata
(``other_reading``).
"""

from __future__ import annotations

import inspect
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

import ddzcore
from ddzcore import Combo, Hand, Move, Rules

#: corpus kinds (``positions.json``) -> benchmark kind
KIND_OF = {"lead20": "lead", "lead17": "lead", "follow": "follow"}

#: corpus type names (``follow_types``) -> ddzcore combination
CORPUS_COMBO = {
    "single": Combo.SINGLE,
    "pair": Combo.PAIR,
    "trio": Combo.TRIO,
    "trio_solo": Combo.TRIO_SINGLE,
    "trio_pair": Combo.TRIO_PAIR,
    "straight": Combo.STRAIGHT,
    "pair_chain": Combo.PAIR_CHAIN,
    "airplane": Combo.PLANE,
    "airplane_solo": Combo.PLANE_SINGLE,
    "airplane_pair": Combo.PLANE_PAIR,
    "four_two_solo": Combo.FOUR_TWO_SINGLE,
    "four_two_pair": Combo.FOUR_TWO_PAIR,
    "bomb": Combo.BOMB,
    "rocket": Combo.ROCKET,
}

_CHAINS = {Combo.STRAIGHT, Combo.PAIR_CHAIN, Combo.PLANE, Combo.PLANE_SINGLE, Combo.PLANE_PAIR}
_RANKS = ddzcore.RANK_CHARS

SKIP_REASONS = {
    "not_a_move": "last_move is not a valid move under these rules",
    "other_reading": "no reading of last_move matches the corpus metadata",
}

#: ddzcore's levels, fastest last; the names used in tables and benchmark ids.
LEVELS = ("legal_moves", "legal_moves_array", "count_moves", "legal_moves_batch", "count_moves_batch")
PER_POSITION = LEVELS[:3]
BATCH = LEVELS[3:]


def load_corpus(path: "str | os.PathLike[str] | None") -> list[dict]:
    """The positions of a peer corpus file (4000 dicts: kind, hand, last_move, ...);
    ``FileNotFoundError`` saying how to give one when ``path`` is missing."""
    if not path or not Path(path).is_file():
        raise FileNotFoundError(
            f"position corpus {'not given' if not path else f'not found at {path}'}: give the peer corpus "
            "(doudizhu-peer-corpus/1, e.g. shared/data/positions.json) with --corpus PATH (pytest "
            "benchmarks) or --positions PATH (peers.py, peers_check.py)")
    return json.loads(Path(path).read_text(encoding="utf-8"))["positions"]


class Skip(ValueError):
    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        super().__init__(f"{reason}: {SKIP_REASONS[reason]}" + (f" ({detail})" if detail else ""))


def last_move_of(position: dict, rules: Rules) -> "Move | None":
    """The move to beat in ``position`` as a ``Move`` (``None`` for a free lead);
    raises ``Skip`` when it is not a move under ``rules``."""
    last = position.get("last_move") or ""
    if not last:
        return None
    readings = ddzcore.classify(last, rules)
    if not readings:
        raise Skip("not_a_move", last)
    kind = position.get("last_type")
    if not kind:  # no metadata: the cards must say it all
        if len(readings) > 1:
            raise Skip("other_reading", f"{last}: {len(readings)} readings and no metadata")
        return readings[0]
    combo = CORPUS_COMBO[kind]
    main_cards = position.get("last_main") or last
    main = max(_RANKS.index(c) for c in main_cards)
    length = len(set(main_cards)) if combo in _CHAINS else 1
    for m in readings:
        if m.combo == combo and m.main == main and m.length == length:
            return m
    raise Skip("other_reading", f"{last} as {kind} {main_cards}: ours {', '.join(map(str, readings))}")


@dataclass
class Prepared:
    """Positions of one kind ready for every ddzcore level.

    ``positions`` are the kept ones (``indices`` into the list given to
    ``prepare``); ``hands``/``lasts`` feed the per-position calls,
    ``hands_arr``/``lasts_arr`` the batch calls (``lasts_arr`` is ``None`` for
    leads); ``skipped`` counts the rest by reason.
    """

    kind: str
    rules: Rules
    positions: list[dict]
    indices: list[int]
    hands: list[Hand]
    lasts: list["Move | None"]
    hands_arr: np.ndarray
    lasts_arr: "np.ndarray | None"
    skipped: Counter = field(default_factory=Counter)
    skipped_at: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.positions)

    @property
    def follow(self) -> bool:
        return self.kind == "follow"


def prepare(positions: Sequence[dict], kind: str, rules: "Rules | None" = None) -> Prepared:
    """Parse ``positions`` (all leads or all follows) for ``rules`` (default standard)."""
    rules = rules or Rules()
    if kind not in ("lead", "follow"):
        raise ValueError(f"kind must be 'lead' or 'follow', not {kind!r}")
    kept, idx, hands, lasts = [], [], [], []
    skipped: Counter = Counter()
    skipped_at: dict = {}
    for i, p in enumerate(positions):
        if KIND_OF.get(p["kind"], p["kind"]) != kind:
            raise ValueError(f"position {p.get('id', i)} is a {p['kind']}, not a {kind}")
        try:
            last = last_move_of(p, rules)
        except Skip as exc:
            skipped[exc.reason] += 1
            skipped_at[i] = exc.reason
            continue
        kept.append(p)
        idx.append(i)
        hands.append(Hand(p["hand"], decks=rules.decks))
        lasts.append(last)
    hands_arr = ddzcore.hands_array(hands, rules)
    lasts_arr = ddzcore.moves_array(lasts, rules) if kind == "follow" else None
    return Prepared(kind, rules, kept, idx, hands, lasts, hands_arr, lasts_arr, skipped, skipped_at)


def split_by_kind(positions: Sequence[dict], n: "int | None" = None) -> dict[str, list[dict]]:
    """``{"lead": [...], "follow": [...]}``: the first ``n`` positions of each
    corpus kind (lead20, lead17, follow; all when ``n`` is None); leads are the
    lead20 then the lead17 positions."""
    by: dict[str, list[dict]] = {"lead20": [], "lead17": [], "follow": []}
    for p in positions:
        lst = by.get(p["kind"])
        if lst is not None and (n is None or len(lst) < n):
            lst.append(p)
    return {"lead": by["lead20"] + by["lead17"], "follow": by["follow"]}


def accepts_out(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` takes an ``out=`` keyword (the batch API may gain one)."""
    try:
        return "out" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


@dataclass
class Level:
    """One ddzcore level on one ``Prepared`` set: ``run()`` is the timed call,
    ``counts(result)`` turns its result into moves per position (untimed; pass
    excluded when ``exclude_pass``)."""

    name: str
    run: Callable[[], Any]
    counts: Callable[[Any], list[int]]
    reuses_out: bool = False


def levels(prep: Prepared, exclude_pass: bool = False) -> dict[str, Level]:
    """The five ddzcore levels as timed callables on ``prep``.

    Per-position levels make one call per position; batch levels one call for
    all.  ``legal_moves_batch`` (and ``count_moves_batch``) get the previous
    call's result as ``out=`` when the API accepts it.  When following, pass is
    legal and listed first; ``exclude_pass`` subtracts it from the counts, as
    the peer adapters do.
    """
    rules = prep.rules
    hands, lasts = prep.hands, prep.lasts
    h_arr, l_arr = prep.hands_arr, prep.lasts_arr
    minus = 1 if (exclude_pass and prep.follow) else 0
    legal_moves = ddzcore.legal_moves
    legal_moves_array = ddzcore.legal_moves_array
    count_moves = ddzcore.count_moves
    legal_moves_batch = ddzcore.legal_moves_batch
    count_moves_batch = ddzcore.count_moves_batch

    if prep.follow:
        def run_list():
            return [len(legal_moves(h, m, rules)) for h, m in zip(hands, lasts)]

        def run_array():
            return [len(legal_moves_array(h, m, rules)) for h, m in zip(hands, lasts)]

        def run_count():
            return [count_moves(h, m, rules) for h, m in zip(hands, lasts)]
    else:
        def run_list():
            return [len(legal_moves(h, None, rules)) for h in hands]

        def run_array():
            return [len(legal_moves_array(h, None, rules)) for h in hands]

        def run_count():
            return [count_moves(h, None, rules) for h in hands]

    def per_position(res):
        return [c - minus for c in res]

    out_gen = accepts_out(legal_moves_batch)
    out_cnt = accepts_out(count_moves_batch)
    state: dict[str, Any] = {"gen": None, "cnt": None}

    if out_gen:
        def run_batch():
            res = legal_moves_batch(h_arr, l_arr, rules, out=state["gen"])
            state["gen"] = res[0]
            return res
    else:
        def run_batch():
            return legal_moves_batch(h_arr, l_arr, rules)

    if out_cnt:
        def run_count_batch():
            res = count_moves_batch(h_arr, l_arr, rules, out=state["cnt"])
            state["cnt"] = res
            return res
    else:
        def run_count_batch():
            return count_moves_batch(h_arr, l_arr, rules)

    def batch_counts(res):
        moves, offsets = res
        return (np.diff(offsets) - minus).tolist()

    def count_batch_counts(res):
        return (np.asarray(res) - minus).tolist()

    return {
        "legal_moves": Level("legal_moves", run_list, per_position),
        "legal_moves_array": Level("legal_moves_array", run_array, per_position),
        "count_moves": Level("count_moves", run_count, per_position),
        "legal_moves_batch": Level("legal_moves_batch", run_batch, batch_counts, out_gen),
        "count_moves_batch": Level("count_moves_batch", run_count_batch, count_batch_counts, out_cnt),
    }
