"""``ddz solve``: the endgame solver on the command line (docs/rules.md §3, §6)."""

from __future__ import annotations

from typing import Optional

import click

from ..errors import DdzError
from ..rules import BANNABLE, Rules
from ..solver import solve

__all__ = ["solve_cmd"]


@click.command(name="solve")
@click.argument("hands", nargs=-1, required=True)
@click.option("--landlord", type=int, default=0, show_default=True, metavar="SEAT",
              help="The landlord's seat (with three hands: the other two are farmers).")
@click.option("--to-move", type=int, default=None, metavar="SEAT", help="The seat to move (default: the landlord).")
@click.option("--last", default=None, metavar="MOVE", help="The move to beat (default: a free lead).")
@click.option("--last-player", type=int, default=None, metavar="SEAT",
              help="The seat that played --last (default: the seat before the one to move).")
@click.option("--ban", "banned", multiple=True, metavar="TYPE",
              help=f"Ban a combination type (禁手); repeatable: {', '.join(BANNABLE)}.")
@click.option("--rules", "preset", type=click.Choice(sorted(Rules.PRESETS)), default="standard",
              show_default=True, help="Rules preset.")
@click.option("--wild", default=None, metavar="RANK", help="Laizi (癞子): the wild rank, 3..2.")
@click.option("--decks", type=click.IntRange(1, 2), default=1, show_default=True, help="One or two decks.")
@click.option("--score", is_flag=True, help="Solve for the score in stakes (bombs, spring) instead of win/loss.")
@click.option("--timeout", type=float, default=None, metavar="SECONDS", help="Give up (unknown) after this long.")
def solve_cmd(hands: tuple[str, ...], landlord: int, to_move: Optional[int], last: Optional[str],
              last_player: Optional[int], banned: tuple[str, ...], preset: str, wild: Optional[str], decks: int,
              score: bool, timeout: Optional[float]) -> None:
    """Solve an open-hand end game: HAND HAND (two opponents, seats 0 and 1)
    or HAND HAND HAND (the landlord against two cooperating farmers)."""
    try:
        rules = Rules.preset(preset, wild=wild, decks=decks, banned=banned)
        r = solve(list(hands), rules, landlord=landlord, to_move=to_move, last=last, last_player=last_player,
                  objective="score" if score else "win", timeout=timeout)
    except DdzError as e:
        raise click.UsageError(str(e)) from None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    click.echo(str(r))
    if r.wins is not None:
        label = "best moves" if score else "winning moves"
        moves = r.best_moves if score else r.winning_moves
        click.echo(f"{label}: {' '.join(str(m.cards) or 'pass' for m in moves) or '(none)'}")
        click.echo("line: " + "  ".join(f"{s}:{str(m.cards) or 'pass'}" for s, m in zip(r.line_seats, r.line)))
    click.echo(f"nodes: {r.nodes}  time: {r.seconds:.4f} s")
