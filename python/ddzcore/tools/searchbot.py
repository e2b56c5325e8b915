"""``SearchBot``: determinized search over sampled deals (docs/rules.md §3-§6).

At each play decision the bot deals the cards it cannot see at random,
consistently with what it knows (``ddzcore.sampling``: a "world" each),
plays every candidate move in every world and the game on from there with
the native rule policy (or, when at most ``evaluate.SOLVER_CARDS`` cards
remain, the exact solver ``ddzcore.solve``, world by world while the time
budget lasts), and plays the move its side wins most
often.  Worlds come in batches until the sample budget is spent or the time
budget runs out.  Calling (叫地主), robbing (抢地主), point bids (叫分) and
doubling (加倍) compare ``win_probability`` of its hand with thresholds.
Five-player and laizi games are played by ``RuleBot``'s rules.
"""

from __future__ import annotations

import time
from typing import Optional, Sequence, cast

import numpy as np

from .. import _eval
from .bots import AnyAction, AnyObservation, Bot, RuleBot, highest_bid
from ..evaluate import _check_rules, _play_state, move_values, win_probability
from ..game.five import FiveObservation
from ..game.three import Action, Observation, Phase
from ..moves import Move
from ..rules import Rules
from ..sampling import sample_deals
from ..errors import InvalidArgumentError

__all__ = ["SearchBot"]


class SearchBot(Bot):
    """Determinized search with a per-decision budget.

    - ``samples``: sampled worlds per play decision at most (deterministic
      for a seed when the time budget is not reached);
    - ``time_budget``: seconds per decision (``None``: no limit); worlds are
      added in batches of ``batch`` while time remains;
    - ``candidates``: the moves searched when there are more legal moves:
      those leaving the fewest plays (greedy count), plus the rule policy's
      choice and pass;
    - ``bid_playouts``: playouts of the calling estimates; ``call_at``,
      ``rob_at``, ``double_at``: win probabilities to call, rob (and bid 1-3:
      ``call_at``, ``rob_at``, ``rob_at + 0.1``), double; ``show_at``: to show.
    - ``seed``: makes every decision reproducible.
    """

    name = "search"

    def __init__(self, seed: Optional[int] = None, *, samples: int = 160, time_budget: Optional[float] = 0.09,
                 batch: int = 40, candidates: int = 12, bid_playouts: int = 400, call_at: float = 0.5,
                 rob_at: float = 0.58, double_at: float = 0.62, show_at: float = 0.9) -> None:
        if samples < 1 or batch < 1 or candidates < 1 or bid_playouts < 1:
            raise InvalidArgumentError("samples, batch, candidates and bid_playouts must be >= 1")
        self.seed = 0 if seed is None else int(seed)
        self.samples, self.time_budget, self.batch, self.candidates = samples, time_budget, batch, candidates
        self.bid_playouts = bid_playouts
        self.call_at, self.rob_at, self.double_at, self.show_at = call_at, rob_at, double_at, show_at
        self._rule = RuleBot()
        self._calls = 0
        self._rules = Rules()

    def new_game(self, seat: int, rules: Rules) -> None:
        self._rules = rules

    def _next_seed(self) -> int:
        self._calls += 1
        x = (self.seed * 0x9E3779B97F4A7C15 + self._calls * 0xD1B54A32D192ED03) % (1 << 64)
        return x

    def act(self, obs: AnyObservation) -> AnyAction:
        """The searched move in play; the estimate-based choice when calling, bidding or doubling."""
        if isinstance(obs, FiveObservation) or obs.wild is not None or self._rules.decks != 1:
            return self._rule.act(obs)
        if obs.phase == Phase.PLAY:
            return self._play(obs, cast(Sequence[Move], obs.legal_actions))
        return self._flow(obs)

    # -- calling, bidding, doubling ------------------------------------------------
    def _flow(self, obs: Observation) -> AnyAction:
        legal = obs.legal_actions
        ph = obs.phase
        if ph in (Phase.SHOW_START, Phase.SHOW_EARLY):
            return Action.NO_SHOW
        if len(obs.hand) not in (17, 20):
            return self._rule.act(obs)
        me_landlord = obs.landlord == obs.player
        role = "farmer" if obs.landlord is not None and not me_landlord else "landlord"
        p = win_probability(obs.hand, role, playouts=self.bid_playouts, policy="rule", seed=self._next_seed(),
                            rules=_check_rules(self._rules.replace(wild=None))).p
        if ph in (Phase.SHOW_LATE, Phase.SHOW_BOTTOM):
            return Action.SHOW if p >= self.show_at and Action.SHOW in legal else Action.NO_SHOW
        if ph == Phase.CALL:
            return Action.CALL if p >= self.call_at else Action.NO_CALL
        if ph == Phase.ROB:
            return Action.ROB if p >= self.rob_at else Action.NO_ROB
        if ph == Phase.BID:
            return highest_bid(legal, 3 if p >= self.rob_at + 0.1 else 2 if p >= self.rob_at
                               else 1 if p >= self.call_at else 0)
        if ph == Phase.DOUBLE:
            return Action.DOUBLE if p >= self.double_at and Action.DOUBLE in legal else Action.NO_DOUBLE
        return self._rule.act(obs)

    # -- play --------------------------------------------------------------------------
    def _candidates(self, obs: AnyObservation, moves: list[Move]) -> list[Move]:
        if len(moves) <= self.candidates:
            return moves
        flags = self._rules.flags
        hand = obs.hand.word
        left = [(0 if m.is_pass else 1) + _eval._greedy_plays(hand - m.codes[0], flags) for m in moves]
        order = sorted(range(len(moves)), key=lambda i: left[i])[: self.candidates]
        keep = set(order)
        rule = self._rule.act(obs)
        keep.update(i for i, m in enumerate(moves) if m == rule or m.is_pass)
        return [moves[i] for i in sorted(keep)]

    def _play(self, obs: AnyObservation, legal: Sequence[Move]) -> Move:
        moves = list(legal)
        if len(moves) == 1:
            return moves[0]
        for m in moves:
            if m.codes[0] == obs.hand.word:
                return m  # goes out
        assert not isinstance(obs, FiveObservation)
        cands = self._candidates(obs, moves)
        rules = _check_rules(self._rules.replace(wild=None))
        seed = self._next_seed()
        start = time.perf_counter()
        rows = sample_deals(obs, self.samples, seed)
        state = _play_state(obs, rows[0], rules)
        total = np.zeros(len(cands))
        done = 0
        while done < self.samples:
            n = min(self.batch, self.samples - done)
            deadline = None if self.time_budget is None else start + self.time_budget
            total += move_values(state, rows[done:done + n], cands, "rule", (seed + done) % (1 << 64), deadline) * n
            done += n
            elapsed = time.perf_counter() - start
            if self.time_budget is not None and elapsed * (done + self.batch) / done > self.time_budget:
                break
        return cands[int(np.argmax(total))]
