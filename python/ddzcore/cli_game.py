"""``ddz play`` (a human against two bots) and ``ddz simulate`` (bot games
with statistics): the whole game of RULES.md sections 3-6 in the terminal;
``--laizi`` plays laizi rooms (RULES.md 7: the wild rank is announced after
the landlord, wild cards are marked ``*``).

Terminal output and progress bars use ``rich``; colours appear only on a
terminal that supports them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Optional, Sequence, TypeVar, cast

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .bots import BOTS, AnyAction, Bot, make_bot, run_games
from .cards import RANK_CHARS, Hand, Rank
from .errors import AmbiguousMoveError, DdzError
from .game import Action, Card, Game, Observation, Phase
from .moves import Move
from .records import save
from .rules import Rules
from .settlement import Room, Settlement, title

__all__ = ["play", "simulate"]

_SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_RANK_TEXT = {c: ("10" if c == "T" else c) for c in RANK_CHARS}
_ACTION_WORDS: dict[int, str] = {
    Action.NO_SHOW: "don't show", Action.SHOW: "show cards (明牌)", Action.NO_CALL: "pass (不叫)",
    Action.CALL: "call (叫地主)", Action.NO_ROB: "don't rob (不抢)", Action.ROB: "rob (抢地主)",
    Action.NO_BID: "pass (不叫)", Action.BID_1: "bid 1", Action.BID_2: "bid 2", Action.BID_3: "bid 3",
    Action.NO_DOUBLE: "don't double", Action.DOUBLE: "double (加倍)",
}
_PHASE_WORDS = {
    Phase.SHOW_START: "show cards before the deal? (x{m})", Phase.SHOW_EARLY: "show cards now? (x{m})",
    Phase.SHOW_LATE: "show cards now? (x{m})", Phase.CALL: "call the landlord?", Phase.ROB: "rob the landlord?",
    Phase.BID: "bid for the landlord", Phase.SHOW_BOTTOM: "show your cards? (x{m})", Phase.DOUBLE: "double?",
    Phase.PLAY: "your play",
}
_MAX_LISTED = 30


def card_text(card: Card, wild: Optional[Rank] = None) -> Text:
    """One concrete card, with its suit symbol and colour (red hearts and
    diamonds, jokers marked; a laizi wild card, of rank ``wild``, gets a ``*``)."""
    if card.suit is None:
        return Text("Joker" if card == 53 else "joker", style="bold red" if card == 53 else "bold")
    if wild is not None and card.rank == wild:
        return Text(_SUIT_SYMBOL[card.suit] + _RANK_TEXT[card.rank.char] + "*", style="bold magenta")
    style = "red" if card.suit in "HD" else ""
    return Text(_SUIT_SYMBOL[card.suit] + _RANK_TEXT[card.rank.char], style=style)


def cards_text(cards: Sequence[Card], wild: Optional[Rank] = None) -> Text:
    """Concrete cards in rank order, each with its suit and colour (wild cards marked ``*``)."""
    out = Text()
    for i, c in enumerate(sorted(cards, key=lambda c: (c.rank, c))):
        if i:
            out.append(" ")
        out.append_text(card_text(c, wild))
    return out or Text("-")


def ranks_text(hand: Hand, wild: Optional[Rank] = None) -> str:
    """Rank-only cards for moves, 10 written as 10 (wild cards marked ``*``)."""
    return " ".join(_RANK_TEXT[r.char] + ("*" if r == wild else "") for r in hand.ranks()) or "-"


def move_text(move: Move, wild: Optional[Rank] = None) -> str:
    """A move for people: ranks (10 as 10) and the combination's name; in
    laizi games (``wild``: the wild rank) wild cards are marked ``*`` and
    the move says what they stand for (RULES.md 7)."""
    if move.is_pass:
        return "pass"
    name = str(move.combo).replace("_", " ")
    if move.wild is not None:
        main = cast(Rank, move.main)  # not a pass: the move has a main rank
        stand = " ".join(_RANK_TEXT[r.char] for r in move.stand_ins)
        return f"{ranks_text(move.cards, move.wild)}  ({name} {_RANK_TEXT[main.char]}; "\
               f"wild {_RANK_TEXT[move.wild.char]} as {stand})"
    return f"{ranks_text(move.cards, wild)}  ({name})"


def _points_text(points: "int | float | Fraction") -> str:
    """Signed points; laizi points are exact fractions (docs/rules.md §7)."""
    if points != int(points):
        return f"{float(points):+g}"
    return f"{int(points):+d}"


def action_words(action: "Action | Move | int", wild: Optional[Rank] = None) -> str:
    """Any action for people (a move, or a call, rob, show, double...;
    ``wild``: the laizi wild rank, to mark wild cards; another int as itself)."""
    return move_text(action, wild) if isinstance(action, Move) else _ACTION_WORDS.get(action, str(action))


def _role(obs: Observation, seat: int) -> str:
    if obs.landlord is None:
        return ""
    return "landlord" if seat == obs.landlord else "farmer"


def _seat_name(seat: int, human: int) -> str:
    return "You" if seat == human else f"Seat {seat}"


def _show_state(console: Console, game: Game, human: int) -> None:
    obs = game.observation(human)
    m = obs.multiplier
    console.rule(f"[bold]{obs.phase}[/] · base {obs.base} · multiplier x{m.total}"
                 + (f" · redeal {obs.redeals}" if obs.redeals else ""))
    for seat in range(3):
        role = _role(obs, seat)
        label = f"{_seat_name(seat, human)}{' (' + role + ')' if role else ''}"
        if seat == human:
            continue
        extra = ""
        if seat in obs.shown:
            extra = "  shown: " + ranks_text(obs.shown[seat], obs.wild)
        n = obs.card_counts[seat]
        console.print(f"  {label}: {n} card{'s' * (n != 1)}{extra}")
    if obs.bottom is not None:
        console.print(f"  bottom cards: {ranks_text(obs.bottom, obs.wild)}")
    if obs.wild is not None:
        console.print(f"  wild rank (癞子): [bold magenta]{_RANK_TEXT[obs.wild.char]}[/] (wild cards are marked *)")
    elif game.is_laizi:
        console.print("  laizi room: the wild rank is drawn once the landlord is decided")
    if obs.last_move is not None:
        console.print(f"  to beat: [bold]{move_text(obs.last_move, obs.wild)}[/] from {_seat_name(cast(int, obs.last_player), human)}")
    role = _role(obs, human)
    line = Text(f"  Your hand{' (' + role + ')' if role else ''}: ")
    line.append_text(cards_text(obs.cards, obs.wild))
    console.print(line)


def _numbered(legal: Sequence["Action | Move"]) -> dict[str, "Action | Move"]:
    """The numbers the human may type: 1, 2, ... in list order; under point
    bidding the number is the bid itself (0 = no bid)."""
    if legal and legal[0] == Action.NO_BID and not isinstance(legal[0], Move):
        return {str(0 if a == Action.NO_BID else int(a) - Action.BID_1 + 1): a for a in legal
                if isinstance(a, Action)}  # all of them: bids
    return {str(i): a for i, a in enumerate(legal, 1)}


def _list_readings(console: Console, readings: Sequence[Move], wild: Optional[Rank] = None
                   ) -> dict[str, "Action | Move"]:
    """Number the readings of ambiguous cards (laizi cards often have
    several); the returned numbers choose among them at the next prompt."""
    numbered: dict[str, "Action | Move"] = {str(i): r for i, r in enumerate(readings, 1)}
    for key, r in numbered.items():
        console.print(f"   [cyan]{key:>3}[/] {action_words(r, wild)}   [dim]{r}[/]")
    return numbered


def _list_actions(console: Console, numbered: dict[str, "Action | Move"], wild: Optional[Rank] = None) -> None:
    items = list(numbered.items())
    for key, a in items[:_MAX_LISTED]:
        console.print(f"   [cyan]{key:>3}[/] {action_words(a, wild)}")
    if len(items) > _MAX_LISTED:
        console.print(f"   ... {len(items) - _MAX_LISTED} more: type the cards (e.g. 33, 10JQKA, 3334) to play any")


def _read_action(console: Console, game: Game, human: int) -> "Action | Move | None":
    """The human's action, re-asking on bad input; ``None`` means quit."""
    legal: list[Action | Move] = list(game.legal_actions())
    obs = game.observation(human)
    mult = {Phase.SHOW_START: game.rules.show_start, Phase.SHOW_EARLY: game.rules.show_deal_early,
            Phase.SHOW_LATE: game.rules.show_deal_late, Phase.SHOW_BOTTOM: game.rules.show_bottom}
    console.print(f"[bold]{_PHASE_WORDS[obs.phase].format(m=mult.get(obs.phase, ''))}[/]")
    numbered = _numbered(legal)
    _list_actions(console, numbered, obs.wild)
    while True:
        try:
            text = click.prompt("Your choice (number, cards, pass; ? for help, q to quit)", prompt_suffix="> ",
                                default="", show_default=False)
        except click.Abort:
            return None
        t = text.strip()
        if not t:
            continue
        if t.lower() in ("q", "quit", "exit"):
            return None
        if t == "?":
            console.print("Type the number of an action, or cards in rank notation (3-9, 10 or T, J, Q, K, A, 2, "
                          "B small joker, R big joker), or 'pass'.  A number always picks from the list: to "
                          "type cards that look like a number, start with '=' (=5, =10).  Cards with several "
                          "readings (wild cards often have several): choose one by its number in the list "
                          "shown, or give CARDS|COMBO|MAIN|LENGTH as listed.  'q' leaves the game (an escape: "
                          "you pay the escape penalty).")
            continue
        if t in numbered:
            return numbered[t]
        if t.startswith("="):
            t = t[1:]
        elif t.isdigit() and obs.phase != Phase.PLAY:
            console.print(f"[red]No choice {t}: choose one of {', '.join(numbered)}.[/]")
            continue
        try:
            action = game.parse_action(t)
        except AmbiguousMoveError as e:
            console.print(f"[yellow]{t} can be played several ways: type a number below, or "
                          f"CARDS|COMBO|MAIN|LENGTH:[/]")
            numbered = _list_readings(console, e.readings, obs.wild)
            continue
        except DdzError as e:
            console.print(f"[red]{e}[/]")
            continue
        if action not in legal:
            console.print(f"[red]{action_words(action, obs.wild)} is not legal now.[/]")
            continue
        return action


