"""The ``ratgames`` command line."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .core.bots import describe_bots, make_bot, parse_bot_spec
from .core.errors import RatgamesError
from .core.game import Game
from .core.options import parse_option_pairs
from .core.records import load_record, replay
from .core.registry import game_class, game_ids, get_game

if TYPE_CHECKING:
    from .sim import Backend

F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


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
        "compile": "ratgames.compiled_cli:compile_group",
        "train": "ratgames.rl.learn.cli:train",
        "dataset": "ratgames.rl.learn.cli:dataset",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self._available()])

    def _available(self) -> list[str]:
        import importlib.util

        found = []
        for name, target in self.lazy.items():
            try:
                if importlib.util.find_spec(target.partition(":")[0]) is not None:
                    found.append(name)
            except ModuleNotFoundError:
                pass
        return found

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in self._available():
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


console = Console()
err = Console(stderr=True)

MULTI_VALUE_OPTIONS = ("--bots", "-b", "--option", "-o")


class UserError(Exception):
    """A mistake in what the user typed: reported in one line, exit code 2."""


def _fail(message: str) -> NoReturn:
    raise UserError(message)


def default_record_dir() -> Path:
    """Where ``ratgames play`` saves records: $RATGAMES_HOME/records, or ~/.ratgames/records."""
    from .tui.session import default_record_dir as folder

    return folder()


def _setup(game_id: str, players: int | None, option: Sequence[str]) -> Game:
    return get_game(game_id, players=players, options=parse_option_pairs(option))


def _bot_list(game: Game, bots: Sequence[str], count: int, default: str) -> list[str]:
    """``count`` bot specs: the given ones, the last repeated to fill the seats."""
    specs = list(bots) or [default]
    if len(specs) > count:
        _fail(f"{len(specs)} bots given but only {count} seats to fill")
    while len(specs) < count:
        specs.append(specs[-1])
    for spec in specs:
        make_bot(game, spec)  # validates name and parameters
    return specs


def _default_bot(game_id: str) -> str:
    names = [name for name, _, _ in describe_bots(game_id)]
    return "heuristic" if "heuristic" in names else names[0]


def game_argument() -> Callable[[F], F]:
    """The GAME argument every game command takes."""
    return click.argument("game", metavar="GAME", shell_complete=_complete_game)


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
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


def backend_options(f: F) -> F:
    """``--backend`` and ``--address``: where simulate and tournament play their games."""
    f = click.option(
        "--address",
        default=None,
        metavar="ADDRESS",
        help="With --backend ray: the cluster to use (auto, HOST:6379 or ray://HOST:10001; "
        "default: $RAY_ADDRESS if set, else a Ray started on this machine for the run).",
    )(f)
    return click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where to play: processes on this machine, or Ray (this machine or a cluster; "
        "the same games for the same seed).",
    )(f)


def checkpoint_options(f: F) -> F:
    """``--checkpoint`` and ``--checkpoint-every``: save a long run's progress to go on later."""
    f = click.option(
        "--checkpoint-every",
        type=click.FloatRange(min=0.1),
        default=60.0,
        show_default=True,
        metavar="SECONDS",
        help="How often --checkpoint saves (it also saves at the end and on Ctrl-C).",
    )(f)
    return click.option(
        "--checkpoint",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        metavar="FILE",
        help="Save progress to FILE as the run goes; run the same command again to go on "
        "where it stopped (with more --games, to add to a finished run).",
    )(f)


def _open_checkpoint(
    path: Path | None, command: str, configs: list[Any], keep_games: bool = False
) -> Any:
    """The run checkpoint at ``path`` for these runs (None without --checkpoint); says on
    stderr how many games it already holds."""
    if path is None:
        return None
    from .checkpoint import CheckpointError, RunCheckpoint

    _check_writable_file(path, "--checkpoint")
    try:
        checkpoint = RunCheckpoint.open(path, command, configs, keep_games)
    except CheckpointError as exc:
        raise click.BadParameter(str(exc), param_hint="--checkpoint") from None
    done = sum(checkpoint.done(c) for c in configs)
    if done:
        total = sum(c.games for c in configs)
        err.print(
            f"Going on from {path}: {done:,} of {total:,} games already played", highlight=False
        )
    return checkpoint


@contextlib.contextmanager
def _stops_kept(checkpoint: Path | None) -> Iterator[None]:
    """A run stopped by Ctrl-C or by its cluster: say what was kept (the run saved its
    checkpoint before the error came up) and exit, with 130 after Ctrl-C as a shell expects."""
    go_on = f"progress saved in {checkpoint}; run the same command to go on"
    try:
        yield
    except KeyboardInterrupt:
        if checkpoint is not None:
            err.print(f"Stopped: {go_on}.")
        else:
            err.print("Stopped; give --checkpoint FILE to be able to go on next time.")
        raise SystemExit(130) from None
    except RatgamesError as exc:
        from .checkpoint import CheckpointError

        if checkpoint is None or isinstance(exc, CheckpointError):
            raise
        raise click.ClickException(f"{exc}\n{go_on}") from None


COMPILE_HINT_SECONDS = 30.0
"""A local run at least this long on the Python modules suggests the compiled build."""


