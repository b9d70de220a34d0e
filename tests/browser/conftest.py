"""The browser tests' fixtures: a real server (uvicorn on a free loopback port, its own SQLite
database) serving the built client, and Debian's Chromium driven by Playwright.

Chromium comes from Debian (`apt-get install chromium`, done by `.ci/web`); Playwright's own
browser download is not used.  Without /usr/bin/chromium the tests are skipped with a message,
except under CI (`CI` set), where that is an error.
"""

from __future__ import annotations

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
from ratgames.server.tables import Settings
from ratgames.webclient import built

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@dataclass
class Server:
    """A server running in this process: its base URL and its app."""

    base: str
    server: uvicorn.Server
    thread: threading.Thread
    app: Any

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def start_server(db: Path, settings: Settings | None = None) -> Server:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(f"sqlite:///{db}", settings or Settings(bot_pause=0.05, ping_interval=0.5))
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
    return Server(f"http://127.0.0.1:{port}", server, thread, app)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not built():
        pytest.fail("the browser client is not built: run `npm ci && npm run build` in web/")
    running = start_server(tmp_path_factory.mktemp("db") / "ratgames.db")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/web installs it (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