def _settlement_table(s: Settlement, human: int, beans: bool) -> Table:
    t = Table(title="Settlement")
    t.add_column("seat")
    t.add_column("role")
    t.add_column("points", justify="right")
    if beans:
        for c in ("transfer", "rake", "net beans"):
            t.add_column(c, justify="right")
    for seat in range(3):
        role = "landlord" if seat == s.landlord else ("farmer" if s.landlord is not None else "-")
        if s.escaped == seat:
            role += " (escaped)"
        row = [_seat_name(seat, human), role, _points_text(s.points[seat])]
        if beans:
            row += [f"{s.transfers[seat]:+d}", f"{s.rake[seat]}", f"{s.net[seat]:+d}"]
        t.add_row(*row)
    return t


def _rules_from(preset: str, bidding: str, shows: bool, doubling: bool, laizi: bool = False) -> Rules:
    """The rules of the command-line options (``laizi``: seed 002's flow, ``Rules.PRESETS["laizi"]``)."""
    extra = dict(Rules.PRESETS["laizi"]) if laizi else {}
    if not shows:
        extra.update(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0)
    return Rules.preset(preset, bidding=bidding, doubling=doubling, **extra)


def _bot_list(text: str, n: int, seed: Optional[int]) -> list[Bot]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise click.BadParameter(f"give {n} bot names (or one for all), not {len(names)}", param_hint="--bots")
    try:
        return [make_bot(name, None if seed is None else seed + 1000 * (i + 1)) for i, name in enumerate(names)]
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--bots") from None


