"""DouZero's environment, bit for bit, on ddzcore's kernel.

``Env`` mirrors ``douzero.env.env.Env`` (DouZero 1.1.0): it takes DouZero's
deal dict (``landlord``, ``landlord_up``, ``landlord_down``,
``three_landlord_cards``; card codes 3..14 for 3..A, 17 for 2, 20 and 30 for
the small and big joker) and DouZero's actions (lists of codes), and its
observations (``get_obs``: ``position``, ``x_batch``, ``z_batch``,
``legal_actions``, ``x_no_action``, ``z``) are byte-identical to DouZero's
at every decision, legal actions in DouZero's order.  A step (the move,
the next legal list, the ``InfoSet`` and the observation) runs in C
(``ddzcore._douzero.Game``), the features into new NumPy arrays;
``encode_batch`` encodes many decisions in one call.  ``DeepAgent`` plays a
DouZero checkpoint (needs ``torch``).

DouZero's rules differ from docs/rules.md and are reproduced (the
``douzero`` rules preset gives the same card sets to ``legal_moves``):

- no calling (docs/rules.md §4): seat "landlord" gets 20 cards and leads;
  the reward is +-2**bombs ("adp") or +-1 ("wp") for the landlord's side,
  with no spring (docs/rules.md §6);
- kickers (docs/rules.md §2): a plane's single wings may hold all four
  cards of a rank (333444555666+7777), the two jokers may be wings or
  four-with-two's singles together, and adjacent trios may be wings;
- the move to beat (docs/rules.md §3) is read from its cards alone, as
  ``move_detector.get_move_type`` reads them: 444555666777 played as
  444555666 with 777 as wings is then beaten as a four-trio plane; a plane
  whose wings are a trio out of line (333444555+777) is compared by its
  highest trio, the wings' 7s; a plane with a four in its wings has no type
  and only bombs and the rocket answer it;
- the legal action list repeats some moves (a plane with wings that is also
  a longer plane, wing combinations DouZero does not merge), as DouZero's.
"""

from __future__ import annotations

import importlib
from typing import Any, Sequence

import numpy as np

from .. import _douzero
from ..errors import InvalidCardsError, InvalidMoveError, InvalidArgumentError

__all__ = ["Env", "InfoSet", "get_obs", "legal_actions", "encode_batch", "encode_compact", "expand",
           "decision_row", "DeepAgent", "POSITIONS", "CODES", "DECISION_FIELDS"]

