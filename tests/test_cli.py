"""The command line: listings, errors in one line with exit code 2, simulation, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ratgames
from ratgames.cli import LogProgress, app, expand_multi_values, main
from ratgames.core import make_bot, play_game


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    for gid in ratgames.game_ids():
        assert gid in out


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_rules_and_bots_for_every_game(capsys: pytest.CaptureFixture[str], game_id: str) -> None:
    code, out, _ = run(capsys, "rules", game_id)
    assert code == 0
    for spec in ratgames.get_game(game_id).option_specs:
        assert spec.name in out
    code, out, _ = run(capsys, "bots", game_id)
    assert code == 0 and "random" in out
    # Search takes turns: it is offered for turn-based games only.
    assert ("ismcts" in out) == (not ratgames.get_game(game_id).real_time)
    assert "Levels for" in out and "expert =" in " ".join(out.split())


def test_search_bots_are_refused_for_real_time_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "egyptian-ratscrew", "-g", "2", "-b", "ismcts", "random")
    assert code == 2 and "unknown bot 'ismcts' for egyptian-ratscrew" in err


def test_b_takes_several_bots_like_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "simulate", "test-high-card", "-g", "4", "-w", "1", "-b", "highest", "lowest"
    )
    assert code == 0, err
    assert "highest" in out and "lowest" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "chess"], "unknown game 'chess'"),
        (["simulate", "test-high-card", "--games", "0"], "--games must be at least 1"),
        (["simulate", "test-high-card", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["simulate", "test-high-card", "-o", "turns=1000"], "option 'turns'"),
        (["simulate", "test-high-card", "-o", "turns"], "not of the form name=value"),
        (["simulate", "test-high-card", "--players", "9"], "2 to 3 players"),
        (["simulate", "test-high-card", "--frobnicate"], "No such option"),
        (["replay", "/no/such/file.json"], "cannot read record"),
        (["play", "test-high-card", "--seat", "5"], "--seat must be from 1 to 2"),
        (["tournament", "test-high-card", "--bots", "random"], "at least two different bots"),
        (["simulate", "test-high-card", "-w", "0"], "--workers must be at least 1"),
        (["tournament", "test-high-card", "-b", "random", "highest", "-w", "0"], "--workers must"),
        (["tournament", "test-high-card", "-b", "random", "highest", "-w", "-3"], "--workers must"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_bots_take_several_values_after_one_flag() -> None:
    assert expand_multi_values(["simulate", "rats", "--bots", "a", "b:x=1,y=2", "--seed", "1"]) == [
        "simulate",
        "rats",
        "--bots",
        "a",
        "--bots",
        "b:x=1,y=2",
        "--seed",
        "1",
    ]


def test_simulate_reports_and_writes_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "sim.json"
    code, out, _ = run(
        capsys,
        "simulate",
        "test-high-card",
        "--games",
        "40",
        "--bots",
        "highest",
        "random",
        "-o",
        "turns=6",
        "--workers",
        "2",
        "--json",
        str(out_file),
    )
    assert code == 0
    assert "win rate" in out and "95% CI" in out and "games/s" in out and "Safety cap" in out
    data = json.loads(out_file.read_text())
    assert data["games"] == 40
    highest, rnd = data["entrants"]
    assert highest["bot"] == "highest" and highest["win_rate"] > rnd["win_rate"]
    lo, hi = highest["win_rate_95ci"]
    assert lo <= highest["win_rate"] <= hi


def test_simulate_sweep_gives_one_row_per_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "test-high-card",
        "--games",
        "10",
        "--bots",
        "ismcts",
        "random",
        "-o",
        "turns=4",
        "--sweep",
        "iterations=2,20",
        "--workers",
        "1",
    )
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("\u2502")]
    assert len(rows) == 2, out
    assert rows[0].split()[1] == "2" and rows[1].split()[1] == "20"


@pytest.fixture
def no_tty_override(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No environment variable that makes Rich take a pipe for a terminal."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_simulate_off_a_terminal_reports_progress_in_plain_lines_on_stderr(
    no_tty_override: pytest.MonkeyPatch,
) -> None:
    """CliRunner's stderr is no terminal: progress comes as log lines, the results as before."""
    args = "simulate test-high-card -g 40 -w 1 -b highest -b random -o turns=6"
    logged = CliRunner().invoke(app, args)
    assert logged.exit_code == 0, logged.output
    assert "\x1b" not in logged.stderr
    lines = logged.stderr.splitlines()
    assert lines[0] == "test-high-card simulation: 0/40 games (0%), 0:00:00 elapsed"
    assert [line.split()[2] for line in lines] == [f"{4 * i}/40" for i in range(11)]
    assert "(50%)" in lines[5] and "elapsed, about" in lines[5]
    assert lines[-1].startswith("test-high-card simulation: 40/40 games (100%), ")
    # The same run with the bar (as on a terminal) prints the same results.
    no_tty_override.setenv("TTY_INTERACTIVE", "1")
    with_bar = CliRunner().invoke(app, args)
    assert with_bar.exit_code == 0, with_bar.output
    assert "\u2501" in with_bar.stderr and "simulation:" not in with_bar.stderr

    def results(out: str) -> list[str]:
        return [line for line in out.splitlines() if "games/s" not in line]

    assert "win rate" in logged.stdout and "simulation:" not in logged.stdout
    assert results(logged.stdout) == results(with_bar.stdout)


