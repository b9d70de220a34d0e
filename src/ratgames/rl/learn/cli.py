"""``ratgames train`` and ``ratgames dataset`` (registered lazily by ``ratgames.cli``)."""

from __future__ import annotations

import csv
import importlib.util
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _one_blas_thread() -> None:
    """Small matrices gain nothing from BLAS threads, and on a busy machine the threads wait on
    each other (20 times slower on 2 loaded cores): one thread, unless the user chose."""
    if "numpy" not in sys.modules:
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")


def _need_numpy() -> None:
    if importlib.util.find_spec("numpy") is None or importlib.util.find_spec("gymnasium") is None:
        raise click.UsageError(
            "this command needs the rl extra: uv sync --extra rl (or pip install 'ratgames[rl]')"
        )


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or any(not 1 <= s <= 4096 for s in sizes) or len(sizes) > 4:
        raise click.BadParameter(
            f"{text!r}: give 1 to 4 layer sizes from 1 to 4096, separated by commas (e.g. 128,128)",
            param_hint="--hidden",
        )
    return sizes


@click.command(context_settings=CONTEXT)
@click.argument("game_id", metavar="GAME")
@click.option("-n", "--players", type=int, default=None, help="Number of players.")
@click.option("-o", "--option", "option", multiple=True, help="A game option, key=value.")
@click.option(
    "--opponents", default="random", show_default=True, help="Bot spec for every other seat."
)
@click.option(
    "--steps",
    type=click.IntRange(1, 10**9),
    default=200_000,
    show_default=True,
    help="Learner decisions to train on.",
)
@click.option(
    "--envs", type=click.IntRange(1, 4096), default=32, show_default=True, help="Games at once."
)
@click.option(
    "--horizon",
    type=click.IntRange(1, 100_000),
    default=64,
    show_default=True,
    help="Steps of every game per update.",
)
@click.option(
    "--lr", type=click.FloatRange(1e-7, 1.0), default=3e-4, show_default=True, help="Adam's step."
)
@click.option(
    "--entropy",
    type=click.FloatRange(0.0, 10.0),
    default=0.01,
    show_default=True,
    help="Entropy bonus.",
)
@click.option("--hidden", default="128,128", show_default=True, help="Hidden layer sizes.")
@click.option("--seed", type=int, default=0, show_default=True, help="Fixes the whole run.")
@click.option(
    "--init",
    default=None,
    help="Start from these weights (a .npz for the same game, or a shipped policy's name).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Weights file to write (.npz).",
)
@click.option(
    "--curve",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the learning curve here (.csv, and a plot beside it as .svg with matplotlib).",
)
@click.option(
    "--selfplay",
    is_flag=True,
    help="Fictitious self-play against a pool of the policy's own snapshots (no --opponents).",
)
@click.option("--quiet", is_flag=True, help="No progress lines.")
def train(
    game_id: str,
    players: int | None,
    option: tuple[str, ...],
    opponents: str,
    steps: int,
    envs: int,
    horizon: int,
    lr: float,
    entropy: float,
    hidden: str,
    seed: int,
    init: str | None,
    out: Path,
    curve: Path | None,
    selfplay: bool,
    quiet: bool,
) -> None:
    """Train a policy with PPO in numpy alone, against bots or in self-play.

    The policy plays every seat of GAME (the --envs games at once are split among the seats)
    against the --opponents bots; every update plays --horizon steps of each.  With --selfplay it
    plays a pool of its own earlier snapshots instead (fictitious self-play), and the progress
    lines give its win rate against that pool.  The weights (.npz) then play at any table as the bot
    policy:file=WEIGHTS.npz.  The same --seed gives the same run.

    \b
    Examples:
      ratgames train caged-rats -o single_deal=true --steps 100000 --out caged.npz
      ratgames train rat-a-tat-cat -n 2 -o mode=round --opponents heuristic \\
          --steps 300000 --out ratcat.npz --curve ratcat.csv
      ratgames train caged-rats -o single_deal=true --opponents heuristic \\
          --init caged.npz --steps 100000 --out caged2.npz
      ratgames train rats -n 2 -o max_rounds=1 --selfplay --steps 100000 --out rats.npz
      ratgames simulate caged-rats -o single_deal=true --bots policy:file=caged.npz heuristic
    """
    _one_blas_thread()
    _need_numpy()
    from ratgames.core.errors import RatgamesError
    from ratgames.core.options import parse_option_pairs
    from ratgames.outputs import check_output_file

    from .ppo import PpoConfig, config_meta, curve_rows
    from .ppo import train as run
    from .selfplay import SelfPlayConfig, train_selfplay

    sizes = _hidden(hidden)
    if out.suffix != ".npz":
        raise click.BadParameter(f"{out}: the weights file must end in .npz", param_hint="--out")
    if curve is not None and curve.suffix != ".csv":
        raise click.BadParameter(f"{curve}: the curve file must end in .csv", param_hint="--curve")
    try:
        check_output_file(out, "--out")
        if curve is not None:
            check_output_file(curve, "--curve")
        config = (SelfPlayConfig if selfplay else PpoConfig)(
            game=game_id,
            players=players,
            options=parse_option_pairs(option),
            opponents=opponents,
            steps=steps,
            envs=envs,
            horizon=horizon,
            lr=lr,
            entropy_coef=entropy,
            hidden=sizes,
            seed=seed,
            init=init,
        )

        def show(p: Any) -> None:
            if not quiet:
                click.echo(
                    f"update {p.update}: {p.steps:,} steps, {p.seconds:.0f} s, {p.games} games, "
                    f"win rate {p.win_rate:.2f}, mean return {p.mean_return:+.3f}, "
                    f"entropy {p.entropy:.2f}",
                    err=True,
                )

        if isinstance(config, SelfPlayConfig):
            net, history = train_selfplay(config, on_update=show)
        else:
            net, history = run(config, on_update=show)
    except (RatgamesError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    words = ["ratgames", "train", game_id]
    if players is not None:
        words += ["-n", str(players)]
    for pair in option:
        words += ["-o", pair]
    words += ["--selfplay"] if selfplay else ["--opponents", opponents]
    words += ["--steps", str(steps), "--envs", str(envs)]
    words += ["--horizon", str(horizon), "--lr", str(lr), "--entropy", str(entropy)]
    words += ["--hidden", hidden, "--seed", str(seed)]
    if init is not None:
        words += ["--init", init]
    words += ["--out", out.name]
    command = " ".join(shlex.quote(w) for w in words)
    net.save(out, config_meta(config, history, command))
    click.echo(f"wrote {out}")
    if curve is not None:
        rows = curve_rows(history)
        with curve.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        click.echo(f"wrote {curve}")
        if importlib.util.find_spec("matplotlib") is not None:
            from .curves import joined, plot

            picture = plot(
                {game_id: joined([rows])}, curve.with_suffix(".svg"), title=f"{game_id}: {command}"
            )
            click.echo(f"wrote {picture}")


@click.command(context_settings=CONTEXT)
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The .npz file to write.",
)
@click.option(
    "--seat",
    "seats",
    type=int,
    multiple=True,
    help="Only this seat's decisions (repeat for several; every seat unless given).",
)
def dataset(records: tuple[Path, ...], out: Path, seats: tuple[int, ...]) -> None:
    """Export game records as training data: (observation, mask, action, reward) per decision.

    RECORDS are record files (as 'ratgames replay' reads them) or folders of them, all of one
    game with the same players and options.  Every decision of a seat becomes a row: the
    observation vector and legal-id mask that seat had, the id it chose (a two-step choice
    gives two rows), and the seat's final reward on the game's last row of that seat (0 before).

    \b
    Examples:
      ratgames dataset ~/.ratgames/records --out games.npz
      ratgames dataset game1.json game2.json --seat 0 --out seat0.npz
    """
    _need_numpy()
    from ratgames.core.errors import RatgamesError
    from ratgames.outputs import check_output_file

    from .dataset import export

    if out.suffix != ".npz":
        raise click.BadParameter(f"{out}: the dataset file must end in .npz", param_hint="--out")
    try:
        check_output_file(out, "--out")
        summary = export(list(records), out, seats=seats or None)
    except RatgamesError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(
        f"wrote {out}: {summary['rows']:,} decisions from {summary['games']} games of "
        f"{summary['game']}"
    )
