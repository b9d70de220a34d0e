"""Real ``ratgames serve`` processes and a real HAProxy in front of them, for the tests that
kill, stop and restart servers (``test_crash.py``, ``test_cluster*.py``), and a random player
that waits out lost connections."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ratgames.server.client import ClientError, TableClient, http_json

HAPROXY = shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
)
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_answering(base: str, alive: subprocess.Popen[bytes], what: str, within: float) -> None:
    """Wait until ``base`` answers ``/api/health`` (``alive`` still running), at most
    ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            http_json(base, "/api/health", timeout=1)
            return
        except (OSError, ClientError):
            if alive.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.1)


class ServeProcess:
    """``ratgames serve`` in a subprocess, on a port of its own, for database ``db`` (a URL or
    an SQLite file); ``lease`` (PostgreSQL) makes it one of several processes, telling clients
    its own address (``--advertise``).  Its log goes to ``home/serve.log``."""

    def __init__(
        self,
        db: str | Path,
        home: Path,
        lease: float | None = None,
        extra: Sequence[str] = (),
        advertise: str | None = None,
    ) -> None:
        self.db = str(db)
        self.home = home
        self.lease = lease
        self.extra = tuple(extra)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.advertise = advertise or self.base
        """The address told to clients of its tables that reach another process."""
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "RATGAMES_HOME": str(self.home)}
        options = [*("--bot-pause", "0", "--workers", "1", "--log-level", "info")]
        if self.lease is not None:
            options += ["--lease", str(self.lease), "--advertise", self.advertise]
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "ratgames.cli", "serve", "--port", str(self.port)),
                *("--db", self.db, *options, *self.extra),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=(self.home / "serve.log").open("ab"),
        )
        wait_answering(self.base, self.proc, "the server", 60)

    def log(self) -> str:
        path = self.home / "serve.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def terminate(self, within: float = 15) -> int:
        """SIGTERM, and wait for the exit: its code."""
        assert self.proc is not None
        self.proc.terminate()
        return self.proc.wait(timeout=within)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def balancer_address(port: int, index: int) -> str:
    """Process ``index``'s own address through the balancer on ``port`` (``/p/sINDEX``)."""
    return f"http://127.0.0.1:{port}/p/s{index}"


class Balancer:
    """HAProxy with the shipped configuration (``deploy/haproxy.cfg``) in front of
    ``servers`` (named s0, s1, ... in order: ``/p/sN/...`` goes to the Nth), on ``port`` (by
    default a free one)."""

    def __init__(
        self, servers: Sequence[ServeProcess], work: Path, port: int | None = None
    ) -> None:
        assert HAPROXY is not None
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.work = work
        config = work / "haproxy.cfg"
        config.write_text(
            (DEPLOY / "haproxy.cfg").read_text()
            + "".join(
                f"    use-server s{i} if {{ var(txn.pin) -m str s{i} }}\n"
                f"    server s{i} 127.0.0.1:{s.port}\n"
                for i, s in enumerate(servers)
            )
        )
        self.proc = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(config)],
            env={**os.environ, "RATGAMES_BIND": f"127.0.0.1:{self.port}"},
            stdout=subprocess.DEVNULL,
            stderr=(work / "haproxy.log").open("ab"),
        )
        try:
            wait_answering(self.base, self.proc, "the balancer", 20)
        except RuntimeError:
            raise RuntimeError((work / "haproxy.log").read_text()) from None

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


async def player(
    client: TableClient, rng: random.Random, acked: list[tuple[int, str]], stop: asyncio.Event
) -> None:
    """Random legal moves; a lost connection is waited out (the client reconnects itself)."""
    while not stop.is_set():
        try:
            if not await client.my_turn_or_end(timeout=30):
                return
            await asyncio.sleep(rng.uniform(0.01, 0.04))  # a quick player's pace
            if not client.legal:
                continue
            text = rng.choice(client.legal)
            seq = await client.act(text, timeout=10)
            acked.append((seq, text))
        except (ClientError, TimeoutError):
            await asyncio.sleep(0.05)
