"""Environments for learning code (issue 15): one game behind the standard
interfaces, each framework an optional extra.

- ``ddzcore.envs.table``: the framework-free core (``Table``: deals, action
  ids, the ``compact`` / ``douzero`` / ``rlcard`` encodings, rewards).
- ``ddzcore.envs.pettingzoo``: the PettingZoo AEC (and parallel) environment,
  ``pip install "ddzcore[pettingzoo]"``.
- ``ddzcore.envs.gymnasium``: one learning seat against bots, a Gymnasium
  ``Env``, ``pip install "ddzcore[gymnasium]"``.
- ``ddzcore.distributed``: simulate, the arena and self-play shards across
  Ray, ``pip install "ddzcore[ray]"``.

The framework modules are imported on demand; this package needs none of them.
"""

from __future__ import annotations

from .table import ENCODINGS, EnvActionError, Table, compact_size

__all__ = ["Table", "EnvActionError", "ENCODINGS", "compact_size"]
