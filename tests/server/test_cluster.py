"""Several server processes over one PostgreSQL (``RATGAMES_TEST_POSTGRES``): each table is
owned by one process under a lease; a client reaching another process is sent to the owner
(close code 4009, the owner's address as the reason) and follows; a process that lost a table
drops it; when the owner goes (a graceful stop, or SIGKILL), another takes its tables over from
the database and the clients play on, no acknowledged action lost or applied twice."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

import ratgames
from ratgames.server import client as client_module
from ratgames.server import connections, store
from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.tables import Settings

from .conftest import Running, run, start_server
from .processes import HAPROXY, Balancer, ServeProcess, player
from .test_postgres import pg_url  # noqa: F401  (the fixture)

LEASE = 2.0


def leased_server(url: str) -> Running:
    running = start_server(
        url, Settings(bot_pause=0.0, ping_interval=0.5, warm_pool=False, lease=LEASE)
    )
    running.lobby.settings.address = running.base
    return running


def test_close_codes_agree() -> None:
    assert client_module.MOVED == connections.MOVED == 4009


def test_a_table_lives_in_one_process_and_moves_when_it_goes(pg_url: str) -> None:  # noqa: F811
    a = leased_server(pg_url)
    b = leased_server(pg_url)
    try:

        async def main() -> None:
            created = await ahttp_json(
                a.base,
                "/api/tables",
                {
                    "game": "rats",
                    "seats": [{"kind": "open"}, {"kind": "bot"}],
                    "options": {"max_rounds": 3},
                    "name": "P",
                },
            )
            code = created["table"]["code"]
            assert a.lobby.tables[code].lease is not None
            # reaching b, the client is sent to a, the owner
            client = TableClient(
                b.base, code, created["token"], created["host_token"], reconnect=True
            )
            await client.connect()
            assert client.moves == 1 and client.base == a.base
            assert code not in b.lobby.tables
            client.host("start")
            rng = random.Random(3)
            for _ in range(3):
                assert await client.my_turn_or_end(timeout=30)
                await client.act(rng.choice(client.legal), timeout=10)
            seq = client.acked
            # a goes away gracefully: its leases are given up, b takes the table at once
            await asyncio.to_thread(a.stop)
            began = time.monotonic()
            while code not in b.lobby.tables:
                assert time.monotonic() - began < 10, "b did not take the table over"
                await asyncio.sleep(0.05)
            assert b.lobby.taken_over >= 1
            assert await client.my_turn_or_end(timeout=30)
            assert time.monotonic() - began < 10
            assert b.lobby.tables[code].seq >= seq
            while await client.my_turn_or_end(timeout=30):
                try:
                    await client.act(rng.choice(client.legal), timeout=10)
                except ClientError as exc:
                    # a reconnecting client may be between two connections (one ended on the
                    # loaded machine): it is welcomed again and plays on
                    assert exc.code == "disconnected", exc
                    await client.wait(lambda c: c.welcomed, timeout=30)
            assert client.over
            await client.close()

        run(main(), timeout=120)
    finally:
        a.stop()
        b.stop()


def test_a_process_that_lost_its_lease_drops_the_table(pg_url: str) -> None:  # noqa: F811
    a = leased_server(pg_url)
    try:

        async def main() -> None:
            created = await ahttp_json(
                a.base,
                "/api/tables",
                {
                    "game": "rats",
                    "seats": [{"kind": "open"}, {"kind": "open"}],
                    "options": {"max_rounds": 3},
                    "name": "P",
                },
            )
            code = created["table"]["code"]
            client = TableClient(a.base, code, created["token"], created["host_token"])
            await client.connect()
            # another process takes the table over behind a's back (as after a long pause)
            engine = store.make_engine(pg_url)
            with engine.begin() as conn:
                conn.execute(
                    store.game_tables.update()
                    .where(store.game_tables.c.code == code)
                    .values(owner_until=0.0)
                )
                assert store.op_claim(code, "other", "http://other", 60)(conn) is not None
            engine.dispose()
            client.host("fill_bots")  # a's write is refused: it drops the table
            await client.wait(lambda c: c.moves >= 1, timeout=10)
            assert code not in a.lobby.tables and a.lobby.dropped == 1
            await client.close()

        run(main(), timeout=60)
    finally:
        a.stop()


def test_sigkill_of_the_owner_fails_over_to_the_other_process(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Two real ``ratgames serve`` processes over PostgreSQL; games are created at a, their
    clients reach them through b (sent on to a); a is killed with SIGKILL mid-game: every table
    is back on b within 10 s, the clients play on to the end, and the stored actions hold
    every acknowledged one, each once."""
    a = ServeProcess(pg_url, tmp_path / "a", lease=LEASE)
    b = ServeProcess(pg_url, tmp_path / "b", lease=LEASE)
    a.start()
    b.start()
    try:
        back_in = failover(pg_url, a, b, b.base)
    finally:
        a.stop()
        b.stop()
    print(f"play went on {back_in:.2f} s after the SIGKILL")


