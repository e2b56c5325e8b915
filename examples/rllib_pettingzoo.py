"""Train one shared PPO policy for the three seats of Dou Dizhu with RLlib,
on ddzcore's PettingZoo environment through RLlib's PettingZoo wrapper.

    pip install "ddzcore[rllib]"       # ray[rllib], pettingzoo, torch
    python examples/rllib_pettingzoo.py [ITERATIONS] [ADDRESS]

ADDRESS (optional) is a Ray cluster (``ray.init(address=...)``); without
it a local Ray starts.  The play phase only (``phases="play"``), the
landlord drawn per deal, the ``compact`` encoding; the policy masks its
logits with the observation's ``action_mask`` (RLlib's action-masking
module reads the features under ``"observations"``, so a small wrapper
renames PettingZoo's ``"observation"`` key; RLlib's environment check is
off because it samples actions without the mask, which the environment
refuses with ``EnvActionError``).  Each iteration prints the episodes and
steps so far and the mean episode return summed over the seats (0: the
game is zero-sum and one policy plays every seat).
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import ray
from ddzcore.envs import pettingzoo as ddz_pettingzoo


class RLlibKeys(BaseWrapper):  # type: ignore[misc]
    """PettingZoo's {"observation", "action_mask"} as RLlib's {"observations", "action_mask"}."""

    def observation_space(self, agent: str) -> Any:
        space = self.env.observation_space(agent)
        return gymnasium.spaces.Dict({"observations": space["observation"], "action_mask": space["action_mask"]})

    def observe(self, agent: str) -> Any:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"]}


def make_env(_config: Any) -> PettingZooEnv:
    return PettingZooEnv(RLlibKeys(ddz_pettingzoo.env(phases="play")))


def main(iterations: int = 2, address: str | None = None) -> None:
    ray.init(address=address, include_dashboard=False, **({} if address else {"num_cpus": 2}))
    register_env("ddz", make_env)
    config = (
        PPOConfig()
        .environment("ddz", disable_env_checking=True)  # its check samples actions without the mask
        .env_runners(num_env_runners=0)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, *args, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [64]}),
        }))
        .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=1)
    )
    algo = config.build_algo()
    try:
        for i in range(iterations):
            result = algo.train()
            runners = result["env_runners"]
            print(f"iteration {i + 1}: {runners['num_episodes_lifetime']} episodes, "
                  f"{runners['num_env_steps_sampled_lifetime']} steps, "
                  f"mean return {runners['episode_return_mean']:.3f}")
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2, sys.argv[2] if len(sys.argv) > 2 else None)
