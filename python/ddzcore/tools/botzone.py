"""Botzone's FightTheLandlord2 (叫分斗地主) protocol, both ways (docs/rules.md §2-§4).

Botzone (botzone.org.cn), the field's public bot leaderboard, runs a bot
as a program that reads one JSON object per turn on stdin and writes one
on stdout:

- cards are ids 0-53: rank = id // 4 for 0-51 (ranks 3, 4, ..., A, 2),
  52 the small joker, 53 the big joker (``ddzcore.game.Card`` uses the same
  ids);
- the first request of a game is a bid request ``{"own": [17 ids], "bid":
  [the earlier players' bids]}``, answered by a bid 0-3 (0: no bid; a bid
  must top the earlier ones);
- then play requests ``{"history": [[ids], [ids]], "publiccard": [3 ids],
  "landlord": seat, "pos": seat, "finalbid": 1-3, "own": [...]}`` (the last
  four fields in the first one only): ``history`` holds what the seats
  two before and one before this bot played since its last turn (``[]``:
  pass, or nothing yet); the landlord leads and play goes landlord,
  landlord + 1, landlord + 2; the answer is the list of ids played
  (``[]``: pass);
- the program's input is ``{"requests": [...], "responses": [...],
  "data": ..., "globaldata": ...}`` (every request so far and its own
  earlier answers) and its output ``{"response": ..., "data": ...}``; a
  program that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its
  output keeps running and is then sent each new request alone, one line.

``run_botzone(bot)`` (``ddz botzone --bot search``) runs any ddzcore
``Bot`` as such a program (keep-running mode); ``BotzoneProgram`` runs a
Botzone program as a ddzcore ``Bot`` (``ddz arena --bots
rule,botzone:./prog``).  The ``botzone`` rules preset
(``Rules.preset("botzone")``) is Botzone's move set: kickers of distinct
ranks and shuttles (航天飞机, ``Combo.SHUTTLE``).  A card set with several
readings under these rules is read as the first legal reading in kernel
order.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import IO, Any, Optional, Sequence

from .bots import AnyAction, AnyObservation, Bot
from ..cards import Hand
from ..errors import DdzError
from ..cards import Card
from ..game.three import Action, Observation, Phase
from ..generate import legal_moves
from ..moves import PASS, Move, classify
from .protocol import LineProcess, ProtocolError
from ..rules import Rules
from ..game.settlement import Multiplier

__all__ = ["BotzoneError", "BotzoneGame", "run_botzone", "BotzoneProgram", "KEEP_RUNNING", "BOTZONE_RULES"]

#: The line a keep-running Botzone program prints after its output.
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#: Botzone FightTheLandlord2's rules (move set and point bidding).
BOTZONE_RULES = Rules.preset("botzone")


class BotzoneError(DdzError):
    """A Botzone request that is malformed or impossible (bad ids, a card
    played twice, a play that is no legal combination)."""


def _rank(card_id: int) -> int:
    return card_id // 4 if card_id < 52 else card_id - 39  # 52 -> B (13), 53 -> R (14)


def ids_word(ids: Sequence[int]) -> int:
    """The card word of Botzone card ids.  Raises ``BotzoneError`` for a bad
    or repeated id."""
    if any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < 54 for i in ids) or len(set(ids)) != len(ids):
        raise BotzoneError(f"{list(ids)!r} are not distinct Botzone card ids 0-53")
    return sum(1 << (4 * _rank(i)) for i in ids)


def read_move(ids: Sequence[int], last: Optional[Move], rules: Rules = BOTZONE_RULES) -> Move:
    """The move the ids play: ``PASS`` for ``[]``, else the first reading of
    the cards in kernel order that beats ``last`` (any reading on a lead).
    Raises ``BotzoneError`` when no reading does."""
    if not ids:
        return PASS
    cards = Hand._trusted(ids_word(ids))
    readings = [m for m in classify(cards, rules) if last is None or m.beats(last, rules)]
    if not readings:
        raise BotzoneError(f"{cards} is no combination{'' if last is None else f' beating {last}'} under "
                           "Botzone's rules")
    return readings[0]


def _ids_list(x: Any, what: str) -> list[int]:
    if not isinstance(x, list) or any(not isinstance(i, int) or isinstance(i, bool) for i in x):
        raise BotzoneError(f"{what} must be a list of card ids, not {x!r}")
    return x


@dataclass
class BotzoneGame:
    """A game as one Botzone bot sees it, rebuilt from its requests and its
    own earlier responses (``BotzoneGame.parse``).

    ``own``: its 17 dealt ids; ``bids``: the bids before its own (bid
    phase) or all known; ``pos``, ``landlord``, ``finalbid``, ``publiccard``
    (``None`` while bidding); ``events``: every play so far as ``(seat,
    Move)``; ``played_ids``: ids it played; ``last`` / ``last_seat``: the
    move to beat (``None`` on a lead).
    """

    own: list[int]
    bids: list[int]
    pos: int
    landlord: Optional[int] = None
    finalbid: int = 0
    publiccard: Optional[list[int]] = None
    events: list[tuple[int, Move]] = field(default_factory=list)
    played_ids: list[int] = field(default_factory=list)
    last: Optional[Move] = None
    last_seat: Optional[int] = None

    @property
    def bidding(self) -> bool:
        return self.landlord is None

    @classmethod
    def parse(cls, requests: Sequence[Any], responses: Sequence[Any], rules: Rules = BOTZONE_RULES) -> "BotzoneGame":
        """Rebuild the game at the last request (``responses``: the bot's
        answers to the earlier ones).  Raises ``BotzoneError``."""
        if not requests or not isinstance(requests, list) or any(not isinstance(r, dict) for r in requests):
            raise BotzoneError("requests must be a non-empty list of JSON objects")
        if len(responses) != len(requests) - 1:
            raise BotzoneError(f"{len(requests)} requests need {len(requests) - 1} earlier responses, "
                               f"not {len(responses)}")
        own = next((r["own"] for r in requests if "own" in r), None)
        own = _ids_list(own, "own")
        if len(own) != 17:
            raise BotzoneError(f"own must hold 17 card ids, not {len(own)}")
        ids_word(own)
        g = cls(own=list(own), bids=[], pos=0)
        for i, req in enumerate(requests):
            current = i == len(requests) - 1
            if "history" not in req:  # a bid request
                bids = req.get("bid", [])
                if not isinstance(bids, list) or any(b not in (0, 1, 2, 3) for b in bids) or len(bids) > 2:
                    raise BotzoneError(f"bid must be a list of up to two bids 0-3, not {bids!r}")
                g.bids = list(bids)
                g.pos = len(bids)
                if not current:
                    g.bids.append(responses[i])
                continue
            if "publiccard" in req:
                g._start_play(req)
            if g.landlord is None:
                raise BotzoneError("a play request came before the one with publiccard/landlord/pos")
            g._replay(_history(req), first=g._first_play_request(i, requests), rules=rules)
            if not current:
                g._play(g.pos, _ids_list(responses[i], f"response {i}"), rules)
        return g

    def _first_play_request(self, i: int, requests: Sequence[Any]) -> bool:
        return all("history" not in r for r in requests[:i])

    def _start_play(self, req: dict[str, Any]) -> None:
        pub = _ids_list(req["publiccard"], "publiccard")
        ll, pos, fb = req.get("landlord"), req.get("pos"), req.get("finalbid", 1)
        if len(pub) != 3 or ll not in (0, 1, 2) or pos not in (0, 1, 2) or fb not in (1, 2, 3):
            raise BotzoneError(f"bad first play request: publiccard {pub!r}, landlord {ll!r}, pos {pos!r}, "
                               f"finalbid {fb!r}")
        ids_word(pub)
        if set(pub) & set(self.own):
            raise BotzoneError("publiccard holds the bot's own dealt cards")
        self.publiccard, self.landlord, self.pos, self.finalbid = list(pub), ll, pos, fb

    def _replay(self, history: list[list[int]], first: bool, rules: Rules) -> None:
        assert self.landlord is not None
        order = (self.pos - self.landlord) % 3  # this bot's place in the play order
        for k, seat in ((0, (self.pos + 1) % 3), (1, (self.pos + 2) % 3)):
            if first and (seat - self.landlord) % 3 > order:
                continue  # that seat has not played yet
            self._play(seat, history[k], rules)

    def _play(self, seat: int, ids: list[int], rules: Rules) -> None:
        lead = self.last is None or self.last_seat == seat
        move = read_move(ids, None if lead else self.last, rules)
        if move.is_pass:
            if lead:
                raise BotzoneError(f"seat {seat} passed on a lead")
            self.events.append((seat, move))
            if (seat + 1) % 3 == self.last_seat:
                self.last, self.last_seat = None, None
            return
        if seat == self.pos:
            if set(ids) - set(self.hand_ids):
                raise BotzoneError(f"the bot played ids {ids} it does not hold")
            self.played_ids += ids
        self.events.append((seat, move))
        self.last, self.last_seat = move, seat

    @property
    def hand_ids(self) -> list[int]:
        """Ids the bot holds now."""
        ids = self.own + (self.publiccard or [] if self.landlord == self.pos else [])
        return sorted(set(ids) - set(self.played_ids))

    def counts(self) -> tuple[int, int, int]:
        n = [17, 17, 17]
        if self.landlord is not None:
            n[self.landlord] += 3
        for seat, m in self.events:
            n[seat] -= len(m.cards)
        return (n[0], n[1], n[2])

    def observation(self, rules: Rules = BOTZONE_RULES) -> Observation:
        """The bot's ``Observation`` (point bidding, ``Phase.BID``, or play)."""
        hand = Hand._trusted(ids_word(self.hand_ids))
        history: list[tuple[int, "Action | Move"]] = [(s, Action(Action.BID_1 - 1 + b) if b else Action.NO_BID)
                                                       for s, b in enumerate(self.bids)]
        history += [(s, m) for s, m in self.events]
        if self.bidding:
            top = max(self.bids, default=0)
            legal: Any = tuple([Action.NO_BID] + [Action(Action.BID_1 + b - 1) for b in range(top + 1, 4)])
            phase, landlord, bottom, last, last_seat = Phase.BID, None, None, None, None
        else:
            last, last_seat = self.last, self.last_seat
            legal = legal_moves(hand, last, rules)
            phase, landlord = Phase.PLAY, self.landlord
            bottom = Hand._trusted(ids_word(self.publiccard or []))
        bombs = sum(1 for _, m in self.events if m.is_bomb)
        return Observation(
            player=self.pos, phase=phase, current_player=self.pos, first_caller=0, landlord=landlord,
            redeals=0, hand=hand, cards=tuple(Card(i) for i in self.hand_ids), shown={}, bottom=bottom,
            card_counts=self.counts(), history=tuple(history), base=max(self.finalbid, 1),
            multiplier=Multiplier(bombs=bombs), shows=(0, 0, 0), doubles=(1, 1, 1), last_move=last,
            last_player=last_seat, legal_actions=legal, wild=None)

    def response(self, action: AnyAction) -> Any:
        """Botzone's answer for the bot's action: a bid 0-3 or a list of ids."""
        if isinstance(action, Action):
            return int(action) - Action.BID_1 + 1 if action != Action.NO_BID else 0
        assert isinstance(action, Move)
        need = [(action.codes[0] >> (4 * r)) & 0xF for r in range(15)]
        out = []
        for i in self.hand_ids:
            r = _rank(i)
            if need[r]:
                need[r] -= 1
                out.append(i)
        return out


