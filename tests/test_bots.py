"""Bots: the interface, the random bot, the rule-based bot, and game loops."""

from __future__ import annotations

import pytest

from ddzcore import PASS, Action, Game, Hand, IllegalActionError, Move, Observation, Room, Rules
from ddzcore.tools.arena import make_bot
from ddzcore.tools.bots import Bot, RandomBot, RuleBot
from ddzcore.tools.simulation import play_game, run_games
from ddzcore.game import OPENSPIEL_FLOW

from test_game import DECK

RULE_SETS = [Rules(), Rules(bidding="points"), Rules.preset("openspiel", **OPENSPIEL_FLOW),
             Rules.preset("rlcard", show_combine="product", rob_back=False)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["happy", "points", "openspiel", "rlcard"])
def test_bots_only_play_legal_actions(rules: Rules) -> None:
    for seed in range(15):
        bots = [RuleBot(), RandomBot(seed), RuleBot()] if seed % 2 else [RandomBot(seed), RuleBot(), RandomBot(seed + 1)]
        g = play_game(Game(rules, seed=seed, room=Room(coefficient=10, double_threshold=50), beans=[100, 40, 900]),
                      bots)
        assert g.is_terminal()


def test_user_bots_implement_act() -> None:
    class FirstBot(Bot):
        name = "first"
        seats: list[int] = []

        def new_game(self, seat: int, rules: Rules) -> None:
            self.seats.append(seat)

        def act(self, obs: Observation) -> "Action | Move":
            assert obs.player == obs.current_player and obs.legal_actions
            return obs.legal_actions[-1] if obs.phase.name == "CALL" else obs.legal_actions[0]

    bot = FirstBot()
    g = play_game(Game(seed=2), [bot, RandomBot(1), RandomBot(2)])
    assert g.is_terminal() and bot.seats == [0]

    class Cheat(Bot):
        def act(self, obs: Observation) -> "Action | Move":
            return Move("BR")

    g = Game(Rules(show_start=0, show_deal_early=0, show_deal_late=0), seed=1)
    with pytest.raises(IllegalActionError):
        play_game(g, [Cheat(), Cheat(), Cheat()])


def test_endless_passing_is_stopped() -> None:
    class Passer(Bot):
        def act(self, obs: Observation) -> "Action | Move":
            return obs.legal_actions[0]  # never shows, never calls: the cards are dealt again and again

    with pytest.raises(RuntimeError):
        play_game(Game(seed=1), [Passer(), Passer(), Passer()], max_actions=500)
    g = play_game(Game(Rules(max_redeals=2), seed=1), [Passer(), Passer(), Passer()])
    assert g.is_terminal() and g.landlord is None and g.redeals == 2


def test_rule_bot_beats_random_bots() -> None:
    stats = run_games(200, [RuleBot(), RandomBot(1), RandomBot(2)], seed=7)
    assert stats.seat_wins[0] / stats.played > 0.65
    stats = run_games(200, [RandomBot(3), RuleBot(), RuleBot()], seed=8)
    assert (stats.seat_wins[1] + stats.seat_wins[2]) / (2 * stats.played) > 0.65


def obs_for(hands: list[str], to_move: int, landlord: int = 0, last: str | None = None,
            last_player: int | None = None) -> Observation:
    g = Game.endgame(hands, landlord, to_move=to_move, last=last, last_player=last_player)
    return g.observation(to_move)


def test_rule_bot_goes_out_when_it_can() -> None:
    # 333444 is one move (a plane): it is played at once rather than piece by piece
    assert RuleBot().act(obs_for(["333444", "5", "6"], 0)) == Move("333444")
    assert RuleBot().act(obs_for(["7", "2", "6"], 1, last="5", last_player=0)) == Move("2")


def test_rule_bot_keeps_its_bomb_on_a_lead() -> None:
    move = RuleBot().act(obs_for(["33334679", "5", "6"], 0))
    assert "3" not in str(move.cards)


def test_rule_bot_lets_its_teammate_move_stand() -> None:
    # Farmers 1 and 2; farmer 2 played the 5; farmer 1 could beat it but passes.
    assert RuleBot().act(obs_for(["3456789", "KQJ", "TT"], 1, landlord=0, last="5", last_player=2)) == PASS


def test_rule_bot_bombs_only_when_an_opponent_is_close() -> None:
    # The landlord (seat 0) holds one card after its 2: farmer 1 bombs.
    assert RuleBot().act(obs_for(["K", "33334", "5"], 1, landlord=0, last="2", last_player=0)) == Move("3333")
    # With the landlord (and itself) far from out, the farmer keeps the bomb.
    assert RuleBot().act(obs_for(["56789TJQK", "3333444AAKKQ", "5"], 1, landlord=0, last="2", last_player=0)) == PASS


def test_rule_bot_bidding_by_strength() -> None:
    # seat 0: two bombs, the rocket, four 2s; seat 1: nothing high at all
    rest = str(Hand(DECK) - Hand("3333452222AAKKQBR") - Hand("44556677889TTJJQQ"))
    strong = ("3333452222AAKKQBR", "44556677889TTJJQQ", rest[:17], rest[17:])
    g = Game(Rules(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0), deal=strong, first=0)
    bot = RuleBot()
    assert bot.act(g.observation(0)) == Action.CALL
    g.apply(Action.CALL)
    assert bot.act(g.observation(1)) == Action.NO_ROB


def test_make_bot() -> None:
    assert isinstance(make_bot("random", 3), RandomBot) and isinstance(make_bot("rule"), RuleBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


def test_run_games_statistics_add_up() -> None:
    stats = run_games(60, [RandomBot(1), RandomBot(2), RandomBot(3)], seed=1,
                      rules=Rules(max_redeals=0), room=Room(coefficient=10, rake=2), beans=[500, 500, 500])
    assert stats.games == 60 == stats.landlord_wins + stats.farmer_wins + stats.no_landlord
    assert sum(stats.net) + stats.rake == 0
    assert stats.landlord_net + stats.farmer_net == sum(stats.net)
    assert 0 <= stats.spring_rate <= 1 and stats.average_multiplier >= 1 and stats.games_per_second > 0
    again = run_games(60, [RandomBot(1), RandomBot(2), RandomBot(3)], seed=1,
                      rules=Rules(max_redeals=0), room=Room(coefficient=10, rake=2), beans=[500, 500, 500])
    assert (again.net, again.seat_wins) == (stats.net, stats.seat_wins)  # seeded: reproducible
