"""The test game, High Card, gets a server table from its own modules alone: registered with its
parts (``ratgames.testing.register_high_card``), it is listed, seated and played through the
protocol like a built-in game (the worked example of ``docs/adding-a-game.md``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import ratgames
from ratgames.core import registry
from ratgames.server.client import ahttp_json
from ratgames.testing import HighCard, register_high_card

from .conftest import Running, run
from .helpers import connect, create, play_out


@pytest.fixture(autouse=True)
def high_card() -> Iterator[None]:
    ratgames.game_ids()
    games, parts = dict(registry._GAMES), dict(registry._PARTS)
    register_high_card()
    yield
    registry._GAMES.clear()
    registry._GAMES.update(games)
    registry._PARTS.clear()
    registry._PARTS.update(parts)


def test_high_card_is_listed_seated_and_played_to_its_end(server: Running) -> None:
    async def main() -> None:
        listed = await ahttp_json(server.base, "/api/games")
        info = next(g for g in listed if g["id"] == HighCard.id)
        assert info["title"] == "High Card" and set(info["levels"]) == {
            "easy",
            "normal",
            "hard",
            "expert",
        }
        created = await create(
            server.base,
            HighCard.id,
            [{"kind": "open"}, {"kind": "bot", "bot": "random"}],
            options={"turns": 6},
        )
        client = await connect(server.base, created, keep_frames=True)
        client.host("start")
        moves = await play_out(client, random.Random(3))
        assert moves == 3  # six turns, every other one ours
        state = client.state
        assert state is not None and state["outcome"] is not None
        assert sorted(state["observation"]) == ["events", "hand", "pile", "played", "seat", "turn"]
        await client.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        record = await ahttp_json(server.base, f"/api/records/{client.state['record_id']}")
        replayed = ratgames.replay(record)
        assert replayed.outcome() is not None
        assert replayed.outcome().to_json() == state["outcome"]  # type: ignore[union-attr]
        # The log's sentences come from the game's render part.
        said = [f for f in client.frames if "You played" in str(f)]
        assert said, "no event sentence reached the seat"
        await client.close()

    run(main(), timeout=60)
