"""Sweeps of a bot parameter: one run per value, the same bots otherwise (``ratgames simulate
--sweep knock=4,8,12``).

>>> sweep = parse_sweep("knock = 4, 8,12")
>>> sweep
Sweep(param='knock', values=('4', '8', '12'))
>>> from ratgames import get_game
>>> game = get_game("rat-a-tat-cat", players=2)
>>> for value, bots in sweep_lineups(game, ["heuristic", "random"], sweep):
...     print(value, bots)
4 ('heuristic:knock=4', 'random')
8 ('heuristic:knock=8', 'random')
12 ('heuristic:knock=12', 'random')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core.bots import make_bot, parse_bot_spec
from .core.errors import RatgamesError
from .core.game import Game


class SweepError(RatgamesError):
    """A sweep not written as ``param=value1,value2,...``."""


@dataclass(frozen=True)
class Sweep:
    """A bot parameter and the values to try, in order, as typed."""

    param: str
    values: tuple[str, ...]


def parse_sweep(text: str) -> Sweep:
    """A sweep from ``param=value1,value2,...`` (spaces around names and values are dropped).

    >>> parse_sweep("knock")
    Traceback (most recent call last):
    ...
    ratgames.sweeps.SweepError: --sweep takes the form param=value1,value2,...
    """
    param, sep, values = text.partition("=")
    param = param.strip()
    found = tuple(v.strip() for v in values.split(",") if v.strip())
    if not sep or not found or not param:
        raise SweepError("--sweep takes the form param=value1,value2,...")
    return Sweep(param, found)


def with_param(spec: str, param: str, value: str) -> str:
    """The bot spec ``spec`` with ``param`` set to ``value`` (added, or replacing its value).

    >>> with_param("heuristic:knock=4,greedy=true", "knock", "8")
    'heuristic:knock=8,greedy=true'
    >>> with_param("random", "pass_rate", "0.2")
    'random:pass_rate=0.2'
    """
    name, params = parse_bot_spec(spec)
    params[param] = value
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def sweep_lineups(
    game: Game, bots: Sequence[str], sweep: Sweep, every_bot: bool = False
) -> list[tuple[str, tuple[str, ...]]]:
    """One ``(value, bots)`` per value of the sweep: ``bots`` with the parameter set in the first
    bot only, or in every bot with ``every_bot``.  Each bot is checked by making it, so that a
    value the bot does not take is refused before anything is played."""
    runs: list[tuple[str, tuple[str, ...]]] = []
    for value in sweep.values:
        swept = tuple(
            with_param(spec, sweep.param, value) if (i == 0 or every_bot) else spec
            for i, spec in enumerate(bots)
        )
        for spec in swept:
            make_bot(game, spec)
        runs.append((value, swept))
    return runs
