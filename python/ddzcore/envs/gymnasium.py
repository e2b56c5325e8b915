"""One learning seat against bots, as a Gymnasium environment
(``pip install "ddzcore[gymnasium]"``).

``SeatEnv(opponents=("rule", "rule"), seat=0, **options)``: the learner
plays ``seat``; every other seat is played by a bot until the learner is to
act again.  Options are ``Table``'s (``ddzcore.envs.table``: rules,
players, phases, landlord, encoding, reward, room, beans, actions,
max_legal, on_illegal).  The action space is ``Discrete(n_actions)`` (the
table's ids); the observation is the encoding's array; ``info["action_mask"]``
(int8, shape ``(n_actions,)``) marks the legal ids.  The reward is the
learner's points or beans when the game ends, 0 before.

An opponent is a name (``"random"``, ``"rule"``, ``"search"``: ``RandomBot``,
``RuleBot``, ``SearchBot``, seeded from the environment's seed), a ``Bot``
(its ``new_game`` is called at each reset) or any callable taking the
seat's ``Observation`` and returning a legal action (``Action`` or ``Move``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

import gymnasium
import numpy as np

from ..tools.arena import make_bot
from ..tools.bots import Bot
from ..errors import InvalidArgumentError
from .table import Table

__all__ = ["SeatEnv"]

Opponent = Union[str, Bot, Callable[[Any], Any]]


class SeatEnv(gymnasium.Env):  # type: ignore[misc]
    """See the module docstring.  ``step`` raises ``EnvActionError`` for an
    action that is not an integer id set in ``info["action_mask"]`` (with
    ``on_illegal="raise"``, the default; nothing changes then), and
    ``IllegalActionError`` if a bot plays an illegal action.  Raises
    ``InvalidArgumentError`` for a bad seat or opponent list."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents: Sequence[Opponent] = ("rule", "rule"), seat: int = 0,
                 render_mode: Optional[str] = None, **options: Any) -> None:
        self.table = Table(**options)
        n = self.table.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise InvalidArgumentError(f"seat must be a seat 0..{n - 1}, not {seat!r}")
        if len(opponents) != n - 1:
            raise InvalidArgumentError(f"{n} players need {n - 1} opponents, not {len(opponents)}")
        for o in opponents:
            if not (isinstance(o, (str, Bot)) or callable(o)):
                raise InvalidArgumentError(f"an opponent is a bot name, a Bot or a callable, not {o!r}")
        self.seat = seat
        self.opponents = list(opponents)
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0, self.table.obs_high, (self.table.obs_size,), self.table.obs_dtype)
        self.action_space = gymnasium.spaces.Discrete(self.table.n_actions)
        self._bots: dict[int, Any] = {}

    def _others(self) -> list[int]:
        return [s for s in range(self.table.players) if s != self.seat]

    def _new_bots(self) -> None:
        self._bots = {}
        for s, o in zip(self._others(), self.opponents):
            if isinstance(o, str):
                o = make_bot(o, int(self.np_random.integers(2 ** 31)))
            if isinstance(o, Bot):
                o.new_game(s, self.table.game.rules)
                self._bots[s] = o.act
            else:
                self._bots[s] = o

    def _play_bots(self) -> None:
        g = self.table.game
        while not g.is_terminal() and g.current_player() != self.seat:
            p = g.current_player()
            self.table.apply_action(self._bots[p](g.observation(p)))

    def _out(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self.table.encode(self.seat), {"action_mask": self.table.mask(self.seat)}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal until the learner is to act (a deal the bots finish first is
        dealt again) and return ``(observation, info)``."""
        super().reset(seed=seed)
        while True:
            self.table.new_game(self.np_random)
            self._new_bots()
            self._play_bots()
            if not self.table.game.is_terminal():
                return self._out()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        illegal = self.table.play(action, type(self).__name__, f"seat {self.seat}", self.np_random)
        self._play_bots()
        obs, info = self._out()
        if illegal:
            info["illegal"] = True
        done = self.table.game.is_terminal()
        return obs, self.table.rewards()[self.seat] if done else 0.0, done, False, info

    def render(self) -> Optional[str]:
        """The table as text (``render_mode="ansi"``)."""
        return str(self.table.game) if self.render_mode == "ansi" else None
