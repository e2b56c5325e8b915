"""ddzcore.interop.douzero against the installed DouZero (1.1.0): legal
action lists and observations at every decision of seeded games, the
``douzero`` rules preset on the corpus positions, and DeepAgent."""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

from conftest import load_positions
from ddzcore import Rules, classify, legal_moves
from ddzcore.errors import InvalidArgumentError, InvalidCardsError, InvalidMoveError
from ddzcore.interop import douzero as ours

pytest.importorskip("douzero", reason="DouZero is not installed (pip install --no-deps douzero)")
from douzero.env import env as dz_env  # noqa: E402
from douzero.env.game import GameEnv  # noqa: E402

DOUZERO = Rules.preset("douzero")
CHARS = dict(zip(ours.CODES, "3456789TJQKA2BR"))


def _same_obs(a: dict[str, Any], b: dict[str, Any], where: str) -> None:
    assert a.keys() == b.keys(), where
    assert a["position"] == b["position"], where
    assert a["legal_actions"] == b["legal_actions"], where
    for k in ("x_batch", "z_batch", "x_no_action", "z"):
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, (where, k)
        assert a[k].tobytes() == b[k].tobytes(), (where, k)


INFOSET_FIELDS = ("player_position", "player_hand_cards", "num_cards_left_dict", "three_landlord_cards",
                  "card_play_action_seq", "other_hand_cards", "legal_actions", "last_move", "last_two_moves",
                  "last_move_dict", "played_cards", "all_handcards", "last_pid", "bomb_num")


def _same_infoset(a: Any, b: Any, where: str) -> None:
    """Every attribute of DouZero's InfoSet equal (ours are built from card words, theirs copied)."""
    for k in INFOSET_FIELDS:
        assert getattr(a, k) == getattr(b, k), (where, k)


def _deal(seed: int) -> dict[str, list[int]]:
    deck = [c for c in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
    random.Random(seed).shuffle(deck)
    return {"landlord": sorted(deck[:20]), "landlord_up": sorted(deck[20:37]),
            "landlord_down": sorted(deck[37:54]), "three_landlord_cards": sorted(deck[17:20])}


def play_both(seed: int) -> int:
    """One game on DouZero's Env and ours, the same random choices; every
    observation compared byte for byte.  Returns the decisions compared."""
    deal = _deal(seed)
    theirs = dz_env.Env("adp")
    theirs._env.reset()
    theirs._env.card_play_init({k: list(v) for k, v in deal.items()})
    theirs.infoset = theirs._game_infoset
    mine = ours.Env("adp")
    o2 = mine.reset({k: list(v) for k, v in deal.items()})
    o1 = dz_env.get_obs(theirs.infoset)
    rng = random.Random(seed)
    n = 0
    while True:
        _same_obs(o2, o1, f"seed {seed} decision {n}")
        _same_obs(ours.get_obs(theirs.infoset), o1, f"seed {seed} decision {n}, their infoset")
        _same_infoset(mine.infoset, theirs.infoset, f"seed {seed} decision {n}")
        n += 1
        action = rng.choice(o1["legal_actions"])
        o1, r1, d1, _ = theirs.step(action)
        o2, r2, d2, _ = mine.step(list(action))
        assert (r1, d1) == (r2, d2)
        if d1:
            assert o2 is None
            return n


def test_seeded_games_identical() -> None:
    assert sum(play_both(seed) for seed in range(25)) > 500


@pytest.mark.slow
def test_thousand_seeded_games_identical() -> None:
    for seed in range(1000, 2100):
        play_both(seed)


def test_random_deal_follows_numpy_seed() -> None:
    np.random.seed(5)
    a = dz_env.Env("wp").reset()
    np.random.seed(5)
    b = ours.Env("wp").reset()
    _same_obs(b, a, "reset")


def _dz_sets(hand: str, last: str) -> set[str]:
    code = {v: k for k, v in CHARS.items()}
    env = GameEnv(players={})
    env.acting_player_position = "landlord"
    env.info_sets["landlord"].player_hand_cards = sorted(code[c] for c in hand)
    env.card_play_action_seq = [sorted(code[c] for c in last)] if last else []
    return {"".join(CHARS[c] for c in sorted(m)) for m in env.get_legal_card_play_actions() if m}


def test_preset_equals_douzero_on_corpus() -> None:
    positions = load_positions()
    assert len(positions) == 4000
    for i, (_, hand, last) in enumerate(positions):
        last = last or ""
        mine = {str(m.cards).replace("10", "T") for m in
                legal_moves(hand, last=classify(last, DOUZERO)[0] if last else None, rules=DOUZERO)
                if len(m.cards)}
        assert mine == _dz_sets(hand, last), i


@pytest.mark.parametrize("hand, last", [
    ("33888999TTTJJJQQ2", "444555666777"),         # read as a four-trio plane
    ("9TTTJJJQQQ3456", "333444555777"),            # compared by its wings' 7s: nothing
    ("TTTJJJQQQKKK2222A", "3334445556667777"),     # a four in the wings: no type
    ("3333BR4", "555566"),
    ("666777BR88", "333444"),
])
def test_preset_quirks(hand: str, last: str) -> None:
    mine = {str(m.cards).replace("10", "T") for m in
            legal_moves(hand, last=classify(last, DOUZERO)[0], rules=DOUZERO) if len(m.cards)}
    assert mine == _dz_sets(hand, last)


def test_bad_input_raises() -> None:
    env = ours.Env()
    with pytest.raises(InvalidCardsError):
        env.reset({"landlord": [3] * 20, "landlord_up": [4] * 17, "landlord_down": [5] * 17,
                   "three_landlord_cards": [3, 3, 3]})
    env.reset(_deal(1))
    with pytest.raises(InvalidMoveError):
        env.step([3, 4])
    with pytest.raises(InvalidMoveError):
        env.step([99])
    for bad in ([3] * 5, [20, 20], ["3"], [3.5]):
        with pytest.raises(InvalidMoveError):
            env.step(bad)
    while env.step(env.infoset.legal_actions[0])[0] is not None:
        pass
    with pytest.raises(InvalidMoveError):
        env.step([])


def test_encoders_refuse_bad_card_words() -> None:
    """A card word counting a rank past four (or a joker twice) names itself
    in every encoder instead of reading past the rank-column table."""
    env = ours.Env()
    env.reset(_deal(3))
    assert env.infoset is not None
    row = ours.decision_row(env.infoset)
    words = np.ascontiguousarray(env.infoset._words)
    n, w = len(words), (373 if row[0] == 0 else 484)
    offsets = np.array([0, n], np.int64)
    out = (np.empty((n, w), np.float32), np.empty((n, 5, 162), np.float32),
           np.empty((1, w - 54), np.int8), np.empty((1, 5, 162), np.int8))
    ours.encode_batch(row[None, :].copy(), words, offsets, *out)   # the good input passes
    bad_row = row.copy()
    bad_row[1] = 5                                   # five 3s in the hand
    bad_action = words.copy()
    bad_action[-1] = 2 << 52                         # the small joker twice
    for rows, acts, what in ((bad_row[None, :], words, "decision 0: card word 0"), (row[None, :], bad_action, "action")):
        with pytest.raises(InvalidArgumentError, match=what):
            ours.encode_batch(rows.copy(), acts, offsets, *out)
        with pytest.raises(InvalidArgumentError, match=what):
            ours.encode_compact(rows.copy(), acts, offsets, out[2], out[3], np.empty((n, 54), np.int8))


def test_encode_batch_equals_single() -> None:
    env = ours.Env()
    rows, words, obs = [], [], []
    env.reset(_deal(3))
    while True:
        assert env.infoset is not None
        if env.infoset.player_position != "landlord":
            o, _, done, _ = env.step(env.infoset.legal_actions[0])
        else:
            rows.append(ours.decision_row(env.infoset))
            words.append(env.infoset._words)
            obs.append(ours.get_obs(env.infoset))
            o, _, done, _ = env.step(env.infoset.legal_actions[-1])
        if done:
            break
    offsets = np.concatenate([[0], np.cumsum([len(w) for w in words])]).astype(np.int64)
    total = int(offsets[-1])
    xb = np.empty((total, 373), np.float32)
    zb = np.empty((total, 5, 162), np.float32)
    xna = np.empty((len(rows), 319), np.int8)
    z = np.empty((len(rows), 5, 162), np.int8)
    ours.encode_batch(np.stack(rows), np.concatenate(words), offsets, xb, zb, xna, z)
    for i, o in enumerate(obs):
        assert xb[offsets[i]:offsets[i + 1]].tobytes() == o["x_batch"].tobytes()
        assert zb[offsets[i]:offsets[i + 1]].tobytes() == o["z_batch"].tobytes()
        assert xna[i].tobytes() == o["x_no_action"].tobytes() and z[i].tobytes() == o["z"].tobytes()
    with pytest.raises(ValueError):
        ours.encode_batch(np.stack(rows), np.concatenate(words), offsets, xb[:1], zb, xna, z)


@pytest.mark.slow
def test_deep_agent_matches_douzero(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch", reason="DeepAgent needs torch (pip install torch)")
    import importlib.util
    import sys

    import douzero

    # douzero.dmc's __init__ imports its training loop (GitPython and more):
    # load its models module alone, and let DouZero's DeepAgent find it.
    spec = importlib.util.spec_from_file_location(
        "douzero.dmc.models", os.path.join(os.path.dirname(douzero.__file__), "dmc", "models.py"))
    assert spec is not None and spec.loader is not None
    models = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(models)
    sys.modules.setdefault("douzero.dmc", type(sys)("douzero.dmc"))
    sys.modules["douzero.dmc.models"] = models
    model_dict = models.model_dict
    from douzero.evaluation.deep_agent import DeepAgent as DzDeepAgent

    torch.set_num_threads(1)
    paths = {}
    for i, pos in enumerate(ours.POSITIONS):
        torch.manual_seed(i)
        path = str(tmp_path / f"{pos}.ckpt")
        torch.save(model_dict[pos]().state_dict(), path)
        paths[pos] = path
    theirs = {p: DzDeepAgent(p, paths[p]) for p in ours.POSITIONS}
    mine = {p: ours.DeepAgent(p, paths[p]) for p in ours.POSITIONS}
    decisions = 0
    for seed in range(20):
        env = ours.Env()
        env.reset(_deal(seed))
        game = GameEnv(theirs)
        game.card_play_init({k: list(v) for k, v in _deal(seed).items()})
        done = False
        while not done:
            assert env.infoset is not None
            pos = env.infoset.player_position
            a = mine[pos].act(env.infoset)
            assert a == theirs[pos].act(game.game_infoset), (seed, decisions)
            assert mine[pos].act(game.game_infoset) == a
            decisions += 1
            game.step()
            _, _, done, _ = env.step(a)
    assert decisions > 500


def test_douzero_switches_need_one_plain_deck() -> None:
    with pytest.raises(ValueError):
        Rules(wing_bomb=True, decks=2)
    with pytest.raises(ValueError):
        Rules(douzero_follow=True, wild="7")
    assert DOUZERO.flags & (1 << 14) and DOUZERO.flags & (1 << 15)
    # a four in a plane's single wings: DouZero's, not the rule book's (docs/rules.md §2)
    assert "3334445556667777" in {str(m.cards) for m in legal_moves("3334445556667777", rules=DOUZERO)}
    assert "3334445556667777" not in {str(m.cards) for m in legal_moves("3334445556667777")}


def _their_decisions(seeds: range) -> list[tuple[np.ndarray, np.ndarray, dict[str, Any]]]:
    """(decision row, legal words, DouZero's get_obs) at every decision of
    seeded random games on DouZero's own Env (its InfoSets are reused, so
    rows and words are read at the decision)."""
    out = []
    for seed in seeds:
        env = dz_env.Env("adp")
        env._env.reset()
        env._env.card_play_init(_deal(seed))
        env.infoset = env._game_infoset
        obs, rng, done = dz_env.get_obs(env.infoset), random.Random(seed), False
        while not done:
            words = np.array([ours.to_word(a) for a in env.infoset.legal_actions], np.uint64)
            out.append((ours.decision_row(env.infoset), words, obs))
            obs, _, done, _ = env.step(rng.choice(obs["legal_actions"]))
    return out


@pytest.mark.parametrize("landlord", [True, False])
def test_compact_batch_expands_to_douzero(landlord: bool) -> None:
    """encode_compact, then expand (or NumPy's repeat), gives DouZero's own
    get_obs byte for byte; encode_batch does in one call."""
    dec = [d for d in _their_decisions(range(6)) if (d[2]["position"] == "landlord") == landlord]
    rows = np.stack([d[0] for d in dec])
    words = np.concatenate([d[1] for d in dec])
    offsets = np.concatenate([[0], np.cumsum([len(d[1]) for d in dec])]).astype(np.int64)
    m, total, width = len(dec), int(offsets[-1]), 373 if landlord else 484
    xna, z, arows = np.empty((m, width - 54), np.int8), np.empty((m, 5, 162), np.int8), np.empty((total, 54), np.int8)
    ours.encode_compact(rows, words, offsets, xna, z, arows)
    xb, zb = np.empty((total, width), np.float32), np.empty((total, 5, 162), np.float32)
    ours.expand(xna, z, arows, offsets, xb, zb)
    owner = np.repeat(np.arange(m), np.diff(offsets))
    xb_np = np.hstack([xna[owner], arows]).astype(np.float32)
    xb2, zb2 = np.full_like(xb, 7), np.full_like(zb, 7)
    xna2, z2 = np.full_like(xna, 7), np.full_like(z, 7)
    ours.encode_batch(rows, words, offsets, xb2, zb2, xna2, z2)
    for i, (_, _, o) in enumerate(dec):
        part = slice(offsets[i], offsets[i + 1])
        for got in (xb[part], xb_np[part], xb2[part]):
            assert got.tobytes() == o["x_batch"].tobytes(), i
        for got in (zb[part], zb2[part], np.broadcast_to(z[i], (len(o["legal_actions"]), 5, 162)).astype(np.float32)):
            assert got.tobytes() == o["z_batch"].tobytes(), i
        assert xna[i].tobytes() == xna2[i].tobytes() == o["x_no_action"].tobytes(), i
        assert z[i].tobytes() == z2[i].tobytes() == o["z"].tobytes(), i
    with pytest.raises(ValueError):
        ours.encode_compact(rows, words, offsets, xna, z, arows[:1])
    with pytest.raises(ValueError):
        ours.expand(xna, z, arows, offsets, xb[:1], zb)
    with pytest.raises(ValueError):
        ours.expand(xna[:, :5], z, arows, offsets, xb, zb)
    bad = rows.copy()
    bad[-1, 11] = 18                # more cards left than a hand holds: one_hot would write past its 17
    with pytest.raises(ValueError):
        ours.encode_compact(bad, words, offsets, xna, z, arows)
