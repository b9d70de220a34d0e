"""Hostile connections: no client can stall the others.  Spectator floods, silent sockets,
connection floods, long-thinking bots, lobby floods and guessed codes each meet a limit, and
the players at other tables (or at the same one) keep being served; search workers die with
their server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from ratgames.server.app import WS_MAX_SIZE
from ratgames.server.client import ClientError, TableClient, ahttp_json, http_json
from ratgames.server.connections import DROPPED_LIMIT
from ratgames.server.limits import (
    QUEUED_MESSAGES,
    ConnectionGuard,
    Rate,
    RepeatFilter,
    address_key,
    guarded_protocol,
    queued_websockets,
)
from ratgames.server.lobby import CODE_LENGTH, PRIVATE_CODE_LENGTH
from ratgames.server.tables import Settings
from ratgames.server.thinking import SearchQueue

from .conftest import Running, pool_workers, run, start_server
from .helpers import connect, create

QUIET = {"bot_pause": 0.0, "ping_interval": 0.5, "warm_pool": False}


@pytest.fixture
def make_server(db_url: str) -> Iterator[Any]:
    """Start a server with settings of the test's choosing (stopped at the end)."""
    running: list[Running] = []

    def make(**settings: Any) -> Running:
        server = start_server(db_url, Settings(**{**QUIET, **settings}))
        running.append(server)
        return server

    yield make
    for server in running:
        server.stop()


def table_frames(client: TableClient) -> list[dict[str, Any]]:
    return [f for f in map(json.loads, client.frames) if f["type"] == "table"]


# --- broadcasts ----------------------------------------------------------------------------------


def test_spectators_joining_are_sent_together(make_server: Any) -> None:
    """Forty spectators saying hello at once cost the player a few ``table`` messages, not
    forty, and the last one counts them all."""
    server = make_server(hello_rate=Rate(0, 1, 0), arrivals_rate=Rate(0, 1, 0))

    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        host = await connect(server.base, created, keep_frames=True)
        await asyncio.sleep(0.3)
        before = len(table_frames(host))
        began = time.monotonic()
        watchers = [TableClient(server.base, host.code) for _ in range(40)]
        await asyncio.gather(*(w.connect() for w in watchers))
        took = time.monotonic() - began
        await host.wait(lambda c: c.table is not None and c.table["spectators"] == 40, timeout=5)
        sent = len(table_frames(host)) - before
        assert sent <= 2 + took / 0.25, (sent, took)
        assert sent < 40
        for w in watchers:
            await w.close()
        await host.close()

    run(main())


def test_spectators_are_capped_and_their_chat_is_off(make_server: Any) -> None:
    server = make_server(max_spectators=3, chat_rate=Rate(2, 60, 2))

    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        host = await connect(server.base, created)
        watchers = [TableClient(server.base, host.code) for _ in range(3)]
        for w in watchers:
            await w.connect()
        late = TableClient(server.base, host.code)
        with pytest.raises(ClientError) as refused:
            await late.connect()
        assert refused.value.code == "wrong_status" and "spectators (3)" in refused.value.message
        # a spectator's chat is refused; a player's reaches everyone, up to the table's rate
        watchers[0].send({"type": "chat", "v": 1, "text": "hi"})
        await watchers[0].wait(lambda c: bool(c.errors))
        assert watchers[0].errors[-1]["code"] == "not_a_seat"
        for i in range(3):
            host.send({"type": "chat", "v": 1, "text": f"line {i}"})
        await host.wait(lambda c: any(e["code"] == "rate_limited" for e in c.errors))
        await watchers[1].wait(lambda c: len(c.chat) == 2)
        assert [m["text"] for m in watchers[1].chat] == ["line 0", "line 1"]
        for c in (*watchers, host):
            await c.close()

    run(main())


def test_spectators_arriving_never_keep_a_player_out(make_server: Any) -> None:
    server = make_server(hello_rate=Rate(0, 1, 0), arrivals_rate=Rate(1, 60, 3))

    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        code = created["table"]["code"]
        watchers = [TableClient(server.base, code) for _ in range(3)]
        for w in watchers:
            await w.connect()
        late = TableClient(server.base, code)
        with pytest.raises(ClientError) as refused:
            await late.connect()
        assert refused.value.code == "rate_limited"
        assert "too many spectators arriving" in refused.value.message
        for _ in range(3):  # the player comes and goes as often as they like
            host = await connect(server.base, created)
            assert host.seat == 0
            await host.close()
        for w in watchers:
            await w.close()

    run(main())


