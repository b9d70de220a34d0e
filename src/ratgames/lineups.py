"""Who sits where: the bots a run or a table names, filled out to every seat, the people and bots
of a table played in the terminal, the game's default bot, and an example bot spec as typed after
``--bots``.

A bot spec is ``NAME`` or ``NAME:param=value,...`` (see :func:`ratgames.core.bots.parse_bot_spec`).

>>> from ratgames import get_game
>>> fill_bots(get_game("rats", players=4), ["heuristic", "random"], 4, "heuristic")
['heuristic', 'random', 'random', 'random']
>>> default_bot("rats")
'heuristic'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .core.bots import describe_bots, make_bot
from .core.errors import RatgamesError
from .core.game import Game


class LineupError(RatgamesError):
    """Seats that cannot be filled as asked: more bots than seats, a seat or a number of people
    the game does not have, or both a level and bots."""


def show_value(value: Any) -> str:
    """An option's or a bot parameter's value as it is typed: ``true``/``false`` for a flag.

    >>> show_value(True), show_value(0.5), show_value("deal")
    ('true', '0.5', 'deal')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def default_bot(game_id: str) -> str:
    """The bot a game's seats get when none is named: ``heuristic`` where the game has one, else
    its first bot."""
    names = [name for name, _, _ in describe_bots(game_id)]
    return "heuristic" if "heuristic" in names else names[0]


def fill_bots(game: Game, bots: Sequence[str], count: int, default: str) -> list[str]:
    """``count`` bot specs: the given ones, the last repeated to fill the seats (``default``
    where none is given).  Every spec is checked (its name and parameters) by making the bot;
    more specs than ``count`` raise :class:`LineupError`.

    >>> from ratgames import get_game
    >>> fill_bots(get_game("rats", players=2), ["a", "b", "c"], 2, "random")
    Traceback (most recent call last):
    ...
    ratgames.lineups.LineupError: 3 bots given but only 2 seats to fill
    """
    specs = list(bots) or [default]
    if len(specs) > count:
        raise LineupError(f"{len(specs)} bots given but only {count} seats to fill")
    while len(specs) < count:
        specs.append(specs[-1])
    for spec in specs:
        make_bot(game, spec)  # validates name and parameters
    return specs


def bot_example(game_id: str) -> str:
    """A bot of ``game_id`` with one parameter set, as typed after --bots (it always runs).

    >>> from ratgames import get_game
    >>> spec = bot_example("rats")
    >>> ":" in spec and make_bot(get_game("rats"), spec).describe() != ""
    True
    """
    for name, _, params in describe_bots(game_id):
        if any(p.default == "" and not p.choices for p in params):
            continue  # a parameter with no default (a weights file): no example runs as it is
        for p in params:
            if p.choices:
                value = p.choices[-1]
            elif isinstance(p.default, bool):
                value = not p.default
            elif isinstance(p.default, float) and p.minimum is not None and p.maximum is not None:
                value = round((p.minimum + p.maximum) / 2, 2)
            else:
                value = p.default
            return f"{name}:{p.name}={show_value(value)}"
    return describe_bots(game_id)[0][0]


@dataclass(frozen=True)
class TableSeats:
    """A table's seats: a bot spec for each bot, None for each person; the level its bots play
    at (None for bots of one's own choosing)."""

    seats: tuple[str | None, ...]
    level: str | None


def table_seats(
    game: Game,
    *,
    seat: int = 1,
    people: int = 1,
    bots: Sequence[str] = (),
    level: str | None = None,
) -> TableSeats:
    """Who sits where at a table played at one keyboard (``ratgames play``): ``people`` persons
    in the seats from ``seat`` (from 1) on, round the table, and in every other seat, in seat
    order, the named ``bots`` (the last one filling the rest) or else the bot of ``level``
    (default: the normal level).  Raises :class:`LineupError` for what cannot be seated.

    >>> from ratgames import get_game
    >>> rats = get_game("rats", players=4)
    >>> table_seats(rats, seat=4, people=2, bots=["random"])
    TableSeats(seats=(None, 'random', 'random', None), level=None)
    >>> table_seats(rats, people=4).seats
    (None, None, None, None)
    >>> table_seats(rats, seat=5)
    Traceback (most recent call last):
    ...
    ratgames.lineups.LineupError: --seat must be from 1 to 4
    """
    from .levels import level_bot

    if not 1 <= seat <= game.players:
        raise LineupError(f"--seat must be from 1 to {game.players}")
    if not 1 <= people <= game.players:
        raise LineupError(f"--people must be from 1 to {game.players} (the players of this game)")
    humans = {(seat - 1 + k) % game.players for k in range(people)}
    count = game.players - people
    if level is not None and bots:
        raise LineupError("give either --level or --bots, not both")
    if count and not bots:
        level = level or "normal"  # plain 'ratgames play GAME' plays the normal level
        specs = [level_bot(game.id, level)] * count
    elif count:
        specs = fill_bots(game, bots, count, default_bot(game.id))
    else:
        if bots:
            raise LineupError("every seat is taken by a person: there is no seat for --bots")
        specs = []
    it = iter(specs)
    return TableSeats(tuple(None if s in humans else next(it) for s in range(game.players)), level)
