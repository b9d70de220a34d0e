"""Records as training data: rows equal the encoders' output at each decision."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import ratgames
from ratgames.cli import main
from ratgames.core.bots import make_bot
from ratgames.core.records import build_record, save_record
from ratgames.core.runner import play_game
from ratgames.rl.encoding import encoder_for
from ratgames.rl.learn.dataset import export


def _records(
    tmp_path: Path, game_id: str, players: int, options: dict[str, object], n: int
) -> Path:
    folder = tmp_path / game_id
    folder.mkdir()
    game = ratgames.get_game(game_id, players=players, options=options)
    for seed in range(n):
        bots = [make_bot(game, "random", seed=seed * 10 + s) for s in range(players)]
        state = play_game(game, bots, seed=seed)
        save_record(build_record(state), folder / f"game-{seed}.json")
    return folder


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("caged-rats", 2, {"single_deal": True}),
        ("rats", 3, {"jokers": 2, "max_rounds": 1}),
        ("rat-a-tat-cat", 2, {"mode": "round"}),
    ],
)
def test_rows_replay_the_records(
    tmp_path: Path, game_id: str, players: int, options: dict[str, object]
) -> None:
    folder = _records(tmp_path, game_id, players, options, 3)
    out = tmp_path / "data.npz"
    summary = export([folder], out)
    game = ratgames.get_game(game_id, players=players, options=options)
    enc = encoder_for(game)
    with np.load(out) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    assert meta["game"] == game_id and len(meta["records"]) == 3
    n = summary["rows"]
    assert arrays["obs"].shape == (n, enc.obs_size)
    assert arrays["mask"].shape == (n, enc.num_actions)
    assert (arrays["mask"][np.arange(n), arrays["action"]] == 1).all()
    # walk each record again: the rows are the encoder's output before each action
    for g, path in enumerate(sorted(folder.glob("*.json"))):
        record = json.loads(path.read_text())
        state = game.new_state(seed=record["seed"])
        rows = np.flatnonzero(arrays["game"] == g)
        r = 0
        for event in record["events"]:
            if "chance" in event:
                continue
            seat = event["seat"]
            legal = state.legal_actions(seat)
            action = next(a for a in legal if str(a) == event["action"])
            ids = enc.action_ids(action)
            for k, i in enumerate(ids):
                row = rows[r]
                assert arrays["seat"][row] == seat and arrays["action"][row] == i
                pending = ids[:k]
                np.testing.assert_array_equal(arrays["obs"][row], enc.observe(state, seat, pending))
                np.testing.assert_array_equal(arrays["mask"][row], enc.mask(legal, pending))
                r += 1
            state.apply(seat, action)
        assert r == len(rows)
        done = rows[arrays["done"][rows]]
        assert sorted(arrays["seat"][done]) == list(range(players))
        assert arrays["reward"][rows].sum() == pytest.approx(0.0, abs=1e-6)
        rest = arrays["reward"][rows][~arrays["done"][rows]]
        assert not rest.any()


def test_dataset_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _records(tmp_path, "caged-rats", 2, {"single_deal": True}, 2)
    out = tmp_path / "seat0.npz"
    main(["dataset", str(folder), "--seat", "0", "--out", str(out)])
    assert "decisions from 2 games of caged-rats" in capsys.readouterr().out
    with np.load(out) as data:
        assert set(data["seat"].tolist()) == {0}
    other = _records(tmp_path, "rats", 2, {"max_rounds": 1}, 1)
    for args, message in [
        ([str(folder), str(other)], "a dataset holds one game"),
        ([str(folder), "--seat", "5"], "seat 5 is not a seat of Caged Rats"),
        ([str(tmp_path / "missing")], "no such record file or folder"),
        ([str(folder), "--out", str(tmp_path / "x.csv")], "must end in .npz"),
    ]:
        full = ["dataset", *args] if "--out" in args else ["dataset", *args, "--out", str(out)]
        with pytest.raises(SystemExit) as exc:
            main(full)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert message in " ".join(err.split()) and len(err.strip().splitlines()) == 1
