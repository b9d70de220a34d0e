"""The lobby across the server processes sharing one PostgreSQL (``RATGAMES_TEST_POSTGRES``):
each lists the public tables of every process, and a change at one (a seat taken, a game
started or ended) reaches the listing of the others, over PostgreSQL's LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ratgames.server import notify
from ratgames.server.client import TableClient, ahttp_json
from ratgames.server.tables import Settings

from .conftest import Running, run, start_server
from .test_postgres import pg_url  # noqa: F401  (the fixture)

LEASE = 2.0


def leased_server(url: str) -> Running:
    running = start_server(
        url, Settings(bot_pause=0.0, ping_interval=0.5, warm_pool=False, lease=LEASE)
    )
    running.lobby.settings.address = running.base
    return running


async def listed(base: str, **query: Any) -> list[dict[str, Any]]:
    """The lobby's listing at ``base`` (one page)."""
    path = "/api/tables"
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    page: list[dict[str, Any]] = await ahttp_json(base, path)
    return page


async def until_listed(
    base: str, test: Callable[[dict[str, dict[str, Any]]], bool], within: float = 5.0
) -> dict[str, dict[str, Any]]:
    """Poll the listing at ``base`` until ``test`` holds of it (by code); the listing."""
    deadline = time.monotonic() + within
    while True:
        page = {t["code"]: t for t in await listed(base, limit=500)}
        if test(page):
            return page
        assert time.monotonic() < deadline, ("the listing did not change as expected", page)
        await asyncio.sleep(0.1)


async def new_table(base: str, public: bool = True, game: str = "rats") -> dict[str, Any]:
    created: dict[str, Any] = await ahttp_json(
        base,
        "/api/tables",
        {
            "game": game,
            "seats": [{"kind": "open"}, {"kind": "open"}],
            "options": {"max_rounds": 2} if game == "rats" else {},
            "name": "Host",
            "public": public,
        },
    )
    return created


def test_every_process_lists_the_public_tables_of_every_process(pg_url: str) -> None:  # noqa: F811
    a = leased_server(pg_url)
    b = leased_server(pg_url)
    try:

        async def main() -> None:
            shared_a, shared_b = a.lobby.shared, b.lobby.shared
            assert shared_a is not None and shared_b is not None
            deadline = time.monotonic() + 10
            while not (shared_a.listening.is_set() and shared_b.listening.is_set()):
                assert time.monotonic() < deadline, "the processes did not start listening"
                await asyncio.sleep(0.05)
            at_a = (await new_table(a.base))["table"]["code"]
            hidden = (await new_table(a.base, public=False))["table"]["code"]
            at_b = (await new_table(b.base))["table"]["code"]
            page = await until_listed(b.base, lambda p: at_a in p)
            assert at_b in page and hidden not in page
            page = await until_listed(a.base, lambda p: at_b in p)
            assert at_a in page and hidden not in page
            assert at_a in a.lobby.tables and at_a not in b.lobby.tables  # listed, not taken

            # pages walk over the tables of both processes, newest first, each once
            seen: list[str] = []
            after: str | None = None
            while True:
                query: dict[str, Any] = {"limit": 1}
                if after is not None:
                    query["after"] = after
                page_b = await listed(b.base, **query)
                if not page_b:
                    break
                seen.append(page_b[0]["code"])
                after = page_b[0]["code"]
            assert sorted(seen) == sorted([at_a, at_b])

            # a seat taken at a shows at b, and so does the start of the game
            joined = await ahttp_json(a.base, f"/api/tables/{at_a}/join", {"name": "Ann"})
            page = await until_listed(
                b.base, lambda p: [s["name"] for s in p[at_a]["seats"]] == ["Host", "Ann"]
            )
            ann = TableClient(a.base, at_a, joined["token"])
            await ann.connect()
            await until_listed(b.base, lambda p: p[at_a]["seats"][1]["connected"])
            await ann.close()
            await until_listed(b.base, lambda p: not p[at_a]["seats"][1]["connected"])
            host = await new_table(a.base)
            code = host["table"]["code"]
            await ahttp_json(a.base, f"/api/tables/{code}/join", {"name": "Bob"})
            await until_listed(b.base, lambda p: code in p)
            client = TableClient(a.base, code, host["token"], host["host_token"])
            await client.connect()
            client.host("fill_bots")
            client.host("start")
            await until_listed(b.base, lambda p: p[code]["status"] == "playing")
            await client.close()

            # a table that expires leaves the other lobby too
            a.lobby.tables[at_a].active_at -= 10_000
            a.lobby.settings.lobby_idle = 60
            assert await a.lobby.expire_idle() >= 1
            await until_listed(b.base, lambda p: at_a not in p)
            assert shared_b.received > 0 and shared_a.sent > 0

        run(main(), timeout=90)
    finally:
        a.stop()
        b.stop()


