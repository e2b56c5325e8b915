"""A record and its replay: save a finished game as JSON, load it back (the
replay is checked against the recorded result and settlement) and step
through it frame by frame, as `ddz replay` and `ddz view` do.

    python examples/record_replay.py [FOLDER]
"""

import sys
import tempfile
from pathlib import Path

from ddzcore import Game
from ddzcore.tools.bots import RuleBot
from ddzcore.tools.simulation import play_game
from ddzcore.tools.cli_replay import frames, view_html
from ddzcore.game.records import load, save

folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
game = play_game(Game(seed=11), [RuleBot(), RuleBot(), RuleBot()])
path = folder / "game.json"
save(game, path)  # atomic: a temporary file renamed over the path

again = load(path)  # raises RecordError, saying what is wrong, for a bad file
assert again.settlement() == game.settlement()
for f in frames(again)[-4:]:  # the table after each of the last actions
    print(f"step {f.step}: {f.action:<40} multiplier x{f.multiplier}")
(folder / "game.html").write_text(view_html(again), encoding="utf-8")  # open it in a browser
print(f"record {path}, HTML replay {folder / 'game.html'}")
