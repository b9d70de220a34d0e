"""``ratgames report``: real simulations, sweeps and tournaments (tiny, with fast bots) turned into
an HTML page whose figures are the JSON's, with a valid PNG for every plot it names; bad input
is refused in one line."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from PIL import Image

import ratgames
from ratgames.cli import app, main
from ratgames.core import make_bot, play_game
from ratgames.report import ReportInputError, load_input
from ratgames.sim import wilson_interval

CAGED = ["caged-rats", "-o", "single_deal=true", "-w", "1"]


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    return result


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One JSON file of every kind, made by the real commands."""
    folder = tmp_path_factory.mktemp("inputs")
    made = {
        "per_game": folder / "caged.json",
        "totals": folder / "caged-totals.json",
        "sweep2": folder / "knock-2p.json",
        "sweep3": folder / "knock-3p.json",
        "tournament": folder / "cup.json",
    }
    bots = ["-b", "heuristic", "-b", "random"]
    runs = [
        ["simulate", *CAGED, "-g", "8", *bots, "--json", made["per_game"], "--per-game"],
        ["simulate", *CAGED, "-g", "6", "-s", "3", *bots, "--json", made["totals"]],
        *[
            [
                "simulate",
                "rat-a-tat-cat",
                "-n",
                str(n),
                "-o",
                "mode=round",
                "-w",
                "1",
                "-g",
                "6",
                "-b",
                "heuristic",
                "-b",
                "heuristic",
                "--sweep",
                "knock=4,9,14",
                "--json",
                made[f"sweep{n}"],
            ]
            for n in (2, 3)
        ],
        [
            "tournament",
            *CAGED,
            "-g",
            "4",
            "-b",
            "random",
            "-b",
            "heuristic",
            "-b",
            "heuristic:defend=false",
            "--out",
            folder / "cup",
        ],
    ]
    for args in runs:
        result = invoke(*args)
        assert result.exit_code == 0, result.output
    return made


def report(*args: str | Path) -> Result:
    result = invoke("report", *args)
    assert result.exit_code == 0, result.output
    return result


def page_and_plots(folder: Path) -> tuple[str, list[Path]]:
    """The page's text, and every PNG it shows, each checked to be a real, drawn image."""
    html = (folder / "index.html").read_text(encoding="utf-8")
    names = re.findall(r'<img src="([^"]+)"', html)
    assert names, "the page shows no plot"
    assert len(names) == len(set(names))
    pngs = sorted(folder.glob("*.png"))
    assert sorted(folder / n for n in names) == pngs  # every plot named, and no other
    for png in pngs:
        with Image.open(png) as image:
            image.verify()
        with Image.open(png) as image:
            assert image.format == "PNG"
            assert image.width >= 600 and image.height >= 300
            colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
            assert colours is None or len(colours) > 20  # drawn, not blank
        # the file name is named in the page's caption too
        assert f"({png.name})" in html
    return html, pngs


