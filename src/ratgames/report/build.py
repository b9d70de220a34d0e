"""A report: one HTML page (``index.html``) with its plots (PNG, SVG or PDF) beside it in one
folder.

The plots are files beside the page, not embedded in it: the page stays small and opens at once,
each plot can be used on its own (in a Markdown document, a slide), and the folder as a whole
is self-contained (the page links its plots by relative paths), so it can be moved, zipped or
served as it is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ..core.bots import parse_bot_spec
from ..core.errors import RatgamesError
from . import plots as P
from .data import ReportInput, Simulation, Sweep, Tournament
from .info import GameInfo, game_title, without_param
from .plots import Plot, pct, pct_range


@dataclass
class Report:
    """What :func:`build_report` wrote."""

    page: Path
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _options_words(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_text(v)}" for k, v in options.items()) or "none"


def _option_args(options: dict[str, Any]) -> list[str]:
    args: list[str] = []
    for k, v in options.items():
        args += ["-o", f"{k}={_text(v)}"]
    return args


def _shell(args: Sequence[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in args)


def simulate_command(sim: Simulation, json_name: str) -> str:
    """The command that plays the same run again (each game depends only on seed and index)."""
    args = ["ratgames", "simulate", sim.game, "-n", str(sim.players), *_option_args(sim.options)]
    args += ["-g", str(sim.games), "-s", str(sim.seed), "-b", *sim.bots]
    if not sim.rotate_seats:
        args.append("--no-rotate")
    args += ["--json", json_name] + (["--per-game"] if sim.per_game is not None else [])
    return _shell(args)


def _param_of(spec: str, param: str) -> str | None:
    try:
        return parse_bot_spec(spec)[1].get(param)
    except (RatgamesError, ValueError):
        return None


def sweep_command(sweep: Sweep, json_name: str) -> str:
    """The command that plays the same sweep again."""
    first = sweep.runs[0]
    every = all(_param_of(b, sweep.sweep) == r.value for r in sweep.runs for b in r.bots)
    bots = [
        without_param(b, sweep.sweep) if every or i == 0 else b for i, b in enumerate(first.bots)
    ]
    args = ["ratgames", "simulate", first.game, "-n", str(first.players)]
    args += _option_args(first.options)
    args += ["-g", str(first.games), "-s", str(first.seed), "-b", *bots]
    if not first.rotate_seats:
        args.append("--no-rotate")
    args += ["--sweep", f"{sweep.sweep}=" + ",".join(r.value for r in sweep.runs)]
    if every and len(bots) > 1:
        args.append("--sweep-all")
    args += ["--json", json_name] + (["--per-game"] if first.per_game is not None else [])
    return _shell(args)


def tournament_command(t: Tournament, stem: str) -> str:
    args = ["ratgames", "tournament", t.game, "-n", str(t.players), *_option_args(t.options)]
    bots = [r.bot for r in t.ratings]
    # The order the bots were given in is the order of the pairings.
    given = list(dict.fromkeys(b for p in t.pairings for b in p.bots))
    bots = given + [b for b in bots if b not in given]
    args += ["-g", str(t.games_per_pairing), "-s", str(t.seed), "-b", *bots, "--out", stem]
    return _shell(args)


def _table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    numeric_from: int = 1,
    text: Sequence[int] = (),
) -> str:
    """An HTML table (cells already escaped): columns from ``numeric_from`` on are numbers
    (right-aligned, never broken), except the ``text`` ones; a table wider than the page
    scrolls on its own."""

    def attr(i: int) -> str:
        return " class=num" if i >= numeric_from and i not in text else ""

    cells = "".join(f"<th{attr(i)}>{h}</th>" for i, h in enumerate(head))
    out = [f"<div class=scroll><table><thead><tr>{cells}</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td{attr(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _figure(plot: Plot) -> str:
    name, alt = _esc(plot.file), f"{_esc(plot.title)}: {_esc(plot.caption)}"
    if plot.file.endswith(".pdf"):
        # Browsers show a PDF in an object, not an image; the link opens it where they cannot.
        shown = (
            f'<object data="{name}" type="application/pdf" width="100%" height="520">'
            f'<a href="{name}">{alt}</a></object>'
        )
    else:
        shown = f'<a href="{name}"><img src="{name}" alt="{alt}"></a>'
    return (
        f'<figure id="{name}">{shown}'
        f"<figcaption><strong>{_esc(plot.title)}</strong> ({name}). "
        f"{_esc(plot.caption)}</figcaption></figure>"
    )


def _facts(pairs: Sequence[tuple[str, str]]) -> str:
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def _code(text: str) -> str:
    return f"<code>{_esc(text)}</code>"


NO_PER_GAME = (
    "Game lengths and {points} as distributions need every game's result, and this file holds"
    " only the run's totals: run <code>ratgames simulate ... --json FILE --per-game</code> to"
    " keep them. The length figures above come from the totals."
)


def simulation_section(
    sim: Simulation, info: GameInfo, item: ReportInput, folder: Path, prefix: str, report: Report
) -> str:
    plots, distributions = P.run_plots(sim, info, folder, prefix)
    report.plots += plots
    parts = [
        f"<h2>{_esc(info.title)}: simulation of {sim.games} games, {sim.players} players</h2>",
        f"<p class=src>From {_code(item.path.name)}.</p>",
        _facts(
            [
                ("Bots by seat (first game)", _esc(", ".join(sim.seat_bots))),
                (
                    "Seats",
                    "the bots rotate through the seats from game to game"
                    if sim.rotate_seats
                    else "each bot keeps its seat",
                ),
                ("Options", _esc(_options_words(sim.options))),
                ("Seed", str(sim.seed)),
                (
                    "Time",
                    f"{sim.seconds:.1f} s ({sim.games_per_second:.0f} games/s); the safety cap"
                    f" ended {sim.capped} of {sim.games} games",
                ),
                ("Plays again with", _code(simulate_command(sim, item.path.name))),
            ]
        ),
        "<h3>Win rate by bot</h3>",
        _table(
            ["#", "bot", "games", "wins", "win rate", "95% CI", f"mean {_esc(info.points_label)}"],
            [
                [
                    str(i + 1),
                    _code(e.bot),
                    str(e.games),
                    f"{e.wins:g}",
                    pct(e.win_rate),
                    pct_range(*e.win_rate_95ci),
                    f"{e.mean_points:.2f}",
                ]
                for i, e in enumerate(sim.entrants)
            ],
            numeric_from=2,
        ),
        "<h3>Win rate by seat</h3>",
        _table(
            ["seat", "win rate", "95% CI"],
            [
                [_esc(info.seat_name(s)), pct(rate), pct_range(*ci)]
                for s, (rate, ci) in enumerate(
                    zip(sim.seat_win_rates, sim.seat_intervals(), strict=True)
                )
            ],
        ),
        f"<h3>Game length ({_esc(info.length_unit)})</h3>",
        _table(
            ["mean", "median", "95th percentile", "longest"],
            [
                [
                    f"{sim.length.mean:.1f}",
                    f"{sim.length.median:.1f}",
                    f"{sim.length.p95:.1f}",
                    f"{sim.length.max:.0f}" if sim.length.max is not None else "-",
                ]
            ],
            numeric_from=0,
        ),
    ]
    if sim.details_mean:
        parts += [
            "<h3>Per game on average</h3>",
            _table(
                ["figure", "mean"],
                [
                    [_esc(k.replace("_", " ")), f"{v:.3g}"]
                    for k, v in sorted(sim.details_mean.items())
                ],
            ),
        ]
    if not distributions:
        note = NO_PER_GAME.format(points=_esc(info.points_label))
        report.notes.append(f"{item.path.name}: no per-game results, so no distributions")
        parts.append(f'<p class="note">{note}</p>')
    parts += [_figure(p) for p in plots]
    return "\n".join(parts)


def _overlapping(rates: Sequence[tuple[float, float]], best: int) -> list[int]:
    lo, hi = rates[best]
    return [i for i, (a, b) in enumerate(rates) if i != best and a <= hi and b >= lo]


def best_sentence(sweep: Sweep) -> str:
    """The best value of a sweep, with the values the data cannot tell apart from it; none
    when every seat takes the same value (:func:`ratgames.report.plots.symmetric`)."""
    curve = P.Curve.of(sweep, "")
    b = curve.best()
    ci = list(zip(curve.lows, curve.highs, strict=True))
    if P.symmetric(sweep):
        lo, hi = min(curve.rates), max(curve.rates)
        return (
            f"Every seat plays the same bot with the same {_esc(sweep.sweep)} at every value, so"
            f" no value is best for one seat: the first seat's win rate ranges from {pct(lo)} to"
            f" {pct(hi)} against an even share of {pct(1 / curve.players)}, which is the luck of"
            f" the deals (and of the seat), not the value.  What {_esc(sweep.sweep)} changes"
            " when everyone takes it shows in the game length and points below."
        )
    close = [curve.values[i] for i in _overlapping(ci, b)]
    text = (
        f"Best {_esc(sweep.sweep)}: <strong>{_esc(curve.values[b])}</strong>, winning"
        f" {pct(curve.rates[b])} (95% CI {pct_range(*ci[b])}) against an even share of"
        f" {pct(1 / curve.players)}."
    )
    if close:
        text += (
            " Values whose 95% interval overlaps the best one's, so that these games do not tell"
            f" them apart from it: {_esc(', '.join(close))}."
        )
    else:
        text += " Its 95% interval overlaps no other value's."
    theirs = P.opponents_value(sweep)
    numbers = sweep.numeric_values() or []
    if theirs is not None and theirs in numbers:
        k = numbers.index(theirs)
        text += (
            f" At {_esc(sweep.sweep)}={_esc(curve.values[k])}, the other seats' own setting, the"
            f" swept bot plays as they do and won {pct(curve.rates[k])} (95% CI"
            f" {pct_range(*ci[k])}): what it differs from an even share is the luck of these"
            " deals, which every value shares (each plays the same deals), so the values compare"
            " more closely with one another than with an even share."
        )
    return text


def sweep_section(
    sweep: Sweep, info: GameInfo, item: ReportInput, folder: Path, prefix: str, report: Report
) -> str:
    first = sweep.runs[0]
    swept, against = P.describe_sweep(sweep)
    plots = [
        P.sweep_curve(sweep, info, P.file(folder, f"{prefix}win-rate-by-{_slug(sweep.sweep)}")),
        P.sweep_lengths(sweep, info, P.file(folder, f"{prefix}length-by-{_slug(sweep.sweep)}")),
    ]
    report.plots += plots
    games = sorted({r.games for r in sweep.runs})
    parts = [
        f"<h2>{_esc(info.title)}: how {_esc(sweep.sweep)} of {_esc(swept)} matters,"
        f" {first.players} players</h2>",
        f"<p class=src>From {_code(item.path.name)}.</p>",
        _facts(
            [
                (
                    "Swept bot",
                    f"{_code(swept)} (bot 1) with {_esc(sweep.sweep)} = "
                    + _esc(", ".join(r.value for r in sweep.runs)),
                ),
                ("Against", _esc(against)),
                ("Games per value", ", ".join(str(g) for g in games)),
                ("Options", _esc(_options_words(first.options))),
                ("Seed", f"{first.seed} (every value plays the same deals)"),
                ("Plays again with", _code(sweep_command(sweep, item.path.name))),
            ]
        ),
        f'<p class="finding">{best_sentence(sweep)}</p>',
        _table(
            [
                _esc(sweep.sweep),
                "win rate",
                "95% CI",
                f"mean {_esc(info.points_label)}",
                f"mean length ({_esc(info.length_unit)})",
                "games",
            ],
            [
                [
                    _esc(r.value),
                    pct(r.entrants[0].win_rate),
                    pct_range(*r.entrants[0].win_rate_95ci),
                    f"{r.entrants[0].mean_points:.2f}",
                    f"{r.length.mean:.1f}",
                    str(r.games),
                ]
                for r in sweep.runs
            ],
            numeric_from=0,
        ),
        *[_figure(p) for p in plots],
    ]
    return "\n".join(parts)


def tournament_section(
    t: Tournament, info: GameInfo, item: ReportInput, folder: Path, prefix: str, report: Report
) -> str:
    plots = [
        P.ratings(t, info, P.file(folder, f"{prefix}ratings")),
        P.crosstable(t, info, P.file(folder, f"{prefix}crosstable")),
    ]
    report.plots += plots
    order = t.ranked()
    by_bot = {r.bot: r for r in t.ratings}
    intervals = t.rating_intervals()
    cross_rows = []
    for i, a in enumerate(order):
        row = [str(i + 1), _code(a), f"{by_bot[a].rating:.0f}"]
        row.append(P.rating_range(*intervals[a]))
        for b in order:
            found = t.score(a, b) if a != b else None
            row.append(pct(found[0]) if found else "-")
        cross_rows.append(row)
    pairing_rows = []
    for p in t.pairings:
        a, b = p.bots
        ci = pct_range(*p.score_95ci) if len(p.score_95ci) == 2 else "-"
        games = round(sum(p.points))
        pairing_rows.append(
            [_code(a), _code(b), pct(p.score), ci, str(games), str(games // t.players)]
        )
    parts = [
        f"<h2>{_esc(info.title)}: tournament of {len(order)} bots, {t.players} players</h2>",
        f"<p class=src>From {_code(item.path.name)}.</p>",
        _facts(
            [
                (
                    "Games per pairing",
                    f"{t.games_per_pairing} (mirrored deals: every bot plays every hand)",
                ),
                ("Options", _esc(_options_words(t.options))),
                ("Seed", str(t.seed)),
                ("Plays again with", _code(tournament_command(t, item.path.stem))),
            ]
        ),
        "<h3>Ratings and crosstable</h3>",
        _table(
            ["#", "bot", "rating", "95% CI", *[f"vs {k + 1}" for k in range(len(order))]],
            cross_rows,
            numeric_from=2,
        ),
        "<h3>Pairings</h3>",
        _table(
            ["bot", "against", "score of the first", "95% CI", "games", "deals"],
            pairing_rows,
            numeric_from=2,
        ),
        *[_figure(p) for p in plots],
    ]
    return "\n".join(parts)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "input"


def _labels(sweeps: Sequence[ReportInput]) -> list[str]:
    """How the curves of several sweeps are told apart: by player count when that differs."""
    datas = [s.data for s in sweeps]
    players = [d.runs[0].players for d in datas if isinstance(d, Sweep)]
    if len(set(players)) == len(players):
        return [f"{n} players" for n in players]
    return [s.path.stem for s in sweeps]


def overlay_section(sweeps: Sequence[ReportInput], folder: Path, report: Report) -> str:
    datas = [s.data for s in sweeps if isinstance(s.data, Sweep)]
    first = datas[0]
    run = first.runs[0]
    info = GameInfo.of(run.game, run.players, run.options)
    labels = _labels(sweeps)
    param = first.sweep
    slug = _slug(param)
    plots = [
        P.overlay(datas, labels, info, P.file(folder, f"win-rate-by-{slug}")),
        P.relative_panels(datas, labels, info, P.file(folder, f"win-rate-by-{slug}-relative")),
    ]
    report.plots += plots
    rows = []
    for label, s in zip(labels, datas, strict=True):
        curve = P.Curve.of(s, label)
        b = curve.best()
        even = 1 / curve.players
        close = [
            curve.values[i]
            for i in _overlapping(list(zip(curve.lows, curve.highs, strict=True)), b)
        ]
        if P.symmetric(s):  # every seat takes the value: the highest rate is only luck
            rows.append(
                [
                    f"<span class=nowrap>{_esc(label)}</span>",
                    "none: every seat takes the same value",
                    f"{pct(min(curve.rates))} to {pct(max(curve.rates))}",
                    "-",
                    pct(even),
                    "-",
                    "-",
                    str(s.runs[0].games),
                ]
            )
            continue
        rows.append(
            [
                f"<span class=nowrap>{_esc(label)}</span>",
                _esc(curve.values[b]),
                pct(curve.rates[b]),
                pct_range(curve.lows[b], curve.highs[b]),
                pct(even),
                f"{curve.rates[b] / even:.2f}",
                _esc(", ".join(close) or "none"),
                str(s.runs[0].games),
            ]
        )
    swept, _ = P.describe_sweep(first)
    parts = [
        f"<h2>{_esc(info.title)}: {_esc(param)} of {_esc(swept)}, every input</h2>",
        _table(
            [
                "curve",
                f"best {_esc(param)}",
                "win rate",
                "95% CI",
                "even share",
                "best / even",
                "not told apart from the best",
                "games per value",
            ],
            rows,
            text=(6,),
        ),
        *[_figure(p) for p in plots],
    ]
    return "\n".join(parts)


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1b1b1b; background: #fafafa; line-height: 1.45; }
main { max-width: 62rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 2px solid #0072B2; }
h3 { font-size: 1.05rem; margin-bottom: 0.3rem; }
table { border-collapse: collapse; margin: 0.4rem 0 1rem; background: white; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #ddd; text-align: left; }
th { background: #eef3f8; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num, .nowrap { white-space: nowrap; }
.scroll { overflow-x: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
code { background: #eef0f2; padding: 0 0.2rem; border-radius: 3px; font-size: 0.92em;
       overflow-wrap: anywhere; }
figure { margin: 1.2rem 0; background: white; padding: 0.6rem; border: 1px solid #e2e2e2; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.92rem; color: #444; margin-top: 0.4rem; }
.note { background: #fff6e0; border-left: 4px solid #E69F00; padding: 0.5rem 0.8rem; }
.finding { background: #e8f4ec; border-left: 4px solid #009E73; padding: 0.5rem 0.8rem; }
.src, .meta { color: #555; margin-top: 0; }
"""


