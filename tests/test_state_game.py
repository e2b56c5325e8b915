"""The native state and kernel self-play against the Python ``Game``
(python/ddzcore/game/three.py): the same seeded games replayed through both,
calling decisions included, must agree ply by ply and in the result."""

from __future__ import annotations

import numpy as np
import pytest

from ddzcore import Hand, Move, PlayState, Rules, simulate

game = pytest.importorskip("ddzcore.game")

NO_EXTRAS = dict(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0, doubling=False)
NO_ACTION = 255


def replay_in_game(r, i: int, rules: Rules) -> None:
    ll = int(r.landlord[i])
    bottom = Hand.from_word(int(r.bottom[i]))
    dealt = [Hand.from_word(int(w)) for w in r.hands[i]]
    if ll >= 0:
        dealt[ll] = dealt[ll] - bottom
    g = game.Game(rules, deal=(str(dealt[0]), str(dealt[1]), str(dealt[2]), str(bottom)),
                  first=int(r.first_caller[i]))
    for a in r.calls[i].tolist():
        if a == NO_ACTION:
            break
        assert g.phase in (game.Phase.CALL, game.Phase.ROB, game.Phase.BID)
        g.apply(game.Action(a))
    if ll < 0:                         # everybody passed and the redeal cap was reached
        assert g.is_terminal() and g.landlord is None and g.redeals == 0 == r.redeals[i]
        return
    assert g.phase == game.Phase.PLAY
    assert (g.landlord, g.robs, g.base) == (ll, r.robs[i], r.base[i])
    s = PlayState([int(w) for w in r.hands[i]], landlord=ll, rules=rules)
    assert [h.word for h in g.hands] == list(s.hand_words)
    for cards, info, seat in r.game_moves(i).tolist():
        assert g.current_player() == seat == s.turn
        assert np.array_equal(np.asarray(g.legal_actions().codes), s.legal_moves().codes)
        g.apply(Move._from_codes(cards, info))
        s.push_codes(cards, info)
    assert g.is_terminal() and s.is_over
    m = g.multiplier()
    assert (g.winner, m.bombs, m.spring, m.anti_spring) == (r.winner[i], r.bombs[i], r.spring[i], r.anti_spring[i])
    assert (g.winner, g.bombs_played, m.spring, m.anti_spring) == (s.winner, s.bombs, s.spring, s.anti_spring)
    assert m.total == r.multiplier[i]


@pytest.mark.parametrize("rules, games", [
    (Rules(**NO_EXTRAS), 1500),
    (Rules(rob_back=False, **NO_EXTRAS), 300),
    (Rules.preset("rlcard", **NO_EXTRAS), 300),
    (Rules.preset("openspiel", **game.OPENSPIEL_FLOW), 600),
], ids=["standard", "no_rob_back", "rlcard", "openspiel_flow"])
def test_selfplay_replays_in_game(rules, games):
    r = simulate(games, seed=4242, rules=rules, record=True)
    for i in range(games):
        replay_in_game(r, i, rules)
    if rules.max_redeals == 0:
        assert 0 < (r.landlord < 0).sum() < games / 4


def test_action_values_match_game():
    A = game.Action
    assert [A.NO_CALL, A.CALL, A.NO_ROB, A.ROB, A.NO_BID, A.BID_1, A.BID_2, A.BID_3] == list(range(2, 10))


@pytest.mark.slow
def test_selfplay_replays_in_game_many():
    rules = Rules(**NO_EXTRAS)
    r = simulate(20000, seed=99, rules=rules, record=True)
    for i in range(len(r)):
        replay_in_game(r, i, rules)
