"""ratgames: the rat card games (Rat-a-Tat Cat, Egyptian Ratscrew, Rats, Caged Rats) as one
rules engine, with bots, terminal play, simulation and records.

>>> import ratgames
>>> game = ratgames.get_game("rat-a-tat-cat", players=2)
>>> state = game.new_state(seed=7)
>>> state.is_over()
False
"""

from . import compiled as _compiled

# The compiled build of these very sources, if one was made (ratgames compile build).
_compiled.activate()

from .core import (  # noqa: E402
    Bot,
    DealError,
    Game,
    IllegalAction,
    InvalidNotation,
    Option,
    OptionError,
    Outcome,
    RatgamesError,
    RecordError,
    Rng,
    SeatView,
    SnapshotError,
    State,
    UnknownNameError,
    game_ids,
    get_game,
    load_record,
    make_bot,
    play_game,
    replay,
    save_record,
)

__version__ = "0.1.0"

__all__ = [
    "Bot",
    "DealError",
    "Game",
    "IllegalAction",
    "InvalidNotation",
    "Option",
    "OptionError",
    "Outcome",
    "RatgamesError",
    "RecordError",
    "Rng",
    "SeatView",
    "SnapshotError",
    "State",
    "UnknownNameError",
    "__version__",
    "game_ids",
    "get_game",
    "load_record",
    "make_bot",
    "play_game",
    "replay",
    "save_record",
]
