"""The engine core: games, states, options, chance, records, bots and the game runner.

The core knows no game and no bot family by name: plugins (the entry-point group
``ratgames.plugins``, such as :mod:`ratgames.games` and :mod:`ratgames.search`) register them.
"""

from .bots import Bot, RandomBot, Reaction, SeatView, make_bot, register_bot
from .errors import (
    DealError,
    IllegalAction,
    InvalidNotation,
    OptionError,
    RatgamesError,
    RecordError,
    SnapshotError,
    UnknownNameError,
)
from .game import Action, Chance, Game, Outcome, State
from .options import Option
from .records import load_record, replay, save_record
from .registry import game_ids, get_game, register_game
from .rng import Rng
from .runner import play_game

__all__ = [
    "Action",
    "Bot",
    "Chance",
    "DealError",
    "Game",
    "IllegalAction",
    "InvalidNotation",
    "Option",
    "OptionError",
    "Outcome",
    "RandomBot",
    "RatgamesError",
    "Reaction",
    "RecordError",
    "Rng",
    "SeatView",
    "SnapshotError",
    "State",
    "UnknownNameError",
    "game_ids",
    "get_game",
    "load_record",
    "make_bot",
    "play_game",
    "register_bot",
    "register_game",
    "replay",
    "save_record",
]
