"""A JSON-lines protocol for bots written in any language (docs/rules.md §3-§6).

``ExecBot("./mybot")`` runs a program and talks to it over its stdin and
stdout, one JSON object per line, UTF-8.  The arena (``ddz arena --bots
rule,exec:./mybot``) and ``play_game`` use it like any ``Bot``.

Messages to the program:

- ``{"type": "new_game", "seat": 0, "rules": "call_rob"}`` before each game
  (no answer expected; ``rules`` is the bidding kind);
- ``{"type": "act", "observation": {...}, "legal": [...]}`` when it must
  act.  ``observation`` (what its seat may see): ``player``, ``phase``
  (``"play"``, ``"call"``, ``"rob"``, ``"bid"``, ``"double"``, ``"show_*"``),
  ``landlord`` (seat or null), ``hand`` (card text, e.g. ``"3345TTB"``),
  ``card_counts``, ``bottom`` (card text or null), ``shown`` (seat -> card
  text), ``history`` (``[seat, action text]`` pairs of this deal),
  ``last_move`` (text or null) and ``last_player``.  ``legal``: the legal
  actions as text: moves as ``CARDS|COMBO|MAIN|LENGTH`` (``"|pass||0"`` for
  pass), flow actions by name (``"call"``, ``"no_rob"``, ``"bid_2"``...).

Answer, one line: ``{"action": "<one of legal>"}`` or ``{"index": k}``
(0-based into ``legal``).  Anything written to stderr is ignored.

A program that answers late (``timeout`` seconds per move), exits, writes
something that is not such a JSON object, or names an action that is not
legal raises ``ProtocolError`` (a ``ValueError``) with the reason; the
arena counts the deal as lost by that bot's side and goes on, and the
program is started again for the next game.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time
from typing import Any, Optional, Sequence

from .bots import AnyAction, AnyObservation, Bot
from ..errors import DdzError, InvalidArgumentError
from ..rules import Rules

__all__ = ["ExecBot", "ProtocolError", "observation_json", "action_text"]


class ProtocolError(DdzError):
    """An external bot broke the protocol: ``reason`` says how (timeout,
    exit, bad JSON, illegal action)."""

    def __init__(self, bot: str, reason: str) -> None:
        super().__init__(f"bot {bot}: {reason}")
        self.bot = bot
        self.reason = reason


def action_text(a: object) -> str:
    """The protocol's text of an action (a ``Move``'s full form, an ``Action``'s name)."""
    return str(a)


def observation_json(obs: AnyObservation) -> dict[str, Any]:
    """The protocol's ``observation`` object (see the module docstring)."""
    return {
        "player": obs.player,
        "phase": str(obs.phase.name).lower(),
        "landlord": getattr(obs, "landlord", getattr(obs, "open_landlord", None)),
        "hand": str(obs.hand),
        "card_counts": list(obs.card_counts),
        "bottom": None if obs.bottom is None else str(obs.bottom),
        "shown": {str(s): str(h) for s, h in obs.shown.items()},
        "history": [[s, action_text(a)] for s, a in obs.history],
        "last_move": None if obs.last_move is None else str(obs.last_move),
        "last_player": obs.last_player,
    }


class LineProcess:
    """A child process spoken to in lines, with a deadline on every read."""

    def __init__(self, command: "str | Sequence[str]", name: str) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.name = name
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self._buf = b""

    def start(self) -> None:
        self.close()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
        except OSError as e:
            raise ProtocolError(self.name, f"cannot start {self.argv!r}: {e}") from None
        self._buf = b""

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, obj: Any) -> None:
        if not self.alive:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(obj, ensure_ascii=False).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            code = self.proc.poll()
            raise ProtocolError(self.name, f"exited (code {code}) before reading its input") from None

    def read_line(self, timeout: float) -> str:
        """The next line of output; ``ProtocolError`` on timeout or exit."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.close()
                    raise ProtocolError(self.name, f"no answer within {timeout:g} s (timeout)")
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = self.proc.wait()
                    self.close()
                    raise ProtocolError(self.name, f"exited (code {code}) without answering")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def read_json(self, timeout: float) -> Any:
        """The next line parsed as JSON; ``ProtocolError`` on timeout, exit or bad JSON."""
        line = self.read_line(timeout)
        try:
            return json.loads(line)
        except ValueError:
            self.close()
            raise ProtocolError(self.name, f"answered {line[:80]!r}, which is not JSON") from None

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                if f is not None:
                    f.close()
        self.proc = None


class ExecBot(Bot):
    """A bot run as an external program over the JSON-lines protocol.

    ``command``: the program and its arguments (a string split like a shell
    command line, or a list); ``timeout``: seconds allowed per move (and for
    its start-up with the first move).  Raises ``ProtocolError`` from
    ``act`` when the program misbehaves (then it is restarted next game).
    """

    name = "exec"

    def __init__(self, command: "str | Sequence[str]", timeout: float = 5.0) -> None:
        if timeout <= 0:
            raise InvalidArgumentError(f"timeout must be > 0 seconds, not {timeout!r}")
        self.command = command
        self.timeout = timeout
        self.name = f"exec:{command if isinstance(command, str) else ' '.join(command)}"
        self._io = LineProcess(command, self.name)

    def new_game(self, seat: int, rules: Rules) -> None:
        try:
            self._io.send({"type": "new_game", "seat": seat, "rules": rules.bidding})
        except ProtocolError:
            self._io.close()  # reported at its first move

    def act(self, obs: AnyObservation) -> AnyAction:
        """Ask the program; ``ProtocolError`` if it fails to answer with a legal action."""
        legal = list(obs.legal_actions)
        texts = [action_text(a) for a in legal]
        self._io.send({"type": "act", "observation": observation_json(obs), "legal": texts})
        msg = self._io.read_json(self.timeout)
        line = json.dumps(msg)
        if isinstance(msg, dict) and isinstance(msg.get("index"), int) and not isinstance(msg["index"], bool):
            k = msg["index"]
            if 0 <= k < len(legal):
                return legal[k]
            raise ProtocolError(self.name, f"index {k} is not legal ({len(legal)} legal actions): illegal action")
        if isinstance(msg, dict) and isinstance(msg.get("action"), str):
            try:
                return legal[texts.index(msg["action"])]
            except ValueError:
                raise ProtocolError(self.name, f"played {msg['action']!r}, not a legal action") from None
        raise ProtocolError(self.name, f"answered {line[:80]!r}: expected {{\"action\": ...}} or {{\"index\": ...}}")

    def close(self) -> None:
        """Stop the program."""
        self._io.close()

    def __del__(self) -> None:
        try:
            self._io.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass
