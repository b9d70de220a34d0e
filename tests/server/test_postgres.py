"""The storage tests against a real PostgreSQL server.

``RATGAMES_TEST_POSTGRES`` names the server (``postgresql+psycopg://USER:PW@HOST:PORT/DB``, a
role allowed to create databases); each test gets a database of its own.  ``.ci/run`` installs
PostgreSQL from Debian's packages, starts it and sets the variable, so CI always runs these.
Without the variable they are skipped, saying so; with it set and no server answering they
fail."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

import ratgames
from ratgames.server import store
from ratgames.server.client import ahttp_json

from .conftest import run, start_server
from .helpers import connect, create, play_out

ENV = "RATGAMES_TEST_POSTGRES"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    url = os.environ.get(ENV)
    if not url:
        pytest.skip(
            f"no PostgreSQL server: set {ENV}=postgresql+psycopg://USER:PW@HOST/DB to run the "
            "storage tests against one (.ci/run does)"
        )
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"ratgames_test_{secrets.token_hex(6)}"
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.OperationalError as exc:
        admin.dispose()
        pytest.fail(f"{ENV} is set but the PostgreSQL server does not answer: {exc}")
    try:
        yield sa.engine.make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def test_migrations_and_writer(pg_url: str) -> None:
    """The schema is made by the migrations (twice is harmless) and the writer's group commits
    keep every operation, in order, each failing alone."""
    engine = store.make_engine(pg_url)
    store.upgrade(engine)
    store.upgrade(engine)
    assert store.current_revision(engine) == "0003"

    async def main() -> None:
        writer = store.Writer(engine)
        row = store.TableRow(
            "ABCDEF",
            "rats",
            2,
            {},
            True,
            "playing",
            "h" * 64,
            {"policy": "wait"},
            2**61,
            1,
            None,
            None,
            None,
            "2026-01-01T00:00:00+00:00",
        )
        await writer.run(store.op_save_table(row, [store.SeatRow(0, "open")]))
        results = await asyncio.gather(
            *(
                writer.run(store.op_add_actions("ABCDEF", [(n, 0, f"a{n}", n / 10)]))
                for n in range(1, 41)
            ),
            writer.run(store.op_add_actions("ABCDEF", [(1, 0, "duplicate", None)])),
            return_exceptions=True,
        )
        assert all(r is None for r in results[:40])
        assert isinstance(results[40], sa.exc.IntegrityError)
        writer.close()

    asyncio.run(main())
    stored = store.load_table(engine, "ABCDEF")
    assert stored is not None and stored.row.seed == 2**61
    assert [a[1] for a in stored.actions] == [f"a{n}" for n in range(1, 41)]
    engine.dispose()


def test_games_and_restarts_on_postgres(pg_url: str) -> None:
    """A whole game stored in PostgreSQL, and a table brought back by a restarted server."""
    first = start_server(pg_url)
    made: dict[str, object] = {}

    async def before() -> None:
        created = await create(first.base, "caged-rats", [{"kind": "open"}, {"kind": "bot"}])
        made.update(created)
        client = await connect(first.base, created)
        client.host("start")
        for _ in range(2):
            assert await client.my_turn_or_end()
            await client.act(client.legal[0])
        await client.close()

    run(before())
    first.stop()
    second = start_server(pg_url)

    async def after() -> None:
        client = await connect(second.base, made)  # type: ignore[arg-type]
        await play_out(client, random.Random(4))
        await client.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        record = await ahttp_json(second.base, f"/api/records/{client.state['record_id']}")  # type: ignore[index]
        assert ratgames.replay(record).is_over()
        assert record["events"][0]["seat"] in (0, 1)
        await client.close()

    run(after(), timeout=90)
    second.stop()
