"""The ``ratgames`` command line: a group of thin Click commands, one module per group of
commands, over the library (:mod:`ratgames.sim`, :mod:`ratgames.tournament`,
:mod:`ratgames.sweeps`, :mod:`ratgames.stats`, :mod:`ratgames.lineups`, ...).

* :mod:`~ratgames.cli.info`: ``games``, ``rules``, ``bots``
* :mod:`~ratgames.cli.play`: ``play``, ``replay``
* :mod:`~ratgames.cli.runs`: ``simulate``, ``tournament``
* :mod:`~ratgames.cli.stats`: ``stats``
* :mod:`~ratgames.cli.compile`: ``compile`` (the compiled build)
* what they share: :mod:`~ratgames.cli.common` (the consoles, one-line errors, GAME and the
  common options), :mod:`~ratgames.cli.progress` (a bar or log lines),
  :mod:`~ratgames.cli.backends` (``--backend``, ``--checkpoint`` and what a stopped run kept)
* the heavier commands are imported only when used (:class:`LazyGroup`): ``compile``, the online
  server and its clients (:mod:`ratgames.server.cli`), reports (:mod:`ratgames.report.cli`), the
  record hunt (:mod:`ratgames.hunt.cli`), training (:mod:`ratgames.rl.learn.cli`).

:func:`main` runs it as the ``ratgames`` console script and ``python -m ratgames.cli`` do."""

from __future__ import annotations

import sys

import click

from ..core.errors import RatgamesError
from ..core.registry import game_ids
from ..lineups import bot_example
from . import info, play, runs, stats
from .common import CONTEXT, UserError, default_record_dir, err
from .progress import LogProgress, SteadyTimeLeft, time_left

__all__ = [
    "LazyGroup",
    "LogProgress",
    "SteadyTimeLeft",
    "UserError",
    "app",
    "bot_example",
    "default_record_dir",
    "expand_multi_values",
    "main",
    "time_left",
]


class LazyGroup(click.Group):
    """A command group whose heavier commands (the online server and its clients, reports, the
    record hunt) are imported only when used, so that ``ratgames play`` starts as fast as before.

    A command whose module cannot be found (a trimmed install) is simply not listed."""

    lazy: dict[str, str] = {
        "serve": "ratgames.server.cli:serve",
        "db": "ratgames.server.cli:db",
        "export": "ratgames.server.cli:export",
        "join": "ratgames.server.cli:join",
        "bot": "ratgames.server.cli:bot",
        "host": "ratgames.server.cli:host",
        "report": "ratgames.report.cli:report",
        "hunt": "ratgames.hunt.cli:hunt",
        "compile": "ratgames.cli.compile:compile_group",
        "train": "ratgames.rl.learn.cli:train",
        "dataset": "ratgames.rl.learn.cli:dataset",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self._available()])

    def _available(self) -> list[str]:
        return [name for name in self.lazy if self._found(name)]

    def _found(self, name: str) -> bool:
        """Whether the lazy command ``name``'s module is installed (looked up without running
        it; its package's ``__init__`` runs, so only the command asked for is looked up)."""
        import importlib.util

        try:
            return importlib.util.find_spec(self.lazy[name].partition(":")[0]) is not None
        except ModuleNotFoundError:
            return False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in self.lazy or not self._found(cmd_name):
            return command
        import importlib

        module, _, name = self.lazy[cmd_name].partition(":")
        found = getattr(importlib.import_module(module), name)
        assert isinstance(found, click.Command)
        return found


@click.group(cls=LazyGroup, context_settings=CONTEXT, no_args_is_help=True)
@click.version_option(package_name="ratgames", prog_name="ratgames")
def app() -> None:
    """Play and study the rat card games: Rat-a-Tat Cat, Egyptian Ratscrew, Rats and Caged Rats.

    \b
    Start with:
      ratgames games                      the games, their player counts and options
      ratgames rules rat-a-tat-cat        how to play, with every house rule
      ratgames play rat-a-tat-cat         play in the terminal against bots
      ratgames play --resume              take up your last unfinished game
      ratgames stats                      your games, wins and places
      ratgames simulate rats --games 200 --bots heuristic random
    """


for command in (
    info.games,
    info.rules,
    info.bots,
    play.play,
    play.replay_cmd,
    runs.simulate,
    runs.tournament,
    stats.stats,
):
    app.add_command(command)

MULTI_VALUE_OPTIONS = ("--bots", "-b", "--option", "-o")


def expand_multi_values(argv: list[str]) -> list[str]:
    """Let ``--bots a b c`` mean ``--bots a --bots b --bots c`` (likewise ``--option``).

    ``report`` is left as typed: its ``-o`` is the output folder, and input files may follow it.
    """
    if argv[:1] == ["report"]:
        return list(argv)
    out: list[str] = []
    i = 0
    known = set(game_ids())
    while i < len(argv):
        token = argv[i]
        out.append(token)
        i += 1
        if token in MULTI_VALUE_OPTIONS and i < len(argv):
            out.append(argv[i])
            i += 1
            while i < len(argv) and not argv[i].startswith("-") and argv[i] not in known:
                if argv[i].endswith(".json"):
                    break
                out.extend([token, argv[i]])
                i += 1
    return out


def _error(message: str) -> None:
    """One line on stderr (colour only on a terminal)."""
    one_line = " ".join(message.split())
    click.echo(click.style("error: ", fg="red", bold=True) + one_line, err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; user errors give one line on stderr and exit code 2."""
    args = expand_multi_values(list(sys.argv[1:] if argv is None else argv))
    try:
        app.main(args=args, prog_name="ratgames", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        # "ratgames" alone: show the help, as --help would.
        click.echo(exc.ctx.get_help() if exc.ctx else "", err=False)
        raise SystemExit(0) from None
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "ratgames"
        _error(f"{exc.format_message()}  (see '{where} --help')")
        raise SystemExit(2) from None
    except click.exceptions.Abort:
        err.print("aborted")
        raise SystemExit(130) from None
    except (UserError, RatgamesError) as exc:
        _error(str(exc))
        raise SystemExit(2) from None
    except click.ClickException as exc:
        _error(exc.format_message())
        raise SystemExit(exc.exit_code) from None
