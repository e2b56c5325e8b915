"""Dou Dizhu as a PettingZoo AEC environment (``pip install "ddzcore[pettingzoo]"``).

``env(**options)`` is ``raw_env`` inside PettingZoo's order-enforcing
wrapper; ``parallel_env(**options)`` the same game through the parallel
API.  Agents are ``player_0`` .. ``player_2`` (``player_4`` with
``players=5``), the seats of docs/rules.md §3 and §8.  Options are
``Table``'s (``ddzcore.envs.table``: rules, players, phases, landlord,
encoding, reward, room, beans, actions, max_legal, on_illegal) plus:

- ``max_cycles``: truncate the game after ``max_cycles × players``
  actions (``None``: never; a game ends by itself).
- ``on_illegal``: ``"raise"`` (default): an action that is not an integer
  id set in the mask raises ``EnvActionError`` (``ddzcore.errors``) naming
  the environment, the agent and the action, and nothing changes;
  ``"random"``: it is replaced by a uniformly random legal action drawn
  from the seeded ``np_random`` and ``infos[agent]["illegal"]`` is set
  (for checkers that sample unmasked actions, such as ``max_cycles_test``).
- ``render_mode``: ``None`` or ``"ansi"`` (``render()`` returns the table as text).

Each observation is ``{"observation": array, "action_mask": int8 array}``;
the mask is all zeros for agents not to act.  Rewards come once, when the
game ends: points or beans per seat (``reward``).
"""

from __future__ import annotations

import functools
from typing import Any, Optional

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .table import EnvActionError, Table

__all__ = ["env", "raw_env", "parallel_env", "EnvActionError"]


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring).  Raises
    ``InvalidArgumentError`` / ``InvalidRulesError`` for bad options."""

    metadata = {"name": "ddzcore_doudizhu_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, *, max_cycles: Optional[int] = None, render_mode: Optional[str] = None,
                 **options: Any) -> None:
        super().__init__()
        self.table = Table(**options)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        obs = gymnasium.spaces.Box(0, self.table.obs_high, (self.table.obs_size,), self.table.obs_dtype)
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": obs, "action_mask": gymnasium.spaces.Box(0, 1, (self.table.n_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.table.n_actions) for a in self.possible_agents}
        self.np_random = np.random.default_rng()
        self._actions_taken = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """Deal a new game (``seed``: the deal, first caller, landlord, wild rank)."""
        if seed is not None or not hasattr(self, "_seeded"):
            self.np_random = np.random.default_rng(seed)
            self._seeded = True
        self.table.new_game(self.np_random)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions_taken = 0
        self.agent_selection = self.possible_agents[self.table.game.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.table.encode(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: Any) -> None:
        """Play ``action`` (an id set in the mask) for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        info = {"illegal": True} if self.table.play(action, str(self.metadata["name"]), agent, self.np_random) else {}
        self._actions_taken += 1
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = info
        game = self.table.game
        if game.is_terminal():
            self.rewards = dict(zip(self.possible_agents, self.table.rewards()))
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            if self.max_cycles is not None and self._actions_taken >= self.max_cycles * self.table.players:
                self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if not game.is_terminal() and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[game.current_player()]
        else:
            self.agent_selection = self.possible_agents[(self.possible_agents.index(agent) + 1) % len(self.agents)]

    def render(self) -> Optional[str]:
        """The table as text (``render_mode="ansi"``); ``None`` otherwise."""
        return str(self.table.game) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def env(**options: Any) -> Any:
    """``raw_env(**options)`` inside PettingZoo's ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


class _Parallel(ParallelEnv):  # type: ignore[misc]
    """The same game through PettingZoo's parallel API: ``step(actions)``
    plays, in turn order from the current player, the action of each live
    agent until one would act a second time in this step (one action per
    seat and step: a cycle in play); the actions of agents not to act are
    ignored."""

    def __init__(self, **options: Any) -> None:
        self.aec = raw_env(**options)
        self.metadata = self.aec.metadata
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> Any:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        return self.aec.action_space(agent)

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed, options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, Any]]:
        aec, acted = self.aec, set()
        rewards = {a: 0.0 for a in self.agents}
        while aec.agents and aec.agent_selection not in acted and not (
                aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            agent = aec.agent_selection
            acted.add(agent)
            aec.step(actions[agent])
            for a, r in aec.rewards.items():
                rewards[a] += r
        obs = {a: aec.observe(a) for a in self.agents}
        terms, truncs = dict(aec.terminations), dict(aec.truncations)
        infos = {a: dict(aec.infos.get(a, {})) for a in self.agents}
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos

    def render(self) -> Optional[str]:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(**options: Any) -> Any:
    """The parallel-API environment (see ``_Parallel``)."""
    return _Parallel(**options)
