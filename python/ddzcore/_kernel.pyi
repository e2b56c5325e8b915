"""Stubs for the compiled move-generation kernel (src/ddzcore/_kernel.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt

MOVE_DTYPE: np.dtype[np.void]

def generate_array(hand: int, last_cards: int = 0, last_info: int = 0, flags: int = 0) -> npt.NDArray[np.void]: ...
def classify_array(cards: int, flags: int = 0) -> npt.NDArray[np.void]: ...
def beats_codes(cards: int, info: int, last_cards: int, last_info: int, flags: int = 0) -> bool: ...
def is_valid_reading(cards: int, info: int, flags: int = 0) -> bool: ...
def generate_batch(
    hands: npt.NDArray[np.uint64],
    last_cards: npt.NDArray[np.uint64] | None = None,
    last_info: npt.NDArray[np.uint64] | None = None,
    flags: int = 0,
    out: npt.NDArray[np.void] | None = None,
    threads: int = 1,
) -> tuple[npt.NDArray[np.void], npt.NDArray[np.int64]]: ...
def _set_min_part(generate: int, count: int) -> tuple[int, int]: ...
def _trace(on: bool) -> dict[str, Any]: ...
def count_batch(
    hands: npt.NDArray[np.uint64],
    last_cards: npt.NDArray[np.uint64] | None = None,
    last_info: npt.NDArray[np.uint64] | None = None,
    flags: int = 0,
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