_BOT_NAMES = ", ".join(sorted(BOTS))


_COMMON_OPTIONS = [
    click.option("--seed", type=int, default=None, help="Seed for the deals and the bots."),
    click.option("--rules", "preset", type=click.Choice(sorted(Rules.PRESETS)), default="standard",
                 show_default=True, help="Move-generation rules preset."),
    click.option("--bidding", type=click.Choice(["call_rob", "points"]), default="call_rob", show_default=True,
                 help="Call and rob (叫地主/抢地主) or point bidding 1-3 (叫分)."),
    click.option("--shows/--no-shows", default=True, show_default=True, help="Offer show cards (明牌)."),
    click.option("--doubling/--no-doubling", default=True, show_default=True, help="Offer doubling (加倍)."),
    click.option("--laizi", is_flag=True, default=False,
                 help="A laizi room (癞子场, RULES.md 7): a wild rank drawn after the landlord, laizi scoring, "
                      "seed 002's show cards (x4 before the deal, x2 after the bottom, multiplied)."),
    click.option("--room", "coefficient", type=click.IntRange(1), default=1, show_default=True,
                 help="Room coefficient N: beans per point."),
    click.option("--rake", type=click.IntRange(0), default=0, show_default=True,
                 help="Beans the room takes from each player per game."),
    click.option("--beans", type=click.IntRange(0), default=None,
                 help="Beans every player brings (floors, caps, doubling eligibility); default: unlimited."),
]


