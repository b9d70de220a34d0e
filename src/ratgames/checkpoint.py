"""Checkpoints of long runs: a simulation (each value of a sweep) or a tournament (each pairing)
saves what it has counted, so that a run stopped by Ctrl-C, a closed laptop or a lost cluster
goes on where it stopped instead of starting again.

A run's games depend only on their index, so a run that goes on from a checkpoint plays the
games the checkpoint lacks and ends with the figures of a run never stopped.  A finished run's
checkpoint also lets a later run with more games add to it.

The file is JSON, written whole each time (a temporary file renamed over it)::

    {"format": "ratgames-run-checkpoint", "format_version": 1, "command": "simulate",
     "runs": [{"settings": {...}, "state": {...}}, ...]}

``settings`` are a run's :meth:`ratgames.sim.SimConfig.settings` and ``state`` its
:meth:`ratgames.sim.SimResult.state`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core.errors import RatgamesError
from .sim import SimConfig, SimResult

FORMAT = "ratgames-run-checkpoint"
VERSION = 1


class CheckpointError(RatgamesError):
    """A checkpoint that cannot be gone on from: unreadable, damaged, or of other settings."""


def write_json_atomic(path: Path, data: Any, indent: int | None = 1) -> None:
    """Write ``data`` as JSON to ``path`` so that the file is always whole: a temporary file
    beside it, flushed to disk, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as a plain new file would be (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=indent)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _describe(settings: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in settings.get("options", {}).items())
    return (
        f"{settings.get('game')} at {settings.get('players')} players, bots "
        f"{' '.join(map(str, settings.get('bots', [])))}, seed {settings.get('seed')}"
        + (f", options {opts}" if opts else "")
    )


class RunCheckpoint:
    """The checkpoint file of one command's runs (``configs``, run one after the other)."""

    def __init__(self, path: Path, command: str, configs: Sequence[SimConfig]) -> None:
        self.path = path
        self.command = command
        self.configs = list(configs)
        self._states: dict[int, dict[str, Any]] = {}
        """Saved states by the index of their run in ``configs``."""
        self._read: dict[int, SimResult] = {}
        """The runs read from the file, checked, to go on from (by the same index)."""

    @classmethod
    def open(
        cls, path: Path, command: str, configs: Sequence[SimConfig], keep_games: bool = False
    ) -> RunCheckpoint:
        """The checkpoint at ``path`` (empty if there is no file yet), checked against the runs
        the command is about to make.  Raises :class:`CheckpointError` saying what is wrong."""
        checkpoint = cls(path, command, configs)
        if not path.exists():
            return checkpoint
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CheckpointError(f"{path} is not a checkpoint (not JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a ratgames run checkpoint")
        if data.get("format_version") != VERSION:
            raise CheckpointError(
                f"{path} is a checkpoint of version {data.get('format_version')!r}; this "
                f"ratgames reads version {VERSION}"
            )
        if data.get("command") != command:
            raise CheckpointError(
                f"{path} is the checkpoint of a {data.get('command')!r} run, not of {command!r}"
            )
        runs = data.get("runs")
        if not isinstance(runs, list):
            raise CheckpointError(f"{path} is damaged: 'runs' must be a list")
        wanted = [c.settings() for c in configs]
        for i, run in enumerate(runs):
            if not isinstance(run, dict) or set(run) != {"settings", "state"}:
                raise CheckpointError(f"{path} is damaged: run {i} must hold settings and state")
            settings = run["settings"]
            if settings not in wanted:
                raise CheckpointError(
                    f"{path} holds a run of other settings ({_describe(settings)}) than this "
                    "command's: give the same settings to go on, or another checkpoint file"
                )
            k = wanted.index(settings)
            config = configs[k]
            try:
                saved = SimResult.from_state(config, run["state"], keep_games)
            except ValueError as exc:
                raise CheckpointError(f"{path}: its run of {_describe(settings)}: {exc}") from None
            if saved.games > config.games:
                raise CheckpointError(
                    f"{path} has {saved.games} games of {_describe(settings)} already, more than "
                    f"the {config.games} asked: ask for {saved.games} or more"
                )
            checkpoint._states[k] = run["state"]
            checkpoint._read[k] = saved
        return checkpoint

    def start(self, config: SimConfig, keep_games: bool = False) -> SimResult | None:
        """The saved result of ``config``'s run to go on from (as read and checked when the file
        was opened, handed out once: the run adds to it), or None to start it afresh."""
        read = self._read.pop(self._index(config), None)
        if read is None:
            return None
        if keep_games and read.summaries is None:
            raise CheckpointError(
                f"{self.path}: its run kept no game-by-game results, and this run keeps them"
            )
        if not keep_games:
            read.summaries = None
        return read

    def done(self, config: SimConfig) -> int:
        """How many games of ``config``'s run are saved."""
        state = self._states.get(self._index(config))
        return 0 if state is None else int(state["games"])

    def save(self, config: SimConfig, result: SimResult) -> None:
        """Save ``result`` as ``config``'s run (with the other runs saved so far)."""
        self._states[self._index(config)] = result.state()
        runs = [
            {"settings": self.configs[k].settings(), "state": self._states[k]}
            for k in sorted(self._states)
        ]
        try:
            write_json_atomic(
                self.path,
                {
                    "format": FORMAT,
                    "format_version": VERSION,
                    "command": self.command,
                    "runs": runs,
                },
                indent=None,
            )
        except OSError as exc:
            raise CheckpointError(
                f"cannot write the checkpoint {self.path}: {exc.strerror or exc}"
            ) from None

    def _index(self, config: SimConfig) -> int:
        settings = config.settings()
        for k, c in enumerate(self.configs):
            if c.settings() == settings:
                return k
        raise ValueError("a run this checkpoint was not opened for")
