"""Stubs for the compiled play step of the games (src/ddzcore/_gamecore.pyx)."""

from typing import Any

from typing_extensions import disjoint_base

CORE_FIELDS: tuple[str, ...]

@disjoint_base
class GameCore:
    _ph: int
    _cur: int
    _flags: int
    _lastp: int
    _bombs: int
    _soft: int
    _prules: Any
    _hands: Any
    _last: Any
    _plays: Any
    _winner: Any
    _hist: Any
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> Any: ...
    def apply(self, action: Any) -> None: ...
    def _play(self, p: int, move: Any, k: int) -> None: ...
