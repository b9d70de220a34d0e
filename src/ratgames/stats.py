"""A person's statistics from their saved game records (what ``ratgames stats`` shows): games,
wins and average places by game and by number of players and level, time played, the longest
game, the games left unfinished, and the hot-seat games, counted apart.

Games where one person played against bots count.  A game is filed under its level (plain
``ratgames play GAME`` is the normal level); one against ``--bots`` is filed under the level
whose bot sat in every bot seat, else under ``"own bots"``.

>>> tally = Tally()
>>> tally.add(1.0, 1)
>>> tally.add(0.5, 1)
>>> tally.add(0.0, 3)
>>> tally.games, tally.wins, tally.win_rate(), round(tally.mean_place(), 2)
(3, 1.5, 0.5, 1.67)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core.bots import make_bot
from .core.errors import RatgamesError
from .core.registry import get_game
from .lineups import default_bot

OWN_BOTS = "own bots"
"""The level of a game against bots that are not all one level's."""


@dataclass
class Tally:
    """Games, wins (a shared win counts as a share) and the sum of places."""

    games: int = 0
    wins: float = 0.0
    places: float = 0.0

    def add(self, won: float, place: int) -> None:
        self.games += 1
        self.wins += won
        self.places += place

    def win_rate(self) -> float | None:
        """Wins per game (None before any game)."""
        return self.wins / self.games if self.games else None

    def mean_place(self) -> float | None:
        """The average place, 1 the best (None before any game)."""
        return self.places / self.games if self.games else None


@dataclass
class Longest:
    """A game's longest record: how long it lasted, its length in the game's unit, its date."""

    seconds: float = 0.0
    length: float = 0.0
    when: str = ""


@dataclass
class RecordStats:
    """The statistics of one folder of records (see :func:`record_stats`)."""

    folder: Path
    by_game: dict[str, Tally] = field(default_factory=dict)
    by_setup: dict[tuple[str, int, str], Tally] = field(default_factory=dict)
    """By ``(game, players, level)``."""
    longest: dict[str, Longest] = field(default_factory=dict)
    played: dict[str, float] = field(default_factory=dict)
    """Seconds played, by game."""
    unfinished: dict[str, int] = field(default_factory=dict)
    hot_seat: int = 0
    unreadable: int = 0

    def empty(self) -> bool:
        """Whether the folder holds no game of a person's at all."""
        return not self.by_game and not self.unfinished and not self.hot_seat


def record_stats(folder: Path) -> RecordStats:
    """The statistics of the records (``*.json``) in ``folder``.  A file that is not a readable
    record, or a finished record without the person's place, is counted as unreadable."""
    from .tui.session import HUMAN

    found = RecordStats(folder)
    levels: dict[str, dict[str, str]] = {}
    for path in sorted(folder.glob("*.json")):
        data = read_record(path)
        if data is None:
            found.unreadable += 1
            continue
        seats = data.get("seats")
        gid = str(data.get("game"))
        people = [
            s for s, e in enumerate(seats or []) if isinstance(e, dict) and e.get("player") == HUMAN
        ]
        if not people:
            continue
        outcome = data.get("outcome")
        if not isinstance(outcome, dict):
            found.unfinished[gid] = found.unfinished.get(gid, 0) + 1
            continue
        if len(people) > 1:
            found.hot_seat += 1
            continue
        me = people[0]
        try:
            winners = list(outcome["winners"])
            place = int(outcome["places"][me])
            details = outcome.get("details") or {}
        except (KeyError, IndexError, TypeError, ValueError):
            found.unreadable += 1
            continue
        won = 1.0 / len(winners) if me in winners else 0.0
        level = record_level(data, gid, seats or [], levels)
        players = int(data.get("players") or len(seats or []))
        found.by_game.setdefault(gid, Tally()).add(won, place)
        found.by_setup.setdefault((gid, players, level), Tally()).add(won, place)
        seconds = record_seconds(data)
        found.played[gid] = found.played.get(gid, 0.0) + seconds
        length = details.get("length") if isinstance(details, dict) else None
        best = found.longest.setdefault(gid, Longest())
        if seconds > best.seconds:
            best.seconds = seconds
            best.length = float(length) if isinstance(length, int | float) else 0.0
            best.when = str(data.get("created", ""))[:10]
    return found


def record_level(
    data: dict[str, Any], gid: str, seats: list[Any], known: dict[str, dict[str, str]]
) -> str:
    """The level a game was played at: the one its record names, else (a record written before
    plain 'ratgames play GAME' named its level) the level whose bot sat in every bot seat, else
    "own bots".  ``known`` caches each game's bot descriptions by level.

    >>> record_level({"play": {"level": "hard"}}, "rats", [], {})
    'hard'
    """
    play = data.get("play")
    if isinstance(play, dict) and isinstance(play.get("level"), str) and play["level"]:
        return str(play["level"])
    if gid not in known:
        known[gid] = level_descriptions(gid)
    players = {e.get("player") for e in seats if isinstance(e, dict) and e.get("player") != "human"}
    if len(players) == 1:
        return known[gid].get(str(players.pop()), OWN_BOTS)
    return OWN_BOTS


def level_descriptions(gid: str) -> dict[str, str]:
    """Each level's bot as a record describes it, mapped to the level (and the game's default
    bot, which plain 'ratgames play GAME' played before it named its level, to "normal").

    >>> level_descriptions("no-such-game")
    {}
    """
    from .levels import LEVEL_NAMES, levels_for

    try:
        game = get_game(gid)
        specs = levels_for(gid)
        out = {make_bot(game, specs[name]).describe(): name for name in LEVEL_NAMES}
        out.setdefault(make_bot(game, default_bot(gid)).describe(), "normal")
    except RatgamesError:  # a game this ratgames does not know
        return {}
    return out


def read_record(path: Path) -> dict[str, Any] | None:
    """The JSON of a game record file, or None if it is not one (unreadable, not JSON, or JSON
    of another format)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != "ratgames-record":
        return None
    return data


def record_seconds(data: dict[str, Any]) -> float:
    """How long a recorded game lasted: its clock, or its last action's time (0 when the record
    holds no time that is a finite number of seconds).

    >>> record_seconds({"play": {"clock": 95.5}})
    95.5
    >>> record_seconds({"events": [{"time": 3}, {"time": 12.5}, {"time": "late"}]})
    12.5
    >>> record_seconds({"events": [{"time": float("nan")}, {"time": -4}]})
    0.0
    """
    play = data.get("play")
    if isinstance(play, dict):
        clock = seconds_value(play.get("clock"))
        if clock is not None:
            return clock
    times = [0.0]
    for e in data.get("events") or []:
        t = seconds_value(e.get("time")) if isinstance(e, dict) else None
        if t is not None:
            times.append(t)
    return max(times)


def seconds_value(value: object) -> float | None:
    """``value`` as seconds if it is a finite number, 0 or more, else None.

    >>> seconds_value(2), seconds_value(True), seconds_value(10**400), seconds_value(-1.0)
    (2.0, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None
