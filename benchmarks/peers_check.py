"""Run the peer engines on the shared corpus and print counts and speeds.

    /work/peers-venv/bin/python benchmarks/peers_check.py [--n 300] [--repeat 3]
        [--peers openspiel,rlcard,douzero] [--compare] [--positions PATH]

For the first N positions of each kind (lead20, lead17, follow) and each
installed peer: the positions it kept and skipped (and why), its move counts
(pass excluded, as the engine lists them), and positions/s and moves/s of its
timed call (time.perf_counter over the whole set, best of --repeat). Set-up
(building states, players, environments) is outside the timed call.

--compare also prints where the peers' distinct move sets differ, grouped by
the shape of the differing card set (counts of each rank, e.g. 411 = a four
plus two singles) with one example each.

These absolute speeds are only for orientation: the benchmark reports ratios
against ddzcore measured in the same run (benchmarks/peers.py).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peers_adapters as pa  # noqa: E402

KINDS = ("lead20", "lead17", "follow")


def best_of(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
    return best, out


def shape(cards: str) -> str:
    return "".join(sorted((str(n) for n in Counter(cards).values()), reverse=True))


def compare(peers, groups):
    print("\n== distinct move sets: where the peers differ ==")
    for kind, positions in groups.items():
        diffs, examples = Counter(), {}
        for p in positions:
            sets = {}
            for peer in peers:
                try:
                    sets[peer] = pa.peer_move_sets(peer, p)
                except pa.PositionSkipped:
                    sets[peer] = None
            for i, a in enumerate(peers):
                for b in peers[i + 1:]:
                    if sets[a] is None or sets[b] is None:
                        continue
                    for x, y in ((a, b), (b, a)):
                        for m in sets[x] - sets[y]:
                            key = (f"{x} has, {y} lacks", shape(m))
                            diffs[key] += 1
                            examples.setdefault(key, (p["hand"], p["last_move"], m))
        print(f"-- {kind}: {len(positions)} positions")
        if not diffs:
            print("   no differences")
        for key, n in sorted(diffs.items()):
            hand, last, m = examples[key]
            print(f"   {key[0]:<28} shape {key[1]:<8} {n:6d} moves"
                  f"   e.g. hand {hand} last {last or '-'}: {m}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300, help="positions per kind")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peers", default=",".join(pa.PEERS))
    ap.add_argument("--positions", default=None)
    ap.add_argument("--compare", action="store_true")
    args = ap.parse_args(argv)

    allp = pa.load_positions(args.positions)
    groups = defaultdict(list)
    for p in allp:
        if len(groups[p["kind"]]) < args.n:
            groups[p["kind"]].append(p)
    groups = {k: groups[k] for k in KINDS if k in groups}

    wanted = [p for p in args.peers.split(",") if p]
    installed = pa.available_peers()
    peers = [p for p in wanted if p in installed]
    print(f"python {sys.version.split()[0]}")
    for p in wanted:
        v = pa.peer_version(p)
        state = "installed" if p in installed else "NOT importable"
        print(f"  {p:<10} {v or '-':<10} {state}   ({pa.PEER_PACKAGES[p][2]})")
    if not peers:
        print("no peer engine installed")
        return 1

    rows = []
    for kind, positions in groups.items():
        print(f"\n== {kind}: {len(positions)} positions ==")
        for peer in peers:
            t0 = time.perf_counter()
            fn = pa.make_peer(peer, positions)
            setup = time.perf_counter() - t0
            best, counts = best_of(fn, args.repeat)
            n = len(fn.kept)
            moves = sum(counts)
            rows.append((kind, peer, n, moves, best))
            print(f"  {peer:<10} kept {n:4d}  skipped {len(fn.skipped):4d}  "
                  f"moves {moves:8d} (mean {moves / max(n, 1):7.1f}, "
                  f"max {max(counts, default=0):5d})  "
                  f"best {best * 1e3:9.2f} ms  "
                  f"{n / best:10.0f} pos/s  {moves / best:12.0f} moves/s  "
                  f"(set-up {setup:.2f} s)")
            print(f"  {'':<10} first counts: {counts[:12]}")
            if fn.skipped:
                why = Counter()
                for i, reason in fn.skipped.items():
                    pos = positions[i]
                    tags = ",".join(pos.get("last_tags") or [])
                    why[(reason, pos.get("last_type", ""), tags)] += 1
                for (reason, typ, tags), c in sorted(why.items()):
                    print(f"  {'':<10}   skip {c:4d}  {reason:<14} {typ}"
                          f"{' [' + tags + ']' if tags else ''}")

    print("\n== summary (best of %d) ==" % args.repeat)
    print(f"  {'peer':<10} {'set':<8} {'positions':>9} {'moves':>9} "
          f"{'pos/s':>10} {'moves/s':>12}")
    summary = defaultdict(lambda: [0, 0, 0.0])
    for kind, peer, n, moves, best in rows:
        keys = [(peer, kind)] + ([(peer, "leads")] if kind.startswith("lead") else [])
        for key in keys:
            s = summary[key]
            s[0] += n
            s[1] += moves
            s[2] += best
    for peer in peers:
        for key in KINDS + ("leads",):
            if (peer, key) in summary:
                n, moves, t = summary[(peer, key)]
                print(f"  {peer:<10} {key:<8} {n:9d} {moves:9d} "
                      f"{n / t:10.0f} {moves / t:12.0f}")

    if args.compare:
        compare(peers, groups)
    return 0


if __name__ == "__main__":
    sys.exit(main())
