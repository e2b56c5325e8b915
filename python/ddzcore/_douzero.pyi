"""Stubs for DouZero's move order and features in C (src/ddzcore/_douzero.pyx)."""

from collections import OrderedDict
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

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

def encode_compact(
    decisions: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
    x_no_action: npt.NDArray[np.int8],
    z: npt.NDArray[np.int8],
    action_rows: npt.NDArray[np.int8],
) -> None: ...
def expand(
    x_no_action: npt.NDArray[np.int8],
    z: npt.NDArray[np.int8],
    action_rows: npt.NDArray[np.int8],
    offsets: npt.NDArray[np.int64],
    x_batch: npt.NDArray[np.float32],
    z_batch: npt.NDArray[np.float32],
) -> None: ...

POSITIONS: tuple[str, str, str]

def to_cards(w: int) -> list[int]: ...

@disjoint_base
class InfoSet:
    @property
    def player_position(self) -> str: ...
    @property
    def legal_actions(self) -> list[list[int]]: ...
    @property
    def bomb_num(self) -> int: ...
    @property
    def last_pid(self) -> str: ...
    @property
    def _row(self) -> npt.NDArray[np.uint64]: ...
    @property
    def _words(self) -> npt.NDArray[np.uint64]: ...
    @property
    def player_hand_cards(self) -> list[int]: ...
    @property
    def other_hand_cards(self) -> list[int]: ...
    @property
    def num_cards_left_dict(self) -> dict[str, int]: ...
    @property
    def all_handcards(self) -> dict[str, list[int]]: ...
    @property
    def three_landlord_cards(self) -> list[int]: ...
    @property
    def card_play_action_seq(self) -> list[list[int]]: ...
    @property
    def last_move(self) -> list[int]: ...
    @property
    def last_two_moves(self) -> list[list[int]]: ...
    @property
    def last_move_dict(self) -> dict[str, list[int]]: ...
    @property
    def played_cards(self) -> dict[str, list[int]]: ...

@disjoint_base
class Game:
    adp: bool
    @property
    def infoset(self) -> InfoSet | None: ...
    @property
    def _game_over(self) -> bool: ...
    @property
    def _game_winner(self) -> str | None: ...
    @property
    def _game_bomb_num(self) -> int: ...
    @property
    def _acting_player_position(self) -> str: ...
    def _start(self, h0: int, h1: int, h2: int, three: int) -> dict[str, Any]: ...
    def step(self, action: Sequence[int]) -> tuple[dict[str, Any] | None, float, bool, dict[str, Any]]: ...

def rank_string(w: int) -> str: ...
def rl_state(
    env: Any, me: int, actions: list[str], action_ids: dict[str, int], features: npt.NDArray[np.int8]
) -> "OrderedDict[str, Any]": ...
def rl_take(hand: list[tuple[int, str]], w: int) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]: ...
def rl_legal(
    actions: list[str], action_ids: dict[str, int], features: npt.NDArray[np.int8]
) -> dict[int, npt.NDArray[np.int8]]: ...
def rl_gone(lead: set[str], hand: int, action_words: dict[str, int]) -> list[str]: ...
def rl_follow(
    hand: int,
    target: int,
    target_info: int,
    flags: int,
    word_ids: dict[int, int],
    type_rank: npt.NDArray[np.int64],
    id2action: list[str],
    first_bomb: int,
    rocket: int,
) -> list[str]: ...
def cards_rows(words: npt.NDArray[np.uint64], out: npt.NDArray[np.int8]) -> None: ...
