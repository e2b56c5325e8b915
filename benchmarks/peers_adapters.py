"""Adapters that make other public Dou Dizhu engines answer our positions.

Used by the peer benchmarks (speed ratios measured in one run on the same
positions) and by the cross-checks of the ``openspiel`` and ``rlcard`` rule
presets. Every peer is imported lazily: this module imports with none of them
installed, and :func:`available_peers` says which ones are there.

Peers and how each one is driven (all set-up happens outside the timed call):

``openspiel`` (PyPI ``open_spiel``, module ``pyspiel``, game ``dou_dizhu``)
    A real game state is played up to the position: chance actions choose the
    face-up card position (0, so player 0 bids first) and deal the 51 cards
    round-robin (the k-th dealt card goes to player k % 3; the 3 cards never
    dealt are the bottom), player 0 bids 3 and is landlord. Then

    - ``lead20``: player 0 was dealt ``hand`` (17 cards + 3 bottom) and leads;
    - free lead with fewer cards (``lead17``): player 0 holds ``hand`` plus
      3 other cards, plays those as three singles (both farmers pass each
      time) and leads again holding exactly ``hand``;
    - follow: player 0 holds ``last_move`` plus filler (20 cards), leads
      ``last_move``; player 1 holds ``hand`` and is to move.

    The timed call is ``state.legal_actions()``.

``rlcard`` (PyPI ``rlcard``)
    A ``DoudizhuPlayer`` holding ``hand`` as ``Card`` objects. Free lead: a
    ``DoudizhuJudger`` is built for the player (that is where RLCard
    enumerates a hand's plays, once per deal) and
    ``player.available_actions(None, judger)`` is read. Follow: a second
    player whose ``played_cards`` is ``last_move`` is the ``greater_player``,
    and ``player.available_actions(greater_player, judger)`` runs RLCard's
    ``get_gt_cards`` scan of its action space.

``douzero`` (PyPI ``douzero``; install with ``--no-deps``: its declared
dependency on torch is only needed for its models)
    A ``douzero.env.game.GameEnv`` whose acting player (the landlord seat)
    holds ``hand`` and whose ``card_play_action_seq`` is ``[]`` for a free
    lead or ``[last_move]`` for a follow; the timed call is
    ``env.get_legal_card_play_actions()``: ``MovesGener(hand)`` plus the
    type detection and ``move_selector`` filtering DouZero's environment uses.

Counts returned by a timed call exclude pass. They are the engine's own list
lengths: OpenSpiel counts action ids (a card set with two readings has two
ids), RLCard counts distinct card strings, DouZero counts its move list
(which can hold the same cards twice).

The callable returned by ``make_<peer>(positions)`` returns the counts of
the positions it kept, in order, and carries ``kept`` (indices into
``positions``), ``skipped`` ({index: reason key}), ``skip_details``,
``skip_counts``, ``peer`` and ``version``: time ddzcore on the same ``kept``
positions for a fair ratio.

A follow position is skipped for a peer, and the reason recorded, when
``hand`` plus ``last_move`` do not fit in one deck, when ``last_move`` is not
a move of that peer, when the peer reads ``last_move`` as a different
combination than the corpus metadata says (``last_type``/``last_main``), or
(OpenSpiel) when playing it would empty the previous player's hand.

Rule differences seen in these peers (open_spiel 2.0.2, rlcard 1.2.0,
douzero 1.1.0), beyond those in DESIGN.md's action-space totals:

- OpenSpiel offers no chain (straight, pair chain, wingless plane) whose
  lowest rank the player holds four times (hand 56777788899TTTJJJQKB gets
  no 789TJ, 778899 or 777888, though 6789T, 8899TT and TTTJJJ are there),
  when leading and when following; planes with wings are not affected. The
  OpenSpiel adapter therefore never gives the previous player an avoidable
  four of a kind.
- OpenSpiel lists the player's bombs as legal answers to the rocket.
- OpenSpiel has no four-with-two at all; one joker may be a wing, the pair of
  jokers never; 333444555666-like card sets have several action ids.
- RLCard has one reading per card set (999TTTJJJQQQ is only a four-trio
  plane), never the two jokers as kickers, never a bomb among wings.
- DouZero allows the two jokers as kickers (7777BR, 888999BR) and lists some
  moves twice; to follow a plane whose single wings are a trio
  (444555666+AAA) it compares the highest trio of the whole move (A), so it
  finds no answer where 777888999+xyz should beat it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections import Counter
from typing import Any, Callable, Iterable, Sequence

RANKS = "3456789TJQKA2BR"
RANK_INDEX = {c: i for i, c in enumerate(RANKS)}
DECK = Counter({c: (1 if c in "BR" else 4) for c in RANKS})

PEERS = ("openspiel", "rlcard", "douzero")

#: distribution name on PyPI, importable module, install command.
PEER_PACKAGES = {
    "openspiel": ("open_spiel", "pyspiel", "pip install open_spiel"),
    "rlcard": ("rlcard", "rlcard", "pip install rlcard"),
    "douzero": ("douzero", "douzero", "pip install --no-deps douzero"),
}

#: skip reason key -> explanation.
SKIP_REASONS = {
    "deck": "hand + last_move do not fit in one deck",
    "not_a_move": "last_move is not a move in this engine",
    "other_reading": "the engine reads last_move as a different combination "
    "than the corpus metadata",
    "empties_hand": "playing last_move would empty the previous player's hand",
    "hand_size": "the adapter builds follows only for 17-card hands (OpenSpiel)",
}

# Corpus type names (positions.json follow_types) are used as reading names.


class PeerUnavailable(ImportError):
    """The peer engine is not installed in this interpreter."""


class PositionSkipped(ValueError):
    """A peer cannot represent this position; ``reason`` is a SKIP_REASONS key."""

    def __init__(self, reason: str, detail: str = ""):
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {SKIP_REASONS.get(reason, '')}"
                         + (f" ({detail})" if detail else ""))


# --------------------------------------------------------------------------
# helpers


def sort_cards(cards: Iterable[str]) -> str:
    """Sort rank characters into canonical order: ``sort_cards('R3A3') == '33AR'``."""
    return "".join(sorted(cards, key=RANK_INDEX.__getitem__))


def _hand_and_last(position: Any) -> tuple[str, str]:
    if isinstance(position, dict):
        return position["hand"], position.get("last_move", "") or ""
    hand, last = position
    return hand, last or ""


def _meta_reading(position: Any) -> tuple[str, str] | None:
    """(type, sorted main cards) from the corpus metadata, if present."""
    if isinstance(position, dict) and position.get("last_type"):
        return position["last_type"], sort_cards(position.get("last_main", ""))
    return None


def _fits(*parts: str) -> bool:
    c = Counter("".join(parts))
    return all(n <= DECK[r] for r, n in c.items())


def _remaining(*parts: str) -> list[str]:
    """The deck minus the given cards, in rank order."""
    c = DECK.copy()
    c.subtract(Counter("".join(parts)))
    out: list[str] = []
    for r in RANKS:
        out.extend(r * c[r])
    return out


def _spread(pool: Sequence[str], n: int, base: str = "") -> str:
    """Pick ``n`` cards from ``pool`` so that ``base`` plus them holds as few
    fours of a kind as possible (then: ranks not in ``base``, then fewest
    copies, then low ranks): ``_spread('3334445', 3, base='3') == '445'``."""
    avail = Counter(pool)
    have = Counter(base)
    picked = []
    for _ in range(n):
        r = min((r for r in RANKS if avail[r] > 0),
                key=lambda r: (have[r] >= 3, r in base, have[r], RANK_INDEX[r]))
        avail[r] -= 1
        have[r] += 1
        picked.append(r)
    return sort_cards(picked)


def _check_follow_fits(hand: str, last: str) -> None:
    if not _fits(hand, last):
        raise PositionSkipped("deck")


def _import(peer: str):
    dist, module, cmd = PEER_PACKAGES[peer]
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise PeerUnavailable(
            f"peer engine {peer!r} is not installed (module {module!r}); "
            f"install it with: {cmd}") from exc


def peer_version(peer: str) -> str | None:
    """Installed version of the peer's distribution, or None."""
    try:
        return importlib.metadata.version(PEER_PACKAGES[peer][0])
    except importlib.metadata.PackageNotFoundError:
        return None


