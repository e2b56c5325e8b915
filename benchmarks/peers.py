"""ddzcore against other public Dou Dizhu engines, in one process, on the same positions.

    python benchmarks/peers.py [--n N] [--repeat R] [--peers openspiel,rlcard,douzero]
                               [--rules standard|peer] [--positions PATH]

For each installed peer (OpenSpiel, RLCard, DouZero; see ``peers_adapters.py``
for how each is set up and what it skips) and each kind (leads = lead20 +
lead17, follows), the peer's legal-move call and every ddzcore level are timed
on exactly the positions the peer kept (minus any whose last move ddzcore's
rules reject; the peer is then re-timed on the rest):

- ``legal_moves`` (a ``MoveList``), ``legal_moves_array``, ``count_moves``:
  one call per position, like the peers;
- ``legal_moves_batch`` (previous result passed as ``out=`` when the API takes
  it), ``count_moves_batch``: one call for all positions;
- ``PlayState.legal_moves`` and ``Game.legal_actions`` (an endgame ``Game``):
  one call per position on objects built beforehand (the other seats hold
  two cards of the rest of the deck);
- on leads under the standard rules, ``C reference``: ``lead_ref.c``, a
  tight portable C enumeration of the same moves (checked set for set
  against the kernel by tests/test_lead_ref.py), one call for all positions.

The last table gives, for leads, each level's speed over OpenSpiel's
``state.legal_actions()`` and its time over the C reference's.

Each figure is the median of R interleaved rounds (round 1 of everything,
then round 2, ...), so that a machine slowing down or speeding up part-way
affects every engine alike; a round's figure is the median of its calls.  In a round a measurement does ``gc.collect()`` and then
calls its function back to back (at least twice and for at least
``--min-time`` seconds), each call one pass over all the positions timed with
``time.perf_counter``; the first call warms the caches, which matters for the
sub-millisecond batch calls.  The ratio ours/peer is of
positions/s on identical positions, i.e. the inverse ratio of the times.

Moves are each engine's own count of what it returned, pass excluded:
OpenSpiel counts action ids, RLCard distinct card strings, DouZero its list
(which may repeat a move), ddzcore readings.  With ``--rules standard``
(default) ddzcore generates the full docs/rules.md move set, which is larger than
OpenSpiel's and RLCard's; ``--rules peer`` uses the ``openspiel`` / ``rlcard``
presets that reproduce those engines' move sets (DouZero: standard).

With no peer installed it still prints ddzcore's own figures.  Set-up
(parsing, building peer states) is never timed.  Absolute numbers depend on
the machine; the ratios are the result.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import subprocess
import sys
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_corpus as bc  # noqa: E402
import lead_ref  # noqa: E402
import peers_adapters as pa  # noqa: E402

import ddzcore  # noqa: E402
from ddzcore import Game, Hand, Rules  # noqa: E402
from ddzcore.search import PlayState  # noqa: E402

KINDS = ("lead", "follow")
KIND_TITLE = {"lead": "leads", "follow": "follows"}
PEER_CALL = {
    "openspiel": "state.legal_actions()",
    "rlcard": "player.available_actions()",
    "douzero": "env.get_legal_card_play_actions()",
}
PEER_PRESET = {"openspiel": "openspiel", "rlcard": "rlcard", "douzero": "standard"}
MOVE_RECORD_BYTES = 16  # MOVE_DTYPE: two uint64 words

# Targets (issue): ddzcore positions/s over OpenSpiel's state.legal_actions().
TARGETS = [
    ("lead", "legal_moves", 5.0),
    ("lead", "legal_moves_array", 15.0),
    ("lead", "count_moves", 15.0),
    ("lead", "legal_moves_batch", 70.0),
    ("lead", "count_moves_batch", 50.0),
    ("follow", "legal_moves", 1.0),
]


# --------------------------------------------------------------------------
# measurements


@dataclass
class Timed:
    """One timed callable; ``median`` seconds a call over the rounds, ``counts`` per position."""

    label: str
    run: Callable[[], Any]
    counts_of: Callable[[Any], list[int]]
    rounds: list[float] = field(default_factory=list)  # each round's median call, seconds
    counts: "list[int] | None" = None
    error: "str | None" = None

    def measure(self, min_time: float = 0.0, min_calls: int = 2) -> None:
        """One round: ``gc.collect()``, then back-to-back calls (at least
        ``min_calls``, and for at least ``min_time`` seconds) so that all but
        the first run with warm caches; keeps the round's median call."""
        if self.error:
            return
        gc.collect()
        try:
            calls, spent, times = 0, 0.0, []
            while calls < min_calls or spent < min_time:
                t0 = time.perf_counter()
                res = self.run()
                dt = time.perf_counter() - t0
                if calls == 0:
                    counts = self.counts_of(res)
                    if self.counts is None:
                        self.counts = counts
                    elif counts != self.counts:
                        self.error = "counts changed between runs"
                        return
                times.append(dt)
                calls += 1
                spent += dt
            self.rounds.append(statistics.median(times))
        except Exception as exc:  # a level that breaks is reported, not fatal
            self.error = f"{type(exc).__name__}: {exc}"

    @property
    def ok(self) -> bool:
        return self.error is None and self.counts is not None and bool(self.rounds)

    @property
    def median(self) -> float:
        """The median over the rounds of each round's median call, seconds."""
        return statistics.median(self.rounds) if self.rounds else float("inf")

    @property
    def positions(self) -> int:
        return len(self.counts or ())

    @property
    def moves(self) -> int:
        return int(sum(self.counts or ()))

    def pos_per_s(self) -> float:
        return self.positions / self.median if self.ok and self.median > 0 else float("nan")

    def moves_per_s(self) -> float:
        return self.moves / self.median if self.ok and self.median > 0 else float("nan")


