"""Type stub of the compiled native bots and bot games (src/ddzcore/_botplay.pyx)."""

from typing import Optional, Sequence

import numpy as np

from ._state import PlayState

def _rule_play(ps: PlayState) -> int: ...
def _strength(word: int, wild: int = -1) -> float: ...
def _play_games(n_games: int, seed: int, first_game: int, flags: int, points: bool, rob_back: bool,
                max_redeals: int, shows: Sequence[int], show_bottom: int, doubling: bool,
                may_double: Sequence[Sequence[bool]], policy: Sequence[int],
                deal_hands: Optional[np.ndarray] = None, deal_bottom: Optional[np.ndarray] = None,
                deal_first: Optional[np.ndarray] = None, threads: int = 1) -> tuple[dict[str, np.ndarray], int, int]: ...

FIVE_MOVE_DTYPE: np.dtype
def _play_five_games(n_games: int, seed: int, first_game: int, flags: int, doubling: bool,
                     may_double: Sequence[Sequence[bool]], policy: Sequence[int], record: bool = False,
                     deal_hands: Optional[np.ndarray] = None, deal_bottom: Optional[np.ndarray] = None,
                     deal_marked: Optional[np.ndarray] = None, deal_open: Optional[np.ndarray] = None,
                     deal_partner: Optional[np.ndarray] = None) -> tuple[dict[str, np.ndarray], int, int]: ...
