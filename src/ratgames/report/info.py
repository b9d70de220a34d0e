"""What a report says about a game (its title, units, seat names), looked up by its id."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.bots import parse_bot_spec
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