def available_peers() -> list[str]:
    """The peers importable in this interpreter."""
    out = []
    for peer in PEERS:
        try:
            _import(peer)
            if peer == "douzero":
                importlib.import_module("douzero.env.game")
        except ImportError:
            continue
        out.append(peer)
    return out


def _finish(run: Callable[[], list[int]], peer: str, kept: list[int],
            skipped: dict[int, str], details: dict[int, str]) -> Callable[[], list[int]]:
    run.peer = peer  # type: ignore[attr-defined]
    run.version = peer_version(peer)  # type: ignore[attr-defined]
    run.kept = kept  # type: ignore[attr-defined]
    run.skipped = skipped  # type: ignore[attr-defined]
    run.skip_details = details  # type: ignore[attr-defined]
    run.skip_counts = Counter(skipped.values())  # type: ignore[attr-defined]
    return run


def _prepare(peer: str, positions: Sequence[Any], build):
    items, kept, skipped, details = [], [], {}, {}
    for i, pos in enumerate(positions):
        try:
            items.append(build(pos))
        except PositionSkipped as exc:
            skipped[i] = exc.reason
            details[i] = exc.detail
            continue
        kept.append(i)
    return items, kept, skipped, details


# --------------------------------------------------------------------------
# OpenSpiel


def _os_reading(text: str) -> tuple[str, str, str]:
    """Parse an OpenSpiel play string -> (sorted cards, type, sorted main).

    ``'333444-8K'`` is a plane with wings, ``'444(BWJ)'`` a trio + single,
    ``'(BWJ)(CJ)'`` the rocket.
    """
    t = text.replace("(BWJ)", "B").replace("(CJ)", "R")
    if "-" in t:
        main, kick = t.split("-")
        n = len(main) // 3
        kind = "airplane_solo" if len(kick) == n else "airplane_pair"
        assert len(kick) in (n, 2 * n), text
        return sort_cards(main + kick), kind, sort_cards(main)
    cards = sort_cards(t)
    cnt = Counter(cards)
    if cards == "BR":
        return cards, "rocket", cards
    if len(cnt) == 1:
        kind = {1: "single", 2: "pair", 3: "trio", 4: "bomb"}[len(cards)]
        return cards, kind, cards
    counts = set(cnt.values())
    if len(counts) == 1:
        kind = {1: "straight", 2: "pair_chain", 3: "airplane"}[counts.pop()]
        return cards, kind, cards
    trio = [r for r, n in cnt.items() if n == 3]
    assert len(trio) == 1 and len(cnt) == 2, text
    kind = "trio_solo" if len(cards) == 4 else "trio_pair"
    return cards, kind, trio[0] * 3


