"""ddzcore.envs: the Table core, the PettingZoo and Gymnasium environments
against their frameworks' own checkers, the DouZero and RLCard encodings
against ddzcore.interop's environments (themselves checked byte for byte
against the real packages), and bad actions (docs/rules.md §3-8)."""

from __future__ import annotations

import functools
import types

import numpy as np
import pytest

from ddzcore import EnvActionError, Game, IllegalActionError, InvalidArgumentError, InvalidRulesError, Rules
from ddzcore.envs import Table, compact_size
from ddzcore.interop import douzero, rlcard

PRESETS = sorted(Rules.PRESETS)


def _random_game(table: Table, rng: np.random.Generator) -> int:
    """Play one game with uniformly random legal ids, checking mask and ids on the way."""
    table.new_game(rng)
    steps = 0
    while not table.game.is_terminal():
        p = table.game.current_player()
        obs, mask = table.encode(p), table.mask(p)
        assert obs.shape == (table.obs_size,) and obs.dtype == table.obs_dtype and (obs >= 0).all()
        if table.encoding == "compact":  # the fast path reads the same information set as Game.observation
            for q in range(table.players):
                assert (table.encode(q) == table._compact(q, exact=True)).all()
        ids = np.flatnonzero(mask)
        assert len(ids) == len(table.game.legal_actions())
        for q in range(table.players):
            if q != p:
                assert not table.mask(q).any()
        table.apply(int(rng.choice(ids)), "test", p)
        steps += 1
    return steps


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("phases", ["all", "play"])
def test_every_preset_plays_to_the_end(preset: str, phases: str) -> None:
    table = Table(preset, phases=phases)
    rng = np.random.default_rng(7)
    _random_game(table, rng)
    rewards = table.rewards()
    assert len(rewards) == 3 and abs(sum(rewards)) < 1e-9 and any(rewards)
    assert table.obs_size == compact_size(3)


def test_five_players_and_beans() -> None:
    from ddzcore import Room

    table = Table(players=5, reward="beans", room=Room(coefficient=100, rake=10), beans=[5000] * 5)
    _random_game(table, np.random.default_rng(3))
    net = table.rewards()
    assert net == [float(x) for x in table.game.settlement().net]
    assert len(net) == 5 and all(x == int(x) for x in net) and any(net)
    with pytest.raises(InvalidRulesError):
        Table("laizi", players=5)


def test_dense_ids_are_the_games_ids() -> None:
    table = Table(phases="all")
    rng = np.random.default_rng(11)
    table.new_game(rng)
    g = table.game
    assert isinstance(g, Game)
    while not g.is_terminal():
        assert sorted(table.legal()) == g.legal_action_ids()
        for i, a in table.legal().items():
            assert g.action_id(a) == i
        table.apply(int(rng.choice(sorted(table.legal()))), "test", g.current_player())


def test_play_phase_landlord_given_or_drawn() -> None:
    rng = np.random.default_rng(5)
    for seat in range(3):
        t = Table(phases="play", landlord=seat)
        t.new_game(rng)
        assert t.game.landlord == seat and t.game.current_player() == seat and len(t.game.hand(seat)) == 20
    drawn = set()
    t = Table(phases="play")
    for _ in range(30):
        t.new_game(rng)
        drawn.add(t.game.landlord)
    assert drawn == {0, 1, 2}


def test_douzero_encoding_matches_douzero_env() -> None:
    """Under DouZero's rules the encoding is DouZero's x_no_action and z, at every decision."""
    rng = np.random.default_rng(1)
    for landlord in (0, 2):
        table = Table("douzero", phases="play", landlord=landlord, encoding="douzero")
        table.new_game(rng)
        g = table.game
        pos = [landlord, (landlord + 2) % 3, (landlord + 1) % 3]
        ref = douzero.Env()
        bottom = douzero.to_cards(g.bottom.word)
        obs = ref.reset({"landlord": douzero.to_cards(g.hand(pos[0]).word),
                         "landlord_up": douzero.to_cards(g.hand(pos[1]).word),
                         "landlord_down": douzero.to_cards(g.hand(pos[2]).word), "three_landlord_cards": bottom})
        while not g.is_terminal():
            p = g.current_player()
            mine = table.encode(p)
            width = len(obs["x_no_action"])
            assert width == (319 if p == landlord else 430)
            assert (mine[:width] == obs["x_no_action"]).all() and not mine[width:430].any()
            assert (mine[430:] == obs["z"].reshape(-1)).all()
            i = int(rng.choice(sorted(table.legal())))
            move = table.legal()[i]
            table.apply(i, "test", p)
            obs, _, done, _ = ref.step(douzero.to_cards(move.codes[0]))
            assert done == g.is_terminal()


