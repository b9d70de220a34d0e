"""What a report says about a game (its title, units, seat names), looked up by its id."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.bots import bot_entries, parse_bot_spec
from ..core.errors import RatgamesError
from ..core.game import Game
from ..core.registry import game_class, get_game


@dataclass(frozen=True)
class GameInfo:
    """The words a report uses for a game; plain defaults for a game not installed here."""

    id: str
    title: str
    points_label: str = "points"
    lower_points_win: bool = False
    length_unit: str = "actions"
    seat_names: tuple[str, ...] = field(default_factory=tuple)

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"Seat {seat + 1}"

    @classmethod
    def of(cls, game_id: str, players: int, options: Mapping[str, Any]) -> GameInfo:
        try:
            game: Game = get_game(game_id, players=players, options=options)
        except (RatgamesError, ValueError):
            return cls(game_id, game_id)
        return cls(
            game_id,
            game.title,
            game.points_label,
            game.lower_points_win,
            game.length_unit,
            tuple(game.seat_name(s) for s in range(players)),
        )


def game_title(game_id: str) -> str:
    """A game's title, or its id when it is not installed here."""
    try:
        return game_class(game_id).title
    except (RatgamesError, ValueError):
        return game_id


def without_param(spec: str, param: str) -> str:
    """A bot spec with one parameter left out.

    >>> without_param("heuristic:memory=0.5,knock=4", "knock")
    'heuristic:memory=0.5'
    >>> without_param("heuristic:knock=4", "knock"), without_param("random", "knock")
    ('heuristic', 'random')
    """
    try:
        name, params = parse_bot_spec(spec)
    except (RatgamesError, ValueError):
        return spec
    if param not in params:
        return spec
    rest = {k: v for k, v in params.items() if k != param}
    return name + (":" + ",".join(f"{k}={v}" for k, v in rest.items()) if rest else "")


def param_value(game_id: str, spec: str, param: str) -> str | None:
    """The value of ``param`` a bot spec plays with: given in the spec, else the bot's default
    (None when the game or bot is not installed here, or has no such parameter).

    >>> param_value("rat-a-tat-cat", "heuristic", "knock")
    '9.0'
    >>> param_value("rat-a-tat-cat", "heuristic:knock=12", "knock")
    '12'
    """
    try:
        name, params = parse_bot_spec(spec)
        if param in params:
            return params[param]
        for entry in bot_entries(game_id):
            if entry.name == name:
                for option in entry.cls.params:
                    if option.name == param:
                        return str(option.default)
    except (RatgamesError, ValueError):
        return None
    return None