class _OpenSpiel:
    """Action tables of pyspiel's dou_dizhu, built once."""

    _instance: "_OpenSpiel | None" = None

    @classmethod
    def get(cls) -> "_OpenSpiel":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self) -> None:
        pyspiel = _import("openspiel")
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("dou_dizhu")
        st = self.game.new_initial_state()
        # player actions: Pass, Bid n, then plays
        self.pass_id = None
        self.bid = {}
        self.cards = {}      # action id -> sorted card string
        self.reading = {}    # action id -> (type, main)
        self.by_cards: dict[str, list[int]] = {}
        for a in range(self.game.num_distinct_actions()):
            s = st.action_to_string(0, a)
            if s == "Pass":
                self.pass_id = a
            elif s.startswith("Bid "):
                self.bid[int(s[4:])] = a
            else:
                cards, kind, main = _os_reading(s)
                self.cards[a] = cards
                self.reading[a] = (kind, main)
                self.by_cards.setdefault(cards, []).append(a)
        assert self.pass_id is not None and 3 in self.bid
        # chance actions: face-up position p (first bidder p % 3), deal card
        self.face_up_0 = None
        self.deal: dict[str, list[int]] = {r: [] for r in RANKS}
        for a, _p in st.chance_outcomes():
            s = st.action_to_string(pyspiel.PlayerId.CHANCE, a)
            if s == "Decide first card up position 0":
                self.face_up_0 = a
        assert self.face_up_0 is not None
        st.apply_action(self.face_up_0)
        for a, _p in st.chance_outcomes():
            s = st.action_to_string(pyspiel.PlayerId.CHANCE, a)
            assert s.startswith("Deal "), s
            card = s[5:]
            rank = {"(BWJ)": "B", "(CJ)": "R"}.get(card, card[-1:])
            self.deal[rank].append(a)
        assert all(len(v) == DECK[r] for r, v in self.deal.items())
        self.single = {self.cards[a]: a for a, (k, _m) in self.reading.items()
                       if k == "single"}

    def state(self, dealt: Sequence[str], script: Sequence[int]):
        """Deal ``dealt[p]`` (17 ranks each) to player p, player 0 bids 3 and
        becomes landlord (taking the 3 undealt cards), then apply ``script``."""
        st = self.game.new_initial_state()
        st.apply_action(self.face_up_0)  # player 0 is the first bidder
        pools = {r: list(v) for r, v in self.deal.items()}
        ids = [[pools[c].pop() for c in hand] for hand in dealt]
        assert all(len(h) == 17 for h in ids)
        for k in range(17):  # the k-th dealt card goes to player k % 3
            for p in range(3):
                st.apply_action(ids[p][k])
        assert st.current_player() == 0
        st.apply_action(self.bid[3])
        assert st.current_player() == 0
        for a in script:
            st.apply_action(a)
        return st

    def build(self, position: Any, check: bool = True):
        """A state where the player to move holds ``hand`` facing
        ``last_move``; returns (state, player to move)."""
        hand, last = _hand_and_last(position)
        if not last:
            if not 1 <= len(hand) <= 20 or not _fits(hand):
                raise ValueError(f"cannot build a free lead with hand {hand!r}")
            # the landlord holds 20: `hand` plus `extra` other cards, which it
            # leads away as singles (both farmers passing) before the position
            rest = _remaining(hand)
            extra = 20 - len(hand)
            z, rest = rest[:extra], rest[extra:]
            mine = sort_cards(hand + "".join(z))
            script = []
            for c in z:
                script += [self.single[c], self.pass_id, self.pass_id]
            # dealt 17; the 3 cards the deal leaves over are its bottom
            st = self.state([mine[:17], "".join(rest[:17]), "".join(rest[17:])],
                            script)
            mover = 0
        else:
            _check_follow_fits(hand, last)
            if len(hand) != 17:
                # player 1 (a farmer) must hold exactly `hand` right after
                # the landlord's opening lead
                raise PositionSkipped("hand_size", f"{len(hand)} cards")
            if len(last) >= 20:
                raise PositionSkipped("empties_hand")
            cands = self.by_cards.get(sort_cards(last))
            if not cands:
                raise PositionSkipped("not_a_move", "no OpenSpiel play id")
            meta = _meta_reading(position)
            if meta is not None:
                match = [a for a in cands if self.reading[a] == meta]
                if not match:
                    raise PositionSkipped(
                        "other_reading",
                        "; ".join(f"{k} {m}" for k, m in
                                  (self.reading[a] for a in cands)))
                cands = match
            aid = cands[0]
            rest = _remaining(hand, last)
            # OpenSpiel omits chains (straight, pair chain, wingless plane)
            # whose lowest rank the player holds four times, so the filler
            # never completes a four of a kind if it can help it.
            filler = _spread(rest, 20 - len(last), base=last)
            landlord = sort_cards(last + filler)
            rest = list((Counter(rest) - Counter(filler)).elements())
            # landlord is dealt 17 of its 20; the 3 left undealt are the bottom
            st = self.state([landlord[:17], hand, "".join(rest)], [])
            if check and aid not in st.legal_actions():
                raise PositionSkipped("not_a_move", "not legal as a lead")
            st.apply_action(aid)
            mover = 1
        if check:
            assert st.current_player() == mover
            got = st.observation_string(mover).split("\n", 1)[0]
            assert got.startswith("My hand ")
            got = sort_cards(got[8:].replace("(BWJ)", "B").replace("(CJ)", "R"))
            assert got == sort_cards(hand), (got, hand)
        return st, mover