def _compile_hint(backend: str, seconds: float) -> None:
    """After a long local run on the Python modules: say once how to play about twice as fast
    (the build is made on this machine, so not after a run on a cluster)."""
    from . import compiled

    if backend != "local" or seconds < COMPILE_HINT_SECONDS or compiled.active is not None:
        return
    if compiled.turned_off():
        return
    err.print(
        "Tip: the compiled engine plays these games about twice as fast; build it once with "
        "'ratgames compile build' (docs/performance.md).",
        style="dim",
        highlight=False,
    )


def _backend(
    name: str, address: str | None, workers: int | None
) -> contextlib.AbstractContextManager[Backend | None]:
    """The backend a run asked for: None for the local process pool, else Ray."""
    if name == "local":
        if address is not None:
            _fail("--address is the Ray cluster to use: give it with --backend ray")
        return contextlib.nullcontext()
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is not None and workers is not None:
        _fail(
            "--workers sizes the Ray started on this machine; a Ray cluster (--address or "
            "RAY_ADDRESS) uses all its CPUs"
        )
    return _ray_backend(address, workers)


@contextlib.contextmanager
def _ray_backend(address: str | None, cpus: int | None) -> Iterator[Backend]:
    from .distributed import RayBackend, import_ray

    import_ray()  # says at once how to install Ray if it is missing
    where = f"the Ray cluster at {address}" if address else "a Ray on this machine"
    err.print(f"Starting {where}..." if not address else f"Connecting to {where}...")
    with RayBackend(address=address, cpus=cpus) as backend:
        err.print(f"Playing on {backend.describe()}", highlight=False)
        yield backend


@app.command()
def games() -> None:
    """List the games with their player counts and options."""
    table = Table(title="ratgames: the games", show_lines=True)
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("game")
    table.add_column("players", justify="center")
    table.add_column("options (default)")
    for gid in game_ids():
        cls = game_class(gid)
        opts = ", ".join(f"{o.name}={_show(o.default)}" for o in cls.option_specs) or "-"
        title = f"{cls.title}\n[dim]{cls.summary}[/dim]"
        if cls.real_time:
            title += "\n[yellow]real time[/yellow]"
        low, high = cls.min_players, cls.max_players
        table.add_row(gid, title, str(low) if low == high else f"{low}-{high}", opts)
    console.print(table)
    console.print("Rules: [bold]ratgames rules GAME[/bold]   Bots: [bold]ratgames bots GAME[/bold]")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@app.command()
@game_argument()
@click.option(
    "--notation",
    is_flag=True,
    help="Also show how programs and records write actions, cards and deals.",
)
def rules(game: str, notation: bool) -> None:
    """Show a game's rules, with every option and its default.

    \b
    Examples:
      ratgames rules rats
      ratgames rules rat-a-tat-cat --notation     with the notation for bots and records
    """
    from .tui.base import notation_rules, player_rules

    g = get_game(game)
    console.print(Markdown(player_rules(g.rules())))
    table = Table(title=f"Options of {g.title}")
    table.add_column("option", style="bold cyan")
    table.add_column("default")
    table.add_column("allowed")
    table.add_column("meaning")
    for o in g.option_specs:
        table.add_row(o.name, _show(o.default), o.describe_allowed(), o.help)
    console.print(table)
    console.print("Set options with [bold]--option name=value[/bold] (or -o name=value).")
    written = notation_rules(g.rules())
    if notation and written:
        console.print(Markdown(written))
    elif written:
        console.print(f"Notation for bots and records: [bold]ratgames rules {g.id} --notation")


def bot_example(game_id: str) -> str:
    """A bot of ``game_id`` with one parameter set, as typed after --bots (it always runs)."""
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
            return f"{name}:{p.name}={_show(value)}"
    return describe_bots(game_id)[0][0]


@app.command()
@game_argument()
def bots(game: str) -> None:
    """List the bots that play a game, with their parameters."""
    get_game(game)
    table = Table(title=f"Bots for {game}")
    table.add_column("bot", style="bold cyan")
    table.add_column("what it does")
    table.add_column("parameters (default)")
    for name, summary, params in describe_bots(game):
        ps = "\n".join(f"{p.name}={_show(p.default)}: {p.help}" for p in params) or "-"
        table.add_row(name, summary, ps)
    console.print(table)
    console.print(
        f"Use as NAME or NAME:param=value,param=value, e.g. --bots {bot_example(game)}",
        highlight=False,
    )
    from .levels import levels_for

    levels = ", ".join(f"{level} = {spec}" for level, spec in levels_for(game).items())
    console.print(f"Levels for 'ratgames play --level': {levels}", highlight=False)


