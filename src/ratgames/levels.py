"""Difficulty levels for players: ``easy``, ``normal``, ``hard`` and ``expert``, per game.

A game may name its own levels as its ``levels`` part (a mapping such as ``{"easy":
"heuristic:...", ...}``, declared where it is registered, see
:class:`ratgames.core.registry.GameParts`); the levels it leaves out are the general ones below.
The search bots play their samples out with the game's heuristic bot, or at random where the
game has none.
"""

from __future__ import annotations

from collections.abc import Mapping

from .core.bots import bot_entries
from .core.errors import UnknownNameError
from .core.registry import game_part

LEVEL_NAMES = ("easy", "normal", "hard", "expert")

GENERAL_LEVELS = {
    "easy": "random",
    "normal": "heuristic",
    "hard": "ismcts:iterations=300,tree=1",
    "expert": "ismcts:seconds=1.5,tree=1",
}


def levels_for(game_id: str) -> dict[str, str]:
    """The bot spec of every level for ``game_id``."""
    names = {e.name for e in bot_entries(game_id)}
    own: Mapping[str, str] = game_part(game_id, "levels") or {}
    out: dict[str, str] = {}
    for level in LEVEL_NAMES:
        spec = own.get(level) or GENERAL_LEVELS[level]
        if spec.partition(":")[0] not in names:
            spec = "heuristic" if "heuristic" in names else "random"
        out[level] = spec
    return out


def level_bot(game_id: str, level: str) -> str:
    """The bot spec that plays ``level`` at ``game_id``."""
    if level not in LEVEL_NAMES:
        raise UnknownNameError(f"unknown level {level!r}; the levels are: {', '.join(LEVEL_NAMES)}")
    return levels_for(game_id)[level]
