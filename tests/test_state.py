"""The native play state (ddzcore.search.PlayState): API, make/unmake, and
differential checks of its legal moves against ``ddzcore.legal_moves`` and
the independent reference generator over seeded random playouts (docs/rules.md §3)."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import ddzcore
from conftest import ref_rules
from ddzcore import (
    MOVE_DTYPE,
    Hand,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Move,
    PlayState,
    Rules,
    legal_moves,
)
from ddzcore.errors import InvalidDealError
from ddzcore.search import MAX_MOVES_HINT, STATE_BYTES, UNDO_BYTES
from reference import ref_legal

DECK = Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR")
PRESETS = ["standard", "rlcard", "openspiel"]
LAIZI = [Rules(wild="7"), Rules(wild="3"), Rules.preset("rlcard", wild="2")]


def ref_tuple(m: Move) -> tuple:
    cards, combo, main, length = str(m).split("|")
    return (cards, combo, main, int(length))


def random_playout(state: PlayState, rng: random.Random, check=None) -> list[Move]:
    """Play random legal moves to the end, calling check(state) before each."""
    played = []
    while not state.is_over:
        if check is not None:
            check(state)
        moves = state.legal_moves()
        m = moves[rng.randrange(len(moves))]
        state.push(m)
        played.append(m)
    return played


# ---------------------------------------------------------------- construction

def test_deal_is_one_deck_and_deterministic():
    s = PlayState.deal(12345, landlord=1)
    h = s.hands
    assert [len(x) for x in h] == [17, 20, 17]
    assert h[0] + h[1] + h[2] <= DECK and len(h[0] + h[1] + h[2]) == 54
    assert PlayState.deal(12345, landlord=1) == s
    assert PlayState.deal(12346, landlord=1) != s
    assert (s.turn, s.landlord, s.owner, s.last, s.passes, s.ply) == (1, 1, -1, None, 0, 0)
    assert not s.is_over and s.winner is None and s.landlord_won is None


def test_sizes():
    assert STATE_BYTES == 72
    assert UNDO_BYTES == 40
    assert MAX_MOVES_HINT >= 521


def test_constructor_defaults_and_follow_position():
    s = PlayState(["33", "44", "55"], landlord=2, turn=0, last="22", owner=1)
    assert s.last == Move("22") and s.owner == 1 and s.passes == 1
    assert [str(m) for m in s.legal_moves()] == ["|pass||0"]
    s2 = PlayState(["33", "44", "55"], landlord=2, turn=0, last="2")
    assert s2.owner == 2 and s2.passes == 0
    s3 = PlayState([Hand("34"), "5", 0x1], turn=1, owner=1)     # a free lead after a trick
    assert s3.passes == 2 and s3.last is None


@pytest.mark.parametrize("kwargs, error", [
    (dict(hands=["33", "44"]), ValueError),
    (dict(hands="334455"), ValueError),
    (dict(hands=["33X", "44", "55"]), InvalidCardsError),
    (dict(hands=["3333", "3", "55"]), InvalidDealError),
    (dict(hands=["33", "33", "3"]), InvalidDealError),
    (dict(hands=["BR", "B", "5"]), InvalidDealError),
    (dict(hands=["33", "44", "55"], last="333"), InvalidDealError),  # five 3s with the last move
    (dict(hands=["33", "", "55"]), InvalidDealError),
    (dict(hands=["33", "44", "55"], landlord=3), ValueError),
    (dict(hands=["33", "44", "55"], turn=-1), ValueError),
    (dict(hands=["33", "44", "55"], last="66", owner=0), ValueError),  # owner is the seat to move
    (dict(hands=["33", "44", "55"], owner=1), ValueError),             # free lead, owner != turn
    (dict(hands=["33", "44", "55"], last="3344"), InvalidMoveError),
    (dict(hands=["33", "44", "55"], rules=Rules(decks=2)), ValueError),
    (dict(hands=["33", "44", "55"], bombs=-1), ValueError),
])
def test_constructor_errors(kwargs, error):
    with pytest.raises(error):
        PlayState(**kwargs)


def test_over_position_and_spring_flags():
    # The landlord (seat 0) goes out on the opening lead: spring, once.
    s = PlayState(["33344455566677789TJQ", "3456KKKK88", "7AAAA2BR"])
    plane = "33344455566677789TJQ|plane_single|7|5"
    s.push(plane)
    assert s.is_over and s.winner == 0 and s.landlord_won
    assert s.spring and not s.anti_spring and s.multiplier == 2
    assert s.legal_moves().count() == 0 and s.count_moves() == 0
    with pytest.raises(IllegalMoveError):
        s.push("pass")
    assert s.pop() == Move(plane) and not s.is_over


def test_anti_spring():
    # Landlord leads once and never plays again; a farmer goes out (flow.md FL-01).
    s = PlayState(["3456", "789", "TJQ"], landlord=0)
    s.push("3")
    s.push("7")
    s.push("T")
    s.push("pass")
    s.push("pass")              # seat 2 leads again
    assert s.passes == 2 and s.last is None and s.turn == 2
    s.push("J")
    s.push("pass")              # the landlord passes
    s.push("pass")
    s.push("Q")                 # seat 2 is out
    assert s.is_over and s.winner == 2 and not s.landlord_won
    assert s.anti_spring and not s.spring and s.multiplier == 2
    assert (s.landlord_plays, s.farmer_plays, s.bombs, s.ply) == (1, 4, 0, 9)


def test_bombs_and_rocket():
    s = PlayState(["3333BR5", "44446", "7"], landlord=0)
    s.push("3333")
    assert s.bombs == 1
    s.push("4444")
    s.push("pass")
    s.push("BR")
    assert s.bombs == 3 and s.owner == 0
    assert [str(m) for m in s.legal_moves()] == ["|pass||0"]      # nothing answers the rocket
    with pytest.raises(IllegalMoveError):
        s.push("7")
    s.push("pass")
    s.push("pass")
    s.push("5")
    assert s.is_over and s.multiplier == 8 and not s.spring
    for _ in range(7):
        s.pop()
    assert s == PlayState(["3333BR5", "44446", "7"], landlord=0)


def test_illegal_pushes_leave_state_unchanged():
    s = PlayState(["3456TTT", "789JJ", "QKA2B"])
    before = s.copy()
    for bad, error in [("pass", IllegalMoveError), ("3333", IllegalMoveError), ("R", IllegalMoveError),
                       ("33X", InvalidMoveError), (42, InvalidMoveError)]:
        with pytest.raises(error):
            s.push(bad)
        assert s == before
    s.push("5")
    for bad in ("4", "T", "99", "JJ"):     # lower, not held, not held, wrong type
        with pytest.raises(IllegalMoveError):
            s.push(bad)
    with pytest.raises(InvalidMoveError):
        s.push_codes(-1, 0)
    with pytest.raises(InvalidMoveError):
        s.push_codes(0x3, 0)          # not a valid record
    s.pop()
    assert s == before
    with pytest.raises(IndexError):
        s.pop()
    with pytest.raises(IndexError):
        s.push_index(s.count_moves())


def test_codes_interface():
    s = PlayState.deal(7)
    buf = np.zeros(MAX_MOVES_HINT, MOVE_DTYPE)
    n = s.legal_moves_into(buf)
    assert np.array_equal(buf[:n], s.legal_moves().codes)
    small = np.zeros(3, MOVE_DTYPE)
    assert s.legal_moves_into(small) == n and np.array_equal(small, buf[:3])
    for bad in (np.zeros(4, np.uint64), np.zeros((2, 2), MOVE_DTYPE), buf[::2]):
        with pytest.raises(ValueError):
            s.legal_moves_into(bad)
    with pytest.raises(ValueError):  # InvalidArgumentError, typed like every bad argument
        s.legal_moves_into([1, 2])
    t = s.copy()
    s.push_codes(int(buf["cards"][5]), int(buf["info"][5]))
    t.push_index(5)
    u = PlayState.deal(7)
    u.push_codes(buf["cards"][5], buf["info"][5])       # NumPy integers are fine
    assert s == t == u
    assert s.move_stack == [s.pop()] == [Move._from_codes(int(buf["cards"][5]), int(buf["info"][5]))]


def test_copy_pickle_independent():
    s = PlayState.deal(11)
    s.push_index(3)
    c = s.copy()
    d = copy.deepcopy(s)
    p = pickle.loads(pickle.dumps(s))
    assert c == d == p == s and p.move_stack == s.move_stack
    c.push_index(0)
    assert c != s and d == s
    assert p.pop() == s.move_stack[-1] and p == PlayState.deal(11)
    bare = s.copy(stack=False)
    with pytest.raises(IndexError):
        bare.pop()
    with pytest.raises(TypeError):
        hash(s)
    assert "PlayState(hands=" in repr(s)


def test_perft_small_by_hand():
    # Seat 0 holds 3 and 4, the others one card each; count sequences by hand.
    s = PlayState(["34", "5", "6"])
    # depth 1: 3 or 4.  depth 2: then seat 1 passes or plays 5.  depth 3:
    # after a 5 seat 1 is out (nothing below); after a pass seat 2 passes or
    # plays 6.  depth 4: after x-pass-6 seat 2 is out; after x-pass-pass
    # seat 0 leads its last card and is out.
    assert [s.perft(d) for d in range(6)] == [1, 2, 4, 4, 2, 0]
    d = s.perft_divide(2)
    assert {str(m): n for m, n in d.items()} == {"3|single|3|1": 2, "4|single|4|1": 2}
    with pytest.raises(ValueError):
        s.perft(-1)
    assert ddzcore.perft(s, 2) == 4
    with pytest.raises(ValueError):
        ddzcore.perft("34", 1)


# ---------------------------------------------------------------- differential

@pytest.mark.parametrize("rules", LAIZI, ids=lambda r: f"wild{r.wild}")
def test_laizi_playouts_match_legal_moves(rules):
    """Laizi (docs/rules.md §7): the state plays with wild cards too; soft and wild
    bombs count as bombs."""
    rng = random.Random(99)
    bombs = 0
    for g in range(150):
        s = PlayState.deal(rng.getrandbits(64), landlord=g % 3, rules=rules)
        start = s.copy()
        played = random_playout(s, rng, _check_against_api)
        bombs += s.bombs
        assert s.bombs == sum(m.is_bomb for m in played)
        for _ in played:
            s.pop()
        assert s == start
    assert bombs > 0


def _check_against_api(state: PlayState) -> None:
    hand = state.hands[state.turn]
    want = legal_moves(hand, state.last, state.rules).codes
    got = state.legal_moves().codes
    assert np.array_equal(got, want), (state, hand, state.last)
    assert state.count_moves() == len(want)


@pytest.mark.parametrize("preset", PRESETS)
def test_playouts_match_legal_moves_and_undo(preset):
    """1000 seeded random games per preset: at every ply the native state's
    moves equal legal_moves(hand, last); push then pop restores the state;
    popping the whole game returns to the deal."""
    rules = Rules.preset(preset)
    rng = random.Random(20240)
    for g in range(1000):
        start = PlayState.deal(rng.getrandbits(64), landlord=g % 3, rules=rules)
        s = start.copy()

        def check(st):
            _check_against_api(st)
            if rng.random() < 0.2:
                before = st.copy(stack=False)
                st.push_index(rng.randrange(st.count_moves()))
                st.pop()
                assert st == before

        played = random_playout(s, rng, check)
        assert s.move_stack == played
        assert s.ply == len(played)
        for _ in played:
            s.pop()
        assert s == start


def test_playouts_match_reference():
    """A subset against the independent reference generator: every follow,
    and leads of at most 12 cards (larger leads are slow for the reference;
    the slow sweep does them all)."""
    _reference_sweep(games=40, max_lead=12)


@pytest.mark.slow
def test_playouts_match_reference_full():
    _reference_sweep(games=300, max_lead=20)


def _reference_sweep(games: int, max_lead: int) -> None:
    rng = random.Random(777)
    for rules in [Rules.preset(p) for p in PRESETS] + LAIZI[:1]:
        rr = ref_rules(rules)
        for _ in range(games // 4):
            s = PlayState.deal(rng.getrandbits(64), landlord=rng.randrange(3), rules=rules)

            def check(st):
                hand = st.hands[st.turn]
                if st.last is None and len(hand) > max_lead:
                    return
                want = ref_legal(str(hand), None if st.last is None else ref_tuple(st.last), rr)
                got = [ref_tuple(m) for m in st.legal_moves()]
                assert len(got) == len(set(got))
                assert set(got) == want, (st, set(got) ^ want)

            random_playout(s, rng, check)
