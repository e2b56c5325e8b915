"""win_probability, hint, the native rule policy and SearchBot."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ddzcore import Game, Hand, IllegalActionError, PlayState
from ddzcore import _eval
from ddzcore.tools.arena import make_bot
from ddzcore.tools.bots import RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.evaluate import hint, move_values, win_probability
from ddzcore.game import Phase
from ddzcore.tools.searchbot import SearchBot


def test_native_rule_policy_is_rulebot() -> None:
    """The playouts' rule policy chooses exactly RuleBot's move at every turn."""
    bot = RuleBot()
    decisions = 0
    for seed in range(12):
        s = PlayState.deal(seed, landlord=seed % 3)
        while not s.is_over:
            g = Game.endgame([str(h) for h in s.hands], landlord=s.landlord, to_move=s.turn, last=s.last,
                             last_player=s.owner if s.last is not None else None)
            expected = bot.act(g.observation(s.turn))
            got = s.legal_moves()[_eval._rule_choice(s)]
            assert got == expected, (s, got, expected)
            s.push(got)
            decisions += 1
    assert decisions > 300


def test_estimate_is_deterministic_with_standard_error() -> None:
    a = win_probability("3334445556789TJQK", "landlord", playouts=2000, seed=3)
    assert a == win_probability("3334445556789TJQK", "landlord", playouts=2000, seed=3)
    assert a.playouts == 2000 and 0 < a.p < 1
    assert a.stderr == pytest.approx(math.sqrt(a.p * (1 - a.p) / 2000))
    lo, hi = a.interval()
    assert lo < a.p < hi


def test_strong_and_weak_hands() -> None:
    strong = win_probability("BR22223333AAAKKKQ", "landlord", playouts=1000, policy="rule", seed=1)
    weak = win_probability("3344567899TJJQKA6", "landlord", playouts=1000, policy="rule", seed=1)
    assert strong.p > 0.9 > 0.5 > weak.p


def test_roles_split_the_same_deals() -> None:
    """Random playouts of a hand as farmer: landlord the next seat in even
    playouts, the previous one in odd ones; both estimates in 0..1 and
    reproducible, and a bot policy agrees with its native port."""
    h = "33445566778899TTJ"
    f = win_probability(h, "farmer", playouts=400, policy="rule", seed=2)
    assert f == win_probability(h, "farmer", playouts=400, policy="rule", seed=2)
    via_bot = win_probability(h, "farmer", playouts=40, policy=RuleBot(), seed=2)
    native = win_probability(h, "farmer", playouts=40, policy="rule", seed=2)
    assert via_bot.p == native.p  # same sampled deals, same (deterministic) moves


def test_position_in_play() -> None:
    g = Game(seed=4)
    bot = RuleBot()
    while g.phase != Phase.PLAY:
        g.apply(bot.act(g.observation(g.current_player())))
    for _ in range(6):
        g.apply(bot.act(g.observation(g.current_player())))
    seat = g.current_player()
    e = win_probability(g, seat=seat, playouts=500, policy="rule", seed=1)
    assert e.role == ("landlord" if seat == g.landlord else "farmer")
    with pytest.raises(ValueError, match="needs seat"):
        win_probability(g)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="role"):
        win_probability("3334445556789TJQK", "king")
    with pytest.raises(ValueError, match="playouts"):
        win_probability("3334445556789TJQK", "landlord", playouts=0)
    with pytest.raises(ValueError, match="policy"):
        win_probability("3334445556789TJQK", "landlord", policy="greedy")
    with pytest.raises(IllegalActionError, match="17"):
        win_probability("33344455", "farmer")


def test_hint_ranks_every_legal_move() -> None:
    hints = hint("3334445556789TJQKAA2", playouts=60, seed=1)
    scores = [h.score for h in hints]
    assert scores == sorted(scores, reverse=True)
    from ddzcore import legal_moves
    assert {h.move for h in hints} == set(legal_moves("3334445556789TJQKAA2"))
    plays = hint("3334445556789TJQKAA2", playouts=0)
    assert plays[0].method == "plays" and plays[0].score >= plays[-1].score


def test_hint_on_a_game() -> None:
    g = Game(seed=6)
    bot = RuleBot()
    while g.phase != Phase.PLAY:
        g.apply(bot.act(g.observation(g.current_player())))
    hints = hint(g, playouts=30)
    assert len(hints) == len(g.legal_actions())
    with pytest.raises(IllegalActionError):
        hint(g, seat=(g.current_player() + 1) % 3)


def test_move_values_going_out_wins() -> None:
    s = PlayState(["33", "4", "5"], landlord=0)
    rows = np.array([[s.hand_words[0], s.hand_words[1], s.hand_words[2], 0]] * 4, np.uint64)
    moves = list(s.legal_moves())
    v = move_values(s, rows, moves, "rule", 0)
    by = {str(m.cards): x for m, x in zip(moves, v)}
    assert by["33"] == 1.0  # out at once


def test_searchbot_plays_legal_moves_within_budget() -> None:
    bot = SearchBot(1, samples=40, time_budget=None)
    g = play_game(Game(seed=3), [bot, RuleBot(), RuleBot()])
    assert g.is_terminal()
    assert isinstance(make_bot("search", 1), SearchBot)


def test_searchbot_is_reproducible() -> None:
    def run() -> list[str]:
        g = play_game(Game(seed=8), [SearchBot(5, samples=30, time_budget=None), RuleBot(), RuleBot()])
        return [str(a) for _, a in g.observation(0).history]
    assert run() == run()


def test_exact_solver_replaces_playouts_when_few_cards_remain(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``ddzcore.solve`` present, a small position's move values come
    from it (one call per sampled world; unknown results keep the playouts)."""
    import ddzcore.evaluate as ev

    calls = []

    class Result:
        def __init__(self, wins: "bool | None", values: dict) -> None:  # type: ignore[type-arg]
            self.wins, self.move_values = wins, values

    def fake_solve(state: PlayState, timeout: float) -> Result:
        calls.append(state.copy())
        moves = list(state.legal_moves())
        if len(calls) == 2:
            return Result(None, {})  # ran out of time: that world keeps its playouts
        return Result(True, {m: (1 if str(m.cards) == "4" else -1) for m in moves})

    monkeypatch.setattr(ev, "solver", lambda: fake_solve)
    s = PlayState(["34", "5", "6"], landlord=0)
    rows = np.array([[s.hand_words[0], s.hand_words[1], s.hand_words[2], 0]] * 3, np.uint64)
    moves = list(s.legal_moves())
    playouts_only = np.asarray(_eval._move_values(s, np.ascontiguousarray(rows[:, :3]),
                                                   np.array([m.codes[0] for m in moves], np.uint64),
                                                   np.array([m.codes[1] for m in moves], np.uint64), 1, 0))
    v = dict(zip((str(m.cards) for m in moves), move_values(s, rows, moves, "rule", 0)))
    assert len(calls) == 3 and all(c.hand_words == s.hand_words for c in calls)
    k4 = [str(m.cards) for m in moves].index("4")
    k3 = [str(m.cards) for m in moves].index("3")
    assert v["4"] == pytest.approx((2 + playouts_only[k4, 1]) / 3)
    assert v["3"] == pytest.approx((0 + playouts_only[k3, 1]) / 3)
