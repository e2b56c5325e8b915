"""``ddz replay RECORD`` (a steppable play-by-play in the terminal) and
``ddz view RECORD -o game.html`` (a self-contained HTML replay), for three-
and five-player records (docs/rules.md §3-8).

Both walk the game's ``frames``: the table after each action (every
hand, the bottom cards, the trick on the table, the multiplier in words,
the landlords), with the settlement explained at the end.
"""

from __future__ import annotations

import html
import json
import sys
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Optional, Sequence

import click
from rich.console import Console
from rich.markup import escape

from .cli_ui import (
    action_words, explain_five_settlement, explain_settlement, five_action_words, five_multiplier_words,
    multiplier_words, phase_name,
)
from ..errors import DdzError
from ..game.five import FiveGame
from ..game.three import Action, Game
from ..moves import Move
from ..game.records import load

__all__ = ["Frame", "frames", "view_html", "replay_cmd", "view_cmd"]


@dataclass
class Frame:
    """The table after ``step`` actions (``step`` 0: the deal).

    - ``action``: the action just taken, in words (``"Seat 1 (farmer): 3 3  (pair)"``; ``""`` at step 0).
    - ``phase``: the phase in plain words with its Chinese term.
    - ``roles``: one per seat (``"landlord"``, ``"farmer"``, ``"open landlord"``, ``""`` before known).
    - ``hands``: each seat's concrete cards as ``[rank, suit]`` pairs (rank as in the
      move notation, ``10`` for ten; suit ``S``/``H``/``C``/``D``, ``""`` for a joker).
    - ``bottom``: the bottom cards as ``[rank, suit]`` pairs once the landlord has them, else ``None``.
    - ``trick``: the plays of the current trick (since the last lead), ``[seat, text]``.
    - ``multiplier`` (the whole factor) and ``multiplier_words`` (its breakdown).
    - ``doubles``: each seat's doubling factor (1 or 2); ``to_act``: the seat to act (-1 at the end).
    - ``settlement``: the settlement explained line by line, at the end only.
    """

    step: int
    action: str
    phase: str
    roles: list[str]
    hands: list[list[list[str]]]
    bottom: Optional[list[list[str]]]
    trick: list[list[Any]]
    multiplier: int
    multiplier_words: str
    doubles: list[int]
    to_act: int
    wild: str = ""
    settlement: list[str] = field(default_factory=list)


def _card(c: Any) -> list[str]:
    card = getattr(c, "card", c)  # a FiveCard wraps a one-deck Card
    rank = card.rank.char.replace("T", "10")
    return [rank, card.suit or ""]


def _roles(game: "Game | FiveGame") -> list[str]:
    if isinstance(game, FiveGame):
        return ["open landlord" if s == game.open_landlord else "hidden landlord" if s == game.hidden_landlord
                else "farmer" for s in range(5)]
    if game.landlord is None:
        return ["", "", ""]
    return ["landlord" if s == game.landlord else "farmer" for s in range(3)]


def _frame(game: "Game | FiveGame", step: int, action: str, trick: list[list[Any]]) -> Frame:
    five = isinstance(game, FiveGame)
    n = 5 if five else 3
    m = game.multiplier()
    over = game.is_terminal()
    names = [f"Seat {s}" for s in range(n)]
    lines: list[str] = []
    if over:
        s = game.settlement()
        lines = (explain_five_settlement(s, names, game.room.coefficient if game.room else 1)  # type: ignore[arg-type]
                 if five else explain_settlement(s, names, game.room.coefficient if game.room else 1))  # type: ignore[arg-type]
    if five:
        bottom = None
        words = five_multiplier_words(m)  # type: ignore[arg-type]
        wild = ""
    else:
        g3: Game = game  # type: ignore[assignment]
        bottom = None if g3.landlord is None else [_card(c) for c in sorted(g3.deal[3], key=lambda c: (c.rank, c))]
        words = multiplier_words(m)  # type: ignore[arg-type]
        wild = "" if g3.wild is None else g3.wild.char.replace("T", "10")
    return Frame(step=step, action=action, phase=phase_name(game.phase), roles=_roles(game),
                 hands=[[_card(c) for c in game.cards(s)] for s in range(n)], bottom=bottom,
                 trick=[list(t) for t in trick], multiplier=m.total, multiplier_words=words,
                 doubles=list(game.doubles), to_act=-1 if over else game.current_player(), wild=wild,
                 settlement=lines)


