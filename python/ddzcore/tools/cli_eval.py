"""``ddz eval``, ``ddz hint``, ``ddz arena`` and ``ddz botzone``: hand evaluation,
move hints, bot comparison and the Botzone bot (docs/rules.md §3-§6)."""

from __future__ import annotations

import json
import sys
from typing import Optional

import click

from ..errors import DdzError
from ..rules import Rules

__all__ = ["eval_cmd", "hint_cmd", "arena_cmd", "botzone_cmd", "COMMANDS"]

_PRESETS = click.Choice(sorted(Rules.PRESETS))


@click.command(name="eval")
@click.argument("hand")
@click.option("--role", type=click.Choice(["landlord", "farmer"]), default="landlord", show_default=True)
@click.option("--playouts", type=click.IntRange(min=1), default=10_000, show_default=True)
@click.option("--policy", type=click.Choice(["random", "rule"]), default="rule", show_default=True,
              help="How the sampled deals are played out.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def eval_cmd(hand: str, role: str, playouts: int, policy: str, seed: int, preset: str, as_json: bool) -> None:
    """Win probability of HAND (17 cards, or the landlord's 20) in ROLE,
    from PLAYOUTS sampled deals played out natively."""
    from ..evaluate import win_probability

    try:
        e = win_probability(hand, role, playouts=playouts, policy=policy, seed=seed, rules=Rules.preset(preset))
    except DdzError as err:
        raise click.UsageError(str(err)) from None
    lo, hi = e.interval()
    if as_json:
        click.echo(json.dumps({"hand": hand, "role": role, "p": e.p, "stderr": e.stderr, "playouts": e.playouts,
                               "policy": e.policy, "ci95": [lo, hi]}))
    else:
        click.echo(f"{hand} as {role}: win probability {e.p:.1%} ± {e.stderr:.1%} (95 % CI {lo:.1%}-{hi:.1%}; "
                   f"{e.playouts} playouts, {e.policy} policy)")


@click.command(name="hint")
@click.argument("hand")
@click.option("--last", default=None, metavar="MOVE", help="The move to beat (played by the previous seat).")
@click.option("--role", type=click.Choice(["landlord", "farmer"]), default="landlord", show_default=True)
@click.option("--playouts", type=click.IntRange(min=0), default=200, show_default=True,
              help="Sampled deals per move; 0 ranks by plays left.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True)
def hint_cmd(hand: str, last: Optional[str], role: str, playouts: int, seed: int, top: int, preset: str) -> None:
    """The legal moves of HAND ranked best first, with their scores."""
    from ..evaluate import hint

    try:
        hints = hint(hand, last=last, role=role, playouts=playouts, seed=seed, rules=Rules.preset(preset))
    except DdzError as err:
        raise click.UsageError(str(err)) from None
    for h in hints[:top]:
        score = f"{h.score:6.1%}" if h.method != "plays" else f"{-h.score:4.0f} plays left"
        click.echo(f"{str(h.move.cards) or 'pass':<20} {str(h.move.combo):<16} {score}  ({h.method})")
    click.echo(f"{len(hints)} moves")


@click.command(name="arena")
@click.option("--bots", "bot_names", required=True,
              help="2 or 3 bots, comma-separated: random, rule, search, exec:COMMAND, botzone:COMMAND.")
@click.option("--deals", type=click.IntRange(min=0), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--rules", "preset", type=_PRESETS, default="standard", show_default=True)
@click.option("--timeout", type=click.FloatRange(min=0.001), default=5.0, show_default=True,
              help="Seconds per move for external programs.")
@click.option("--json", "json_path", default=None, metavar="FILE", help="Write the JSON result ('-': stdout).")
def arena_cmd(bot_names: str, deals: int, seed: int, preset: str, timeout: float, json_path: Optional[str]) -> None:
    """Compare bots on duplicate deals: WP and ADP per bot and role with 95 % CIs."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .arena import arena

    names = [n.strip() for n in bot_names.split(",") if n.strip()]
    console = Console(stderr=json_path == "-")
    try:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("arena", total=None)
            result = arena(names, deals, seed, Rules.preset(preset), timeout=timeout,
                           progress=lambda d, t: bar.update(task, completed=d, total=t))
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    table = Table(title=f"{result.deals} duplicate deals, {result.games} games, seed {seed}, {result.seconds:.0f} s")
    for col in ("bot", "role", "games", "WP", "WP 95% CI", "ADP", "ADP 95% CI", "forfeits"):
        table.add_column(col)
    for name, roles in result.stats.items():
        for role, s in roles.items():
            table.add_row(name, role, str(s.games), f"{s.wp:.1%}", f"{s.wp_ci[0]:.1%}-{s.wp_ci[1]:.1%}",
                          f"{s.adp:+.3f}", f"{s.adp_ci[0]:+.3f}..{s.adp_ci[1]:+.3f}", str(s.forfeits))
    console.print(table)
    for f in result.forfeits[:10]:
        console.print(f"forfeit: deal {f['deal']} seat {f['seat']} {f['bot']}: {f['reason']}")
    if json_path == "-":
        sys.stdout.write(result.dumps() + "\n")
    elif json_path:
        with open(json_path, "w", encoding="utf-8") as fh:
            fh.write(result.dumps() + "\n")


@click.command(name="botzone")
@click.option("--bot", "bot_name", default="search", show_default=True, help="random, rule or search.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--once", is_flag=True, help="Answer without keep-running (one turn a process).")
def botzone_cmd(bot_name: str, seed: int, once: bool) -> None:
    """Run a ddzcore bot as a Botzone FightTheLandlord2 (叫分斗地主) bot:
    JSON requests on stdin, responses on stdout (keep-running mode)."""
    from .arena import make_bot
    from .botzone import run_botzone

    try:
        bot = make_bot(bot_name, seed)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    run_botzone(bot, keep_running=not once)


#: The commands ``ddz`` registers from this module.
COMMANDS = [eval_cmd, hint_cmd, arena_cmd, botzone_cmd]
