"""Five-player bot games in the kernel (``ddzcore._botplay._play_five_games``,
``ddzcore.tools.botsim.run_native_five_games`` and ``ddz simulate --players
5``, docs/rules.md §8) against ``FiveGame``, ``RuleBot`` and
``run_five_games`` as references.

- Random seats: every recorded native game replayed on ``FiveGame`` from
  the same deal with the same decisions (reveals, doubling, moves with their
  marked-face cards) ends the same (winner, landlords, how the landlords
  became public, multiplier, doubling), and the statistics of the replayed
  games (points, beans, rake) equal the native runner's.
- Rule seats: the native runner's statistics equal ``run_five_games``'s with
  the Python ``RuleBot`` on the same seeded deals.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Optional, Sequence

import numpy as np
import pytest
from click.testing import CliRunner

from ddzcore import FiveGame, Room, Rules
from ddzcore import _botplay
from ddzcore.errors import InvalidArgumentError
from ddzcore.game.five import FiveAction, FivePhase, MarkedMove
from ddzcore.moves import Move
from ddzcore.tools import botsim, cli_game
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.cli import main
from ddzcore.tools.simulation import FiveStats, run_five_games
from test_state_five import five_deal

TWO = Rules(decks=2)
ROOMS = [(TWO, None, None),
         (TWO, Room(coefficient=10, rake=1, initial_multiplier=3, double_threshold=50), [100, 40, 900, 60, 45]),
         (Rules(decks=2, doubling=False), Room(coefficient=100), [5000] * 5)]


def native(n: int, seed: int, rules: Rules, room: Optional[Room], beans: Optional[Sequence[int]],
           policy: Sequence[int] = (0,) * 5) -> dict[str, np.ndarray]:
    may = [[room is None or room.may_double(s, ll, beans) for ll in range(5)] for s in range(5)]
    cols, done, used = _botplay._play_five_games(n, seed, 0, rules.flags, rules.doubling, may, tuple(policy), True)
    assert done == n and used == 0
    return cols


def replay(cols: dict[str, np.ndarray], i: int, rules: Rules, room: Optional[Room],
           beans: Optional[Sequence[int]]) -> FiveGame:
    """Game i of a recorded native run, replayed on FiveGame with its decisions."""
    g = FiveGame(rules, deal=five_deal(cols["hands"][i], cols["bottom"][i], cols["landlord"][i], cols["partner"][i],
                                       cols["marked"][i]), marked=int(cols["marked"][i]), room=room, beans=beans)
    assert g.open_landlord == cols["landlord"][i]
    assert g.hidden_landlord == (None if cols["partner"][i] < 0 else cols["partner"][i])
    while g.phase == FivePhase.REVEAL:
        p = g.current_player()
        g.apply(FiveAction.REVEAL if cols["reveals"][i, p] else FiveAction.NO_REVEAL)
    while g.phase == FivePhase.DOUBLE:  # only the eligible seats are asked
        p = g.current_player()
        g.apply(FiveAction.DOUBLE if cols["doubles"][i, p] == 2 else FiveAction.NO_DOUBLE)
    for cards, info, seat, marked in cols["moves"][cols["offsets"][i]:cols["offsets"][i + 1]].tolist():
        assert g.current_player() == seat
        m = Move._from_codes(cards, info, rules)
        action = MarkedMove._make(m, marked) if marked else m
        assert action in g.legal_actions()  # one of the choices a random seat draws from
        g.apply(action)
    assert g.is_terminal() and g.winner == cols["winner"][i]
    assert list(g.doubles) == cols["doubles"][i].tolist()
    mult = g.multiplier()
    assert (mult.bombs, mult.reveal, mult.spring) == (cols["bombs"][i], cols["reveals"][i].any(), cols["spring"][i])
    how = g.revealed_by
    assert cols["public"][i] == (0 if how is None else 1 if how[0] == "choice" else 2)
    return g


def replay_all(n: int, seed: int, rules: Rules, room: Optional[Room], beans: Optional[Sequence[int]]) -> None:
    cols = native(n, seed, rules, room, beans)
    each, grouped = FiveStats(), FiveStats()
    for i in range(n):
        each.add(replay(cols, i, rules, room, beans))
    botsim._add_five_games(grouped, cols, room, beans)
    assert grouped == each  # points, beans, rake, multipliers: settled alike
    # the flow's choices all occur
    assert cols["reveals"].any() and (cols["public"] == 2).any() and (cols["partner"] < 0).any()
    assert (cols["moves"]["marked"] > 0).any()
    assert (cols["doubles"] == 2).any() == rules.doubling


@pytest.mark.parametrize("rules,room,beans", ROOMS, ids=["plain", "room", "no-doubling"])
def test_native_random_games_replay_on_five_game(rules: Rules, room: Optional[Room],
                                                 beans: Optional[list[int]]) -> None:
    replay_all(150, 3, rules, room, beans)


@pytest.mark.slow
@pytest.mark.parametrize("rules,room,beans", ROOMS, ids=["plain", "room", "no-doubling"])
def test_native_random_games_replay_on_five_game_thousands(rules: Rules, room: Optional[Room],
                                                           beans: Optional[list[int]]) -> None:
    replay_all(3000, 17, rules, room, beans)


def test_random_choices_are_uniform_over_five_games_legal_actions() -> None:
    """A seat holding marked-face cards draws among FiveGame.legal_actions' variants: over many
    positions the share of moves playing marked-face cards matches the variants' share."""
    cols = native(400, 8, TWO, None, None)
    played, expected, seen = 0, 0.0, 0
    for i in range(400):
        g = FiveGame(TWO, deal=five_deal(cols["hands"][i], cols["bottom"][i], cols["landlord"][i],
                                          cols["partner"][i], cols["marked"][i]), marked=int(cols["marked"][i]))
        while g.phase != FivePhase.PLAY:
            g.apply(FiveAction.REVEAL if cols["reveals"][i, g.current_player()] and g.phase == FivePhase.REVEAL
                    else FiveAction.NO_REVEAL if g.phase == FivePhase.REVEAL else FiveAction.NO_DOUBLE)
        for cards, info, seat, marked in cols["moves"][cols["offsets"][i]:cols["offsets"][i + 1]].tolist():
            legal = g.legal_actions()
            if any(isinstance(a, MarkedMove) for a in legal):
                seen += 1
                expected += sum(isinstance(a, MarkedMove) for a in legal) / len(legal)
                played += marked > 0
            m = Move._from_codes(cards, info, TWO)
            g.apply(MarkedMove._make(m, marked) if marked else m)
    assert seen > 500
    sd = (expected * (1 - expected / seen)) ** 0.5
    assert abs(played - expected) < 5 * sd, (played, expected, seen)


