"""RLCard's Dou Dizhu (斗地主), bit for bit, on ddzcore's kernel.

- ``ID_2_ACTION`` / ``ACTION_2_ID``: RLCard's 27,472 action ids (pass is
  27471), derived from the ``rlcard`` rules preset's 27,471 card sets
  (docs/rules.md §2 minus two kicker rules, see ``Rules.PRESETS``) and
  ordered as RLCard numbers them; ``action_features(i)`` is the 54-dim int8
  encoding RLCard's agents read.
- ``make("doudizhu", config=...)`` returns ``DoudizhuEnv``, a drop-in for
  ``rlcard.make("doudizhu")``: same seeding, deal, state dicts (``obs`` of
  790 int8 for the landlord and 901 for the farmers, ``legal_actions`` in
  RLCard's order, ``raw_obs``, ``raw_legal_actions``, ``action_record``),
  ``step``/``step_back``/``run``/``get_payoffs``/``get_perfect_information``.
  ``reset(deal=...)`` starts from a given deal.

RLCard's own quirks are reproduced, not fixed (they are outside
docs/rules.md): seat 0 is always the landlord (no calling, docs/rules.md §4),
payoffs are 1 to each winner and 0 to each loser with no multiplier
(docs/rules.md §6), a farmer's "last landlord action" and "last teammate
action" features hold their *first* action of the game, a player with no
cards left has the last bit of the card-count one-hot set, the seen bottom
cards lose every copy of a rank the landlord plays and are not restored by
``step_back``, and a lead lists its moves in the iteration order of
RLCard's Python ``set`` of card strings (the same order only within one
process, as RLCard's own).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import os
import struct
from collections import OrderedDict
from typing import Any, Iterable, Sequence

import numpy as np

from .. import _douzero, _kernel
from ..moves import action_space
from ..errors import InvalidCardsError, InvalidMoveError, InvalidArgumentError
from ..rules import Rules

__all__ = ["ID_2_ACTION", "ACTION_2_ID", "NUM_ACTIONS", "PASS_ID", "action_features", "DoudizhuEnv", "make",
           "RandomAgent"]

RANKS = "3456789TJQKA2BR"
_INDEX = {c: i for i, c in enumerate(RANKS)}
RULES = Rules.preset("rlcard")
_FLAGS = RULES.flags     # a property that builds the word: read once
_B, _R = 13, 14

# ddzcore Combo value -> RLCard type name (chains get "_<length>").
_TYPE_NAMES = {1: "solo", 2: "pair", 3: "trio", 4: "trio_solo", 5: "trio_pair", 6: "solo_chain", 7: "pair_chain",
               8: "trio_chain", 9: "trio_solo_chain", 10: "trio_pair_chain", 11: "four_two_solo",
               12: "four_two_pair", 13: "bomb", 14: "rocket"}
_TYPE_ORDER = (["solo", "pair", "trio", "trio_solo", "trio_pair"]
               + [f"solo_chain_{n}" for n in range(5, 13)] + [f"pair_chain_{n}" for n in range(3, 11)]
               + [f"trio_chain_{n}" for n in range(2, 7)] + [f"trio_solo_chain_{n}" for n in range(2, 6)]
               + [f"trio_pair_chain_{n}" for n in range(2, 5)] + ["four_two_solo", "four_two_pair", "bomb", "rocket"])
_MAIN_COUNT = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 1, 7: 2, 8: 3, 9: 3, 10: 3, 11: 4, 12: 4, 13: 4, 14: 1}


word_to_str = _douzero.rank_string


def str_to_word(cards: str) -> int:
    """RLCard's rank string as a card word; ``InvalidCardsError`` for a bad character."""
    w = 0
    for c in cards:
        try:
            w += 1 << (4 * _INDEX[c])
        except KeyError:
            raise InvalidCardsError(f"{c!r} in {cards!r} is not one of RLCard's ranks {RANKS}") from None
    return w


def _ranks(w: int) -> list[int]:
    return [r for r in range(15) for _ in range((w >> (4 * r)) & 0xF)]