def test_tournament_off_a_terminal_reports_progress_in_plain_lines_on_stderr(
    no_tty_override: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = f"tournament test-high-card -g 4 -w 1 -b highest -b lowest --out {tmp_path / 't'}"
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "test-high-card tournament: 0/4 games (0%), 0:00:00 elapsed"
    assert lines[-1].startswith("test-high-card tournament: 4/4 games (100%), ")
    assert "Saved" in result.stdout and "tournament:" not in result.stdout


def test_log_progress_reports_every_tenth_and_between_them_every_30_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    now = [0.0]
    progress = LogProgress(every=30, clock=lambda: now[0])
    with progress:
        task = progress.add_task("rats simulation", total=2000)
        for _ in range(270):  # a game every 0.5 s
            now[0] += 0.5
            progress.advance(task, 1)
    assert capsys.readouterr().err.splitlines() == [
        "rats simulation: 0/2000 games (0%), 0:00:00 elapsed",
        "rats simulation: 60/2000 games (3%), 0:00:30 elapsed, about 0:16:10 left",
        "rats simulation: 120/2000 games (6%), 0:01:00 elapsed, about 0:15:40 left",
        "rats simulation: 180/2000 games (9%), 0:01:30 elapsed, about 0:15:10 left",
        "rats simulation: 200/2000 games (10%), 0:01:40 elapsed, about 0:15:00 left",
        "rats simulation: 260/2000 games (13%), 0:02:10 elapsed, about 0:14:30 left",
    ]


def test_tournament_progress_tells_the_time_left_from_the_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With the share of the work done given (a tournament weighs each pairing's games by its
    pace), the time left comes from it, not from the games: a third of the games played by
    quick pairings is not a third of the run."""
    now = [0.0]
    progress = LogProgress(every=30, clock=lambda: now[0])
    with progress:
        task = progress.add_task("rats tournament", total=300)
        now[0] = 45.0
        progress.update(task, work=0.05)
        progress.advance(task, 100)
    assert capsys.readouterr().err.splitlines()[-1] == (
        "rats tournament: 100/300 games (33%), 0:00:45 elapsed, about 0:14:15 left"
    )


def test_replay_text_steps_through_a_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = play_game(game, [make_bot(game, "random", seed=1)] * 2, seed=5)
    path = tmp_path / "game.json"
    ratgames.save_record(state.record(), path)
    code, out, _ = run(capsys, "replay", str(path), "--text", "--seat", "1")
    assert code == 0
    assert "The deal (step 0 of" in out and "Game over" in out
    broken = json.loads(path.read_text())
    broken["events"][0]["action"] = "fly away"
    path.write_text(json.dumps(broken))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "does not replay" in err


# --- play: set-up, saving and resuming through the command line ------------------------------


@pytest.fixture
def no_screen(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """``PlayApp.run`` that plays a few moves and leaves at once (no terminal needed)."""
    from ratgames.tui.play import PlayApp

    apps: list[object] = []

    def run(self: PlayApp) -> None:
        apps.append(self)
        for _ in range(3):
            seat = self.state.seats_to_act()[0]
            self.state.apply(seat, self.state.legal_actions(seat)[0])

    monkeypatch.setattr(PlayApp, "run", run)
    return apps


def test_play_saves_an_unfinished_game_and_resume_takes_it_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, no_screen: list[object]
) -> None:
    home = ["--record-dir", str(tmp_path)]
    code, out, err = run(capsys, "play", "rat-a-tat-cat", "-n", "3", "--level", "hard", *home)
    assert code == 0, err
    assert "Game saved: " in out and "ratgames play --resume" in out
    [path] = tmp_path.glob("rat-a-tat-cat-*.json")
    data = json.loads(path.read_text())
    assert data["outcome"] is None and data["play"]["level"] == "hard"
    assert data["seats"][0]["player"] == "human"
    assert data["seats"][1]["player"].startswith("pimc:")
    code, out, err = run(capsys, "play", "--resume", *home)
    assert code == 0, err
    assert f"Resuming Rat-a-Tat Cat from {path}" in err
    resumed = no_screen[-1]
    assert resumed.record_path == path  # type: ignore[attr-defined]
    assert resumed.level == "hard"  # type: ignore[attr-defined]
    assert len(json.loads(path.read_text())["events"]) > len(data["events"])
    assert list(tmp_path.glob("*.json")) == [path], "saved over its own record"
    # By file, and by game name.
    assert run(capsys, "play", "--resume", str(path), *home)[0] == 0
    assert run(capsys, "play", "rat-a-tat-cat", "--resume", *home)[0] == 0
    code, _, err = run(capsys, "play", "--resume", "rats", *home)
    assert code == 2 and f"no unfinished game of rats to resume in {tmp_path}" in err


def test_hot_seat_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, no_screen: list[object]
) -> None:
    code, _, err = run(
        capsys, "play", "rats", "--players", "3", "--people", "2", "--record-dir", str(tmp_path)
    )
    assert code == 0, err
    app = no_screen[-1]
    assert app.people == [0, 1] and app.names[:2] == ["Seat 1", "Seat 2"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--resume"], "no unfinished game to resume in"),
        (["play", "--resume", "nowhere.json"], "no record 'nowhere.json' to resume"),
        (["play", "--resume", "--bots", "random"], "leave out --bots"),
        (["play", "rats", "--resume", "--seed", "3"], "leave out --seed"),
        (["play"], "which game?"),
        (["play", "rats", "--people", "9"], "--people must be from 1 to 4"),
        (["play", "caged-rats", "--people", "2", "--bots", "random"], "no seat for --bots"),
        (
            ["play", "egyptian-ratscrew", "-n", "4", "--people", "3"],
            "at most 1 person(s) at one keyboard",
        ),
        (["play", "rats", "--pace", "-1"], "--pace"),
        (["simulate", "rats", "-g", "2", "-b", "ismcts:c=nan"], "option 'c'"),
        (["simulate", "rats", "-g", "2", "-b", "pimc:confidence=nan"], "option 'confidence'"),
        (["simulate", "rats", "-g", "2", "--per-game"], "give --json FILE too"),
        (["stats"], "no records in"),
    ],
)
def test_play_and_other_mistakes_are_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    code, out, err = run(capsys, *args)
    assert code == 2, out + err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_play_refuses_a_record_folder_it_cannot_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(capsys, "play", "rats", "--record-dir", str(blocker / "records"))
    assert code == 2 and "cannot write to" in err and "--record-dir" in err


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_an_unwritable_output_fails_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    flag = {"simulate": "--json", "tournament": "--out"}[command]
    args = [command, "test-high-card", "-g", "2", "-w", "1", "-b", "highest", "lowest"]
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(capsys, *args, flag, str(blocker / "x"))
    assert code == 2 and "cannot write to" in err and flag in err
    assert "games (" not in err, "nothing was played"


def test_simulate_json_to_a_folder_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "simulate", "test-high-card", "-g", "2", "--json", str(tmp_path))
    assert code == 2 and "is a directory" in err and "games (" not in err


def test_simulate_says_which_bot_sits_where_and_keeps_games_when_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "sim.json"
    code, out, _ = run(
        capsys,
        "simulate",
        "test-high-card",
        "-n",
        "3",
        "-g",
        "6",
        "-w",
        "1",
        "-b",
        "highest",
        "random",
        "--json",
        str(out_file),
        "--per-game",
    )
    assert code == 0
    said = " ".join(out.split())
    assert "Bots by seat in the first game: highest, random, random" in said
    assert "(the last of the 2 bots given fills the other seats)" in said
    data = json.loads(out_file.read_text())
    assert len(data["per_game"]) == 6 and data["seat_bots"] == ["highest", "random", "random"]


@pytest.mark.parametrize("sweep", ["knock", "knock=", "knock=,,", "=4,8"])
def test_a_sweep_without_a_parameter_or_values_is_refused(
    capsys: pytest.CaptureFixture[str], sweep: str
) -> None:
    args = ["simulate", "rat-a-tat-cat", "-n", "2", "-g", "2", "-w", "1", "--sweep", sweep]
    code, _, err = run(capsys, *args)
    assert code == 2 and "--sweep takes the form param=value1,value2,..." in err


def test_the_sweep_table_fits_80_columns_with_plain_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    from rich.console import Console

    from ratgames.cli import runs

    monkeypatch.setattr(runs, "console", Console(width=80, force_terminal=False))
    args = ["simulate", "rat-a-tat-cat", "-n", "2", "-o", "mode=round", "-g", "4", "-w", "1"]
    code, out, _ = run(capsys, *args, "-b", "heuristic", "heuristic", "--sweep", "knock=4,8,12")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out and "_" not in out.replace("knock=", "")
    assert "knocker won" in out and "bots by seat: heuristic:knock=V, heuristic" in " ".join(
        out.split()
    )


def test_stats_reads_your_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from ratgames.tui.session import seat_entries

    game = ratgames.get_game("caged-rats")
    bots = [None, make_bot(game, "random", seed=1)]
    me_bot = make_bot(game, "random", seed=2)
    results = []
    for seed, level in ((1, "easy"), (2, "easy"), (3, "hard")):
        state = game.new_state(seed=seed)
        t = 0.0
        while not state.is_over():
            seat = state.seats_to_act()[0]
            bot = bots[seat] or me_bot
            t += 1.5
            state.apply(seat, bot.act(ratgames.SeatView(state, seat)), time=t)
        outcome = state.outcome()
        assert outcome is not None
        results.append((outcome.places[0], 0 in outcome.winners))
        record = state.record(seat_entries(bots, ["You", "Bot"]), play={"level": level, "clock": t})
        ratgames.save_record(record, tmp_path / f"caged-rats-{seed}.json")
    unfinished = game.new_state(seed=9)
    ratgames.save_record(unfinished.record(seat_entries(bots, ["You", "Bot"])), tmp_path / "u.json")
    (tmp_path / "junk.json").write_text("[1, 2")
    code, out, err = run(capsys, "stats", "--record-dir", str(tmp_path))
    assert code == 0, err
    wins = sum(1 for _, w in results if w)
    places = sum(p for p, _ in results) / 3
    row = next(line for line in out.splitlines() if "Caged Rats" in line and "│" in line)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells[:5] == ["Caged Rats", "3", str(wins), f"{100 * wins / 3:.1f}%", f"{places:.2f}"]
    assert "easy" in out and "hard" in out
    assert "Unfinished: Caged Rats 1" in out and "1 file(s)" in out
    # The same figures from Python.
    from ratgames.stats import record_stats

    found = record_stats(tmp_path)
    tally = found.by_game["caged-rats"]
    assert (tally.games, tally.wins, tally.mean_place()) == (3, wins, places)
    assert found.unfinished == {"caged-rats": 1} and found.unreadable == 1
    assert found.hot_seat == 0 and found.played["caged-rats"] > 0
    assert sorted(level for _, _, level in found.by_setup) == ["easy", "hard"]


@pytest.mark.parametrize("game_id", ["rats", "egyptian-ratscrew"])
def test_plain_play_is_the_normal_level(game_id: str) -> None:
    """'ratgames play GAME' with neither --level nor --bots plays (and records) the normal
    level, so that stats counts it there and not under "own bots"."""
    from ratgames.cli.play import _new_app
    from ratgames.levels import level_bot

    app_ = _new_app(game_id, None, (), (), 1, 1, 1, None, 0.6)
    assert app_.level == "normal"
    game = ratgames.get_game(game_id)
    normal = make_bot(game, level_bot(game_id, "normal")).describe()
    assert [b.describe() for b in app_.bots[1:]] == [normal] * (game.players - 1)
    chosen = _new_app(game_id, None, ("random",), (), 1, 1, 1, None, 0.6)
    assert chosen.level is None  # the player's own bots


def test_stats_files_games_under_their_level(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A record names its level; one written without (plain 'ratgames play GAME' before it
    named "normal") is filed under the level whose bot sat in every bot seat; other bots are
    "own bots".  A time too large for a float counts as no time, not as an error."""
    from ratgames.tui.session import seat_entries

    game = ratgames.get_game("caged-rats")
    for seed, spec, play in (
        (1, "heuristic", {"level": "normal"}),
        (2, "heuristic", {}),
        (3, "ismcts:iterations=100,tree=1", {}),
        (4, "heuristic:ambition=6", {}),
    ):
        bots = [None, make_bot(game, spec, seed=1)]
        state = play_game(game, [make_bot(game, "random", seed=2), bots[1]], seed=seed)
        record = state.record(seat_entries(bots, ["You", "Bot"]), play=play)
        record["events"][0]["time"] = 10**400
        ratgames.save_record(record, tmp_path / f"caged-rats-{seed}.json")
    code, out, err = run(capsys, "stats", "--record-dir", str(tmp_path))
    assert code == 0, err
    rows = {
        cells[2]: cells[3]
        for line in out.split("By number of players")[1].splitlines()
        if len(cells := [c.strip() for c in line.split("│") if c.strip()]) > 3
    }
    assert rows == {"normal": "2", "hard": "1", "own bots": "1"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"{" + b'"a":' * 1 + b"9" * 5000 + b"}", "digits"),
    ],
)
def test_replay_of_a_corrupt_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(capsys, "replay", str(path), "--text")
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda r: r["events"].append({"chance": "reshuffle", "outcome": 3}),
        lambda r: r["events"][0].update(time="abc"),
        lambda r: r["events"][0].update(time=-5),
        lambda r: r.update(players=int("9" * 50)),
        lambda r: r["events"].insert(0, {"chance": "x", "outcome": ["ZZ"]}),
        lambda r: r["deal"].clear(),
        lambda r: r.update(events="all of them"),
        lambda r: r["events"][0].update(seat="0"),
        lambda r: r["events"][0].update(time=10**400),
        lambda r: r["events"][0].update(time=True),
    ],
)
def test_replay_of_a_corrupt_record_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, corrupt: Any
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = play_game(game, [make_bot(game, "random", seed=1)] * 2, seed=5)
    record = json.loads(json.dumps(state.record()))
    corrupt(record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    for args in (["replay", str(path), "--text"], ["play", "--resume", str(path)]):
        code, out, err = run(capsys, *args)
        assert code == 2, (args, out, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_replay_of_an_unfinished_game_says_it_can_be_resumed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    state = game.new_state(seed=2)
    for _ in range(3):
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    path = ratgames.save_record(state.record(), tmp_path / "open.json")
    code, out, err = run(capsys, "replay", str(path), "--text")
    assert code == 0, err
    assert "Step 3 of 3" in out and "left unfinished here" in " ".join(out.split())


def test_the_bar_estimates_the_time_left_from_the_whole_run() -> None:
    """Games finish in chunks: a burst is not a change of pace (rich's own estimate, from the
    last seconds, said 0:00:11 left at 34% of a 7.5 minute run)."""
    from rich.progress import Progress

    from ratgames.cli import SteadyTimeLeft

    now = [0.0]
    progress = Progress(SteadyTimeLeft(), get_time=lambda: now[0], auto_refresh=False)
    task = progress.add_task("run", total=1000)
    column = SteadyTimeLeft()
    assert column.render(progress.tasks[task]).plain == "-:--:-- left"
    now[0] = 150.0
    progress.advance(task, 300)
    now[0] = 151.0
    progress.advance(task, 40)  # a burst: 40 games in a second
    assert column.render(progress.tasks[task]).plain == "about 0:04:53 left"


def test_a_long_run_on_the_python_modules_suggests_the_compiled_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ratgames import compiled
    from ratgames.cli import backends

    args = ["simulate", "caged-rats", "-o", "single_deal=true", "-g", "4", "-w", "1"]
    monkeypatch.setattr(compiled, "active", None)
    monkeypatch.delenv("RATGAMES_COMPILED", raising=False)
    tip = "Tip: the compiled engine plays these games about twice as fast"
    assert tip not in CliRunner().invoke(app, args).output  # a short run says nothing
    monkeypatch.setattr(backends, "COMPILE_HINT_SECONDS", 0.0)
    shown = CliRunner().invoke(app, args)
    assert shown.exit_code == 0 and tip in " ".join(shown.output.split())
    assert "'ratgames compile build'" in " ".join(shown.output.split())
    monkeypatch.setenv("RATGAMES_COMPILED", "off")  # turned off on purpose: no tip
    assert tip not in " ".join(CliRunner().invoke(app, args).output.split())
    monkeypatch.delenv("RATGAMES_COMPILED")
    monkeypatch.setattr(compiled, "active", compiled.cache_root())  # already compiled
    assert tip not in " ".join(CliRunner().invoke(app, args).output.split())


# --- the server's commands: bad input in one line, exit code 2 ---------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "99999"], "99999 is not in the range 1<=x<=65535"),
        (["serve", "--port", "-1"], "-1 is not in the range 1<=x<=65535"),
        (["serve", "--db", "FILE/x.db"], "FILE is a file, not a folder"),
        (["serve", "--db", "."], "is a folder: give the database file"),
        (["serve", "--db", "mysql://x/y"], "unsupported database URL"),
        (["serve", "--host", "no-such-host.invalid"], "cannot listen on 'no-such-host.invalid'"),
        (["serve", "--log-level", "loud"], "'loud' is not one of 'critical'"),
        (["serve", "--workers", "0"], "0 is not in the range x>=1"),
        (["export", "--db", "FILE/x.db"], "FILE is a file, not a folder"),
        (["export", "--db", "no/such/dir/db.sqlite"], "there is no database at"),
        (["export"], "(the default): no server has stored a game here yet"),
        (["db", "upgrade", "--db", "FILE/x.db"], "FILE is a file, not a folder"),
        (["serve", "--db", "NOTDB"], "file is not a database"),
        (["serve", "--db", "typo/x.db"], "typo does not exist (make it first"),
        (["db", "upgrade", "--db", "typo/x.db"], "typo does not exist (make it first"),
    ],
)
def test_server_commands_refuse_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path / "home"))
    (tmp_path / "FILE").write_text("a file\n")
    (tmp_path / "NOTDB").write_text("not a database, " * 100)
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for made in ("no", "home", "typo"):
        assert not (tmp_path / made).exists(), "nothing is made"