def test_a_process_starting_late_hears_every_table_and_a_stop_is_heard(
    pg_url: str,  # noqa: F811
) -> None:
    a = leased_server(pg_url)
    b: Running | None = None
    try:

        async def main() -> None:
            nonlocal b
            codes = [(await new_table(a.base))["table"]["code"] for _ in range(3)]
            b = await asyncio.to_thread(leased_server, pg_url)
            # b's hello makes a announce its tables again
            await until_listed(b.base, lambda p: all(c in p for c in codes))
            assert all(c not in b.lobby.tables for c in codes)
            # a's tables held by nobody (a stops): b lists them with nobody connected; its
            # owner's bye is heard at once, not after the heartbeats stop
            joined = await ahttp_json(a.base, f"/api/tables/{codes[0]}/join", {"name": "Ann"})
            ann = TableClient(a.base, codes[0], joined["token"])
            await ann.connect()
            await until_listed(b.base, lambda p: p[codes[0]]["seats"][1]["connected"])
            began = time.monotonic()
            await asyncio.to_thread(a.stop)
            await until_listed(b.base, lambda p: not p[codes[0]]["seats"][1]["connected"])
            assert time.monotonic() - began < notify.SILENT
            page = await listed(b.base)
            assert {c for c in codes} <= {t["code"] for t in page}
            await ann.close()

        run(main(), timeout=90)
    finally:
        a.stop()
        if b is not None:
            b.stop()


def test_notifications_stay_within_postgresql_s_limit() -> None:
    shared = notify.SharedLobby("postgresql://nowhere/none", "me", list, lambda: None)
    info = {"code": "ABCDEF", "public": True, "status": "lobby", "seats": [{"name": "x" * 40}] * 8}
    pending: dict[str, tuple[int, dict[str, Any] | None]] = {
        f"T{i:05d}": (i, {**info, "code": f"T{i:05d}"}) for i in range(100)
    }
    pending["GONE01"] = (3, None)
    payloads = shared.payloads(pending)
    assert len(payloads) > 1
    assert all(len(p) <= notify.MAX_PAYLOAD for p in payloads)
    heard = notify.SharedLobby("postgresql://nowhere/none", "other", list, lambda: None)
    for p in payloads:
        heard.hear(p.decode())
    assert len(heard.tables) == 100
    # a late word from a process that lost a table is ignored
    heard.hear(
        '{"o": "late", "k": "t", "t": [[0, {"code": "T00005", "public": true, '
        '"status": "lobby", "seats": []}]]}'
    )
    assert heard.tables["T00005"].owner == "me"
    # a word from the owner itself is heard whatever its token
    heard.hear('{"o": "me", "k": "t", "t": [[0, "T00005"]]}')
    assert "T00005" not in heard.tables
    heard.hear("not json")
    assert len(heard.tables) == 99


def test_an_address_clients_cannot_be_sent_to_is_refused() -> None:
    from click.testing import CliRunner

    from ratgames.cli import app as cli_app

    for bad in ("127.0.0.1:8001", "http://" + "x" * 130):
        result = CliRunner().invoke(
            cli_app, ["serve", "--db", "postgresql+psycopg://u@127.0.0.1/db", "--advertise", bad]
        )
        assert result.exit_code == 2
        assert "--advertise" in result.output and "at most 123 bytes" in result.output


def test_a_tables_request_at_another_process_is_sent_to_its_owner(pg_url: str) -> None:  # noqa: F811
    """A REST request for a table another process holds (its info, a join) is answered with a
    307 to the owner's address (a POST stays a POST with its body), which the terminal
    client's requests follow: a join by invite link works whichever process the balancer
    picked."""
    import urllib.error
    import urllib.request

    a = leased_server(pg_url)
    b = leased_server(pg_url)
    try:

        async def main() -> None:
            created = await new_table(a.base, public=False)
            code = created["table"]["code"]
            # Not followed: the answer says where, and why in words.
            request = urllib.request.Request(
                f"{b.base}/api/tables/{code}/join?table={code}",
                data=b'{"name": "Bob"}',
                method="POST",
                headers={"content-type": "application/json"},
            )
            try:
                urllib.request.urlopen(request, timeout=10)
                raise AssertionError("process b answered for a table it does not hold")
            except urllib.error.HTTPError as exc:
                assert exc.code == 307, exc.code
                assert exc.headers["location"] == f"{a.base}/api/tables/{code}/join?table={code}"
                assert "served by another server process" in exc.read().decode()
            # Followed: the info, and a join that takes the seat at the owner.
            info = await ahttp_json(b.base, f"/api/tables/{code}")
            assert info["code"] == code
            joined = await ahttp_json(b.base, f"/api/tables/{code}/join", {"name": "Bob"})
            assert joined["seat"] == 1
            seats = a.lobby.tables[code].seats
            assert seats[1].name == "Bob" and code not in b.lobby.tables

        run(main())
    finally:
        a.stop()
        b.stop()
