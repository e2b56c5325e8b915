"""VectorEnv against the Python game: the same deals and actions replayed
through ``Game`` give the same seats, legal sets, masks, observations,
rewards and ends (docs/rules.md §3-4, §6); determinism across thread
counts; bad input changes nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ddzcore import Game, Hand, Rules, _douzero
from ddzcore._errors import (EnvActionError, EnvStateError, IllegalActionError, InvalidArgumentError,
                             InvalidRulesError)
from ddzcore.game import MOVE_ID_BASE, Action, Phase
from ddzcore.envs.vector import COMPACT_LAYOUT, VectorEnv

FULL = sum(4 << (4 * r) for r in range(13)) + (1 << 52) + (1 << 56)
SLICES = {name: slice(a, b) for name, a, b in COMPACT_LAYOUT}


def counts(word: int) -> list[int]:
    return [(word >> (4 * r)) & 0xF for r in range(15)]


def replay_game(env: VectorEnv, k: int) -> Game:
    """Game k's current deal as a ``Game``, driven to the play phase with its
    landlord calling first and everyone else declining."""
    hands, bottom, landlord = env.deal(k)
    g = Game(env.rules, deal=(str(hands[0]), str(hands[1]), str(hands[2]), str(bottom)), first=landlord)
    for _ in range(20):
        if g.phase == Phase.PLAY:
            break
        legal = g.legal_actions()
        yes = {Action.CALL, Action.BID_1}
        pick = next((a for a in legal if a in yes), None) if g.current_player() == landlord else None
        g.apply(pick if pick is not None else min(legal))   # the "no" action of each phase is the lower
    assert g.landlord == landlord and g.current_player() == landlord
    return g


class Ref:
    """What the compact observation should hold, kept from the Game's moves."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.dealt = [h.word for h in g.hands]
        self.last = [0, 0, 0]
        self.seq: list[int] = []

    def play(self, action_id: int) -> None:
        g = self.g
        p = g.current_player()
        move = g.action_from_id(action_id + MOVE_ID_BASE)
        w = move.codes[0]
        self.last[p] = w
        self.seq.append(w)
        g.apply(move)

    def compact(self) -> np.ndarray:
        g = self.g
        p = g.current_player()
        words = [h.word for h in g.hands]
        o = np.zeros(148, np.int64)
        o[SLICES["hand"]] = counts(words[p])
        o[SLICES["unseen"]] = counts(words[(p + 1) % 3] + words[(p + 2) % 3])
        for i, name in enumerate(("self", "next", "prev")):
            q = (p + i) % 3
            o[SLICES["played_" + name]] = counts(self.dealt[q] - words[q])
            o[SLICES["left"].start + i] = len(g.hands[q])
            o[SLICES["landlord"].start + i] = g.landlord == q
        last = g.last_move
        if last is not None and not last.is_pass and g.last_player != p:
            c, info = last.codes
            o[SLICES["to_beat"]] = counts(c)
            o[SLICES["to_beat_combo"]] = info & 31
            o[SLICES["to_beat_length"]] = (info >> 9) & 31
            o[SLICES["to_beat_main"]] = (info >> 5) & 15
            o[SLICES["to_beat_owner"].start + (g.last_player - p) % 3] = 1
        o[SLICES["bottom"]] = counts(g.bottom.word)
        o[SLICES["last_next"]] = counts(self.last[(p + 1) % 3])
        o[SLICES["last_prev"]] = counts(self.last[(p + 2) % 3])
        o[SLICES["bombs"]] = g.bombs_played
        return o

    def douzero_row(self) -> np.ndarray:
        """DECISION_FIELDS of the seat to move, from the Game."""
        g = self.g
        p, L = g.current_player(), g.landlord
        seat_of = [L, (L + 2) % 3, (L + 1) % 3]          # landlord, landlord_up, landlord_down
        words = [h.word for h in g.hands]
        last = g.last_move
        rival = 0 if last is None or last.is_pass or g.last_player == p else last.codes[0]
        seq = self.seq[-15:]
        row = [[L, (L + 2) % 3, (L + 1) % 3].index(p), words[p], FULL - words[p] - sum(
            self.dealt[q] - words[q] for q in range(3)), rival]
        row += [self.dealt[s] - words[s] for s in seat_of] + [self.last[s] for s in seat_of]
        row += [len(g.hands[s]) for s in seat_of] + [g.bombs_played, len(seq)] + seq + [0] * (15 - len(seq))
        return np.array(row, np.uint64)


