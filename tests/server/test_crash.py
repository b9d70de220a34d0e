"""A server killed with SIGKILL at random moments of scripted games: after each restart every
acknowledged action is there, the clients reconnect by themselves and play goes on to the end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import ratgames
from ratgames.server import store
from ratgames.server.client import TableClient, ahttp_json

from .conftest import run
from .processes import ServeProcess, player

GAMES = {
    "rats": {"max_rounds": 6},
    "rat-a-tat-cat": {"mode": "rounds=4"},
    "caged-rats": {"target": 60},
}


def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    server = ServeProcess(db, tmp_path)
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
        before: dict[str, int] = {}
        for kill in range(3):
            # The first kill comes early, while every game is surely still on.
            await asyncio.sleep(rng.uniform(0.15, 0.4) if kill == 0 else rng.uniform(0.3, 1.2))
            if kill == 0:
                assert not any(c.over for c in clients), "a game ended before the first kill"
            await asyncio.to_thread(server.kill)
            if kill == 0:
                before = {code: len(done) for code, done in acked.items()}
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            await asyncio.to_thread(server.start)
        # play goes on to the end, over the clients' own new connections (the games may end
        # between two later kills on a quick machine: what counts is play after the first)
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
    engine = store.make_engine(store.database_url(str(db)))
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
