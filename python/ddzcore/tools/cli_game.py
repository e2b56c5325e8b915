"""``ddz play`` (a human against bots, three or five players) and ``ddz
simulate`` (bot games with statistics): the whole game of docs/rules.md
§3-6 in the terminal; ``--laizi`` plays laizi rooms (§7), ``--players 5``
the two-deck five-player game (§8).

The play screen fits an 80×24 terminal: each turn shows one block (the
phase, the multiplier and where it comes from, the other seats, the cards
to beat, your hand, then one page of your choices).  What a typed text
means never depends on a list: cards typed are always cards (``2`` is the
card 2), ``#N`` picks entry N of the page on screen, and cards with several
readings are asked back.  Leaving (``q``, Ctrl-C, Ctrl-D) asks first and
says what it costs; after Ctrl-C the exit code is 130.  Terminal output
uses ``rich``; colours appear only on a terminal that supports them.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .arena import BOTS, make_bot
from .bots import AnyAction, Bot
from .botsim import fresh_seed, native_runner
from .simulation import run_five_games, run_games
from ..cards import Hand
from .cli_ui import (
    action_words, card_text, cards_text, clip, explain_five_settlement, explain_settlement, five_action_words,
    five_card_text, five_multiplier_words, move_text, multiplier_words, phase_name, points_text, ranks_text,
)
from ..errors import AmbiguousMoveError, DdzError, InvalidArgumentError, InvalidCardsError
from ..game.five import FiveAction, FiveGame, FiveObservation, FivePhase
from ..game.three import Action, Game, Observation, Phase
from ..moves import Move, classify
from ..game.records import save
from ..rules import Rules
from ..game.settlement import FiveSettlement, Room, Settlement, title

__all__ = ["play", "simulate", "move_text", "action_words", "five_action_words"]

_PROMPTS = {
    Phase.SHOW_START: "show cards before the deal? (x{m})", Phase.SHOW_EARLY: "show cards now? (x{m})",
    Phase.SHOW_LATE: "show cards now? (x{m})", Phase.CALL: "call the landlord?",
    Phase.ROB: "rob the landlord? (x2)", Phase.BID: "bid for the landlord (the bid is the base score)",
    Phase.SHOW_BOTTOM: "show your cards? (x{m})", Phase.DOUBLE: "double your stake?", Phase.PLAY: "your play",
}
_FIVE_PROMPTS = {FivePhase.REVEAL: "reveal yourself as a landlord? (x2)", FivePhase.DOUBLE: "double your stake?",
                 FivePhase.PLAY: "your play"}
_PHASE_HELP = {
    Phase.SHOW_START: "Showing your cards (明牌) before the deal multiplies the game by {m}; everybody sees them.",
    Phase.SHOW_EARLY: "Showing your cards (明牌) now multiplies the game by {m}; everybody sees them.",
    Phase.SHOW_LATE: "Showing your cards (明牌) now multiplies the game by {m}; everybody sees them.",
    Phase.CALL: "Calling (叫地主) offers to play alone against the other two as the landlord, taking the 3 "
                "bottom cards.",
    Phase.ROB: "Robbing (抢地主) takes the landlord seat from the caller; each rob doubles the multiplier.",
    Phase.BID: "Bid 1-3 (叫分) to be the landlord; the highest bid wins and is the base score; 0 passes.",
    Phase.SHOW_BOTTOM: "As the landlord you may show your cards (明牌) for x{m}.",
    Phase.DOUBLE: "Doubling (加倍) doubles your own stake: what you win or lose against the other side.",
}
_FIVE_PHASE_HELP = {
    FivePhase.REVEAL: "Revealing (亮出身份) tells everybody who the landlords are and doubles the multiplier.",
    FivePhase.DOUBLE: "Doubling (加倍) doubles your own stake against each player of the other side.",
}
_PLAY_HELP = (
    "Type cards to play them, in the move notation: 3-9, 10 (or T), J, Q, K, A, 2, B (small joker), "
    "R (big joker); e.g. 33, 10JQKA, 3334, BR.  Cards always mean cards: 2 is the card 2, 33 a pair of 3s.  "
    "#N picks entry N of the list on screen.  > and < turn the list's pages; /TEXT lists only the moves "
    "holding those cards (/QQ) or of that kind (/bomb, /pair); / lists all again.  pass (or p) passes.  "
    "When your cards can be played several ways you are asked which one.")
_FLOW_HELP = ("Type the number of a choice on screen, or its word (yes/no, call, rob, show, double, pass); "
              "under point bidding the number is the bid itself.")
_COMMON_HELP = "Enter shows the table again.  q leaves the game (you are asked first: it can cost a penalty)."
_FIVE_HELP = "  A move with cards of the marked card's face: type 'CARDS marked K' (K = 1 or 2 such cards)."
_ROWS = {3: 8, 5: 6}  # rows of choices a page shows, so that a turn's block fits 24 lines


class _Leave(Exception):
    """The player wants to leave: ``how`` is ``"quit"`` (typed), ``"interrupt"`` (Ctrl-C) or ``"eof"``."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