def test_failover_behind_haproxy(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """The same through HAProxy with the shipped configuration (deploy/haproxy.cfg): tables
    are created and played through the balancer's one address; the owner's SIGKILL is
    survived within 10 s."""
    if HAPROXY is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy; .ci/run does)")
    a = ServeProcess(pg_url, tmp_path / "a", lease=LEASE)
    b = ServeProcess(pg_url, tmp_path / "b", lease=LEASE)
    a.start()
    b.start()
    balancer: Balancer | None = None
    try:
        balancer = Balancer((a, b), tmp_path)
        back_in = failover(pg_url, a, b, balancer.base)
    finally:
        if balancer is not None:
            balancer.stop()
        a.stop()
        b.stop()
    print(f"behind HAProxy, play went on {back_in:.2f} s after the SIGKILL")


def failover(url: str, a: ServeProcess, b: ServeProcess, entry: str) -> float:
    """Games created at a, played by clients that connect at ``entry``; a killed with
    SIGKILL mid-game: the seconds until every game in play went on (checked below 10), after
    checking the stored actions."""
    games = {"rats": {"max_rounds": 6}, "rat-a-tat-cat": {"mode": "rounds=4"}}
    codes: list[str] = []
    acked: dict[str, list[tuple[int, str]]] = {}
    back_in: list[float] = []

    async def main() -> None:
        clients = []
        for game, options in games.items():
            created = await ahttp_json(
                a.base,
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
                entry, code, created["token"], created["host_token"], reconnect=True
            )
            await client.connect()
            if entry == b.base:
                assert client.base == a.base, "b sent the client to a, the owner"
            client.host("start")
            clients.append(client)
        stop = asyncio.Event()
        players = [
            asyncio.create_task(player(c, random.Random(i), acked[c.code], stop))
            for i, c in enumerate(clients)
        ]
        await asyncio.sleep(0.6)
        assert not any(c.over for c in clients), "a game ended before the kill"
        before = {code: len(done) for code, done in acked.items()}
        await asyncio.to_thread(a.kill)
        killed = time.monotonic()
        for client in clients:
            await client.wait(
                lambda c: c.over or (c.base != a.base and c.acked > 0 and c.state is not None),
                timeout=15,
            )
        while any(len(acked[c.code]) <= before[c.code] and not c.over for c in clients):
            await asyncio.sleep(0.05)
            assert time.monotonic() - killed < 10, (
                "play did not go on within 10 s",
                [(len(acked[c.code]), before[c.code], c.over, c.base, c.moves) for c in clients],
                b.base,
            )
        back_in.append(time.monotonic() - killed)
        await asyncio.wait_for(asyncio.gather(*players), 90)
        for client in clients:
            assert client.over
            await client.close()

    run(main(), timeout=180)
    assert back_in and back_in[0] < 10
    engine = store.make_engine(url)
    for code in codes:
        stored = store.load_table(engine, code)
        assert stored is not None and stored.row.status == "finished"
        seqs = [seq for seq, _ in acked[code]]
        assert len(seqs) == len(set(seqs)), "an action was acknowledged twice"
        for seq, text in acked[code]:
            assert stored.actions[seq - 1][1] == text, (code, seq, text)
        record = store.get_record(engine, stored.row.record_id or -1)
        assert record is not None
        assert ratgames.replay(record).is_over()
    engine.dispose()
    return back_in[0]