_F = TypeVar("_F", bound=Callable[..., Any])
_S = TypeVar("_S")


def _common(f: _F) -> _F:
    """The options ``play`` and ``simulate`` share, in this order in ``--help``."""
    for option in reversed(_COMMON_OPTIONS):
        f = option(f)
    return f


@click.command()
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="Your seat (0, 1 or 2).")
@click.option("--bots", "bot_names", default="rule", show_default=True,
              help=f"The two opponents, comma-separated ({_BOT_NAMES}); one name for both.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game's JSON record here at the end.")
@_common
def play(seat: int, bot_names: str, record_path: Optional[str], preset: str, bidding: str, shows: bool,
         doubling: bool, laizi: bool, coefficient: int, rake: int, beans: Optional[int], seed: Optional[int]) -> None:
    """Play one game against two bots in the terminal (RULES.md 3-6).

    Your cards are shown with suits; the legal actions are numbered.  Type a
    number, or cards in rank notation (33, 10JQKA, 3334, BR), or 'pass'.
    'q' leaves the game, which counts as an escape (逃跑).  With --laizi the
    wild cards are marked * and cards with several readings are numbered.
    """
    console = Console(highlight=False)
    rules = _rules_from(preset, bidding, shows, doubling, laizi)
    room = Room(coefficient=coefficient, rake=rake)
    opponents = _bot_list(bot_names, 2, seed)
    bots: list[Optional[Bot]] = [None, None, None]
    others = [s for s in range(3) if s != seat]
    for o, b in zip(others, opponents):
        bots[o] = b
        b.new_game(o, rules)
    game = Game(rules, seed=seed, room=room, beans=None if beans is None else [beans] * 3)
    console.print(f"[bold]Dou Dizhu[/] · you are seat {seat} · opponents: "
                  + ", ".join(f"seat {s} {bots[s].name}" for s in others))  # type: ignore[union-attr]
    last_round = 0
    while not game.is_terminal():
        if game.redeals != last_round:
            last_round = game.redeals
            console.print("[yellow]Everybody passed: the cards are dealt again.[/]")
        p = game.current_player()
        if p == seat:
            _show_state(console, game, seat)
            action: AnyAction | None = _read_action(console, game, seat)
            if action is None:
                game.escape(seat)
                console.print("[red]You left the game: that is an escape (逃跑).[/]")
                break
            role = _role(game.observation(seat), seat)
            console.print(f"  You{' (' + role + ')' if role else ''}: {action_words(action, game.wild)}")
        else:
            obs = game.observation(p)
            action = bots[p].act(obs)  # type: ignore[union-attr]
            role = _role(obs, p)
            console.print(f"  {_seat_name(p, seat)}{' (' + role + ')' if role else ''}: "
                          f"{action_words(action, game.wild)}")
        had = game.landlord
        game.apply(action)
        if had is None and game.landlord is not None:
            console.print(f"[bold]{_seat_name(game.landlord, seat)} {'are' if game.landlord == seat else 'is'} "
                          f"the landlord[/] and takes the bottom cards: {ranks_text(game.bottom)}")
            if game.wild is not None and rules.wild is None:
                console.print(f"[bold magenta]Wild rank (癞子) drawn: {_RANK_TEXT[game.wild.char]}[/]: the four "
                              f"{_RANK_TEXT[game.wild.char]}s are wild (RULES.md 7).")
    s = game.settlement()
    console.rule("[bold]Game over[/]")
    if s.escaped is not None:
        console.print(f"{_seat_name(s.escaped, seat)} escaped (M = {s.escape_multiplier}).")
    elif s.landlord is None:
        console.print("Nobody became landlord.")
    else:
        won = seat in s.winners
        console.print(f"[bold {'green' if won else 'red'}]{'You win' if won else 'You lose'}[/]: "
                      f"{'the landlord' if s.landlord in s.winners else 'the farmers'} went out first.")
        m = s.multiplier
        bombs = f"bombs x2 {m.bombs}, bombs x4 {m.big_bombs}" if s.laizi else f"bombs {m.bombs}"
        console.print(f"Multiplier x{m.total}: initial {m.initial}, robs {m.robs}, {bombs}, "
                      f"show x{m.show}{', spring' if m.spring else ''}{', anti-spring' if m.anti_spring else ''}; "
                      f"doubles {list(s.doubles)}; base {s.base}"
                      + ("; laizi: points x 0.25, each winner's gain at most 10000." if s.laizi else "."))
    console.print(_settlement_table(s, seat, beans is not None or rake > 0 or coefficient > 1))
    console.print(f"Your title for {_points_text(s.points[seat])} points: {title(s.points[seat])} "
                  f"({title(s.points[seat], english=True)})")
    if record_path:
        save(game, record_path)
        console.print(f"Record written to {record_path}")