_EXIT = {"quit": 0, "interrupt": 130, "eof": 1}  # exit codes after leaving (130: 128 + SIGINT)


def _ask(console: Console, prompt: str) -> str:
    """One line typed by the player; Ctrl-C and end of input become ``_Leave``."""
    try:
        return console.input(prompt)
    except EOFError:
        console.print()
        raise _Leave("eof") from None
    except KeyboardInterrupt:
        console.print()
        raise _Leave("interrupt") from None


def _confirm(console: Console, question: str, how: str) -> Optional[str]:
    """Ask ``question [y/N]``; the way the player leaves (``how``, or how the
    answer ended: Ctrl-C or end of input leave too), or ``None`` to stay."""
    try:
        answer = _ask(console, f"[bold yellow]{escape(question)}[/] {escape('[y/N]')} ")
    except _Leave as again:
        return again.how if again.how == "interrupt" else how
    return how if answer.strip().lower() in ("y", "yes") else None


def _minus(n: "int | float") -> str:
    """A signed amount with a real minus sign (``−40``, ``+10``)."""
    return points_text(n).replace("-", "−")


@dataclass
class _Page:
    """The choices on screen: every legal entry, an optional filter, and the
    page shown; only the entries of the shown page can be picked (``#N``)."""

    entries: list[Any]
    words: Callable[[Any], str]
    play: bool
    rows: int
    keys: list[str] = field(default_factory=list)
    filter: str = ""
    page: int = 0

    def __post_init__(self) -> None:
        if not self.keys:
            self.keys = [f"#{i}" if self.play else str(i) for i in range(1, len(self.entries) + 1)]

    def _chosen(self) -> list[int]:
        f = self.filter
        if not f:
            return list(range(len(self.entries)))
        low = f.lower()
        try:
            want: Optional[Hand] = Hand(f, decks=2)
        except InvalidCardsError:
            want = None
        out = []
        for i, e in enumerate(self.entries):
            if not isinstance(e, Move) or e.is_pass:
                continue
            if low in str(e.combo) or (want is not None and want <= e.cards):
                out.append(i)
        return out

    def visible(self, width: int) -> tuple[list[int], int, int]:
        """Indices of the entries on the current page, the page count and the per-page size."""
        chosen = self._chosen()
        if not self.play:
            return chosen, 1, max(1, len(chosen))
        longest = max([len(self.words(self.entries[i])) for i in chosen] + [8])
        cols = max(1, min(3, (width - 2) // (longest + 6)))
        per = self.rows * cols
        pages = max(1, -(-len(chosen) // per))
        self.page = min(max(self.page, 0), pages - 1)
        return chosen[self.page * per:(self.page + 1) * per], pages, per

    def pickable(self, width: int) -> dict[str, Any]:
        return {self.keys[i]: self.entries[i] for i in self.visible(width)[0]}

    def render(self, console: Console) -> None:
        shown, pages, per = self.visible(console.width)
        if not shown:
            console.print(f"   [yellow]No move matches /{escape(self.filter)}[/]: type / to list all again.")
            return
        longest = max(len(self.words(self.entries[i])) for i in shown)
        keyw = max(len(self.keys[i]) for i in shown)
        cols = max(1, -(-len(shown) // self.rows)) if self.play else 1
        rows = -(-len(shown) // cols)
        for r in range(rows):
            line = Text("  ")
            for c in range(cols):
                k = c * rows + r
                if k >= len(shown):
                    break
                i = shown[k]
                line.append(f" {self.keys[i]:>{keyw}} ", style="cyan")
                line.append(f"{self.words(self.entries[i]):<{longest + 1}}")
            console.print(line, overflow="ellipsis", no_wrap=True)
        if self.play:
            total = len(self._chosen())
            where = f"{self.page * per + 1}-{self.page * per + len(shown)} of {total}"
            hints = ["> next page" if self.page < pages - 1 else "", "< previous" if self.page else "",
                     "/ all" if self.filter else "/TEXT filter", "? help"]
            console.print(f"   [dim]{'moves' if not self.filter else 'matching /' + escape(self.filter)} {where}"
                          f" · {' · '.join(h for h in hints if h)}[/]")


class _Seat:
    """The human's seat at either game: what the reading and drawing code needs."""

    five = False
    prompts: dict[Any, str] = _PROMPTS
    helps: dict[Any, str] = _PHASE_HELP
    play_phase: Any = Phase.PLAY

    def __init__(self, game: Any, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.n = 5 if self.five else 3

    def name(self, s: int) -> str:
        raise NotImplementedError

    def words(self, action: Any) -> str:
        raise NotImplementedError

    def show(self, console: Console) -> None:
        raise NotImplementedError

    def prompt_mult(self) -> Any:
        return ""

    def top(self, console: Console, obs: Any, head: str, multiplier: str) -> None:
        """The top of the table: the phase line, the multiplier in words, the other seats."""
        console.rule(head)
        dbl = [self.name(s) for s in range(self.n) if obs.doubles[s] == 2]
        console.print(f" Multiplier {multiplier}" + (f" · doubled: {', '.join(dbl)}" if dbl else ""), overflow="fold")
        for s in range(self.n):
            if s != self.seat:
                n = obs.card_counts[s]
                shown = f"  shown: {ranks_text(obs.shown[s], obs.wild)}" if s in obs.shown else ""
                console.print(f" {self.name(s)}: {n} card{'s' * (n != 1)}{shown}")

    def problem(self, text: str, error: DdzError) -> str:
        """Why ``text`` is not a legal move here, in the notation on screen
        (a ``CARDS|COMBO|MAIN|LENGTH`` or ``marked`` text: the ``error`` itself)."""
        if "|" in text or " marked " in text.lower():
            return str(error)
        obs = self.game.observation(self.seat)
        rules = self.game.rules if self.five else self.game.play_rules
        try:
            cards = Hand(text, decks=rules.decks)
        except InvalidCardsError:
            pick = f"; #{clip(text)} picks entry {clip(text)} of the list" if text.isdigit() else ""
            return (f"{clip(text)!r} is not cards: write ranks 3-9, 10 (or T), J, Q, K, A, 2, B (small joker), "
                    f"R (big joker), or pass{pick}; ? for help")
        if not cards <= obs.hand:
            return f"You do not hold {ranks_text(cards, obs.wild)}: your hand is {ranks_text(obs.hand, obs.wild)}"
        readings = classify(cards, rules)
        if not readings:
            return f"{ranks_text(cards, obs.wild)} is not a combination (docs/rules.md §2)"
        last = obs.last_move
        if last is None:
            return f"{ranks_text(cards, obs.wild)} cannot be played now"
        if str(last.combo) == "rocket":
            return "Nothing beats the rocket (B R): pass"
        return (f"{move_text(readings[0], obs.wild)} does not beat {move_text(last, obs.wild)}: play the same kind "
                f"and length with a higher main rank, or a bomb (docs/rules.md §2)")

    def legal_check(self, action: Any) -> Optional[str]:
        """Why ``action`` (parsed from the player's text) is not legal, or ``None``."""
        return None


class _ThreeSeat(_Seat):
    def name(self, s: int) -> str:
        obs = self.game.observation(self.seat)
        role = "" if obs.landlord is None else (" (landlord)" if s == obs.landlord else " (farmer)")
        return ("You" if s == self.seat else f"Seat {s}") + role

    def words(self, action: Any) -> str:
        return action_words(action, self.game.wild)

    def prompt_mult(self) -> Any:
        r = self.game.rules
        return {Phase.SHOW_START: r.show_start, Phase.SHOW_EARLY: r.show_deal_early, Phase.SHOW_LATE: r.show_deal_late,
                Phase.SHOW_BOTTOM: r.show_bottom}.get(self.game.phase, "")

    def show(self, console: Console) -> None:
        game, human = self.game, self.seat
        obs: Observation = game.observation(human)
        self.top(console, obs, f"[bold]{phase_name(obs.phase)}[/] · base {obs.base}"
                 + (f" · redeal {obs.redeals}" if obs.redeals else ""),
                 multiplier_words(obs.multiplier))
        extra = []
        if obs.bottom is not None:
            extra.append(f"bottom cards: {ranks_text(obs.bottom, obs.wild)}")
        if obs.wild is not None:
            extra.append(f"wild rank (癞子): [bold magenta]{obs.wild.char.replace('T', '10')}[/] (marked *)")
        elif game.is_laizi:
            extra.append("laizi room: the wild rank is drawn once the landlord is decided")
        if extra:
            console.print(" " + " · ".join(extra))
        if obs.last_move is not None:
            console.print(f" To beat: [bold]{escape(move_text(obs.last_move, obs.wild))}[/] from "
                          f"{self.name(obs.last_player)}")  # type: ignore[arg-type]
        role = "" if obs.landlord is None else ("landlord, " if obs.landlord == human else "farmer, ")
        line = Text(f" Your hand ({role}{len(obs.hand)}): " if len(obs.hand) else " Your hand: not dealt yet")
        if obs.cards:
            line.append_text(cards_text(obs.cards, obs.wild))
        console.print(line)


class _FiveSeat(_Seat):
    five = True
    prompts = _FIVE_PROMPTS
    helps = _FIVE_PHASE_HELP
    play_phase = FivePhase.PLAY

    def name(self, s: int) -> str:
        obs: FiveObservation = self.game.observation(self.seat)
        role = _five_role(obs, s)
        return ("You" if s == self.seat else f"Seat {s}") + (f" ({role})" if role else "")

    def words(self, action: Any) -> str:
        return five_action_words(action)

    def show(self, console: Console) -> None:
        game, human = self.game, self.seat
        obs: FiveObservation = game.observation(human)
        self.top(console, obs, f"[bold]{phase_name(obs.phase)}[/] · marked card {card_text(obs.marked.card).plain}"
                 + (" · landlords public" if obs.revealed else ""), five_multiplier_words(obs.multiplier))
        if obs.bottom is not None and obs.phase != FivePhase.PLAY:
            console.print(f" Bottom cards (yours, unseen by the others): {ranks_text(obs.bottom)}")
        if obs.last_move is not None:
            console.print(f" To beat: [bold]{escape(move_text(obs.last_move))}[/] from "
                          f"{self.name(obs.last_player)}")  # type: ignore[arg-type]
        line = Text(f" Your hand ({_five_role(obs, human)}, {len(obs.hand)}): ")
        for i, c in enumerate(obs.cards):
            if i:
                line.append(" ")
            line.append_text(five_card_text(c, obs.marked))
        console.print(line)

    def legal_check(self, action: Any) -> Optional[str]:
        probe = self.game.copy()
        try:
            probe.apply(action)
        except DdzError as e:
            return str(e)
        return None


def _five_role(obs: FiveObservation, seat: int) -> str:
    """``seat``'s role as far as ``obs.player`` knows ("" when unknown)."""
    if seat == obs.open_landlord:
        return "open landlord"
    if seat == obs.hidden_landlord:
        return "hidden landlord"
    if seat == obs.player or obs.revealed or obs.solo or obs.hidden_landlord is not None:
        return "farmer"
    return ""


def _flow_keys(legal: Sequence[Any]) -> list[str]:
    """The numbers of the choices outside play: 1, 2, ...; under point bidding the bid itself (0 = pass)."""
    if legal and not isinstance(legal[0], Move) and legal[0] == Action.NO_BID and not isinstance(legal[0], FiveAction):
        return [str(0 if a == Action.NO_BID else int(a) - Action.BID_1 + 1) for a in legal]
    return [str(i) for i in range(1, len(legal) + 1)]


def _help(console: Console, me: _Seat, play: bool) -> None:
    phase = me.game.phase
    if not play:
        console.print(me.helps[phase].format(m=me.prompt_mult()) + "  " + _FLOW_HELP)
    console.print(_PLAY_HELP + (_FIVE_HELP if me.five else "") if play else "", end="")
    console.print((" " if play else "") + _COMMON_HELP)


def _read_action(console: Console, me: _Seat) -> Any:
    """The human's action, asked until it is a legal one; raises ``_Leave``.

    Cards typed always mean cards; ``#N`` (or, outside play, ``N``) picks
    an entry of the page on screen; several readings are asked back."""
    game = me.game
    legal = list(game.legal_actions())
    play = game.phase == me.play_phase
    page = _Page(legal, me.words, play, _ROWS[me.n], keys=[] if play else _flow_keys(legal))

    def draw() -> None:
        me.show(console)
        console.print(f"[bold]Your turn: {me.prompts[game.phase].format(m=me.prompt_mult())}[/]")
        page.render(console)

    draw()
    replies = 0
    while True:
        if replies == 4:  # the table has scrolled up by now: draw it again, the hand with it
            draw()
            replies = 0
        replies += 1
        text = _ask(console, "[bold]>[/] ").strip()
        low = text.lower()
        if not text:
            draw()
            replies = 0
            continue
        if low in ("?", "h", "help"):
            _help(console, me, play)
            continue
        if low in ("q", "quit", "exit", "leave"):
            raise _Leave("quit")
        if play and low in (">", "<", "more", "next"):
            page.page += -1 if low == "<" else 1
            page.render(console)
            continue
        if play and text.startswith("/"):
            page.filter, page.page = text[1:].strip(), 0
            page.render(console)
            continue
        key = text if text.startswith("#") else ("" if play else text)
        if key:
            picks = page.pickable(console.width)
            bare = key.lstrip("#")
            if key in picks or bare in picks:
                return picks[key] if key in picks else picks[bare]
            if key.startswith("#") or bare.isdigit():
                on = list(picks)
                console.print(f"[red]There is no {escape(clip(key))} on screen[/]: pick one of "
                              f"{on[0]}-{on[-1]}" + (" or type cards" if play else "") if on else
                              "[red]Nothing to pick on screen[/]")
                continue
        if text.startswith("="):  # the old way to say "these are cards": still cards
            text = text[1:]
        try:
            action = game.parse_action(text)
        except AmbiguousMoveError as e:
            readings = list(e.readings)
            console.print(f"[yellow]{escape(ranks_text(readings[0].cards, game.wild))} can be played "
                          f"several ways ({len(readings)})[/]: pick one with #N (or ? for help)")
            page = _Page(readings, me.words, True, _ROWS[me.n])
            page.render(console)
            continue
        except DdzError as e:
            if play:
                console.print(f"[red]{escape(me.problem(text, e))}[/]")
            else:
                console.print(f"[red]{escape(clip(text))!r} is not a choice here[/]: type a number on screen "
                              f"({', '.join(page.keys)}), or ? for help")
            continue
        why = me.legal_check(action)
        if why is not None:
            console.print(f"[red]{escape(why)}[/]")
            continue
        return action


# -- the record ---------------------------------------------------------------------------

def _check_record_path(path: Optional[str]) -> None:
    """Refuse, before the game, a ``--record`` path that cannot be written."""
    if path is None:
        return
    p = Path(path)
    folder = p.parent
    if p.is_dir():
        raise click.BadParameter(f"{path} is a folder: give a file name", param_hint="--record")
    if not folder.is_dir():
        raise click.BadParameter(f"cannot write {path}: the folder {folder} does not exist", param_hint="--record")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"cannot write {path}: the folder {folder} is not writable", param_hint="--record")


def _write_record(console: Console, game: "Game | FiveGame", path: Optional[str]) -> None:
    """Save the record (atomically); if that fails, save it to a fallback
    file and say where: a game's record is never lost to a traceback."""
    if path is None:
        return
    try:
        save(game, path)  # type: ignore[arg-type]  # a FiveGame gives its own record
        console.print(f"Record written to {escape(path)}", soft_wrap=True)
        return
    except OSError as e:
        problem = f"{e.strerror or e}"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        fallback = folder / f"ddz-record-{stamp}-{os.getpid()}.json"
        try:
            save(game, fallback)  # type: ignore[arg-type]
        except OSError:
            continue
        console.print(f"[yellow]Could not write the record to {escape(path)} ({problem}); "
                      f"it was saved to {escape(str(fallback))} instead.[/]", soft_wrap=True)
        return
    console.print(f"[red]Could not write the record to {path} ({problem}) nor to a fallback file.[/]")


# -- the game loops -----------------------------------------------------------------------

def _leave_question(me: _Seat) -> str:
    game, seat = me.game, me.seat
    probe = game.copy()
    probe.escape(seat)
    s = probe.settlement()
    return (f"Leaving now counts as an escape (逃跑): {_minus(s.net[seat])} beans ({_minus(s.points[seat])} "
            f"points). Leave?")


def _run(console: Console, me: _Seat, bots: dict[int, Bot], announce: Callable[[Any], None]) -> Optional[str]:
    """Play until the end or until the human leaves; how they left, or ``None``."""
    game, seat = me.game, me.seat
    while not game.is_terminal():
        try:
            p = game.current_player()
            name = me.name(p)
            if p == seat:
                action: AnyAction = _read_action(console, me)
            else:
                action = bots[p].act(game.observation(p))
            before = game.copy()
            game.apply(action)
            console.print(f"  {name}: {escape(me.words(action))}")
            announce(before)
        except (_Leave, KeyboardInterrupt) as e:
            console.print()
            how = e.how if isinstance(e, _Leave) else "interrupt"
            left = _confirm(console, _leave_question(me), how)
            if left is not None:
                return left
            console.print("Back to the game.")
    return None


def _bot_list(text: str, n: int, seed: Optional[int]) -> list[Bot]:
    """``n`` bots from ``--bots``: names (``rule``, ``random``) or import paths
    ``package.module:Class`` (a ``Bot`` class, given ``seed=`` if it takes one)."""
    names = [s.strip() for s in text.split(",") if s.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise click.BadParameter(f"give {n} bot names (or one for all), not {len(names)}", param_hint="--bots")
    out = []
    for i, name in enumerate(names):
        s = None if seed is None else seed + 1000 * (i + 1)
        try:
            out.append(_import_bot(name, s) if ":" in name else make_bot(name, s))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--bots") from None
    return out


def _import_bot(path: str, seed: Optional[int]) -> Bot:
    """The bot ``module:Class``; raises ``InvalidArgumentError`` saying what is wrong."""
    module, _, attr = path.partition(":")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except ImportError as e:
        raise InvalidArgumentError(f"cannot import the bot module {module!r}: {e}") from None
    except AttributeError:
        raise InvalidArgumentError(f"the module {module!r} has no {attr!r}") from None
    if not (isinstance(obj, type) and issubclass(obj, Bot)) and not callable(obj):
        raise InvalidArgumentError(f"{path} is not a Bot class")
    try:
        takes_seed = "seed" in inspect.signature(obj).parameters
    except (TypeError, ValueError):
        takes_seed = False
    bot = obj(seed=seed) if takes_seed else obj()
    if not callable(getattr(bot, "act", None)):
        raise InvalidArgumentError(f"{path} made a {type(bot).__name__}, which has no act(observation) method")
    return bot  # type: ignore[no-any-return]


def _three_announce(console: Console, me: _ThreeSeat) -> Callable[[Any], None]:
    def announce(before: Game) -> None:
        game = me.game
        if game.redeals != before.redeals:
            console.print("[yellow]Everybody passed: the cards are dealt again.[/]")
        if before.landlord is None and game.landlord is not None:
            who = "You are" if game.landlord == me.seat else f"Seat {game.landlord} is"
            console.print(f"[bold]{who} the landlord (地主)[/] and takes the bottom cards: {ranks_text(game.bottom)}")
            if game.wild is not None and game.rules.wild is None:
                w = game.wild.char.replace("T", "10")
                console.print(f"[bold magenta]Wild rank (癞子) drawn: {w}[/]: the four {w}s are wild "
                              f"(docs/rules.md §7).")
        if game.multiplier().total != before.multiplier().total:
            console.print(f"  [dim]multiplier now {escape(multiplier_words(game.multiplier()))}[/]")
    return announce


def _settlement_table(names: Sequence[str], roles: Sequence[str], points: Sequence["int | float | Fraction"],
                      s: "Settlement | FiveSettlement", beans: bool) -> Table:
    t = Table(title="Settlement")
    for c in ("seat", "role", "points") + (("transfer", "rake", "net beans") if beans else ()):
        t.add_column(c, justify="left" if c in ("seat", "role") else "right")
    for seat, name in enumerate(names):
        row = [name, roles[seat], points_text(points[seat])]
        if beans:
            row += [f"{s.transfers[seat]:+d}", f"{s.rake[seat]}", f"{s.net[seat]:+d}"]
        t.add_row(*row)
    return t


_BOT_NAMES = ", ".join(sorted(BOTS))


_COMMON_OPTIONS = [
    click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=None,
                 help="Seed for the deals and the bots (0 to 2**64 - 1)."),
    click.option("--rules", "preset", type=click.Choice(sorted(Rules.PRESETS)), default="standard",
                 show_default=True, help="Move-generation rules preset."),
    click.option("--bidding", type=click.Choice(["call_rob", "points"]), default="call_rob", show_default=True,
                 help="Call and rob (叫地主/抢地主) or point bidding 1-3 (叫分)."),
    click.option("--shows/--no-shows", default=True, show_default=True, help="Offer show cards (明牌)."),
    click.option("--doubling/--no-doubling", default=True, show_default=True, help="Offer doubling (加倍)."),
    click.option("--laizi", is_flag=True, default=False,
                 help="A laizi room (癞子场, docs/rules.md §7): a wild rank drawn after the landlord, laizi scoring, "
                      "its show cards (x4 before the deal, x2 after the bottom, multiplied)."),
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


def _rules_from(preset: str, bidding: str, shows: bool, doubling: bool, laizi: bool = False) -> Rules:
    """The rules of the command-line options (``laizi``: a laizi room's flow, ``Rules.PRESETS["laizi"]``)."""
    extra = dict(Rules.PRESETS["laizi"]) if laizi else {}
    if not shows:
        extra.update(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0)
    return Rules.preset(preset, bidding=bidding, doubling=doubling, **extra)


def _five_rules(preset: str, doubling: bool, other: dict[str, Any]) -> Rules:
    """Two-deck rules from the shared options; options with no five-player meaning are refused."""
    if other.get("laizi"):
        raise click.BadParameter("laizi rooms are three-player games (docs/rules.md §7)", param_hint="--laizi")
    if other.get("bidding", "call_rob") != "call_rob":
        raise click.BadParameter("five players do not bid: the marked card chooses the landlord (docs/rules.md §8)",
                                 param_hint="--bidding")
    try:
        return Rules.preset(preset, decks=2, doubling=doubling)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--rules") from None



@click.command()
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="Your seat (0, 1 or 2).")
@click.option("--bots", "bot_names", default="rule", show_default=True,
              help="The opponents, comma-separated: rule, random, or any bot class by import path "
                   "(mypkg.mybot:MyBot); one name for all.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game's JSON record here at the end (checked before the game).")
@_common
def play(seat: int, bot_names: str, record_path: Optional[str], preset: str, bidding: str, shows: bool,
         doubling: bool, laizi: bool, coefficient: int, rake: int, beans: Optional[int], seed: Optional[int]) -> None:
    """Play one game against bots in the terminal: three players (you and two
    bots, docs/rules.md §3-6) or five with --players 5 (you and four bots, §8).

    Type cards to play them (33, 10JQKA, 3334, BR; cards always mean cards),
    #N to pick entry N of the list on screen, pass, ? for help.  q, Ctrl-C or
    Ctrl-D leave the game after asking: leaving is an escape (逃跑, docs/rules.md
    §6, §8) and costs the penalty the question states.  Exit code 0 at
    the end of a game or after q, 130 after Ctrl-C, 1 when the input ends.
    """
    console = Console(highlight=False)
    _check_record_path(record_path)
    rules = _rules_from(preset, bidding, shows, doubling, laizi)
    room = Room(coefficient=coefficient, rake=rake)
    others = [s for s in range(3) if s != seat]
    bots = dict(zip(others, _bot_list(bot_names, 2, seed)))
    for o, b in bots.items():
        b.new_game(o, rules)
    game = Game(rules, seed=seed, room=room, beans=None if beans is None else [beans] * 3)
    me = _ThreeSeat(game, seat)
    console.print(f"[bold]Dou Dizhu (斗地主)[/] · you: seat {seat} · "
                  + ", ".join(f"seat {s}: {b.name}" for s, b in bots.items()) + " · ? help")
    left = _run(console, me, bots, _three_announce(console, me))
    if left is not None:
        game.escape(seat)
        console.print("[red]You left the game: that is an escape (逃跑).[/]")
    s = game.settlement()
    names = [f"Seat {q}" if q != seat else "You" for q in range(3)]
    console.rule("[bold]Game over (结束)[/]")
    if s.escaped is None and s.landlord is not None:
        won = seat in s.winners
        console.print(f"[bold {'green' if won else 'red'}]{'You win' if won else 'You lose'}[/]")
    for line in explain_settlement(s, names, coefficient):
        console.print(escape(line))
    roles = ["-" if s.landlord is None else "landlord" if q == s.landlord else "farmer" for q in range(3)]
    if s.escaped is not None:
        roles[s.escaped] += " (escaped)"
    console.print(_settlement_table(names, roles, s.points, s, beans is not None or rake > 0 or coefficient > 1))
    console.print(f"Your title for {points_text(s.points[seat])} points: {title(s.points[seat])} "
                  f"({title(s.points[seat], english=True)})")
    _write_record(console, game, record_path)
    if left is not None and _EXIT[left]:
        raise click.exceptions.Exit(_EXIT[left])


def _play_five(seat: int, bot_names: str, record_path: Optional[str], preset: str, doubling: bool, coefficient: int,
               rake: int, beans: Optional[int], seed: Optional[int], **other: Any) -> None:
    """``ddz play --players 5``: one five-player game against four bots (docs/rules.md §8)."""
    console = Console(highlight=False)
    _check_record_path(record_path)
    rules = _five_rules(preset, doubling, other)
    room = Room(coefficient=coefficient, rake=rake)
    others = [s for s in range(5) if s != seat]
    bots: dict[int, Bot] = dict(zip(others, _bot_list(bot_names, 4, seed)))
    for o, b in bots.items():
        b.new_game(o, rules)
    game = FiveGame(rules, seed=seed, room=room, beans=None if beans is None else [beans] * 5)
    me = _FiveSeat(game, seat)
    console.print(f"[bold]Five-player Dou Dizhu (五人斗地主)[/] · you are seat {seat} · ? for help")
    face = card_text(game.marked.card).plain
    console.print(f"The marked card (明牌) is [bold]{face}[/]: seat {game.open_landlord} holds it and is the open "
                  f"landlord; whoever holds the other {face} (two decks) is the hidden landlord.")

    def announce(before: FiveGame) -> None:
        if game.revealed and not before.revealed:
            how, who = game.revealed_by  # type: ignore[misc]
            team = (f"seat {game.open_landlord} plays alone" if game.solo else
                    f"the landlords are seats {game.open_landlord} and {game.hidden_landlord}")
            console.print(f"[bold]Landlords public[/] ({'reveal' if how == 'choice' else 'twin played'} by seat "
                          f"{who}): {team}.")
        if game.multiplier().total != before.multiplier().total:
            console.print(f"  [dim]multiplier now {escape(five_multiplier_words(game.multiplier()))}[/]")

    left = _run(console, me, bots, announce)
    if left is not None:
        game.escape(seat)
        console.print("[red]You left the game: that is an escape (逃跑).[/]")
    s = game.settlement()
    console.rule("[bold]Game over (结束)[/]")
    if s.escaped is None:
        won = seat in s.winners
        console.print(f"[bold {'green' if won else 'red'}]{'You win' if won else 'You lose'}[/]: "
                      f"{'the landlords' if s.landlord_won else 'the farmers'} went out first (seat {game.winner}).")
    names = [f"Seat {q}" if q != seat else "You" for q in range(5)]
    for line in explain_five_settlement(s, names, coefficient):
        console.print(escape(line))
    roles = ["open landlord" if q == s.landlords[0] else "hidden landlord" if q in s.landlords else "farmer"
             for q in range(5)]
    if s.escaped is not None:
        roles[s.escaped] += " (escaped)"
    console.print(_settlement_table(names, roles, s.points, s, beans is not None or rake > 0 or coefficient > 1))
    _write_record(console, game, record_path)
    if left is not None and _EXIT[left]:
        raise click.exceptions.Exit(_EXIT[left])


def _run_bot_games(console: Console, progress: bool, run: Callable[..., _S], n_games: int, *args: Any) -> _S:
    """``run(n_games, *args)`` (``run_games`` or ``run_five_games``), with a
    progress bar on ``console`` when ``progress``."""
    if progress:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task("playing", total=n_games)
            return run(n_games, *args, progress=lambda k: bar.update(task, completed=k))
    return run(n_games, *args)


def _announced_seed(console: Console, seed: Optional[int]) -> int:
    """``seed``, or a fresh one printed so that the run can be repeated with ``--seed``."""
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (repeat with --seed {seed})")
    return seed


def _print_stats(console: Console, heading: str, stats: Any, bots: Sequence[Any], played: int,
                 rows: list[tuple[str, str]], per_seat: tuple[str, Sequence[Any], str]) -> None:
    """Print the two-column table of ``ddz simulate``: the game-specific
    ``rows``, each seat's side wins (out of ``played``), then the rows every
    seat count shares, with ``per_seat`` = (label, totals, format) as the
    per-seat money line."""
    n = stats.games
    t = Table(title=f"{heading} · bots {', '.join(b.name for b in bots)}")
    t.add_column("measure")
    t.add_column("value", justify="right")
    for row in rows:
        t.add_row(*row)
    for s, bot in enumerate(bots):
        t.add_row(f"seat {s} ({bot.name}) side won", f"{stats.seat_wins[s]} ({stats.seat_wins[s] / played:.1%})")
    label, totals, fmt = per_seat
    for s, total in enumerate(totals):
        t.add_row(f"seat {s} {label}, per game", format(total / n, fmt))
    t.add_row("average multiplier", f"{stats.average_multiplier:.2f}")
    t.add_row("beans to landlords, per game", f"{stats.landlord_net / n:+.1f}")
    t.add_row("beans to farmers, per game", f"{stats.farmer_net / n:+.1f}")
    t.add_row("rake, per game", f"{stats.rake / n:.1f}")
    t.add_row("games per second", f"{stats.games_per_second:,.0f}")
    console.print(t)


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
    the spring rate, the bean flow and the speed (docs/rules.md §3-6; --laizi:
    laizi rooms, docs/rules.md §7)."""
    console = Console(highlight=False)
    seed = _announced_seed(console, seed)
    rules = _rules_from(preset, bidding, shows, doubling, laizi)
    bots = _bot_list(bot_names, 3, seed)
    room = Room(coefficient=coefficient, rake=rake)
    bean_list = None if beans is None else [beans] * 3
    run = native_runner(bots, rules) or run_games  # random and rule bots play in the kernel
    stats = _run_bot_games(console, progress, run, n_games, bots, seed, rules, room, bean_list)
    played = stats.played or 1
    rows = [("landlord wins", f"{stats.landlord_wins} ({stats.landlord_win_rate:.1%})"),
            ("farmer wins", f"{stats.farmer_wins} ({stats.farmer_wins / played:.1%})")]
    if stats.no_landlord:
        rows.append(("no landlord (redeal cap)", str(stats.no_landlord)))
    rows.append(("spring rate (春天 + 反春)", f"{stats.spring_rate:.2%}"))
    _print_stats(console, f"{stats.games} games", stats, bots, played, rows, ("net beans", stats.net, "+.1f"))


def _simulate_five(n_games: int, bot_names: str, progress: bool, preset: str, doubling: bool, coefficient: int,
                   rake: int, beans: Optional[int], seed: Optional[int], **other: Any) -> None:
    """``ddz simulate --players 5``: five-player bot games and their statistics (docs/rules.md §8)."""
    console = Console(highlight=False)
    seed = _announced_seed(console, seed)
    rules = _five_rules(preset, doubling, other)
    bots = _bot_list(bot_names, 5, seed)
    room = Room(coefficient=coefficient, rake=rake)
    bean_list = None if beans is None else [beans] * 5
    run = native_runner(bots, rules) or run_five_games  # random and rule bots play in the kernel
    stats = _run_bot_games(console, progress, run, n_games, bots, seed, rules, room, bean_list)
    n = stats.games
    rows = [("landlords' side wins", f"{stats.landlord_wins} ({stats.landlord_win_rate:.1%})"),
            ("farmers' side wins", f"{stats.farmer_wins} ({stats.farmer_wins / n:.1%})"),
            ("open landlord alone (一地主)", f"{stats.solo} ({stats.solo / n:.1%})"),
            ("reveal chosen (亮出身份, x2)", f"{stats.reveals_chosen} ({stats.reveals_chosen / n:.1%})"),
            ("landlords public by the twin played", f"{stats.reveals_played} ({stats.reveals_played / n:.1%})"),
            ("doubling bombs, per game", f"{stats.bombs / n:.2f}"),
            ("spring rate (losers played nothing)", f"{stats.spring_rate:.2%}")]
    _print_stats(console, f"{n} five-player games", stats, bots, n, rows, ("points", stats.points, "+.2f"))


def _with_players(cmd: click.Command, five: Callable[..., None]) -> None:
    """Give ``cmd`` a ``--players 3|5`` option; 5 runs ``five`` with the same options."""
    for param in cmd.params:
        if not isinstance(param, click.Option):  # play and simulate take options only
            continue
        if param.name == "seat":
            param.type = click.IntRange(0, 4)
            param.help = "Your seat (0-2; 0-4 with --players 5)."
        elif param.name == "bot_names":
            param.help = (param.help or "") + ("  Four opponents with --players 5." if cmd.name == "play" else
                                               "  Seats 0-4 with --players 5 (random and rule bots play in C).")
    cmd.params.append(click.Option(["--players"], type=click.Choice(["3", "5"]), default="3", show_default=True,
                                   help="3: the classic game; 5: the two-deck five-player game (五人斗地主, "
                                        "docs/rules.md §8: marked card, open and hidden landlord)."))
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