def random_actions(env: VectorEnv, rng: np.random.Generator) -> np.ndarray:
    pick = (rng.random(env.num_envs) * env.n_legal).astype(np.int64)
    return env.legal_ids[np.arange(env.num_envs), pick].astype(np.int64)


def check_against_game(env: VectorEnv, refs: list[Ref], k: int) -> None:
    g = refs[k].g
    assert env.seat[k] == g.current_player()
    assert env.landlord[k] == g.landlord
    ids = env.legal_ids[k, : env.n_legal[k]]
    want = [i - MOVE_ID_BASE for i in g.legal_action_ids()]
    assert sorted(ids.tolist()) == want
    assert np.flatnonzero(env.action_mask[k]).tolist() == want
    if env.encoding == "compact":
        np.testing.assert_array_equal(env.obs[k], refs[k].compact())


def replay_against_game(rules: str, K: int, rounds: int, seed: int) -> int:
    """Step K games `rounds` times with random actions, replaying each through
    Game; returns how many games ended."""
    env = VectorEnv(K, rules=rules, seed=seed)
    rng = np.random.default_rng(seed)
    env.reset()
    refs = [Ref(replay_game(env, k)) for k in range(K)]
    games = 0
    for _ in range(rounds):
        for k in range(K):
            check_against_game(env, refs, k)
        a = random_actions(env, rng)
        for k in range(K):
            refs[k].play(int(a[k]))
        _, rewards, term, trunc, info = env.step(a)
        assert not trunc.any()
        for k in range(K):
            g = refs[k].g
            assert term[k] == g.is_terminal()
            if term[k]:
                games += 1
                np.testing.assert_array_equal(rewards[k], np.array(g.returns(), np.float32))
                assert info["final_winner"][k] == g.winner and info["final_landlord"][k] == g.landlord
                assert info["final_multiplier"][k] == g.multiplier().total
                refs[k] = Ref(replay_game(env, k))
            else:
                assert not rewards[k].any()
    return games


@pytest.mark.parametrize("rules", ["standard", "openspiel", "douzero"])
def test_self_play_matches_game(rules: str) -> None:
    assert replay_against_game(rules, 6, 700, 11) > 40          # 4200 steps


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "rlcard", "openspiel", "douzero", "botzone"])
def test_self_play_matches_game_long(rules: str) -> None:
    assert replay_against_game(rules, 16, 3000, 12) > 500       # 48000 steps, about 60 moves a game


def test_final_observation_is_the_acting_seats_view() -> None:
    env = VectorEnv(3, seed=2)
    rng = np.random.default_rng(0)
    env.reset()
    refs = [Ref(replay_game(env, k)) for k in range(3)]
    seen = 0
    for _ in range(400):
        a = random_actions(env, rng)
        views = []
        for k in range(3):
            refs[k].play(int(a[k]))
            g = refs[k].g
            if g.is_terminal():                   # the mover went out: its hand is empty
                views.append(k)
        env.step(a)
        for k in views:
            fo = env.final_obs[k]
            assert not fo[SLICES["hand"]].any() and fo[SLICES["left"].start] == 0
            assert env.final_winner[k] == refs[k].g.winner
            seen += 1
            refs[k] = Ref(replay_game(env, k))
        for k in range(3):
            if k not in views:
                assert not env.terminations[k]
    assert seen > 5