def test_serve_refuses_a_port_in_use(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = str(tmp_path / "s.db")
        code, _, err = run(capsys, "serve", "--port", str(port), "--db", db)
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}: Address already in use" in err
    assert f"try --port {port + 1}" in err and len(err.strip().splitlines()) == 1


class _Tables:
    """A stand-in for a server's REST API: one finished table (DONE), one open table (OPEN)
    whose seat can be joined but whose WebSocket is not there, no other."""

    def __enter__(self) -> str:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path in ("/api/tables/DONE", "/api/tables/OPEN"):
                    code = self.path.rpartition("/")[2]
                    finished = code == "DONE"
                    status, body = (
                        200,
                        {
                            "code": code,
                            "game": "caged-rats",
                            "players": 2,
                            "options": {},
                            "status": "finished" if finished else "lobby",
                            "record_id": 7 if finished else None,
                            "next_table": None,
                        },
                    )
                else:
                    code = self.path.rpartition("/")[2]
                    status, body = 404, {"detail": f"no table has the code {code!r}"}
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                data = json.dumps({"table": {}, "seat": 1, "token": "t0ken"}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("command", ["join", "bot"])
def test_join_and_bot_exit_2_with_one_line_and_the_next_command(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    """An unknown table, an unreachable server and a finished table are bad input: exit code
    2 with one line, which for a finished table says what can still be done."""
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    with _Tables() as where:
        code, _, err = run(capsys, command, "NOPE", "--server", where)
        assert code == 2 and "no table has the code 'NOPE' at http://" in err
        assert "check the code" in err and len(err.strip().splitlines()) == 1
        code, _, err = run(capsys, command, "DONE", "--server", where)
        assert code == 2 and "the game at table DONE is over" in err
        assert len(err.strip().splitlines()) == 1
        assert "/api/records/7" in err and "ratgames replay FILE" in err
        if command == "join":
            assert f"'ratgames join http://{where}/t/DONE --watch'" in err
    code, _, err = run(capsys, command, "ABCDEF", "--server", "127.0.0.1:9")
    assert code == 2 and "cannot reach a server at http://127.0.0.1:9" in err
    assert "--server HOST:PORT" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("verbose", [False, True])
def test_serve_starts_quietly_unless_asked(tmp_path: Path, verbose: bool) -> None:
    """A start says in one line where the server listens; -v shows the start steps (but not
    Alembic's list of plugins)."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    command = [sys.executable, "-c", "from ratgames.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(tmp_path / "s.db"), "--workers", "1"]
    command += ["-v"] if verbose else []
    env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90  # a start on a busy machine may take a while
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                    break
            except OSError:
                assert process.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    # Python's multiprocessing resource tracker (its own process, not the server's output) may
    # report semaphores of the search workers left at a stop under load: not the server's line.
    lines = [line for line in err.strip().splitlines() if "resource_tracker" not in line]
    assert (
        lines[0]
        == f"ratgames server on http://127.0.0.1:{port}/ (database sqlite:///{tmp_path / 's.db'})"
    )
    if verbose:
        assert any("Application startup complete" in line for line in lines)
        assert not any("setup plugin" in line for line in lines)
    else:
        assert lines == lines[:1], err


def _output_commands(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    """Each command's output option: (the command without it, the option)."""
    sim = ["simulate", "test-high-card", "-g", "2", "-w", "1", "-b", "highest", "lowest"]
    tour = ["tournament", "test-high-card", "-g", "2", "-w", "1", "-b", "highest", "lowest"]
    return {
        "simulate --json": (sim, "--json"),
        "simulate --checkpoint": (sim, "--checkpoint"),
        "tournament --out": (tour, "--out"),
        "hunt --json": (["hunt", "--deals", "10", "-w", "1", "--kernel", "python"], "--json"),
        "hunt --checkpoint": (["hunt", "--deals", "10", "-w", "1"], "--checkpoint"),
        "report --out": (["report", str(tmp_path / "sim.json")], "--out"),
        "export --out": (["export", "--db", str(tmp_path / "s.db")], "--out"),
        "play --record-dir": (["play", "rats"], "--record-dir"),
    }


@pytest.mark.parametrize("case", list(_output_commands(Path())))
def test_every_command_treats_output_paths_alike(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    """Every output path follows one rule, checked before any work: a file's (or a folder's)
    folder must exist (a mistyped path is refused, not made), and a path through a file is
    refused in words (not "File exists")."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path / "home"))
    if case.startswith("report"):
        code, _, err = run(capsys, "simulate", "test-high-card", "-g", "2", "-w", "1",
                           "--json", str(tmp_path / "sim.json"))  # fmt: skip
        assert code == 0, err
    if case.startswith("export"):
        code, _, err = run(capsys, "db", "upgrade", "--db", str(tmp_path / "s.db"))
        assert code == 0, err
    args, option = _output_commands(tmp_path)[case]
    (tmp_path / "empty.json").write_text("")
    for where, message in (
        ("typo/results.json", "the folder typo does not exist (make it first"),
        ("empty.json/results.json", "empty.json is a file, not a folder"),
    ):
        code, out, err = run(capsys, *args, option, where)
        assert code == 2, (out, err)
        assert f"cannot write to {where} ({option}): {message}" in err
        assert len(err.strip().splitlines()) == 1 and "File exists" not in err
        assert "games (" not in err and "deals" not in err, "nothing was played"
    assert not (tmp_path / "typo").exists()


def test_tournament_out_may_name_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--out FOLDER writes FOLDER/tournament-GAME.json and .md (not FOLDER.json beside it)."""
    args = ["tournament", "test-high-card", "-g", "2", "-w", "1", "-b", "highest", "lowest"]
    code, _, err = run(capsys, *args, "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "tournament-test-high-card.json").exists()
    assert (tmp_path / "tournament-test-high-card.md").exists()
    assert not tmp_path.with_suffix(".json").exists()


def test_bot_says_in_one_line_when_the_table_cannot_be_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat taken but a table connection refused (not bad input: exit code 1) is one line."""
    from ratgames.server.client import TableClient

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    monkeypatch.setattr(TableClient.connect, "__defaults__", (1.0,))  # not 30 s of retries
    with _Tables() as where:
        code, _, err = run(capsys, "bot", "OPEN", "--server", where)
    assert code == 1 and f"error: table OPEN at http://{where}: " in err, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("error: ")


def test_a_lazy_command_loads_its_own_module_only() -> None:
    """'ratgames compile status' (or serve, hunt, ...) imports no other lazy command's package:
    not the server, the hunt, the reports or the research APIs (numpy)."""
    code = (
        "import sys, click\n"
        "from ratgames.cli import app\n"
        "assert app.get_command(click.Context(app), 'compile') is not None\n"
        "loaded = [m for m in ('ratgames.server', 'ratgames.hunt', 'ratgames.report',\n"
        "                      'ratgames.rl', 'numpy') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
