"""The registry of games by id."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from .errors import UnknownNameError
from .game import Game

# id -> "module:Class".  The core imports a game only when it is asked for.
_GAMES: dict[str, str | type[Game]] = {}


def register_game(game_id: str, target: str | type[Game]) -> None:
    """Make a game class (or ``"package.module:Class"``, imported when first used) known under
    ``game_id``."""
    _GAMES[game_id] = target


def game_ids() -> list[str]:
    """The ids of every registered game, in registration order."""
    _load_builtin()
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    """The class of a registered game."""
    _load_builtin()
    target = _GAMES.get(game_id)
    if target is None:
        known = ", ".join(_GAMES)
        raise UnknownNameError(f"unknown game {game_id!r}; the games are: {known}")
    if not isinstance(target, str):
        return target
    module, _, name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), name)
    assert issubclass(cls, Game)
    return cls


def get_game(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game:
    """A game by id, for ``players`` seats (the game's default if omitted) with ``options``.

    >>> import ratgames
    >>> ratgames.get_game("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ratgames.core.errors.UnknownNameError: unknown game 'chess'; the games are: ...
    """
    return game_class(game_id)(players=players, options=options)


PLUGIN_GROUP = "ratgames.plugins"
"""The entry-point group of the modules that register games and bots when imported
(``[project.entry-points."ratgames.plugins"]`` in a package's ``pyproject.toml``)."""

_loaded = False


def _load_builtin() -> None:
    """Import every plugin module once: each registers its games or bots as it is imported."""
    global _loaded
    if not _loaded:
        _loaded = True
        for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
            importlib.import_module(entry.value)