def test_douzero_rows_match_the_compiled_encoder() -> None:
    K = 4
    env = VectorEnv(K, rules="douzero", encoding="douzero", seed=3)
    rng = np.random.default_rng(1)
    env.reset()
    refs = [Ref(replay_game(env, k)) for k in range(K)]
    for _ in range(150):
        for k in range(K):
            check_against_game(env, refs, k)
            row = refs[k].douzero_row()
            assert env.position[k] == row[0]
            n = int(env.n_legal[k])
            words = env.space.codes["cards"][env.legal_ids[k, :n]].astype(np.uint64)
            w = _douzero.width(int(row[0]))
            xb, zb = np.empty((n, w), np.float32), np.empty((n, 5, 162), np.float32)
            _douzero.encode(row, words, xb, zb, np.empty(w - 54, np.int8), np.empty((5, 162), np.int8))
            x = env.x[env.offsets[k]:env.offsets[k + 1]]
            np.testing.assert_array_equal(x[:, :w], xb)
            assert not x[:, w:].any()
            np.testing.assert_array_equal(env.z[k], zb[0])
        a = random_actions(env, rng)
        for k in range(K):
            refs[k].play(int(a[k]))
        env.step(a)
        for k in np.flatnonzero(env.terminations):
            refs[k] = Ref(replay_game(env, k))


