"""Stubs for DouZero's move order and features in C (src/ddzcore/_douzero.pyx)."""

import numpy as np
import numpy.typing as npt

DECISION_FIELDS: list[str]

def legal_actions(hand: int, rival: int = 0) -> npt.NDArray[np.uint64]: ...
def width(position: int) -> int: ...
def encode(
    decision: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.uint64],
    x_batch: npt.NDArray[np.float32],
    z_batch: npt.NDArray[np.float32],
    x_no_action: npt.NDArray[np.int8],
    z: npt.NDArray[np.int8],
) -> None: ...
def encode_batch(
    decisions: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
    x_batch: npt.NDArray[np.float32],
    z_batch: npt.NDArray[np.float32],
    x_no_action: npt.NDArray[np.int8],
    z: npt.NDArray[np.int8],
) -> None: ...
def cards_rows(words: npt.NDArray[np.uint64], out: npt.NDArray[np.int8]) -> None: ...
