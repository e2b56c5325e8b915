"""A JSON-lines protocol bot for the tests (ddzcore.tools.protocol).

    python lines_bot.py MODE

MODE: ``first`` (always the first legal action), ``crash`` (exits at its
first move), ``hang`` (never answers), ``badjson`` (answers garbage),
``illegal`` (names an action that is not legal), ``late:N`` (behaves after
N moves like ``hang``).
"""

import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "first"
moves = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "act":
        continue
    moves += 1
    if mode == "crash":
        sys.exit(3)
    if mode == "hang" or (mode.startswith("late:") and moves > int(mode[5:])):
        time.sleep(60)
    if mode == "badjson":
        print("this is not json", flush=True)
        continue
    if mode == "illegal":
        print(json.dumps({"action": "2222BR|nonsense|2|1"}), flush=True)
        continue
    print(json.dumps({"action": msg["legal"][0]}), flush=True)
