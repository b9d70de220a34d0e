"""Game records as training data: every decision as (observation, mask, action, reward).

Each record (the JSON that ``ratgames replay`` reads) is replayed action by action.  Before a
seat's action the row gets that seat's observation vector and legal-id mask, as the
environments encode them (:mod:`ratgames.rl.encoding`), and the id it chose; an action of two
ids (a Rats run with jokers) gives two rows, the second with the first id pending.  The reward is
the seat's final reward (:func:`ratgames.rl.table.returns`) on that seat's last row of a finished
game and 0 elsewhere; ``done`` marks those rows.

The ``.npz`` holds ``obs`` (float32, rows x obs size), ``mask`` (int8, rows x ids), ``action``,
``reward``, ``done``, ``seat``, ``game`` (the record's index) and ``step`` (the action's index in
its record), and ``meta``: a JSON text with the game, players, options and the record files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import ratgames
from ratgames.core.errors import RecordError
from ratgames.core.records import load_record, replay

from ..encoding import encoder_for
from ..table import returns
from .network import savez


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The record files named: files as given, folders' ``*.json`` in name order."""
    found: list[Path] = []
    for p in paths:
        path = Path(p).expanduser()
        if path.is_dir():
            found.extend(sorted(path.glob("*.json")))
        elif path.is_file():
            found.append(path)
        else:
            raise RecordError(f"{path}: no such record file or folder")
    if not found:
        raise RecordError("no record files (*.json) in the folders given")
    return found


def rows_of(data: dict[str, Any], seats: Sequence[int] | None = None) -> dict[str, Any]:
    """The rows of one loaded record (see the module docstring), as lists."""
    state = replay(data, upto=0, check_outcome=False)
    game = state.game
    state.set_recording(False)
    enc = encoder_for(game)
    out: dict[str, list[Any]] = {k: [] for k in ("obs", "mask", "action", "seat", "step")}
    last_row: dict[int, int] = {}
    step = 0
    for i, event in enumerate(data["events"]):
        if "chance" in event:
            continue
        seat, text, time = event.get("seat"), event.get("action"), event.get("time")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(text, str):
            raise RecordError(f"event {i + 1} of the record needs a 'seat' and an 'action'")
        legal = state.legal_actions(seat) if 0 <= seat < game.players else []
        action = next((a for a in legal if str(a) == text), None)
        if action is None:
            raise RecordError(f"event {i + 1} of the record ({text}) is not legal there")
        if seats is None or seat in seats:
            ids = enc.action_ids(action)
            for k in range(len(ids)):
                pending = ids[:k]
                out["obs"].append(enc.observe(state, seat, pending))
                out["mask"].append(enc.mask(legal, pending))
                out["action"].append(ids[k])
                out["seat"].append(seat)
                out["step"].append(step)
                last_row[seat] = len(out["action"]) - 1
        state.apply(seat, action, time=time)
        step += 1
    n = len(out["action"])
    reward = [0.0] * n
    done = [False] * n
    if state.is_over():
        final = returns(game, state.outcome())
        for seat, row in last_row.items():
            reward[row] = final[seat]
            done[row] = True
    return {**out, "reward": reward, "done": done}


def export(
    paths: Sequence[str | Path], out: str | Path, seats: Sequence[int] | None = None
) -> dict[str, Any]:
    """Write the rows of every record in ``paths`` to ``out`` (.npz); returns a summary."""
    files = record_files(paths)
    first: tuple[str, int, dict[str, Any]] | None = None
    enc = None
    parts: dict[str, list[Any]] = {
        k: [] for k in ("obs", "mask", "action", "seat", "step", "reward", "done", "game")
    }
    for index, path in enumerate(files):
        data = load_record(path)
        key = (data["game"], data["players"], data["options"])
        if first is None:
            first = key
            game = ratgames.get_game(data["game"], players=data["players"], options=data["options"])
            if seats is not None:
                bad = [s for s in seats if not 0 <= s < game.players]
                if bad:
                    raise RecordError(
                        f"seat {bad[0]} is not a seat of {game.title} with {game.players} "
                        f"players (seats 0 to {game.players - 1})"
                    )
            enc = encoder_for(game)
        elif key != first:
            raise RecordError(
                f"{path} is a game of {key[0]} with {key[1]} players and options {key[2]}; "
                f"the first record is {first[0]} with {first[1]} players and options {first[2]} "
                "(a dataset holds one game with one set of options)"
            )
        try:
            rows = rows_of(data, seats)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
        for k, v in rows.items():
            parts[k].extend(v)
        parts["game"].extend([index] * len(rows["action"]))
    assert first is not None and enc is not None
    arrays: dict[str, Any] = {
        "obs": np.array(parts["obs"], dtype=np.float32).reshape(-1, enc.obs_size),
        "mask": np.array(parts["mask"], dtype=np.int8).reshape(-1, enc.num_actions),
        "action": np.array(parts["action"], dtype=np.int64),
        "reward": np.array(parts["reward"], dtype=np.float32),
        "done": np.array(parts["done"], dtype=bool),
        "seat": np.array(parts["seat"], dtype=np.int64),
        "game": np.array(parts["game"], dtype=np.int64),
        "step": np.array(parts["step"], dtype=np.int64),
    }
    meta = {
        "format": "ratgames-dataset",
        "format_version": 1,
        "game": first[0],
        "players": first[1],
        "options": first[2],
        "records": [str(f) for f in files],
        "obs_size": enc.obs_size,
        "num_actions": enc.num_actions,
    }
    with Path(out).open("wb") as f:
        savez(f, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    return {"rows": len(arrays["action"]), "games": len(files), "game": first[0]}