def test_rlcard_encoding_matches_rlcard_env() -> None:
    rng = np.random.default_rng(2)
    for landlord in (0, 1):
        table = Table("rlcard", phases="play", landlord=landlord, encoding="rlcard")
        table.new_game(rng)
        g = table.game
        seats = [(landlord + i) % 3 for i in range(3)]
        ref = rlcard.DoudizhuEnv()
        state, pid = ref.reset(([rlcard.word_to_str(g.hand(s).word) for s in seats], rlcard.word_to_str(g.bottom.word)))
        while not g.is_terminal():
            p = g.current_player()
            assert seats[pid] == p
            mine = table.encode(p)
            n = len(state["obs"])
            assert n == (790 if p == landlord else 901)
            assert (mine[:n] == state["obs"]).all() and not mine[n:].any()
            i = int(rng.choice(sorted(table.legal())))
            move = table.legal()[i]
            table.apply(i, "test", p)
            if not g.is_terminal():
                state, pid = ref.step(rlcard.word_to_str(move.codes[0]) or "pass", raw_action=True)


def test_laizi_uses_legal_list_ids() -> None:
    t = Table("laizi", phases="play", landlord=0)
    assert t.actions == "legal" and t.n_actions == 32768
    t.new_game(np.random.default_rng(4))
    assert t.game.wild is not None
    assert sorted(t.legal()) == list(range(len(t.game.legal_actions())))
    with pytest.raises(InvalidArgumentError, match="laizi"):
        Table("laizi", actions="dense")


@pytest.mark.parametrize("kw", [dict(encoding="douzero"), dict(players=5, encoding="rlcard"),
                                dict(landlord=1), dict(phases="bidding"), dict(players=4), dict(reward="chips")])
def test_bad_options(kw: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        Table(**kw)  # type: ignore[arg-type]


BAD_ACTIONS = [1.0, True, "16", np.array([16, 17]), np.float32(16), None, -1, 10 ** 9, 3]


@pytest.mark.parametrize("bad", BAD_ACTIONS, ids=repr)
def test_bad_action_is_typed_and_changes_nothing(bad: object) -> None:
    t = Table(phases="play", landlord=0)
    t.new_game(np.random.default_rng(0))
    before = (t.game.copy(), t.encode(0).copy(), t.mask(0).copy())
    with pytest.raises(EnvActionError) as e:
        t.apply(bad, "ddz-test", "player_0")
    assert isinstance(e.value, IllegalActionError) and isinstance(e.value, InvalidArgumentError)
    assert "ddz-test" in str(e.value) and "player_0" in str(e.value)
    assert e.value.env == "ddz-test" and e.value.agent == "player_0"
    assert t.game == before[0] and (t.encode(0) == before[1]).all() and (t.mask(0) == before[2]).all()
    legal = int(np.flatnonzero(t.mask(0))[0])
    t.apply(np.int64(legal), "ddz-test", "player_0")  # NumPy integers and 0-d arrays are ids
    assert t.game.current_player() == 1


# -- the frameworks' own checkers (pip install "ddzcore[pettingzoo]") -------------------------------

def _pz() -> types.ModuleType:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'ddzcore[pettingzoo]'")
    from ddzcore.envs import pettingzoo as pz

    return pz


@pytest.mark.parametrize("kw", [dict(), dict(phases="play", encoding="douzero"), dict(phases="play", encoding="rlcard"),
                                dict(players=5), dict(rules="laizi", reward="beans"), dict(rules="botzone")],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "standard")
def test_pettingzoo_api_test(kw: dict[str, object]) -> None:
    pz = _pz()
    from pettingzoo.test import api_test

    api_test(pz.env(**kw), num_cycles=200)


def test_pettingzoo_seed_and_max_cycles() -> None:
    pz = _pz()
    from pettingzoo.test import max_cycles_test, seed_test

    seed_test(pz.env, num_cycles=100)
    seed_test(functools.partial(pz.env, players=5, phases="play"), num_cycles=50)
    # max_cycles_test samples actions without the mask: on_illegal="random" plays a random legal action
    # instead; in the play phase turns go round the table, so max_cycles × 3 actions are max_cycles cycles.
    opts = dict(phases="play", landlord=0, on_illegal="random")
    max_cycles_test(types.SimpleNamespace(env=functools.partial(pz.env, **opts),
                                          parallel_env=functools.partial(pz.parallel_env, **opts)))


def test_pettingzoo_bad_action_names_agent() -> None:
    e = _pz().env(phases="play", landlord=1)
    e.reset(seed=3)
    assert e.agent_selection == "player_1"
    obs = e.observe("player_1")
    with pytest.raises(EnvActionError, match="player_1"):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert e.agent_selection == "player_1" and (e.observe("player_1")["observation"] == obs["observation"]).all()


def test_pettingzoo_rewards_in_beans() -> None:
    from ddzcore import Room

    e = _pz().env(reward="beans", room=Room(coefficient=50), beans=[10000, 10000, 10000])
    e.reset(seed=1)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(e.action_space(agent).sample(obs["action_mask"])))
    net = e.unwrapped.table.game.settlement().net
    assert [total[a] for a in e.possible_agents] == [float(x) for x in net] and any(net)


