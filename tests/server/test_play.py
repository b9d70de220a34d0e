"""Whole games through a real server: people and bots, records, reconnects, spectators, hosts,
timeouts, rematches and restarts."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest

import ratgames
from ratgames.server import store
from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.tables import Settings

from .conftest import Running, run, start_server
from .helpers import FAST_ER_BOT, connect, create, play_out, play_turns

GAMES = ["rat-a-tat-cat", "rats", "caged-rats", "egyptian-ratscrew"]


def _bot_for(game: str) -> str:
    return FAST_ER_BOT if game == "egyptian-ratscrew" else "normal"


@pytest.mark.parametrize("game", GAMES)
def test_a_person_and_a_bot_play_a_whole_game(server: Running, game: str) -> None:
    """Every game plays to its end through the protocol; the stored record replays to the same
    outcome, and each state a seat got held its legal actions as notation."""

    async def main() -> None:
        created = await create(
            server.base, game, [{"kind": "open"}, {"kind": "bot", "bot": _bot_for(game)}]
        )
        assert created["seat"] == 0 and len(created["token"]) >= 43
        client = await connect(server.base, created, keep_frames=True)
        client.host("start")
        if game == "egyptian-ratscrew":
            await play_turns(client)
        else:
            await play_out(client, random.Random(1))
        state = client.state
        assert state is not None and state["outcome"] is not None
        await client.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        record = await ahttp_json(server.base, f"/api/records/{client.state['record_id']}")
        replayed = ratgames.replay(record)
        assert replayed.outcome() is not None
        assert replayed.outcome().to_json() == state["outcome"]  # type: ignore[union-attr]
        assert record["seats"][0] == {"name": "Host", "player": "human"}
        summaries = await ahttp_json(server.base, "/api/records")
        assert summaries[0]["id"] == client.state["record_id"]
        await client.close()

    run(main(), timeout=90)


def test_search_bots_think_outside_the_event_loop(db_url: str) -> None:
    """While a search bot thinks for two seconds on one table, another table's actions are
    acknowledged at once."""

    async def main() -> None:
        slow = await create(
            server.base,
            "caged-rats",
            [{"kind": "bot", "bot": "ismcts:seconds=2.0,tree=1"}, {"kind": "open"}],
            options={"single_deal": True},
        )
        fast = await create(server.base, "rat-a-tat-cat", [{"kind": "open"}, {"kind": "bot"}])
        a = await connect(server.base, slow)
        b = await connect(server.base, fast)
        a.host("start")
        b.host("start")
        await a.wait(lambda c: c.state is not None)
        while a.legal:  # our seat may have to move first; then the search bot's turn comes
            await a.act(a.legal[0])
            await a.wait(lambda c: c.state is not None and c.state["seq"] >= c.acked)
        assert a.state is not None and 0 in a.state["to_act"]
        thinking_at = a.state["seq"]
        await b.my_turn_or_end()
        await asyncio.sleep(0.5)  # the search bot (seat 0 of the slow table) is thinking now
        started = time.monotonic()
        await b.act(b.legal[0])
        assert time.monotonic() - started < 0.8  # far less than the 2 s the search takes
        assert a.state["seq"] == thinking_at  # it was still thinking
        await a.wait(lambda c: c.state is not None and c.state["seq"] > thinking_at, timeout=30)
        await a.close()
        await b.close()

    server = start_server(db_url, Settings(bot_pause=0.0, warm_pool=True))
    try:
        run(main())
    finally:
        server.stop()


def test_reconnect_gives_the_seat_back_with_its_observation(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        client = await connect(server.base, created)
        client.host("start")
        rng = random.Random(3)
        for _ in range(3):
            assert await client.my_turn_or_end()
            await client.act(rng.choice(client.legal))
        await client.close()
        again = TableClient(server.base, created["table"]["code"], created["token"])
        welcome = await again.connect()
        assert welcome["seat"] == 0
        await again.wait(lambda c: c.state is not None)
        state = again.state
        assert state is not None and state["observation"] is not None
        # the first state after a reconnect carries every event of the observation
        assert [e["event"] for e in state["events"]] == state["observation"]["events"]
        assert await again.my_turn_or_end()
        await again.act(again.legal[0])
        await again.close()

    run(main())


def test_spectators_see_the_spectator_view_and_cannot_act(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "rat-a-tat-cat", [{"kind": "open"}, {"kind": "bot"}])
        player = await connect(server.base, created)
        watcher = TableClient(server.base, created["table"]["code"])
        welcome = await watcher.connect()
        assert welcome["seat"] is None
        player.host("start")
        await watcher.wait(lambda c: c.state is not None)
        state = watcher.state
        assert state is not None
        assert state["observation"] is None and state["view"] is not None and state["legal"] == []
        with pytest.raises(ClientError) as refused:
            await watcher.act("draw")
        assert refused.value.code == "not_a_seat"
        await player.close()
        await watcher.close()

    run(main())


def test_tokens_are_checked(server: Running) -> None:
    """A wrong token, another table's token, a host message without the host token, and a
    seat given away by the host: each refused with the right code."""

    async def main() -> None:
        one = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        two = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = one["table"]["code"]
        for token in ("x" * 43, two["token"]):
            bad = TableClient(server.base, code, token)
            with pytest.raises(ClientError) as refused:
                await bad.connect()
            assert refused.value.code == "bad_token"
            await bad.close()
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bob"})
        assert joined["seat"] == 1 and joined["token"] != one["token"]
        bob = TableClient(server.base, code, joined["token"])
        await bob.connect()
        bob.host("start")
        await bob.wait(lambda c: any(e["code"] == "not_host" for e in c.errors))
        host = await connect(server.base, one)
        host.host("seat", seat=1, kind="bot", bot="normal")
        await bob.wait(lambda c: any(e["code"] == "bad_token" for e in c.errors))
        stored = store.load_table(server.lobby.engine, code)
        assert stored is not None
        assert all(s.token_hash != joined["token"] for s in stored.seats)  # hashes only
        host.host("start")
        await host.wait(lambda c: c.state is not None)
        with pytest.raises(ClientError) as refused:
            await bob.act("pass")
        assert refused.value.code in ("not_a_seat", "bad_token")
        await bob.close()
        await host.close()

    run(main())


def test_lobby_rest_api(server: Running) -> None:
    async def main() -> None:
        games = await ahttp_json(server.base, "/api/games")
        assert {g["id"] for g in games} >= set(GAMES)
        assert all(g["options"] is not None and g["levels"] for g in games)
        public = await create(server.base, "rats", [{"kind": "open"}, {"kind": "open"}])
        private = await create(
            server.base, "rats", [{"kind": "open"}, {"kind": "open"}], public=False
        )
        listed = {t["code"] for t in await ahttp_json(server.base, "/api/tables")}
        assert public["table"]["code"] in listed and private["table"]["code"] not in listed
        info = await ahttp_json(server.base, f"/api/tables/{private['table']['code']}")
        assert info["public"] is False
        for body, status in (
            ({"game": "chess"}, "400"),
            ({"game": "rats", "players": 9}, "400"),
            ({"game": "rats", "options": {"nope": 1}}, "400"),
            ({"game": "rats", "seats": [{"kind": "bot", "bot": "nonsense"}, {}]}, "400"),
            ({"game": "rats", "name": ""}, "422"),
        ):
            with pytest.raises(ClientError) as refused:
                await ahttp_json(server.base, "/api/tables", body)
            assert refused.value.code == status, body
            assert refused.value.message
        with pytest.raises(ClientError) as refused:
            await ahttp_json(server.base, "/api/tables/ZZZZZZ")
        assert refused.value.code == "404"
        code = public["table"]["code"]
        await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "B"})
        with pytest.raises(ClientError) as refused:
            await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "C"})
        assert refused.value.code == "409"
        schema = await ahttp_json(server.base, "/api/protocol/schema")
        assert "ClientMessage" in schema["$defs"]
        openapi = await ahttp_json(server.base, "/openapi.json")
        assert "/api/tables" in openapi["paths"]

    run(main())


def test_stand_in_bot_plays_for_an_absent_person(server: Running) -> None:
    async def main() -> None:
        created = await create(
            server.base,
            "caged-rats",
            [{"kind": "open"}, {"kind": "bot"}],
            timeout={"policy": "bot", "seconds": 0.2, "bot": "random"},
        )
        client = await connect(server.base, created)
        client.host("start")
        await client.wait(lambda c: c.state is not None)
        await client.close()
        watcher = TableClient(server.base, created["table"]["code"])
        await watcher.connect()
        await watcher.wait(lambda c: c.over, timeout=60)
        await watcher.close()

    run(main(), timeout=90)


def test_rematch_keeps_the_seats_and_tokens(server: Running) -> None:
    async def main() -> None:
        created = await create(
            server.base,
            "caged-rats",
            [{"kind": "open"}, {"kind": "bot"}],
            options={"single_deal": True},
        )
        client = await connect(server.base, created)
        client.host("start")
        await play_out(client, random.Random(5))
        client.host("rematch")
        await client.wait(lambda c: c.rematch is not None)
        new = TableClient(server.base, client.rematch, created["token"], created["host_token"])
        welcome = await new.connect()
        assert welcome["seat"] == 0 and welcome["table"]["game_no"] == 2
        new.host("start")
        await new.wait(lambda c: c.state is not None)
        await client.close()
        await new.close()

    run(main())


def test_tables_come_back_after_a_restart(db_url: str) -> None:
    """A server stopped mid-game and started again on the same database resumes the table at
    its last acknowledged action; the seat token still works."""
    first = start_server(db_url)
    created: dict[str, object] = {}
    acked: list[str] = []

    async def before() -> None:
        made = await create(first.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        created.update(made)
        client = await connect(first.base, made)
        client.host("start")
        rng = random.Random(7)
        for _ in range(4):
            assert await client.my_turn_or_end()
            await client.act(rng.choice(client.legal))
        assert await client.my_turn_or_end()  # the bot has moved: the table waits for us
        acked.append(json.dumps(client.state["observation"]))  # type: ignore[index]
        await client.close()

    run(before())
    first.stop()
    second = start_server(db_url)

    async def after() -> None:
        client = await connect(second.base, created)  # type: ignore[arg-type]
        await client.wait(lambda c: c.state is not None)
        assert json.dumps(client.state["observation"]) == acked[0]  # type: ignore[index]
        await play_out(client, random.Random(8))
        await client.close()

    run(after(), timeout=90)
    second.stop()
