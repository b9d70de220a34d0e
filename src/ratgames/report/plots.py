"""The report's plots, drawn by matplotlib straight into PNG, SVG or PDF files.

Figures are made with :class:`matplotlib.figure.Figure` and its Agg canvas, never through
``pyplot``, so no display is needed and nothing global (the backend, open figures) is touched.
The format and the resolution of PNGs are set for a whole report by :func:`output` (PNG at
150 dpi unless told); SVG and PDF are vector files for papers, written without a date in them,
so the same input gives the same bytes in every format.
Colours are the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies; the crosstable's heat map uses the diverging purple-orange ``PuOr`` map for the
same reason, centred on an even score.
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter, StrMethodFormatter
from PIL import Image

from . import DEFAULT_DPI, DPI_RANGE, FORMATS
from .data import Simulation, Sweep, SweepRun, Tournament
from .info import GameInfo, param_value, without_param

OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#F0E442",  # yellow (last: faint on white)
)
GREY = "#6B6B6B"

STYLE: Any = {  # rcParams (Any: matplotlib types the keys as literals)
    "font.size": 11,
    "axes.titlesize": 13,
    "axes.titleweight": "bold",
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "legend.framealpha": 0.9,
    "axes.prop_cycle": cycler(color=OKABE_ITO),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#DDDDDD",
    "grid.linewidth": 0.8,
    "axes.axisbelow": True,
    "savefig.dpi": 100,
    "figure.dpi": 100,
    "svg.hashsalt": "ratgames",
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}


@dataclass(frozen=True)
class Output:
    """The format of a report's plot files, and the resolution of PNGs (and of the raster
    parts of a vector file: the crosstable's heat map)."""

    format: str = "png"
    dpi: int = DEFAULT_DPI

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        lo, hi = DPI_RANGE
        if isinstance(self.dpi, bool) or not isinstance(self.dpi, int) or not lo <= self.dpi <= hi:
            raise ValueError(f"dpi must be a whole number from {lo} to {hi}, not {self.dpi!r}")


DEFAULT_OUTPUT = Output()
_OUTPUT: ContextVar[Output] = ContextVar("report_output", default=DEFAULT_OUTPUT)


@contextmanager
def output(settings: Output) -> Iterator[None]:
    """Draw the plots made inside the block with ``settings``."""
    token = _OUTPUT.set(settings)
    try:
        yield
    finally:
        _OUTPUT.reset(token)


def file(folder: Path, stem: str) -> Path:
    """The path of the plot ``stem`` in ``folder``, in the format being drawn."""
    return folder / f"{stem}.{_OUTPUT.get().format}"


PERCENT = FuncFormatter(lambda v, _: f"{100 * v:.4g}%")
"""Shares as percentages with as many decimals as the tick needs (``55%``, ``22.5%``)."""


@dataclass(frozen=True)
class Plot:
    """One PNG of a report: its file name (in the report's folder), title and what it shows."""

    file: str
    title: str
    caption: str


def colour(i: int) -> str:
    return OKABE_ITO[i % len(OKABE_ITO)]


def bot_colours(bots: Sequence[str]) -> dict[str, str]:
    """One colour per kind of bot (the same spec in several seats shares one), in the order
    the bots first appear.

    >>> bot_colours(["heuristic", "random", "random"]) == {"heuristic": OKABE_ITO[0],
    ...                                                     "random": OKABE_ITO[1]}
    True
    """
    return {b: colour(i) for i, b in enumerate(dict.fromkeys(bots))}


@contextmanager
def _figure(width: float, height: float) -> Iterator[Figure]:
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasAgg(fig)
        yield fig


def _save(fig: Figure, path: Path) -> None:
    """Write a figure in the format its file name says.  A PNG has at most 256 colours (a plot
    has few, and the file is a third of the size); no file has a timestamp or version in it,
    so the same input gives the same bytes."""
    settings = _OUTPUT.get()
    kind = path.suffix.lstrip(".")
    if kind == "svg":
        fig.savefig(path, format="svg", dpi=settings.dpi, metadata={"Date": None})
        return
    if kind == "pdf":
        fig.savefig(
            path, format="pdf", dpi=settings.dpi, metadata={"CreationDate": None, "Producer": None}
        )
        return
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=settings.dpi)
    buffer.seek(0)
    with Image.open(buffer) as image:
        small = image.convert("RGB").quantize(256, dither=Image.Dither.NONE)
        small.save(path, format="PNG", optimize=True, dpi=(settings.dpi, settings.dpi))