def frames(game: "Game | FiveGame") -> list[Frame]:
    """The table after each action of ``game`` (a copy is rewound and
    replayed; ``game`` is left as it is): ``len(game.history) + 1`` frames."""
    g = game.copy()
    history = g.history
    while g.history:
        g.pop()
    five = isinstance(g, FiveGame)
    trick: list[list[Any]] = []
    out = [_frame(g, 0, "", trick)]
    for k, (seat, action) in enumerate(history, 1):
        role_before = _roles(g)[seat]
        lead = isinstance(action, Move) and g.last_move is None
        if not isinstance(action, Move) and int(action) == Action.ESCAPE:  # FiveAction.ESCAPE has its value
            g.escape(seat)
        else:
            g.apply(action)
        words = five_action_words(action) if five else action_words(action, g.wild)
        if isinstance(action, Move):
            trick = [] if lead else trick
            trick.append([seat, words])
        else:
            trick = []
        role = _roles(g)[seat] or role_before
        out.append(_frame(g, k, f"Seat {seat}{' (' + role + ')' if role else ''}: {words}", trick))
    return out


def _hand_text(cards: Sequence[Sequence[str]]) -> str:
    return " ".join(r for r, _ in cards) or "-"


def _print_frame(console: Console, f: Frame, total: int) -> None:
    console.rule(f"step {f.step}/{total} · {f.phase} · multiplier x{f.multiplier}")
    if f.action:
        console.print(f"[bold]{escape(f.action)}[/]")
    for s, cards in enumerate(f.hands):
        role = f" ({f.roles[s]})" if f.roles[s] else ""
        mark = "▶ " if s == f.to_act else "  "
        console.print(f"{mark}Seat {s}{role}: {escape(_hand_text(cards))}  [dim]({len(cards)})[/]")
    if f.bottom is not None:
        console.print(f"  bottom cards: {_hand_text(f.bottom)}" + (f" · wild rank {f.wild}" if f.wild else ""))
    if f.trick:
        console.print("  on the table: " + escape(" · ".join(f"seat {s}: {t}" for s, t in f.trick)))
    console.print(f"  multiplier {escape(f.multiplier_words)}")
    for line in f.settlement:
        console.print(escape(line))


def _load(path: str) -> "Game | FiveGame":
    try:
        return load(path)
    except (DdzError, OSError) as e:
        raise click.UsageError(str(e) if isinstance(e, DdzError) else f"cannot read {path}: {e.strerror}") from None


@click.command(name="replay")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--step/--no-step", "stepping", default=None,
              help="Wait for Enter after each action (default: when the input is a terminal).")
def replay_cmd(record: str, stepping: Optional[bool]) -> None:
    """Replay a game RECORD (a --record file, three or five players)
    action by action in the terminal: every hand, the trick on the table,
    the multiplier with its breakdown, then the settlement explained.

    Stepping: Enter (or n) shows the next action, b goes back one, a plays to
    the end, q stops."""
    console = Console(highlight=False)
    game = _load(record)
    fs = frames(game)
    total = len(fs) - 1
    if stepping is None:
        stepping = sys.stdin.isatty()
    k = 0
    while k <= total:
        _print_frame(console, fs[k], total)
        if stepping and k < total:
            try:
                key = console.input("[dim]Enter/n next · b back · a all · q quit[/] > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                console.print()
                return
            if key == "q":
                return
            if key == "a":
                stepping = False
            if key == "b":
                k = max(0, k - 1)
                continue
        k += 1


def view_html(game: "Game | FiveGame", title: str = "ddzcore game") -> str:
    """A self-contained HTML page replaying ``game`` (no network, no external
    files): the seats, each hand open or hidden, the bottom cards, the
    trick, the multiplier as it grows and the settlement; step with the
    arrow keys (Home/End) or the slider, ``h`` shows or hides the hands."""
    template = resources.files("ddzcore.tools").joinpath("viewer.html").read_text(encoding="utf-8")
    data = json.dumps({"title": title, "players": 5 if isinstance(game, FiveGame) else 3, "frames": [asdict(f) for f in frames(game)]},
                      ensure_ascii=False).replace("</", "<\\/")
    return template.replace("__TITLE__", html.escape(title)).replace("/*__DATA__*/null", data)


@click.command(name="view")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write (default: RECORD with .html).")
def view_cmd(record: str, output: Optional[str]) -> None:
    """Write a self-contained HTML replay of a game RECORD (one file, works
    offline): step with the arrow keys or the slider, h shows or hides the
    hands."""
    game = _load(record)
    out = Path(output) if output else Path(record).with_suffix(".html")
    try:
        out.write_text(view_html(game, Path(record).name), encoding="utf-8")
    except OSError as e:
        raise click.UsageError(f"cannot write {out}: {e.strerror}") from None
    click.echo(f"Wrote {out} ({len(game.history)} actions): open it in a browser.")