def cell(text: str) -> str:
    return f"<td class=num>{text}</td>"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def test_a_simulation_with_every_game_gets_win_rates_and_distributions(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    result = report(inputs["per_game"], "-o", out)
    html, pngs = page_and_plots(out)
    assert {p.name for p in pngs} == {
        "win-rates-by-bot.png",
        "win-rates-by-seat.png",
        "game-lengths.png",
        "points.png",
    }
    assert "4 plots" in result.output
    data = json.loads(inputs["per_game"].read_text())
    for e in data["entrants"]:
        lo, hi = e["win_rate_95ci"]
        assert cell(pct(e["win_rate"])) in html
        assert cell(f"{100 * lo:.1f}-{100 * hi:.1f}%") in html
        assert cell(f"{e['mean_points']:.2f}") in html
    # Seats with their names and intervals computed from the wins.
    for seat, rate in zip(["Red", "Black"], data["seat_win_rates"], strict=True):
        lo, hi = wilson_interval(rate * data["games"], data["games"])
        assert f"<td>{seat}</td>{cell(pct(rate))}{cell(f'{100 * lo:.1f}-{100 * hi:.1f}%')}" in html
    assert cell(f"{data['length']['mean']:.1f}") in html
    assert 'class="note"' not in html
    assert "Caged Rats" in html and "--per-game" in html


def test_without_every_game_the_page_says_why_there_are_no_distributions(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    result = report(inputs["totals"], "-o", out)
    html, pngs = page_and_plots(out)
    assert {p.name for p in pngs} == {"win-rates-by-bot.png", "win-rates-by-seat.png"}
    assert 'class="note"' in html and "--per-game" in html
    assert "no per-game results" in result.output


def test_the_page_gives_the_command_that_plays_the_run_again(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report(inputs["totals"], "-o", tmp_path / "r")
    html = (tmp_path / "r" / "index.html").read_text()
    again = replay_command(html, tmp_path, capsys)
    first, second = (json.loads(p.read_text()) for p in (inputs["totals"], again))
    assert without_times(first) == without_times(second)


def replay_command(html: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Run the page's "Plays again with" command (its JSON written to a new file)."""
    command = re.search(r"Plays again with</dt><dd><code>([^<]+)</code>", html)
    assert command is not None
    args = shlex.split(unescape(command.group(1)))
    assert args[:2] == ["ratgames", "simulate"]
    again = tmp_path / "again.json"
    args[args.index("--json") + 1] = str(again)
    code, err = run_main(capsys, *args[1:])
    assert code == 0, err
    return again


def without_times(figures: dict[str, Any]) -> dict[str, Any]:
    runs = figures.get("runs", [figures])
    for run in runs:
        run.pop("seconds")
        run.pop("games_per_second")
    return figures


def test_a_sweep_gets_its_curve_and_states_the_best_value(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    report(inputs["sweep2"], "-o", out)
    html, pngs = page_and_plots(out)
    assert {p.name for p in pngs} == {"win-rate-by-knock.png", "length-by-knock.png"}
    data = json.loads(inputs["sweep2"].read_text())
    rates = []
    for run in data["runs"]:
        first = run["entrants"][0]
        lo, hi = first["win_rate_95ci"]
        assert f"{cell(run['value'])}{cell(pct(first['win_rate']))}" in html
        assert cell(f"{100 * lo:.1f}-{100 * hi:.1f}%") in html
        rates.append(first["win_rate"])
    best = data["runs"][rates.index(max(rates))]["value"]
    assert f"Best knock: <strong>{best}</strong>" in html
    # knock=9 is the heuristic's default, so there bot 1 plays as the others do.
    baseline = pct(data["runs"][1]["entrants"][0]["win_rate"])
    assert (
        "At knock=9, the other seats' own setting, the swept bot plays as they do and won"
        f" {baseline}" in html
    )
    assert "--sweep knock=4,9,14" in html
    again = replay_command(html, tmp_path, capsys)
    assert without_times(json.loads(again.read_text())) == without_times(data)


def test_sweeps_by_player_count_are_overlaid(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    # -o before the inputs, as typed at a shell (through the real entry point).
    code, err = run_main(
        capsys, "report", "-o", str(out), str(inputs["sweep2"]), str(inputs["sweep3"])
    )
    assert code == 0, err
    html, pngs = page_and_plots(out)
    names = {p.name for p in pngs}
    assert {"win-rate-by-knock.png", "win-rate-by-knock-relative.png"} <= names
    assert {"knock-2p-win-rate-by-knock.png", "knock-3p-win-rate-by-knock.png"} <= names
    assert "<td><span class=nowrap>2 players</span></td>" in html
    assert "<td><span class=nowrap>3 players</span></td>" in html


def test_a_tournament_gets_ratings_and_a_crosstable(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    report(inputs["tournament"], "-o", out)
    html, pngs = page_and_plots(out)
    assert {p.name for p in pngs} == {"ratings.png", "crosstable.png"}
    data = json.loads(inputs["tournament"].read_text())
    order = [r["bot"] for r in data["ratings"]]  # ranked, best first
    scores: dict[tuple[str, str], float] = {}
    for p in data["pairings"]:
        a, b = p["bots"]
        scores[(a, b)], scores[(b, a)] = p["score"], 1 - p["score"]
    # Every pairing went one way on every deal: still no interval is a single point, and the
    # page shows the open end of a perfect record.
    assert [p["score"] for p in data["pairings"]] == [0.0, 0.0, 1.0]
    shown = {"random": "or less", "heuristic": "or more", "heuristic:defend=false": " to "}
    for i, r in enumerate(data["ratings"]):
        lo, hi = r["rating_95ci"]
        assert lo < hi and lo <= r["rating"] <= hi
        row = [f"<td>{i + 1}</td><td><code>{r['bot']}</code></td>"]
        text = re.search(
            re.escape("".join(row)) + r"<td class=num>\d+</td><td class=num>([^<]+)<", html
        )
        assert text is not None and shown[r["bot"]] in text.group(1)
        assert f"{r['rating']:.0f} to {r['rating']:.0f}" not in text.group(1)
        row.append(cell(f"{r['rating']:.0f}") + cell(text.group(1)))
        row += [cell("-" if o == r["bot"] else pct(scores[(r["bot"], o)])) for o in order]
        assert "".join(row) in html


def test_the_same_input_gives_the_same_files(inputs: dict[str, Path], tmp_path: Path) -> None:
    report(inputs["per_game"], "-o", tmp_path / "a")
    report(inputs["per_game"], "-o", tmp_path / "b")
    for f in (tmp_path / "a").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name


def test_the_default_folder_is_named_after_the_input(
    inputs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    report(inputs["tournament"])
    assert (tmp_path / "cup-report" / "index.html").is_file()


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def damaged(tmp_path: Path, inputs: dict[str, Path]) -> dict[str, tuple[Any, str]]:
    sim = json.loads(inputs["totals"].read_text())
    sweep = json.loads(inputs["sweep2"].read_text())
    cup = json.loads(inputs["tournament"].read_text())
    # A game's record: JSON from ratgames, but not a result.
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    state = play_game(game, [make_bot(game, "random", seed=s) for s in range(2)], seed=1)
    record = state.record()
    return {
        "list": ([1, 2, 3], "is a JSON list but not a result ratgames can report on"),
        "record": (record, "is JSON but not a result ratgames can report on (its keys: "),
        "no-entrants": (
            {**sim, "entrants": []},
            "looks like a simulation (ratgames simulate --json) but is damaged: entrants:",
        ),
        "bad-rate": (
            {**sim, "entrants": [{**sim["entrants"][0], "win_rate": "lots"}]},
            "entrants.0.win_rate: Input should be a valid number",
        ),
        "seats": (
            {**sim, "seat_win_rates": [0.5]},
            "seat_win_rates has 1 entries for 2 players",
        ),
        "sweep-runs": ({**sweep, "runs": "none"}, "damaged: runs: Input should be a valid list"),
        "cup": (
            {**cup, "pairings": [{**cup["pairings"][0], "bots": ["random", "ghost"]}]},
            "ghost has no rating",
        ),
    }


def test_bad_input_is_refused_in_one_line_with_exit_code_2(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run_main(capsys, "report", str(tmp_path / "missing.json"))
    assert code == 2 and "does not exist" in err and "Traceback" not in err
    text = tmp_path / "notes.json"
    text.write_text("win rates: high\n")
    code, err = run_main(capsys, "report", str(text))
    assert code == 2 and "is not valid JSON (line 1, column 1" in err
    binary = tmp_path / "image.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    code, err = run_main(capsys, "report", str(binary))
    assert code == 2 and "not a text file" in err
    for name, (obj, message) in damaged(tmp_path, inputs).items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(obj))
        code, err = run_main(capsys, "report", str(path), "-o", str(tmp_path / "out"))
        assert code == 2, name
        assert message in " ".join(err.split()), (name, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    # Nothing was written for a refused input.
    assert not (tmp_path / "out").exists()
    code, err = run_main(capsys, "report")
    assert code == 2 and "Missing argument" in err


def test_one_bad_input_among_good_ones_is_named(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "empty.json"
    bad.write_text("{}")
    code, err = run_main(capsys, "report", str(inputs["sweep2"]), str(bad), "-o", str(tmp_path))
    assert code == 2 and f"{bad} is JSON but not a result" in " ".join(err.split())


def test_load_input_tells_the_kind(inputs: dict[str, Path]) -> None:
    kinds = {name: load_input(path).kind for name, path in inputs.items()}
    assert kinds == {
        "per_game": "simulation",
        "totals": "simulation",
        "sweep2": "sweep",
        "sweep3": "sweep",
        "tournament": "tournament",
    }
    with pytest.raises(ReportInputError, match="does not exist"):
        load_input(Path("/nonexistent/x.json"))


def test_without_matplotlib_the_command_says_what_to_install(
    inputs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    target = tmp_path / "report"
    result = CliRunner().invoke(app, ["report", str(inputs["totals"]), "-o", str(target)])
    assert result.exit_code == 2
    assert "install ratgames[report]" in result.output
    assert not target.exists()


def test_only_the_report_imports_matplotlib() -> None:
    code = (
        "import sys, ratgames, ratgames.cli, ratgames.sim, ratgames.tournament, ratgames.report\n"
        "import ratgames.report.cli, ratgames.report.data\n"
        "ratgames.cli.app.get_command(None, 'report')\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
        "import ratgames.report.plots\n"
        "assert 'matplotlib' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def tournament_json(points: dict[tuple[str, str], tuple[float, float]], deals: int) -> Any:
    """A tournament's JSON with these pairings' points (two games a deal), its ratings and
    intervals as ratgames tournament computes them."""
    from ratgames.tournament import TournamentResult, bootstrap_intervals, bradley_terry

    bots = list(dict.fromkeys(b for pair in points for b in pair))
    result = TournamentResult("caged-rats", 2, {}, bots, 2 * deals)
    for pair, (sa, _) in points.items():
        share = sa / (2 * deals)
        result.outcomes[pair] = [share] * (2 * deals)
        result.scores[pair] = (sa, 2 * deals - sa)
    result.ratings = bradley_terry(bots, result.scores)
    result.intervals, result.score_intervals = bootstrap_intervals(result)
    return result.to_json()


def test_a_perfect_record_gets_a_real_rating_interval(tmp_path: Path) -> None:
    deals = 5
    obj = tournament_json(
        {("a", "b"): (10.0, 0.0), ("a", "c"): (10.0, 0.0), ("b", "c"): (5.0, 5.0)}, deals
    )
    new = {r["bot"]: r["rating_95ci"] for r in obj["ratings"]}
    # As files written before the tournament widened them: a perfect record's interval is a
    # point, and the pairings the bots won or lost on every deal add no doubt to the others'.
    for r in obj["ratings"]:
        if r["bot"] == "a":
            r["rating_95ci"] = [r["rating"], r["rating"]]
        else:
            r["rating_95ci"] = [r["rating"] - 30, r["rating"] + 30]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(obj))
    t = load_input(path).data
    ratings = {r["bot"]: r for r in obj["ratings"]}
    got = t.rating_intervals()  # type: ignore[union-attr]
    assert got["a"][0] == pytest.approx(new["a"][0], abs=0.1)  # as the tournament now does
    lo, hi = got["a"]
    assert lo < ratings["a"]["rating"] - 100 and hi == float("inf")
    # b lost every deal to a: its interval reaches a's score at the low end of its interval.
    lo, hi = got["b"]
    file_lo, file_hi = ratings["b"]["rating_95ci"]
    assert lo <= file_lo and file_hi + 50 < hi < float("inf")
    # Where every pairing had doubt, the file's interval stands.
    obj = tournament_json(
        {("a", "b"): (7.0, 3.0), ("a", "c"): (6.0, 4.0), ("b", "c"): (5.0, 5.0)}, deals
    )
    path.write_text(json.dumps(obj))
    t = load_input(path).data
    assert t.rating_intervals() == {  # type: ignore[union-attr]
        r["bot"]: tuple(r["rating_95ci"]) for r in obj["ratings"]
    }


def svg_root(path: Path) -> str:
    import xml.etree.ElementTree as ET

    return ET.parse(path).getroot().tag


@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_vector_formats_for_papers(inputs: dict[str, Path], tmp_path: Path, fmt: str) -> None:
    for folder in ("a", "b"):
        result = report(
            inputs["per_game"], inputs["tournament"], "-o", tmp_path / folder, "--format", fmt
        )
        assert f".{fmt}: " in result.output and ".png" not in result.output
    made = sorted((tmp_path / "a").glob(f"*.{fmt}"))
    assert len(made) == 6 and not list((tmp_path / "a").glob("*.png"))
    html = (tmp_path / "a" / "index.html").read_text()
    for f in made:
        if fmt == "svg":
            assert svg_root(f) == "{http://www.w3.org/2000/svg}svg"
            assert f'<img src="{f.name}"' in html
        else:
            assert f.read_bytes().startswith(b"%PDF-")
            assert f'<object data="{f.name}" type="application/pdf"' in html
        # No date in the file: the same input gives the same bytes.
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name


def test_dpi_sets_the_png_resolution(inputs: dict[str, Path], tmp_path: Path) -> None:
    sizes = {}
    for dpi in ("75", "300"):
        report(inputs["totals"], "-o", tmp_path / dpi, "--dpi", dpi)
        with Image.open(tmp_path / dpi / "win-rates-by-bot.png") as image:
            sizes[dpi] = image.size
            assert round(image.info["dpi"][0]) == int(dpi)
    assert sizes["300"][0] == 4 * sizes["75"][0]
    report(inputs["totals"], "-o", tmp_path / "default")
    with Image.open(tmp_path / "default" / "win-rates-by-bot.png") as image:
        assert image.size[0] == 2 * sizes["75"][0]  # 150 dpi unless told


def test_bad_format_or_dpi_in_one_line(
    inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for args, message in [
        (["--format", "jpg"], "'jpg' is not one of 'png', 'svg', 'pdf'"),
        (["--dpi", "20"], "20 is not in the range 50<=x<=1200"),
        (["--dpi", "many"], "'many' is not a valid integer"),
    ]:
        code, err = run_main(capsys, "report", str(inputs["totals"]), "-o", str(tmp_path), *args)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "index.html").exists()
    with pytest.raises(ValueError, match="format must be one of png, svg, pdf"):
        from ratgames.report import build_report

        build_report([load_input(inputs["totals"])], tmp_path, format="gif")


def test_a_symmetric_sweep_marks_no_best_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --sweep-all and one bot, every seat takes the same value: the highest win rate
    is the luck of the deals, so neither the plots nor the page name a best value."""
    from matplotlib.axes import Axes

    path = tmp_path / "all.json"
    result = invoke(
        "simulate",
        "rat-a-tat-cat",
        "-o",
        "mode=round",
        "-w",
        "1",
        "-g",
        "6",
        "-b",
        "heuristic",
        "-b",
        "heuristic",
        "--sweep",
        "knock=4,9,14",
        "--sweep-all",
        "--json",
        path,
    )
    assert result.exit_code == 0, result.output
    markers: list[object] = []
    plot = Axes.plot

    def spy(self: Axes, *args: Any, **kwargs: Any) -> Any:
        markers.append(kwargs.get("marker"))
        return plot(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "plot", spy)
    report(path, "-o", tmp_path / "r")
    html = (tmp_path / "r" / "index.html").read_text()
    assert "*" not in markers and "o" in markers
    assert "Best knock" not in html and "no value is best" in html
    assert "--sweep-all" in html
    # Two of them overlaid: no stars either, and no best value in the table.
    markers.clear()
    report(path, path, "-o", tmp_path / "two")
    html = (tmp_path / "two" / "index.html").read_text()
    assert "*" not in markers and "none: every seat takes the same value" in html
    # A sweep of one seat still marks its best value.
    markers.clear()
    sweep = tmp_path / "one.json"
    result = invoke(
        "simulate",
        "rat-a-tat-cat",
        "-o",
        "mode=round",
        "-w",
        "1",
        "-g",
        "6",
        "-b",
        "heuristic",
        "-b",
        "heuristic",
        "--sweep",
        "knock=4,9,14",
        "--json",
        sweep,
    )
    assert result.exit_code == 0, result.output
    report(sweep, "-o", tmp_path / "one")
    assert "*" in markers


def test_one_colour_per_kind_of_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib.axes import Axes

    path = tmp_path / "dup.json"
    result = invoke(
        "simulate",
        "rats",
        "-n",
        "4",
        "-w",
        "1",
        "-g",
        "8",
        "-b",
        "heuristic",
        "-b",
        "random",
        "-b",
        "random",
        "-b",
        "random",
        "--json",
        path,
        "--per-game",
    )
    assert result.exit_code == 0, result.output
    bars: list[list[str]] = []
    barh = Axes.barh

    def spy(self: Axes, *args: Any, **kwargs: Any) -> Any:
        bars.append(list(kwargs["color"]))
        return barh(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "barh", spy)
    report(path, "-o", tmp_path / "r")
    by_bot = bars[0]  # the first plot: win rate by bot
    assert len(by_bot) == 4 and by_bot[0] != by_bot[1] and len(set(by_bot[1:])) == 1