@dataclass
class Block:
    """ddzcore's levels (and a peer's call, if any) on one set of positions."""

    kind: str
    peer: "str | None"
    prep: bc.Prepared
    peer_timed: "Timed | None" = None
    ours: dict[str, Timed] = field(default_factory=dict)
    peer_skipped: Counter = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def timed(self) -> list[Timed]:
        return ([self.peer_timed] if self.peer_timed else []) + list(self.ours.values())


REFERENCE = "C reference"
DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"


def object_levels(prep: bc.Prepared) -> dict[str, bc.Level]:
    """``PlayState.legal_moves`` and ``Game.legal_actions`` on objects built
    beforehand (seat 0 to move with the position's hand and move to beat;
    seats 1 and 2 hold two cards each of the rest of the deck), plus for
    leads under the standard rules the C reference (``lead_ref.c``)."""
    states, games = [], []
    for hand, last in zip(prep.hands, prep.lasts):
        rest = Hand(DECK) - hand - (last.cards if last is not None else Hand(""))
        others = [Hand(str(rest)[:2]), Hand(str(rest)[2:4])]
        states.append(PlayState([hand, *others], rules=prep.rules, last=last, owner=2 if last else None))
        games.append(Game.endgame([hand, *others], 0, last=last, last_player=2 if last else None,
                                  rules=prep.rules))
    minus = 1 if prep.follow else 0

    def counts(res: list[int]) -> list[int]:
        return [c - minus for c in res]

    out = {
        "PlayState.legal_moves": bc.Level("PlayState.legal_moves",
                                          lambda: [len(s.legal_moves()) for s in states], counts),
        "Game.legal_actions": bc.Level("Game.legal_actions",
                                       lambda: [len(g.legal_actions()) for g in games], counts),
    }
    if not prep.follow and prep.rules == Rules():
        buf = {"out": None}

        def run_ref() -> "tuple[Any, Any]":
            res = lead_ref.leads(prep.hands_arr, out=buf["out"])
            buf["out"] = res[0].base if res[0].base is not None else res[0]
            return res

        out[REFERENCE] = bc.Level(REFERENCE, run_ref, lambda res: np.diff(res[1]).tolist())
    return out