def _wrap(label: str, width: int = 26) -> str:
    r"""A long bot spec (``pimc:iterations=400,score=estimate``) broken after its colon and
    commas, never inside a parameter.

    >>> _wrap("pimc:iterations=400,score=estimate,confidence=2", 22)
    'pimc:iterations=400,\nscore=estimate,\nconfidence=2'
    """
    if len(label) <= width:
        return label
    lines = [""]
    for token in re.findall(r"[^:,]+[:,]?|[:,]", label):
        if lines[-1] and len(lines[-1]) + len(token) > width:
            lines.append("")
        lines[-1] += token
    return "\n".join(lines)


def _titles(fig: Figure, ax: Axes, title: str, subtitle: str = "") -> None:
    """A bold title over the whole figure, with a smaller grey line under it."""
    fig.suptitle(title, x=0.01, ha="left", fontsize=13, fontweight="bold")
    if subtitle:
        ax.set_title(subtitle, loc="left", fontsize=10, color=GREY, fontweight="normal")


def pct(x: float) -> str:
    """A share as a percentage with one decimal (``61.5%``), as the page prints it."""
    return "?" if math.isnan(x) else f"{100 * x:.1f}%"


def pct_range(lo: float, hi: float) -> str:
    return f"{100 * lo:.1f}-{100 * hi:.1f}%"


def _label_bar(ax: Axes, y: float, rate: float, lo: float, hi: float) -> None:
    """Write ``61.5% (54.6-68.0%)`` beside a bar where it does not cover the interval."""
    text = f"{pct(rate)} ({pct_range(lo, hi)})"
    box = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}
    if hi <= 0.62:
        ax.text(hi + 0.015, y, text, va="center", ha="left", fontsize=10, bbox=box)
    elif lo >= 0.4:
        ax.text(lo - 0.015, y, text, va="center", ha="right", fontsize=10, bbox=box)
    else:
        ax.text(0.985, y, text, va="center", ha="right", fontsize=10, bbox=box)


