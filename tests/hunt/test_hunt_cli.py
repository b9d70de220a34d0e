"""``ratgames hunt``: a run's report and JSON, resuming from a checkpoint, and one-line errors
for bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ratgames.cli import main
from ratgames.hunt import engine_figures, parse_deal, play
from ratgames.hunt import kernel as kernels

RECORD_2007 = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"


@pytest.fixture(autouse=True)
def own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A compiled kernel goes to the test's folder, never the user's cache."""
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(kernels, "_KERNELS", {})
    yield


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(["hunt", *args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_hunt_reports_the_longest_games_and_writes_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "hunt.json"
    code, out, err = run(
        capsys, "--deals", "3000", "-w", "1", "--kernel", "python", "--top", "3", "--json",
        str(out_file), "--seed", "5",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out_file.read_text())
    assert data["format"] == "ratgames-hunt" and data["complete"] is True
    assert data["deals"] == data["finished"] + data["cycles"] == 3000
    assert data["hunt"] == {"seed": 5, "near": None, "swaps": None, "top": 3}
    longest = data["longest"]
    assert len(longest) == 3
    assert [g["cards"] for g in longest] == sorted((g["cards"] for g in longest), reverse=True)
    for game in longest:
        figures = engine_figures(parse_deal(game["deal"]))
        assert (game["cards"], game["tricks"], game["winner"]) == (
            figures.cards,
            figures.tricks,
            figures.winner + 1,
        )
        first, second = game["deal"].split("/")
        assert first in out and second in out and f"{game['cards']:,}" in out
    assert data["command"] == "ratgames hunt --seed 5 --deals 3000 --top 3"
    assert "The 3 longest games" in out and "3,000 deals" in out
    assert "hunt: 3,000/3,000 deals" in err  # progress lines when stderr is not a terminal


def test_a_hunt_near_a_deal_reports_that_deal_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--near", RECORD_2007, "--swaps", "1", "--deals", "500", "-w", "1")
    assert code == 0, err
    assert f"Start deal {RECORD_2007}: 7,157 cards, 1,007 tricks" in " ".join(out.split())


def test_a_hunt_goes_on_from_its_checkpoint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "run.ckpt"
    base = ["--kernel", "python", "-w", "1", "--seed", "2", "--checkpoint", str(saved)]
    code, _, err = run(capsys, *base, "--deals", "4000", "--json", str(tmp_path / "a.json"))
    assert code == 0, err
    code, _, err = run(capsys, *base, "--deals", "9000", "--json", str(tmp_path / "b.json"))
    assert code == 0 and "Resuming from" in err and "4,000 deals done" in err
    code, _, err = run(
        capsys, "--kernel", "python", "-w", "1", "--seed", "2", "--deals", "9000", "--json",
        str(tmp_path / "c.json"),
    )  # fmt: skip
    resumed = json.loads((tmp_path / "b.json").read_text())
    whole = json.loads((tmp_path / "c.json").read_text())
    for key in ("deals", "cards", "tricks", "cycles", "longest", "first_player_wins"):
        assert resumed[key] == whole[key], key


def test_a_time_limit_stops_the_hunt(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, _ = run(
        capsys, "--seconds", "0.5", "--kernel", "python", "-w", "1", "--json",
        str(tmp_path / "t.json"),
    )  # fmt: skip
    data = json.loads((tmp_path / "t.json").read_text())
    assert code == 0 and data["deals"] > 0 and data["complete"] is True
    assert data["deals_asked"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--near", "K-KK"], "two hands of 26 cards"),
        (["--near", RECORD_2007.replace("K", "Z", 1)], "holds 'Z'"),
        (["--near", RECORD_2007.replace("K", "Q", 1)], "4 of each face card"),
        (["--swaps", "2"], "--swaps needs --near"),
        (["--near", RECORD_2007, "--swaps", "99"], "99 is not in the range 1<=x<=20"),
        (["--address", "auto"], "--address needs --backend ray"),
        (["--deals", "0"], "0 is not in the range x>=1"),
        (["--seconds", "0"], "0.0 is not in the range x>0"),
        (["--seed", "-1"], "-1 is not in the range"),
        (["--top", "0"], "0 is not in the range 1<=x<=1000"),
        (["--workers", "0"], "0 is not in the range x>=1"),
        (["--kernel", "gpu"], "'gpu' is not one of 'auto', 'c', 'python'"),
        (["--backend", "spark"], "'spark' is not one of 'local', 'ray'"),
        (["--backend", "ray", "--address", "nowhere"], "is not HOST:PORT"),
        (["--backend", "ray", "--address", "127.0.0.1:1"], "nothing answers at the Ray address"),
        (["--json", "/no/such/folder/x.json"], "the folder /no/such/folder does not exist"),
        (["--checkpoint", "/no/such/folder/x.ckpt"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_a_checkpoint_of_another_hunt_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "run.ckpt"
    code, _, err = run(capsys, "--deals", "300", "-w", "1", "--kernel", "python", "--checkpoint",
                       str(saved))  # fmt: skip
    assert code == 0, err
    code, _, err = run(capsys, "--deals", "300", "--seed", "1", "--checkpoint", str(saved))
    assert code == 2 and "seed 0, not 1" in err and "--checkpoint" in err
    saved.write_text("not json")
    code, _, err = run(capsys, "--deals", "300", "--checkpoint", str(saved))
    assert code == 2 and "is not JSON" in err


def test_kernel_c_without_a_compiler_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-here")
    code, _, err = run(capsys, "--deals", "10", "--kernel", "c")
    assert code == 2 and "no C compiler" in err
    # auto falls back to the Python loop, and says so
    code, out, err = run(capsys, "--deals", "1000", "-w", "1")
    assert code == 0 and "play-out: python (1,000 deals)" in " ".join(out.split())


def test_the_report_checks_with_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--deals", "200", "-w", "1", "--top", "2")
    assert code == 0 and "played again by the general engine" in " ".join(out.split())
    assert play(parse_deal(RECORD_2007)).cards == 7157