def _history(req: dict[str, Any]) -> list[list[int]]:
    h = req.get("history")
    if not isinstance(h, list) or len(h) != 2:
        raise BotzoneError(f"history must be a list of two plays, not {h!r}")
    return [_ids_list(x, "a history entry") for x in h]


def answer(bot: Bot, requests: Sequence[Any], responses: Sequence[Any], rules: Rules = BOTZONE_RULES) -> Any:
    """The bot's Botzone response to the last of ``requests``."""
    g = BotzoneGame.parse(requests, responses, rules)
    return g.response(bot.act(g.observation(rules)))


def run_botzone(bot: Bot, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout,
                rules: Rules = BOTZONE_RULES, keep_running: bool = True) -> int:
    """Serve Botzone requests with ``bot`` until stdin ends; returns the turns answered.

    The first line is Botzone's full input (``requests``/``responses``);
    with ``keep_running`` each answer is followed by ``KEEP_RUNNING`` and
    each later line is one new request (or again a full input).  A bad
    request is answered with ``{"response": null, "debug": reason}``.
    """
    requests: list[Any] = []
    responses: list[Any] = []
    turns = 0
    bot.new_game(0, rules)
    for line in stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            if isinstance(msg, dict) and "requests" in msg:
                requests, responses = list(msg["requests"]), list(msg.get("responses", []))
            else:
                requests.append(msg)
            out: dict[str, Any] = {"response": answer(bot, requests, responses, rules)}
            responses.append(out["response"])
        except (ValueError, KeyError, TypeError) as e:
            out = {"response": None, "debug": f"bad request: {e}"}
            responses.append(None)
        stdout.write(json.dumps(out) + "\n")
        turns += 1
        if keep_running:
            stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()
    return turns


