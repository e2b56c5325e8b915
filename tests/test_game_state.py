"""Hypothesis state machine over whole games (docs/rules.md §3-6): card
conservation, push/pop restores the state, copies are independent, illegal
actions change nothing, observations hide what they must, and settlements
conserve beans apart from the rake."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

from ddzcore import (
    PASS, Action, Card, Game, Hand, IllegalActionError, Move, Phase, Room, Rules, classify,
)

FULL_DECK = Hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR").word

VARIANTS = [
    Rules(),
    Rules(bidding="points"),
    Rules(show_combine="product", rob_back=False, max_redeals=1),
    Rules.preset("openspiel", bidding="points", show_start=0, show_deal_early=0, show_deal_late=0, show_bottom=0,
                 doubling=False, max_redeals=0),
    Rules.preset("rlcard", show_deal_early=0, doubling=False),
]

# a few concrete cards of one deck
cards_st = st.lists(st.integers(0, 53), min_size=1, max_size=8, unique=True)


class GameMachine(RuleBasedStateMachine):
    """One game, driven by random legal actions, escapes, undos and copies."""

    @initialize(seed=st.integers(0, 2**32 - 1), variant=st.integers(0, len(VARIANTS) - 1),
                room=st.one_of(st.none(), st.builds(Room, coefficient=st.integers(1, 1000), rake=st.integers(0, 60),
                                                    initial_multiplier=st.integers(1, 4),
                                                    double_threshold=st.integers(0, 3000),
                                                    winner_cap=st.booleans())),
                beans=st.one_of(st.none(), st.lists(st.integers(0, 50_000), min_size=3, max_size=3)))
    def start(self, seed: int, variant: int, room: "Room | None", beans: "list[int] | None") -> None:
        self.game = Game(VARIANTS[variant], seed=seed, room=room, beans=beans)
        self.snapshots = [self.game.copy()]

    def _push_snapshot(self) -> None:
        self.snapshots.append(self.game.copy())

    @precondition(lambda self: not self.game.is_terminal())
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = list(self.game.legal_actions())
        assert legal  # never empty before the end
        self.game.apply(data.draw(st.sampled_from(legal)))
        self._push_snapshot()

    @precondition(lambda self: not self.game.is_terminal())
    @rule(seed=st.integers(0, 10_000), steps=st.integers(1, 80))
    def play_on(self, seed: int, steps: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            if self.game.is_terminal():
                break
            legal = self.game.legal_actions()
            self.game.push(legal[rng.randrange(len(legal))])  # the unchecked path
            self._push_snapshot()

    @precondition(lambda self: not self.game.is_terminal())
    @rule(seat=st.integers(0, 2))
    def escape(self, seat: int) -> None:
        self.game.escape(seat)
        self._push_snapshot()

    @precondition(lambda self: len(self.game.history) > 0)
    @rule(n=st.integers(1, 10))
    def pop(self, n: int) -> None:
        for _ in range(min(n, len(self.game.history))):
            self.game.pop()
            self.snapshots.pop()
            assert self.game == self.snapshots[-1]

    @rule(cards=cards_st, data=st.data())
    def illegal_actions_change_nothing(self, cards: list[int], data: st.DataObject) -> None:
        g = self.game
        legal = list(g.legal_actions())
        candidates: list = [a for a in Action if a not in legal] + [PASS]
        candidates += classify(Hand([Card(c).rank for c in cards]))
        candidates = [c for c in candidates if c not in legal]
        if not candidates:
            return
        bad = data.draw(st.sampled_from(candidates))
        try:
            g.apply(bad)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{bad} was accepted but is not among {legal}")
        assert g == self.snapshots[-1]

    @precondition(lambda self: not self.game.is_terminal())
    @rule(seed=st.integers(0, 1000))
    def copies_are_independent(self, seed: int) -> None:
        c = self.game.copy()
        rng = random.Random(seed)
        for _ in range(5):
            if c.is_terminal():
                break
            legal = c.legal_actions()
            c.apply(legal[rng.randrange(len(legal))])
        if not c.is_terminal():
            c.escape(rng.randrange(3))
        assert self.game == self.snapshots[-1]

    # -- invariants ----------------------------------------------------------------------
    @invariant()
    def cards_are_conserved(self) -> None:
        g = self.game
        played = sum(a.codes[0] for _, a in g.observation(0).history if isinstance(a, Move))
        hidden_bottom = g.bottom.word if g.landlord is None else 0
        assert sum(h.word for h in g.hands) + played + hidden_bottom == FULL_DECK
        by_seat = [0, 0, 0]
        for p, a in g.observation(0).history:
            if isinstance(a, Move):
                by_seat[p] += len(a.cards)
        for seat in range(3):
            assert len(g.hand(seat)) + by_seat[seat] == 17 + 3 * (seat == g.landlord)

    @invariant()
    def observations_are_consistent(self) -> None:
        g = self.game
        for seat in range(3):
            o = g.observation(seat)
            assert o.current_player == g.current_player() and o.phase == g.phase
            if g.phase not in (Phase.SHOW_START, Phase.SHOW_EARLY):
                assert o.hand == g.hand(seat) and sum(o.card_counts) == sum(len(h) for h in g.hands)
                assert set(o.shown) == {q for q in range(3) if q != seat and g.shows[q]}
                for q, h in o.shown.items():
                    assert h == g.hand(q)
            assert (o.bottom is None) == (g.landlord is None)
            assert bool(o.legal_actions) == (seat == g.current_player())

    @invariant()
    def settlements_conserve_beans(self) -> None:
        g = self.game
        if not g.is_terminal():
            assert g.returns() == [0, 0, 0]
            return
        s = g.settlement()
        assert sum(s.points) == 0 and sum(s.transfers) == 0
        assert sum(s.net) == -sum(s.rake)
        rake = g.room.rake if g.room else 0
        assert all(0 <= r <= rake for r in s.rake)
        if g.beans is not None:
            assert all(b + n >= 0 for b, n in zip(g.beans, s.net))
        if s.landlord is not None and s.escaped is None:
            assert s.winners == ((g.landlord,) if g.winner == g.landlord else
                                 tuple(sorted({0, 1, 2} - {g.landlord})))
            assert s.multiplier.total == g.multiplier().total >= 1


GameMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_game_state_machine = GameMachine.TestCase


@pytest.mark.slow
def test_game_state_machine_long() -> None:
    run_state_machine_as_test(GameMachine, settings=settings(
        max_examples=3000, stateful_step_count=80, deadline=None, suppress_health_check=list(HealthCheck)))
