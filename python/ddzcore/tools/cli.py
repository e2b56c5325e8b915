"""The ``ddz`` command line (click).

``ddz moves HAND [--last MOVE] [--rules PRESET] [--json] [--count]`` lists legal moves;
``ddz classify CARDS`` lists the readings of a card set.
"""

from __future__ import annotations

import json
from typing import Iterable, Sized

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..errors import DdzError
from ..generate import legal_moves
from ..moves import Move, classify
from ..rules import Rules

__all__ = ["main"]

_PRESETS = click.Choice(sorted(Rules.PRESETS))


def _as_dict(m: Move) -> dict[str, object]:
    return {
        "cards": str(m.cards),
        "combo": str(m.combo),
        "main": "" if m.main is None else str(m.main),
        "length": m.length,
        "stand_ins": [str(r) for r in m.stand_ins],
        "move": str(m),
    }


_MANY = 20_000  # more moves than this: say how many first, then list them under a progress bar


def _print_moves(moves: Iterable[Move], as_json: bool) -> None:
    n = len(moves) if isinstance(moves, Sized) else 0
    if n > _MANY:
        click.echo(f"{n:,} moves: listing them (Ctrl-C stops; --count prints only the count)", err=True)
        with Progress(TextColumn("listing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            rows = [_as_dict(m) for m in bar.track(moves, total=n)]
    else:
        rows = [_as_dict(m) for m in moves]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    width = max([len(str(r["cards"])) for r in rows] + [5])
    wilds = any(r["stand_ins"] for r in rows)
    click.echo(f"{'cards':<{width}}  {'combo':<15}  main  length" + ("  wild cards as" if wilds else ""))
    for r in rows:
        line = f"{r['cards'] or '-':<{width}}  {r['combo']:<15}  {r['main'] or '-':<4}  {r['length']}"
        if r["stand_ins"]:
            line += f"       {''.join(r['stand_ins'])}"  # type: ignore[arg-type]
        click.echo(line)
    click.echo(f"{len(rows)} move{'s' * (len(rows) != 1)}")


def _rules(preset: str, wild: str | None) -> Rules:
    try:
        rules = Rules.preset(preset, wild=wild)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--wild") from None
    if rules.laizi and rules.wild is None:
        # The laizi preset is a room's game flow and scoring; moves need the wild rank.
        raise click.BadParameter("the laizi preset needs the wild rank for move generation: add --wild RANK",
                                 param_hint="--rules")
    return rules


@click.group()
@click.version_option(package_name="ddzcore")
def main() -> None:
    """ddzcore: a fast, correct Dou Dizhu (斗地主) engine."""


@main.command()
@click.argument("hand")
@click.option("--last", "last", default=None, metavar="MOVE",
              help="The move to beat: its cards, or CARDS|COMBO|MAIN|LENGTH when the cards "
                   "have several readings.  Omit for a free lead.")
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True,
              help="Rules preset.")
@click.option("--wild", default=None, metavar="RANK",
              help="Laizi (癞子): the wild rank, 3..2; its cards stand for other ranks.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--count", "only_count", is_flag=True, help="Print only the number of moves.")
def moves(hand: str, last: str | None, preset: str, wild: str | None, as_json: bool, only_count: bool) -> None:
    """List every legal move of HAND (cards like 33445BR; T or 10 for ten,
    B small joker, R big joker)."""
    if not hand.strip():
        raise click.UsageError("HAND is empty: give cards like 33445BR")
    try:
        rules = _rules(preset, wild)
        result = legal_moves(hand, last, rules)
    except DdzError as e:
        raise click.UsageError(str(e)) from None
    if only_count:
        click.echo(f"{len(result)} move{'s' * (len(result) != 1)}")
        return
    _print_moves(result, as_json)


@main.command(name="classify")
@click.argument("cards")
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True,
              help="Rules preset.")
@click.option("--wild", default=None, metavar="RANK",
              help="Laizi (癞子): the wild rank, 3..2; its cards stand for other ranks.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def classify_cmd(cards: str, preset: str, wild: str | None, as_json: bool) -> None:
    """List every reading of exactly CARDS (none: not a combination)."""
    if not cards.strip():
        raise click.UsageError("CARDS is empty: give cards like 333444")
    try:
        result = classify(cards, _rules(preset, wild))
    except DdzError as e:
        raise click.UsageError(str(e)) from None
    if not result and not as_json:
        click.echo(f"{cards} is not a combination under these rules (0 readings)")
        return
    _print_moves(result, as_json)


if __name__ == "__main__":  # pragma: no cover
    main()

from .cli_game import play, simulate  # noqa: E402  (the game commands, docs/rules.md §3-6)
from .cli_replay import replay_cmd, view_cmd  # noqa: E402  (records: terminal and HTML replays)
from .cli_solve import solve_cmd  # noqa: E402  (the endgame solver, docs/rules.md §3, §6)

main.add_command(play)
main.add_command(simulate)
main.add_command(replay_cmd)
main.add_command(view_cmd)
main.add_command(solve_cmd)

from .cli_eval import COMMANDS as _EVAL_COMMANDS  # noqa: E402  (eval, hint, arena, botzone)

for _cmd in _EVAL_COMMANDS:
    main.add_command(_cmd)
