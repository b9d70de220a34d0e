"""The ``ratgames`` command line."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from .core.bots import describe_bots, make_bot, parse_bot_spec
from .core.errors import RatgamesError
from .core.game import Game
from .core.options import parse_option_pairs
from .core.records import load_record, replay
from .core.registry import game_class, game_ids, get_game

F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class LazyGroup(click.Group):
    """A command group whose commands from other subpackages (the online server and its
    clients) are imported only when used, so that ``ratgames play`` starts as fast as before."""

    lazy: dict[str, str] = {
        "serve": "ratgames.server.cli:serve",
        "db": "ratgames.server.cli:db",
        "export": "ratgames.server.cli:export",
        "join": "ratgames.server.cli:join",
        "bot": "ratgames.server.cli:bot",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self._available()])

    def _available(self) -> list[str]:
        import importlib.util

        try:
            found = importlib.util.find_spec("ratgames.server.cli") is not None
        except ModuleNotFoundError:
            found = False
        return list(self.lazy) if found else []

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
      ratgames simulate rats --games 2000 --bots heuristic random
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
        table.add_row(gid, title, f"{cls.min_players}-{cls.max_players}", opts)
    console.print(table)
    console.print("Rules: [bold]ratgames rules GAME[/bold]   Bots: [bold]ratgames bots GAME[/bold]")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@app.command()
@game_argument()
def rules(game: str) -> None:
    """Show a game's rules, with every option and its default."""
    g = get_game(game)
    console.print(Markdown(g.rules()))
    table = Table(title=f"Options of {g.title}")
    table.add_column("option", style="bold cyan")
    table.add_column("default")
    table.add_column("allowed")
    table.add_column("meaning")
    for o in g.option_specs:
        table.add_row(o.name, _show(o.default), o.describe_allowed(), o.help)
    console.print(table)
    console.print("Set options with [bold]--option name=value[/bold] (or -o name=value).")


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
    console.print("Use as NAME or NAME:param=value,param=value, e.g. --bots heuristic:memory=0.6")
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
    help="Bot strength, instead of --bots.",
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
            _check_writable_folder(folder, "--record-dir")
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
    if level is not None:
        if bots:
            _fail("give either --level or --bots, not both")
        from .levels import level_bot

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
    from .tui.base import game_module

    return game_module(game, "tui").Panel


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
        _check_writable_folder(path.parent, "the record's folder")
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
    )
    err.print(f"Resuming {resumed.game.title} from {path}", highlight=False)
    return app_


def _run_play(app_: Any) -> None:
    """Run the play app; whatever happens, an unfinished game is saved, and said so."""
    try:
        app_.run()
    finally:
        path = app_.save_progress()
        for saved in app_.saved:
            if saved == path and not app_.state.is_over():
                console.print(
                    f"Game saved: {saved}\nTake it up again with: ratgames play --resume",
                    highlight=False,
                )
            else:
                console.print(f"Record saved: {saved}", highlight=False)
    code = app_.return_code or 0
    if code:
        raise SystemExit(code)


