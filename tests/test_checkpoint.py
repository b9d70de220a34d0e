"""Checkpoints of simulations and tournaments: a run stopped part way goes on from its checkpoint
and ends with the figures of a run never stopped; a checkpoint that does not fit is refused with
the reason."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ratgames.checkpoint import CheckpointError, RunCheckpoint
from ratgames.cli import app
from ratgames.sim import SimConfig, SimResult, simulate
from ratgames.tournament import pairing_configs, run_tournament

CONFIG = SimConfig("caged-rats", 2, {"single_deal": True}, ("heuristic", "random"), 60, seed=3)


def _figures(result: SimResult) -> dict[str, Any]:
    """A run's figures without its timing."""
    return {**result.to_json(), "seconds": 0, "games_per_second": 0}


class Stop(KeyboardInterrupt):
    """Ctrl-C, pressed by the test after some games."""


def _stop_after(games: int) -> Any:
    seen = 0

    def on_progress(k: int) -> None:
        nonlocal seen
        seen += k
        if seen >= games:
            raise Stop

    return on_progress


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("keep_games", [False, True])
def test_a_stopped_simulation_goes_on_to_the_figures_of_one_never_stopped(
    tmp_path: Path, workers: int, keep_games: bool
) -> None:
    whole = simulate(CONFIG, workers=1, keep_games=keep_games)
    path = tmp_path / "run.ckpt"
    checkpoint = RunCheckpoint.open(path, "simulate", [CONFIG], keep_games)
    with pytest.raises(Stop):
        simulate(
            CONFIG,
            workers=workers,
            keep_games=keep_games,
            on_progress=_stop_after(17),
            checkpoint=lambda r: checkpoint.save(CONFIG, r),
            checkpoint_every=3600,  # saved only when stopped
        )
    again = RunCheckpoint.open(path, "simulate", [CONFIG], keep_games)
    done = again.done(CONFIG)
    # One at a time, every game reported is counted; from the pool, the chunks before it.
    assert done == 17 if workers == 1 else 0 <= done < CONFIG.games
    start = again.start(CONFIG, keep_games)
    assert start is not None and start.games == done
    played: list[int] = []
    resumed = simulate(
        CONFIG,
        workers=workers,
        keep_games=keep_games,
        start=start,
        on_progress=played.append,
        checkpoint=lambda r: again.save(CONFIG, r),
    )
    assert sum(played) == CONFIG.games - done  # the saved games were not played again
    assert _figures(resumed) == _figures(whole)
    assert resumed.first_shares == whole.first_shares
    assert resumed.summaries == whole.summaries
    assert RunCheckpoint.open(path, "simulate", [CONFIG], keep_games).done(CONFIG) == CONFIG.games


def test_checkpoints_are_saved_as_the_run_goes(tmp_path: Path) -> None:
    saves: list[int] = []
    simulate(CONFIG, workers=1, checkpoint=lambda r: saves.append(r.games), checkpoint_every=0)
    assert saves == sorted(saves) and len(saves) > 10 and saves[-1] == CONFIG.games


def test_a_finished_run_takes_more_games() -> None:
    first = simulate(CONFIG, workers=1)
    more = SimConfig(**{**CONFIG.__dict__, "games": 90})
    state = json.loads(json.dumps(first.state()))
    longer = simulate(more, workers=2, start=SimResult.from_state(more, state))
    assert _figures(longer) == _figures(simulate(more, workers=1))


def test_the_state_is_written_exactly() -> None:
    result = simulate(CONFIG, workers=1, keep_games=True)
    back = SimResult.from_state(CONFIG, json.loads(json.dumps(result.state())), keep_games=True)
    assert back.state() == result.state()
    assert back == result


