"""The ``ddz`` command line (click).

``ddz moves HAND [--last MOVE] [--rules PRESET] [--json]`` lists legal moves;
``ddz classify CARDS`` lists the readings of a card set.
"""

from __future__ import annotations

import json
from typing import Iterable

import click

from .errors import DdzError
from .generate import legal_moves
from .moves import Move, classify
from .rules import Rules

__all__ = ["main"]

_PRESETS = click.Choice(sorted(Rules.PRESETS))


def _as_dict(m: Move) -> dict[str, object]:
    return {
        "cards": str(m.cards),
        "combo": str(m.combo),
        "main": "" if m.main is None else str(m.main),
        "length": m.length,
        "move": str(m),
    }


def _print_moves(moves: Iterable[Move], as_json: bool) -> None:
    rows = [_as_dict(m) for m in moves]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    width = max([len(str(r["cards"])) for r in rows] + [5])
    click.echo(f"{'cards':<{width}}  {'combo':<15}  main  length")
    for r in rows:
        click.echo(f"{r['cards'] or '-':<{width}}  {r['combo']:<15}  {r['main'] or '-':<4}  {r['length']}")
    click.echo(f"{len(rows)} move{'s' * (len(rows) != 1)}")


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def moves(hand: str, last: str | None, preset: str, as_json: bool) -> None:
    """List every legal move of HAND (cards like 33445BR; T or 10 for ten,
    B small joker, R big joker)."""
    rules = Rules.preset(preset)
    try:
        result = legal_moves(hand, last, rules)
    except DdzError as e:
        raise click.UsageError(str(e)) from None
    _print_moves(result, as_json)


@main.command(name="classify")
@click.argument("cards")
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True,
              help="Rules preset.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def classify_cmd(cards: str, preset: str, as_json: bool) -> None:
    """List every reading of exactly CARDS (none: not a combination)."""
    try:
        result = classify(cards, Rules.preset(preset))
    except DdzError as e:
        raise click.UsageError(str(e)) from None
    _print_moves(result, as_json)


if __name__ == "__main__":  # pragma: no cover
    main()