def test_an_address_flooding_messages_is_dropped_unread(make_server: Any) -> None:
    """Beyond the address's message rate (all its connections together) messages are dropped
    without an answer each: one ``rate_limited`` a second says so."""
    server = make_server(message_rate=Rate(1, 60, 12))

    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        url = server.base.replace("http://", "ws://") + "/ws"
        hello = json.dumps({"type": "hello", "v": 1, "table": created["table"]["code"]})
        chat = json.dumps({"type": "chat", "v": 1, "text": "spam"})

        async def errors_of(ws: Any, seconds: float = 1.5) -> list[str]:
            """The error codes ``ws`` gets in the next ``seconds`` (pings come meanwhile)."""
            codes = []
            until = time.monotonic() + seconds
            with contextlib.suppress(TimeoutError):
                while True:
                    left = until - time.monotonic()
                    frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.0, left)))
                    if frame["type"] == "error":
                        codes.append(frame["code"])
            return codes

        async with websockets.connect(url) as one, websockets.connect(url) as two:
            await one.send(hello)
            for _ in range(30):
                await one.send(chat)
            assert await errors_of(one) == ["not_a_seat"] * 11 + ["rate_limited"]
            await two.send(hello)  # the same address: its budget is spent too
            assert await errors_of(two) == ["rate_limited"]
            # a client that goes on regardless is let go
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(DROPPED_LIMIT + 50):
                    await one.send(chat)
                await errors_of(one, 5.0)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    run(main())


