"""``ratgames report``: an HTML page with plots from simulation, sweep or tournament JSON."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from ..outputs import check_output_folder
from . import (
    DEFAULT_DPI,
    DPI_RANGE,
    FORMATS,
    INSTALL_HINT,
    MissingDependency,
    ReportInput,
    ReportInputError,
    build_report,
    load_input,
)


class _Missing(click.ClickException):
    """Something the command needs is not installed: one line, exit code 2 (as for bad input)."""

    exit_code = 2


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument(
    "inputs",
    nargs=-1,
    required=True,
    metavar="INPUT.json...",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option(
    "--out",
    "-o",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The folder to write index.html and the plots to (default: the first input's name "
    "with -report, in the current folder).  Files of the same names are replaced.",
)
@click.option("--title", default=None, help="The page's title (default: the games and kinds).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="png",
    show_default=True,
    help="The plots' file format: svg and pdf are vector files for papers (the page shows svg"
    " as images and pdf in a frame).",
)
@click.option(
    "--dpi",
    type=click.IntRange(*DPI_RANGE),
    default=None,
    help=f"Pixels per inch of PNG plots (default {DEFAULT_DPI}: 1,200 pixels across an"
    " 8-inch plot; 300 for print); in svg and pdf only the crosstable's heat map is pixels.",
)
def report(
    inputs: tuple[Path, ...], folder: Path | None, title: str | None, fmt: str, dpi: int | None
) -> None:
    """Turn results into an HTML page with plots (the plots are files beside the page: PNG,
    or SVG or PDF with --format).

    INPUT is the JSON of a simulation (simulate --json, with or without --per-game), of a
    sweep (simulate --sweep PARAM=V1,V2 --json) or of a tournament (tournament --out NAME
    writes NAME.json); the kind is told from the file.  Several sweeps of the same parameter
    (say, one per player count) are also drawn as curves on one plot.

    \b
    Plots: win rates by bot and by seat with 95% intervals; game lengths and points as
    distributions (with --per-game); a sweep's win-rate curve with its 95% band; a
    tournament's ratings with intervals and its crosstable as a heat map.

    \b
    Examples:
      ratgames simulate rats -g 200 -b heuristic random --json rats.json --per-game
      ratgames report rats.json                      writes rats-report/index.html
      ratgames report knock-2p.json knock-3p.json knock-4p.json -o knock
      ratgames report cup.json --format pdf          vector plots for a paper"""
    loaded: list[ReportInput] = []
    for path in inputs:
        try:
            loaded.append(load_input(path))
        except ReportInputError as exc:
            raise click.BadParameter(str(exc), param_hint="INPUT") from None
    target = folder or Path(f"{inputs[0].stem}-report")
    try:
        if importlib.util.find_spec("matplotlib") is None:  # said before any folder is made
            raise MissingDependency(INSTALL_HINT)
        check_output_folder(target, "--out")  # the rule every command's outputs follow
        made = build_report(loaded, target, title, format=fmt, dpi=dpi)
    except MissingDependency as exc:
        raise _Missing(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(
            f"cannot write the report to {target}: {exc.strerror or exc}"
        ) from None
    click.echo(f"Report written to {made.page} with {len(made.plots)} plots:")
    for plot in made.plots:
        click.echo(f"  {target / plot.file}: {plot.title}")
    for note in made.notes:
        click.echo(f"Note: {note}")
