"""A server killed with SIGKILL at random moments of scripted games: after each restart every
acknowledged action is there, the clients reconnect by themselves and play goes on to the end."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import ratgames
from ratgames.server import store
from ratgames.server.client import ClientError, TableClient, ahttp_json, http_json

from .conftest import run

GAMES = {
    "rats": {"max_rounds": 6},
    "rat-a-tat-cat": {"mode": "rounds=4"},
    "caged-rats": {"target": 60},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``ratgames serve`` in a subprocess."""

    def __init__(self, db: Path, port: int, home: Path) -> None:
        self.db = db
        self.port = port
        self.home = home
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        env = {**os.environ, "RATGAMES_HOME": str(self.home)}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ratgames.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--bot-pause",
                "0",
                "--workers",
                "1",
                "--log-level",
                "warning",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                http_json(self.base, "/api/health", timeout=1)
                return
            except (OSError, ClientError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


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


def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "crash.db", _free_port(), tmp_path)
    server.start()
    rng = random.Random(11)
    codes: list[str] = []
    acked: dict[str, list[tuple[int, str]]] = {}

    async def main() -> None:
        clients = []
        for game, options in GAMES.items():
            created = await ahttp_json(
                server.base,
                "/api/tables",
                {
                    "game": game,
                    "seats": [{"kind": "open"}, {"kind": "bot"}],
                    "options": options,
                    "name": "P",
                },
            )
            code = created["table"]["code"]
            codes.append(code)
            acked[code] = []
            client = TableClient(
                server.base, code, created["token"], created["host_token"], reconnect=True
            )
            await client.connect()
            client.host("start")
            clients.append(client)
        stop = asyncio.Event()
        players = [
            asyncio.create_task(player(c, random.Random(i), acked[c.code], stop))
            for i, c in enumerate(clients)
        ]
        for kill in range(3):
            # The first kill comes early, while every game is surely still on.
            await asyncio.sleep(rng.uniform(0.15, 0.4) if kill == 0 else rng.uniform(0.3, 1.2))
            if kill == 0:
                assert not any(c.over for c in clients), "a game ended before the first kill"
            await asyncio.to_thread(server.kill)
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            await asyncio.to_thread(server.start)
        before = {code: len(done) for code, done in acked.items()}
        # play goes on to the end, over the clients' own new connections
        await asyncio.wait_for(asyncio.gather(*players), 60)
        assert any(len(acked[code]) > before[code] for code in acked)
        for client in clients:
            assert client.over
            assert client.connections >= 2  # it did reconnect by itself
            await client.close()

    try:
        run(main(), timeout=150)
    finally:
        server.stop()
    engine = store.make_engine(store.database_url(str(server.db)))
    for code in codes:
        stored = store.load_table(engine, code)
        assert stored is not None and stored.row.status == "finished"
        for seq, text in acked[code]:
            assert stored.actions[seq - 1][1] == text, (code, seq, text)
        assert len(acked[code]) > 0
        record = store.get_record(engine, stored.row.record_id or -1)
        assert record is not None
        assert ratgames.replay(record).is_over()
    engine.dispose()