class BotzoneProgram(Bot):
    """A Botzone FightTheLandlord2 program as a ddzcore ``Bot`` (for the arena).

    The arena fixes the landlord (seat 0) without bidding, so the program
    is first sent a bid request (the landlord's bid shown as 3, the others'
    as 0; its answer is ignored), then the play requests.  Card ids it has
    not seen (the other hands' plays, the landlord's bottom) are given ids
    of the right ranks it cannot tell apart from the real ones.  Supports
    keep-running programs and programs started once per turn.  A program
    that misbehaves (timeout, exit, bad JSON, an illegal play) raises
    ``ProtocolError``.
    """

    name = "botzone"

    def __init__(self, command: "str | Sequence[str]", timeout: float = 5.0) -> None:
        self.name = f"botzone:{command if isinstance(command, str) else ' '.join(command)}"
        self.timeout = timeout
        self._io = LineProcess(command, self.name)
        self._reset()

    def _reset(self) -> None:
        self._requests: list[Any] = []
        self._responses: list[Any] = []
        self._data: Any = ""
        self._global: Any = ""
        self._keep = False
        self._seen = 0
        self._free: dict[int, list[int]] = {}
        self._bottom_ids: dict[int, list[int]] = {}
        self._first: Optional[dict[str, Any]] = None
        self._my_ids: list[int] = []

    def new_game(self, seat: int, rules: Rules) -> None:
        self._io.close()
        self._reset()

    def _ask(self, request: dict[str, Any]) -> Any:
        self._requests.append(request)
        if self._keep and self._io.alive:
            self._io.send(request)
        else:
            self._io.start()
            self._io.send({"requests": self._requests, "responses": self._responses, "data": self._data,
                           "globaldata": self._global})
        out = self._io.read_json(self.timeout)
        if not isinstance(out, dict) or "response" not in out:
            raise ProtocolError(self.name, f"answered {json.dumps(out)[:80]!r}: no \"response\" field")
        self._data, self._global = out.get("data", self._data), out.get("globaldata", self._global)
        self._responses.append(out["response"])
        try:
            self._keep = self._io.read_line(min(self.timeout, 0.5)) == KEEP_RUNNING
        except ProtocolError:
            self._keep = False  # exited after answering: started again next turn
        if not self._keep:
            self._io.close()
        return out["response"]

    def _alloc(self, word: int, prefer: Optional[dict[int, list[int]]] = None) -> list[int]:
        """Ids for cards of the given ranks the program has not seen."""
        out = []
        for r in range(15):
            for _ in range((word >> (4 * r)) & 0xF):
                pool = (prefer or {}).get(r) or self._free[r]
                out.append(pool.pop())
                if pool is not self._free[r] and out[-1] in self._free[r]:
                    self._free[r].remove(out[-1])
        return out

    def act(self, obs: AnyObservation) -> AnyAction:
        """Translate the observation into Botzone requests and the answer back."""
        if not isinstance(obs, Observation) or obs.phase != Phase.PLAY or obs.landlord is None:
            raise ProtocolError(self.name, "a Botzone program plays the three-player play phase only")
        me, ll = obs.player, obs.landlord
        if not self._requests:
            own = sorted(int(c) for c in obs.cards)
            known = set(own)
            self._free = {r: [] for r in range(15)}
            for i in range(53, -1, -1):
                if i not in known:
                    self._free[_rank(i)].append(i)
            assert obs.bottom is not None
            if me == ll:  # the bottom cards: ids of the right ranks from its own 20
                bottom, need = [], [(obs.bottom.word >> (4 * r)) & 0xF for r in range(15)]
                for i in own:
                    if need[_rank(i)]:
                        need[_rank(i)] -= 1
                        bottom.append(i)
                own = [i for i in own if i not in bottom]
            else:
                bottom = self._alloc(obs.bottom.word)
                for i in bottom:
                    self._bottom_ids.setdefault(_rank(i), []).append(i)
            pos = (me - ll) % 3
            self._ask({"own": own, "bid": [3, 0][:pos]})
            self._first = {"publiccard": bottom, "landlord": ll, "pos": me, "finalbid": 3, "own": own}
            self._my_ids = sorted(set(own) | (set(bottom) if me == ll else set()))
        plays = [(s, a) for s, a in obs.history if isinstance(a, Move)]
        new = plays[self._seen:]
        self._seen = len(plays)
        hist: list[list[int]] = [[], []]
        for s, m in new:
            if s == me:
                continue
            ids = self._alloc(m.codes[0], self._bottom_ids if s == ll else None) if not m.is_pass else []
            hist[0 if s == (me + 1) % 3 else 1] = ids
        req: dict[str, Any] = {"history": hist}
        if self._first is not None:
            req.update(self._first)
            self._first = None
        resp = self._ask(req)
        if not isinstance(resp, list) or any(not isinstance(i, int) or isinstance(i, bool) for i in resp) \
                or set(resp) - set(self._my_ids) or len(set(resp)) != len(resp):
            raise ProtocolError(self.name, f"played {resp!r}: not ids from its hand (illegal action)")
        try:
            move = read_move(resp, obs.last_move, obs_rules(obs))
        except BotzoneError as e:
            raise ProtocolError(self.name, f"played {resp!r}: {e} (illegal action)") from None
        legal = list(obs.legal_actions)
        if move not in legal:
            raise ProtocolError(self.name, f"played {resp!r} ({move}), which is not legal here (illegal action)")
        self._my_ids = [i for i in self._my_ids if i not in resp]
        return move

    def close(self) -> None:
        """Stop the program."""
        self._io.close()


def obs_rules(obs: AnyObservation) -> Rules:
    """The rules a move is read under: the legal ``MoveList``'s, else Botzone's."""
    return getattr(obs.legal_actions, "rules", BOTZONE_RULES)