def make_openspiel(positions: Sequence[Any]) -> Callable[[], list[int]]:
    """Timed callable: ``state.legal_actions()`` for every kept position."""
    os_ = _OpenSpiel.get()
    pass_id = os_.pass_id

    def build(pos):
        st, _ = os_.build(pos)
        la = st.legal_actions()
        return st, int(pass_id in la)

    items, kept, skipped, details = _prepare("openspiel", positions, build)
    states = [s for s, _ in items]
    npass = [f for _, f in items]

    def run() -> list[int]:
        return [len(s.legal_actions()) - f for s, f in zip(states, npass)]

    return _finish(run, "openspiel", kept, skipped, details)


def _openspiel_moves(position: Any) -> set[str]:
    os_ = _OpenSpiel.get()
    st, _ = os_.build(position)
    return {os_.cards[a] for a in st.legal_actions() if a != os_.pass_id}


# --------------------------------------------------------------------------
# RLCard

# RLCard type name prefix -> corpus type name
_RL_TYPES = {
    "solo": "single", "pair": "pair", "trio": "trio", "trio_solo": "trio_solo",
    "trio_pair": "trio_pair", "solo_chain": "straight",
    "pair_chain": "pair_chain", "trio_chain": "airplane",
    "trio_solo_chain": "airplane_solo", "trio_pair_chain": "airplane_pair",
    "four_two_solo": "four_two_solo", "four_two_pair": "four_two_pair",
    "bomb": "bomb", "rocket": "rocket",
}


