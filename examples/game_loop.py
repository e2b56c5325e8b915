"""A game loop: a whole three-player game (show cards, calling and robbing,
doubling, play) between three bots, then its settlement in points and beans
(docs/rules.md §3-6).

    python examples/game_loop.py
"""

from ddzcore import Game, Room, Rules
from ddzcore.tools.bots import RandomBot, RuleBot

game = Game(Rules(), seed=7, room=Room(coefficient=100, rake=5), beans=[10_000] * 3)
bots = [RuleBot(), RuleBot(), RandomBot(seed=1)]
for seat, bot in enumerate(bots):
    bot.new_game(seat, game.rules)
while not game.is_terminal():
    seat = game.current_player()  # whose turn, in every phase
    action = bots[seat].act(game.observation(seat))  # a bot sees only its own information set
    game.apply(action)  # checked; push() is the unchecked fast path
    print(f"seat {seat}: {'pass' if getattr(action, 'is_pass', False) else action}")

s = game.settlement()
print(f"landlord {s.landlord}, winners {list(s.winners)}, multiplier x{s.multiplier.total}")
print(f"points {list(s.points)}, net beans {list(s.net)}")