def _kicker_keys(combo: int, length: int, kickers: list[int]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(id order, TYPE_CARD order) of a move's kickers within its type and weight.

    RLCard's tables list most types' kickers in lexicographic order; planes
    with single wings (trio_solo_chain) are listed in blocks, in the id
    table by chain length (3: distinct singles, a trio, a pair and a single;
    4 and 5: with one joker, then without) and in the type table by joker
    (small, big, none)."""
    lex = tuple(kickers)
    if combo != 9:
        return lex, lex
    plain = tuple(k for k in kickers if k < _B)
    joker = tuple(k for k in kickers if k >= _B)
    by_joker = (joker[0] - _B if joker else 2,) + plain
    if length == 3:
        counts = sorted((kickers.count(k) for k in set(kickers)), reverse=True)
        if counts == [1, 1, 1]:
            return (0,) + lex, by_joker
        if counts == [3]:
            return (1,) + lex, by_joker
        pair = [k for k in kickers if kickers.count(k) == 2][0]
        single = [k for k in kickers if kickers.count(k) == 1][0]
        return (2, pair, single), by_joker
    if length >= 4:
        return ((0,) + plain + joker if joker else (1,) + plain), by_joker
    return lex, by_joker


def _build_tables() -> tuple[list[str], dict[int, int], np.ndarray, np.ndarray, np.ndarray]:
    codes = action_space(RULES).codes[1:]
    rows = []
    for cards, info in codes.tolist():
        combo, main, length = info & 0x1F, (info >> 5) & 0xF, (info >> 9) & 0x1F
        k = _MAIN_COUNT[combo]
        lo = main - length + 1
        main_word = sum(k << (4 * r) for r in range(lo, main + 1)) if combo != 14 else cards
        kickers = _ranks(cards - main_word)
        name = _TYPE_NAMES[combo] + (f"_{length}" if combo in (6, 7, 8, 9, 10) else "")
        id_key, type_key = _kicker_keys(combo, length, kickers)
        t = _TYPE_ORDER.index(name)
        rows.append(((t, lo, id_key), (t, lo, type_key), cards, combo))
    by_id = sorted(range(len(rows)), key=lambda i: rows[i][0])
    id2action = [word_to_str(rows[i][2]) for i in by_id] + ["pass"]
    word2id = {rows[i][2]: n for n, i in enumerate(by_id)}
    type_rank = np.empty(len(rows) + 1, np.int64)
    for n, i in enumerate(sorted(range(len(rows)), key=lambda i: rows[i][1])):
        type_rank[word2id[rows[i][2]]] = n
    type_rank[-1] = -1
    words = np.array([rows[i][2] for i in by_id] + [0], np.uint64)
    feats = _features_of_words(words)
    return id2action, word2id, type_rank, words, feats


def _features_of_words(words: np.ndarray) -> np.ndarray:
    """RLCard's 54-dim card encoding of card words, shape (n, 54) int8: for
    rank column c (3..2) the first count rows of column c, column-major
    (index 4c + row), then one bit each for the small and big joker."""
    w = np.asarray(words, np.uint64).reshape(-1)
    counts = ((w[:, None] >> (np.arange(15, dtype=np.uint64) * np.uint64(4))) & np.uint64(0xF)).astype(np.int64)
    out = np.zeros((len(w), 54), np.int8)
    rows = np.arange(4)
    out[:, :52] = (rows[None, None, :] < counts[:, :13, None]).reshape(len(w), 52)
    out[:, 52] = counts[:, 13] > 0
    out[:, 53] = counts[:, 14] > 0
    return out


ID_2_ACTION: list[str]
_WORD2ID: dict[int, int]
ID_2_ACTION, _WORD2ID, _TYPE_RANK, _WORDS, _FEATURES = _build_tables()
#: RLCard's action string -> id; "pass" is the last id.
ACTION_2_ID: dict[str, int] = {a: i for i, a in enumerate(ID_2_ACTION)}
NUM_ACTIONS = len(ID_2_ACTION)
PASS_ID = NUM_ACTIONS - 1
_FEATURES.setflags(write=False)
#: action string -> card word (pass: 0).
_ACTION_WORD: dict[str, int] = dict(zip(ID_2_ACTION, _WORDS.tolist()))
_ROCKET = ACTION_2_ID["BR"]                     # the ids end with the 13 bombs, the rocket, pass
_FIRST_BOMB = _ROCKET - 13


def action_features(action_id: int) -> np.ndarray:
    """RLCard's 54-dim int8 features of an action id (zeros for pass).
    ``InvalidMoveError`` for an id outside 0..27471."""
    if not 0 <= action_id < NUM_ACTIONS:
        raise InvalidMoveError(f"action id {action_id!r} is not in 0..{NUM_ACTIONS - 1}")
    out: np.ndarray = _FEATURES[action_id].copy()
    return out


# ---------------------------------------------------------------- seeding (RLCard's, from gym)

def _bigint_from_bytes(b: bytes) -> int:
    b += b"\0" * (4 - len(b) % 4)
    return sum(v << (32 * i) for i, v in enumerate(struct.unpack(f"{len(b) // 4}I", b)))


def _np_random(seed: int | None) -> np.random.RandomState:
    """RLCard's ``seeding.np_random``: the seed hashed with SHA-512.
    ``ValueError`` for a seed that is not a non-negative int or None."""
    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        raise InvalidArgumentError(f"seed must be a non-negative integer or None, not {seed!r}")
    a = _bigint_from_bytes(os.urandom(8)) if seed is None else seed % 2 ** 64
    h = _bigint_from_bytes(hashlib.sha512(str(a).encode("utf8")).digest()[:8])
    ints = []
    while h > 0:
        h, m = divmod(h, 2 ** 32)
        ints.append(m)
    rng = np.random.RandomState()
    rng.seed(ints or [0])
    return rng


# RLCard's unshuffled deck: suits S H D C x ranks A 2 3 .. K, then the jokers,
# stably sorted by rank; a card is (rank index, text with suit).
_SUITED = [(s, r) for s in "SHDC" for r in "A23456789TJQK"]
_DECK: list[tuple[int, str]] = sorted(
    [(_INDEX[r], s + r) for s, r in _SUITED] + [(_B, "BJ"), (_R, "RJ")], key=lambda c: c[0])


# ---------------------------------------------------------------- lead sets (RLCard's judger)

def _attachments(candidates: list[int], start: int, size: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for a in itertools.combinations(candidates, size):
        if a[-1] == _R and a[-2] == _B:
            continue
        i = bisect.bisect_left(a, start)
        found.add((a[:i], a[i:]))
    return list(found)


def _solo_candidates(counts: list[int], start: int, length: int) -> list[int]:
    out = []
    for r in range(15):
        if start <= r < start + length or not counts[r]:
            continue
        n = min(counts[r], 3)
        if n == 3 and r in (start - 1, start + length) and r != 12:
            n = 2
        out.extend([r] * n)
    return out


def _add_attached(out: dict[str, None], main: str, pairs: Iterable[tuple[tuple[int, ...], tuple[int, ...]]],
                  k: int) -> None:
    for left, right in pairs:
        out["".join(RANKS[j] * k for j in left) + main + "".join(RANKS[j] * k for j in right)] = None


def _chains(ranks: list[int]) -> list[tuple[int, int]]:
    chains, prev, count, start = [], -100, 0, 0
    for i in ranks:
        if i >= 12:
            break
        if i == prev + 1:
            count += 1
        else:
            if count > 1:
                chains.append((start, count))
            count, start = 1, i
        prev = i
    if count > 1:
        chains.append((start, count))
    return chains


def _lead_set(counts: list[int]) -> set[str]:
    """The set of card strings RLCard's judger builds for a hand, with
    its strings added in RLCard's order (a set's iteration order depends on
    it)."""
    out: dict[str, None] = {}
    have = [r for r in range(15) if counts[r] > 0]
    two = [r for r in range(15) if counts[r] > 1]
    three = [r for r in range(15) if counts[r] > 2]
    pair_cands = [r for r in range(15) if counts[r] >= 2]
    for r in have:
        out[RANKS[r]] = None
    for r in two:
        out[RANKS[r] * 2] = None
    for r in (r for r in range(15) if counts[r] > 3):
        main = RANKS[r] * 4
        out[main] = None
        _add_attached(out, main, _attachments(_solo_candidates(counts, r, 1), r, 2), 1)
        _add_attached(out, main, _attachments([p for p in pair_cands if p != r], r, 2), 2)
    for ranks, k, least, most in ((have, 1, 5, 12), (two, 2, 3, 10)):
        for s, ln in _chains(ranks):
            while ln >= least:
                cards = ""
                for n in range(min(ln, most)):
                    cards += RANKS[s + n] * k
                    if n + 1 >= least:
                        out[cards] = None
                ln -= 1
                s += 1
    for r in three:
        out[RANKS[r] * 3] = None
        for j in have:
            if j != r:
                out[(RANKS[j] + RANKS[r] * 3) if j < r else (RANKS[r] * 3 + RANKS[j])] = None
        for j in two:
            if j != r:
                out[(RANKS[j] * 2 + RANKS[r] * 3) if j < r else (RANKS[r] * 3 + RANKS[j] * 2)] = None
    for s, ln in _chains(three):
        while ln >= 2:
            cards = ""
            for n in range(min(ln, 6)):
                cards += RANKS[s + n] * 3
                m = n + 1
                if m >= 2:
                    out[cards] = None
                if 2 <= m <= 5:
                    _add_attached(out, cards, _attachments(_solo_candidates(counts, s, m), s, m), 1)
                if 2 <= m <= 4:
                    _add_attached(out, cards, _attachments(
                        [p for p in pair_cands if not s <= p < s + m], s, m), 2)
            ln -= 1
            s += 1
    if counts[_B] and counts[_R]:
        out["BR"] = None
    lead: set[str] = set()
    for cards in out:      # one at a time: set(out) would size the table differently
        lead.add(cards)
    return lead


def _contained(hand: int, w: int) -> bool:
    lo, hi = 0x0F0F0F0F0F0F0F0F, 0x8080808080808080
    return ((((hand & lo) | hi) - (w & lo)) & hi) == hi and \
        (((((hand >> 4) & lo) | hi) - ((w >> 4) & lo)) & hi) == hi


def _gt_actions(hand: int, target: str) -> list[str]:
    """RLCard's ``get_gt_cards``: pass, then the moves of the target's type
    with a higher weight in RLCard's type-table order, then the rocket, then
    the bombs (bombs, then the rocket, when the target is a bomb)."""
    tw = _ACTION_WORD[target]
    return _douzero.rl_follow(hand, tw, _kernel_info(tw), _FLAGS, _WORD2ID, _TYPE_RANK, ID_2_ACTION, _FIRST_BOMB,
                              _ROCKET)


@functools.lru_cache(maxsize=None)
def _kernel_info(w: int) -> int:
    arr = _kernel.classify_array(w, _FLAGS)
    return int(arr["info"][0])


# ---------------------------------------------------------------- the environment

class _Player:
    __slots__ = ("hand", "word", "played", "recorded", "lead", "removed")

    def __init__(self, cards: list[tuple[int, str]]) -> None:
        self.hand = sorted(cards, key=lambda c: c[0])   # (rank index, suited text), RLCard's order
        self.word = sum(1 << (4 * r) for r, _ in cards)
        self.played: str | None = None                 # the player's last non-pass action
        self.recorded: list[list[tuple[int, str]]] = []
        self.lead: set[str] = set()
        self.removed: list[list[str]] = []

    def text(self) -> str:
        return word_to_str(self.word)


class DoudizhuEnv:
    """Drop-in for RLCard 1.2.0's ``DoudizhuEnv`` (``rlcard.make('doudizhu')``).

    ``config``: ``seed`` (int >= 0 or None) and ``allow_step_back`` (bool),
    as RLCard's.  States are RLCard's dicts: ``obs`` (int8, shape (790,) for
    the landlord, seat 0, and (901,) for the farmers), ``legal_actions``
    (an ``OrderedDict`` action id -> 54-dim int8 features, in RLCard's
    order), ``raw_obs``, ``raw_legal_actions`` and ``action_record``.
    """

    name = "doudizhu"

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        config = {"allow_step_back": False, "seed": None, **(config or {})}
        self.allow_step_back = bool(config["allow_step_back"])
        self.num_players = 3
        self.num_actions = NUM_ACTIONS
        self.state_shape = [[790], [901], [901]]
        self.action_shape = [[54] for _ in range(3)]
        self.timestep = 0
        self.action_recorder: list[tuple[int, str]] = []
        self.agents: list[Any] = []
        self.seed(config["seed"])
        self._over = True
        self._cached: list[str] | None = None

    def seed(self, seed: int | None = None) -> int | None:
        """Seed the deal shuffler as RLCard does (SHA-512 of the seed)."""
        self.np_random = _np_random(seed)
        return seed

    # -- game -------------------------------------------------------------
    def reset(self, deal: Any = None) -> tuple[dict[str, Any], int]:
        """Start a game; returns (state, player id).  ``deal``: None to shuffle
        with the env's generator as RLCard does, or ``(hands, bottom)``:
        three hands, the landlord's (seat 0) first, each a rank string
        (``"3345..."``) or a list of RLCard's suited cards (``"S3"``,
        ``"BJ"``), the landlord's with or without the 3 bottom cards, and the
        bottom as ranks.  ``InvalidCardsError`` for a deal that is not the
        54 cards."""
        if deal is None:
            order = list(range(54))
            self.np_random.shuffle(order)
            cards = [_DECK[i] for i in order]
            hands = [cards[0:17] + cards[-3:], cards[17:34], cards[34:51]]
            bottom = sorted(cards[-3:], key=lambda c: c[0])
        else:
            hands, bottom = self._parse_deal(deal)
        self._players = [_Player(h) for h in hands]
        self._seen = "".join(RANKS[r] for r, _ in bottom)
        self._trace: list[tuple[int, str]] = []
        self._trace_words: list[int] = []
        self._first: list[int | None] = [None, None, None]   # the trace index of each player's first action
        self._played_text = ["", "", ""]
        self._played_words = [0, 0, 0]
        self._greater: int | None = None
        self._current = 0
        self._winner: int | None = None
        self._over = False
        self._cached = None
        for p in self._players:
            p.lead = _lead_set([(p.word >> (4 * r)) & 0xF for r in range(15)])
        self.action_recorder = []
        return self.get_state(0), 0

    @staticmethod
    def _parse_deal(deal: Any) -> tuple[list[list[tuple[int, str]]], list[tuple[int, str]]]:
        try:
            hands, bottom = deal
            hands = list(hands)
        except (TypeError, ValueError):
            raise InvalidCardsError(f"a deal is (three hands, bottom), not {deal!r}") from None
        if len(hands) != 3:
            raise InvalidCardsError(f"a deal has three hands, not {len(hands)}")
        pool = {i: list(s for s in "SHDC") for i in range(13)}
        parsed: list[list[tuple[int, str]]] = []
        for h in hands:
            cards = []
            items = list(h) if isinstance(h, str) else list(h)
            for c in items:
                if len(c) == 2:            # suited: "S3", "BJ"
                    r = _B if c == "BJ" else _R if c == "RJ" else _INDEX.get(c[1], -1)
                    if r < 0:
                        raise InvalidCardsError(f"{c!r} is not an RLCard card")
                    cards.append((r, c))
                    if r < _B and c[0] in pool[r]:
                        pool[r].remove(c[0])
                else:
                    if c not in _INDEX:
                        raise InvalidCardsError(f"{c!r} is not an RLCard rank")
                    cards.append((_INDEX[c], ""))
            parsed.append(cards)
        for cards in parsed:   # give unsuited cards the suits left, S H D C
            for k, (r, t) in enumerate(cards):
                if not t:
                    t = "BJ" if r == _B else "RJ" if r == _R else (pool[r].pop(0) + RANKS[r] if pool[r] else "")
                    if not t:
                        raise InvalidCardsError(f"the deal has more than four {RANKS[r]}")
                    cards[k] = (r, t)
        bottom_ranks = [(_INDEX[c], "") for c in str(bottom) if c in _INDEX]
        if len(bottom_ranks) != 3 or len(str(bottom)) != 3:
            raise InvalidCardsError(f"the bottom is 3 ranks, not {bottom!r}")
        if len(parsed[0]) == 17:
            for r, _ in bottom_ranks:
                t = "BJ" if r == _B else "RJ" if r == _R else (pool[r].pop(0) + RANKS[r] if pool[r] else "")
                parsed[0].append((r, t))
        words = [sum(1 << (4 * r) for r, _ in h) for h in parsed]
        texts = [t for h in parsed for _, t in h]
        if [len(h) for h in parsed] != [20, 17, 17] or len(set(texts)) != 54 or "" in texts \
                or sum(words) != 0x114444444444444:
            raise InvalidCardsError("a deal is the 54 cards: 20 for the landlord (with the bottom), 17 each for "
                                    f"the farmers; got {[len(h) for h in parsed]}")
        if not _contained(words[0], str_to_word("".join(RANKS[r] for r, _ in bottom_ranks))):
            raise InvalidCardsError(f"the bottom {bottom!r} is not in the landlord's hand")
        return parsed, sorted(bottom_ranks, key=lambda c: c[0])

    def _actions(self, pid: int) -> list[str]:
        if self._over:
            return []
        if pid != self._current:
            return self._compute_actions(pid)
        cached = self._cached
        if cached is None:      # the player to move's actions, until the next step
            cached = self._cached = self._compute_actions(pid)
        return list(cached)

    def _compute_actions(self, pid: int) -> list[str]:
        g = self._greater
        if g is None or g == pid:
            return list(self._players[pid].lead)
        played = self._players[g].played
        assert played is not None
        return _gt_actions(self._players[pid].word, played)

    def step(self, action: Any, raw_action: bool = False) -> tuple["OrderedDict[str, Any]", int]:
        """Play an action id (or, with ``raw_action``, RLCard's action string)
        for the current player; returns (next state, next player id).
        ``InvalidMoveError`` for an action that is not legal now (RLCard does
        not check; an illegal action would corrupt its game)."""
        if raw_action:
            a = action
        else:
            i = int(action)
            a = ID_2_ACTION[i] if 0 <= i < NUM_ACTIONS else None
        pid = self._current
        if self._over or a not in (self._cached or self._actions(pid)):
            raise InvalidMoveError(f"action {action!r} is not legal for player {pid} now")
        self._cached = None
        self.timestep += 1
        self.action_recorder.append((pid, a))
        p = self._players[pid]
        w = _ACTION_WORD[a]
        if self._first[pid] is None:
            self._first[pid] = len(self._trace)
        self._trace.append((pid, a))
        self._trace_words.append(w)
        if a != "pass":
            self._played_words[pid] += w
            if pid == 0:
                for c in a:
                    if c in self._seen:
                        self._seen = self._seen.replace(c, "")
            self._update_played_text(pid)
            p.played = a
            p.hand, removed = _douzero.rl_take(p.hand, w)     # the first cards of each rank in the sorted hand go
            p.recorded.append(removed)
            p.word -= w
            self._greater = pid
            gone = _douzero.rl_gone(p.lead, p.word, _ACTION_WORD)
            for cards in gone:   # one by one: difference_update would compact the table
                p.lead.remove(cards)
            p.removed.append(gone)
            if not p.hand:
                self._winner = pid
                self._over = True
        else:
            p.recorded.append([])
        self._current = (pid + 1) % 3
        return self.get_state(self._current), self._current

    def _update_played_text(self, pid: int) -> None:
        """A new list (earlier states keep theirs) with pid's played cards."""
        text = self._played_text.copy()
        text[pid] = word_to_str(self._played_words[pid])
        self._played_text = text

    def step_back(self) -> Any:
        """Undo the last step (needs ``allow_step_back``); returns (state,
        player id), or False at the start of a game.  As RLCard's, the seen
        bottom cards are not restored."""
        if not self.allow_step_back:
            raise Exception("Step back is off. To use step_back, please set allow_step_back=True in rlcard.make")
        if not self._trace:
            return False
        self._winner = None
        self._over = False
        self._cached = None
        pid, a = self._trace.pop()
        self._trace_words.pop()
        if self._first[pid] == len(self._trace):
            self._first[pid] = None
        self._current = pid
        p = self._players[pid]
        if a != "pass":
            self._played_words[pid] -= _ACTION_WORD[a]
            self._update_played_text(pid)
        self._greater = next((i for i, x in reversed(self._trace) if x != "pass"), None)
        if a != "pass":
            p.played = next((x for i, x in reversed(self._trace) if i == pid and x != "pass"), None)
        back = p.recorded.pop()
        p.hand = sorted(p.hand + back, key=lambda c: c[0])
        p.word += sum(1 << (4 * r) for r, _ in back)
        if a != "pass":
            p.lead.update(p.removed.pop())
        return self.get_state(pid), pid

    def get_state(self, player_id: int) -> "OrderedDict[str, Any]":
        """The state dict of ``player_id`` (RLCard's ``env.get_state``): its
        ``raw_obs`` and RLCard's encoding of it, ``obs`` int8 (790,) or
        (901,), built in C from the env's card words (``_douzero.rl_state``)."""
        state: OrderedDict[str, Any] = _douzero.rl_state(self, player_id, self._actions(player_id), ACTION_2_ID,
                                                          _FEATURES)
        return state

    def get_player_id(self) -> int:
        return self._current

    def is_over(self) -> bool:
        return self._over

    def get_payoffs(self) -> np.ndarray:
        """RLCard's payoffs: 1 for each winner, 0 for each loser (int array, shape (3,))."""
        payoffs = np.array([0, 0, 0])
        if self._winner == 0:
            payoffs[0] = 1
        else:
            payoffs[1] = payoffs[2] = 1
        return payoffs

    def get_perfect_information(self) -> dict[str, Any]:
        return {
            "hand_cards_with_suit": [" ".join(t for _, t in p.hand) for p in self._players],
            "hand_cards": [p.text() for p in self._players],
            "trace": self._trace,
            "current_player": self._current,
            "legal_actions": self._actions(self._current),
        }

    def get_action_feature(self, action: int) -> np.ndarray:
        return action_features(action)

    def _decode_action(self, action_id: int) -> str:
        return ID_2_ACTION[action_id]

    def set_agents(self, agents: Sequence[Any]) -> None:
        self.agents = list(agents)

    def run(self, is_training: bool = False) -> tuple[list[list[Any]], np.ndarray]:
        """One whole game with ``self.agents`` (RLCard's ``env.run``):
        (trajectories per player, payoffs)."""
        trajectories: list[list[Any]] = [[] for _ in range(3)]
        state, pid = self.reset()
        trajectories[pid].append(state)
        while not self._over:
            agent = self.agents[pid]
            action = agent.step(state) if is_training else agent.eval_step(state)[0]
            state, nxt = self.step(action, agent.use_raw)
            trajectories[pid].append(action)
            pid = nxt
            if not self._over:
                trajectories[pid].append(state)
        for p in range(3):
            trajectories[p].append(self.get_state(p))
        return trajectories, self.get_payoffs()


class RandomAgent:
    """RLCard's random agent (``rlcard.agents.RandomAgent``): the same
    choices for the same NumPy seed, and ``eval_step``'s ``probs`` without
    RLCard's list of 27,472 probabilities a step."""

    use_raw = False

    def __init__(self, num_actions: int = NUM_ACTIONS) -> None:
        self.num_actions = num_actions

    @staticmethod
    def step(state: dict[str, Any]) -> int:
        """A uniform choice among the legal action ids, drawn from NumPy's
        global generator as ``np.random.choice`` draws it."""
        keys = list(state["legal_actions"])
        return int(keys[_legacy_randint(len(keys))])

    def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        n = len(state["legal_actions"])
        return self.step(state), {"probs": dict.fromkeys(state["raw_legal_actions"], 1 / n)}


def _legacy_randint(n: int) -> int:
    """``np.random.randint(0, n)`` of NumPy's global (legacy, MT19937)
    generator, the same draw and the same state after it: the legacy
    generator takes 32-bit words masked to the next power of two above
    n - 1 until one is <= n - 1 (none when n == 1).  A tenth of randint's
    call overhead."""
    top = n - 1
    if top <= 0:
        return 0
    raw = np.random.mtrand._rand._bit_generator.random_raw
    mask = (1 << top.bit_length()) - 1
    while True:
        v: int = raw() & mask
        if v <= top:
            return v


def make(env_id: str, config: dict[str, Any] | None = None) -> DoudizhuEnv:
    """``rlcard.make`` for ``"doudizhu"`` (``ValueError`` for another game)."""
    if env_id != "doudizhu":
        raise InvalidArgumentError(f"ddzcore.interop.rlcard.make only makes 'doudizhu', not {env_id!r}")
    return DoudizhuEnv(config)
