"""``ratgames simulate`` and ``ratgames tournament``: bot-vs-bot runs and their figures as tables
(the runs themselves are :mod:`ratgames.sim` and :mod:`ratgames.tournament`, sweeps
:mod:`ratgames.sweeps`; where they play and their checkpoints :mod:`ratgames.cli.backends`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.progress import TaskID
from rich.table import Table

from ..core.bots import make_bot, parse_bot_spec
from ..core.game import Game
from ..core.registry import game_class
from ..lineups import default_bot, fill_bots
from ..sweeps import parse_sweep, sweep_lineups, with_param
from .backends import (
    backend_options,
    checkpoint_options,
    compile_hint,
    open_checkpoint,
    run_backend,
    stops_kept,
)
from .common import (
    CONTEXT,
    check_writable_file,
    console,
    fail,
    game_argument,
    option_option,
    pct,
    players_option,
    setup_game,
)
from .progress import progress_display


@click.command("simulate", context_settings=CONTEXT)
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
    from ..sim import SimConfig, SimResult
    from ..sim import simulate as run

    if games_ < 1:
        fail("--games must be at least 1")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    if per_game and json_out is None:
        fail("--per-game writes every game into the --json file: give --json FILE too")
    if json_out is not None:
        check_writable_file(json_out, "--json")
    g = setup_game(game, players, option)
    specs = fill_bots(g, bots, g.players, "random")
    if len(set(specs)) == 1 and not bots:
        specs = [default_bot(game), "random"] + ["random"] * (g.players - 2)
    runs: list[tuple[str | None, tuple[str, ...]]] = [(None, tuple(specs))]
    param = ""
    if sweep:
        chosen_sweep = parse_sweep(sweep)
        param = chosen_sweep.param
        runs = list(sweep_lineups(g, specs, chosen_sweep, every_bot=sweep_all))
    configs = [
        SimConfig(game, g.players, dict(g.options), row, games_, seed, rotate) for _, row in runs
    ]
    saved = open_checkpoint(checkpoint, "simulate", configs, per_game)
    results: list[tuple[str | None, SimResult]] = []
    with (
        stops_kept(checkpoint),
        run_backend(backend, address, workers) as chosen,
        progress_display() as progress,
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
        from ..checkpoint import write_json_atomic

        write_json_atomic(json_out, payload)
        console.print(f"Figures written to {json_out}", highlight=False)
    compile_hint(backend, sum(r.seconds for _, r in results))


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
            str(i + 1), st.bot, pct(st.win_rate()), f"{pct(lo)}-{pct(hi)}", f"{mean_points:.2f}"
        )
    console.print(table)
    from ..sim import seat_bots

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
        f"{game.seat_name(s)} {pct(w)}" for s, w in enumerate(result.seat_win_rates())
    )
    console.print(f"Wins by seat: {seats}")
    capped = result.capped()
    console.print(
        f"Safety cap fired in {capped} of {result.games} games ({pct(capped / result.games)})"
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
            f"{pct(st.win_rate())} ({pct(lo)}-{pct(hi)})",
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
        with_param(s, param, "V") if len(results) > 1 and s != b else s
        for s, b in zip(swept, base, strict=False)
    ]
    from ..sim import SimConfig, seat_bots

    by_seat = seat_bots(SimConfig(game.id, game.players, {}, tuple(shown), 1))
    console.print(
        f"Each row: {results[0][1].games} games; bots by seat: {', '.join(by_seat)} "
        f"(V: the row's value of {param})",
        highlight=False,
    )


@click.command("tournament", context_settings=CONTEXT)
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
    from ..tournament import pairing_configs, percent, run_tournament

    cls = game_class(game)
    n = players or (2 if cls.min_players <= 2 else cls.min_players)
    g = setup_game(game, n, option)
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        fail("a tournament needs at least two different bots (--bots A B ...)")
    for spec in names:
        make_bot(g, spec)
    if games_ < 1:
        fail("--games must be at least 1")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    per = -(-games_ // g.players) * g.players
    pairings = len(names) * (len(names) - 1) // 2
    stem = out or Path(f"tournament-{game}")
    if stem.is_dir():  # a folder: the usual names inside it
        stem = stem / f"tournament-{game}"
    for path in (stem.with_suffix(".json"), stem.with_suffix(".md")):
        check_writable_file(path, "--out")
    configs = [
        c
        for _, c in pairing_configs(
            game, names, per, players=g.players, options=g.options, seed=seed
        )
    ]
    saved = open_checkpoint(checkpoint, "tournament", configs)
    began = time.perf_counter()
    done = sum(saved.done(c) for c in configs) if saved is not None else 0
    label = f"{game} tournament" + (f" (from game {done + 1:,})" if done else "")
    with (
        stops_kept(checkpoint),
        run_backend(backend, address, workers) as chosen,
        progress_display() as progress,
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
    compile_hint(backend, time.perf_counter() - began)
