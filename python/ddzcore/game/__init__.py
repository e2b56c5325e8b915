"""The game (docs/rules.md §3-§8): the three- and five-player games on one
shared base, their settlement, records and perft.  Nothing here imports the
tools (bots, the command line, the simulation runners).

- ``base``: what every seat count shares (apply, push/pop, the trick, the play step)
- ``three``: the three-player game ``Game`` (docs/rules.md §3-§7)
- ``five``: the five-player two-deck game ``FiveGame`` (docs/rules.md §8)
- ``settlement``: multipliers and beans (docs/rules.md §6, §8)
- ``records``: game records, saved, loaded and replayed
- ``perft``: perft of the Python game and perft data files
"""

from ..cards import Card, FiveCard, parse_cards, parse_five_cards
from .base import Outcome, Termination
from .five import FiveAction, FiveGame, FiveObservation, FivePhase, MarkedMove
from .three import MOVE_ID_BASE, OPENSPIEL_FLOW, TERMINAL, Action, Game, Observation, Phase

__all__ = ["Game", "Phase", "Action", "Observation", "TERMINAL", "OPENSPIEL_FLOW", "MOVE_ID_BASE",
           "FiveGame", "FivePhase", "FiveAction", "FiveObservation", "MarkedMove",
           "Card", "FiveCard", "parse_cards", "parse_five_cards", "Outcome", "Termination"]