def ours_block(kind: str, peer: "str | None", prep: bc.Prepared) -> Block:
    b = Block(kind, peer, prep)
    for name, lv in {**bc.levels(prep, exclude_pass=True), **object_levels(prep)}.items():
        b.ours[name] = Timed(name, lv.run, lv.counts)
    return b


def peer_block(peer: str, kind: str, positions: list[dict], rules: Rules) -> Block:
    """The peer's callable on ``positions`` (it keeps what it can represent),
    restricted to the positions ddzcore also accepts under ``rules``."""
    fn = pa.make_peer(peer, positions)
    kept = [positions[i] for i in fn.kept]
    prep = bc.prepare(kept, kind, rules)
    skipped = Counter(fn.skip_counts)
    notes = []
    if prep.skipped:
        # ddzcore rejects some of the peer's positions: time the peer again
        # on exactly the ones both accept
        for reason, n in prep.skipped.items():
            skipped[f"ddzcore:{reason}"] += n
        fn = pa.make_peer(peer, prep.positions)
        if len(fn.kept) != len(prep.positions):
            # cannot happen unless the adapter is not deterministic
            prep = bc.prepare([prep.positions[i] for i in fn.kept], kind, rules)
            notes.append("adapter kept a different subset on rebuild")
    b = ours_block(kind, peer, prep)
    b.peer_timed = Timed(PEER_CALL.get(peer, peer), fn, list)
    b.peer_skipped = skipped
    b.notes = notes
    return b


def check_levels(b: Block) -> None:
    """Every ddzcore level must count the same moves per position."""
    ref = None
    for name, t in b.ours.items():
        if not t.ok:
            continue
        if ref is None:
            ref = (name, t.counts)
        elif t.counts != ref[1]:
            t.error = f"counts differ from {ref[0]} ({t.moves} vs {sum(ref[1])} moves)"


# --------------------------------------------------------------------------
# output


def _fmt_rate(x: float) -> str:
    if x != x:  # nan
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g}{unit}" if x / scale < 100 else f"{x / scale:.0f}{unit}"
    return f"{x:.3g}"


def _fmt_ratio(x: float) -> str:
    if x != x:
        return "-"
    return f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


class Out:
    """Tables through ``rich`` when importable, else plain aligned text."""

    def __init__(self, plain: bool = False) -> None:
        self.console = None
        if not plain:
            try:
                from rich.console import Console

                self.console = Console()
                if not self.console.is_terminal:  # piped or redirected: do not squeeze to 80 columns
                    self.console = Console(width=200)
            except ImportError:
                pass

    def line(self, text: str = "") -> None:
        if self.console is not None:
            self.console.print(text, highlight=False, markup=False, soft_wrap=True)
        else:
            print(text)

    def table(self, title: str, headers: list[str], rows: list[list[str]], right: set[int],
              breaks: "set[int] | None" = None) -> None:
        breaks = breaks or set()
        if self.console is not None:
            from rich.table import Table

            t = Table(title=title, title_justify="left")
            for i, h in enumerate(headers):
                t.add_column(h, justify="right" if i in right else "left", no_wrap=True)
            for i, r in enumerate(rows):
                t.add_row(*r, end_section=(i + 1) in breaks)
            self.console.print(t)
            return
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                  for i, h in enumerate(headers)]

        def fmt(r):
            return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip()

        rule = "  ".join("-" * w for w in widths)
        print(f"\n{title}")
        print(fmt(headers))
        print(rule)
        for i, r in enumerate(rows):
            if i in breaks and i:
                print(rule)
            print(fmt(r))


def _kernel_info() -> str:
    k = getattr(ddzcore, "_kernel", None)
    path = getattr(k, "__file__", None)
    if not path:
        return "kernel: ?"
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(path)))
    return f"kernel {os.path.basename(path)} built {when}"


