"""How the game looks to people in the terminal: cards, moves, phases, the
multiplier in words and the settlement explained line by line (used by
``ddz play``, ``ddz replay`` and ``ddz view``).

Cards are drawn one way everywhere: ranks as in the move notation (``10``
for ten, ``B`` small joker, ``R`` big joker), suits as symbols, hearts and
diamonds red, jokers bold (the big one red), laizi wild cards (癞子,
docs/rules.md §7) marked ``*``.
"""

from __future__ import annotations

from fractions import Fraction

from typing import Optional, Sequence, cast

from rich.text import Text

from ..cards import RANK_CHARS, Hand, Rank
from ..cards import Card, FiveCard
from ..game.five import FiveAction, FivePhase, MarkedMove
from ..game.three import Action, Phase
from ..moves import Move
from ..game.settlement import FiveMultiplier, FiveSettlement, Multiplier, Settlement

__all__ = ["card_text", "cards_text", "ranks_text", "move_text", "action_words", "five_action_words",
           "five_card_text", "phase_name", "multiplier_words", "five_multiplier_words", "explain_settlement",
           "explain_five_settlement", "clip", "points_text"]

_SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_RANK_TEXT = {c: ("10" if c == "T" else c) for c in RANK_CHARS}

_ACTION_WORDS: dict[int, str] = {
    Action.NO_SHOW: "don't show", Action.SHOW: "show cards (明牌)", Action.NO_CALL: "pass (不叫)",
    Action.CALL: "call (叫地主)", Action.NO_ROB: "don't rob (不抢)", Action.ROB: "rob (抢地主)",
    Action.NO_BID: "pass (不叫)", Action.BID_1: "bid 1", Action.BID_2: "bid 2", Action.BID_3: "bid 3",
    Action.NO_DOUBLE: "don't double (不加倍)", Action.DOUBLE: "double (加倍)", Action.ESCAPE: "leaves (逃跑)",
}
_FIVE_WORDS: dict[int, str] = {
    FiveAction.NO_REVEAL: "don't reveal (放弃)", FiveAction.REVEAL: "reveal: show who the landlords are (亮出身份, x2)",
    FiveAction.NO_DOUBLE: "don't double (不加倍)", FiveAction.DOUBLE: "double (加倍)",
}
_PHASE_NAMES: dict[Phase, str] = {
    Phase.SHOW_START: "Show cards before the deal (明牌开始)", Phase.SHOW_EARLY: "Show cards while dealing (发牌明牌)",
    Phase.SHOW_LATE: "Show cards after the deal (发牌明牌)", Phase.CALL: "Calling the landlord (叫地主)",
    Phase.ROB: "Robbing the landlord (抢地主)", Phase.BID: "Bidding for the landlord (叫分)",
    Phase.SHOW_BOTTOM: "Landlord shows cards (明牌)", Phase.DOUBLE: "Doubling (加倍)", Phase.PLAY: "Play (出牌)",
    Phase.END: "Game over (结束)",
}
_FIVE_PHASE_NAMES: dict[FivePhase, str] = {
    FivePhase.REVEAL: "Revealing the landlords (亮出身份)", FivePhase.DOUBLE: "Doubling (加倍)",
    FivePhase.PLAY: "Play (出牌)", FivePhase.END: "Game over (结束)",
}
MAX_QUOTE = 60


