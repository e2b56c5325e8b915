"""Game records: every game as JSON, replayed to the identical state
(docs/rules.md §3-6), and readable text transcripts.

A record (``to_record(game)``; ``dumps``/``loads`` for text,
``save``/``load`` for files) holds::

    {
      "format": "ddzcore-game", "version": 2,
      "rules":  the Rules fields that differ from the defaults (a laizi room's
                show-cards fields when they differ from either room's),
      "room":   Room fields or null,  "beans": [b0, b1, b2] or null,
      "deals":  [{"first": seat, "cards": ["S3 H3 ...", "...", "...", "D2 B R"]}, ...]
                (hand 0, hand 1, hand 2, bottom, in dealing order; one entry per
                deal, redeals included; in a laizi room the current deal
                also has its wild rank, "wild": "7", docs/rules.md §7)  -- or --
      "endgame": {"hands": [...], "landlord": 0, "to_move": 0, "last": null, ...},
      "actions": ["0 no_show", "1 call", ..., "0 33|pair|3|1", "1 pass", "2 escape"],
      "result":  {"over": true, "landlord": 0, "winner": 0, "escaped": null, "redeals": 0,
                  "returns": [2, -1, -1]},
      "settlement": Settlement.to_dict() or null
    }

An action is ``"SEAT TEXT"``: the ``Action`` name, ``pass``, or the move's
full ``CARDS|COMBO|MAIN|LENGTH`` text (laizi moves are read under the wild
rank, which fixes what each wild card stood for).  ``replay`` checks the
recorded result and settlement against the replayed game.

The version names the rules revision that settled the record
(docs/rules.md, "Revisions"): version 2 is today's rules; version 1 records
were settled before the five revisions.  A version 1 record still loads: its
rules mean what they meant then (``laizi: true`` alone kept the happy room's
show cards), its actions replay under today's rules, and its game is settled
again under them; the recorded settlement and returns are not checked (an
escape, a laizi cap or a show order may settle differently now), the rest
of the result is.  A version 1 record whose actions no longer replay (the
first shower now calls first) raises ``RecordError`` saying so.

``Game`` and ``FiveGame`` pickle through their record (see "pickling"
below): unpickling replays it with these checks, restores the random
generator (later redeals), and raises ``RecordError`` for a pickle changed
after it was made.  Their subclasses pickle the same way, with their own
attributes (instance dict, added slots) as pickled, set back by
``__setstate__`` after the checks; a pickled attribute named like the
game's own state raises ``RecordError``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..cards import RANK_CHARS, Card
from ..errors import DdzError, InvalidMoveError, RecordError, record_errors
from .base import GameBase
from .five import FiveAction, FiveGame, MarkedMove
from .three import Action, Game
from ..moves import PASS, Move, _words_ok
from ..rules import ROOM_DEFAULTS, Rules
from .settlement import FiveSettlement, Room, Settlement

__all__ = ["to_record", "replay", "dumps", "loads", "save", "load", "action_text", "parse_action_text",
           "transcript", "FORMAT", "VERSION"]

FORMAT = "ddzcore-game"
#: The record format version = the rules revision that settled it (1: before
#: the revisions of docs/rules.md, 2: today's rules).
VERSION = 2
#: Older versions ``replay`` still reads (see the module docstring).
OLD_VERSIONS = (1,)


def action_text(seat: int, action: "Action | FiveAction | Move") -> str:
    """One action as record text, ``"SEAT TEXT"`` (``"2 33|pair|3|1"``, ``"0 call"``).
    Raises ``InvalidMoveError`` for a ``Move`` whose record is not two
    card/info words (forged around its checks)."""
    if isinstance(action, Move):
        if not _words_ok(action):
            raise InvalidMoveError(f"{action} is no move: its record is not two card/info words")
        return f"{seat} {'pass' if action.is_pass else str(action)}"
    return f"{seat} {action}"


def parse_action_text(text: str, rules: Rules | None = None) -> tuple[int, "Action | Move"]:
    """The inverse of ``action_text``.  Raises ``RecordError`` for bad text."""
    try:
        seat_text, body = text.strip().split(" ", 1)
        seat = int(seat_text)
        if body == "pass" or "|" in body:
            return seat, Move.parse(body, rules)
        return seat, Action.parse(body)
    except (ValueError, DdzError) as e:
        raise RecordError(f"bad action {text!r} in a record: {e}") from None


def _rules_dict(rules: Rules) -> dict[str, Any]:
    """The fields of ``rules`` that differ from the defaults (docs/rules.md's).
    A show-cards field of a laizi room is kept if it differs from either
    room's default (``ROOM_DEFAULTS``), so ``Rules(**d)`` is ``rules`` and
    the record still means the same to a reader of version 1."""
    plain, room = Rules(), Rules(laizi=rules.laizi)
    return {f.name: v for f in dataclasses.fields(rules)
            if (v := getattr(rules, f.name)) != getattr(plain, f.name) or v != getattr(room, f.name)}


def _rules_of(d: dict[str, Any], version: int) -> Rules:
    """The ``Rules`` of a record's rules dict: in version 1, a laizi room's
    show-cards fields not written were the happy room's."""
    if version == 1 and d.get("laizi"):
        d = {**{k: happy for k, (happy, _) in ROOM_DEFAULTS.items()}, **d}
    return Rules(**d)


def to_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game`` (finished or not; a five-player
    ``FiveGame`` gives its own ``ddzcore-five`` record, docs/rules.md §8)."""
    if isinstance(game, FiveGame):
        return _five_record(game)
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": _rules_dict(game.rules),
        "room": None if game.room is None else dataclasses.asdict(game.room),
        "beans": None if game.beans is None else list(game.beans),
    }
    if game._endgame is not None:
        rec["endgame"] = dict(game._endgame)
    else:
        rec["deals"] = [{"first": first, "cards": [" ".join(str(c) for c in part) for part in deal]}
                        for first, deal in game.deals]
        drawn = game.drawn_wild  # a laizi room's wild rank of this deal (docs/rules.md §7), announced or not yet
        if drawn is not None:
            rec["deals"][game.redeals]["wild"] = drawn.char
    rec["actions"] = [action_text(p, a) for p, a in game.history]
    over = game.is_terminal()
    rec["result"] = {"over": over, "phase": str(game.phase), "landlord": game.landlord, "winner": game.winner,
                     "escaped": game.escaped, "redeals": game.redeals, "returns": game.returns()}
    rec["settlement"] = game.settlement().to_dict() if over else None
    return rec


def _field(rec: dict[str, Any], key: str, kind: type) -> Any:
    if key not in rec:
        raise RecordError(f"the record has no {key!r}")
    v = rec[key]
    if v is not None and not isinstance(v, kind):
        raise RecordError(f"the record's {key!r} should be a {kind.__name__}, not {type(v).__name__}")
    return v


@record_errors
def replay(record: "dict[str, Any] | str | os.PathLike[str]", check: bool = True) -> Game:
    """Rebuild a game from its record by replaying every action.

    With ``check`` the replayed result and settlement must equal the
    recorded ones.  ``record`` is the record's dict, or a file's path (read
    by ``load``).  Raises ``RecordError`` for a malformed record, an action
    the replay rejects, or a result that differs (never another error,
    however the record is mangled).  A ``ddzcore-five``
    record gives a ``FiveGame`` (docs/rules.md §8).
    """
    if isinstance(record, (str, os.PathLike)):  # a file's path, or a record's JSON text
        text = os.fspath(record)
        return loads(text, check) if text.lstrip().startswith("{") else load(text, check)
    if isinstance(record, dict) and record.get("format") == "ddzcore-five":
        five = _replay_five(record, False)
        if check:
            _check_complete(record, five)
            five = _replay_five(record, True)
        return five  # type: ignore[return-value]
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    version = record.get("version")
    if version != VERSION and version not in OLD_VERSIONS:
        raise RecordError(f"record version {version!r} is not {VERSION} (nor an older version this "
                          f"release reads: {', '.join(map(str, OLD_VERSIONS))})")
    try:
        rules = _rules_of(_field(record, "rules", dict), version)
        room_d = _field(record, "room", dict)
        room = None if room_d is None else Room(**room_d)
        beans = _field(record, "beans", list)
        if "endgame" in record:
            e = _field(record, "endgame", dict)
            game = Game.endgame(e["hands"], e["landlord"], to_move=e["to_move"], last=e["last"],
                                last_player=e["last_player"], rules=rules, room=room, beans=beans, base=e["base"])
        else:
            deals = _field(record, "deals", list)
            if not deals:
                raise RecordError("the record has no deal")
            wilds = [d.get("wild") for d in deals]
            game = Game(rules, deal=[tuple(d["cards"]) for d in deals], first=[d["first"] for d in deals],
                        room=room, beans=beans, seed=0, wild=wilds if any(w is not None for w in wilds) else None)
    except (TypeError, KeyError, ValueError) as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"bad record set-up: {e}") from None
    old = (f" (a version {version} record, made before the rules revisions of docs/rules.md: "
           "its actions do not replay under today's rules)") if version != VERSION else ""
    for k, text in enumerate(_field(record, "actions", list)):
        try:
            seat, action = parse_action_text(text, game.play_rules)
            if action == Action.ESCAPE and not isinstance(action, Move):
                game.escape(seat)
                continue
            if seat != game.current_player():
                raise RecordError(f"it is by seat {seat}, but seat {game.current_player()} is to act")
            game.apply(action)
        except RecordError as e:
            msg = str(e) if str(e).startswith(f"action {k} ") else f"action {k}: {e}"
            raise RecordError(msg + old) from None
        except DdzError as e:
            raise RecordError(f"action {k} ({text!r}) does not replay: {e}{old}") from None
    if check:
        result = record.get("result")
        _check_complete(record, game)
        got = to_record(game)["result"]
        if result is not None and version != VERSION:  # settled under old rules: re-settled today
            result = {k: v for k, v in result.items() if k != "returns"}
            got = {k: v for k, v in got.items() if k != "returns"}
        if result is not None and result != got:
            raise RecordError(f"replayed result {got} differs from the recorded {result}")
        if record.get("settlement") is not None and version == VERSION:
            if Settlement.from_dict(record["settlement"]) != game.settlement():
                raise RecordError("the replayed settlement differs from the recorded one")
    return game


def _check_complete(record: dict[str, Any], game: Any) -> None:
    """Raise ``RecordError`` for a record whose result says the game is over
    while its actions stop before the end (a truncated game)."""
    result = record.get("result")
    if isinstance(result, dict) and result.get("over") and not game.is_terminal():
        raise RecordError(f"the record is truncated: its result says the game is over, but its "
                          f"{len(game.history)} actions end in the {game.phase} phase with seat "
                          f"{game.current_player()} to act")


def dumps(game: Game) -> str:
    """The record of ``game`` as JSON text (one action per line)."""
    rec = to_record(game)
    actions = rec.pop("actions")
    settlement = rec.pop("settlement")
    text = json.dumps(rec, ensure_ascii=False, indent=1)[:-2]
    lines = [text + ",", ' "actions": [']
    lines += [f"  {json.dumps(a, ensure_ascii=False)}," for a in actions]
    if actions:
        lines[-1] = lines[-1][:-1]
    lines.append(" ],")
    lines.append(' "settlement": ' + json.dumps(settlement, ensure_ascii=False))
    lines.append("}")
    return "\n".join(lines) + "\n"


@record_errors
def loads(text: str, check: bool = True) -> Game:
    """Replay a record from JSON text.  Raises ``RecordError``."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        if not text[e.pos:].strip() or e.msg.startswith("Unterminated string"):  # the text stops short
            raise RecordError(f"the record is truncated: its JSON stops at line {e.lineno}, column {e.colno} "
                              f"({e.msg})") from None
        raise RecordError(f"the record is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    if not isinstance(record, dict):  # JSON text holding a string is not a path to read
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    return replay(record, check)


def save(game: Game, path: Union[str, Path]) -> None:
    """Write ``game``'s record to ``path`` (UTF-8 JSON) atomically: a
    temporary file in the same folder renamed over ``path``, so a failed
    write never leaves half a record.  Raises ``OSError`` if it cannot."""
    path = Path(path)
    text = dumps(game)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it owner-only; a record is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load(path: Union[str, Path], check: bool = True) -> Game:
    """Replay the record in the file ``path``.  Raises ``RecordError`` for a
    bad record (saying what is wrong: not JSON, with the line; truncated;
    the wrong format version; an action that does not replay, with its
    index) and ``OSError`` for a file that cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path} is not a record: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        return loads(text, check)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None


def transcript(game: Game) -> str:
    """A readable playthrough of ``game`` (as golden files keep them): each
    deal, every action with the seat's role, and the settlement."""
    rec = to_record(game)
    changed = ", ".join(f"{k}={v!r}" for k, v in _rules_dict(game.rules).items())
    out = [f"rules: {changed or 'docs/rules.md defaults'}", f"room: {game.room}", f"beans: {game.beans}"]
    if game.rules.wild is not None:
        out.append(f"wild rank (癞子), fixed: {game.rules.wild}")
    if "endgame" in rec:
        e = rec["endgame"]
        out.append(f"end game: landlord {e['landlord']}, to move {e['to_move']}, last {e['last']} "
                   f"by {e['last_player']}")
        for seat, hand in enumerate(e["hands"]):
            out.append(f"  seat {seat}: {hand}")
    deals = rec.get("deals", [])
    replayed = replay(rec, check=False)
    while replayed.history:
        replayed.pop()
    k = 0
    if deals:
        out.append(f"deal 0, first caller {deals[0]['first']}")
        out += [f"  {name}: {cards}" for name, cards in zip(("seat 0", "seat 1", "seat 2", "bottom"),
                                                              deals[0]["cards"])]
    for p, a in game.history:
        had = replayed.landlord
        role = "" if had is None else (" L" if p == had else " F")
        before = replayed.phase
        if a == Action.ESCAPE and not isinstance(a, Move):
            replayed.escape(p)
        else:
            replayed.apply(a)
        text = "pass" if isinstance(a, Move) and a.is_pass else str(a)
        if isinstance(a, Move) and a.wild is not None:  # laizi: what the wild cards stood for (docs/rules.md §7)
            text += f"  (wild {a.wild} as {''.join(str(r) for r in a.stand_ins)})"
        out.append(f"{before!s:>11} seat {p}{role}: {text}")
        if replayed.redeals > k:
            k = replayed.redeals
            out.append(f"deal {k} (everybody passed), first caller {deals[k]['first']}")
            out += [f"  {name}: {cards}" for name, cards in zip(("seat 0", "seat 1", "seat 2", "bottom"),
                                                                  deals[k]["cards"])]
        if had is None and replayed.landlord is not None:
            out.append(f"  landlord {replayed.landlord} takes the bottom: {replayed.bottom}")
            if replayed.is_laizi and game.rules.wild is None:
                out.append(f"  wild rank (癞子) drawn: {replayed.wild}")
    if game.is_terminal():
        s = game.settlement()
        m = s.multiplier
        out.append(f"result: landlord {s.landlord}, winners {list(s.winners)}, escaped {s.escaped}")
        out.append(f"  base {s.base}, multiplier {m.total} (initial {m.initial}, robs {m.robs}, bombs {m.bombs}, "
                   f"show x{m.show}, spring {m.spring}, anti-spring {m.anti_spring}), doubles {list(s.doubles)}")
        d = s.to_dict()  # points as JSON shows them (exact laizi fractions)
        if s.laizi:
            out.append(f"  laizi ({game.rules.laizi_bombs} bombs): x4 bombs {m.big_bombs}; "
                       + ("escape: 4x (landlord) or 2x (farmer) the laizi loss at M" if s.escaped is not None else
                          f"X x 0.25, each winner's gain at most 10000: stakes {d['stakes']}"))
        if s.escape_multiplier is not None:
            out.append(f"  escape multiplier M = {s.escape_multiplier}")
        out.append(f"  points {d['points']}, transfers {list(s.transfers)}, rake {list(s.rake)}, "
                   f"net {list(s.net)}")
    else:
        out.append(f"(not over: {game.phase}, seat {game.current_player()} to act)")
    return "\n".join(out) + "\n"


# -- five-player records (docs/rules.md §8) -----------------------------------------------------

#: The ``format`` field of five-player records.
FIVE_FORMAT = "ddzcore-five"


def _parse_five_action(body: str, rules: Rules) -> "FiveAction | Move":
    body = body.strip()
    if body == "pass":
        return PASS
    if "|" in body:
        if " marked " in body:
            move, k = body.rsplit(" marked ", 1)
            return MarkedMove(Move.parse(move, rules), int(k))
        return Move.parse(body, rules)
    return FiveAction.parse(body)


def _five_record(game: FiveGame) -> dict[str, Any]:
    """The JSON-ready record of a five-player game (docs/rules.md §8)::

        {"format": "ddzcore-five", "version": 1, "rules": {changed fields},
         "room": {...} or null, "beans": [5 ints] or null,
         "deal": ["S3 H3' ...", (5 hands, then the bottom, as dealt)], "marked": "S3'",
         "actions": ["0 no_reveal", ..., "0 33|pair|3|1", "1 pass", "3 3|single|3|1 marked 1"],
         "result": {"over": ..., "winner": ..., "landlords": [...], "returns": [...]},
         "settlement": FiveSettlement.to_dict() or null}
    """
    over = game.is_terminal()
    return {
        "format": FIVE_FORMAT, "version": 1, "rules": _rules_dict(game.rules),
        "room": None if game.room is None else dataclasses.asdict(game.room),
        "beans": None if game.beans is None else list(game.beans),
        "deal": [" ".join(str(c) for c in part) for part in game.deal], "marked": str(game.marked),
        "actions": [action_text(p, a) for p, a in game.history],
        "result": {"over": over, "phase": str(game.phase), "winner": game.winner,
                   **({"escaped": game.escaped} if game.escaped is not None else {}),
                   "landlords": list(game.landlords), "revealed_by": list(game.revealed_by or []) or None,
                   "returns": game.returns()},
        "settlement": game.settlement().to_dict() if over else None,
    }


@record_errors
def _replay_five(record: dict[str, Any], check: bool = True) -> FiveGame:
    """Rebuild a game from its record by replaying every action; with
    ``check`` the result and settlement must equal the recorded ones.
    Raises ``RecordError``."""
    if not isinstance(record, dict) or record.get("format") != FIVE_FORMAT:
        raise RecordError(f"not a {FIVE_FORMAT} record")
    if record.get("version") != 1:
        raise RecordError(f"record version {record.get('version')!r} is not 1")
    try:
        rules = Rules(**_field(record, "rules", dict))
        room_d = _field(record, "room", dict)
        game = FiveGame(rules, deal=_field(record, "deal", list), marked=_field(record, "marked", str),
                   room=None if room_d is None else Room(**room_d), beans=_field(record, "beans", list))
    except (TypeError, KeyError, ValueError) as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"bad record set-up: {e}") from None
    for k, text in enumerate(_field(record, "actions", list)):
        try:
            seat, body = str(text).strip().split(" ", 1)
            action = _parse_five_action(body, rules)
            if action is FiveAction.ESCAPE:
                game.escape(int(seat))
                continue
            if int(seat) != game.current_player():
                raise RecordError(f"action {k} ({text!r}) is by seat {seat}, but seat "
                                  f"{game.current_player()} is to act")
            game.apply(action)
        except (ValueError, DdzError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"action {k} ({text!r}) does not replay: {e}") from None
    if check:
        got = _five_record(game)
        if record.get("result") is not None and record["result"] != got["result"]:
            raise RecordError(f"replayed result {got['result']} differs from the recorded {record['result']}")
        if record.get("settlement") is not None and \
                FiveSettlement.from_dict(record["settlement"]) != game.settlement():
            raise RecordError("the replayed settlement differs from the recorded one")
    return game


# -- pickling: a game travels as its record --------------------------------------------
#
# ``Game`` and ``FiveGame`` pickle (``GameBase.__reduce__`` calls ``_pickled``,
# set below as ``GameBase._PICKLER``: this module imports the games, which
# import nothing back; ``import ddzcore`` loads it)
# as their record (``to_record``) plus what a
# record leaves out but later play needs: the deals a three-player game was
# given (or dealt before an undo) beyond the current one, and its random
# generator's state (redeals and laizi wild ranks are drawn from it).  Unpickling
# replays the record through ``replay``'s checks and then compares a digest
# of the whole state (``_key``, the later deals, the generator) with the one
# pickled: a pickle with any one field changed (a card, an action, a rules
# field, the generator) raises ``RecordError``, never another game.  A
# pickle is not signed (nothing can tell a consistently rewritten pickle from
# another game's); unpickle only data you trust, as for any pickle.
#
# A subclass's game pickles the same way, with its class (importable by
# name, as pickle needs; part of the digest) and its own attributes (its
# instance dict and the slots it adds, pickled as they are): unpickling
# replays and checks the game, makes an instance of the class without
# calling its ``__init__`` (as pickle does), and hands the attributes to
# ``__setstate__``, which refuses a name of the game's own state
# (``GameBase.__setstate__``; a subclass may override it to check its own).

_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def _later_deals(game: Game) -> list[dict[str, Any]]:
    """The deals ``game`` will use on redeals, in order (given ones and those
    dealt before an undo), as record deal entries (``first`` and ``wild``
    ``None`` where the generator will draw them)."""
    k = game._round + 1
    later: list[tuple[Any, Any, Any]] = [(f, dealt, wild) for (f, dealt), wild in zip(game._deals[k:], game._wilds[k:])]
    later += game._given[max(k, len(game._deals)):]
    return [{"first": first, "cards": [" ".join(str(Card(c)) for c in part) for part in dealt],
             "wild": None if wild is None else RANK_CHARS[wild]} for first, dealt, wild in later]


def _digest(game: "Game | FiveGame", later: list[dict[str, Any]], rng: Any, cls: Any = None) -> str:
    """A digest of everything a game's future depends on (its equality key,
    later deals and the generator's state) and, for a subclass's game, the
    subclass (``cls``)."""
    state: tuple[Any, ...] = (game._key(), later, rng)
    if cls is not None:
        state += (f"{cls.__module__}.{cls.__qualname__}",)
    return hashlib.sha256(repr(state).encode()).hexdigest()


def _pickled(game: "Game | FiveGame") -> tuple[Any, ...]:
    """``__reduce__``'s ``(_unpickle, args)``, plus the own attributes
    (``GameBase._own_state``) for a subclass's game: the record (with the
    later deals appended to a three-player game's deals), the generator's
    state, the state's digest and a subclass."""
    record = to_record(game)  # type: ignore[arg-type]  # a FiveGame gives its own record
    later: list[dict[str, Any]] = []
    rng = None
    if isinstance(game, Game) and game._endgame is None:
        later = _later_deals(game)
        record["deals"] = record["deals"] + later
        rng = game._rng.bit_generator.state
    cls = type(game)
    if cls is game._game_class():
        return _unpickle, (record, rng, _digest(game, later, rng))
    return _unpickle, (record, rng, _digest(game, later, rng, cls), cls), game._own_state()


@record_errors
def _unpickle(record: dict[str, Any], rng: Any, digest: str, cls: Any = None) -> "Game | FiveGame":
    """Rebuild a pickled game (see ``_pickled``): replay its record, restore
    the generator, check the digest, and make it a ``cls`` (a subclass of
    the replayed game's class) if given.  Raises ``RecordError``."""
    game: Any = replay(record, check=True)
    if cls is not None and not (isinstance(cls, type) and issubclass(cls, type(game)) and cls is not type(game)):
        raise RecordError(f"the pickled class {cls!r} is no subclass of {type(game).__name__}")
    later: list[dict[str, Any]] = []
    if isinstance(game, Game) and game._endgame is None:
        if not isinstance(rng, dict) or rng.get("bit_generator") not in _BIT_GENERATORS:
            raise RecordError(f"the pickled random generator state {rng!r} is not a NumPy bit generator's")
        bits = getattr(np.random, rng["bit_generator"])()
        bits.state = rng
        game._rng = np.random.Generator(bits)
        game._fork = False
        rng = bits.state
        later = _later_deals(game)
    elif rng is not None:
        raise RecordError("a five-player game or an end game pickles no random generator")
    if not isinstance(digest, str) or _digest(game, later, rng, cls) != digest:
        raise RecordError("the unpickled game differs from the pickled one (a pickle changed after it was made)")
    return game if cls is None else game._copy_as(cls)  # type: ignore[no-any-return]


GameBase._PICKLER = staticmethod(_pickled)