_RL_KICKER_TYPES = {"trio_solo", "trio_pair", "airplane_solo", "airplane_pair",
                    "four_two_solo", "four_two_pair"}


def _rl_type(name: str) -> str:
    base = name.rstrip("0123456789").rstrip("_")
    return _RL_TYPES[base]


class _RLCard:
    _instance: "_RLCard | None" = None

    @classmethod
    def get(cls) -> "_RLCard":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self) -> None:
        _import("rlcard")
        from rlcard.games.base import Card
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.player import DoudizhuPlayer
        from rlcard.games.doudizhu import utils
        self.Card = Card
        self.Judger = DoudizhuJudger
        self.Player = DoudizhuPlayer
        self.card_type = utils.CARD_TYPE[0]
        self.action_ids = utils.ACTION_2_ID

    def cards(self, text: str):
        out, seen = [], Counter()
        for c in text:
            if c == "B":
                out.append(self.Card("BJ", ""))
            elif c == "R":
                out.append(self.Card("RJ", ""))
            else:
                out.append(self.Card("SHDC"[seen[c]], c))
                seen[c] += 1
        return out

    def build(self, position: Any):
        """(player, greater_player or None)."""
        hand, last = _hand_and_last(position)
        player = self.Player(0, None)
        player.set_current_hand(self.cards(hand))
        if not last:
            return player, None
        _check_follow_fits(hand, last)
        last = sort_cards(last)
        types = self.card_type.get(last)
        if not types:
            raise PositionSkipped("not_a_move", "not in RLCard's action space")
        meta = _meta_reading(position)
        if meta is not None:
            kind, main = meta
            # RLCard's weight: index of the lowest main rank, plus one for
            # types with kickers; the rocket weighs 0
            weight = 0 if kind == "rocket" else RANK_INDEX[main[0]] + (
                kind in _RL_KICKER_TYPES)
            want = (kind, str(weight))
            have = [(_rl_type(t), str(w)) for t, w in types]
            if want not in have:
                raise PositionSkipped(
                    "other_reading", "; ".join(f"{t} {w}" for t, w in types))
        greater = self.Player(2, None)
        greater.played_cards = last
        return player, greater


def make_rlcard(positions: Sequence[Any]) -> Callable[[], list[int]]:
    """Timed callable: RLCard's legal actions for every kept position."""
    rl = _RLCard.get()
    items, kept, skipped, details = _prepare("rlcard", positions, rl.build)
    Judger = rl.Judger

    def run() -> list[int]:
        out = []
        for player, greater in items:
            if greater is None:
                judger = Judger([player], None)
                out.append(len(player.available_actions(None, judger)))
            else:
                out.append(len(player.available_actions(greater, None)) - 1)
        return out

    return _finish(run, "rlcard", kept, skipped, details)


def _rlcard_moves(position: Any) -> set[str]:
    rl = _RLCard.get()
    player, greater = rl.build(position)
    judger = rl.Judger([player], None) if greater is None else None
    acts = player.available_actions(greater, judger)
    return {sort_cards(a) for a in acts if a != "pass"}


# --------------------------------------------------------------------------
# DouZero

_DZ_CARD = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
            "J": 11, "Q": 12, "K": 13, "A": 14, "2": 17, "B": 20, "R": 30}
_DZ_CHAR = {v: k for k, v in _DZ_CARD.items()}
# corpus type -> DouZero move_detector type number
_DZ_TYPES = {"single": 1, "pair": 2, "trio": 3, "bomb": 4, "rocket": 5,
             "trio_solo": 6, "trio_pair": 7, "straight": 8, "pair_chain": 9,
             "airplane": 10, "airplane_solo": 11, "airplane_pair": 12,
             "four_two_solo": 13, "four_two_pair": 14}


