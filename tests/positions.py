"""Seeded random positions for the differential and property tests.

Hands are dealt from a shuffled deck; a follow position's move to beat is a
random legal lead of the wanted combination type from cards the hand does not
hold (preferring unusual kickers: both jokers, repeated singles, a trio of
wings, pairs beside the chain), so that every combination type is exercised.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ddzcore import Combo, Hand, Move, Rules, legal_moves

ONE_DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
TWO_DECKS = ONE_DECK.replace("B", "").replace("R", "") * 2 + "BBRR"

#: Combination types a follow can be drawn for, per deck count.
FOLLOW_COMBOS = {
    1: [c for c in Combo if Combo.SINGLE <= c <= Combo.ROCKET],
    2: [c for c in Combo if Combo.SINGLE <= c <= Combo.BOMB] + [Combo.JOKER_BOMB],
    "laizi": [c for c in Combo if Combo.SINGLE <= c <= Combo.WILD_BOMB],
}


@dataclass(frozen=True)
class Position:
    hand: str
    last: "str | None"     # move text CARDS|COMBO|MAIN|LENGTH, None = free lead
    kind: str              # "lead17", "lead20", "follow:<combo>"

    def __str__(self) -> str:
        return f"{self.kind} hand={self.hand} last={self.last}"


def _unusual(m: Move) -> bool:
    k = m.kickers
    if not k:
        return False
    counts = k.counts()
    return (counts[13] and counts[14]) or max(counts) >= 2 and m.combo in (
        Combo.FOUR_TWO_SINGLE, Combo.PLANE_SINGLE) or m.combo == Combo.PLANE_PAIR


def deal(rng: random.Random, n: int, deck: str, wild: "str | None" = None,
         wilds: "int | None" = None) -> tuple[str, str]:
    """n cards and the rest of the deck; with `wilds`, exactly that many of rank `wild`."""
    cards = list(deck)
    rng.shuffle(cards)
    if wilds is not None and wild is not None:
        w = [c for c in cards if c == wild]
        others = [c for c in cards if c != wild]
        hand = w[:wilds] + others[: n - wilds]
        rest = w[wilds:] + others[n - wilds:]
        rng.shuffle(rest)
        return "".join(hand), "".join(rest)
    return "".join(cards[:n]), "".join(cards[n:])


def follow_position(rng: random.Random, combo: Combo, rules: Rules, size: int = 17,
                    wilds: "int | None" = None) -> Position:
    deck = TWO_DECKS if rules.decks == 2 else ONE_DECK
    if combo == Combo.WILD_BOMB:
        wilds = 0  # the move to beat holds all four wild cards
    elif combo == Combo.SOFT_BOMB and wilds:
        wilds = min(wilds, 2)  # leave the other side a wild card
    for _ in range(400):
        hand, rest = deal(rng, size, deck, rules.wild, wilds)
        other = Hand(rest[: 24 if rules.decks == 2 else 20], decks=rules.decks)
        candidates = [m for m in legal_moves(other, None, rules) if m.combo == combo]
        if not candidates:
            continue
        unusual = [m for m in candidates if _unusual(m)]
        pick = rng.choice(unusual if unusual and rng.random() < 0.5 else candidates)
        return Position(str(Hand(hand, decks=rules.decks)), str(pick), f"follow:{combo}")
    raise RuntimeError(f"no {combo} found to follow")


def positions(seed: int, rules: Rules, leads: int, follows_per_combo: int,
              sizes: "tuple[int, int] | None" = None) -> list[Position]:
    """`leads` lead positions of each size and `follows_per_combo` follows of each
    type.  Laizi rules: the hands hold 0, 1, 2, 3, 4, 0, 1, ... wild cards in turn."""
    rng = random.Random(seed)
    deck = TWO_DECKS if rules.decks == 2 else ONE_DECK
    sizes = sizes or ((21, 24) if rules.decks == 2 else (17, 20))
    combos = FOLLOW_COMBOS["laizi" if rules.wild else rules.decks]
    out: list[Position] = []

    def wilds() -> "int | None":
        return len(out) % 5 if rules.wild else None

    for size in sizes:
        for _ in range(leads):
            hand = deal(rng, size, deck, rules.wild, wilds())[0]
            out.append(Position(str(Hand(hand, decks=rules.decks)), None, f"lead{size}"))
    for combo in combos:
        if combo in (Combo.FOUR_TWO_SINGLE, Combo.FOUR_TWO_PAIR) and not rules.four_two:
            continue
        for _ in range(follows_per_combo):
            out.append(follow_position(rng, combo, rules, sizes[0], wilds()))
    return out
