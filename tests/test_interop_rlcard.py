"""ddzcore.interop.rlcard against the installed RLCard (1.2.0): the action
table, and whole seeded games compared state dict by state dict."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddzcore.errors import InvalidCardsError, InvalidMoveError
from ddzcore.interop import rlcard as ours

rl = pytest.importorskip("rlcard", reason="the interop extra (pip install rlcard) is not installed")
from rlcard.games.doudizhu import utils as rl_utils  # noqa: E402


def test_action_tables_equal_rlcards() -> None:
    assert ours.ID_2_ACTION == rl_utils.ID_2_ACTION
    assert ours.ACTION_2_ID == rl_utils.ACTION_2_ID
    assert ours.NUM_ACTIONS == 27472 and ours.ID_2_ACTION[ours.PASS_ID] == "pass"


def test_action_features_equal_rlcards() -> None:
    env = rl.make("doudizhu")
    for i in list(range(0, ours.NUM_ACTIONS, 97)) + [ours.PASS_ID - 1, ours.PASS_ID]:
        got = ours.action_features(i)
        want = env.get_action_feature(i)
        assert got.dtype == want.dtype and np.array_equal(got, want), ours.ID_2_ACTION[i]
    with pytest.raises(InvalidMoveError):
        ours.action_features(27472)


def _same_state(a: dict, b: dict, where: str) -> None:
    assert list(a) == list(b), where
    assert a["obs"].dtype == b["obs"].dtype and a["obs"].shape == b["obs"].shape, where
    assert np.array_equal(a["obs"], b["obs"]), where
    assert list(a["legal_actions"]) == list(b["legal_actions"]), where
    for k, v in b["legal_actions"].items():
        assert a["legal_actions"][k].dtype == v.dtype and np.array_equal(a["legal_actions"][k], v), where
    assert a["raw_obs"] == b["raw_obs"], where
    assert a["raw_legal_actions"] == b["raw_legal_actions"], where
    assert a["action_record"] == b["action_record"], where


def play_both(seed: int, step_back: bool = False, by_deal: bool = False) -> int:
    """One game on both environments with the same random choices; every
    state compared.  Returns the number of decisions compared."""
    cfg = {"seed": seed, "allow_step_back": step_back}
    theirs, mine = rl.make("doudizhu", config=cfg), ours.make("doudizhu", config=cfg)
    s1, p1 = theirs.reset()
    if by_deal:
        info = theirs.get_perfect_information()
        deal = ([h.split() for h in info["hand_cards_with_suit"]], s1["raw_obs"]["seen_cards"])
        s2, p2 = mine.reset(deal=deal)
    else:
        s2, p2 = mine.reset()
    rng = random.Random(seed)
    n = 0
    assert mine.get_perfect_information() == theirs.get_perfect_information()
    while True:
        assert p1 == p2
        _same_state(s2, s1, f"seed {seed} step {n}")
        n += 1
        if theirs.is_over():
            break
        action = rng.choice(list(s1["legal_actions"]))
        if step_back and rng.random() < 0.2:
            theirs.step(action)
            mine.step(action)
            s1, p1 = theirs.step_back()
            s2, p2 = mine.step_back()
            continue
        s1, p1 = theirs.step(action)
        s2, p2 = mine.step(action)
        assert mine.is_over() == theirs.is_over()
    assert np.array_equal(mine.get_payoffs(), theirs.get_payoffs())
    assert mine.get_payoffs().dtype == theirs.get_payoffs().dtype
    for p in range(3):
        _same_state(mine.get_state(p), theirs.get_state(p), f"seed {seed} final {p}")
    assert mine.get_perfect_information() == theirs.get_perfect_information()
    return n


def test_seeded_games_identical() -> None:
    assert sum(play_both(seed) for seed in range(25)) > 500


def test_games_from_rlcards_deals_identical() -> None:
    for seed in range(100, 110):
        play_both(seed, by_deal=True)


def test_step_back_identical() -> None:
    for seed in range(200, 210):
        play_both(seed, step_back=True)


@pytest.mark.slow
def test_thousand_seeded_games_identical() -> None:
    for seed in range(1000, 2000):
        play_both(seed, step_back=seed % 4 == 0, by_deal=seed % 2 == 1)


def test_bad_deal_and_action_raise() -> None:
    env = ours.make("doudizhu", config={"seed": 1})
    with pytest.raises(InvalidCardsError):
        env.reset(deal=(["333", "444", "555"], "666"))
    state, _ = env.reset()
    illegal = next(i for i in range(ours.PASS_ID) if i not in state["legal_actions"])
    with pytest.raises(InvalidMoveError):
        env.step(illegal)


def test_deal_as_rank_strings() -> None:
    env = ours.make("doudizhu", config={"seed": 3})
    hands = ["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"]
    state, player = env.reset(deal=(hands, "2BR"))
    assert player == 0 and state["raw_obs"]["current_hand"] == "333344445555666672BR"
    assert state["raw_obs"]["seen_cards"] == "2BR" and state["obs"].shape == (790,)
    info = env.get_perfect_information()
    assert info["hand_cards"][1:] == hands[1:]
    assert sorted(" ".join(info["hand_cards_with_suit"]).split()) == sorted(
        [s + r for s in "SHDC" for r in "3456789TJQKA2"] + ["BJ", "RJ"])
    assert "BR" in state["raw_legal_actions"] and "3333" in state["raw_legal_actions"]


def test_legacy_randint_draws_as_numpy() -> None:
    for seed in range(20):
        for n in (1, 2, 3, 7, 8, 9, 100, 256, 257, 4097):
            np.random.seed(seed)
            want = [np.random.randint(0, n) for _ in range(10)], np.random.random()
            np.random.seed(seed)
            assert ([ours._legacy_randint(n) for _ in range(10)], np.random.random()) == want, (seed, n)


@pytest.mark.parametrize("training", [False, True])
def test_run_with_our_random_agent_equals_rlcards(training: bool) -> None:
    """env.run: RLCard's env with RLCard's RandomAgent and ours with ours
    play the same games (the same actions, trajectories and payoffs)."""
    from rlcard.agents import RandomAgent

    theirs, mine = rl.make("doudizhu", config={"seed": 4}), ours.make("doudizhu", config={"seed": 4})
    theirs.set_agents([RandomAgent(num_actions=theirs.num_actions) for _ in range(3)])
    mine.set_agents([ours.RandomAgent(num_actions=mine.num_actions) for _ in range(3)])
    for game in range(5):
        np.random.seed(game)
        t1, p1 = theirs.run(is_training=training)
        np.random.seed(game)
        t2, p2 = mine.run(is_training=training)
        assert np.array_equal(p1, p2)
        for a, b in zip(t1, t2):
            assert len(a) == len(b)
            for x, y in zip(a, b):
                if isinstance(y, dict):
                    _same_state(x, y, f"game {game}")
                else:
                    assert x == y, f"game {game}"
