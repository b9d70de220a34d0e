"""Behind a balancer: ``ratgames serve --forwarded-allow-ips`` believes the client's address
that the balancer passes on (X-Forwarded-For), so the per-address limits count each client
rather than the balancer; from anyone else the header is ignored."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def start(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    command = [sys.executable, "-c", "from ratgames.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(tmp_path / "f.db"), "--workers", "1"]
    command += ["--lookups-per-minute", "1", *options]
    env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=1):
                return process, base
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.1)


def look_up(base: str, code: str, client: str) -> int:
    """The status of a lookup of an unknown table code, said to come from ``client``."""
    request = urllib.request.Request(
        f"{base}/api/tables/{code}", headers={"x-forwarded-for": client}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.parametrize("trusted", [True, False])
def test_the_limits_count_the_clients_a_trusted_balancer_names(
    tmp_path: Path, trusted: bool
) -> None:
    options = () if trusted else ("--forwarded-allow-ips", "")
    process, base = start(tmp_path, *options)
    try:
        # One address guesses codes until it is refused for it (2 failed lookups at once).
        statuses = [look_up(base, f"ZZZZZ{i}", "203.0.113.7") for i in range(4)]
        assert statuses[:2] == [404, 404] and statuses[-1] == 429, statuses
        # Another client behind the same balancer is not held to the first one's guesses,
        # unless the balancer is not believed: then both are the balancer's address.
        other = look_up(base, "ZZZZZ9", "203.0.113.8")
        assert other == (404 if trusted else 429), other
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
