"""The registry of games by id, and of each game's parts.

A game is registered once, in its package's ``__init__.py``, with every part it brings declared
beside it (:class:`GameParts`): the text picture and event sentences (``render``), the terminal
panel (``tui``), the bots (``bots``), the difficulty levels (``levels``), and for research the
encoder (``encoder``) and the deal plan (``deal_plan``)::

    register_game(
        "rats",
        "ratgames.games.rats.rules:Rats",
        parts=GameParts(render=".render", tui=".tui:Panel", bots=".bots", levels=".bots:LEVELS"),
    )

Each part is a name, imported only when the part is first asked for (so that ``import ratgames``
and listing the games stay fast): ``"package.module"`` for a module, ``"package.module:attr"``
for one of its attributes, and a name that starts with a dot is relative to the package of the
game's class (``".render"`` beside ``ratgames.games.rats.rules``).  The core and the front ends
find a game's parts here only, never by the names of its modules.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from .errors import UnknownNameError
from .game import Game


@dataclasses.dataclass(frozen=True, slots=True)
class GameParts:
    """Where a game's parts live (see the module docstring for how each is named).  Every part
    is optional: a front end or tool that needs one the game lacks says so by name."""

    render: str | None = None
    """A module with ``render(game, view) -> str`` (the text picture of an observation or a
    spectator view) and ``describe_event(game, event, viewer) -> str`` (one event as a
    sentence)."""
    tui: str | None = None
    """The terminal panel: a :class:`ratgames.tui.base.GamePanel` subclass."""
    bots: str | None = None
    """A module that registers the game's bots (and opponent model) when imported."""
    levels: str | None = None
    """A mapping of difficulty level (``easy``, ``normal``, ``hard``, ``expert``) to bot spec;
    the levels it leaves out are the general ones (:mod:`ratgames.levels`)."""
    encoder: str | None = None
    """The research encoder: a :class:`ratgames.rl.encoding.Encoder` subclass, built as
    ``Encoder(game)``."""
    deal_plan: str | None = None
    """The deal as chance outcomes: a :class:`ratgames.rl.deals.DealPlan` subclass, built as
    ``DealPlan(game)``."""


PART_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(GameParts))
"""The names of the parts a game may declare."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Entry:
    target: str | type[Game]
    parts: GameParts


_GAMES: dict[str, _Entry] = {}
_PARTS: dict[tuple[str, str], Any] = {}


def register_game(game_id: str, target: str | type[Game], parts: GameParts | None = None) -> None:
    """Make a game class (or ``"package.module:Class"``, imported when first used) known under
    ``game_id``, with its ``parts`` (see :class:`GameParts`)."""
    if parts is not None and not isinstance(parts, GameParts):
        raise TypeError(f"parts of {game_id!r} must be a GameParts, not {type(parts).__name__}")
    _GAMES[game_id] = _Entry(target, parts or GameParts())
    for key in [k for k in _PARTS if k[0] == game_id]:
        del _PARTS[key]


def game_ids() -> list[str]:
    """The ids of every registered game, in registration order."""
    _load_builtin()
    return list(_GAMES)


def _entry(game_id: str) -> _Entry:
    _load_builtin()
    entry = _GAMES.get(game_id)
    if entry is None:
        known = ", ".join(_GAMES)
        raise UnknownNameError(f"unknown game {game_id!r}; the games are: {known}")
    return entry


def game_class(game_id: str) -> type[Game]:
    """The class of a registered game."""
    target = _entry(game_id).target
    if not isinstance(target, str):
        return target
    cls = _import(target)
    assert isinstance(cls, type) and issubclass(cls, Game)
    return cls


def game_parts(game_id: str) -> GameParts:
    """The parts ``game_id`` declared, as declared (nothing imported)."""
    return _entry(game_id).parts


def game_part(game_id: str, part: str) -> Any | None:
    """The part ``part`` of ``game_id`` (a module or the attribute named), imported now; None if
    the game declares none.

    >>> game_part("chess", "render")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ratgames.core.errors.UnknownNameError: unknown game 'chess'; the games are: ...
    """
    if part not in PART_NAMES:
        raise UnknownNameError(f"unknown part {part!r}; the parts are: {', '.join(PART_NAMES)}")
    key = (game_id, part)
    if key in _PARTS:
        return _PARTS[key]
    entry = _entry(game_id)
    name: str | None = getattr(entry.parts, part)
    if name is None:
        return None
    if name.startswith("."):
        target = entry.target
        home = target.partition(":")[0] if isinstance(target, str) else target.__module__
        name = home.rpartition(".")[0] + name
    found = _PARTS[key] = _import(name)
    return found


def required_part(game_id: str, part: str, what: str) -> Any:
    """The part ``part`` of ``game_id``, or :class:`UnknownNameError` saying that ``what``
    needs it (``what``: "the terminal table", "an encoder"...)."""
    found = game_part(game_id, part)
    if found is None:
        raise UnknownNameError(
            f"{what} needs the {part!r} part of {game_id!r}, and the game declares none "
            f"(register_game(..., parts=GameParts({part}=...)))"
        )
    return found


def _import(name: str) -> Any:
    module, _, attr = name.partition(":")
    found: Any = importlib.import_module(module)
    return getattr(found, attr) if attr else found


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