def _version() -> str:
    try:
        return version("ratgames")
    except PackageNotFoundError:
        return "?"


def build_report(
    inputs: Sequence[ReportInput],
    folder: Path,
    title: str | None = None,
    output: P.Output = P.DEFAULT_OUTPUT,
) -> Report:
    """Write ``folder/index.html`` and its plots for ``inputs`` (each a checked result file),
    the plots in ``output``'s format.

    Several sweeps of the same parameter of the same game also get their curves overlaid."""
    with P.output(output):
        return _build(inputs, folder, title)


def _build(inputs: Sequence[ReportInput], folder: Path, title: str | None) -> Report:
    folder.mkdir(parents=True, exist_ok=True)
    report = Report(folder / "index.html")
    prefixes: list[str] = []
    if len(inputs) > 1:
        for item in inputs:
            base = _slug(item.path.stem)
            prefix, k = base, 2
            while prefix in prefixes:
                prefix, k = f"{base}-{k}", k + 1
            prefixes.append(prefix)
    sections: list[tuple[str, str, str]] = []  # (anchor, heading for contents, html)
    sweeps = [i for i in inputs if isinstance(i.data, Sweep)]
    if len(sweeps) > 1 and len(sweeps) == len(inputs):
        games = {s.data.runs[0].game for s in sweeps if isinstance(s.data, Sweep)}
        params = {s.data.sweep for s in sweeps if isinstance(s.data, Sweep)}
        if len(games) == 1 and len(params) == 1:
            sections.append(
                ("overlay", "Every input together", overlay_section(sweeps, folder, report))
            )
    for n, item in enumerate(inputs):
        prefix = f"{prefixes[n]}-" if prefixes else ""
        data = item.data
        if isinstance(data, Tournament):
            info = GameInfo.of(data.game, data.players, data.options)
            body = tournament_section(data, info, item, folder, prefix, report)
        elif isinstance(data, Sweep):
            run = data.runs[0]
            info = GameInfo.of(run.game, run.players, run.options)
            body = sweep_section(data, info, item, folder, prefix, report)
        else:
            info = GameInfo.of(data.game, data.players, data.options)
            body = simulation_section(data, info, item, folder, prefix, report)
        sections.append((f"input-{n + 1}", f"{item.path.name} ({item.kind})", body))
    heading = title or _default_title(inputs)
    sources = ", ".join(f"{_code(i.path.name)} ({i.kind})" for i in inputs)
    contents = ""
    if len(sections) > 1:
        contents = (
            "<nav><ol>"
            + "".join(f'<li><a href="#{a}">{_esc(h)}</a></li>' for a, h, _ in sections)
            + "</ol></nav>"
        )
    page = (
        "<!doctype html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
        '<meta name=viewport content="width=device-width, initial-scale=1">\n'
        f"<title>{_esc(heading)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{_esc(heading)}</h1>\n"
        f"<p class=meta>Made by <code>ratgames report</code> (ratgames {_esc(_version())}) from "
        f"{sources}. Intervals are 95%; win rates count a shared win as a share.</p>\n"
        + contents
        + "\n".join(f'<section id="{a}">\n{body}\n</section>' for a, _, body in sections)
        + "\n</main>\n</body>\n</html>\n"
    )
    report.page.write_text(page, encoding="utf-8")
    return report


def _default_title(inputs: Sequence[ReportInput]) -> str:
    games = []
    for item in inputs:
        d = item.data
        game = d.runs[0].game if isinstance(d, Sweep) else d.game
        if game not in games:
            games.append(game)
    kinds = list(dict.fromkeys(i.kind for i in inputs))
    return f"{', '.join(game_title(g) for g in games)}: {' and '.join(kinds)} report"
