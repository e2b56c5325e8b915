"""Type stub of the compiled endgame solver (src/ddzcore/_solver.pyx)."""

from typing import Optional, Sequence

import numpy as np

ENTRY_BYTES: int

def _solve(hands: Sequence[int], landlord: int, turn: int, last_cards: int, last_info: int, owner: int, flags: int,
           bombs: int, landlord_plays: int, farmer_plays: int, score: bool, tt_entries: int, timeout: float,
           all_moves: bool) -> tuple[Optional[int], list[tuple[int, int, Optional[int]]],
                                     list[tuple[int, int, int]], int, float]: ...
def _min_plays(hand: int, flags: int) -> tuple[int, list[tuple[int, int]]]: ...
def _min_plays_batch(hands: np.ndarray, flags: int) -> np.ndarray: ...