def _git_head() -> str:
    try:
        r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True, timeout=5)
        return r.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def print_header(out: Out, args, wanted: list[str], installed: list[str], positions_path: str) -> None:
    out.line(f"python {sys.version.split()[0]} on {platform.machine()} {platform.system()}; "
             f"ddzcore {ddzcore.__version__} (git {_git_head()}, {_kernel_info()})")
    out.line(f"load average (1, 5, 15 min) at start: {os.getloadavg()}; cpus: {os.cpu_count()}")
    out.line(f"corpus {positions_path}; --n {args.n or 'all'}; median of {args.repeat} interleaved rounds "
             f"(>= 2 calls and >= {args.min_time:g} s each); ddzcore rules: {args.rules}")
    out.line("batch out= reuse: legal_moves_batch {}, count_moves_batch {}".format(
        "yes" if bc.accepts_out(ddzcore.legal_moves_batch) else "no (API has no out=)",
        "yes" if bc.accepts_out(ddzcore.count_moves_batch) else "no (API has no out=)"))
    for p in wanted:
        v = pa.peer_version(p)
        state = "installed" if p in installed else f"not importable ({pa.PEER_PACKAGES[p][2]})"
        out.line(f"  peer {p:<10} {v or '-':<8} {state}")


def print_own(out: Out, blocks: list[Block]) -> None:
    rows, breaks = [], set()
    for b in blocks:
        breaks.add(len(rows))
        for name, t in b.ours.items():
            if not t.ok:
                rows.append([KIND_TITLE[b.kind], name, str(len(b.prep)), "-", "-", "-", "-", "-",
                             t.error or "not measured"])
                continue
            rows.append([KIND_TITLE[b.kind], name, str(t.positions), str(t.moves),
                         f"{t.median * 1e3:.4g}", _fmt_rate(t.pos_per_s()), _fmt_rate(t.moves_per_s()),
                         f"{t.median / t.positions * 1e9:.0f}", ""])
    out.table("ddzcore alone (standard rules; follows whose last move is valid; moves exclude pass)",
              ["kind", "level", "positions", "moves", "median ms", "pos/s", "moves/s", "ns/pos", "note"],
              rows, right={2, 3, 4, 5, 6, 7}, breaks=breaks)
    for b in blocks:
        if b.prep.skipped:
            why = ", ".join(f"{n} {r}" for r, n in sorted(b.prep.skipped.items()))
            out.line(f"  {KIND_TITLE[b.kind]}: skipped {sum(b.prep.skipped.values())} ({why})")


def print_peers(out: Out, blocks: list[Block]) -> None:
    rows, breaks = [], set()
    for b in blocks:
        p = b.peer_timed
        breaks.add(len(rows))
        if p is None or not p.ok:
            rows.append([b.peer or "", KIND_TITLE[b.kind], str(len(b.prep)), p.label if p else "?",
                         "-", "-", "-", "-", "-", (p.error if p else "") or "not measured"])
            continue
        rows.append([b.peer, KIND_TITLE[b.kind], str(p.positions), p.label, str(p.moves),
                     _fmt_rate(p.pos_per_s()), _fmt_rate(p.moves_per_s()), "1.0x", "", ""])
        for name, t in b.ours.items():
            if not t.ok:
                rows.append(["", "", "", f"ddzcore {name}", "-", "-", "-", "-", "-",
                             t.error or "not measured"])
                continue
            ratio = t.pos_per_s() / p.pos_per_s()
            rows.append(["", "", "", "lead_ref.c (C reference)" if name == REFERENCE else f"ddzcore {name}", str(t.moves), _fmt_rate(t.pos_per_s()),
                         _fmt_rate(t.moves_per_s()), _fmt_ratio(ratio),
                         _fmt_ratio(t.moves_per_s() / p.moves_per_s()) if p.moves else "-", ""])
    out.table("ddzcore vs peers, same positions, one process (ours/peer = ratio of positions/s)",
              ["peer", "kind", "positions", "engine / level", "moves", "pos/s", "moves/s",
               "ours/peer", "moves/s ratio", "note"],
              rows, right={2, 4, 5, 6, 7, 8}, breaks=breaks)
    for b in blocks:
        if b.peer_skipped:
            why = ", ".join(f"{n} {r}" for r, n in sorted(b.peer_skipped.items()))
            out.line(f"  {b.peer} {KIND_TITLE[b.kind]}: skipped {sum(b.peer_skipped.values())} ({why})")
        for note in b.notes:
            out.line(f"  {b.peer} {KIND_TITLE[b.kind]}: {note}")


