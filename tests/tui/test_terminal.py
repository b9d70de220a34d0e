"""``ratgames play`` in a real (pseudo) terminal: told to stop by SIGTERM or SIGHUP (a closed
terminal), it saves the unfinished game and says how to take it up again."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if wanted in seen:
                break
    return seen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_saves_the_game_and_says_how_to_resume(tmp_path: Path, signum: int) -> None:
    master, slave = pty.openpty()
    env = dict(os.environ, RATGAMES_HOME=str(tmp_path), TERM="xterm-256color", COLUMNS="80")
    env["LINES"] = "24"
    command = [sys.executable, "-c", "from ratgames.cli import main; main()"]
    proc = subprocess.Popen(
        [*command, "play", "caged-rats", "--seed", "3", "--seat", "2"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    try:
        screen = _read_until(master, b"Your move", 30)
        assert b"Your move" in screen, screen[-2000:]
        os.kill(proc.pid, signum)
        rest = _read_until(master, b"--resume", 20)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 128 + signum
    assert b"Game saved: " in rest and b"ratgames play --resume" in rest
    [path] = (tmp_path / "records").glob("caged-rats-*.json")
    data = json.loads(path.read_text())
    assert data["outcome"] is None and data["seats"][1]["player"] == "human"