def clip(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` as typed, cut to its first ``limit`` characters (with ``…``) for messages."""
    return text if len(text) <= limit else text[:limit] + "…"


def phase_name(phase: "Phase | FivePhase") -> str:
    """A phase in plain words with its Chinese term (``"Robbing the landlord (抢地主)"``)."""
    if isinstance(phase, FivePhase):
        return _FIVE_PHASE_NAMES[phase]
    return _PHASE_NAMES[phase]


def _rank(r: Rank, wild: Optional[Rank] = None) -> str:
    return _RANK_TEXT[r.char] + ("*" if r == wild else "")


def card_text(card: Card, wild: Optional[Rank] = None) -> Text:
    """One concrete card: suit symbol and rank (``♥10``), hearts and diamonds
    red; jokers as in the move notation, ``B`` (small) and ``R`` (big, red);
    a laizi wild card (rank ``wild``) marked ``*`` in magenta."""
    if card.suit is None:
        return Text("R" if card.rank == Rank.BIG_JOKER else "B",
                    style="bold red" if card.rank == Rank.BIG_JOKER else "bold")
    if wild is not None and card.rank == wild:
        return Text(_SUIT_SYMBOL[card.suit] + _rank(card.rank, wild), style="bold magenta")
    return Text(_SUIT_SYMBOL[card.suit] + _RANK_TEXT[card.rank.char], style="red" if card.suit in "HD" else "")


def cards_text(cards: Sequence[Card], wild: Optional[Rank] = None) -> Text:
    """Concrete cards in rank order, each drawn by ``card_text``; ``-`` for none."""
    out = Text()
    for i, c in enumerate(sorted(cards, key=lambda c: (c.rank, c))):
        if i:
            out.append(" ")
        out.append_text(card_text(c, wild))
    return out or Text("-")


def five_card_text(card: FiveCard, marked: Optional[FiveCard] = None) -> Text:
    """A two-deck card drawn by ``card_text``; cards of the marked card's face are framed ``[♥5]``."""
    t = card_text(card.card)
    if marked is not None and card.card == marked.card:
        return Text(f"[{t.plain}]", style="bold yellow")
    return t


def ranks_text(hand: Hand, wild: Optional[Rank] = None) -> str:
    """Rank-only cards as in the move notation, space-separated (``3 3 10 B R``;
    wild cards marked ``*``); ``-`` for none."""
    return " ".join(_rank(r, wild) for r in hand.ranks()) or "-"


def move_text(move: Move, wild: Optional[Rank] = None) -> str:
    """A move for people: its ranks and the combination's name (``3 3  (pair)``,
    ``pass``); in laizi games the wild cards are marked ``*`` and the move says
    what they stand for (docs/rules.md §7)."""
    if move.is_pass:
        return "pass"
    name = str(move.combo).replace("_", " ")
    if move.wild is not None:
        main = cast(Rank, move.main)  # not a pass: the move has a main rank
        stand = " ".join(_RANK_TEXT[r.char] for r in move.stand_ins)
        return f"{ranks_text(move.cards, move.wild)}  ({name} {_RANK_TEXT[main.char]}; "\
               f"wild {_RANK_TEXT[move.wild.char]} as {stand})"
    return f"{ranks_text(move.cards, wild)}  ({name})"


def action_words(action: "Action | Move | int", wild: Optional[Rank] = None) -> str:
    """Any three-player action for people (a move by ``move_text``; a call,
    rob, show or double in words with the Chinese term)."""
    return move_text(action, wild) if isinstance(action, Move) else _ACTION_WORDS.get(action, str(action))


def five_action_words(action: "FiveAction | Move | int") -> str:
    """A five-player action for people (a move says how many marked-face cards it plays)."""
    if isinstance(action, MarkedMove):
        return f"{move_text(action)}  with {action.marked} marked card{'s' * (action.marked > 1)}"
    if isinstance(action, Move):
        return move_text(action)
    return _FIVE_WORDS.get(FiveAction(action), str(action))


def points_text(points: "int | float | Fraction") -> str:
    """Signed points (laizi and five-player points can be fractions: ``+2.25``;
    laizi points are exact ``Fraction`` values, shown to 6 digits)."""
    if points != int(points):
        return f"{float(points):+g}"
    return f"{int(points):+d}"


def _times(n: int, one: str, factor: int) -> str:
    return f"{n} {one}{'s' * (n != 1)} x{factor ** n}"


def multiplier_words(m: Multiplier) -> str:
    """The multiplier and where it comes from, in words (docs/rules.md §6-7):
    ``"x8 = 1 rob x2 · show cards x4"``; ``"x1 (nothing has raised it yet)"``."""
    return _product(m.total, [
        (m.initial != 1, f"room x{m.initial}"), (m.robs, _times(m.robs, "rob", 2)),
        (m.show > 1, f"show cards x{m.show}"), (m.bombs, _times(m.bombs, "bomb", 2)),
        (m.big_bombs, _times(m.big_bombs, "big bomb (hard, pure wild or rocket)", 4)),
        (m.spring, "spring (春天) x2"), (m.anti_spring, "anti-spring (反春) x2")])


def five_multiplier_words(m: FiveMultiplier) -> str:
    """The five-player multiplier in words (docs/rules.md §8)."""
    return _product(m.total, [
        (m.initial != 1, f"room x{m.initial}"), (m.bombs, _times(m.bombs, "doubling bomb", 2)),
        (m.reveal, "reveal (亮出身份) x2"), (m.spring, "spring (春天) x2")])


def _product(total: int, terms: Sequence[tuple[object, str]]) -> str:
    """``x8 = 1 rob x2 · show cards x4`` from the terms present."""
    parts = [text for present, text in terms if present]
    return f"x{total} = " + " · ".join(parts) if parts else f"x{total} (nothing has raised it yet)"


def _beans_lines(names: Sequence[str], points: Sequence["int | float | Fraction"], transfers: Sequence[int],
                 rake: Sequence[int], net: Sequence[int], coefficient: int) -> list[str]:
    """How points became beans: transfers (points x N, after floors and caps), rake, net."""
    out = [f"Beans: points x {coefficient} bean{'s' * (coefficient != 1)} a point, each loser paying at most "
           f"what it holds and each winner taking at most what it brought (docs/rules.md §6):"]
    for i, name in enumerate(names):
        line = f"  {name}: {points_text(points[i])} points -> {transfers[i]:+d} beans"
        if rake[i]:
            line += f", rake -{rake[i]}"
        out.append(line + f" = net {net[i]:+d} beans")
    return out


def explain_settlement(s: Settlement, names: Sequence[str], coefficient: int = 1) -> list[str]:
    """The settlement of a three-player game line by line, the worked sum in
    points and then in beans (docs/rules.md §6-7); ``names``: one per seat."""
    m = s.multiplier
    out: list[str] = []
    if s.escaped is not None:
        who = names[s.escaped]
        role = "before a landlord was chosen" if s.landlord is None else (
            "as the landlord" if s.escaped == s.landlord else "as a farmer")
        out.append(f"{who} left the game {role}: an escape (逃跑, docs/rules.md §6).")
        if s.escape_multiplier is not None and s.landlord is not None:
            out.append(f"Escape multiplier M = {s.escape_multiplier} (robs, show cards and every bomb of the deal).")
        share = " and ".join(names[q] for q in s.winners)
        each = " each" if len(s.winners) > 1 else ""
        out.append(f"Penalty: {points_text(-s.stakes[s.escaped])} points for {who}, "
                   f"{points_text(s.stakes[s.winners[0]])}{each} to {share}.")
    elif s.landlord is None:
        out.append("Nobody became landlord: nothing is won or lost.")
        return out
    else:
        lord = s.landlord
        won = s.landlord_won
        out.append(f"{names[lord]} (landlord) {'won' if won else 'lost'}: "
                   f"{'the landlord' if won else 'a farmer'} went out first.")
        out.append(f"Base {s.base} (底分) · multiplier {multiplier_words(m)}.")
        farmers = [f for f in range(3) if f != lord]
        for f in farmers:
            terms = [f"base {s.base}", f"multiplier {m.total}"]
            if s.doubles[f] == 2:
                terms.append(f"{names[f]} doubled x2")
            if s.doubles[lord] == 2:
                terms.append("landlord doubled x2")
            raw = s.base * m.total * s.doubles[f] * s.doubles[lord]
            line = f"  {names[f]} (farmer): " + " x ".join(terms) + f" = {raw}"
            if s.laizi:
                line += f", x 0.25 (laizi room) = {raw / 4:g}"
                if s.stakes[f] != Fraction(raw, 4):
                    line += f", capped (no winner gains over 10000) to {float(s.stakes[f]):g}"
            out.append(line + f" points {'paid to' if won else 'won from'} the landlord")
        out.append(f"  {names[lord]} (landlord): {' + '.join(f'{float(s.stakes[f]):g}' for f in farmers)} = "
                   f"{points_text(s.points[lord])} points")
    out += _beans_lines(names, s.points, s.transfers, s.rake, s.net, coefficient)
    return out


def explain_five_settlement(s: FiveSettlement, names: Sequence[str], coefficient: int = 1) -> list[str]:
    """The settlement of a five-player game line by line, points then beans (docs/rules.md §8, §6)."""
    m = s.multiplier
    lords = s.landlords
    if s.escaped is not None:
        e = s.escaped
        out = [f"{names[e]} escaped (逃跑): escape multiplier M = {s.escape_multiplier}, charged "
               f"{-s.points[e]:g} points, shared by the other side (docs/rules.md §8)."]
        out += [f"  {names[q]}: receives {points_text(s.points[q])} points" for q in s.winners]
        return out + _beans_lines(names, s.points, s.transfers, s.rake, s.net, coefficient)
    unit = s.base * m.total
    out = [f"The {'landlords' if s.landlord_won else 'farmers'} won: their side went out first.",
           f"Base {s.base} · multiplier {five_multiplier_words(m)}: {unit} point{'s' * (unit != 1)} a pair"
           + (", halved with two landlords." if len(lords) == 2 else ".")]
    for p in range(5):
        pairs = [q for q in range(5) if (q in lords) != (p in lords)]
        terms = []
        for q in pairs:
            d = s.doubles[p] * s.doubles[q]
            terms.append(f"{unit * d / len(lords):g}")
        role = "open landlord" if p == lords[0] else "hidden landlord" if p in lords else "farmer"
        verb = "wins" if s.points[p] > 0 else "loses"
        out.append(f"  {names[p]} ({role}{', doubled' if s.doubles[p] == 2 else ''}): {verb} "
                   f"{' + '.join(terms)} = {points_text(s.points[p])} points")
    out += _beans_lines(names, s.points, s.transfers, s.rake, s.net, coefficient)
    return out