def print_limit(out: Out, own: dict[str, Block], peer_blocks: list[Block]) -> None:
    out.line("")
    out.line("Physical limit: generating a position means writing every one of its moves.")
    lead = own.get("lead")
    if lead is not None:
        t = lead.ours["count_moves"] if lead.ours["count_moves"].ok else None
        counts = t.counts if t else None
        if counts:
            kinds = Counter(p["kind"] for p in lead.prep.positions)
            by: dict[str, list[int]] = {}
            for p, c in zip(lead.prep.positions, counts):
                by.setdefault(p["kind"], []).append(c)
            parts = [f"{k} {sum(v) / len(v):.1f}" for k, v in by.items()]
            mean = sum(counts) / len(counts)
            out.line(f"  mean moves per lead position (ddzcore, standard rules): {mean:.1f} "
                     f"({', '.join(parts)}; max {max(counts)}; {sum(kinds.values())} positions)")
            b = lead.ours["legal_moves_batch"]
            if b.ok:
                ns_move = b.median / max(b.moves, 1) * 1e9
                gbs = b.moves * MOVE_RECORD_BYTES / b.median / 1e9
                out.line(f"  legal_moves_batch on leads: {ns_move:.2f} ns per move, "
                         f"{MOVE_RECORD_BYTES} B per move record -> {gbs:.2f} GB/s of output; "
                         f"at {_fmt_rate(b.moves_per_s())} moves/s a lead position costs >= "
                         f"{mean * ns_move:.0f} ns")
    for pb in peer_blocks:
        if pb.kind == "lead" and pb.peer_timed is not None and pb.peer_timed.ok and pb.peer_timed.positions:
            p = pb.peer_timed
            out.line(f"  {pb.peer}: mean {p.moves / p.positions:.1f} moves per lead position "
                     f"(its own count), ddzcore on the same positions {pb.ours['count_moves'].moves / max(1, pb.ours['count_moves'].positions):.1f}")


def print_levels(out: Out, own: dict[str, Block], peer_blocks: list[Block]) -> None:
    """Leads: every level's speed over OpenSpiel (same positions) and its time over the C reference."""
    os_block = next((b for b in peer_blocks if b.peer == "openspiel" and b.kind == "lead"), None)
    for b in [own["lead"]] + ([os_block] if os_block else []):
        ref = b.ours.get(REFERENCE)
        peer = b.peer_timed
        rows = []
        for name, t in b.ours.items():
            if not t.ok:
                continue
            vs_peer = _fmt_ratio(t.pos_per_s() / peer.pos_per_s()) if peer and peer.ok else "-"
            vs_ref = f"{t.median / ref.median:.2f}x" if ref and ref.ok else "-"
            rows.append([name, str(t.positions), f"{t.median * 1e3:.4g}", f"{t.median / t.positions * 1e9:.0f}",
                         vs_peer, vs_ref])
        where = "OpenSpiel's positions" if b.peer else "all corpus leads"
        out.table(f"Leads, {where}: speed over OpenSpiel state.legal_actions() and time over the C "
                  "reference (lead_ref.c)",
                  ["level", "positions", "median ms", "ns/pos", "speed / OpenSpiel", "time / C reference"],
                  rows, right={1, 2, 3, 4, 5})


