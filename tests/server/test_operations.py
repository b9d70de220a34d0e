"""The server in operation: ``/healthz``, ``/readyz`` and ``/metrics`` on a real server (uvicorn
on a loopback port), and ``ratgames serve --log-format json`` in a subprocess."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

from ratgames.server.app import create_app
from ratgames.server.client import ClientError, ahttp_json, http_json
from ratgames.server.logs import JsonFormatter
from ratgames.server.operations import head_revision
from ratgames.server.tables import Settings

from .conftest import Running, pool_workers, run, start_server
from .helpers import FAST_ER_BOT, connect, create, play_turns


def get(base: str, path: str) -> tuple[int, str, str]:
    """GET ``path``: (status, content type, body)."""
    try:
        with urllib.request.urlopen(base + path, timeout=10) as answer:
            return answer.status, answer.headers["content-type"], answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["content-type"], exc.read().decode()


def ready(base: str) -> tuple[int, dict[str, Any]]:
    status, kind, body = get(base, "/readyz")
    assert kind == "application/json"
    return status, json.loads(body)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(base: str) -> Samples:
    """Every sample of ``/metrics``, by name and labels."""
    status, kind, body = get(base, "/metrics")
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# --- health and readiness -------------------------------------------------------------------------


def test_alive_and_ready(server: Running) -> None:
    assert get(server.base, "/healthz")[::2] == (200, '{"status":"alive"}')
    status, answer = ready(server.base)
    assert status == 200
    assert answer == {
        "ready": True,
        "reason": "",
        "database": "sqlite",
        "revision": head_revision(),
        "tables": 0,
    }


def test_not_ready_before_the_start() -> None:
    """Before the lifespan has brought the tables back (uvicorn listens only after it; another
    ASGI server might not), the server is alive but not ready."""

    async def main() -> None:
        app = create_app("sqlite:///:memory:")
        transport = httpx.ASGITransport(app=app)  # no lifespan: as if still starting
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            assert (await http.get("/healthz")).status_code == 200
            answer = await http.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["reason"].startswith("starting")

    run(main())


def test_not_ready_while_the_database_file_is_gone(server: Running, tmp_path: Path) -> None:
    db = tmp_path / "ratgames.db"
    assert ready(server.base)[0] == 200
    away = tmp_path / "away"
    away.mkdir()
    moved = list(tmp_path.glob("ratgames.db*"))
    for p in moved:
        p.rename(away / p.name)
    try:
        assert get(server.base, "/healthz")[0] == 200
        status, answer = ready(server.base)
        assert status == 503 and not answer["ready"]
        assert answer["reason"] == "the database does not answer: unable to open database file"
        assert not db.exists()  # the check made no empty database in its place
    finally:
        for p in moved:
            (away / p.name).rename(p)
    assert ready(server.base)[0] == 200


def test_not_ready_when_the_database_file_is_not_a_database(
    server: Running, tmp_path: Path
) -> None:
    db = tmp_path / "ratgames.db"
    away = tmp_path / "away"
    away.mkdir()
    moved = list(tmp_path.glob("ratgames.db*"))
    for p in moved:
        p.rename(away / p.name)
    db.write_bytes(b"this is not an SQLite database at all" * 200)
    try:
        status, answer = ready(server.base)
    finally:
        for p in moved:
            (away / p.name).replace(p)
    assert status == 503
    assert answer["reason"] == "the database does not answer: file is not a database"


def test_not_ready_when_the_migrations_are_not_current(server: Running, tmp_path: Path) -> None:
    db = tmp_path / "ratgames.db"
    head = head_revision()
    answers = {}
    for revision in ("0001", "9999"):  # older, and newer than this server knows (a rolling upgrade)
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE alembic_version SET version_num = ?", (revision,))
        try:
            answers[revision] = ready(server.base)
        finally:
            with sqlite3.connect(db) as conn:
                conn.execute("UPDATE alembic_version SET version_num = ?", (head,))
    status, answer = answers["0001"]
    assert status == 503
    assert answer["revision"] == "0001"
    assert answer["reason"] == (
        f"the database is at migration 0001, this server needs {head} (ratgames db upgrade)"
    )
    status, answer = answers["9999"]
    assert status == 503
    assert answer["reason"] == (
        f"the database is at migration 9999, newer than this server's {head}: a newer version "
        "migrated it (replace this process with that version)"
    )
    assert ready(server.base)[0] == 200


def test_not_ready_when_postgresql_is_gone() -> None:
    url = os.environ.get("RATGAMES_TEST_POSTGRES")
    if not url:
        pytest.skip("no PostgreSQL server: set RATGAMES_TEST_POSTGRES (.ci/run does)")
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"ratgames_test_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    db_url = sa.engine.make_url(url).set(database=name).render_as_string(hide_password=False)
    running = start_server(db_url, Settings(warm_pool=False))
    try:
        status, answer = ready(running.base)
        assert status == 200 and answer["database"] == "postgresql", answer
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        status, answer = ready(running.base)
        assert status == 503
        assert answer["reason"].startswith("the database does not answer: "), answer
        assert name in answer["reason"]  # PostgreSQL says which database does not exist
        assert get(running.base, "/healthz")[0] == 200
    finally:
        running.stop()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# --- metrics ----------------------------------------------------------------------------------


def test_metrics_move_with_play(server: Running) -> None:
    before = scrape(server.base)
    assert value(before, "ratgames_actions_total") == 0
    assert value(before, "process_cpu_seconds_total") > 0  # the process collector
    for state in ("lobby", "playing", "finished"):
        assert (("ratgames_tables", (("state", state),))) in before

    async def main() -> dict[str, Samples]:
        seen: dict[str, Samples] = {}
        created = await create(
            server.base,
            "egyptian-ratscrew",
            [{"kind": "open"}, {"kind": "bot", "bot": FAST_ER_BOT}],
        )
        client = await connect(server.base, created)
        spectator = await connect(server.base, {**created, "token": None, "host_token": None})
        with pytest.raises(ClientError) as refused:
            await client.act("play")  # not started yet
        assert refused.value.code == "wrong_status"
        client.host("start")
        await client.wait(lambda c: c.state is not None)
        seen["playing"] = await asyncio.to_thread(scrape, server.base)
        with pytest.raises(ClientError) as refused:
            await client.act("no such action")
        assert refused.value.code == "invalid_notation"
        moves = await play_turns(client)
        assert moves > 0
        await client.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        seen["over"] = await asyncio.to_thread(scrape, server.base)
        seen["over_seq"] = {("seq", ()): float(client.state["seq"])}  # type: ignore[index]
        await client.close()
        await spectator.close()
        return seen

    seen = run(main(), timeout=120)
    playing, over = seen["playing"], seen["over"]
    assert value(playing, "ratgames_tables", state="playing") == 1
    assert value(playing, "ratgames_connections", kind="seat") == 1
    assert value(playing, "ratgames_connections", kind="spectator") == 1
    assert value(over, "ratgames_tables", state="finished") == 1
    assert value(over, "ratgames_tables", state="playing") == 0
    assert value(over, "ratgames_tables_created_total") == 1
    assert value(over, "ratgames_games_finished_total") == 1

    actions = value(over, "ratgames_actions_total")
    assert actions == seen["over_seq"][("seq", ())]  # every action the game took, one each
    assert value(over, "ratgames_action_latency_seconds_count") == actions
    assert 0 < value(over, "ratgames_action_latency_seconds_sum") < actions * 1.0
    assert value(over, "ratgames_action_latency_seconds_bucket", le="+Inf") == actions
    commits = value(over, "ratgames_db_commit_seconds_count")
    assert commits >= 3  # the table, its start, its actions and its end
    assert value(over, "ratgames_db_commit_seconds_sum") > 0
    assert value(over, "ratgames_bot_think_seconds_count", kind="quick") > 0
    assert value(over, "ratgames_bot_think_seconds_count", kind="search") == 0
    assert value(over, "ratgames_races_settled_total") > 0  # the bot slaps
    assert value(over, "ratgames_rejected_messages_total", code="wrong_status") == 1
    assert value(over, "ratgames_rejected_messages_total", code="invalid_notation") == 1


def test_search_bot_thinking_is_measured(server: Running) -> None:
    def searches() -> float:
        return value(scrape(server.base), "ratgames_bot_think_seconds_count", kind="search")

    async def main() -> None:
        created = await create(
            server.base,
            "rat-a-tat-cat",
            [{"kind": "open"}, {"kind": "bot", "bot": "ismcts:iterations=50"}],
        )
        client = await connect(server.base, created)
        client.host("start")
        await client.wait(lambda c: c.state is not None)
        for _ in range(20):  # our moves until the search bot has had its turn
            if await asyncio.to_thread(searches) >= 1:
                break
            seq = client.state["seq"] if client.state else 0
            if client.legal:
                done = await client.act(client.legal[0])
                await client.wait(lambda c, d=done: c.state is not None and c.state["seq"] >= d)
            else:
                await client.wait(lambda c, s=seq: c.state is not None and c.state["seq"] > s, 60)
        await client.close()

    run(main(), timeout=120)
    assert searches() >= 1


def test_metrics_off_and_restricted(db_url: str, tmp_path: Path) -> None:
    off = start_server(db_url, Settings(warm_pool=False, metrics=False))
    try:
        assert get(off.base, "/metrics")[0] == 404
        assert get(off.base, "/readyz")[0] == 200
        run(create(off.base, "rats", [{"kind": "open"}, {"kind": "bot"}]))  # plays as ever
    finally:
        off.stop()
    elsewhere = start_server(
        f"sqlite:///{tmp_path / 'other.db'}",
        Settings(warm_pool=False, metrics_allow=("10.0.0.0/8", "192.0.2.7")),
    )
    loopback = start_server(
        f"sqlite:///{tmp_path / 'third.db'}",
        Settings(warm_pool=False, metrics_allow=("127.0.0.0/8", "::1")),
    )
    try:
        status, _, body = get(elsewhere.base, "/metrics")
        assert status == 403
        assert json.loads(body) == {"detail": "the metrics are not shown to your address"}
        # each app its own registry: one server's actions are not another's
        assert value(scrape(loopback.base), "ratgames_tables_created_total") == 0
    finally:
        elsewhere.stop()
        loopback.stop()


# --- serve: logs ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_logs_json_lines(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "ratgames.cli", "serve", "--port", str(port)]
    command += ["--db", str(tmp_path / "r.db"), "--workers", "1", "--log-format", "json", "-v"]
    env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if http_json(base, "/healthz", timeout=1) == {"status": "alive"}:
                    break
            except (OSError, ClientError):
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        created = run(ahttp_json(base, "/api/tables", {"game": "rats", "name": "A"}))
        assert ready(base)[0] == 200
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert out == b""
    # Every line the server writes is JSON.  Python's multiprocessing resource tracker (its own
    # process, not the server's logging) may report semaphores of the search workers left at a
    # stop under load: that line is not the server's, and is set aside here.
    text = [t for t in err.decode().splitlines() if "resource_tracker" not in t]
    lines = [json.loads(line) for line in text]
    assert all({"time", "level", "logger", "event", "message"} <= set(line) for line in lines)
    by_event = {line["event"]: line for line in lines}
    first = lines[0]
    assert first["event"] == "listening" and first["url"] == base + "/"
    assert first["database"].endswith("r.db") and first["metrics"] is True
    assert by_event["server_ready"]["tables_back"] == 0
    table = by_event["table_created"]
    assert table["level"] == "info" and table["logger"] == "ratgames.server"
    assert (table["table"], table["game"], table["public"]) == (
        created["table"]["code"],
        "rats",
        True,
    )
    assert any(line["logger"] == "uvicorn.access" for line in lines)
    assert time.strptime(first["time"][:19], "%Y-%m-%dT%H:%M:%S")


def test_serve_text_start_is_one_line(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "ratgames.cli", "serve", "--port", str(port)]
    command += ["--db", str(tmp_path / "r.db"), "--workers", "1", "--no-metrics"]
    env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(base, "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        assert get(base, "/metrics")[0] == 404
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert err.decode().splitlines() == [
        f"ratgames server on {base}/ (database sqlite:///{tmp_path / 'r.db'})"
    ]


def test_serve_refuses_a_bad_metrics_network(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "ratgames.cli", "serve", "--metrics-allow", "not-a-net"]
    done = subprocess.run(command, capture_output=True, timeout=60, text=True)
    assert done.returncode == 2
    assert "'not-a-net' is neither an IP address nor a network such as 10.0.0.0/8" in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_restart_is_counted_and_logged(db_url: str) -> None:
    """A search worker killed: the pool is started again, counted, and logged as an event."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("ratgames.server")
    logger.addHandler(handler)
    server = start_server(db_url, Settings(bot_pause=0.0, pool_workers=1, warm_pool=True))

    async def main() -> None:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "hard"}]
        host = await connect(server.base, await create(server.base, "caged-rats", seats))
        host.host("start")
        killed = False
        while await host.my_turn_or_end(timeout=30):
            if not killed and host.state is not None and host.state["seq"] >= 2:
                for worker in pool_workers(server):
                    os.kill(worker, signal.SIGKILL)
                killed = True
            await host.act(host.legal[0])
        assert killed and host.over
        await host.close()

    try:
        run(main(), timeout=120)
        samples = scrape(server.base)
    finally:
        server.stop()
        logger.removeHandler(handler)
    assert value(samples, "ratgames_worker_restarts_total") == 1
    assert value(samples, "ratgames_games_finished_total") == 1
    restarts = [r for r in records if getattr(r, "event", None) == "worker_restarted"]
    assert len(restarts) == 1 and restarts[0].levelno == logging.ERROR
    assert restarts[0].fields == {"workers": 1}  # type: ignore[attr-defined]
    line = json.loads(JsonFormatter().format(restarts[0]))
    assert line["event"] == "worker_restarted" and line["workers"] == 1
    assert line["message"].startswith("a search worker died")


def test_a_refused_websocket_is_logged(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A WebSocket over its address's limit is refused and logged as connection_refused (at
    most a few lines a minute: the test starts with the bucket full)."""
    import websockets

    from ratgames.server import limits

    monkeypatch.setattr(limits, "_REFUSED_LOG", limits.TokenBucket(rate=0.1, burst=3.0))
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("ratgames.server")
    logger.addHandler(handler)
    server = start_server(db_url, Settings(warm_pool=False, max_conns_per_address=1))

    async def main() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url):
            for _ in range(5):
                async with websockets.connect(url) as extra:
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await asyncio.wait_for(extra.recv(), 5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013

    try:
        run(main())
    finally:
        server.stop()
        logger.removeHandler(handler)
    refused = [r for r in records if getattr(r, "event", None) == "connection_refused"]
    assert len(refused) == 3  # five refusals, three lines: the rest left out
    assert refused[0].levelno == logging.WARNING
    assert refused[0].fields == {  # type: ignore[attr-defined]
        "address": "127.0.0.1",
        "reason": "too many WebSockets from the address",
    }
    assert refused[0].getMessage() == (
        'connection refused: address=127.0.0.1 reason="too many WebSockets from the address"'
    )
