"""``ratgames play`` and ``ratgames replay``: a game in the terminal against bots or with others
at one keyboard, taken up again where it stopped, and a record stepped through."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..core.bots import make_bot, parse_bot_spec
from ..core.game import Game
from ..core.records import load_record, replay
from ..core.registry import game_class, game_ids
from ..lineups import table_seats
from .common import (
    CONTEXT,
    check_writable_folder,
    complete_game,
    console,
    default_record_dir,
    fail,
    option_option,
    players_option,
    setup_game,
)


@click.command("play", context_settings=CONTEXT)
@click.argument("game", metavar="[GAME]", required=False, shell_complete=complete_game)
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
      ratgames play egyptian-ratscrew -n 3 -o newcomers=1 --seat 3
                                     you arrive late: no cards until you slap in
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
            fail(f"--resume takes the game up as it was saved: leave out {flags}")
        app_ = _resumed_app(game, resume_from, folder, no_record, pace)
    else:
        if game is None:
            fail("which game? e.g. 'ratgames play rat-a-tat-cat' ('ratgames games' lists them)")
        app_ = _new_app(game, players, bots, option, seed, seat, people, level, pace)
        if not no_record:
            check_writable_folder(folder, "--record-dir", make_parents=record_dir is None)
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
    from ..tui.play import PlayApp

    g = setup_game(game, players, option)
    lineup = table_seats(g, seat=seat, people=people, bots=bots, level=level)
    panel = _panel_class(g)
    if g.real_time and people > panel.max_people:
        fail(
            f"{g.title} is played in real time and its table takes at most "
            f"{panel.max_people} person(s) at one keyboard"
        )
    rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
    bot_objs: list[Any] = []
    names: list[str] = []
    seeds: list[int | None] = []
    for s, spec in enumerate(lineup.seats):
        if spec is None:
            bot_objs.append(None)
            names.append("You" if people == 1 else g.seat_name(s))
            seeds.append(None)
        else:
            bot_objs.append(make_bot(g, spec, seed=rng_seed + s))
            names.append(f"{g.seat_name(s)} ({parse_bot_spec(spec)[0]})")
            seeds.append(rng_seed + s)
    return PlayApp(
        g,
        bot_objs,
        seed=rng_seed,
        seat=seat - 1,
        names=names,
        seeds=seeds,
        level=lineup.level,
        bot_pause=pace,
    )


def _panel_class(game: Game) -> Any:
    from ..tui.base import panel_class

    return panel_class(game)


def _resumed_app(game: str | None, which: str, folder: Path, no_record: bool, pace: float) -> Any:
    from ..core.errors import RecordError
    from ..tui.play import PlayApp
    from ..tui.session import resume, unfinished_records

    if game is not None:
        game_class(game)  # an unknown game is named as such
    path: Path | None
    if which and Path(which).expanduser().exists():
        path = Path(which).expanduser()
    elif which and which not in game_ids():
        fail(f"no record {which!r} to resume (give a record file, or nothing for the last game)")
    else:
        only = which or game
        found = unfinished_records(folder, only)
        if not found:
            of = f" of {only}" if only else ""
            fail(f"no unfinished game{of} to resume in {folder}")
        path = found[0]
    try:
        resumed = resume(path)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    if not no_record:
        check_writable_folder(path.parent, "the record's folder", make_parents=True)
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
    from ..tui.base import NoTerminal

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
    from ..tui.session import command

    path = app_.save_progress()
    for saved in app_.saved:
        if saved == path and not app_.state.is_over():
            console.print(
                f"Game saved: {saved}\nTake it up again with: {command()} play --resume",
                highlight=False,
            )
        else:
            console.print(f"Record saved: {saved}", highlight=False)


@click.command("replay", context_settings=CONTEXT)
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
        fail(f"--seat must be from 1 to {state.game.players}")
    seat_index = None if seat is None else seat - 1
    if text:
        from ..tui.replay import frame_text, late_arrivals, replay_frames

        frames, moves = replay_frames(record)
        late = late_arrivals(record, state.game)
        for i in range(len(frames)):
            console.print(
                frame_text(frames, moves, i, seat_index, late), markup=False, highlight=False
            )
            console.rule()
        return
    from ..tui.replay import ReplayApp

    ReplayApp(record, seat=seat_index).run()