def _damaged(state: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    out = dict(state)
    if value is KeyError:
        del out[key]
    else:
        out[key] = value
    return out


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("games", -1, "'games' must be a whole number"),
        ("games", KeyError, "'games' must be a whole number"),
        ("games", 61, "do not add up"),
        ("seconds", "soon", "'seconds' must be a number"),
        ("entrants", [], "must list the 2 seats"),
        ("entrants", [["random", 60, 1, 2], ["random", 60, 1, 2]], "entrant 0 must be"),
        ("seat_wins", [1.0], "'seat_wins' must be 2 numbers"),
        ("detail_sums", {"x": "y"}, "'detail_sums'"),
        ("game_lengths", "AAAA", "'game_lengths' must hold 60 numbers"),
        ("first_shares", "not base64!", "'first_shares' must hold 60 numbers"),
        ("summaries", None, "kept no game-by-game results"),
        ("summaries", [{"entrants": [0, 1]}], "'summaries' must hold the 60 games"),
    ],
)
def test_a_damaged_state_is_refused_with_the_reason(key: str, value: object, says: str) -> None:
    state = simulate(CONFIG, workers=1, keep_games=True).state()
    with pytest.raises(ValueError, match=says):
        SimResult.from_state(CONFIG, _damaged(state, key, value), keep_games=True)


def test_a_checkpoint_that_does_not_fit_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    checkpoint = RunCheckpoint.open(path, "simulate", [CONFIG])
    checkpoint.save(CONFIG, simulate(CONFIG, workers=1))
    other = SimConfig(**{**CONFIG.__dict__, "seed": 4})
    fewer = SimConfig(**{**CONFIG.__dict__, "games": 59})
    cases: list[tuple[str, list[SimConfig], str]] = [
        ("tournament", [CONFIG], "checkpoint of a 'simulate' run, not of 'tournament'"),
        ("simulate", [other], r"a run of other settings \(caged-rats at 2 players, bots heuristic"),
        ("simulate", [fewer], "has 60 games of caged-rats .* more than the 59 asked"),
    ]
    for command, configs, says in cases:
        with pytest.raises(CheckpointError, match=says):
            RunCheckpoint.open(path, command, configs)
    data = json.loads(path.read_text())
    for change, says in [
        ({"format": "x"}, "not a ratgames run checkpoint"),
        ({"format_version": 9}, "version 9; this ratgames reads version 1"),
        ({"runs": {}}, "'runs' must be a list"),
        ({"runs": [{"settings": CONFIG.settings()}]}, "run 0 must hold settings and state"),
        ({"runs": [{"settings": CONFIG.settings(), "state": {}}]}, "'games' must be"),
    ]:
        path.write_text(json.dumps({**data, **change}))
        with pytest.raises(CheckpointError, match=says):
            RunCheckpoint.open(path, "simulate", [CONFIG])
    path.write_text("{not json")
    with pytest.raises(CheckpointError, match=r"not a checkpoint \(not JSON"):
        RunCheckpoint.open(path, "simulate", [CONFIG])


def test_a_stopped_tournament_goes_on_to_the_same_ratings(tmp_path: Path) -> None:
    bots = ["random", "heuristic", "heuristic:ambition=2"]
    kwargs: dict[str, Any] = {"players": 2, "options": {"single_deal": True}, "seed": 5}
    whole = run_tournament("caged-rats", bots, 30, workers=1, **kwargs)
    configs = [c for _, c in pairing_configs("caged-rats", bots, 30, **kwargs)]
    path = tmp_path / "t.ckpt"
    with pytest.raises(Stop):
        run_tournament(
            "caged-rats",
            bots,
            30,
            workers=1,
            on_progress=_stop_after(45),  # in the second pairing
            checkpoint=RunCheckpoint.open(path, "tournament", configs),
            **kwargs,
        )
    checkpoint = RunCheckpoint.open(path, "tournament", configs)
    # Each pairing's first deal (2 games) first, then the pairings in turn: 6 + 28 + 11 = 45.
    assert [checkpoint.done(c) for c in configs] == [30, 13, 2]
    resumed = run_tournament("caged-rats", bots, 30, workers=1, checkpoint=checkpoint, **kwargs)
    assert resumed.to_json() == whole.to_json()


def _words(text: str) -> str:
    """Output with its line breaks (wrapped to the terminal's width) as spaces."""
    return " ".join(text.split())


