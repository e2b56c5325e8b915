"""Type stub of the compiled vector-environment core (src/ddzcore/_vecenv.pyx)."""

from typing import Optional

import numpy as np
from typing_extensions import disjoint_base

COMPACT_SIZE: int
DOUZERO_WIDTH: int
MAX_LEGAL: int
RESET: int
STEP: int
ROWS: int
SAMPLE: int
RANDOM: int
COMPACT_LAYOUT: tuple[tuple[str, int, int], ...]
BOT_NAMES: tuple[str, ...]

@disjoint_base
class VecCore:
    buffers: dict[str, np.ndarray]
    threads: int
    def __init__(self, num_envs: int, flags: int, learners: int, bot: int, douzero: bool,
                 codes: np.ndarray, buffers: dict[str, np.ndarray], threads: int) -> None: ...
    def serve(self, t: int) -> None: ...
    def stop(self) -> None: ...
    def seed(self, seed: int) -> None: ...
    def start_of(self, k: int) -> tuple[tuple[int, int, int], int, int]: ...
    def step(self, actions: np.ndarray) -> Optional[tuple[int, int]]: ...
    def set_rows(self, x: np.ndarray, offsets: np.ndarray) -> None: ...
    def run_all(self, phase: int) -> Optional[tuple[int, int]]: ...