def test_gymnasium_check_env_and_bots() -> None:
    pytest.importorskip("gymnasium", reason="the gymnasium extra is not installed: pip install 'ddzcore[gymnasium]'")
    from gymnasium.utils.env_checker import check_env

    from ddzcore.tools.bots import RuleBot
    from ddzcore.envs.gymnasium import SeatEnv

    check_env(SeatEnv(on_illegal="random"), skip_render_check=True)
    check_env(SeatEnv([RuleBot(), lambda obs: obs.legal_actions[0]], seat=2, phases="play", encoding="douzero",
                      on_illegal="random"), skip_render_check=True)
    env = SeatEnv(["search", "random"], phases="play", landlord=0)
    obs, info = env.reset(seed=4)
    with pytest.raises(EnvActionError, match="seat 0"):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(EnvActionError):
        env.step(0.5)
    assert (env.table.encode(0) == obs).all()
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == env.table.game.returns()[0] != 0


# -- ddzcore.distributed: identical to one process; Ray itself only in the slow test ---------------

def test_distributed_ranges_equal_one_process(tmp_path: object) -> None:
    import ddzcore
    from ddzcore import distributed as dist

    ref = ddzcore.simulate(600, 5, record=True)
    got = dist.simulate(600, 5, record=True, chunks=4, ray=False)
    for k in ("landlord", "winner", "calls", "hands", "multiplier", "moves", "offsets"):
        assert np.array_equal(getattr(ref, k), getattr(got, k)), k
    for fmt in dist.SHARD_FORMATS:
        if fmt == "parquet":
            pytest.importorskip("pyarrow", reason="Parquet shards need pyarrow (the ray extra)")
        paths = dist.selfplay_shards(600, 5, f"{tmp_path}/{fmt}", shard_games=250, fmt=fmt, ray=False)
        assert len(paths) == 3
        back = dist.read_shards(paths, fmt)
        for k in ("landlord", "winner", "calls", "hands", "moves", "offsets"):
            assert np.array_equal(getattr(ref, k), back[k]), (fmt, k)
    a = ddzcore.arena(["rule", "rule"], deals=4, seed=2)
    b = dist.arena(["rule", "rule"], deals=4, seed=2, chunks=3, ray=False)
    assert a.to_json()["stats"] == b.to_json()["stats"] and a.games == b.games == 8
    one = dist.arena(["random", "rule"], deals=5, seed=3, chunks=1, ray=False).to_json()["stats"]
    assert dist.arena(["random", "rule"], deals=5, seed=3, chunks=5, ray=False).to_json()["stats"] == one
    with pytest.raises(InvalidArgumentError):
        dist.simulate(10, 1, chunks=0, ray=False)
    with pytest.raises(InvalidArgumentError):
        dist.selfplay_shards(10, 1, f"{tmp_path}/x", fmt="csv", ray=False)


def test_distributed_summary_is_the_one_process_runs() -> None:
    import ddzcore
    from ddzcore import distributed as dist

    ref = ddzcore.simulate(900, 7)
    whole = dist.summarize(ref)
    assert whole.games == 900 and whole.landlord_wins == int((ref.landlord_won & (ref.landlord >= 0)).sum())
    assert sum(whole.seat_wins) == 2 * whole.games - whole.landlord_wins - 3 * whole.no_landlord
    assert whole.turns == int(ref.turns.sum()) and whole.multiplier_total == int(ref.multiplier.sum())
    for chunks in (1, 4):
        assert dist.simulate(900, 7, summary=True, chunks=chunks, ray=False) == whole
    assert dist.simulate(900, 8, summary=True, ray=False).checksum != whole.checksum
    part = ddzcore.simulate(400, 7, first_game=500)
    assert dist.summarize(ddzcore.simulate(500, 7)) + dist.summarize(part, 500) == whole
    assert dist.summarize(part).checksum != dist.summarize(part, 500).checksum       # the game numbers count
    ref.hands[123, 2] ^= 1 << 60
    assert dist.summarize(ref).checksum != whole.checksum
    with pytest.raises(InvalidArgumentError):
        dist.simulate(10, 1, summary=True, record=True, ray=False)


@pytest.mark.slow
def test_distributed_on_local_ray(tmp_path: object) -> None:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install 'ddzcore[ray]'")
    import ddzcore
    from ddzcore import distributed as dist

    dist.connect(num_cpus=2, include_dashboard=False)
    try:
        ref = ddzcore.simulate(20_000, 9)
        got = dist.simulate(20_000, 9, chunks=4)
        for k in ("landlord", "winner", "calls", "hands", "multiplier", "turns"):
            assert np.array_equal(getattr(ref, k), getattr(got, k)), k
        assert dist.simulate(20_000, 9, chunks=3, summary=True) == dist.summarize(ref)
        paths = dist.selfplay_shards(3000, 9, str(tmp_path), shard_games=1000)
        back = dist.read_shards(paths)
        rec = ddzcore.simulate(3000, 9, record=True)
        assert np.array_equal(back["moves"], rec.moves) and np.array_equal(back["offsets"], rec.offsets)
        one = dist.arena(["random", "rule"], deals=6, seed=1, ray=False).to_json()["stats"]
        assert dist.arena(["random", "rule"], deals=6, seed=1, chunks=3).to_json()["stats"] == one
    finally:
        ray.shutdown()
