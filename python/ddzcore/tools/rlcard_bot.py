"""RLCard's rule agent (``rlcard.models``' ``DouDizhuRuleAgentV1``) as a ddzcore ``Bot``.

For comparing bots with a peer's baseline in the arena (``ddz arena --bots
search,rlcard --rules rlcard``).  RLCard has no calling: in the other phases
the bot plays as ``RuleBot``.  Needs the optional ``rlcard`` package
(``pip install rlcard``); its random fallback is seeded by ``seed``.
Play follows RLCard's move set (``Rules.preset("rlcard")``, docs/rules.md §2):
the agent answers with card text, matched against the legal moves.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, cast

import numpy as np

from .bots import AnyAction, AnyObservation, Bot, RuleBot
from ..game.three import Phase
from ..moves import Move

__all__ = ["RLCardRuleBot"]


class RLCardRuleBot(Bot):
    """RLCard 1.x's ``DouDizhuRuleAgentV1`` in play, ``RuleBot`` elsewhere.

    Raises ``ImportError`` (naming the package) when rlcard is missing."""

    name = "rlcard"

    def __init__(self, seed: Optional[int] = None) -> None:
        try:
            from rlcard.models.doudizhu_rule_models import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
                DouDizhuRuleAgentV1,
            )
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(f"the rlcard bot needs RLCard: pip install rlcard ({e})") from None
        self._agent: Any = DouDizhuRuleAgentV1()
        self._seed = 0 if seed is None else int(seed)
        self._rule = RuleBot()

    def act(self, obs: AnyObservation) -> AnyAction:
        """RLCard's choice in play (matched by card text), ``RuleBot``'s otherwise."""
        if obs.phase != Phase.PLAY or obs.landlord is None:  # type: ignore[union-attr]
            return self._rule.act(obs)
        legal = list(cast(Sequence[Move], obs.legal_actions))
        texts = [str(m.cards) or "pass" for m in legal]
        raw: dict[str, Any] = {
            "trace": [(s, str(a.cards) or "pass") for s, a in obs.history if isinstance(a, Move)],
            "current_hand": str(obs.hand),
            "actions": texts,
            "landlord": obs.landlord,  # type: ignore[union-attr]
            "self": obs.player,
        }
        state = np.random.get_state()
        np.random.seed((self._seed * 1_000_003 + len(raw["trace"])) % (1 << 32))  # its fallback draws from numpy
        try:
            choice = self._agent.step({"raw_obs": raw})
        finally:
            np.random.set_state(state)
        return legal[texts.index(str(choice))]
