"""``ddz view`` in a real browser: headless Chromium (Debian's ``chromium``
package) opens the generated page from disk, the test steps through the
game with the keyboard and the slider over the DevTools protocol
(``websocket-client``), checks the displayed table against the record
replayed independently at several points, and saves screenshots in the
test's output folder (``tmp_path``; keep them with ``--basetemp DIR``).

Slow (starts a browser): ``pytest -m slow tests/test_view_browser.py``."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from ddzcore import FiveGame, Game, Room
from ddzcore.tools.bots import RandomBot, RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.tools.cli import main
from ddzcore.game.records import load, save

pytestmark = pytest.mark.slow

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """One browser tab driven over the DevTools protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0

    def call(self, method: str, **params: Any) -> Any:
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.n:
                assert "error" not in msg, msg
                return msg["result"]

    def js(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in r, r
        return r["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def slide(self, k: int) -> None:
        """Move the slider to step ``k`` as a user's drag does (an ``input`` event)."""
        self.js(f"(() => {{ const s = document.getElementById('slider'); s.value = {k}; "
                f"s.dispatchEvent(new Event('input')); }})()")

    def shot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))

    def state(self) -> dict[str, Any]:
        return json.loads(self.js("""JSON.stringify({
            step: document.getElementById('step').textContent,
            action: document.getElementById('action').textContent,
            phase: document.getElementById('phase').textContent,
            multiplier: document.getElementById('multiplier').textContent,
            hands: [...document.querySelectorAll('.seat')].map(s =>
                [...s.querySelectorAll('.hand .card')].map(c => c.dataset.card || 'back')),
            roles: [...document.querySelectorAll('.seat .role')].map(r => r.textContent),
            bottom: [...document.querySelectorAll('#bottom .card')].map(c => c.dataset.card),
            trick: [...document.querySelectorAll('#trick .play')].map(p => +p.dataset.seat),
            settlement: document.getElementById("settlement").textContent})"""))


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Start headless Chromium; yields ``open(html_path) -> Page``."""
    import websocket  # websocket-client, from the test extra

    assert BROWSER, "the browser test needs Debian's chromium package: apt-get install -y chromium"
    profile = tmp_path / "profile"
    proc = subprocess.Popen([BROWSER, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1280,900",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sockets = []
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.monotonic() < end and proc.poll() is None, "chromium did not start"
            time.sleep(0.2)
        port = int(port_file.read_text().split()[0])

        def open_page(html: Path) -> Page:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as r:
                target = next(t for t in json.load(r) if t["type"] == "page")
            ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=30)
            sockets.append(ws)
            page = Page(ws)
            page.call("Page.enable")
            page.call("Page.navigate", url=html.resolve().as_uri())
            end = time.monotonic() + 30
            while page.js("document.readyState") != "complete" or not page.js("!!document.querySelector('.seat')"):
                assert time.monotonic() < end, "the page did not load"
                time.sleep(0.1)
            return page

        yield open_page
    finally:
        for ws in sockets:
            ws.close()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def expected(record: Path, k: int) -> Game | FiveGame:
    """The game after its first ``k`` actions, replayed from the record's file by the library."""
    g = load(record)
    while len(g.history) > k:
        g.pop()
    return g


def cards_of(g: Game | FiveGame, seat: int) -> list[str]:
    return [(c.card if hasattr(c, "card") else c).rank.char.replace("T", "10") + ((c.card if hasattr(c, "card")
            else c).suit or "") for c in g.cards(seat)]


def check(page: Page, record: Path, total: int) -> int:
    """The displayed table equals the record's game at the step shown; returns that step."""
    st = page.state()
    k = int(st["step"].split("/")[0])
    assert st["step"] == f"{k} / {total}"
    g = expected(record, k)
    n = 5 if isinstance(g, FiveGame) else 3
    assert st["hands"] == [cards_of(g, s) for s in range(n)]
    assert st["multiplier"] == f"x{g.multiplier().total}"
    if k:
        seat, _ = g.history[-1]
        assert st["action"].startswith(f"Seat {seat}")
    if isinstance(g, Game) and g.landlord is not None:
        assert st["roles"][g.landlord] == "landlord"
        assert sorted(st["bottom"]) == sorted(c.rank.char.replace("T", "10") + (c.suit or "") for c in g.deal[3])
    if g.is_terminal():
        net = g.settlement().net
        for s in range(n):
            assert f"Seat {s}: " in st["settlement"] and f"net {net[s]:+d} beans" in st["settlement"]
    else:
        assert st["settlement"] == ""
    return k


def test_view_three_players_in_chromium(tmp_path: Path, browser: Any) -> None:
    game = play_game(Game(seed=21, room=Room(coefficient=100, rake=5)), [RuleBot(), RandomBot(3), RuleBot()])
    record = tmp_path / "game.json"
    save(game, record)
    html = tmp_path / "game.html"
    r = CliRunner().invoke(main, ["view", str(record), "-o", str(html)])
    assert r.exit_code == 0, r.output
    text = html.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<link" not in text  # one file, no network
    total = len(game.history)
    page = browser(html)
    assert check(page, record, total) == 0
    page.shot(tmp_path / "view-3p-step0.png")
    for _ in range(5):  # the keyboard steps forward
        page.key("ArrowRight", 39)
    assert check(page, record, total) == 5
    landlord_step = next(k for k in range(total + 1) if expected(record, k).landlord is not None)
    page.slide(landlord_step + 4)  # the slider jumps
    assert check(page, record, total) == landlord_step + 4
    page.shot(tmp_path / "view-3p-play.png")
    page.key("ArrowLeft", 37)
    assert check(page, record, total) == landlord_step + 3
    middle = (landlord_step + total) // 2
    page.slide(middle)
    assert check(page, record, total) == middle
    page.shot(tmp_path / "view-3p-middle.png")
    page.key("h", 72)  # hands hidden: backs only, as many as the cards
    hidden = page.state()["hands"]
    assert all(set(h) <= {"back"} for h in hidden)
    assert [len(h) for h in hidden] == [len(expected(record, middle).cards(s)) for s in range(3)]
    page.shot(tmp_path / "view-3p-hidden.png")
    page.key("h", 72)
    page.key("End", 35)
    assert check(page, record, total) == total
    page.shot(tmp_path / "view-3p-end.png")
    page.key("Home", 36)
    assert check(page, record, total) == 0
    assert all((tmp_path / f"view-3p-{n}.png").stat().st_size > 10_000 for n in ("step0", "play", "end"))


def test_view_five_players_in_chromium(tmp_path: Path, browser: Any) -> None:
    game = play_game(FiveGame(seed=4, room=Room(coefficient=10)), [RuleBot(), RandomBot(1), RuleBot(),
                                                                      RandomBot(2), RuleBot()])
    record = tmp_path / "five.json"
    save(game, record)
    html = tmp_path / "five.html"
    assert CliRunner().invoke(main, ["view", str(record), "-o", str(html)]).exit_code == 0
    total = len(game.history)
    page = browser(html)
    for k in (0, 3, total // 2, total):
        page.slide(k)
        assert check(page, record, total) == k
    page.shot(tmp_path / "view-5p-end.png")
    page.key("ArrowLeft", 37)
    assert check(page, record, total) == total - 1
    page.shot(tmp_path / "view-5p-before-end.png")
