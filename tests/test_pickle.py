"""Pickling ``Game`` and ``FiveGame`` (docs/rules.md §3-§8): a game travels as
its record plus its random generator's state, is replayed on unpickling, and
a pickle changed after it was made raises ``RecordError``.

Round trips are checked at every step of random games (equal state, equal
legal actions, and the same future: the rest of the game played on the copy
matches the original step by step, redeals drawn from the generator
included); tamper tests change one field of the pickled arguments, or bytes
of the pickle itself."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from ddzcore import Game, RecordError, Rules
from ddzcore.game import FiveGame


def _choose(game: Any, rng: np.random.Generator) -> Any:
    legal = game.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def _actions(game: Any, seed: int) -> list[Any]:
    """A random game's actions from ``game`` (a copy is played): each a
    legal action, or now and then ("escape", seat)."""
    g, rng, out = game.copy(), np.random.default_rng(seed), []
    while not g.is_terminal():
        if rng.random() < 0.01:
            a: Any = ("escape", int(rng.integers(g.players)))
        else:
            a = _choose(g, rng)
        _do(g, a)
        out.append(a)
    return out


def _do(game: Any, action: Any) -> None:
    if isinstance(action, tuple):
        game.escape(action[1])
    else:
        game.apply(action)


def _same(a: Any, b: Any) -> None:
    assert a == b
    assert list(a.legal_actions()) == list(b.legal_actions())
    assert a.current_player() == b.current_player() and a.history == b.history
    assert a.is_terminal() == b.is_terminal()
    if a.is_terminal():
        assert a.returns() == b.returns()


def _round_trips(game: Any, seed: int, future: int) -> int:
    """Pickle ``game`` at every step of a random game; each copy must equal
    the original and, for ``future`` steps (all when negative), play on the
    same.  Returns the number of steps."""
    actions = _actions(game, seed)
    for k, a in enumerate(actions + [None]):
        back = pickle.loads(pickle.dumps(game))
        assert type(back) is type(game)
        _same(back, game)
        ahead = game.copy()
        rest = actions[k:] if future < 0 else actions[k:k + future]
        for b in rest:
            _do(ahead, b)
            _do(back, b)
            _same(back, ahead)
        if a is not None:
            _do(game, a)
    return len(actions)


RULE_SETS = [Rules(), Rules(laizi=True), Rules(bidding="points", doubling=False, max_redeals=3),
             Rules(show_start=5, show_deal_early=4, show_deal_late=3, show_bottom=2, laizi=True)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["standard", "laizi", "points", "shows"])
def test_game_round_trips_at_every_step(rules: Rules) -> None:
    steps = 0
    for seed in range(12):
        steps += _round_trips(Game(rules, seed=seed), seed, future=-1 if seed == 0 else 4)
    assert steps > 200


def _decline_until(games: list[Game], redeals: int) -> None:
    """Every seat declines (the first legal action: no show, no call) until
    ``redeals`` redeals, in each of ``games`` alike."""
    for _ in range(200):
        if games[0].redeals >= redeals or games[0].is_terminal():
            break
        for g in games:
            g.apply(g.legal_actions()[0])
    assert games[0].redeals == redeals
    for g in games[1:]:
        _same(g, games[0])


def test_redeals_drawn_after_unpickling_are_the_originals() -> None:
    """Everybody declines: the next deal comes from the generator, whose
    state the pickle carries (a replay of the record alone would deal others)."""
    for seed in range(4):
        for rules in (Rules(), Rules(laizi=True)):
            g = Game(rules, seed=seed)
            _decline_until([g], 1)
            back = pickle.loads(pickle.dumps(g))
            _decline_until([g, back], 3)
            assert back.deals == g.deals and back.drawn_wild == g.drawn_wild


def test_given_deals_beyond_the_current_survive_pickling() -> None:
    deal = [tuple(tuple(c) for c in d) for _, d in Game(seed=1).deals + Game(seed=2).deals]
    g = Game(deal=deal, first=[0, 1])
    back = pickle.loads(pickle.dumps(g))
    _decline_until([g, back], 1)
    assert g.deals == back.deals and [d for _, d in back.deals] == [tuple(tuple(c) for c in d) for d in deal]
    # Dealt, then undone: the deal is kept for the redeal, and so is it after pickling.
    h = Game(seed=9)
    _decline_until([h], 1)
    while h.redeals:
        h.pop()
    again = pickle.loads(pickle.dumps(h))
    _decline_until([h, again], 2)
    assert again.deals == h.deals


def test_copy_then_pickle_and_deepcopy() -> None:
    g = Game(seed=3)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    assert pickle.loads(pickle.dumps(g.copy())) == g
    assert copy.deepcopy(g) == g
    assert pickle.loads(pickle.dumps([g, g]))[1] == g


def test_endgame_round_trips() -> None:
    g = Game.endgame(["3334", "55", "KKA"], 0, last="99", last_player=2, to_move=0)
    _round_trips(g, 0, future=-1)
    laizi = Game.endgame(["3337", "55", "KKA"], 0, rules=Rules(wild="7"))
    _round_trips(laizi, 1, future=-1)


def test_five_game_round_trips_at_every_step() -> None:
    steps = 0
    for seed in range(5):
        steps += _round_trips(FiveGame(seed=seed), seed, future=-1 if seed == 0 else 3)
    assert steps > 50


# -- tampering ---------------------------------------------------------------------------------

def _played(game: Any, n: int, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if game.is_terminal():
            break
        game.apply(_choose(game, rng))
    return game


def _in_play(seed: int = 0) -> Game:
    g = Game(seed=seed)
    rng = np.random.default_rng(seed)
    while g.phase.name != "PLAY":
        g.apply(_choose(g, rng))
        if g.is_terminal():
            return _in_play(seed + 1)
    return _played(g, 6, seed)  # type: ignore[no-any-return]


def _reduce(game: Any) -> Any:
    """What pickling a game calls (``__reduce__``): ``(_unpickle, args)``."""
    return game.__reduce__()


def _tampered(game: Any, change: Any) -> Any:
    fn, args = _reduce(game)
    args = copy.deepcopy(list(args))
    change(args)
    return fn(*args)


def _swap_cards(args: Any) -> None:
    """Swap a card of hand 0 with one of hand 1 whose rank differs: still a deal."""
    cards = args[0]["deals"][0]["cards"]
    h0, h1 = cards[0].split(), cards[1].split()
    i = next(i for i, c in enumerate(h0) if c[-1] != h1[0][-1])
    h0[i], h1[0] = h1[0], h0[i]
    cards[0], cards[1] = " ".join(h0), " ".join(h1)


def _other_action(args: Any) -> None:
    actions = args[0]["actions"]
    actions[-1] = actions[-1].rsplit(" ", 1)[0] + " pass" if not actions[-1].endswith("pass") else actions[-2]


def _set_rng(args: Any) -> None:
    args[1]["state"]["state"] += 1


TAMPERS = {
    "a card of the deal": _swap_cards,
    "a duplicated card": lambda a: a[0]["deals"][0]["cards"].__setitem__(
        1, a[0]["deals"][0]["cards"][0]),
    "the first caller": lambda a: a[0]["deals"][0].__setitem__("first", (a[0]["deals"][0]["first"] + 1) % 3),
    "an action dropped": lambda a: a[0]["actions"].pop(),
    "an action changed": _other_action,
    "an action garbled": lambda a: a[0]["actions"].__setitem__(-1, "0 QQQQQ|pair|Q|1"),
    "a rules field": lambda a: a[0]["rules"].__setitem__("doubling", False),
    "a move rules field": lambda a: a[0]["rules"].__setitem__("kicker_repeat", False),
    "an unknown rules field": lambda a: a[0]["rules"].__setitem__("jokers", 3),
    "the generator's state": _set_rng,
    "the generator": lambda a: a.__setitem__(1, {"bit_generator": "os.system", "state": {}}),
    "no generator": lambda a: a.__setitem__(1, None),
    "the digest": lambda a: a.__setitem__(2, "0" * 64),
    "the digest's type": lambda a: a.__setitem__(2, None),
    "the record": lambda a: a.__setitem__(0, None),
    "the format": lambda a: a[0].__setitem__("format", "ddzcore-five"),
    "the room": lambda a: a[0].__setitem__("room", {"bean": "x"}),
}


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_pickle_raises_record_error(name: str) -> None:
    g = _in_play(4)
    fn, args = _reduce(g)
    assert fn(*args) == g  # untouched, it round-trips
    with pytest.raises(RecordError):
        _tampered(g, lambda a: TAMPERS[name](a))


def test_a_tampered_five_game_pickle_raises_record_error() -> None:
    g = _played(FiveGame(seed=5), 40)

    def swap(args: Any) -> None:
        deal = args[0]["deal"]
        h0, h1 = deal[0].split(), deal[1].split()
        i = next(i for i, c in enumerate(h0) if c.rstrip("'")[-1] != h1[0].rstrip("'")[-1])
        h0[i], h1[0] = h1[0], h0[i]
        deal[0], deal[1] = " ".join(h0), " ".join(h1)

    for change in (swap, lambda a: a[0]["actions"].pop(), lambda a: a[0]["rules"].__setitem__("doubling", False),
                   lambda a: a.__setitem__(1, {"bit_generator": "PCG64"}), lambda a: a.__setitem__(2, "")):
        with pytest.raises(RecordError):
            _tampered(g, change)


def test_tampered_pickle_bytes_raise_record_error() -> None:
    """Bytes of the pickle itself changed (same length): an action's cards."""
    g = _in_play(7)
    data = pickle.dumps(g)
    texts = [t for t in _reduce(g)[1][0]["actions"] if "|" in t]
    old = texts[-1].encode()
    seat, move = old.split(b" ", 1)
    new = seat + b" " + (b"pass" + b" " * (len(move) - 4) if len(move) >= 4 else move[::-1])
    assert data.count(old) == 1
    with pytest.raises(RecordError):
        pickle.loads(data.replace(old, new))