def same_stats(n: int, rules: Rules, room: Optional[Room], beans: Optional[Sequence[int]], seed: int) -> None:
    fast = botsim.run_native_five_games(n, [RuleBot() for _ in range(5)], seed, rules, room, beans)
    slow = run_five_games(n, [RuleBot() for _ in range(5)], seed, rules, room, beans)
    assert dataclasses.replace(fast, seconds=0) == dataclasses.replace(slow, seconds=0)
    assert fast.games == n and fast.reveals_chosen and fast.reveals_played and fast.solo


@pytest.mark.parametrize("rules,room,beans", ROOMS, ids=["plain", "room", "no-doubling"])
def test_rule_games_in_the_kernel_are_run_five_games(rules: Rules, room: Optional[Room], beans: Optional[list[int]],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(botsim, "_CHUNK", 40)  # several kernel calls
    same_stats(100, rules, room, beans, 7)


@pytest.mark.slow
@pytest.mark.parametrize("rules,room,beans", ROOMS, ids=["plain", "room", "no-doubling"])
def test_rule_games_in_the_kernel_are_run_five_games_many(rules: Rules, room: Optional[Room],
                                                          beans: Optional[list[int]]) -> None:
    same_stats(1500, rules, room, beans, 8)


def test_drawn_deals_are_five_games_deals() -> None:
    hands, bottom, marked, open_ll, partner = botsim._draw_five_deals(np.random.default_rng(4), 50)
    rng = np.random.default_rng(4)
    for i in range(50):
        g = FiveGame(seed=rng)
        assert [h.word for h in g.hands] == [int(w) + (int(bottom[i]) if s == open_ll[i] else 0)
                                             for s, w in enumerate(hands[i])]
        assert (g.marked, g.open_landlord, g.hidden_landlord) == (marked[i], open_ll[i],
                                                                  None if partner[i] < 0 else partner[i])


def test_mixed_seats_and_refusals() -> None:
    bots = [RuleBot(), RandomBot(), RuleBot(), RandomBot(), RandomBot()]
    a = botsim.run_native_five_games(300, bots, 3, TWO, Room(), None)
    b = botsim.run_native_five_games(300, bots, 3, TWO, Room(), None)
    assert dataclasses.replace(a, seconds=0) == dataclasses.replace(b, seconds=0) and a.games == 300
    assert botsim.native_runner([RuleBot(show_at=9)] + [RuleBot()] * 4, TWO) is None
    assert botsim.native_runner([RandomBot()] * 5, TWO) is botsim.run_native_five_games
    assert botsim.native_runner([RandomBot()] * 5, Rules()) is None
    with pytest.raises(InvalidArgumentError):
        botsim.run_native_five_games(1, [RandomBot()] * 3, 1, TWO)
    with pytest.raises(InvalidArgumentError):
        botsim.run_native_five_games(1, [RandomBot()] * 5, 1, TWO, Room(), [1, 2])


# -- ddz simulate --players 5 ------------------------------------------------------------------

def cli(args: list[str]) -> str:
    r = CliRunner().invoke(main, ["simulate", "--players", "5", "--no-progress", *args])
    assert r.exit_code == 0, r.output
    return r.output


def table(out: str) -> list[str]:
    return [line for line in out.splitlines() if "games per second" not in line]


def test_cli_five_rule_bots_fast_path_prints_the_slow_paths_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--games", "80", "--seed", "3", "--bots", "rule", "--room", "10", "--rake", "1", "--beans", "500"]
    fast = cli(args)
    monkeypatch.setattr(cli_game, "native_runner", lambda bots, rules: None)
    slow = cli(args)
    assert table(fast) == table(slow) and "80 five-player games" in fast


def test_cli_five_random_bots_run_in_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[object] = []
    real = botsim.run_native_five_games
    monkeypatch.setattr(cli_game, "native_runner", lambda bots, rules: used.append(bots) or real)
    out = cli(["--games", "500", "--seed", "21"])
    ref = botsim.run_native_five_games(500, [RandomBot()] * 5, 21, TWO, Room())
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in out.splitlines() if line.count("│") == 3}
    assert used and rows["landlords' side wins"] == f"{ref.landlord_wins} ({ref.landlord_win_rate:.1%})"
    assert rows["average multiplier"] == f"{ref.average_multiplier:.2f}"


