"""The native rule bot and bot games in the kernel (ddzcore._botplay, ddzcore.botsim,
``simulate(policy="rule")`` and the fast path of ``ddz simulate``), against the
Python ``RuleBot``, ``Game`` and ``run_games`` as references."""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

import numpy as np
import pytest
from click.testing import CliRunner

from ddzcore import Game, Hand, PlayState, Room, Rules, simulate
from ddzcore import _botplay, _state
from ddzcore.tools import botsim, cli_game
from ddzcore.tools.bots import Bot, RandomBot, RuleBot, _strength
from ddzcore.tools.simulation import SimulationStats, run_games
from ddzcore.tools.cli import main
from ddzcore.errors import InvalidArgumentError
from ddzcore.game import OPENSPIEL_FLOW, Phase
from ddzcore.game.settlement import Multiplier, combine_shows, settle_game, settle_no_landlord

NO_FLOW = dict(show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0, doubling=False)
PLAY_RULES = [Rules(), Rules.preset("rlcard"), Rules.preset("openspiel"), Rules.preset("botzone"), Rules(wild="7")]


def positions(rules: Rules, games: int, seed: int) -> "list[tuple[Game, int]]":
    """Play decisions of games with rule and random seats (a Game copy at each)."""
    out = []
    for k in range(games):
        bots: list[Bot] = [RuleBot(), RandomBot(seed + k), RuleBot()] if k % 2 else [RandomBot(seed + k), RuleBot(),
                                                                                       RandomBot(seed - k)]
        g = Game(rules, seed=seed * 1000 + k)
        while not g.is_terminal():
            p = g.current_player()
            if g.phase == Phase.PLAY:
                out.append((g.copy(), p))
            g.apply(bots[p].act(g.observation(p)))
    return out


def check_play(rules: Rules, games: int, seed: int) -> int:
    bot = RuleBot()
    n = 0
    for g, p in positions(rules, games, seed):
        last = g.last_move
        ps = PlayState([h.word for h in g.hands], landlord=g.landlord, turn=p, last=last,
                       owner=g.last_player if last is not None else None, rules=g.play_rules)
        legal = g.legal_actions()
        assert [m.codes for m in ps.legal_moves()] == [m.codes for m in legal]  # the same order
        expected = bot.act(g.observation(p))
        got = ps.legal_moves()[_botplay._rule_play(ps)]
        assert got == expected, (g.hands(), p, last, got, expected)
        n += 1
    return n


@pytest.mark.parametrize("rules", PLAY_RULES, ids=["happy", "rlcard", "openspiel", "botzone", "wild7"])
def test_native_rule_play_is_rulebots(rules: Rules) -> None:
    assert check_play(rules, 6, 11) > 150


@pytest.mark.slow
@pytest.mark.parametrize("rules", PLAY_RULES + [Rules(wild="2"), Rules(wild="3")])
def test_native_rule_play_is_rulebots_many(rules: Rules) -> None:
    assert check_play(rules, 120, 29) > 3000


def test_native_strength_is_rulebots() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        perm = rng.permutation(54)
        for cards in (perm[:17], perm[:20], perm[:4]):
            word = Hand([int(c >> 2) if c < 53 else 14 for c in cards]).word
            for wild in (-1, 0, 4, 12):
                assert _botplay._strength(word, wild) == _strength(word, None if wild < 0 else wild)


def test_rule_play_refuses_a_finished_game() -> None:
    s = PlayState(["3", "4", "5"], landlord=0)
    s.push(s.legal_moves()[0])
    with pytest.raises(InvalidArgumentError):
        _botplay._rule_play(s)


# -- whole games -----------------------------------------------------------------------------

RUNS = [
    (Rules(), Room(), None),
    (Rules(bidding="points"), Room(coefficient=10, rake=1), None),
    (Rules.preset("rlcard", show_combine="product", rob_back=False), Room(coefficient=5, double_threshold=50),
     [100, 40, 900]),
    (Rules(max_redeals=0, show_bottom=0), Room(initial_multiplier=3), [60, 60, 60]),
    (Rules.preset("openspiel", **OPENSPIEL_FLOW), Room(), None),
]


def same_stats(n: int, rules: Rules, room: Room, beans: Optional[Sequence[int]], seed: int) -> None:
    bots: list[Bot] = [RuleBot(), RuleBot(), RuleBot()]
    fast = botsim.run_native_games(n, bots, seed, rules, room, beans)
    slow = run_games(n, bots, seed, rules, room, beans)
    assert dataclasses.replace(fast, seconds=0) == dataclasses.replace(slow, seconds=0)
    assert fast.games == n and fast.played > n // 3