def _rate_bars(
    ax: Axes,
    labels: Sequence[str],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    colours: Sequence[str],
    players: int,
) -> None:
    ys = np.arange(len(labels))
    lows = [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    highs = [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]
    ax.barh(ys, rates, color=colours, alpha=0.85, height=0.6)
    ax.errorbar(
        rates, ys, xerr=[lows, highs], fmt="none", ecolor="black", elinewidth=1.5, capsize=5
    )
    for y, rate, (lo, hi) in zip(ys, rates, intervals, strict=True):
        _label_bar(ax, float(y), rate, lo, hi)
    ax.axvline(1 / players, color=GREY, linestyle="--", linewidth=1.2)
    ax.set_yticks(ys, [_wrap(lb) for lb in labels])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.grid(axis="y", visible=False)


def _bars_height(n: int) -> float:
    return 1.9 + 0.55 * n


def win_rates_by_bot(sim: Simulation, info: GameInfo, path: Path) -> Plot:
    labels = [f"{i + 1}. {e.bot}" for i, e in enumerate(sim.entrants)]
    colours = bot_colours([e.bot for e in sim.entrants])
    with _figure(8, _bars_height(len(labels))) as fig:
        ax = fig.add_subplot()
        _rate_bars(
            ax,
            labels,
            [e.win_rate for e in sim.entrants],
            [e.win_rate_95ci for e in sim.entrants],
            [colours[e.bot] for e in sim.entrants],
            sim.players,
        )
        _titles(
            fig,
            ax,
            f"{info.title}: win rate by bot",
            f"{sim.games} games, {sim.players} players; whiskers: 95% intervals",
        )
        ax.set_xlabel(f"share of games won (dashed: an even share, {pct(1 / sim.players)})")
        _save(fig, path)
    return Plot(
        path.name,
        "Win rate by bot",
        "Each bot's share of the games won (a shared win counts as a share), with its 95% Wilson"
        " interval; the dashed line is an even share.  The same bot in several seats keeps one"
        " colour.",
    )


def win_rates_by_seat(sim: Simulation, info: GameInfo, path: Path) -> Plot:
    labels = [info.seat_name(s) for s in range(sim.players)]
    with _figure(8, _bars_height(len(labels))) as fig:
        ax = fig.add_subplot()
        _rate_bars(
            ax,
            labels,
            sim.seat_win_rates,
            sim.seat_intervals(),
            [OKABE_ITO[5]] * len(labels),
            sim.players,
        )
        rotation = "bots rotate through the seats" if sim.rotate_seats else "bots keep their seats"
        _titles(
            fig,
            ax,
            f"{info.title}: win rate by seat",
            f"{sim.games} games, {sim.players} players, {rotation}; whiskers: 95% intervals",
        )
        ax.set_xlabel(f"share of games won (dashed: an even share, {pct(1 / sim.players)})")
        _save(fig, path)
    return Plot(
        path.name,
        "Win rate by seat",
        "The share of the games won from each seat, whichever bot sat there, with its 95% Wilson"
        " interval; the dashed line is an even share.",
    )


def _bins(values: Sequence[float], most: int = 50) -> list[float]:
    """Histogram bin edges: one bin per whole number when the values are whole and few, else
    numpy's choice (at most ``most`` bins)."""
    data = np.asarray(values, dtype=float)
    lo, hi = float(data.min()), float(data.max())
    if np.all(data == np.round(data)) and hi - lo <= most:
        return [float(x) for x in np.arange(lo - 0.5, hi + 1.5)]
    edges = np.histogram_bin_edges(data, bins="auto")
    if len(edges) - 1 > most:
        edges = np.histogram_bin_edges(data, bins=most)
    return [float(x) for x in edges]


def game_lengths(sim: Simulation, info: GameInfo, path: Path) -> Plot:
    assert sim.per_game is not None
    lengths = [g.length for g in sim.per_game]
    with _figure(8, 4.5) as fig:
        ax = fig.add_subplot()
        ax.hist(lengths, bins=_bins(lengths), color=OKABE_ITO[0], alpha=0.85)
        mean = float(np.mean(lengths))
        median = float(np.median(lengths))
        ax.axvline(mean, color=OKABE_ITO[3], linewidth=2, label=f"mean {mean:.1f}")
        ax.axvline(
            median, color="black", linestyle="--", linewidth=1.5, label=f"median {median:.1f}"
        )
        ax.legend(loc="upper right")
        _titles(fig, ax, f"{info.title}: game length", f"{len(lengths)} games")
        ax.set_xlabel(f"length ({info.length_unit})")
        ax.set_ylabel(f"games (of {len(lengths)})")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        _save(fig, path)
    return Plot(
        path.name,
        "Game lengths",
        f"How many games lasted how long, in {info.length_unit}, with the mean and median.",
    )


def points_by_bot(sim: Simulation, info: GameInfo, path: Path) -> Plot:
    """The distribution of each bot's points per game (each seat's result counts once)."""
    assert sim.per_game is not None
    by_bot: dict[str, list[float]] = {}
    for bot in sim.seat_bots:
        by_bot.setdefault(bot, [])
    for g in sim.per_game:
        for bot, points in zip(g.bots_by_seat, g.points, strict=True):
            by_bot.setdefault(bot, []).append(points)
    colours = bot_colours([e.bot for e in sim.entrants] + list(by_bot))
    by_bot = {b: v for b, v in by_bot.items() if v}
    every = [p for v in by_bot.values() for p in v]
    edges = _bins(every)
    with _figure(8, 4.5) as fig:
        ax = fig.add_subplot()
        for bot, values in by_bot.items():
            weights = np.full(len(values), 1 / len(values))
            c = colours[bot]
            mean = float(np.mean(values))
            ax.hist(values, bins=edges, weights=weights, histtype="stepfilled", color=c, alpha=0.3)
            ax.hist(
                values,
                bins=edges,
                weights=weights,
                histtype="step",
                color=c,
                linewidth=2,
                label=f"{_wrap(bot, 40)} (mean {mean:.1f})",
            )
            ax.axvline(mean, color=c, linestyle="--", linewidth=1.5)
        fig.legend(loc="outside lower center", ncols=min(3, len(by_bot)))
        better = "; lower is better" if info.lower_points_win else ""
        _titles(
            fig,
            ax,
            f"{info.title}: {info.points_label} per game by bot",
            f"{sim.games} games; dashed lines: means{better}",
        )
        ax.set_xlabel(f"{info.points_label} at the end of a game")
        ax.set_ylabel("share of the bot's games")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        _save(fig, path)
    return Plot(
        path.name,
        f"{info.points_label.capitalize()} per game",
        f"The distribution of each bot's {info.points_label} at the end of a game (a bot in"
        " several seats counts each seat's result), as a share of its games; dashed lines are"
        " the means.",
    )


@dataclass(frozen=True)
class Curve:
    """One sweep as a curve: the swept bot's win rate with its interval at each value."""

    label: str
    values: list[str]
    x: list[float]
    rates: list[float]
    lows: list[float]
    highs: list[float]
    players: int

    @classmethod
    def of(cls, sweep: Sweep, label: str, x: Sequence[float] | None = None) -> Curve:
        first = [r.entrants[0] for r in sweep.runs]
        xs = list(x) if x is not None else sweep.numeric_values()
        return cls(
            label,
            [r.value for r in sweep.runs],
            xs if xs is not None else [float(i) for i in range(len(sweep.runs))],
            [e.win_rate for e in first],
            [e.win_rate_95ci[0] for e in first],
            [e.win_rate_95ci[1] for e in first],
            sweep.runs[0].players,
        )

    def best(self) -> int:
        """The index of the highest win rate (the first of equals)."""
        return max(range(len(self.rates)), key=lambda i: (self.rates[i], -i))

    def scaled(self, factor: float) -> Curve:
        return Curve(
            self.label,
            self.values,
            self.x,
            [r * factor for r in self.rates],
            [r * factor for r in self.lows],
            [r * factor for r in self.highs],
            self.players,
        )


def symmetric(sweep: Sweep) -> bool:
    """Whether every seat plays the same bot with the same value at every value of the sweep
    (``--sweep-all`` with one bot): then no value can be better for one seat than for the
    others, and the highest win rate is only the luck of the deals, never a best value.

    >>> from ratgames.report.data import Sweep
    >>> run = {"game": "rats", "players": 2, "games": 4, "entrants": [], "seat_win_rates":
    ...        [0.5, 0.5], "length": {"mean": 1, "median": 1, "p95": 1}}
    >>> def sweep(*seats):
    ...     return Sweep.model_validate({"sweep": "k", "runs": [
    ...         {**run, "value": v, "bots": [s.format(v) for s in seats],
    ...          "seat_bots": [s.format(v) for s in seats],
    ...          "entrants": [{"bot": "b", "games": 4, "wins": 2, "win_rate": 0.5,
    ...                        "win_rate_95ci": [0.1, 0.9], "mean_points": 1}]}
    ...         for v in ("1", "2")]})
    >>> symmetric(sweep("b:k={}", "b:k={}")), symmetric(sweep("b:k={}", "b:k=1"))
    (True, False)
    """
    return all(r.players > 1 and len(set(r.seat_bots)) == 1 for r in sweep.runs)


def _draw_curve(
    ax: Axes,
    curve: Curve,
    c: str,
    label: str | None = None,
    band: bool = True,
    star: bool = True,
) -> None:
    if band:
        ax.fill_between(curve.x, curve.lows, curve.highs, color=c, alpha=0.2, linewidth=0)
    ax.plot(curve.x, curve.rates, color=c, marker="o", markersize=4.5, linewidth=2, label=label)
    if not star:
        return
    b = curve.best()
    ax.plot(
        [curve.x[b]],
        [curve.rates[b]],
        marker="*",
        markersize=17,
        color=c,
        markeredgecolor="black",
        markeredgewidth=0.8,
        linestyle="none",
    )


def _x_axis(ax: Axes, sweep: Sweep, param: str) -> None:
    """Numbers on a numeric axis (a tick at each value when there are few), else categories."""
    values = sweep.numeric_values()
    if values is None:
        ax.set_xticks(range(len(sweep.runs)), [r.value for r in sweep.runs])
    elif len(values) <= 16:
        ax.set_xticks(values, [r.value for r in sweep.runs])
    ax.set_xlabel(param)


def opponents_value(sweep: Sweep) -> float | None:
    """The value of the swept parameter the other seats play with, when they all share one
    that the swept bot also takes and it lies within the swept range (there the swept bot plays
    as its opponents do, so its win rate shows the luck of the deals)."""
    numbers = sweep.numeric_values()
    first = sweep.runs[0]
    if numbers is None or first.players < 2:
        return None
    swept_name = without_param(first.seat_bots[0], sweep.sweep)
    others = {without_param(b, sweep.sweep) for b in first.seat_bots[1:]}
    if others != {swept_name}:
        return None
    # Across every run: under --sweep-all the other seats' value moves with the sweep.
    values = {param_value(r.game, b, sweep.sweep) for r in sweep.runs for b in r.seat_bots[1:]}
    if len(values) != 1 or None in values:
        return None
    try:
        value = float(values.pop() or "")
    except ValueError:
        return None
    return value if min(numbers) <= value <= max(numbers) else None


def _mark_opponents(ax: Axes, value: float, param: str) -> None:
    ax.axvline(
        value, color=GREY, linestyle="-.", linewidth=1.2, label=f"the others' {param} ({value:g})"
    )


def describe_sweep(sweep: Sweep) -> tuple[str, str]:
    """The swept bot (without the swept parameter) and its opponents, in words."""
    first = sweep.runs[0]
    swept = without_param(first.seat_bots[0], sweep.sweep)
    others = [without_param(b, sweep.sweep) for b in first.seat_bots[1:]]
    every_seat = (
        all(without_param(b, sweep.sweep) != b for b in first.seat_bots) and first.players > 1
    )
    counts = Counter(others)
    against = ", ".join(f"{n} x {b}" if n > 1 else b for b, n in counts.items())
    if every_seat:
        against += f" (every seat takes the same {sweep.sweep})"
    return swept, against


def sweep_curve(sweep: Sweep, info: GameInfo, path: Path) -> Plot:
    curve = Curve.of(sweep, "")
    swept, against = describe_sweep(sweep)
    games = sweep.runs[0].games
    alike = symmetric(sweep)
    with _figure(8, 4.8) as fig:
        ax = fig.add_subplot()
        _draw_curve(ax, curve, OKABE_ITO[0], label=f"{swept}, 95% band", star=not alike)
        even = 1 / curve.players
        ax.axhline(even, color=GREY, linestyle="--", linewidth=1.2, label=f"even share {pct(even)}")
        b = curve.best()
        if not alike:
            ax.plot(
                [],
                [],
                marker="*",
                markersize=12,
                color=OKABE_ITO[0],
                markeredgecolor="black",
                linestyle="none",
                label=f"best: {sweep.sweep}={curve.values[b]} ({pct(curve.rates[b])})",
            )
        theirs = opponents_value(sweep)
        if theirs is not None:
            _mark_opponents(ax, theirs, sweep.sweep)
        _x_axis(ax, sweep, sweep.sweep)
        ax.set_ylabel(f"win rate of {_wrap(swept, 30)}\nwith this {sweep.sweep}")
        ax.yaxis.set_major_formatter(PERCENT)
        _titles(
            fig,
            ax,
            f"{info.title}: win rate by {sweep.sweep}",
            _wrap(f"{curve.players} players, against {against}; {games} games per value", 90),
        )
        ax.legend(loc="best")
        _save(fig, path)
    if alike:
        caption = (
            f"The win rate of {swept} in the first seat at each value of {sweep.sweep}, with its"
            f" 95% Wilson band, the dashed line an even share.  Every seat plays the same bot"
            f" with the same {sweep.sweep}, so no value is best: what the curve differs from an"
            " even share is the luck of the deals (and of the seat), not the value."
        )
    else:
        caption = (
            f"The win rate of {swept} at each value of {sweep.sweep}, with its 95% Wilson band;"
            " the star marks the highest, the dashed line an even share."
        )
    return Plot(path.name, f"Win rate by {sweep.sweep}", caption)


def sweep_lengths(sweep: Sweep, info: GameInfo, path: Path) -> Plot:
    xs = sweep.numeric_values() or [float(i) for i in range(len(sweep.runs))]
    with _figure(8, 4.2) as fig:
        ax = fig.add_subplot()
        means = [r.length.mean for r in sweep.runs]
        medians = [r.length.median for r in sweep.runs]
        ax.plot(xs, means, marker="o", linewidth=2, color=OKABE_ITO[0], label="mean")
        ax.plot(xs, medians, marker="s", linestyle="--", color=OKABE_ITO[1], label="median")
        _x_axis(ax, sweep, sweep.sweep)
        ax.set_ylabel(f"game length ({info.length_unit})")
        _titles(
            fig,
            ax,
            f"{info.title}: game length by {sweep.sweep}",
            f"{sweep.runs[0].players} players",
        )
        ax.legend(loc="best")
        _save(fig, path)
    return Plot(
        path.name,
        f"Game length by {sweep.sweep}",
        f"The mean and median game length, in {info.length_unit}, at each value of {sweep.sweep}.",
    )


def _sweep_axes(sweeps: Sequence[Sweep]) -> tuple[bool, list[str], list[float]]:
    """Whether the swept values are numbers, the categories when they are not, and the ticks."""
    numeric = all(s.numeric_values() is not None for s in sweeps)
    categories: list[str] = []
    if not numeric:
        for s in sweeps:
            categories += [r.value for r in s.runs if r.value not in categories]
        return False, categories, [float(i) for i in range(len(categories))]
    return True, [], sorted({v for s in sweeps for v in (s.numeric_values() or [])})


def _curve(s: Sweep, label: str, numeric: bool, categories: Sequence[str]) -> Curve:
    x = None if numeric else [float(categories.index(r.value)) for r in s.runs]
    return Curve.of(s, label, x)


def _ticks(
    ax: Axes, numeric: bool, categories: Sequence[str], xs: Sequence[float], most: int = 16
) -> None:
    """A tick at each swept value when they are few and far enough apart to read (else
    matplotlib's own ticks)."""
    if not numeric:
        ax.set_xticks(range(len(categories)), categories)
        return
    span = (max(xs) - min(xs)) or 1.0
    closest = min((b - a for a, b in pairwise(xs)), default=span)
    if len(xs) <= most and closest >= span / (2.5 * most):
        ax.set_xticks(xs, [f"{v:g}" for v in xs])
    elif all(v == round(v) for v in xs):
        ax.xaxis.set_major_locator(MaxNLocator(nbins=most, integer=True))


def _shared_opponents_value(sweeps: Sequence[Sweep]) -> float | None:
    theirs = {opponents_value(s) for s in sweeps}
    return theirs.pop() if len(theirs) == 1 else None


BANDS_ON_ONE_PLOT = 2
"""Up to this many curves share a plot with their bands; more would hide one another."""


def overlay(sweeps: Sequence[Sweep], labels: Sequence[str], info: GameInfo, path: Path) -> Plot:
    """Several sweeps of one parameter as curves on one plot (with their bands when there are
    only a few: :func:`relative_panels` shows every band)."""
    param = sweeps[0].sweep
    numeric, categories, xs = _sweep_axes(sweeps)
    swept, _ = describe_sweep(sweeps[0])
    bands = len(sweeps) <= BANDS_ON_ONE_PLOT
    alike = all(symmetric(s) for s in sweeps)
    with _figure(8.5, 5.2) as fig:
        ax = fig.add_subplot()
        for i, (s, label) in enumerate(zip(sweeps, labels, strict=True)):
            curve = _curve(s, label, numeric, categories)
            b = curve.best()
            name = label if alike else f"{label}: best {param}={curve.values[b]}"
            _draw_curve(ax, curve, colour(i), label=name, band=bands, star=not alike)
            ax.axhline(1 / curve.players, color=colour(i), linestyle=":", linewidth=1.3)
        theirs = _shared_opponents_value(sweeps)
        if theirs is not None:
            _mark_opponents(ax, theirs, param)
        ax.set_ylabel(f"win rate of {_wrap(swept, 30)}\nwith this {param}")
        ax.yaxis.set_major_formatter(PERCENT)
        _ticks(ax, numeric, categories, xs)
        ax.set_xlabel(param)
        _titles(
            fig,
            ax,
            f"{info.title}: win rate by {param}",
            f"{swept}; "
            + ("bands: 95% intervals; " if bands else "")
            + (f"every seat takes the same {param}; " if alike else "stars: the best value; ")
            + "dotted lines: even shares",
        )
        fig.legend(loc="outside lower center", ncols=2)
        _save(fig, path)
    return Plot(
        path.name,
        f"Win rate by {param}, every input",
        f"The win rate of {swept} at each value of {param}, one curve per input"
        + (", with 95% bands" if bands else " (the bands are in the next plot)")
        + "; dotted lines are each curve's even share.",
    )


def relative_panels(
    sweeps: Sequence[Sweep], labels: Sequence[str], info: GameInfo, path: Path
) -> Plot:
    """One panel per sweep, each win rate divided by its even share (so 1.1 is a tenth more
    than an even share at any player count), on shared axes."""
    param = sweeps[0].sweep
    numeric, categories, xs = _sweep_axes(sweeps)
    swept, _ = describe_sweep(sweeps[0])
    n = len(sweeps)
    cols = 1 if n == 1 else 2
    rows = -(-n // cols)
    alike = all(symmetric(s) for s in sweeps)
    with _figure(8.5, 1.2 + 2.9 * rows) as fig:
        axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
        for k, ax in enumerate(axes.flat):
            if k >= n:
                ax.set_visible(False)
                continue
            s, label = sweeps[k], labels[k]
            curve = _curve(s, label, numeric, categories).scaled(s.runs[0].players)
            b = curve.best()
            _draw_curve(ax, curve, colour(k), star=not alike)
            ax.axhline(1.0, color=GREY, linestyle="--", linewidth=1.2)
            theirs = opponents_value(s)
            if theirs is not None:
                ax.axvline(theirs, color=GREY, linestyle="-.", linewidth=1.2)
            title = label if alike else f"{label}: best {param}={curve.values[b]}"
            ax.set_title(title, loc="left", fontsize=11, color=colour(k))
            ax.yaxis.set_major_formatter(StrMethodFormatter("{x:.2f}×"))
            _ticks(ax, numeric, categories, xs, most=16 // cols)
            if k % cols == 0:
                ax.set_ylabel("win rate / even share")
            if k >= n - cols:
                ax.set_xlabel(param)
                ax.tick_params(labelbottom=True)
        theirs = _shared_opponents_value(sweeps)
        fig.suptitle(
            f"{info.title}: win rate by {param}, against an even share",
            x=0.01,
            ha="left",
            fontsize=13,
            fontweight="bold",
        )
        fig.supxlabel(
            _wrap(
                f"{swept}; bands: 95% intervals; "
                + (f"every seat takes the same {param}; " if alike else "stars: the best value; ")
                + "dashed: an even share (1×)"
                + (f"; dash-dot: the others' {param} ({theirs:g})" if theirs is not None else ""),
                100,
            ),
            fontsize=10,
            color=GREY,
        )
        _save(fig, path)
    return Plot(
        path.name,
        f"Win rate by {param}, as a multiple of an even share",
        "One panel per input: the win rate divided by an even share (1 / players), so that"
        " player counts compare (1× is an even share), with its 95% band.",
    )


def rating_range(lo: float, hi: float) -> str:
    """A rating interval in words; an open end (a bot that won or lost every point) says so.

    >>> rating_range(1450.4, 1549.6), rating_range(1690, math.inf), rating_range(-math.inf, 1310)
    ('1450 to 1550', '1690 or more', '1310 or less')
    """
    if math.isinf(hi):
        return f"{lo:.0f} or more"
    if math.isinf(lo):
        return f"{hi:.0f} or less"
    return f"{lo:.0f} to {hi:.0f}"


def ratings(t: Tournament, info: GameInfo, path: Path) -> Plot:
    ranked = sorted(t.ratings, key=lambda r: -r.rating)
    intervals = t.rating_intervals()
    finite = [x for r in ranked for x in (r.rating, *intervals[r.bot]) if math.isfinite(x)]
    lo_all, hi_all = min(finite), max(finite)
    pad = max(40.0, 0.12 * (hi_all - lo_all))
    left, right = lo_all - pad, hi_all + pad
    with _figure(8, _bars_height(len(ranked))) as fig:
        ax = fig.add_subplot()
        ys = np.arange(len(ranked))
        values = [r.rating for r in ranked]
        # An open end gets no whisker but an arrow to the edge of the plot (below).
        ends = [[r.rating if math.isinf(x) else x for x in intervals[r.bot]] for r in ranked]
        lows = [max(0.0, r.rating - lo) for r, (lo, _) in zip(ranked, ends, strict=True)]
        highs = [max(0.0, hi - r.rating) for r, (_, hi) in zip(ranked, ends, strict=True)]
        for y, r in zip(ys, ranked, strict=True):
            # An open end: an arrow to the edge of the plot instead of a capped whisker.
            lo, hi = intervals[r.bot]
            for end, edge in ((hi, right), (lo, left)):
                if math.isinf(end):
                    ax.annotate(
                        "",
                        (edge, float(y)),
                        (r.rating, float(y)),
                        arrowprops={"arrowstyle": "-|>", "color": "black", "linewidth": 1.5},
                    )
        ax.errorbar(
            values,
            ys,
            xerr=[lows, highs],
            fmt="o",
            color=OKABE_ITO[0],
            markersize=8,
            ecolor="black",
            elinewidth=1.5,
            capsize=5,
        )
        for y, r in zip(ys, ranked, strict=True):
            ax.annotate(
                f"{r.rating:.0f} ({rating_range(*intervals[r.bot])})",
                (r.rating, float(y)),
                xytext=(0, 9),
                textcoords="offset points",
                ha="center",
                fontsize=10,
            )
        ax.axvline(1500, color=GREY, linestyle="--", linewidth=1.2)
        ax.set_yticks(ys, [f"{i + 1}. {_wrap(r.bot)}" for i, r in enumerate(ranked)])
        ax.set_ylim(len(ranked) - 0.4, -0.8)
        ax.set_xlim(left, right)
        ax.set_xlabel("Elo rating (the mean is 1500; dashed)")
        _titles(
            fig,
            ax,
            f"{info.title}: ratings",
            f"{t.games_per_pairing} games per pairing, {t.players} players;"
            " whiskers: 95% intervals",
        )
        ax.grid(axis="y", visible=False)
        _save(fig, path)
    return Plot(
        path.name,
        "Ratings",
        "Each bot's Elo-scale rating (Bradley-Terry, mean 1500) with its 95% interval from"
        " resampling whole deals.  A pairing won or lost on every deal leaves resampling no"
        " doubt, so the interval of a bot with one also reaches its rating with each of its"
        " scores at either end of its pairing's 95% interval; a bot that won (or lost) every"
        " point has no upper (or lower) limit: an arrow.",
    )


def crosstable(t: Tournament, info: GameInfo, path: Path) -> Plot:
    order = t.ranked()
    n = len(order)
    grid = np.full((n, n), np.nan)
    cells: dict[tuple[int, int], str] = {}
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            found = t.score(a, b) if a != b else None
            if found is None:
                continue
            score, ci, _ = found
            grid[i, j] = score
            cells[(i, j)] = pct(score) + (
                f"\n{100 * ci[0]:.0f}-{100 * ci[1]:.0f}%" if ci is not None else ""
            )
    with _figure(max(6.5, 1.3 * n + 3.4), max(4.2, 0.95 * n + 1.6)) as fig:
        ax = fig.add_subplot()
        cmap = matplotlib.colormaps["PuOr"].with_extremes(bad="#EEEEEE")
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0.0, vmax=1.0)
        for (i, j), text in cells.items():
            dark = abs(grid[i, j] - 0.5) > 0.3
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=10 if n <= 6 else 8,
                color="white" if dark else "black",
            )
        for k in range(n):
            ax.text(k, k, "-", ha="center", va="center", color=GREY)
        names = [f"{k + 1}. {_wrap(b, 22)}" for k, b in enumerate(order)]
        ax.set_xticks(range(n), [f"vs {k + 1}" for k in range(n)])
        ax.set_yticks(range(n), names)
        ax.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False)
        ax.grid(False)
        for side in ("top", "right", "bottom", "left"):
            ax.spines[side].set_visible(False)
        bar = fig.colorbar(image, ax=ax, shrink=0.8)
        bar.set_label("row's share of the points")
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        _titles(
            fig,
            ax,
            f"{info.title}: crosstable",
            "the row's score against the column's bot, with its 95% interval",
        )
        _save(fig, path)
    return Plot(
        path.name,
        "Crosstable",
        "The row's share of the points against the column's bot, with its 95% interval (by"
        " deals); purple is above even, orange below.",
    )


def run_plots(
    sim: Simulation | SweepRun, info: GameInfo, folder: Path, prefix: str
) -> tuple[list[Plot], bool]:
    """A simulation's plots, and whether it held every game's result (for the distributions)."""
    plots = [
        win_rates_by_bot(sim, info, file(folder, f"{prefix}win-rates-by-bot")),
        win_rates_by_seat(sim, info, file(folder, f"{prefix}win-rates-by-seat")),
    ]
    if sim.per_game:
        plots.append(game_lengths(sim, info, file(folder, f"{prefix}game-lengths")))
        plots.append(points_by_bot(sim, info, file(folder, f"{prefix}points")))
    return plots, bool(sim.per_game)
