"""A real server for the tests: uvicorn on a free loopback port, in a thread of its own, with
its own SQLite database (or PostgreSQL, for the storage tests that ask for it)."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ratgames.server.app import WS_MAX_SIZE, create_app
from ratgames.server.limits import websocket_protocol
from ratgames.server.lobby import Lobby
from ratgames.server.tables import Settings

from .wire import check_frames


@dataclass
class Running:
    """A server running in this process: its address, its app and database URL."""

    base: str
    url: str
    server: uvicorn.Server
    thread: threading.Thread
    app: Any

    @property
    def lobby(self) -> Lobby:
        lobby: Lobby = self.app.state.lobby
        return lobby

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def start_server(url: str, settings: Settings | None = None) -> Running:
    """Start the app for database ``url`` on a free port and wait until it listens."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(url, settings or Settings(bot_pause=0.0, ping_interval=0.5, warm_pool=False))
    config = uvicorn.Config(
        app,
        ws=websocket_protocol(),
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
        lifespan="on",
        loop=os.environ.get("RATGAMES_TEST_LOOP", "asyncio"),  # uvloop: another timing
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    return Running(f"http://127.0.0.1:{port}", url, server, thread, app)


@pytest.fixture(autouse=True)
def server_frames_follow_the_schema() -> Iterator[None]:
    """Every frame a test's WebSocket clients receive is a ServerMessage of the published
    schema (``wire.py``); a test that received one that is not fails."""
    with check_frames() as frames:
        yield
    frames.assert_clean()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ratgames.db'}"


def pool_workers(server: Running) -> list[int]:
    """The process ids of a test server's own search workers (not those of another server
    started by the same test process)."""
    pool = server.app.state.lobby._pool
    return list(getattr(pool, "_processes", None) or {}) if pool is not None else []


@pytest.fixture
def server(db_url: str) -> Iterator[Running]:
    running = start_server(db_url)
    yield running
    running.stop()


def run(coro: Any, timeout: float = 60.0) -> Any:
    """Run a test's coroutine (the client side) on a loop of its own."""
    return asyncio.run(asyncio.wait_for(coro, timeout))