def _run_bot_games(console: Console, progress: bool, run: Callable[..., _S], n_games: int, *args: Any) -> _S:
    """``run(n_games, *args)`` (``run_games`` or ``run_five_games``), with a
    progress bar on ``console`` when ``progress``."""
    if progress:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task("playing", total=n_games)
            return run(n_games, *args, progress=lambda k: bar.update(task, completed=k))
    return run(n_games, *args)


def _stats_table(heading: str) -> Table:
    """The two-column table of ``ddz simulate``."""
    t = Table(title=heading)
    t.add_column("measure")
    t.add_column("value", justify="right")
    return t


@click.command()
@click.option("--games", "n_games", type=click.IntRange(1), default=1000, show_default=True,
              help="How many games to play.")
@click.option("--bots", "bot_names", default="random", show_default=True,
              help=f"Bots for seats 0, 1, 2, comma-separated ({_BOT_NAMES}); one name for all.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show a progress bar.")
@_common
def simulate(n_games: int, bot_names: str, progress: bool, preset: str, bidding: str, shows: bool,
             doubling: bool, laizi: bool, coefficient: int, rake: int, beans: Optional[int],
             seed: Optional[int]) -> None:
    """Play bot games and print win rates by side, the average multiplier,
    the spring rate, the bean flow and the speed (RULES.md 3-6; --laizi:
    laizi rooms, RULES.md 7)."""
    console = Console(highlight=False)
    rules = _rules_from(preset, bidding, shows, doubling, laizi)
    bots = _bot_list(bot_names, 3, seed)
    room = Room(coefficient=coefficient, rake=rake)
    bean_list = None if beans is None else [beans] * 3
    stats = _run_bot_games(console, progress, run_games, n_games, bots, seed, rules, room, bean_list)
    t = _stats_table(f"{stats.games} games · bots {', '.join(b.name for b in bots)}")
    played = stats.played or 1
    t.add_row("landlord wins", f"{stats.landlord_wins} ({stats.landlord_win_rate:.1%})")
    t.add_row("farmer wins", f"{stats.farmer_wins} ({stats.farmer_wins / played:.1%})")
    for s in range(3):
        t.add_row(f"seat {s} ({bots[s].name}) side won", f"{stats.seat_wins[s]} ({stats.seat_wins[s] / played:.1%})")
    if stats.no_landlord:
        t.add_row("no landlord (redeal cap)", str(stats.no_landlord))
    t.add_row("average multiplier", f"{stats.average_multiplier:.2f}")
    t.add_row("spring rate (春天 + 反春)", f"{stats.spring_rate:.2%}")
    t.add_row("beans to landlords, per game", f"{stats.landlord_net / stats.games:+.1f}")
    t.add_row("beans to farmers, per game", f"{stats.farmer_net / stats.games:+.1f}")
    for s in range(3):
        t.add_row(f"seat {s} net beans, per game", f"{stats.net[s] / stats.games:+.1f}")
    t.add_row("rake, per game", f"{stats.rake / stats.games:.1f}")
    t.add_row("games per second", f"{stats.games_per_second:,.0f}")
    console.print(t)


# -- five players: ``--players 5`` (RULES.md 8) ------------------------------------------------
# Added to both commands by wrapping them here, so their option lists stay as they are.

import functools  # noqa: E402