def _dz_cards(text: str) -> list[int]:
    return sorted(_DZ_CARD[c] for c in text)


class _DouZero:
    _instance: "_DouZero | None" = None

    @classmethod
    def get(cls) -> "_DouZero":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self) -> None:
        _import("douzero")
        try:
            from douzero.env import game as dz_game
            from douzero.env import move_detector as md
        except ImportError as exc:  # e.g. numpy missing
            raise PeerUnavailable(f"douzero is installed but its environment "
                                  f"does not import: {exc}") from exc
        self.GameEnv = dz_game.GameEnv
        self.md = md

    def build(self, position: Any):
        hand, last = _hand_and_last(position)
        env = self.GameEnv(players={})
        env.acting_player_position = "landlord"
        env.info_sets["landlord"].player_hand_cards = _dz_cards(hand)
        if last:
            _check_follow_fits(hand, last)
            rival = _dz_cards(last)
            got = self.md.get_move_type(list(rival))
            if got["type"] == self.md.TYPE_15_WRONG:
                raise PositionSkipped("not_a_move", "move_detector: wrong type")
            meta = _meta_reading(position)
            if meta is not None:
                kind, main = meta
                want_type = _DZ_TYPES[kind]
                lows = _dz_cards(main)
                ok = got["type"] == want_type
                if ok and "len" in got:
                    ok = got["rank"] == lows[0] and got["len"] == len(set(lows))
                elif ok and "rank" in got:
                    ok = got["rank"] == lows[0]
                if not ok:
                    raise PositionSkipped("other_reading", f"douzero {got}")
            env.card_play_action_seq = [rival]
        else:
            env.card_play_action_seq = []
        return env, int(bool(last))


def make_douzero(positions: Sequence[Any]) -> Callable[[], list[int]]:
    """Timed callable: ``GameEnv.get_legal_card_play_actions()`` per position."""
    dz = _DouZero.get()
    items, kept, skipped, details = _prepare("douzero", positions, dz.build)

    def run() -> list[int]:
        return [len(env.get_legal_card_play_actions()) - f for env, f in items]

    return _finish(run, "douzero", kept, skipped, details)


def _douzero_moves(position: Any) -> set[str]:
    dz = _DouZero.get()
    env, _ = dz.build(position)
    return {"".join(_DZ_CHAR[c] for c in sorted(m))
            for m in env.get_legal_card_play_actions() if m}


# --------------------------------------------------------------------------
# public entry points

MAKERS = {"openspiel": make_openspiel, "rlcard": make_rlcard,
          "douzero": make_douzero}
_MOVES = {"openspiel": _openspiel_moves, "rlcard": _rlcard_moves,
          "douzero": _douzero_moves}


def make_peer(peer: str, positions: Sequence[Any]) -> Callable[[], list[int]]:
    """``MAKERS[peer](positions)``; raises PeerUnavailable if not installed."""
    return MAKERS[peer](positions)


def try_make_peer(peer: str, positions: Sequence[Any]) -> Callable[[], list[int]] | None:
    """Like :func:`make_peer` but returns None when the peer is not installed."""
    try:
        return MAKERS[peer](positions)
    except PeerUnavailable:
        return None


def peer_move_sets(peer: str, position: Any) -> set[str]:
    """Distinct card sets (sorted rank strings, pass excluded) that ``peer``
    allows in ``position``. Raises PositionSkipped (a ValueError, with
    ``.reason``) when the peer cannot represent the position, PeerUnavailable
    when the peer is not installed."""
    return _MOVES[peer](position)


def peer_skip_reason(peer: str, position: Any) -> str | None:
    """The SKIP_REASONS key for which ``peer`` skips ``position``, or None."""
    try:
        {"openspiel": lambda p: _OpenSpiel.get().build(p),
         "rlcard": lambda p: _RLCard.get().build(p),
         "douzero": lambda p: _DouZero.get().build(p)}[peer](position)
    except PositionSkipped as exc:
        return exc.reason
    return None


def load_positions(path: str | None) -> list[dict]:
    """The peer corpus at ``path`` (``FileNotFoundError`` saying how to give one)."""
    import bench_corpus

    return bench_corpus.load_corpus(path)
