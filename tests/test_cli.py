"""The command line: listings, errors in one line with exit code 2, simulation, replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ratgames
from ratgames.cli import expand_multi_values, main
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