@app.command()
@click.argument("game", metavar="[GAME]", required=False, shell_complete=_complete_game)
@players_option
@click.option(
    "--bots",
    "-b",
    multiple=True,
    metavar="BOT",
    help="Bots for the other seats: NAME or NAME:k=v,... (the last fills the rest).",
)
@option_option
@click.option("--seed", "-s", type=int, default=None, help="Seed for the shuffles.")
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat, from 1.")
@click.option(
    "--people",
    type=int,
    default=1,
    show_default=True,
    help="People at this keyboard (hot-seat): they take the seats from --seat on.",
)
@click.option(
    "--level",
    type=click.Choice(["easy", "normal", "hard", "expert"]),
    default=None,
    help="Bot strength, instead of --bots (default: normal).",
)
@click.option(
    "--pace",
    type=click.FloatRange(0.0, 10.0),
    default=0.6,
    show_default=True,
    help="Seconds a bot waits before a turn-based move (+/- change it while playing).",
)
@click.option(
    "--record-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where records are saved (default ~/.ratgames/records, or $RATGAMES_HOME/records).",
)
@click.option("--no-record", is_flag=True, help="Do not save a record.")
@click.option(
    "--resume",
    "resume_from",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[RECORD]",
    help="Take up an unfinished game where it stopped: RECORD, or the newest one "
    "(of GAME if given).",
)
@click.pass_context
def play(
    ctx: click.Context,
    game: str | None,
    players: int | None,
    bots: tuple[str, ...],
    option: tuple[str, ...],
    seed: int | None,
    seat: int,
    people: int,
    level: str | None,
    pace: float,
    record_dir: Path | None,
    no_record: bool,
    resume_from: str | None,
) -> None:
    """Play a game in the terminal against bots, or with others at one keyboard.

    The record is saved as you play (ctrl+q asks before leaving; a closed terminal loses
    nothing): 'ratgames play --resume' takes up the last unfinished game exactly where it
    stopped.  In the game, ? shows the keys and the rules.

    \b
    Examples:
      ratgames play rat-a-tat-cat --level hard
      ratgames play rats --players 3 --people 2     two people and a bot
      ratgames play --resume                        the last unfinished game
    """
    folder = record_dir or default_record_dir()
    if resume_from is not None:
        given = [
            name
            for name in ("players", "bots", "option", "seed", "seat", "people", "level")
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            flags = ", ".join("--" + name for name in given)
            _fail(f"--resume takes the game up as it was saved: leave out {flags}")
        app_ = _resumed_app(game, resume_from, folder, no_record, pace)
    else:
        if game is None:
            _fail("which game? e.g. 'ratgames play rat-a-tat-cat' ('ratgames games' lists them)")
        app_ = _new_app(game, players, bots, option, seed, seat, people, level, pace)
        if not no_record:
            _check_writable_folder(folder, "--record-dir", make_parents=record_dir is None)
            app_.record_dir = folder
    _run_play(app_)


def _new_app(
    game: str,
    players: int | None,
    bots: Sequence[str],
    option: Sequence[str],
    seed: int | None,
    seat: int,
    people: int,
    level: str | None,
    pace: float,
) -> Any:
    from .tui.play import PlayApp

    g = _setup(game, players, option)
    if not 1 <= seat <= g.players:
        _fail(f"--seat must be from 1 to {g.players}")
    if not 1 <= people <= g.players:
        _fail(f"--people must be from 1 to {g.players} (the players of this game)")
    humans = [(seat - 1 + k) % g.players for k in range(people)]
    count = g.players - people
    if level is not None and bots:
        _fail("give either --level or --bots, not both")
    if count and not bots:
        from .levels import level_bot

        level = level or "normal"  # plain 'ratgames play GAME' plays the normal level
        specs = [level_bot(game, level)] * count
    elif count:
        specs = _bot_list(g, bots, count, _default_bot(game))
    else:
        if bots:
            _fail("every seat is taken by a person: there is no seat for --bots")
        specs = []
    panel = _panel_class(g)
    if g.real_time and people > panel.max_people:
        _fail(
            f"{g.title} is played in real time and its table takes at most "
            f"{panel.max_people} person(s) at one keyboard"
        )
    rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
    bot_objs: list[Any] = []
    names: list[str] = []
    seeds: list[int | None] = []
    it = iter(specs)
    for s in range(g.players):
        if s in humans:
            bot_objs.append(None)
            names.append("You" if people == 1 else g.seat_name(s))
            seeds.append(None)
        else:
            spec = next(it)
            bot_objs.append(make_bot(g, spec, seed=rng_seed + s))
            names.append(f"{g.seat_name(s)} ({parse_bot_spec(spec)[0]})")
            seeds.append(rng_seed + s)
    return PlayApp(
        g,
        bot_objs,
        seed=rng_seed,
        seat=humans[0],
        names=names,
        seeds=seeds,
        level=level,
        bot_pause=pace,
    )


def _panel_class(game: Game) -> Any:
    from .tui.base import panel_class

    return panel_class(game)


def _resumed_app(game: str | None, which: str, folder: Path, no_record: bool, pace: float) -> Any:
    from .core.errors import RecordError
    from .tui.play import PlayApp
    from .tui.session import resume, unfinished_records

    if game is not None:
        game_class(game)  # an unknown game is named as such
    path: Path | None
    if which and Path(which).expanduser().exists():
        path = Path(which).expanduser()
    elif which and which not in game_ids():
        _fail(f"no record {which!r} to resume (give a record file, or nothing for the last game)")
    else:
        only = which or game
        found = unfinished_records(folder, only)
        if not found:
            of = f" of {only}" if only else ""
            _fail(f"no unfinished game{of} to resume in {folder}")
        path = found[0]
    try:
        resumed = resume(path)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    if not no_record:
        _check_writable_folder(path.parent, "the record's folder", make_parents=True)
    app_ = PlayApp(
        resumed.game,
        resumed.bots,
        state=resumed.state,
        names=resumed.names,
        seeds=resumed.seeds,
        level=resumed.level,
        clock=resumed.clock,
        record_dir=None if no_record else path.parent,
        record_path=None if no_record else path,
        bot_pause=pace,
        bots_started=True,
    )
    click.echo(f"Resuming {resumed.game.title} from {path}", err=True)
    return app_


def _run_play(app_: Any) -> None:
    """Run the play app; whatever happens, an unfinished game is saved, and said so (unless
    there is no terminal to play in: then nothing ran, and nothing is saved)."""
    from .tui.base import NoTerminal

    try:
        app_.run()
    except NoTerminal:
        raise
    except BaseException:
        _say_saved(app_)
        raise
    _say_saved(app_)
    code = app_.return_code or 0
    if code:
        raise SystemExit(code)


def _say_saved(app_: Any) -> None:
    """Save the game now, and say where (and, for an unfinished one, how to take it up)."""
    from .tui.session import command

    path = app_.save_progress()
    for saved in app_.saved:
        if saved == path and not app_.state.is_over():
            console.print(
                f"Game saved: {saved}\nTake it up again with: {command()} play --resume",
                highlight=False,
            )
        else:
            console.print(f"Record saved: {saved}", highlight=False)


def _check_writable_file(path: Path, what: str) -> None:
    """Fail now, in one line, if ``path`` cannot be written when the run is over (so that a long
    run does not end in an error that loses its results): see :mod:`ratgames.outputs`."""
    from .outputs import check_output_file

    check_output_file(path, what)


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: through a temporary file moved into place."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _check_writable_folder(folder: Path, what: str, *, make_parents: bool = False) -> None:
    """Make ``folder`` if missing and fail now, in one line, if records or results cannot be
    written to it: see :mod:`ratgames.outputs`."""
    from .outputs import check_output_folder

    check_output_folder(folder, what, make_parents=make_parents)


@dataclass
class _LogTask:
    description: str
    total: int
    start: float
    done: int = 0
    tenths: int = 0  # tenths of the total reported so far
    last_line: float = 0.0
    work: float | None = None  # the share of the work done, where games weigh unequally


class LogProgress:
    """Progress for a log file or a pipe: plain lines on stderr instead of an animated bar.

    Each task reports when it starts, whenever it passes another tenth of its games, and in
    between when a game finishes ``every`` seconds or more after the last line, e.g.
    ``rats simulation: 400/2000 games (20%), 0:00:31 elapsed, about 0:02:04 left``.
    It offers the part of :class:`rich.progress.Progress` the commands use.
    """

    def __init__(self, every: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.tasks: list[_LogTask] = []

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def add_task(self, description: str, total: int) -> TaskID:
        now = self.clock()
        self.tasks.append(_LogTask(description, total, start=now, last_line=now))
        self._line(self.tasks[-1], now)
        return TaskID(len(self.tasks) - 1)

    def update(self, task_id: TaskID, *, work: float | None = None) -> None:
        """Set the share of the task's work done (for :func:`time_left`), as
        ``Progress.update(task, work=...)`` sets the field the bar's time left reads."""
        self.tasks[task_id].work = work

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        task = self.tasks[task_id]
        task.done += int(advance)
        now = self.clock()
        tenths = 10 * task.done // task.total if task.total else 10
        if tenths > task.tenths or now - task.last_line >= self.every:
            task.tenths = tenths
            task.last_line = now
            self._line(task, now)

    @staticmethod
    def _line(task: _LogTask, now: float) -> None:
        elapsed = now - task.start
        line = (
            f"{task.description}: {task.done}/{task.total} games "
            f"({100 * task.done // max(task.total, 1)}%), {_clock_time(elapsed)} elapsed"
        )
        left = time_left(elapsed, task.done, task.total, task.work)
        if left is not None and task.done < task.total:
            line += f", about {_clock_time(left)} left"
        click.echo(line, err=True)


def _clock_time(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def time_left(elapsed: float, done: int, total: int, work: float | None = None) -> float | None:
    """The time a run still needs at the average pace of the whole run so far (not of the last
    few seconds: games finish in chunks, and a burst of finished games is not a change of pace).
    None before any game has finished.

    ``work``, where given, is the share of the run's work done, for runs whose games take
    unequal times (a tournament's pairings): the pace is then that of the work, not of the
    games, so that quick games played first do not promise a quick end.

    >>> time_left(150.0, 340, 1000)  # 34% done after 2.5 minutes
    291.1764705882353
    >>> time_left(150.0, 340, 1000, work=0.05)  # but the slow games are still to come
    2850.0
    """
    if done <= 0 or total <= 0:
        return None
    if work is not None:
        return elapsed * (1 - work) / work if work > 0 else None
    return elapsed * (total - done) / done


class SteadyTimeLeft(ProgressColumn):
    """The progress bar's time left, from the whole run's pace (see :func:`time_left`)."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("done", style="progress.remaining")
        work = task.fields.get("work")
        left = time_left(task.elapsed or 0.0, int(task.completed), int(task.total or 0), work)
        if left is None:
            return Text("-:--:-- left", style="progress.remaining")
        return Text(f"about {_clock_time(left)} left", style="progress.remaining")


def _progress() -> Progress | LogProgress:
    """A progress bar on stderr when it is an interactive terminal, else plain progress lines."""
    console = Console(stderr=True)
    if not console.is_interactive:
        return LogProgress()
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        SteadyTimeLeft(),
        console=console,
        transient=False,
    )


@app.command()
@game_argument()
@click.option(
    "--games",
    "-g",
    "games_",
    type=int,
    default=1000,
    show_default=True,
    help="How many games to play.",
)
@click.option(
    "--bots",
    "-b",
    multiple=True,
    metavar="BOT",
    help="One bot per seat, NAME or NAME:k=v,... (the last fills the other seats).",
)
@players_option
@option_option
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--workers",
    "-w",
    type=int,
    default=None,
    help="Processes to use (default: one per core); with --backend ray, the CPUs of the Ray "
    "started on this machine.",
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write every figure to this JSON file (in a folder that exists).",
)
@click.option(
    "--rotate/--no-rotate",
    default=True,
    show_default=True,
    help="Rotate the bots through the seats from game to game.",
)
@click.option(
    "--sweep",
    default=None,
    metavar="PARAM=V1,V2,...",
    help="Vary a bot parameter: one run per value, reported as one table.",
)
@click.option("--sweep-all", is_flag=True, help="Apply --sweep to every bot, not only the first.")
@click.option(
    "--per-game",
    is_flag=True,
    help="Also write every game's result (bots by seat, winners, points, length) to --json.",
)
@backend_options
@checkpoint_options
def simulate(
    game: str,
    games_: int,
    bots: tuple[str, ...],
    players: int | None,
    option: tuple[str, ...],
    seed: int,
    workers: int | None,
    json_out: Path | None,
    rotate: bool,
    sweep: str | None,
    sweep_all: bool,
    per_game: bool,
    backend: str,
    address: str | None,
    checkpoint: Path | None,
    checkpoint_every: float,
) -> None:
    """Play bot-vs-bot games in parallel and report win rates, lengths and points.

    --bots gives one bot per seat; the last one fills the seats left, so at four players
    '--bots heuristic random' is one heuristic against three random bots.  The bots rotate
    through the seats from game to game.  A run keeps totals, not every game (--per-game with
    --json keeps those too).

    Progress goes to stderr: a bar on a terminal; otherwise (a pipe, a log file) a plain line at
    the start, at every tenth of the games and every 30 seconds or so in between.

    --backend ray plays the same games as Ray tasks: on a Ray started on this machine, or on a
    cluster (--address, see docs/cluster.md).

    --checkpoint FILE saves the games played so far every minute, at the end and on Ctrl-C:
    the same command run again goes on from them, and its figures are those of a run never
    stopped.

    \b
    Examples:
      ratgames simulate rats --games 200 --bots heuristic random
      ratgames simulate caged-rats -g 100 -b heuristic random --json caged.json
      ratgames simulate rat-a-tat-cat -n 2 -o mode=round -g 200 --sweep knock=4,8,12
      ratgames simulate rats -g 1000000 --backend ray --address auto --checkpoint rats.ckpt"""
    from .sim import SimConfig, SimResult
    from .sim import simulate as run

    if games_ < 1:
        _fail("--games must be at least 1")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    if per_game and json_out is None:
        _fail("--per-game writes every game into the --json file: give --json FILE too")
    if json_out is not None:
        _check_writable_file(json_out, "--json")
    g = _setup(game, players, option)
    specs = _bot_list(g, bots, g.players, "random")
    if len(set(specs)) == 1 and not bots:
        specs = [_default_bot(game), "random"] + ["random"] * (g.players - 2)
    runs: list[tuple[str | None, tuple[str, ...]]] = [(None, tuple(specs))]
    param = ""
    if sweep:
        param, sep, values = sweep.partition("=")
        param = param.strip()
        if not sep or not values.strip() or not param:
            _fail("--sweep takes the form param=value1,value2,...")
        runs = []
        for text in [v.strip() for v in values.split(",") if v.strip()]:
            swept = tuple(
                _with_param(s, param, text) if (i == 0 or sweep_all) else s
                for i, s in enumerate(specs)
            )
            for s in swept:
                make_bot(g, s)
            runs.append((text, swept))
    configs = [
        SimConfig(game, g.players, dict(g.options), row, games_, seed, rotate) for _, row in runs
    ]
    saved = _open_checkpoint(checkpoint, "simulate", configs, per_game)
    results: list[tuple[str | None, SimResult]] = []
    with (
        _stops_kept(checkpoint),
        _backend(backend, address, workers) as chosen,
        _progress() as progress,
    ):
        for (label_value, _row), config in zip(runs, configs, strict=True):
            label = f"{game} simulation" + (
                f" {param}={label_value}" if label_value is not None else ""
            )
            start = saved.start(config, per_game) if saved is not None else None
            done = start.games if start is not None else 0
            if done:
                label += f" (from game {done + 1:,})"
            task = progress.add_task(label, total=games_ - done)

            def advance(k: int, task: TaskID = task) -> None:
                progress.advance(task, k)

            def save(r: SimResult, c: SimConfig = config) -> None:
                saved.save(c, r)

            result = run(
                config,
                workers=workers,
                on_progress=advance,
                keep_games=per_game,
                backend=chosen,
                start=start,
                checkpoint=save if saved is not None else None,
                checkpoint_every=checkpoint_every,
            )
            results.append((label_value, result))
    if sweep:
        _print_sweep(g, param, results)
    else:
        _print_result(g, results[0][1], given=len(bots))
    if json_out is not None:
        payload: Any = (
            results[0][1].to_json()
            if not sweep
            else {"sweep": param, "runs": [{"value": v, **r.to_json()} for v, r in results]}
        )
        _write_text(json_out, json.dumps(payload, indent=1) + "\n")
        console.print(f"Figures written to {json_out}", highlight=False)
    _compile_hint(backend, sum(r.seconds for _, r in results))


def _with_param(spec: str, param: str, value: str) -> str:
    name, params = parse_bot_spec(spec)
    params[param] = value
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _print_result(game: Game, result: Any, given: int | None = None) -> None:
    """The figures of one run; ``given`` is how many bots were named (the last filling the
    other seats)."""
    cfg = result.config
    table = Table(
        title=f"{game.title}: {result.games} games, {game.players} players"
        + (" (bots rotate through the seats)" if cfg.rotate else "")
    )
    table.add_column("#", justify="right")
    table.add_column("bot", style="bold cyan")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column(f"mean {game.points_label}", justify="right")
    for i, st in enumerate(result.entrant_stats()):
        lo, hi = st.interval()
        mean_points = st.mean_points()
        table.add_row(
            str(i + 1), st.bot, _pct(st.win_rate()), f"{_pct(lo)}-{_pct(hi)}", f"{mean_points:.2f}"
        )
    console.print(table)
    from .sim import seat_bots

    by_seat = seat_bots(cfg)
    filled = given is not None and 0 < given < len(by_seat)
    note = f" (the last of the {given} bots given fills the other seats)" if filled else ""
    console.print(f"Bots by seat in the first game: {', '.join(by_seat)}{note}", highlight=False)
    ls = result.length_stats()
    unit = game.length_unit
    console.print(
        f"Game length ({unit}): mean {ls['mean']:.1f}, median {ls['median']:.1f}, "
        f"95th percentile {ls['p95']:.1f}, longest {ls.get('max', 0):.0f}"
    )
    seats = ", ".join(
        f"{game.seat_name(s)} {_pct(w)}" for s, w in enumerate(result.seat_win_rates())
    )
    console.print(f"Wins by seat: {seats}")
    capped = result.capped()
    console.print(
        f"Safety cap fired in {capped} of {result.games} games ({_pct(capped / result.games)})"
    )
    means = result.detail_means()
    if means:
        console.print(
            "Per game on average: "
            + ", ".join(f"{_words(k)} {v:.3g}" for k, v in sorted(means.items())),
            highlight=False,
        )
    console.print(
        f"{result.games} games in {result.seconds:.1f} s: {result.games_per_second():.0f} games/s"
    )


def _words(key: str) -> str:
    """An outcome detail's key in words (``mean_rounds`` -> ``mean rounds``)."""
    return key.replace("_", " ")


def _print_sweep(game: Game, param: str, results: Sequence[tuple[str | None, Any]]) -> None:
    """One row per value of the swept parameter (narrow enough for 80 columns), then the games'
    own figures with one column per value."""
    first = results[0][1].config.bots[0]
    table = Table(title=f"{game.title}: how {param} of {parse_bot_spec(first)[0]} (bot 1) matters")
    table.add_column(param, justify="right", style="bold cyan")
    table.add_column("bot 1 wins (95% CI)", justify="right")
    table.add_column(f"bot 1 {game.points_label}", justify="right")
    table.add_column(f"length ({game.length_unit})", justify="right")
    for value, r in results:
        st = r.entrant_stats()[0]
        lo, hi = st.interval()
        table.add_row(
            str(value),
            f"{_pct(st.win_rate())} ({_pct(lo)}-{_pct(hi)})",
            f"{st.mean_points():.2f}",
            f"{r.length_stats()['mean']:.1f}",
        )
    console.print(table)
    detail_keys = sorted({k for _, r in results for k in r.detail_means()})
    if detail_keys:
        details = Table(title="Per game on average")
        details.add_column("", style="bold")
        for value, _ in results:
            details.add_column(f"{param}={value}", justify="right")
        for k in detail_keys:
            details.add_row(_words(k), *[f"{r.detail_means().get(k, 0.0):.3g}" for _, r in results])
        console.print(details)
    swept = results[0][1].config.bots
    base = results[1][1].config.bots if len(results) > 1 else swept
    shown = [
        _with_param(s, param, "V") if len(results) > 1 and s != b else s
        for s, b in zip(swept, base, strict=False)
    ]
    from .sim import SimConfig, seat_bots

    by_seat = seat_bots(SimConfig(game.id, game.players, {}, tuple(shown), 1))
    console.print(
        f"Each row: {results[0][1].games} games; bots by seat: {', '.join(by_seat)} "
        f"(V: the row's value of {param})",
        highlight=False,
    )


@app.command()
@game_argument()
@click.option(
    "--bots",
    "-b",
    multiple=True,
    metavar="BOT",
    required=True,
    help="The bots to rate (at least two), NAME or NAME:k=v,...",
)
@click.option(
    "--games",
    "-g",
    "games_",
    type=int,
    default=200,
    show_default=True,
    help="Games per pairing (rounded up to a multiple of the player count).",
)
@players_option
@option_option
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the run.")
@click.option(
    "--workers",
    "-w",
    type=int,
    default=None,
    help="Processes to use (default: one per core); with --backend ray, the CPUs of the Ray "
    "started on this machine.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Where to save the results, as OUT.json and OUT.md, or in the folder OUT as "
    "tournament-GAME.json and .md (default: tournament-GAME in the current folder); the "
    "folder must exist.",
)
@backend_options
@checkpoint_options
def tournament(
    game: str,
    bots: tuple[str, ...],
    games_: int,
    players: int | None,
    option: tuple[str, ...],
    seed: int,
    workers: int | None,
    out: Path | None,
    backend: str,
    address: str | None,
    checkpoint: Path | None,
    checkpoint_every: float,
) -> None:
    """Rate bots: every pairing plays the same deals from every seat; Elo ratings with 95%
    intervals and a crosstable.

    Progress goes to stderr as for simulate: a bar on a terminal, else plain lines for a log.
    --backend ray plays the games on Ray, and --checkpoint FILE lets a stopped tournament go
    on, as for simulate.

    \b
    Examples:
      ratgames tournament caged-rats -o single_deal=true -g 20 -b random heuristic
      ratgames tournament rats -g 2000 -b random heuristic ismcts --checkpoint rats-t.ckpt"""
    from .tournament import pairing_configs, percent, run_tournament

    cls = game_class(game)
    n = players or (2 if cls.min_players <= 2 else cls.min_players)
    g = _setup(game, n, option)
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        _fail("a tournament needs at least two different bots (--bots A B ...)")
    for spec in names:
        make_bot(g, spec)
    if games_ < 1:
        _fail("--games must be at least 1")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    per = -(-games_ // g.players) * g.players
    pairings = len(names) * (len(names) - 1) // 2
    stem = out or Path(f"tournament-{game}")
    if stem.is_dir():  # a folder: the usual names inside it
        stem = stem / f"tournament-{game}"
    for path in (stem.with_suffix(".json"), stem.with_suffix(".md")):
        _check_writable_file(path, "--out")
    configs = [
        c
        for _, c in pairing_configs(
            game, names, per, players=g.players, options=g.options, seed=seed
        )
    ]
    saved = _open_checkpoint(checkpoint, "tournament", configs)
    began = time.perf_counter()
    done = sum(saved.done(c) for c in configs) if saved is not None else 0
    label = f"{game} tournament" + (f" (from game {done + 1:,})" if done else "")
    with (
        _stops_kept(checkpoint),
        _backend(backend, address, workers) as chosen,
        _progress() as progress,
    ):
        task = progress.add_task(label, total=per * pairings - done)
        result = run_tournament(
            game,
            names,
            per,
            players=g.players,
            options=g.options,
            seed=seed,
            workers=workers,
            on_progress=lambda k: progress.advance(task, k),
            backend=chosen,
            checkpoint=saved,
            checkpoint_every=checkpoint_every,
            on_work=lambda share: progress.update(task, work=share),
        )
    table = Table(title=f"{g.title}: {pairings} pairings x {per} games, {g.players} players")
    table.add_column("#", justify="right")
    table.add_column("bot", style="bold cyan")
    table.add_column("rating", justify="right")
    table.add_column("95% CI", justify="right")
    order = result.ranked()
    for i in range(len(order)):
        table.add_column(f"vs {i + 1}", justify="right")
    for i, b in enumerate(order):
        lo, hi = result.intervals[b]
        cells = ["-" if b == o else percent(result.score_of(b, o)) for o in order]
        table.add_row(str(i + 1), b, f"{result.ratings[b]:.0f}", f"{lo:.0f}-{hi:.0f}", *cells)
    console.print(table)
    for line in result.pairing_lines():
        console.print(line, highlight=False)
    for line in result.setup_lines():
        console.print(line, highlight=False, markup=False)
    js, md = result.save(stem)
    console.print(f"Saved {js} and {md}", highlight=False)
    _compile_hint(backend, time.perf_counter() - began)


@dataclass
class _Tally:
    games: int = 0
    wins: float = 0.0
    places: float = 0.0

    def add(self, won: float, place: int) -> None:
        self.games += 1
        self.wins += won
        self.places += place

    def cells(self) -> list[str]:
        return [
            str(self.games),
            f"{self.wins:g}",
            _pct(self.wins / self.games) if self.games else "-",
            f"{self.places / self.games:.2f}" if self.games else "-",
        ]


@dataclass
class _Longest:
    seconds: float = 0.0
    length: float = 0.0
    when: str = ""


@app.command()
@click.option(
    "--record-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the records are (default ~/.ratgames/records, or $RATGAMES_HOME/records).",
)
def stats(record_dir: Path | None) -> None:
    """Your statistics from your saved games: games, wins and average places by game, by level
    and by number of players, your longest games, and the games left unfinished.

    Games where one person played against bots count; hot-seat games are counted apart.  A
    game is filed under its level (plain 'ratgames play GAME' is the normal level); one against
    --bots is filed under the level whose bot sat in every bot seat, else under "own bots"."""
    from .tui.session import HUMAN

    folder = record_dir or default_record_dir()
    if not folder.is_dir():
        _fail(f"no records in {folder} yet: play a game first ('ratgames play rat-a-tat-cat')")
    by_game: dict[str, _Tally] = {}
    by_setup: dict[tuple[str, int, str], _Tally] = {}
    longest: dict[str, _Longest] = {}
    played: dict[str, float] = {}
    unfinished: dict[str, int] = {}
    hot_seat = unreadable = 0
    levels: dict[str, dict[str, str]] = {}
    for path in sorted(folder.glob("*.json")):
        data = _read_record(path)
        if data is None:
            unreadable += 1
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
            unfinished[gid] = unfinished.get(gid, 0) + 1
            continue
        if len(people) > 1:
            hot_seat += 1
            continue
        me = people[0]
        try:
            winners = list(outcome["winners"])
            place = int(outcome["places"][me])
            details = outcome.get("details") or {}
        except (KeyError, IndexError, TypeError, ValueError):
            unreadable += 1
            continue
        won = 1.0 / len(winners) if me in winners else 0.0
        level = _record_level(data, gid, seats or [], levels)
        players = int(data.get("players") or len(seats or []))
        by_game.setdefault(gid, _Tally()).add(won, place)
        by_setup.setdefault((gid, players, level), _Tally()).add(won, place)
        seconds = _record_seconds(data)
        played[gid] = played.get(gid, 0.0) + seconds
        length = details.get("length") if isinstance(details, dict) else None
        best = longest.setdefault(gid, _Longest())
        if seconds > best.seconds:
            best.seconds = seconds
            best.length = float(length) if isinstance(length, int | float) else 0.0
            best.when = str(data.get("created", ""))[:10]
    if not by_game and not unfinished and not hot_seat:
        _fail(f"no games of yours in {folder} yet: play one first ('ratgames play rats')")
    titles = {gid: game_class(gid).title for gid in game_ids()}
    table = Table(title=f"Your games ({folder})")
    for column in ("game", "games", "won", "win rate", "average place", "time played"):
        table.add_column(column, justify="left" if column == "game" else "right")
    table.add_column("longest game", justify="right")
    for gid, tally in sorted(by_game.items()):
        best = longest[gid]
        unit = game_class(gid).length_unit if gid in titles else "moves"
        long_text = _clock_time(best.seconds)
        if best.length:
            long_text += f" ({best.length:g} {unit})"
        table.add_row(titles.get(gid, gid), *tally.cells(), _clock_time(played[gid]), long_text)
    if by_game:
        console.print(table)
        setups = Table(title="By number of players and level")
        for column in ("game", "players", "level", "games", "won", "win rate", "average place"):
            setups.add_column(column, justify="left" if column in ("game", "level") else "right")
        for (gid, players, level), tally in sorted(by_setup.items()):
            setups.add_row(titles.get(gid, gid), str(players), level, *tally.cells())
        console.print(setups)
    if hot_seat:
        console.print(f"Hot-seat games (several people at one keyboard): {hot_seat}")
    if unfinished:
        waiting = ", ".join(f"{titles.get(g, g)} {n}" for g, n in sorted(unfinished.items()))
        console.print(
            f"Unfinished: {waiting} ('ratgames play --resume' takes up the last one)",
            highlight=False,
        )
    if unreadable:
        console.print(f"{unreadable} file(s) in {folder} are not readable records", style="dim")


def _record_level(
    data: dict[str, Any], gid: str, seats: list[Any], known: dict[str, dict[str, str]]
) -> str:
    """The level a game was played at: the one its record names, else (a record written before
    plain 'ratgames play GAME' named its level) the level whose bot sat in every bot seat, else
    "own bots".  ``known`` caches each game's bot descriptions by level."""
    play = data.get("play")
    if isinstance(play, dict) and isinstance(play.get("level"), str) and play["level"]:
        return str(play["level"])
    if gid not in known:
        known[gid] = _level_descriptions(gid)
    players = {e.get("player") for e in seats if isinstance(e, dict) and e.get("player") != "human"}
    if len(players) == 1:
        return known[gid].get(str(players.pop()), "own bots")
    return "own bots"


def _level_descriptions(gid: str) -> dict[str, str]:
    """Each level's bot as a record describes it, mapped to the level (and the game's default
    bot, which plain 'ratgames play GAME' played before it named its level, to "normal")."""
    from .levels import LEVEL_NAMES, levels_for

    try:
        game = get_game(gid)
        specs = levels_for(gid)
        out = {make_bot(game, specs[name]).describe(): name for name in LEVEL_NAMES}
        out.setdefault(make_bot(game, _default_bot(gid)).describe(), "normal")
    except RatgamesError:  # a game this ratgames does not know
        return {}
    return out


def _read_record(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != "ratgames-record":
        return None
    return data


def _record_seconds(data: dict[str, Any]) -> float:
    """How long a recorded game lasted: its clock, or its last action's time (0 when the record
    holds no time that is a finite number of seconds)."""
    play = data.get("play")
    if isinstance(play, dict):
        clock = _seconds(play.get("clock"))
        if clock is not None:
            return clock
    times = [0.0]
    for e in data.get("events") or []:
        t = _seconds(e.get("time")) if isinstance(e, dict) else None
        if t is not None:
            times.append(t)
    return max(times)


def _seconds(value: object) -> float | None:
    """``value`` as seconds if it is a finite number, 0 or more, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


@app.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--seat", type=int, default=None, help="Watch from this seat (from 1); default: as a spectator."
)
@click.option("--text", is_flag=True, help="Print every step instead of opening the viewer.")
def replay_cmd(
    file: Path,
    seat: int | None,
    text: bool,
) -> None:
    """Step through a game record in the terminal."""
    record = load_record(file)
    state = replay(record)  # checks the whole record before showing anything
    if seat is not None and not 1 <= seat <= state.game.players:
        _fail(f"--seat must be from 1 to {state.game.players}")
    seat_index = None if seat is None else seat - 1
    if text:
        from .tui.replay import frame_text, replay_frames

        frames, moves = replay_frames(record)
        for i in range(len(frames)):
            console.print(frame_text(frames, moves, i, seat_index), markup=False, highlight=False)
            console.rule()
        return
    from .tui.replay import ReplayApp

    ReplayApp(record, seat=seat_index).run()


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


if __name__ == "__main__":
    main()
