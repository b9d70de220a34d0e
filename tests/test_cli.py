"""The command line: listings, errors in one line with exit code 2, simulation, replay."""

from __future__ import annotations

import json
from pathlib import Path

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
