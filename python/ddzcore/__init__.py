"""ddzcore: a fast, correct Dou Dizhu (斗地主, Fight the Landlord) engine.

The rules are those of the project's rule book, docs/rules.md.  Public API::

    from ddzcore import Hand, Move, Combo, Rules, legal_moves, classify
    legal_moves("33344455566677789TJQ")             # a free lead
    legal_moves("3456789TJQKA2BR", last="77")       # following a pair
"""

from ._version import __version__
from .moves import ActionSpace, action_space
from .cards import RANK_CHARS, Card, FiveCard, Hand, Rank, parse_cards, parse_five_cards
from .errors import (
    AmbiguousMoveError,
    DdzError,
    IllegalActionError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidDealError,
    InvalidMoveError,
    RecordError,
)
from .generate import (
    count_moves,
    count_moves_batch,
    thread_spin,
    hands_array,
    legal_moves,
    legal_moves_array,
    legal_moves_batch,
    moves_array,
)
from .moves import MOVE_DTYPE, PASS, Combo, Move, MoveList, classify
from .rules import Rules
from .game.settlement import (
    TITLES,
    Multiplier,
    Room,
    Settlement,
    combine_shows,
    escape_multiplier,
    escape_penalty,
    settle_escape,
    settle_game,
    settle_no_landlord,
    title,
)
from .game.three import MOVE_ID_BASE, OPENSPIEL_FLOW, TERMINAL, Action, Game, Observation, Phase
from .search import PlayState, SelfPlay, perft, simulate
from .game.five import FiveAction, FiveGame, FiveObservation, FivePhase, MarkedMove
from .game.settlement import FiveMultiplier, FiveSettlement, settle_five
from .solver import MinPlays, SolveResult, min_plays, min_plays_batch, solve
from .errors import InvalidArgumentError, InvalidRulesError, InvalidStateError, MoveIndexError
from .sampling import sample_deals
from .evaluate import Hint, WinEstimate, hint, win_probability
from .game import records
from .game.base import Outcome, Termination
from .game.settlement import settle_five_escape
from .tools.bots import Bot, RandomBot, RuleBot
from .tools.simulation import FiveStats, SimulationStats, play_game, run_five_games, run_games
from .tools.arena import ArenaResult, arena, make_bot
from .tools.searchbot import SearchBot
from .errors import EnvActionError
from .envs.vector import VectorEnv
from .errors import EnvStateError

__all__ = [
    "__version__",
    "RANK_CHARS",
    "Rank",
    "Hand",
    "Combo",
    "Move",
    "MoveList",
    "PASS",
    "MOVE_DTYPE",
    "Rules",
    "classify",
    "legal_moves",
    "legal_moves_array",
    "count_moves",
    "legal_moves_batch",
    "count_moves_batch",
    "thread_spin",
    "hands_array",
    "moves_array",
    "ActionSpace",
    "action_space",
    "DdzError",
    "InvalidCardsError",
    "InvalidMoveError",
    "AmbiguousMoveError",
    "IllegalMoveError",
    "PlayState",
    "SelfPlay",
    "perft",
    "simulate",
    # the game (docs/rules.md §3-6)
    "Game",
    "Phase",
    "Action",
    "Card",
    "parse_cards",
    "Observation",
    "TERMINAL",
    "OPENSPIEL_FLOW",
    "MOVE_ID_BASE",
    "Room",
    "Multiplier",
    "Settlement",
    "combine_shows",
    "escape_multiplier",
    "escape_penalty",
    "settle_game",
    "settle_escape",
    "settle_no_landlord",
    "TITLES",
    "title",
    "IllegalActionError",
    "InvalidDealError",
    "RecordError",
    # the five-player two-deck game (docs/rules.md §8)
    "FiveGame",
    "FivePhase",
    "FiveAction",
    "FiveCard",
    "parse_five_cards",
    "MarkedMove",
    "FiveObservation",
    "FiveMultiplier",
    "FiveSettlement",
    "settle_five",
    "FiveStats",
    "run_five_games",
    # the endgame solver and minimum plays (docs/rules.md §2-§3, §6)
    "solve",
    "SolveResult",
    "min_plays",
    "min_plays_batch",
    "MinPlays",
    # typed errors for bad arguments, rules and restored states
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidArgumentError",
    "MoveIndexError",
    # hand evaluation, hints and the arena
    "sample_deals",
    "win_probability",
    "WinEstimate",
    "hint",
    "Hint",
    "arena",
    "ArenaResult",
    "SearchBot",
    # records, bots and the simulation runners
    "records",
    "Bot",
    "RandomBot",
    "RuleBot",
    "make_bot",
    "play_game",
    "run_games",
    "SimulationStats",
    "Outcome",
    "Termination",
    "settle_five_escape",
    # learning environments (ddzcore.envs, ddzcore.distributed)
    "EnvActionError",
    # the native vector environment (issue 15)
    "VectorEnv",
    "EnvStateError",
]
