"""Perft over open-hand play positions, and perft data files (docs/rules.md §3).

``game_perft(game, depth)`` counts the play sequences of exactly ``depth``
moves from a ``Game`` in play, by ``legal_actions``/``push``/``pop``:
passes count as moves, and a game that ends before ``depth`` moves
contributes nothing below its end (as checkmate does in chess).
``game_divide`` splits the count by first move.

A perft file holds positions and their counts, one block per position,
blocks separated by blank lines, ``#`` comments allowed::

    id        pairs-1
    hands     33445566 778899TT JJQQKKAA
    landlord  0
    to_move   0
    last      -                 (or a move, e.g. 55|pair|5|1)
    last_player -               (the seat that played it)
    perft 1 10
    perft 2 64

``check_file(path)`` recomputes every count and reports the mismatches
with the per-move split of the first one, as python-chess's perft runner
does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

from ..errors import DdzError, InvalidArgumentError, RecordError
from .three import Game
from ..rules import Rules

__all__ = ["PerftPosition", "game_perft", "game_divide", "parse_perft", "format_perft", "load_perft",
           "check_positions", "check_file"]


def game_perft(game: Game, depth: int) -> int:
    """Play sequences of exactly ``depth`` moves from ``game`` (which must be
    in play or over); ``depth`` 0 gives 1.  ``game`` is left unchanged.
    Raises ``InvalidArgumentError`` for a negative depth."""
    if depth < 0:
        raise InvalidArgumentError(f"depth must be >= 0, not {depth}")
    if depth == 0:
        return 1
    if game.is_terminal():
        return 0
    legal = game.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for m in legal:
        game.push(m)
        total += game_perft(game, depth - 1)
        game.pop()
    return total


def game_divide(game: Game, depth: int) -> dict[str, int]:
    """``game_perft(game, depth)`` by first move: ``{move text: count}``."""
    if depth < 1:
        raise InvalidArgumentError(f"depth must be >= 1, not {depth}")
    out = {}
    for m in game.legal_actions():
        game.push(m)
        out[str(m)] = game_perft(game, depth - 1)
        game.pop()
    return out


@dataclass
class PerftPosition:
    """One perft position: three open hands, the landlord, the seat to
    move, the move to beat and its owner (``None``: a free lead), and the
    expected counts by depth."""

    id: str
    hands: tuple[str, str, str]
    landlord: int = 0
    to_move: int = 0
    last: Optional[str] = None
    last_player: Optional[int] = None
    counts: dict[int, int] = field(default_factory=dict)

    def game(self, rules: Optional[Rules] = None) -> Game:
        """The position as a ``Game`` in play (``Game.endgame``)."""
        return Game.endgame(list(self.hands), self.landlord, to_move=self.to_move, last=self.last,
                            last_player=self.last_player, rules=rules)


def parse_perft(text: str) -> list[PerftPosition]:
    """Positions from perft-file text.  Raises ``RecordError`` naming the bad line."""
    out: list[PerftPosition] = []
    cur: dict[str, Any] = {}  # field -> text; "perft" -> {depth: count}

    def flush() -> None:
        if not cur:
            return
        try:
            out.append(PerftPosition(
                id=cur["id"], hands=tuple(cur["hands"].split()),
                landlord=int(cur.get("landlord", 0)), to_move=int(cur.get("to_move", cur.get("landlord", 0))),
                last=None if cur.get("last", "-") == "-" else cur["last"],
                last_player=None if cur.get("last_player", "-") == "-" else int(cur["last_player"]),
                counts=cur.get("perft", {})))
        except (KeyError, ValueError) as e:
            raise RecordError(f"perft position {cur.get('id', '?')!r}: {e}") from None
        if len(out[-1].hands) != 3:
            raise RecordError(f"perft position {out[-1].id!r}: three hands are needed")
        cur.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            flush()
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "perft":
            d, _, nodes = value.partition(" ")
            try:
                cur.setdefault("perft", {})[int(d)] = int(nodes)
            except ValueError:
                raise RecordError(f"line {n}: 'perft DEPTH NODES' expected, not {raw!r}") from None
        elif key in ("id", "hands", "landlord", "to_move", "last", "last_player"):
            cur[key] = value
        else:
            raise RecordError(f"line {n}: unknown key {key!r}")
    flush()
    return out


def format_perft(positions: list[PerftPosition]) -> str:
    """Perft-file text for ``positions`` (the inverse of ``parse_perft``)."""
    blocks = []
    for p in positions:
        lines = [f"id {p.id}", f"hands {' '.join(p.hands)}", f"landlord {p.landlord}", f"to_move {p.to_move}",
                 f"last {p.last or '-'}", f"last_player {'-' if p.last_player is None else p.last_player}"]
        lines += [f"perft {d} {n}" for d, n in sorted(p.counts.items())]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def load_perft(path: Union[str, Path]) -> list[PerftPosition]:
    """Positions from a perft file."""
    return parse_perft(Path(path).read_text(encoding="utf-8"))


Counter = Callable[[PerftPosition, int], int]


def check_positions(positions: list[PerftPosition], max_depth: int = 99,
                    perft: Optional[Counter] = None, rules: Optional[Rules] = None) -> list[str]:
    """Recompute every count up to ``max_depth``; return one message per
    mismatch (empty: all agree).  The first mismatch of each position adds
    the per-move split of ``game_divide``.  ``perft`` replaces the counter
    (default: ``game_perft`` on ``position.game(rules)``)."""
    problems = []
    for p in positions:
        for d, expected in sorted(p.counts.items()):
            if d > max_depth:
                continue
            try:
                got = perft(p, d) if perft else game_perft(p.game(rules), d)
            except DdzError as e:
                problems.append(f"{p.id}: depth {d}: {e}")
                break
            if got != expected:
                msg = f"{p.id}: perft {d} = {got}, expected {expected}"
                if d >= 1:
                    split = game_divide(p.game(rules), d)
                    msg += "\n" + "\n".join(f"    {m}: {n}" for m, n in split.items())
                problems.append(msg)
                break
    return problems


def check_file(path: Union[str, Path], max_depth: int = 99, rules: Optional[Rules] = None) -> list[str]:
    """``check_positions`` over a perft file."""
    return check_positions(load_perft(path), max_depth, rules=rules)