# -- escape (逃跑), docs/rules.md §8 with §6's formula --------------------------------------------

def test_escape_of_native_games_is_charged_by_the_rule_book() -> None:
    """Deals and decisions of native games, cut at a random point where a random seat leaves:
    FiveGame's charge equals §8's formula computed here from the deal itself (M: 2 per rank of
    5-8 cards and per 3-4 jokers in each hand as dealt, the open landlord's with the bottom, and 2
    for a chosen reveal; S: initial × Σ dbl(escaper) × dbl(opponent), halved with two landlords;
    20 S / 10 S below M = 10, else 4 S M / 2 S M; shared by the other side, the partner out)."""
    room = Room(coefficient=10, initial_multiplier=3)
    cols = native(60, 31, TWO, room, None)
    rng = random.Random(5)
    big_m = 0
    for i in range(60):
        full = replay(cols, i, TWO, room, None)
        g = FiveGame(TWO, deal=full.deal, marked=int(full.marked), room=room)
        actions = [a for _, a in full.history]
        for a in actions[:rng.randrange(len(actions))]:
            g.apply(a)
        seat = rng.randrange(5)
        hands = [int(w) for w in cols["hands"][i]]  # as dealt, the open landlord's with the bottom
        m = 2 ** (sum(((w >> (4 * r)) & 15) >= 5 for w in hands for r in range(13))
                  + sum(((w >> 52) & 15) + ((w >> 56) & 15) >= 3 for w in hands)
                  + any(a == FiveAction.REVEAL for a in actions[:len(g.history)]))
        lords = g.landlords
        opponents = [q for q in range(5) if (q in lords) != (seat in lords)]
        s = 3 * sum(g.doubles[seat] * g.doubles[q] for q in opponents) / len(lords)
        charge = (20 if seat in lords else 10) * s if m < 10 else (4 if seat in lords else 2) * s * m
        g.escape(seat)
        points = g.settlement().points
        assert points[seat] == -charge and g.escape_multiplier() == m
        assert all(points[q] == charge / len(opponents) for q in opponents)
        assert all(points[q] == 0 for q in range(5) if q != seat and q not in opponents)
        big_m += m >= 10
    assert big_m  # both branches of the formula are met


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [-1, 1 << 64, 1.5, True])
def test_native_runners_refuse_a_seed_out_of_range(seed: object) -> None:
    """Every bot mix takes the same seeds: an int in [0, 2**64) (no aliasing of -1 and 2**64 - 1)."""
    for run, n in ((botsim.run_native_games, 3), (botsim.run_native_five_games, 5)):
        for bots in ([RandomBot()] * n, [RuleBot()] * n):
            with pytest.raises(InvalidArgumentError, match="seed"):
                run(2, bots, seed=seed)  # type: ignore[arg-type]


def test_native_runners_take_numpy_beans_as_the_games_do() -> None:
    """NumPy integers are beans for the kernel runners as for ``FiveGame`` (check_room_beans)."""
    bots = [RuleBot() for _ in range(5)]
    beans = np.array([100] * 5)
    native_stats = botsim.run_native_five_games(5, bots, seed=1, room=Room(), beans=beans)
    python_stats = run_five_games(5, bots, seed=1, room=Room(), beans=list(beans))
    assert dataclasses.replace(native_stats, seconds=0) == dataclasses.replace(python_stats, seconds=0)
    with pytest.raises(InvalidArgumentError, match="beans"):
        botsim.run_native_five_games(5, bots, seed=1, room=Room(), beans=[100, 100, -1, 100, 100])


@pytest.mark.parametrize("seed", ["-1", str(1 << 64)])
def test_cli_refuses_a_seed_out_of_range(seed: str) -> None:
    """Every bot mix: click's usage error naming --seed (exit 2), where rule bots used to crash in NumPy."""
    for bots in ("random", "rule"):
        args = ["simulate", "--players", "5", "--games", "3", "--bots", bots, "--no-progress", "--seed"]
        assert CliRunner().invoke(main, args + ["7"]).exit_code == 0
        r = CliRunner().invoke(main, args + [seed])
        assert r.exit_code == 2 and "Invalid value for '--seed'" in r.output