#: DouZero's card code of each rank index 0..14 (3..A, 2, small, big joker).
CODES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_INDEX = {c: i for i, c in enumerate(CODES)}
#: DouZero's positions; the order of play is landlord, landlord_down, landlord_up.
POSITIONS: tuple[str, str, str] = _douzero.POSITIONS
_POS = {p: i for i, p in enumerate(POSITIONS)}
DECISION_FIELDS: list[str] = _douzero.DECISION_FIELDS
_DECK = [c for c in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
_FULL = sum(4 << (4 * r) for r in range(13)) + (1 << 52) + (1 << 56)


def to_word(cards: Sequence[int]) -> int:
    """A list of DouZero card codes as a card word; ``InvalidCardsError`` for
    a code that is none of 3..14, 17, 20, 30."""
    w = 0
    for c in cards:
        try:
            w += 1 << (4 * _INDEX[c])
        except (KeyError, TypeError):
            raise InvalidCardsError(f"{c!r} is not a DouZero card code (3..14, 17, 20, 30)") from None
    return w


def to_cards(w: int) -> list[int]:
    """A card word as DouZero's sorted list of codes (a new list)."""
    return _douzero.to_cards(w)


def legal_actions(hand: Sequence[int], rival_move: Sequence[int] = ()) -> list[list[int]]:
    """DouZero's ``GameEnv.get_legal_card_play_actions()`` for ``hand``
    (codes) facing ``rival_move`` (its move to beat; empty for a free lead):
    lists of codes in DouZero's order, repeats kept, ``[]`` (pass) last when
    following."""
    return [to_cards(w) for w in _douzero.legal_actions(to_word(hand), to_word(rival_move)).tolist()]


InfoSet = _douzero.InfoSet


def decision_row(infoset: Any) -> np.ndarray:
    """The uint64 row of ``DECISION_FIELDS`` that ``encode_batch`` reads,
    from ours or DouZero's own ``InfoSet``."""
    if isinstance(infoset, InfoSet):
        return infoset._row
    p = _POS[infoset.player_position]
    played = [to_word(infoset.played_cards[q]) for q in POSITIONS]
    last = [to_word(infoset.last_move_dict[q]) for q in POSITIONS]
    left = [infoset.num_cards_left_dict[q] for q in POSITIONS]
    seq = [to_word(a) for a in infoset.card_play_action_seq[-15:]]
    return np.array([p, to_word(infoset.player_hand_cards), to_word(infoset.other_hand_cards),
                     to_word(infoset.last_move), *played, *last, *left, infoset.bomb_num, len(seq),
                     *seq, *([0] * (15 - len(seq)))], np.uint64)


def get_obs(infoset: Any) -> dict[str, Any]:
    """DouZero's ``get_obs`` for an information set (ours, or DouZero's own):
    ``x_batch`` float32 (n, 373) for the landlord or (n, 484) for a farmer,
    ``z_batch`` float32 (n, 5, 162), ``x_no_action`` int8 (319,) or (430,),
    ``z`` int8 (5, 162), ``legal_actions`` (the infoset's list) and
    ``position``; n is the number of legal actions.  Byte-identical to
    DouZero's."""
    row = decision_row(infoset)
    words = infoset._words if isinstance(infoset, InfoSet) else \
        np.array([to_word(a) for a in infoset.legal_actions], np.uint64)
    n = len(words)
    width = 373 if row[0] == 0 else 484
    x_batch = np.empty((n, width), np.float32)
    z_batch = np.empty((n, 5, 162), np.float32)
    x_no_action = np.empty(width - 54, np.int8)
    z = np.empty((5, 162), np.int8)
    _douzero.encode(row, words, x_batch, z_batch, x_no_action, z)
    return {"position": infoset.player_position, "x_batch": x_batch, "z_batch": z_batch,
            "legal_actions": infoset.legal_actions, "x_no_action": x_no_action, "z": z}


def encode_batch(decisions: np.ndarray, actions: np.ndarray, offsets: np.ndarray, x_batch: np.ndarray,
                 z_batch: np.ndarray, x_no_action: np.ndarray, z: np.ndarray) -> None:
    """Encode many decisions of one width (all the landlord's or all the
    farmers') into caller-owned buffers in one call without the GIL:
    ``decisions`` uint64 (m, 30) rows of ``DECISION_FIELDS``; decision i's
    legal actions are the card words ``actions[offsets[i]:offsets[i+1]]``
    (uint64; ``offsets`` int64, m + 1) and its rows of ``x_batch`` float32
    (total, 373|484) and ``z_batch`` float32 (total, 5, 162) the same range;
    ``x_no_action`` int8 (m, 319|430) and ``z`` int8 (m, 5, 162).
    ``ValueError`` for shapes that do not fit."""
    _douzero.encode_batch(decisions, actions, offsets, x_batch, z_batch, x_no_action, z)


def encode_compact(decisions: np.ndarray, actions: np.ndarray, offsets: np.ndarray, x_no_action: np.ndarray,
                   z: np.ndarray, action_rows: np.ndarray) -> None:
    """``encode_batch`` without the repeats, in one call without the GIL.

    DouZero's ``get_obs`` repeats two things on every legal action's row:
    ``z_batch`` is ``z`` n times, and ``x_batch`` is ``x_no_action`` with
    the action's 54 card features appended.  This writes each part once:
    ``x_no_action`` int8 (m, 319|430) and ``z`` int8 (m, 5, 162) per
    decision, as ``encode_batch`` writes them, and ``action_rows`` int8
    (total, 54), DouZero's ``_cards2array`` of each legal action (arguments
    otherwise as ``encode_batch``).  ``expand`` rebuilds ``encode_batch``'s
    float32 ``x_batch`` and ``z_batch`` from them byte for byte, as does
    NumPy: with ``owner = np.repeat(np.arange(m), np.diff(offsets))``,
    ``x_batch = np.hstack([x_no_action[owner], action_rows]).astype(np.float32)``
    and ``z_batch = z[owner].astype(np.float32)``; a decision's
    ``z_batch`` is also ``np.broadcast_to(z[i], (n, 5, 162))``, so a model
    can run its LSTM over ``z`` once per decision.  ``ValueError`` for
    shapes that do not fit."""
    _douzero.encode_compact(decisions, actions, offsets, x_no_action, z, action_rows)


def expand(x_no_action: np.ndarray, z: np.ndarray, action_rows: np.ndarray, offsets: np.ndarray,
           x_batch: np.ndarray, z_batch: np.ndarray) -> None:
    """``encode_compact``'s arrays as ``encode_batch``'s repeated ones, into
    caller-owned buffers: ``x_batch`` float32 (total, 373|484), row j of
    decision i being ``x_no_action[i]`` then ``action_rows[j]``, and
    ``z_batch`` float32 (total, 5, 162), ``z[i]`` on each of decision i's
    rows (``offsets`` int64, m + 1).  ``ValueError`` for shapes that do not
    fit."""
    _douzero.expand(x_no_action, z, action_rows, offsets, x_batch, z_batch)


class Env(_douzero.Game):
    """Mirror of ``douzero.env.env.Env``.

    ``reset(card_play_data=None)`` -> obs; ``step(action)`` -> (obs,
    reward, done, {}) with obs None once done (``InvalidMoveError`` for an
    action that is not legal); ``infoset`` is the acting player's
    ``InfoSet``.  ``objective``: ``"adp"`` (reward +-2**bombs for the
    landlord's side) or ``"wp"`` (+-1).  The game loop, the legal actions
    and the observation of a step run in C (``ddzcore._douzero.Game``).
    """

    def __init__(self, objective: str = "adp") -> None:
        self.objective = objective
        self.adp = objective == "adp"

    def reset(self, card_play_data: dict[str, Sequence[int]] | None = None) -> dict[str, Any]:
        """Start a game; ``card_play_data`` None deals as DouZero's ``Env.reset``
        (``np.random.shuffle`` of its deck: the same deal for the same NumPy
        seed).  Hands are sorted, as DouZero's ``Env.reset`` sorts them.
        ``InvalidCardsError`` for a deal that is not the 54 cards (20, 17, 17,
        and the landlord's three bottom cards)."""
        if card_play_data is None:
            deck = _DECK.copy()
            np.random.shuffle(deck)
            card_play_data = {"landlord": deck[:20], "landlord_up": deck[20:37], "landlord_down": deck[37:54],
                              "three_landlord_cards": deck[17:20]}
        try:
            hands = [card_play_data[p] for p in POSITIONS]
            three = card_play_data["three_landlord_cards"]
        except (KeyError, TypeError):
            raise InvalidCardsError("a DouZero deal is a dict of landlord, landlord_up, landlord_down and "
                                    "three_landlord_cards lists") from None
        words = [to_word(h) for h in hands]
        tw = to_word(three)
        if [len(h) for h in hands] != [20, 17, 17] or sum(words) != _FULL or len(three) != 3 \
                or any(((words[0] >> (4 * r)) & 0xF) < ((tw >> (4 * r)) & 0xF) for r in range(15)):
            raise InvalidCardsError(f"a DouZero deal is the 54 cards, 20 for the landlord with the 3 "
                                    f"three_landlord_cards, 17 for each farmer; got {[len(h) for h in hands]}")
        obs: dict[str, Any] = self._start(words[0], words[1], words[2], tw)
        return obs


class DeepAgent:
    """A DouZero checkpoint (``*.ckpt``: a ``state_dict`` of DouZero's LSTM
    model for ``position``) playing on ddzcore: ``act(infoset)`` returns the
    legal action with the highest value, as DouZero's ``DeepAgent``.  Needs
    ``torch`` (``ImportError`` naming the install command otherwise);
    ``ValueError`` for an unknown position."""

    def __init__(self, position: str, model_path: str) -> None:
        if position not in POSITIONS:
            raise InvalidArgumentError(f"position must be one of {POSITIONS}, not {position!r}")
        try:
            torch = importlib.import_module("torch")
        except ImportError as exc:
            raise ImportError("DeepAgent needs torch: pip install torch") from exc
        self._torch = torch
        self.model = _lstm_model(torch, position)
        state = self.model.state_dict()
        loaded = torch.load(model_path, map_location="cpu")
        state.update({k: v for k, v in loaded.items() if k in state})
        self.model.load_state_dict(state)
        self.model.eval()

    def act(self, infoset: Any) -> list[int]:
        """The chosen action (a list of codes) for ours or DouZero's ``InfoSet``."""
        if len(infoset.legal_actions) == 1:
            return list(infoset.legal_actions[0])
        obs = get_obs(infoset)
        torch = self._torch
        with torch.no_grad():
            values = _forward(torch, self.model, torch.from_numpy(obs["z_batch"]), torch.from_numpy(obs["x_batch"]))
        return list(infoset.legal_actions[int(np.argmax(values.numpy(), axis=0)[0])])


def _lstm_model(torch: Any, position: str) -> Any:
    """DouZero's LSTM value network for a position (its state_dict keys:
    ``lstm.*``, ``dense1.*`` .. ``dense6.*``): an LSTM over z's 5 x 162, its
    last output joined to x (373 landlord, 484 farmers), five 512-unit ReLU
    layers and one output."""
    nn = torch.nn
    width = 373 if position == "landlord" else 484
    layers = {"lstm": nn.LSTM(162, 128, batch_first=True), "dense1": nn.Linear(width + 128, 512)}
    layers.update({f"dense{i}": nn.Linear(512, 512) for i in range(2, 6)})
    layers["dense6"] = nn.Linear(512, 1)
    return nn.ModuleDict(layers)


def _forward(torch: Any, model: Any, z: Any, x: Any) -> Any:
    out, _ = model["lstm"](z)
    x = torch.cat([out[:, -1, :], x], dim=-1)
    for i in range(1, 6):
        x = torch.relu(model[f"dense{i}"](x))
    return model["dense6"](x)
