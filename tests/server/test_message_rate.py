"""A connection's message rate (20 a second, bursts of 40): an action or sample request dropped
for it is answered with its own ``id``, so that no client waits for an answer that never comes,
and the client library sends it again after a pause.

A client acting faster than the rate (a bot at a remote table, say, on a fast server) once lost
such an action without a word: the refusal named no ``id`` and the game stalled."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.limits import Rate
from ratgames.server.tables import Settings

from .conftest import Running, run, start_server
from .helpers import connect, create

BURST = 40


async def _requests_answered(client: TableClient, count: int) -> list[dict[str, Any]]:
    """Send ``count`` sample requests at once (ids from 1000) and return the answer to each:
    a ``sample`` or an ``error`` naming its id."""
    answered: dict[int, dict[str, Any]] = {}

    def note(msg: dict[str, Any]) -> None:
        ref = msg.get("id") if msg["type"] == "sample" else msg.get("ref")
        if isinstance(ref, int) and ref >= 1000:
            answered[ref] = msg

    client.on_message = note
    for ident in range(1000, 1000 + count):
        client.send({"type": "sample", "v": 1, "id": ident})
    await client.wait(lambda c: len(answered) == count, timeout=10)
    client.on_message = None
    return list(answered.values())


async def _seated(server: Running) -> tuple[TableClient, TableClient]:
    """A started two-seat Rats table: the host and a second seat, both connected."""
    created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "open"}])
    code = created["table"]["code"]
    joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Quick"})
    host = await connect(server.base, created)
    quick = TableClient(server.base, code, joined["token"])
    await quick.connect()
    host.host("start")
    await quick.wait(lambda c: c.state is not None)
    return host, quick


def test_every_request_over_the_rate_is_answered_with_its_id(server: Running) -> None:
    async def main() -> None:
        host, quick = await _seated(server)
        answers = await _requests_answered(quick, BURST + 20)  # all at once: beyond the burst
        refused = [m for m in answers if m["type"] == "error"]
        assert refused, "the requests beyond the burst are refused"
        assert len(answers) - len(refused) >= BURST - 2  # the burst (less pongs) is served
        for msg in refused:
            assert msg["code"] == "rate_limited"
            assert re.search(r"at most 20 a second .*try again in \d+\.\d\d s", msg["message"])
        # and the connection goes on
        await asyncio.sleep(0.5)
        assert (await quick.sample())["type"] == "sample"
        for client in (host, quick):
            await client.close()

    run(main(), timeout=60)


def test_the_client_library_sends_a_dropped_request_again(server: Running) -> None:
    async def main() -> None:
        host, quick = await _seated(server)
        samples = await asyncio.gather(*(quick.sample() for _ in range(BURST + 30)))
        assert all(s["type"] == "sample" for s in samples)
        # an action too: dropped for the rate, sent again, carried out once
        await asyncio.sleep(2.5)  # the bucket full again
        mover = next(c for c in (host, quick) if c.state is not None and c.state["legal"])
        before = mover.state["seq"]  # type: ignore[index]
        sent: list[dict[str, Any]] = []
        queue_out = mover._queue_out

        def counted(message: dict[str, Any]) -> None:
            sent.append(message)
            queue_out(message)

        mover._queue_out = counted  # type: ignore[method-assign]
        for _ in range(BURST):
            mover.send({"type": "sample", "v": 1, "id": 7})
        seq = await mover.act(mover.legal[0])
        assert seq == before + 1
        actions = [m for m in sent if m["type"] == "action"]
        assert len(actions) >= 2, "the action was dropped for the rate, then sent again"
        assert len({m["id"] for m in actions}) == len(actions)  # each time with a new id
        # refused for another reason, it is not sent again
        with pytest.raises(ClientError) as refused:
            await mover.act("xyzzy")
        assert refused.value.code == "invalid_notation"
        for client in (host, quick):
            await client.close()

    run(main(), timeout=60)


def test_a_request_dropped_for_its_address_is_answered_too(db_url: str) -> None:
    """The messages of all the connections from one address have a rate of their own: beyond
    it they are dropped unread, but an action or sample request is still answered with its
    id."""
    quiet = {"bot_pause": 0.0, "ping_interval": 5.0, "warm_pool": False}
    server = start_server(db_url, Settings(**quiet, message_rate=Rate(10, 1.0, 10)))
    try:

        async def main() -> None:
            host, quick = await _seated(server)
            await asyncio.sleep(1.5)  # the address's bucket full again
            answers = await _requests_answered(quick, 25)
            dropped = [m for m in answers if m["type"] == "error"]
            assert dropped and all(m["code"] == "rate_limited" for m in dropped)
            assert "messages are dropped" in dropped[0]["message"]
            for client in (host, quick):
                await client.close()

        run(main(), timeout=60)
    finally:
        server.stop()