@pytest.mark.parametrize("rules,room,beans", RUNS)
def test_rule_games_in_the_kernel_are_run_games(rules: Rules, room: Room, beans: Optional[list[int]],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(botsim, "_CHUNK", 25)  # several kernel calls: deals (and redeals) carried across them
    same_stats(120, rules, room, beans, 7)


@pytest.mark.slow
@pytest.mark.parametrize("rules,room,beans", RUNS)
def test_rule_games_in_the_kernel_are_run_games_many(rules: Rules, room: Room, beans: Optional[list[int]]) -> None:
    same_stats(1500, rules, room, beans, 8)


def test_given_deals_that_run_out_end_the_call_before_the_game() -> None:
    """A game whose deals run out is left for the next call, which plays it again from its first deal."""
    hands, bottom, first = botsim._draw_deals(np.random.default_rng(3), 1000)
    flow = botsim._kernel_args(Rules(), None, None)
    whole, done, used = _botplay._play_games(300, 0, 0, *flow, (1, 1, 1), hands, bottom, first)
    assert done == 300 and 300 < used <= 1000  # some deals were thrown in
    part, d1, u1 = _botplay._play_games(300, 0, 0, *flow, (1, 1, 1), hands[:300], bottom[:300], first[:300])
    rest, d2, u2 = _botplay._play_games(300 - d1, 0, d1, *flow, (1, 1, 1), hands[u1:], bottom[u1:], first[u1:])
    assert d1 < 300 and u1 <= 300 and d1 + d2 == 300 and u1 + u2 == used
    for k in whole:
        assert np.array_equal(np.concatenate([part[k], rest[k]]), whole[k]), k


@pytest.mark.parametrize("bidding,cap", [("call_rob", None), ("points", None), ("call_rob", 0), ("points", 2)])
def test_random_games_in_the_kernel_are_simulates(bidding: str, cap: Optional[int]) -> None:
    """Random seats without shows and doubling play simulate's very games (same streams)."""
    rules = Rules(bidding=bidding, max_redeals=cap, **NO_FLOW)  # type: ignore[arg-type]
    cols, done, used = _botplay._play_games(3000, 99, 5, *botsim._kernel_args(rules, None, None), (0, 0, 0))
    ref = simulate(3000, 99, rules=rules, first_game=5)
    assert done == 3000 and used == 0
    for k in ("landlord", "winner", "first_caller", "calls", "redeals", "base", "robs", "bombs", "spring",
              "anti_spring", "turns", "hands", "bottom"):
        assert np.array_equal(cols[k], getattr(ref, k)), k
    assert (cols["shows"] == 0).all() and (cols["doubles"] == 1).all()
    # one column maker: every column of simulate's kernel, filled (no partner, wild rank or soft bomb here)
    raw = _state._simulate(3000, 99, rules.flags, bidding == "points", rules.rob_back, -1 if cap is None else cap,
                           False, 5)
    assert cols.keys() == raw.keys()
    for k in raw:
        assert np.array_equal(cols[k], raw[k]), k
    assert (cols["partner"] == -1).all() and (cols["wild"] == -1).all() and not cols["soft_bombs"].any()


def test_random_stats_are_simulates() -> None:
    """run_native_games with random bots counts exactly simulate's games (no shows, no doubling, room N=1)."""
    rules = Rules(**NO_FLOW)  # type: ignore[arg-type]
    stats = botsim.run_native_games(5000, [RandomBot(), RandomBot(), RandomBot()], 12, rules, Room())
    ref = simulate(5000, 12, rules=rules)
    has = ref.landlord >= 0
    assert stats.games == 5000 and stats.no_landlord == int((~has).sum())
    assert stats.landlord_wins == int(ref.landlord_won.sum()) and stats.farmer_wins == int((has & ~ref.landlord_won).sum())
    assert stats.multiplier_total == int(ref.multiplier.sum())
    assert stats.springs == int((ref.spring | ref.anti_spring).sum())
    points = ref.base.astype(np.int64) * ref.multiplier  # each farmer's stake (docs/rules.md §6)
    sign = np.where(ref.landlord_won, 1, -1)
    assert stats.landlord_net == int((2 * points * sign).sum()) and stats.farmer_net == -stats.landlord_net
    for seat in range(3):
        side = np.where(ref.landlord == seat, ref.landlord_won, ~ref.landlord_won) & has
        assert stats.seat_wins[seat] == int(side.sum())


def test_outcomes_settled_once_count_as_each_game_settled() -> None:
    """Random seats, shows, doubling, beans, the winners' cap: grouping games by outcome changes no figure."""
    rules, room, beans = Rules(), Room(coefficient=10, rake=2, initial_multiplier=2, double_threshold=100), [500, 80, 2000]
    cols, _, _ = _botplay._play_games(3000, 5, 0, *botsim._kernel_args(rules, room, beans), (0, 0, 1))
    grouped, each = SimulationStats(), SimulationStats()
    botsim._add_games(grouped, cols, rules, room, beans)
    for i in range(3000):
        ll = int(cols["landlord"][i])
        m = Multiplier(initial=2, robs=int(cols["robs"][i]), bombs=int(cols["bombs"][i]),
                       show=combine_shows([int(x) for x in cols["shows"][i]]), spring=bool(cols["spring"][i]),
                       anti_spring=bool(cols["anti_spring"][i]))
        each.add_settlement(settle_no_landlord(m) if ll < 0 else
                            settle_game(ll, bool(cols["winner"][i] == ll), int(cols["base"][i]), m,
                                        tuple(int(d) for d in cols["doubles"][i]), room, beans))
    assert grouped == each and each.multiplier_total > 0
    assert (cols["shows"] > 0).any() and (cols["doubles"] == 2).any()


def test_mixed_seats_and_refusals() -> None:
    stats = botsim.run_native_games(300, [RuleBot(), RandomBot(), RandomBot()], 3, Rules(), Room(), None)
    again = botsim.run_native_games(300, [RuleBot(), RandomBot(), RandomBot()], 3, Rules(), Room(), None)
    assert dataclasses.replace(stats, seconds=0) == dataclasses.replace(again, seconds=0) and stats.games == 300
    assert botsim.native_runner([RuleBot(call_at=5), RuleBot(), RuleBot()]) is None
    assert botsim.native_runner([RuleBot()] * 3, Rules(laizi=True)) is None
    with pytest.raises(InvalidArgumentError):
        botsim.run_native_games(1, [RuleBot()] * 3, 1, Rules(laizi=True))


def test_simulate_rule_policy() -> None:
    """simulate(policy="rule"): deterministic, the same for any thread count, and each game
    (without redeals) the game Game plays with RuleBots on the same deal."""
    rules = Rules(bidding="points")
    a = simulate(400, 4, policy="rule", rules=rules)
    b = simulate(400, 4, policy="rule", rules=rules, threads=3)
    for k in ("landlord", "winner", "hands", "turns", "bombs", "multiplier", "calls"):
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
    assert np.array_equal(simulate(100, 4, policy="rule", rules=rules, first_game=300).winner, a.winner[300:])
    checked = 0
    for i in np.flatnonzero((a.redeals == 0) & (a.landlord >= 0))[:40]:
        ll = int(a.landlord[i])
        hands = [int(w) for w in a.hands[i]]
        hands[ll] -= int(a.bottom[i])
        deal = tuple(str(Hand.from_word(w)) for w in hands + [int(a.bottom[i])])
        g = Game(Rules(bidding="points", **NO_FLOW), deal=deal, first=int(a.first_caller[i]))  # type: ignore[arg-type]
        bot = RuleBot()
        while not g.is_terminal():
            g.apply(bot.act(g.observation(g.current_player())))
        assert (g.landlord, g.winner, g.base, g.bombs_played) == (ll, a.winner[i], a.base[i], a.bombs[i])
        checked += 1
    assert checked == 40
    with pytest.raises(InvalidArgumentError):
        simulate(1, 1, policy="rule", record=True)


# -- ddz simulate ----------------------------------------------------------------------------

def cli(args: list[str]) -> str:
    r = CliRunner().invoke(main, ["simulate", "--no-progress", *args])
    assert r.exit_code == 0, r.output
    return r.output


def table(out: str) -> list[str]:
    """The printed statistics without the speed row."""
    return [line for line in out.splitlines() if "games per second" not in line]


@pytest.mark.parametrize("args", [["--bots", "rule", "--room", "10", "--rake", "1"],
                                  ["--bots", "rule", "--bidding", "points", "--beans", "500", "--no-shows"]])
def test_cli_fast_path_prints_the_slow_paths_statistics(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = cli(["--games", "150", "--seed", "3", *args])
    monkeypatch.setattr(cli_game, "native_runner", lambda bots, rules: None)
    slow = cli(["--games", "150", "--seed", "3", *args])
    assert table(fast) == table(slow) and "150 games · bots rule, rule, rule" in fast


def test_cli_random_bots_are_simulates_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random bots: the statistics of simulate's games (the Python RandomBot's stream differs)."""
    used: list[object] = []
    real = botsim.run_native_games
    monkeypatch.setattr(cli_game, "native_runner", lambda bots, rules: used.append(bots) or real)
    out = cli(["--games", "2000", "--seed", "21", "--no-shows", "--no-doubling"])
    ref = simulate(2000, 21)
    has = ref.landlord >= 0
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in out.splitlines() if line.count("│") == 3}
    wins = int(ref.landlord_won.sum())
    assert used and rows["landlord wins"] == f"{wins} ({wins / has.sum():.1%})"
    assert rows["average multiplier"] == f"{ref.multiplier[has].mean():.2f}"
    assert set(rows) >= {"farmer wins", "spring rate (春天 + 反春)", "beans to landlords, per game", "games per second"}


def test_cli_prints_a_seed_when_none_is_given() -> None:
    out = cli(["--games", "50", "--bots", "rule"])
    line = out.splitlines()[0]
    assert line.startswith("seed ")
    seed = int(line.split()[1])
    again = cli(["--games", "50", "--bots", "rule", "--seed", str(seed)])
    assert table(out)[1:] == table(again)
    assert not cli(["--games", "5", "--seed", "1"]).startswith("seed")
