"""Deliberately simple reference endgame solver (tests only).

Plain minimax over the reference move generator (``reference.ref_legal``),
written from docs/rules.md §3 and §6 alone: no transposition table, no move
ordering, no shared code with ``ddzcore._solver``.  Seats take turns
``0, 1, ..., n-1``; a trick ends when all ``n - 1`` other players have
passed in a row, and its owner leads.  Values are the landlord's:
win/loss +1 / -1, or the score ±2**bombs doubled for a spring (the
landlord wins and no farmer played) or anti-spring (a farmer wins and the
landlord played exactly once).  Only move generation is memoised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from reference import BOMB_COMBOS, PASS, RefRules, cards_str, parse_cards, ref_legal


@dataclass(frozen=True)
class Position:
    hands: tuple  # card strings, one per seat
    turn: int
    last: object  # the move to beat (reference tuple) or None
    owner: int  # seat that played it (-1 on a free lead)
    landlord: int = 0
    bombs: int = 0
    landlord_plays: int = 0
    farmer_plays: int = 0


@dataclass
class RefSolver:
    rules: RefRules
    banned: frozenset = frozenset()
    score: bool = False
    nodes: int = field(default=0)

    def __post_init__(self) -> None:
        self.legal = lru_cache(maxsize=None)(self._legal)

    def _legal(self, hand: str, last: object) -> list:
        moves = ref_legal(hand, last, self.rules)
        return sorted(m for m in moves if m[1] not in self.banned)

    def children(self, p: Position) -> list:
        """(move, next position or None, terminal value or None) for each legal move."""
        n = len(p.hands)
        out = []
        for m in self.legal(p.hands[p.turn], p.last):
            nxt = (p.turn + 1) % n
            if m == PASS:
                last = None if nxt == p.owner else p.last
                out.append((m, Position(p.hands, nxt, last, p.owner, p.landlord, p.bombs,
                                        p.landlord_plays, p.farmer_plays), None))
                continue
            h = parse_cards(p.hands[p.turn], self.rules)
            c = parse_cards(m[0], self.rules)
            rest = cards_str(tuple(a - b for a, b in zip(h, c)))
            hands = p.hands[:p.turn] + (rest,) + p.hands[p.turn + 1:]
            bombs = p.bombs + (m[1] in BOMB_COMBOS)
            lp = p.landlord_plays + (p.turn == p.landlord)
            fp = p.farmer_plays + (p.turn != p.landlord)
            if rest == "":
                out.append((m, None, self.outcome(p.turn == p.landlord, bombs, lp, fp)))
            else:
                out.append((m, Position(hands, nxt, m, p.turn, p.landlord, bombs, lp, fp), None))
        return out

    def outcome(self, landlord_won: bool, bombs: int, lp: int, fp: int) -> int:
        if not self.score:
            return 1 if landlord_won else -1
        m = 2 ** bombs
        if (landlord_won and fp == 0) or (not landlord_won and lp == 1):
            m *= 2
        return m if landlord_won else -m

    def value(self, p: Position) -> int:
        """The landlord's value of p under best play (plain minimax)."""
        self.nodes += 1
        maxing = p.turn == p.landlord
        best = None
        for _, child, v in self.children(p):
            if child is not None:
                v = self.value(child)
            if best is None or (v > best if maxing else v < best):
                best = v
            if not self.score and best == (1 if maxing else -1):
                break  # win/loss: the first winning move decides
        assert best is not None
        return best

    def move_values(self, p: Position) -> dict:
        """Each legal move's value for the landlord."""
        return {m: (v if child is None else self.value(child)) for m, child, v in self.children(p)}