class _Transport:
    """Records what a protocol asks of its transport about reading."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.reading = True

    def pause_reading(self) -> None:
        if self.reading:
            self.calls.append("pause")
        self.reading = False

    def resume_reading(self) -> None:
        if not self.reading:
            self.calls.append("resume")
        self.reading = True


def test_a_websocket_is_read_on_until_a_few_messages_wait() -> None:
    """The server reads a WebSocket on while its messages wait for the application (uvicorn
    alone stops reading after every message); once QUEUED_MESSAGES wait it stops, until the
    application has taken them all."""

    async def main() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            pass

        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        config.load()
        protocol = queued_websockets(WebSocketsSansIOProtocol)(config, ServerState(), {})
        transport = _Transport()
        protocol.transport = transport

        def arrive(text: str) -> None:
            protocol.curr_msg_data_type = "text"
            protocol.frames = [text.encode()]
            protocol.send_receive_event_to_app()

        arrive("one")
        assert transport.calls == [] and transport.reading
        assert (await protocol.receive())["text"] == "one"
        assert transport.calls == []
        for i in range(QUEUED_MESSAGES + 3):
            arrive(str(i))
            assert transport.reading == (i + 1 < QUEUED_MESSAGES), i
        assert transport.calls == ["pause"]
        taken = [(await protocol.receive())["text"] for _ in range(QUEUED_MESSAGES + 3)]
        assert taken == [str(i) for i in range(QUEUED_MESSAGES + 3)]
        assert transport.calls == ["pause", "resume"] and transport.reading

    run(main())


def test_hellos_are_rate_limited_per_address(make_server: Any) -> None:
    server = make_server(hello_rate=Rate(1, 60, 5))

    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        code = created["table"]["code"]
        url = server.base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url) as ws:
            for _ in range(8):
                await ws.send(json.dumps({"type": "hello", "v": 1, "table": code}))
            codes = []
            while len(codes) < 8:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if frame["type"] == "welcome":
                    codes.append("welcome")
                elif frame["type"] == "error":
                    codes.append(frame["code"])
                    assert "hellos from your address" in frame["message"]
        assert codes == ["welcome"] * 5 + ["rate_limited"] * 3

    run(main())


# --- connections ---------------------------------------------------------------------------------


def test_websockets_per_address_are_capped(make_server: Any) -> None:
    server = make_server(max_conns_per_address=3)

    async def main() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        opened = [await websockets.connect(url) for _ in range(3)]
        async with websockets.connect(url) as extra:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert "at most 3" in closed.value.rcvd.reason
        await opened[0].close()
        await asyncio.sleep(0.2)
        async with websockets.connect(url) as again:  # a place is free again
            await again.send('{"type": "pong", "v": 1, "id": 1, "client_time": 1}')
            frame = json.loads(await asyncio.wait_for(again.recv(), 5))
            assert frame["type"] == "ping"
        for ws in opened[1:]:
            await ws.close()

    run(main())


def test_a_websocket_that_never_says_hello_is_closed(make_server: Any) -> None:
    server = make_server(idle_timeout=0.5)

    async def main() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url) as ws:
            errors = []
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if frame["type"] == "error":
                        errors.append(frame)
            assert [e["code"] for e in errors] == ["need_hello"]
        # one that says hello in time stays
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        host = await connect(server.base, created)
        await asyncio.sleep(1.0)
        host.send({"type": "chat", "v": 1, "text": "still here"})
        await host.wait(lambda c: bool(c.chat))
        await host.close()

    run(main())


def _guarded_server(guard: ConnectionGuard) -> tuple[uvicorn.Server, threading.Thread, int]:
    """A bare app behind the transport guard, on a free loopback port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        http=guarded_protocol(AutoHTTPProtocol, guard),
        ws_max_size=WS_MAX_SIZE,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread, port


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_transport_closes_silent_connections_and_caps_each_address() -> None:
    guard = ConnectionGuard(max_total=0, per_address=4, idle=1.0)
    server, thread, port = _guarded_server(guard)
    try:
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        extra = socket.create_connection(("127.0.0.1", port))
        assert _closed_within(extra, 0.5)  # the fifth from one address: closed at once
        assert not _closed_within(silent[0], 0.2)
        # half a request's headers is not a request either (slow-loris)
        silent[1].sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for s in silent:
            assert _closed_within(s, 5.0)
        assert guard.timed_out == 4 and guard.refused == 1
        # a client that speaks is served, also after the silent ones are gone
        with socket.create_connection(("127.0.0.1", port)) as ok:
            ok.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            ok.settimeout(5)
            assert ok.recv(100).startswith(b"HTTP/1.1 200")
        for s in (*silent, extra):
            s.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_repeated_log_lines_are_bounded() -> None:
    clock = [0.0]
    logger = logging.getLogger("ratgames.test.repeat")
    logger.propagate = False
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger.addHandler(Keep())
    logger.addFilter(RepeatFilter(burst=5, every=10.0, clock=lambda: clock[0]))
    for i in range(25_000):
        clock[0] = i / 25_000  # one second of an accept error flood
        logger.error("socket.accept() out of system resource")
        logger.error("another %s", "message")
    assert len(lines) == 10
    clock[0] = 20.0
    logger.error("socket.accept() out of system resource")
    assert lines[-1].endswith("(24995 more like this left out)")


