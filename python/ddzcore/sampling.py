"""Sampling the hidden cards: complete deals consistent with what one seat knows.

Determinized search and hand evaluation deal the cards a player cannot see
at random, in a way that agrees with everything it knows (docs/rules.md §1,
§3-§5, §8): its own hand, the hands shown to it (明牌), the bottom cards
(底牌) once public, every card played, each player's card count, and in
five-player games the marked card (明牌标记) in the open landlord's hand.
The unseen cards are dealt by a uniform shuffle of the physical cards, so
every consistent assignment of cards to the other seats is equally likely
(the play itself is not used as evidence: this is the usual determinization
of information-set search).  The shuffle runs natively (``ddzcore._eval``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy as np

from . import _eval
from .cards import DECK_WORDS
from .errors import InvalidDealError, InvalidArgumentError
from .game.five import FiveObservation, MarkedMove
from .game.three import Observation
from .moves import Move

__all__ = ["sample_deals", "Knowledge", "knowledge"]

AnyObservation = Union[Observation, FiveObservation]

_FULL_DECK = DECK_WORDS[1]  # one deck as a card word


def _counts(word: int) -> np.ndarray:
    return np.array([(word >> (4 * r)) & 0xF for r in range(15)], np.int64)


def _word(counts: np.ndarray) -> int:
    return sum(int(c) << (4 * r) for r, c in enumerate(counts))


def _ncards(word: int) -> int:
    return int(_counts(word).sum())


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of a deal, as card words (docs/rules.md §1 layout).

    - ``seat``: the observer; ``seats``: 3 or 5.
    - ``known[s]``: cards seat s certainly holds now (the observer's whole
      hand, a shown hand, the bottom cards the landlord has not played yet,
      the marked card with the five-player open landlord); ``counts[s]``:
      how many cards seat s holds.
    - ``hidden``: cards held by nobody yet (the bottom before the landlord
      takes it, or the undealt cards in the show phases of the deal);
    - ``pool``: the cards whose place the observer does not know (the deck
      minus its own hand, every other known card and every card played).
    """

    seat: int
    seats: int
    known: tuple[int, ...]
    counts: tuple[int, ...]
    hidden: int
    pool: int


def knowledge(obs: AnyObservation) -> Knowledge:
    """Extract the ``Knowledge`` of ``obs`` (a three-player ``Observation``
    or a five-player ``FiveObservation``).  Raises ``InvalidDealError`` when
    the observation's counts and cards do not fit one deal (two decks with
    five players)."""
    five = isinstance(obs, FiveObservation)
    seats = 5 if five else 3
    deck = 2 * _FULL_DECK if five else _FULL_DECK
    played = [np.zeros(15, np.int64) for _ in range(seats)]
    marked_played = False
    for seat, action in obs.history:
        if isinstance(action, Move) and not action.is_pass:
            played[seat] += _counts(action.codes[0])
            if isinstance(action, MarkedMove) and isinstance(obs, FiveObservation) and seat == obs.open_landlord:
                marked_played = True
    known = [np.zeros(15, np.int64) for _ in range(seats)]
    known[obs.player] = _counts(obs.hand.word)
    for s, h in obs.shown.items():
        known[s] = _counts(h.word)
    landlord = obs.open_landlord if isinstance(obs, FiveObservation) else obs.landlord
    if landlord is not None and obs.bottom is not None and landlord != obs.player and landlord not in obs.shown:
        known[landlord] = np.maximum(known[landlord], _counts(obs.bottom.word) - played[landlord])
    if isinstance(obs, FiveObservation) and not marked_played and obs.open_landlord != obs.player \
            and obs.open_landlord not in obs.shown:
        m = int(obs.marked) % 54
        r = m // 4 if m < 52 else m - 39   # 52 -> B (13), 53 -> R (14)
        known[obs.open_landlord][r] = max(known[obs.open_landlord][r], 1)
    counts = tuple(int(c) for c in obs.card_counts)
    total_played = np.sum(played, axis=0)
    rest = _counts(deck) - total_played - np.sum(known, axis=0)
    if (rest < 0).any():
        raise InvalidDealError(f"seat {obs.player}'s observation holds more cards than the deck(s)")
    pool = _word(rest)
    held = sum(counts)
    hidden_n = int(_counts(deck).sum() - total_played.sum()) - held
    need = [counts[s] - int(known[s].sum()) for s in range(seats)]
    if hidden_n < 0 or any(x < 0 for x in need) or sum(need) + hidden_n != int(rest.sum()):
        raise InvalidDealError(f"seat {obs.player}'s observation: card counts {counts} do not fit the cards seen")
    return Knowledge(obs.player, seats, tuple(_word(k) for k in known), counts, hidden_n, pool)


def _seed(seed: object) -> int:
    if isinstance(seed, np.integer):
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise InvalidArgumentError(f"seed must be an int in 0..2**64-1, not {seed!r}")
    return seed


def _count(n: object) -> int:
    if isinstance(n, np.integer):
        n = int(n)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise InvalidArgumentError(f"n must be an int >= 0, not {n!r}")
    return n


def sample_deals(observation: "AnyObservation | Knowledge", n: int, seed: int) -> np.ndarray:
    """``n`` complete deals consistent with what ``observation``'s seat knows.

    ``observation``: a three-player ``Observation``, a five-player
    ``FiveObservation`` (``game.observation(seat)``) or a ``Knowledge``.
    Returns a uint64 array of shape ``(n, seats + 1)``: columns ``0..seats-1``
    are each seat's current hand as a card word (``Hand._trusted(w)`` or
    ``Hand(int(w))`` reads one), the observer's column its own hand in every
    row; the last column holds the cards nobody holds yet (the 3 bottom
    cards before the landlord takes them, the undealt cards during the
    deal's show phases), 0 afterwards.  Every row holds each card of the
    deck(s) exactly once, minus the cards played (docs/rules.md §1); rows
    are independent and uniform over the consistent deals; deterministic
    for ``seed`` (row i does not depend on ``n``).

    Raises ``ValueError`` for a bad ``n`` or ``seed`` (an int in
    0..2**64-1) and ``InvalidDealError`` for an inconsistent observation.
    """
    k = observation if isinstance(observation, Knowledge) else knowledge(observation)
    n = _count(n)
    seed = _seed(seed)
    need = [k.counts[s] - _ncards(k.known[s]) for s in range(k.seats)] + [k.hidden]
    known = np.array(list(k.known) + [0], np.uint64)
    return np.asarray(_eval._sample(k.pool, known, np.array(need, np.int32), n, seed))