from .five import (  # noqa: E402
    FiveAction, FiveCard, FiveGame, FiveObservation, FivePhase, MarkedMove, run_five_games,
)
from .settlement import FiveSettlement  # noqa: E402

_FIVE_WORDS = {
    FiveAction.NO_REVEAL: "don't reveal (放弃)", FiveAction.REVEAL: "reveal: show who the landlords are (亮出身份, x2)",
    FiveAction.NO_DOUBLE: "don't double", FiveAction.DOUBLE: "double (加倍)",
}
_FIVE_PROMPTS = {FivePhase.REVEAL: "reveal yourself as a landlord?", FivePhase.DOUBLE: "double?",
                 FivePhase.PLAY: "your play"}


def five_action_words(action: "FiveAction | Move | int") -> str:
    """A five-player action for people (a move says how many marked-face cards it plays;
    another int is read as a ``FiveAction``)."""
    if isinstance(action, MarkedMove):
        return f"{move_text(action)}  with {action.marked} marked card{'s' * (action.marked > 1)}"
    if isinstance(action, Move):
        return move_text(action)
    return _FIVE_WORDS.get(FiveAction(action), str(action))


def five_card_text(card: FiveCard, marked: Optional[FiveCard] = None) -> Text:
    """A two-deck card with suit and colour; cards of the marked card's face are framed."""
    t = card_text(card.card)
    if marked is not None and card.card == marked.card:
        return Text(f"[{t.plain}]", style="bold yellow")
    return t


def _five_role(obs: FiveObservation, seat: int) -> str:
    """``seat``'s role as far as ``obs.player`` knows ("" when unknown)."""
    if seat == obs.open_landlord:
        return "open landlord"
    if seat == obs.hidden_landlord:
        return "hidden landlord"
    if seat == obs.player or obs.revealed or obs.solo or obs.hidden_landlord is not None:
        return "farmer"
    return ""


def _five_name(seat: int, human: int, obs: FiveObservation) -> str:
    role = _five_role(obs, seat)
    return ("You" if seat == human else f"Seat {seat}") + (f" ({role})" if role else "")


def _five_show_state(console: Console, game: FiveGame, human: int) -> None:
    obs = game.observation(human)
    console.rule(f"[bold]{obs.phase}[/] · marked card {obs.marked} · multiplier x{obs.multiplier.total}"
                 + (" · landlords public" if obs.revealed else ""))
    for seat in range(5):
        if seat != human:
            extra = f"  shown: {ranks_text(obs.shown[seat])}" if seat in obs.shown else ""
            n = obs.card_counts[seat]
            console.print(f"  {_five_name(seat, human, obs)}: {n} card{'s' * (n != 1)}{extra}")
    if obs.bottom is not None:
        console.print(f"  bottom cards (yours, unseen by the others): {ranks_text(obs.bottom)}")
    if obs.last_move is not None:
        console.print(f"  to beat: [bold]{move_text(obs.last_move)}[/] from "
                      f"{_five_name(obs.last_player, human, obs)}")  # type: ignore[arg-type]
    line = Text(f"  Your hand ({_five_role(obs, human)}): ")
    for i, c in enumerate(obs.cards):
        if i:
            line.append(" ")
        line.append_text(five_card_text(c, obs.marked))
    console.print(line)


def _five_read(console: Console, game: FiveGame, human: int) -> "FiveAction | Move | None":
    """The human's action, re-asking on bad input; ``None`` means quit."""
    legal: list[FiveAction | Move] = list(game.legal_actions())
    obs = game.observation(human)
    console.print(f"[bold]{_FIVE_PROMPTS[obs.phase]}[/]")
    numbered = {str(i): a for i, a in enumerate(legal, 1)}
    for key, a in list(numbered.items())[:_MAX_LISTED]:
        console.print(f"   [cyan]{key:>3}[/] {five_action_words(a)}")
    if len(numbered) > _MAX_LISTED:
        console.print(f"   ... {len(numbered) - _MAX_LISTED} more: type the cards (e.g. 33, 10JQKA) to play any, "
                      f"and 'CARDS marked 1' to play a marked-face card among them")
    while True:
        try:
            text = click.prompt("Your choice (number, cards, pass; q to quit)", prompt_suffix="> ", default="",
                                show_default=False)
        except click.Abort:
            return None
        t = text.strip()
        if not t:
            continue
        if t.lower() in ("q", "quit", "exit"):
            return None
        if t in numbered:
            return numbered[t]
        if t.startswith("="):
            t = t[1:]
        try:
            action = game.parse_action(t)
        except AmbiguousMoveError as e:
            console.print(f"[yellow]{t} can be played several ways: type a number below, or CARDS|COMBO|MAIN|LENGTH:[/]")
            numbered = {str(i): r for i, r in enumerate(e.readings, 1)}
            for key, r in numbered.items():
                console.print(f"   [cyan]{key:>3}[/] {five_action_words(r)}   [dim]{r}[/]")
            continue
        except DdzError as e:
            console.print(f"[red]{e}[/]")
            continue
        probe = game.copy()
        try:
            probe.apply(action)
        except DdzError as e:
            console.print(f"[red]{e}[/]")
            continue
        return action