# --- a real server process -----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(
    tmp_path: Path, *args: str, files: int | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``ratgames serve`` in a subprocess on a free port (stderr to a file)."""
    port = _free_port()

    def limit_files() -> None:
        if files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    err = (tmp_path / "serve.err").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ratgames.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'serve.db'}",
            "--log-level",
            "warning",
            *args,
        ],
        env={**os.environ, "RATGAMES_HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=err,
        preexec_fn=limit_files,
        start_new_session=True,  # its own process group, as a terminal gives it
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(base, "/api/health", timeout=1)
            return proc, base
        except (OSError, ClientError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError((tmp_path / "serve.err").read_text()) from None
            time.sleep(0.1)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)


def test_a_connection_flood_locks_nobody_out_and_logs_little(tmp_path: Path) -> None:
    """With 256 file descriptors, 600 idle connections from one address: most are refused at
    once, another address is served meanwhile, the idle ones are closed, and the log stays
    small."""
    proc, base = _serve(tmp_path, "--idle-timeout", "6", "--workers", "1", files=256)
    port = int(base.rsplit(":", 1)[1])
    flood: list[socket.socket] = []
    try:
        for _ in range(600):
            try:
                flood.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break
        # The server accepts what waits in its backlog as it can: each one beyond the
        # address's 64 is closed as soon as it is accepted.
        assert _wait_for(lambda: sum(1 for s in flood if not _closed_within(s, 0.001)) <= 64, 4)
        other = socket.socket()
        other.bind(("127.0.0.2", 0))
        other.settimeout(5)
        other.connect(("127.0.0.1", port))
        other.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert other.recv(200).startswith(b"HTTP/1.1 200")
        other.close()
        assert all(_closed_within(s, 10) for s in flood)  # the idle ones, after 6 s
        assert http_json(base, "/api/health")["ok"]
    finally:
        for s in flood:
            s.close()
        _stop(proc)
    assert (tmp_path / "serve.err").stat().st_size < 20_000


def _workers_of(pid: int) -> list[int]:
    """The search worker processes of server ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for(check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_search_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    proc, _ = _serve(tmp_path, "--workers", "2")
    try:
        assert _wait_for(lambda: len(_workers_of(proc.pid)) == 2, 30)
        workers = _workers_of(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert _wait_for(lambda: not any(_running(w) for w in workers), 10), workers
    finally:
        _stop(proc)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_server_ends_a_long_search(tmp_path: Path) -> None:
    proc, base = _serve(tmp_path, "--workers", "2", "--bot-pause", "0", "--max-bot-seconds", "120")
    try:
        assert _wait_for(lambda: len(_workers_of(proc.pid)) == 2, 30)
        workers = _workers_of(proc.pid)

        async def start_searching() -> None:
            created = await create(
                base,
                "caged-rats",
                [{"kind": "bot", "bot": "ismcts:seconds=120"}] * 2,
                sit=False,
            )
            host = TableClient(base, created["table"]["code"], None, created["host_token"])
            await host.connect()
            host.host("start")
            await host.wait(lambda c: c.state is not None)
            await host.close()

        def cpu_ticks() -> int:
            return sum(
                int(Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split()[11])
                for w in workers
            )

        ticks = cpu_ticks()
        run(start_searching())
        assert _wait_for(lambda: cpu_ticks() > ticks + 50, 20)  # one is searching
        os.killpg(proc.pid, signal.SIGINT)  # ctrl+c in its terminal: to the whole group
        proc.wait(timeout=30)
        assert _wait_for(lambda: not any(_running(w) for w in workers), 10), workers
    finally:
        _stop(proc)
    # the server stopped its workers: none died of the ctrl+c with a traceback of its own, and
    # the search cut short is not reported as an error
    log = (tmp_path / "serve.err").read_text()
    assert "KeyboardInterrupt" not in log and "never retrieved" not in log, log


# --- bots ----------------------------------------------------------------------------------------


def test_search_budgets_are_capped(make_server: Any) -> None:
    server = make_server(max_bot_seconds=2.0, max_bot_iterations=5000)

    async def main() -> None:
        for spec, why in [
            ("ismcts:seconds=3600", "seconds=3600 is above 2"),
            ("pimc:iterations=10000000", "iterations=10000000 is above 5000"),
        ]:
            with pytest.raises(ClientError) as refused:
                await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot", "bot": spec}])
            assert refused.value.code == "400" and why in refused.value.message
        with pytest.raises(ClientError) as refused:
            await create(
                server.base,
                "rats",
                [{"kind": "open"}, {"kind": "open"}],
                timeout={"policy": "bot", "seconds": 5, "bot": "ismcts:seconds=60"},
            )
        assert "seconds=60 is above 2" in refused.value.message
        # the levels and budgets within the limits are fine
        created = await create(
            server.base,
            "rats",
            [{"kind": "open"}, {"kind": "bot", "bot": "expert"}, {"kind": "open"}],
        )
        host = await connect(server.base, created)
        host.host("fill_bots", bot="ismcts:seconds=600")
        await host.wait(lambda c: bool(c.errors))
        assert "seconds=600 is above 2" in host.errors[-1]["message"]
        host.host("fill_bots", bot="pimc:seconds=1")
        await host.wait(
            lambda c: c.table is not None and c.table["seats"][2]["kind"] == "bot", timeout=5
        )
        await host.close()

    run(main())


def test_searches_are_served_one_table_at_a_time_in_turn() -> None:
    """Table A queues four searches, then table B one: B's goes second, not fifth."""
    started: list[str] = []

    def job(name: str) -> str:
        started.append(name)
        time.sleep(0.05)
        return name

    async def main() -> None:
        with ThreadPoolExecutor(1) as pool:
            queue = SearchQueue(lambda: pool, 1)
            a = [asyncio.create_task(queue.run("A", job, f"A{i}")) for i in range(4)]
            await asyncio.sleep(0)
            b = asyncio.create_task(queue.run("B", job, "B0"))
            c = asyncio.create_task(queue.run("C", job, "C0"))
            assert await asyncio.gather(*a, b, c) == ["A0", "A1", "A2", "A3", "B0", "C0"]
        assert started == ["A0", "B0", "C0", "A1", "A2", "A3"]

    asyncio.run(main())


# --- the lobby and its codes ---------------------------------------------------------------------


def test_table_creation_is_limited_per_address(make_server: Any) -> None:
    server = make_server(create_rate=Rate(3, 60, 3))

    async def main() -> None:
        for _ in range(3):
            await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        with pytest.raises(ClientError) as refused:
            await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        assert refused.value.code == "429" and "too many tables" in refused.value.message

    run(main())


def test_the_lobby_listing_is_paged(make_server: Any) -> None:
    server = make_server(list_limit=2, create_rate=Rate(0, 60, 0))

    async def main() -> None:
        codes = []
        for _ in range(5):
            created = await create(
                server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True
            )
            codes.append(created["table"]["code"])
        await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=False)
        pages: list[str] = []
        after = ""
        while True:
            page = await ahttp_json(server.base, f"/api/tables{after}")
            if not page:
                break
            assert len(page) <= 2
            pages += [t["code"] for t in page]
            after = f"?after={page[-1]['code']}"
        assert pages == codes[::-1]  # newest first
        newest = await ahttp_json(server.base, "/api/tables?limit=5")
        assert [t["code"] for t in newest] == codes[::-1]
        for bad in ("?limit=0", "?limit=501", "?after=NOSUCH"):
            with pytest.raises(ClientError) as refused:
                await ahttp_json(server.base, f"/api/tables{bad}")
            assert refused.value.code == "400", bad

    run(main())


def test_idle_lobby_tables_expire(make_server: Any) -> None:
    server = make_server(lobby_idle=0.5)

    async def main() -> tuple[str, str]:
        idle = await create(
            server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True, sit=False
        )
        kept = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True)
        host = await connect(server.base, kept)
        code = idle["table"]["code"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            listed = [t["code"] for t in await ahttp_json(server.base, "/api/tables")]
            if code not in listed:
                break
            await asyncio.sleep(0.1)
        assert listed == [kept["table"]["code"]]
        with pytest.raises(ClientError) as gone:
            await ahttp_json(server.base, f"/api/tables/{code}")
        assert gone.value.code == "404" and "expired" in gone.value.message
        await host.close()
        return code, kept["table"]["code"]

    code, kept = run(main())
    server.stop()
    again = start_server(server.url, Settings(**QUIET))  # after a restart it stays gone
    try:
        assert code not in again.lobby.tables and kept in again.lobby.tables
    finally:
        again.stop()


def test_private_codes_are_long_and_guesses_are_limited(make_server: Any) -> None:
    server = make_server(lookup_rate=Rate(3, 60, 3))

    async def main() -> None:
        private = await create(
            server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=False
        )
        public = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True)
        code = private["table"]["code"]
        assert len(code) == PRIVATE_CODE_LENGTH and len(public["table"]["code"]) == CODE_LENGTH
        assert (await ahttp_json(server.base, f"/api/tables/{code}"))["code"] == code
        host = await connect(server.base, private)  # the long code works on the WebSocket
        for guess in ("ZZZZZZ", "ZZZZZZZZZZZZ", "222222"):
            with pytest.raises(ClientError) as missing:
                await ahttp_json(server.base, f"/api/tables/{guess}")
            assert missing.value.code == "404"
        with pytest.raises(ClientError) as limited:  # even the right code, now
            await ahttp_json(server.base, f"/api/tables/{code}")
        assert limited.value.code == "429" and "unknown table codes" in limited.value.message
        with pytest.raises(ClientError) as limited:
            await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Eve"})
        assert limited.value.code == "429"
        guesser = TableClient(server.base, "ABCDEF")
        with pytest.raises(ClientError) as limited:
            await guesser.connect()
        assert limited.value.code == "rate_limited"
        # the players already at the table are not concerned
        host.send({"type": "chat", "v": 1, "text": "fine"})
        await host.wait(lambda c: bool(c.chat))
        await host.close()

    run(main())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_search_bots_play_on_after_a_worker_is_killed(make_server: Any) -> None:
    """A search worker killed (out of memory, by hand) costs one search, not the table."""
    server = make_server(pool_workers=1, warm_pool=True)

    async def main() -> None:
        created = await create(
            server.base, "caged-rats", [{"kind": "open"}, {"kind": "bot", "bot": "hard"}]
        )
        host = await connect(server.base, created)
        host.host("start")
        rng = __import__("random").Random(5)
        killed = False
        while await host.my_turn_or_end(timeout=30):
            if not killed and host.state is not None and host.state["seq"] >= 2:
                assert _wait_for(lambda: bool(pool_workers(server)), 30)
                for worker in pool_workers(server):
                    os.kill(worker, signal.SIGKILL)
                killed = True
            await host.act(rng.choice(host.legal))
        assert killed and host.over
        await host.close()

    run(main(), timeout=120)