def run(env: VectorEnv, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    out = [obs["observation"].copy()]
    for _ in range(steps):
        obs, r, term, _, info = env.step(random_actions(env, rng))
        out += [obs["observation"].copy(), r.copy(), term.copy(), info["seat"].copy(), env.final_obs.copy()]
    return out


@pytest.mark.parametrize("seats", [(0, 1, 2), (1,)])
def test_deterministic_whatever_the_thread_count(seats: tuple[int, ...]) -> None:
    one = run(VectorEnv(37, seed=9, seats=seats), 300, 4)
    for threads in (2, 3):
        with VectorEnv(37, seed=9, seats=seats, threads=threads) as env:
            for a, b in zip(one, run(env, 300, 4), strict=True):
                np.testing.assert_array_equal(a, b)
    other = run(VectorEnv(37, seed=10, seats=seats), 300, 4)
    assert not all(np.array_equal(a, b) for a, b in zip(one, other))


def test_bots_fill_the_other_seats() -> None:
    env = VectorEnv(16, seed=4, seats=(2,))
    rng = np.random.default_rng(3)
    env.reset()
    games, wins = 0, 0
    landlords = set()
    for _ in range(1500):
        assert (env.seat == 2).all()
        landlords.update(env.landlord.tolist())
        _, r, term, _, _ = env.step(random_actions(env, rng))
        games += int(term.sum())
        np.testing.assert_array_equal(r.sum(axis=1), 0)
        wins += int((r[term, 2] > 0).sum())
    assert landlords == {0, 1, 2} and games > 100 and 0 < wins < games


def test_bad_actions_raise_and_change_nothing() -> None:
    env = VectorEnv(5, seed=6)
    env.reset()
    before = [env.obs.copy(), env.legal_ids.copy(), env.action_mask.copy(), [env.deal(k) for k in range(5)]]
    good = env.legal_ids[:, 0].astype(np.int64)
    illegal = good.copy()
    illegal[3] = int(np.flatnonzero(~env.action_mask[3])[0])
    with pytest.raises(IllegalActionError, match=f"env 3: action {illegal[3]} ") as e:
        env.step(illegal)
    assert e.type is EnvActionError and e.value.env == "env 3" and e.value.action == illegal[3]
    with pytest.raises(IllegalActionError, match="env 1: action -1 "):
        env.step(np.where(np.arange(5) == 1, -1, good))
    with pytest.raises(IllegalActionError, match=f"env 0: action {len(env.space)} "):
        env.step(np.full(5, len(env.space)))
    for bad in (good.astype(np.float64), good[:4], good.reshape(5, 1), good.astype(bool), "x"):
        with pytest.raises(InvalidArgumentError):
            env.step(bad)
    after = [env.obs, env.legal_ids, env.action_mask, [env.deal(k) for k in range(5)]]
    for a, b in zip(before[:3], after[:3]):
        np.testing.assert_array_equal(a, b)
    assert before[3] == after[3]
    env.step(good.astype(np.int32))     # any integer dtype of the right shape is fine


@pytest.mark.parametrize("kwargs", [dict(rules="laizi"), dict(rules=Rules(wild="7")), dict(encoding="rlcard"),
                                    dict(seats=()), dict(seats=(3,)), dict(bot="minimax"), dict(threads=0),
                                    dict(seed=-1)])
def test_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises((InvalidArgumentError, InvalidRulesError)):
        VectorEnv(2, **kwargs)


@pytest.mark.parametrize("threads", [1, 3])
def test_bad_action_in_any_range_changes_no_game(threads: int) -> None:
    """The check runs on every worker's range before any game moves."""
    with VectorEnv(9, seed=6, threads=threads) as env:
        env.reset()
        for k in (0, 4, 8):
            before = [env.obs.copy(), env.action_mask.copy(), [env.deal(j) for j in range(9)]]
            a = env.sample_actions().copy()
            a[k] = int(np.flatnonzero(~env.action_mask[k])[0])
            if k < 8:
                a[8] = -5                         # a later bad action: the first one is named
            with pytest.raises(EnvActionError, match=f"^env {k}: "):
                env.step(a)
            np.testing.assert_array_equal(before[0], env.obs)
            np.testing.assert_array_equal(before[1], env.action_mask)
            assert before[2] == [env.deal(j) for j in range(9)]


def test_step_before_reset() -> None:
    env = VectorEnv(2)
    for call in (lambda: env.step(np.zeros(2, np.int64)), env.step_random, env.sample_actions):
        with pytest.raises(EnvStateError, match="reset"):
            call()


def test_a_game_outside_the_action_space_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel failure code (here: legal moves missing from a cut action
    space) becomes an EnvStateError naming the game; reset() is needed."""
    import ddzcore.envs.vector as vector

    class Cut:
        def __init__(self, space: Any) -> None:
            self.codes = space.codes[:1]          # the pass alone

        def __len__(self) -> int:
            return 1

    real = vector.action_space
    monkeypatch.setattr(vector, "action_space", lambda rules: Cut(real(rules)))
    env = VectorEnv(3, seed=1)
    with pytest.raises(EnvStateError, match="env 0: a legal move outside the action space") as e:
        env.reset()
    assert e.value.env == 0
    with pytest.raises(EnvStateError, match="reset"):
        env.step_random()


@pytest.mark.parametrize("seats", [(0, 1, 2), (2,)])
def test_native_random_actions(seats: tuple[int, ...]) -> None:
    """sample_actions draws legal ids, the same for any thread count;
    step_random is step(sample_actions()), game for game."""
    def trace(threads: int, fused: bool) -> list[np.ndarray]:
        with VectorEnv(23, seed=5, seats=seats, threads=threads) as env:
            env.reset()
            out = []
            for _ in range(150):
                if fused:
                    env.step_random()
                else:
                    a = env.sample_actions()
                    assert env.action_mask[np.arange(23), a].all()
                    env.step(a.copy())
                out += [env.actions.copy(), env.obs.copy(), env.rewards.copy(), env.seat.copy()]
            return out

    one = trace(1, False)
    for threads, fused in ((1, True), (2, True), (4, False)):
        for a, b in zip(one, trace(threads, fused), strict=True):
            np.testing.assert_array_equal(a, b)


def test_sampled_actions_are_uniform() -> None:
    env = VectorEnv(64, seed=3)
    env.reset()
    n = env.n_legal.copy()
    seen = np.stack([env.sample_actions().copy() for _ in range(400)])      # the games do not move
    for k in range(64):
        ids, hits = np.unique(seen[:, k], return_counts=True)
        assert set(ids.tolist()) <= set(env.legal_ids[k, :n[k]].tolist())
        if n[k] <= 4:
            assert len(ids) == n[k] and hits.min() > 400 / n[k] / 2


def test_deal_replays_as_a_game() -> None:
    env = VectorEnv(3, seed=8)
    env.reset()
    hands, bottom, landlord = env.deal(1)
    assert [len(h) for h in hands] == [17, 17, 17] and len(bottom) == 3
    assert sum(h.word for h in hands) + bottom.word == FULL
    assert isinstance(hands[0], Hand) and env.landlord[1] == landlord
    with pytest.raises(InvalidArgumentError):
        env.deal(3)