def _five_rules(preset: str, doubling: bool, other: dict[str, Any]) -> Rules:
    """Two-deck rules from the shared options; options with no five-player meaning are refused."""
    if other.get("laizi"):
        raise click.BadParameter("laizi rooms are three-player games (RULES.md 7)", param_hint="--laizi")
    if other.get("bidding", "call_rob") != "call_rob":
        raise click.BadParameter("five players do not bid: the marked card chooses the landlord (RULES.md 8)",
                                 param_hint="--bidding")
    try:
        return Rules.preset(preset, decks=2, doubling=doubling)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--rules") from None


def _five_table(s: FiveSettlement, human: Optional[int], beans: bool) -> Table:
    t = Table(title="Settlement")
    for c in ("seat", "role", "points") + (("transfer", "rake", "net beans") if beans else ()):
        t.add_column(c, justify="left" if c in ("seat", "role") else "right")
    for seat in range(5):
        role = "open landlord" if seat == s.landlords[0] else (
            "hidden landlord" if seat in s.landlords else "farmer")
        row = ["You" if seat == human else f"Seat {seat}", role, f"{s.points[seat]:+g}"]
        if beans:
            row += [f"{s.transfers[seat]:+d}", f"{s.rake[seat]}", f"{s.net[seat]:+d}"]
        t.add_row(*row)
    return t


def _play_five(seat: int, bot_names: str, record_path: Optional[str], preset: str, doubling: bool, coefficient: int,
               rake: int, beans: Optional[int], seed: Optional[int], **other: Any) -> None:
    """``ddz play --players 5``: one five-player game against four bots (RULES.md 8)."""
    console = Console(highlight=False)
    rules = _five_rules(preset, doubling, other)
    room = Room(coefficient=coefficient, rake=rake)
    others = [s for s in range(5) if s != seat]
    bots: dict[int, Bot] = dict(zip(others, _bot_list(bot_names, 4, seed)))
    for o, b in bots.items():
        b.new_game(o, rules)
    game = FiveGame(rules, seed=seed, room=room, beans=None if beans is None else [beans] * 5)
    console.print(f"[bold]Five-player Dou Dizhu (五人斗地主)[/] · you are seat {seat} · opponents: "
                  + ", ".join(f"seat {s} {b.name}" for s, b in bots.items()))
    console.print(f"The marked card is [bold]{game.marked}[/]: seat {game.open_landlord} holds it and is the open "
                  f"landlord; whoever holds {game.twin} is the hidden landlord.")
    while not game.is_terminal():
        p = game.current_player()
        was = game.revealed
        if p == seat:
            _five_show_state(console, game, seat)
            action: AnyAction | None = _five_read(console, game, seat)
            if action is None:
                console.print("[red]You left the game (five-player games have no escape penalty here).[/]")
                return
        else:
            action = bots[p].act(game.observation(p))
        name = _five_name(p, seat, game.observation(seat))
        game.apply(action)
        console.print(f"  {name}: {five_action_words(action)}")
        if game.revealed and not was:
            how, who = game.revealed_by  # type: ignore[misc]
            team = (f"seat {game.open_landlord} plays alone" if game.solo else
                    f"the landlords are seats {game.open_landlord} and {game.hidden_landlord}")
            console.print(f"[bold]Landlords public[/] ({'reveal' if how == 'choice' else 'twin played'} by seat "
                          f"{who}): {team}.")
    s = game.settlement()
    console.rule("[bold]Game over[/]")
    won = seat in s.winners
    console.print(f"[bold {'green' if won else 'red'}]{'You win' if won else 'You lose'}[/]: "
                  f"{'the landlords' if s.landlord_won else 'the farmers'} went out first (seat {game.winner}).")
    m = s.multiplier
    console.print(f"Multiplier x{m.total}: initial {m.initial}, doubling bombs {m.bombs}, reveal {m.reveal}, "
                  f"spring {m.spring}; doubles {list(s.doubles)}.")
    console.print(_five_table(s, seat, beans is not None or rake > 0 or coefficient > 1))
    if record_path:
        save(game, record_path)  # type: ignore[arg-type]
        console.print(f"Record written to {record_path}")


