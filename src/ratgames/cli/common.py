"""What the commands share: the consoles, one-line user errors, the GAME argument and the
common options, and checks that an output can be written before a long run starts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console

from ..core.game import Game
from ..core.options import parse_option_pairs
from ..core.registry import game_ids, get_game

F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

console = Console()
err = Console(stderr=True)


class UserError(Exception):
    """A mistake in what the user typed: reported in one line, exit code 2."""


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error (exit code 2)."""
    raise UserError(message)


def pct(x: float) -> str:
    """A share as a percentage with one decimal.

    >>> pct(0.5), pct(1 / 3)
    ('50.0%', '33.3%')
    """
    return f"{100 * x:.1f}%"


def default_record_dir() -> Path:
    """Where ``ratgames play`` saves records: $RATGAMES_HOME/records, or ~/.ratgames/records."""
    from ..tui.session import default_record_dir as folder

    return folder()


def setup_game(game_id: str, players: int | None, option: Sequence[str]) -> Game:
    """The game ``game_id`` with ``--players`` and the ``--option NAME=VALUE`` pairs."""
    return get_game(game_id, players=players, options=parse_option_pairs(option))


def game_argument() -> Callable[[F], F]:
    """The GAME argument every game command takes."""
    return click.argument("game", metavar="GAME", shell_complete=complete_game)


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a game id."""
    return [g for g in game_ids() if g.startswith(incomplete)]


players_option = click.option(
    "--players", "-n", type=int, default=None, help="Number of players (default: the game's)."
)
option_option = click.option(
    "--option",
    "-o",
    "option",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule or setting (repeatable; see 'ratgames rules GAME').",
)


def check_writable_file(path: Path, what: str) -> None:
    """Fail now, in one line, if ``path`` cannot be written when the run is over (so that a long
    run does not end in an error that loses its results): see :mod:`ratgames.outputs`."""
    from ..outputs import check_output_file

    check_output_file(path, what)


def check_writable_folder(folder: Path, what: str, *, make_parents: bool = False) -> None:
    """Make ``folder`` if missing and fail now, in one line, if records or results cannot be
    written to it: see :mod:`ratgames.outputs`."""
    from ..outputs import check_output_folder

    check_output_folder(folder, what, make_parents=make_parents)