def _check_writable_folder(folder: Path, what: str) -> None:
    """Fail now, in one line, if records or results cannot be written to ``folder``."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".ratgames-check-"):
            pass
    except OSError as exc:
        _fail(f"cannot write to {folder} ({what}): {exc.strerror or exc}")


@dataclass
class _LogTask:
    description: str
    total: int
    start: float
    done: int = 0
    tenths: int = 0  # tenths of the total reported so far
    last_line: float = 0.0


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
        if 0 < task.done < task.total:
            left = elapsed * (task.total - task.done) / task.done
            line += f", about {_clock_time(left)} left"
        click.echo(line, err=True)


def _clock_time(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


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
        TimeRemainingColumn(),
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
    "--workers", "-w", type=int, default=None, help="Processes to use (default: one per core)."
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write every figure to this JSON file.",
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
) -> None:
    """Play bot-vs-bot games in parallel and report win rates, lengths and points.

    Progress goes to stderr: a bar on a terminal; otherwise (a pipe, a log file) a plain line at
    the start, at every tenth of the games and every 30 seconds or so in between."""
    from .sim import SimConfig, SimResult
    from .sim import simulate as run

    if games_ < 1:
        _fail("--games must be at least 1")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
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
    results: list[tuple[str | None, SimResult]] = []
    with _progress() as progress:
        for label_value, row in runs:
            label = f"{game} simulation" + (
                f" {param}={label_value}" if label_value is not None else ""
            )
            task = progress.add_task(label, total=games_)
            config = SimConfig(game, g.players, dict(g.options), row, games_, seed, rotate)

            def advance(k: int, task: TaskID = task) -> None:
                progress.advance(task, k)

            results.append((label_value, run(config, workers=workers, on_progress=advance)))
    if sweep:
        _print_sweep(g, param, results)
    else:
        _print_result(g, results[0][1])
    if json_out is not None:
        payload: Any = (
            results[0][1].to_json()
            if not sweep
            else {"sweep": param, "runs": [{"value": v, **r.to_json()} for v, r in results]}
        )
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
        console.print(f"Figures written to {json_out}")


def _with_param(spec: str, param: str, value: str) -> str:
    name, params = parse_bot_spec(spec)
    params[param] = value
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _print_result(game: Game, result: Any) -> None:
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
        mean_points = statistics.fmean(st.points) if st.points else 0.0
        table.add_row(
            str(i + 1), st.bot, _pct(st.win_rate()), f"{_pct(lo)}-{_pct(hi)}", f"{mean_points:.2f}"
        )
    console.print(table)
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
            "Per game on average: " + ", ".join(f"{k} {v:.3g}" for k, v in sorted(means.items()))
        )
    console.print(
        f"{result.games} games in {result.seconds:.1f} s: {result.games_per_second():.0f} games/s"
    )


def _print_sweep(game: Game, param: str, results: Sequence[tuple[str | None, Any]]) -> None:
    detail_keys = sorted({k for _, r in results for k in r.detail_means()})
    first = results[0][1].config.bots[0]
    table = Table(title=f"{game.title}: how {param} of {parse_bot_spec(first)[0]} (bot 1) matters")
    table.add_column(param, justify="right", style="bold cyan")
    table.add_column("bot 1 win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column(f"bot 1 mean {game.points_label}", justify="right")
    table.add_column(f"length ({game.length_unit})", justify="right")
    for k in detail_keys:
        table.add_column(k, justify="right")
    for value, r in results:
        st = r.entrant_stats()[0]
        lo, hi = st.interval()
        means = r.detail_means()
        table.add_row(
            str(value),
            _pct(st.win_rate()),
            f"{_pct(lo)}-{_pct(hi)}",
            f"{statistics.fmean(st.points):.2f}",
            f"{r.length_stats()['mean']:.1f}",
            *[f"{means.get(k, 0.0):.3g}" for k in detail_keys],
        )
    console.print(table)
    console.print(
        f"Each row: {results[0][1].games} games; bots: {', '.join(results[0][1].config.bots)}"
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
    "--workers", "-w", type=int, default=None, help="Processes to use (default: one per core)."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Where to save the results, as OUT.json and OUT.md "
    "(default: tournament-GAME in the current folder).",
)
def tournament(
    game: str,
    bots: tuple[str, ...],
    games_: int,
    players: int | None,
    option: tuple[str, ...],
    seed: int,
    workers: int | None,
    out: Path | None,
) -> None:
    """Rate bots: every pairing plays the same deals from every seat; Elo ratings with 95%
    intervals and a crosstable.

    Progress goes to stderr as for simulate: a bar on a terminal, else plain lines for a log."""
    from .tournament import run_tournament

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
    per = -(-games_ // g.players) * g.players
    pairings = len(names) * (len(names) - 1) // 2
    with _progress() as progress:
        task = progress.add_task(f"{game} tournament", total=per * pairings)
        result = run_tournament(
            game,
            names,
            per,
            players=g.players,
            options=g.options,
            seed=seed,
            workers=workers,
            on_progress=lambda k: progress.advance(task, k),
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
        cells = ["-" if b == o else _pct(result.score_of(b, o)) for o in order]
        table.add_row(str(i + 1), b, f"{result.ratings[b]:.0f}", f"{lo:.0f}-{hi:.0f}", *cells)
    console.print(table)
    for line in result.pairing_lines():
        console.print(line, highlight=False)
    js, md = result.save(out or Path(f"tournament-{game}"))
    console.print(f"Saved {js} and {md}")


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
    """Let ``--bots a b c`` mean ``--bots a --bots b --bots c`` (likewise ``--option``)."""
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