def _simulate_five(n_games: int, bot_names: str, progress: bool, preset: str, doubling: bool, coefficient: int,
                   rake: int, beans: Optional[int], seed: Optional[int], **other: Any) -> None:
    """``ddz simulate --players 5``: five-player bot games and their statistics (RULES.md 8)."""
    console = Console(highlight=False)
    rules = _five_rules(preset, doubling, other)
    bots = _bot_list(bot_names, 5, seed)
    room = Room(coefficient=coefficient, rake=rake)
    bean_list = None if beans is None else [beans] * 5
    stats = _run_bot_games(console, progress, run_five_games, n_games, bots, seed, rules, room, bean_list)
    n = stats.games
    t = _stats_table(f"{n} five-player games · bots {', '.join(b.name for b in bots)}")
    t.add_row("landlords' side wins", f"{stats.landlord_wins} ({stats.landlord_win_rate:.1%})")
    t.add_row("farmers' side wins", f"{stats.farmer_wins} ({stats.farmer_wins / n:.1%})")
    t.add_row("open landlord alone (一地主)", f"{stats.solo} ({stats.solo / n:.1%})")
    t.add_row("reveal chosen (亮出身份, x2)", f"{stats.reveals_chosen} ({stats.reveals_chosen / n:.1%})")
    t.add_row("landlords public by the twin played", f"{stats.reveals_played} ({stats.reveals_played / n:.1%})")
    for s in range(5):
        t.add_row(f"seat {s} ({bots[s].name}) side won", f"{stats.seat_wins[s]} ({stats.seat_wins[s] / n:.1%})")
    t.add_row("doubling bombs, per game", f"{stats.bombs / n:.2f}")
    t.add_row("average multiplier", f"{stats.average_multiplier:.2f}")
    t.add_row("spring rate (losers played nothing)", f"{stats.spring_rate:.2%}")
    for s in range(5):
        t.add_row(f"seat {s} points, per game", f"{stats.points[s] / n:+.2f}")
    t.add_row("beans to landlords, per game", f"{stats.landlord_net / n:+.1f}")
    t.add_row("beans to farmers, per game", f"{stats.farmer_net / n:+.1f}")
    t.add_row("rake, per game", f"{stats.rake / n:.1f}")
    t.add_row("games per second", f"{stats.games_per_second:,.0f}")
    console.print(t)


def _with_players(cmd: click.Command, five: Callable[..., None]) -> None:
    """Give ``cmd`` a ``--players 3|5`` option; 5 runs ``five`` with the same options."""
    for param in cmd.params:
        if not isinstance(param, click.Option):  # play and simulate take options only
            continue
        if param.name == "seat":
            param.type = click.IntRange(0, 4)
            param.help = "Your seat (0-2; 0-4 with --players 5)."
        elif param.name == "bot_names" and cmd.name == "play":
            param.help = (param.help or "") + "  Four opponents with --players 5."
    cmd.params.append(click.Option(["--players"], type=click.Choice(["3", "5"]), default="3", show_default=True,
                                   help="3: the classic game; 5: the two-deck five-player game (五人斗地主, "
                                        "RULES.md 8: marked card, open and hidden landlord)."))
    three = cmd.callback
    assert three is not None

    @functools.wraps(three)
    def callback(players: str, **kw: Any) -> None:
        if players == "5":
            return five(**kw)
        if kw.get("seat", 0) > 2:
            raise click.BadParameter("seats are 0-2 with three players", param_hint="--seat")
        return three(**kw)  # type: ignore[no-any-return]

    cmd.callback = callback


_with_players(play, _play_five)
_with_players(simulate, _simulate_five)
