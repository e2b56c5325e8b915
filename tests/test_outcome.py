"""The typed end of a game (``game.outcome``): the termination reason and the
result, for every way a three- or five-player game can end."""

from __future__ import annotations

import random

from ddzcore import FiveGame, Game, Outcome, Rules, Termination
from ddzcore.tools.bots import RandomBot
from ddzcore.tools.simulation import play_game


def test_cards_out() -> None:
    g = play_game(Game(seed=3), [RandomBot(1), RandomBot(2), RandomBot(3)])
    o = g.outcome
    assert isinstance(o, Outcome) and o.termination is Termination.CARDS_OUT
    s = g.settlement()
    assert o.winner == g.winner and len(g.hand(o.winner)) == 0 and o.escaped is None
    assert o.landlords == (g.landlord,) and o.winners == s.winners and o.points == s.points
    assert o.landlords_won is (g.landlord in s.winners) and o.spring == s.spring


def test_redeal_cap() -> None:
    g = Game(Rules(max_redeals=0), seed=1)
    while not g.is_terminal():
        g.apply(g.legal_actions()[0])  # no show, no call: everybody passes
    o = g.outcome
    assert o is not None and o.termination is Termination.REDEAL_CAP
    assert o.landlords == () and o.winners == () and o.landlords_won is None and o.points == (0, 0, 0)


def test_escape_and_undo() -> None:
    g = Game(seed=5)
    assert g.outcome is None
    g.escape(1)  # before there is a landlord: charged as a farmer, the two others share
    o = g.outcome
    assert o is not None and o.termination is Termination.ESCAPE and o.escaped == 1 and o.winner is None
    assert o.winners == (0, 2) and o.points[1] < 0 and sum(o.points) == 0
    g.pop()
    assert g.outcome is None and not g.is_terminal()


def test_five_players() -> None:
    rng = random.Random(2)
    g = FiveGame(seed=9)
    while not g.is_terminal():
        legal = list(g.legal_actions())
        g.apply(legal[rng.randrange(len(legal))])
    o = g.outcome
    assert o is not None and o.termination is Termination.CARDS_OUT and o.landlords == g.landlords
    assert o.points == g.settlement().points and (o.winner in g.landlords) == o.landlords_won
    assert str(Termination.ESCAPE) == "escape"


def test_laizi_points_are_floats_as_returns() -> None:
    g = play_game(Game(Rules(laizi=True), seed=4), [RandomBot(1), RandomBot(2), RandomBot(3)])
    o = g.outcome
    assert o is not None and o.points == tuple(g.returns()) == tuple(float(p) for p in g.settlement().points)
    assert all(isinstance(p, float) for p in o.points)