def _json_figures(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    runs = data.get("runs", [data])
    for run in runs:
        run["seconds"] = run["games_per_second"] = 0
    return dict(data)


def test_the_command_line_goes_on_from_a_checkpoint(tmp_path: Path) -> None:
    ckpt, first, more, fresh = (tmp_path / n for n in ("s.ckpt", "a.json", "b.json", "c.json"))
    base = ["simulate", "caged-rats", "-o", "single_deal=true", "-b", "heuristic", "-b", "random"]
    base += ["--sweep", "ambition=2,3", "-w", "1"]
    ok = CliRunner().invoke(
        app, [*base, "-g", "20", "--checkpoint", str(ckpt), "--json", str(first)]
    )
    assert ok.exit_code == 0, ok.output
    again = CliRunner().invoke(
        app, [*base, "-g", "50", "--checkpoint", str(ckpt), "--json", str(more)]
    )
    assert again.exit_code == 0, again.output
    assert "40 of 100 games already played" in _words(again.output)
    plain = CliRunner().invoke(app, [*base, "-g", "50", "--json", str(fresh)])
    assert plain.exit_code == 0, plain.output
    assert _json_figures(more) == _json_figures(fresh)
    refused = CliRunner().invoke(app, [*base, "-g", "10", "--checkpoint", str(ckpt)])
    assert refused.exit_code == 2
    assert "Invalid value for --checkpoint" in refused.output
    assert "more than the 10 asked: ask for 50 or more" in _words(refused.output)


def test_the_tournament_command_goes_on_from_a_checkpoint(tmp_path: Path) -> None:
    args = ["tournament", "caged-rats", "-o", "single_deal=true", "-b", "random", "-b", "heuristic"]
    args += ["-w", "1", "--checkpoint", str(tmp_path / "t.ckpt")]
    first = CliRunner().invoke(app, [*args, "-g", "10", "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    more = CliRunner().invoke(app, [*args, "-g", "24", "--out", str(tmp_path / "b")])
    assert more.exit_code == 0, more.output
    assert "10 of 24 games already played" in _words(more.output)
    fresh = CliRunner().invoke(app, [*args[:-2], "-g", "24", "--out", str(tmp_path / "c")])
    assert fresh.exit_code == 0, fresh.output
    assert (tmp_path / "b.json").read_text() == (tmp_path / "c.json").read_text()


def test_ctrl_c_saves_the_run_and_the_same_command_goes_on(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT to the command's process group, as a terminal sends it) while
    worker processes play: exit status 130, the games counted are saved, and the command run
    again plays only the rest."""
    ckpt = tmp_path / "run.ckpt"
    args = [sys.executable, "-c", "from ratgames.cli import main; main()", "simulate", "rats"]
    args += ["-b", "heuristic", "random"]
    args += ["-w", "2", "--checkpoint", str(ckpt), "--checkpoint-every", "0.1"]
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen(
        [*args, "-g", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not ckpt.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _out, errors = proc.communicate(timeout=60)
    assert proc.returncode == 130, errors
    assert f"Stopped: progress saved in {ckpt}; run the same command to go on." in _words(errors)
    assert "Traceback" not in errors
    done = json.loads(ckpt.read_text())["runs"][0]["state"]["games"]
    assert done > 0
    total = done + 50
    went_on = subprocess.run(
        [*args, "-g", str(total), "--json", str(tmp_path / "a.json")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    assert f"{done:,} of {total:,} games already played" in _words(went_on.stderr)
    fresh = subprocess.run(
        [*args[:-4], "-g", str(total), "--json", str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    assert fresh.returncode == 0
    assert _json_figures(tmp_path / "a.json") == _json_figures(tmp_path / "b.json")


def test_a_checkpoint_that_cannot_be_written_stops_the_run_with_the_reason(
    tmp_path: Path,
) -> None:
    (tmp_path / "a-file").write_text("")
    checkpoint = RunCheckpoint.open(tmp_path / "a-file" / "run.ckpt", "simulate", [CONFIG])
    with pytest.raises(CheckpointError, match=r"cannot write the checkpoint .*a-file/run\.ckpt"):
        simulate(CONFIG, workers=1, checkpoint=lambda r: checkpoint.save(CONFIG, r))
