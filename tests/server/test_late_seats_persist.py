"""When a late seat was taken (``arrived``, seconds of play) is stored with the seat: a table
brought back by a restarted server, or taken over by another process sharing the database,
still says it in its ``table`` message, and the record of the game finished there carries it.
The migrations make the schema the store declares, and migration 0003 (the column) undoes
cleanly."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

import ratgames
from ratgames.server import store
from ratgames.server.client import TableClient, ahttp_json
from ratgames.server.tables import Settings

from .conftest import Running, run, start_server
from .helpers import connect, create, play_turns
from .test_postgres import pg_url  # noqa: F401  (the fixture)

GID = "egyptian-ratscrew"
QUIET_BOT = "heuristic:play_ms=200,miss=1,false_slap=0"
"""A bot that plays its cards and never slaps: a late one stays out, waiting to slap in."""


def leased_server(url: str) -> Running:
    """A server process that holds its tables under leases (several share the database)."""
    running = start_server(
        url, Settings(bot_pause=0.0, ping_interval=0.5, warm_pool=False, lease=2.0)
    )
    running.lobby.settings.address = running.base
    return running


@pytest.fixture(params=["restart", "takeover", "takeover-postgres"])
def how(request: pytest.FixtureRequest, db_url: str) -> tuple[str, str]:
    """How the table changes process (a restart on the same database, or a take-over by a
    second process holding leases) and the database's URL."""
    if request.param == "takeover-postgres":
        return "takeover", request.getfixturevalue("pg_url")
    return request.param, db_url


def late_seats(table: dict[str, Any]) -> list[tuple[str, str | None, float | None]]:
    return [(s["kind"], s["name"], s["arrived"]) for s in table["seats"] if s["late"]]


def test_a_late_seats_arrival_outlives_the_process_that_saw_it(how: tuple[str, str]) -> None:
    kind, url = how
    first = leased_server(url) if kind == "takeover" else start_server(url)
    second: Running | None = leased_server(url) if kind == "takeover" else None
    made: dict[str, Any] = {}

    async def before() -> None:
        created = await create(
            first.base,
            GID,
            [
                {"kind": "open"},
                {"kind": "bot", "bot": QUIET_BOT},
                {"kind": "open"},
                {"kind": "open"},
            ],
            options={"newcomers": 2, "max_cards": 50},
        )
        made.update(created)
        code = created["table"]["code"]
        host = await connect(first.base, created)
        host.host("start")  # the late seats stay open; the game waits for the host's card
        await host.wait(lambda c: c.table is not None and c.table["status"] == "playing")
        await host.wait(lambda c: c.state is not None)
        await asyncio.sleep(0.2)  # some seconds of play go by before anyone comes
        joined = await ahttp_json(first.base, f"/api/tables/{code}/join", {"name": "Dana"})
        assert joined["seat"] == 2
        host.host("seat", seat=3, kind="bot", bot=QUIET_BOT)
        await host.wait(lambda c: c.table is not None and c.table["seats"][3]["kind"] == "bot")
        seen = late_seats(host.table)  # type: ignore[arg-type]
        assert [(k, n) for k, n, _ in seen] == [("person", "Dana"), ("bot", QUIET_BOT)]
        assert all(a is not None and a > 0 for _, _, a in seen)
        made["seen"] = seen
        await host.close()

    run(before())
    first.stop()
    if second is None:
        second = start_server(url)
    code = made["table"]["code"]

    async def after() -> None:
        assert second is not None
        info = await ahttp_json(second.base, f"/api/tables/{code}")
        assert late_seats(info) == made["seen"], "the table brought back says when they came"
        host = TableClient(second.base, code, made["token"], made["host_token"])
        welcome = await host.connect()
        assert late_seats(welcome["table"]) == made["seen"]
        await play_turns(host)
        await host.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        state = host.state
        assert state is not None and state["outcome"] is not None
        record = await ahttp_json(second.base, f"/api/records/{state['record_id']}")
        seats = record["seats"]
        assert [s.get("late", False) for s in seats] == [False, False, True, True]
        assert [(s["name"], s["arrived"]) for s in seats[2:]] == [
            ("Dana", pytest.approx(made["seen"][0][2], abs=1e-3)),
            (QUIET_BOT, pytest.approx(made["seen"][1][2], abs=1e-3)),
        ]
        replayed = ratgames.replay(record).outcome()
        assert replayed is not None and replayed.to_json() == state["outcome"]
        await host.close()

    try:
        run(after(), timeout=120)
    finally:
        second.stop()
    if kind == "takeover":
        assert second.lobby.taken_over >= 1


def test_the_migrations_make_the_declared_schema_and_0003_undoes(tmp_path: Path) -> None:
    engine = store.make_engine(f"sqlite:///{tmp_path / 'schema.db'}")
    store.upgrade(engine)
    assert store.current_revision(engine) == "0003"
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), store.metadata)
    assert differences == [], "store.py's tables and the migrations' differ"

    config = store.alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0002")
    assert store.current_revision(engine) == "0002"
    columns = {c["name"] for c in sa.inspect(engine).get_columns("seats")}
    assert columns == {"table_code", "seat", "kind", "name", "bot", "token_hash"}
    store.upgrade(engine)
    columns = {c["name"] for c in sa.inspect(engine).get_columns("seats")}
    assert "arrived" in columns
    engine.dispose()


def test_a_seats_arrival_is_stored_and_read_back(tmp_path: Path) -> None:
    engine = store.make_engine(f"sqlite:///{tmp_path / 'seats.db'}")
    store.upgrade(engine)
    row = store.TableRow(
        "ABCDEF", GID, 3, {"newcomers": 1}, True, "playing", "h" * 64, {"policy": "wait"}, 7, 1,
        None, None, None, "2026-11-27T00:00:00Z",
    )  # fmt: skip
    seats = [
        store.SeatRow(0, "person", "Ann", None, "t" * 64),
        store.SeatRow(1, "bot", "normal", "normal"),
        store.SeatRow(2, "person", "Dana", None, "u" * 64, arrived=83.25),
    ]
    with engine.begin() as conn:
        store.op_save_table(row, seats)(conn)
    stored = store.load_table(engine, "ABCDEF")
    assert stored is not None
    assert [s.arrived for s in stored.seats] == [None, None, 83.25]
    engine.dispose()
