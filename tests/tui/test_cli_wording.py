"""What the command line says to a person about terminal play: no terminal, the resume hint in
the words the user typed, the games table, and help texts without markup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ratgames.cli import main
from ratgames.tui.play import PlayApp
from ratgames.tui.session import command


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_is_named_the_way_it_was_typed(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / ".venv").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'ratgames'\n")
    venv = str(checkout / ".venv")
    assert command({}) == "ratgames"
    assert command({"VIRTUAL_ENV": venv}) == "ratgames", "an activated environment: no uv"
    uv_run = {"UV_RUN_RECURSION_DEPTH": "1", "VIRTUAL_ENV": venv, "UV": "/usr/bin/uv"}
    assert command(uv_run) == "uv run ratgames"
    through_python = dict(uv_run, UV_INTERNAL__PARENT_INTERPRETER="/usr/bin/python3")
    assert command(through_python) == "python3 -m uv run ratgames"
    # uvx runs in an environment of its own, not beside a project: the command is ratgames.
    tool = tmp_path / "cache" / "archive" / "env"
    tool.mkdir(parents=True)
    assert command(dict(uv_run, VIRTUAL_ENV=str(tool))) == "ratgames"


def test_the_resume_hint_names_the_command_as_typed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".venv").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.setenv("UV_RUN_RECURSION_DEPTH", "1")
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / ".venv"))
    monkeypatch.setenv("UV_INTERNAL__PARENT_INTERPRETER", "/opt/python/bin/python3.12")

    def one_move(self: PlayApp, *args: object, **kwargs: object) -> None:
        seat = self.state.seats_to_act()[0]
        self.state.apply(seat, self.state.legal_actions(seat)[0])

    monkeypatch.setattr(PlayApp, "run", one_move)
    code, out, err = run(capsys, "play", "rats", "--record-dir", str(tmp_path / "records"))
    assert code == 0, err
    assert "Take it up again with: python3.12 -m uv run ratgames play --resume" in out
    monkeypatch.delenv("UV_RUN_RECURSION_DEPTH")
    code, out, err = run(capsys, "play", "rats", "--record-dir", str(tmp_path / "records"))
    assert code == 0, err
    assert "Take it up again with: ratgames play --resume" in out


@pytest.mark.parametrize("command_args", [["play", "rats"], ["play", "caged-rats", "--seed", "1"]])
def test_play_without_a_terminal_says_so_in_one_line(
    tmp_path: Path, command_args: list[str]
) -> None:
    env = dict(os.environ, RATGAMES_HOME=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-c", "from ratgames.cli import main; main()", *command_args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,  # the terminal app waiting for keys that never come would hang here
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines == [
        "error: ratgames play needs a terminal to play in, and its input is not a terminal"
    ], proc.stderr
    assert proc.stdout == ""
    assert not list(tmp_path.rglob("*.json")), "nothing ran, so nothing is saved"


def test_games_gives_one_player_count_where_there_is_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    row = next(line for line in out.splitlines() if "caged-rats" in line)
    cells = [c.strip() for c in row.split("│")]
    assert "2" in cells and "2-2" not in row
    rats = next(line for line in out.splitlines() if "│ rats " in line)
    assert "2-5" in rats


@pytest.mark.parametrize("name", ["export", "play", "replay", "rules", "games"])
def test_help_texts_show_no_markup(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, name, "--help")
    assert code == 0
    assert "``" not in out and ":mod:" not in out


NOTATION = {
    "rat-a-tat-cat": ["swap N P:M", "noswap", '"hands"'],
    "caged-rats": ["cage 5H 9D", "offer QH", '"dealer"'],
    "rats": ["discard 2C", "7H 7S", '"stock"'],
    "egyptian-ratscrew": ["slap@N", '"stacks"', "face_deal"],
}


@pytest.mark.parametrize("game_id", sorted(NOTATION))
def test_rules_speak_to_players_and_notation_is_asked_for(
    capsys: pytest.CaptureFixture[str], game_id: str
) -> None:
    code, out, _ = run(capsys, "rules", game_id)
    assert code == 0
    flat = " ".join(out.split())
    for written in NOTATION[game_id]:
        assert written not in flat, written
    assert f"ratgames rules {game_id} --notation" in flat
    code, out, _ = run(capsys, "rules", game_id, "--notation")
    assert code == 0
    flat = " ".join(out.split())
    for written in NOTATION[game_id]:
        assert written in flat, written