def test_the_guard_forgets_connections_it_never_hears_end() -> None:
    """A WebSocket's end is not seen by the HTTP protocol: the guard finds such connections
    gone by itself, so a long-running server does not keep every address it ever saw."""

    class Transport:
        def __init__(self) -> None:
            self.closing = False

        def is_closing(self) -> bool:
            return self.closing

    guard = ConnectionGuard(max_total=0, per_address=0, idle=0)
    for i in range(3 * ConnectionGuard.SWEEP_EVERY):
        t = Transport()
        assert guard.admit(f"10.0.{i // 250}.{i % 250}", t) is None  # type: ignore[arg-type]
        t.closing = True  # upgraded, then closed: no connection_lost for the guard
    assert guard.total < ConnectionGuard.SWEEP_EVERY
    assert len(guard.open) < ConnectionGuard.SWEEP_EVERY


def test_an_ipv6_client_is_counted_by_its_network() -> None:
    """One subscriber has a whole /64: its addresses share one count."""
    assert (
        address_key("2001:db8:1:2::1")
        == address_key("2001:db8:1:2:ffff::9")
        == ("2001:db8:1:2::/64")
    )
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("testclient") == "testclient"


def test_the_listing_is_made_once_for_many_polls(make_server: Any) -> None:
    """Clients polling the lobby get the same page for a while (a spectator coming is not worth
    making it again); a table made, started or given a seat shows at once."""
    server = make_server(list_cache=60.0)

    async def main() -> None:
        a = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True)
        first = await ahttp_json(server.base, "/api/tables")
        assert [t["spectators"] for t in first] == [0]
        watcher = TableClient(server.base, a["table"]["code"])
        await watcher.connect()
        await asyncio.sleep(0.3)
        assert await ahttp_json(server.base, "/api/tables") == first  # served again as made
        b = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}], public=True)
        now = await ahttp_json(server.base, "/api/tables")
        assert [t["code"] for t in now] == [b["table"]["code"], a["table"]["code"]]
        assert now[1]["spectators"] == 1
        await watcher.close()

    run(main())


def test_the_guard_limits_new_connections_per_address() -> None:
    class Transport:
        def is_closing(self) -> bool:
            return False

    guard = ConnectionGuard(max_total=0, per_address=0, idle=0, rate=Rate(1, 60, 3))
    for _ in range(3):
        assert guard.admit("192.0.2.1", Transport()) is None  # type: ignore[arg-type]
    why = guard.admit("192.0.2.1", Transport())  # type: ignore[arg-type]
    assert why is not None and "new connections from one address" in why
    assert guard.admit("192.0.2.2", Transport()) is None  # type: ignore[arg-type]