def print_targets(out: Out, peer_blocks: list[Block]) -> list[tuple[str, bool]]:
    os_blocks = {b.kind: b for b in peer_blocks if b.peer == "openspiel"}
    out.line("")
    if not os_blocks:
        out.line("Targets (vs OpenSpiel): not checked, OpenSpiel is not installed")
        return []
    rows, results = [], []
    for kind, level, want in TARGETS:
        b = os_blocks.get(kind)
        t = b.ours.get(level) if b else None
        if b is None or t is None or not t.ok or b.peer_timed is None or not b.peer_timed.ok:
            rows.append([KIND_TITLE[kind], level, f">= {want:g}x", "-", "not measured"])
            continue
        ratio = t.pos_per_s() / b.peer_timed.pos_per_s()
        met = ratio >= want
        results.append((f"{kind} {level}", met))
        rows.append([KIND_TITLE[kind], level, f">= {want:g}x", _fmt_ratio(ratio), "MET" if met else "NOT MET"])
    out.table("Targets: ddzcore positions/s over OpenSpiel state.legal_actions(), same positions",
              ["kind", "level", "target", "measured", "result"], rows, right={2, 3})
    return results


# --------------------------------------------------------------------------


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=None,
                    help="first N positions of each corpus kind (lead20, lead17, follow); default all")
    ap.add_argument("--repeat", type=int, default=7,
                    help="interleaved rounds over all measurements, the median kept (default 7)")
    ap.add_argument("--min-time", type=float, default=0.02,
                    help="seconds of back-to-back calls per measurement per round (default 0.02; "
                         "at least 2 calls, the first warms the caches)")
    ap.add_argument("--peers", default=",".join(pa.PEERS), help="comma-separated (default all installed)")
    ap.add_argument("--rules", choices=("standard", "peer"), default="standard",
                    help="ddzcore's rules against each peer: standard (default) or the peer's preset")
    ap.add_argument("--positions", default=None, help="the peer corpus (e.g. ../shared/data/positions.json)")
    ap.add_argument("--plain", action="store_true", help="plain text even if rich is installed")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.n is not None and args.n < 1:
        ap.error("--n must be at least 1")

    out = Out(plain=args.plain)
    path = args.positions
    try:
        corpus = bc.load_corpus(path)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    groups = bc.split_by_kind(corpus, args.n)

    wanted = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in pa.PEERS]
    if unknown:
        ap.error(f"unknown peer(s) {unknown}; choose from {list(pa.PEERS)}")
    installed = pa.available_peers()
    peers = [p for p in wanted if p in installed]
    print_header(out, args, wanted, installed, path)

    standard = Rules()
    own = {kind: ours_block(kind, None, bc.prepare(groups[kind], kind, standard)) for kind in KINDS}
    peer_blocks: list[Block] = []
    for peer in peers:
        rules = Rules.preset(PEER_PRESET[peer]) if args.rules == "peer" else standard
        for kind in KINDS:
            t0 = time.perf_counter()
            try:
                b = peer_block(peer, kind, groups[kind], rules)
            except Exception as exc:  # a broken peer must not stop the others
                out.line(f"  {peer} {KIND_TITLE[kind]}: set-up failed: {type(exc).__name__}: {exc}")
                continue
            out.line(f"  {peer} {KIND_TITLE[kind]}: {len(b.prep)} positions "
                     f"(set-up {time.perf_counter() - t0:.1f} s)")
            peer_blocks.append(b)

    blocks = list(own.values()) + peer_blocks
    everything = [t for b in blocks for t in b.timed()]
    for t in everything:  # warm up: first calls, lazy tables, out= buffers
        t.measure(0.0, 1)
        t.rounds.clear()
    t0 = time.perf_counter()
    for _ in range(args.repeat):
        for t in everything:
            t.measure(args.min_time)
    out.line(f"  timed {len(everything)} measurements x {args.repeat} runs in "
             f"{time.perf_counter() - t0:.1f} s")
    for b in blocks:
        check_levels(b)

    print_own(out, list(own.values()))
    if peer_blocks:
        print_peers(out, peer_blocks)
    else:
        out.line("\nno peer engine installed (pip install \".[peers]\"; pip install --no-deps douzero)")
    print_limit(out, own, peer_blocks)
    print_levels(out, own, peer_blocks)
    print_targets(out, peer_blocks)
    out.line(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
