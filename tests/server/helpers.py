"""Helpers of the server tests: creating tables and playing seats through the protocol."""

from __future__ import annotations

import random
from typing import Any

from ratgames.server.client import TableClient, ahttp_json

FAST_ER_BOT = "heuristic:level=perfect,play_ms=5"
"""An Egyptian Ratscrew bot that plays its cards at once and slaps in 150 ms."""

QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "egyptian-ratscrew": {"max_cards": 60},
    "caged-rats": {"single_deal": True},
    "rats": {"max_rounds": 2},
    "rat-a-tat-cat": {"mode": "rounds=2"},
}
"""Options that keep each game short in the tests."""


async def create(base: str, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """A new table; the creator sits at the first open seat (unless ``sit=False``)."""
    request = {"game": game, "seats": seats, "name": "Host", **body}
    request.setdefault("options", QUICK_OPTIONS.get(game, {}))
    created: dict[str, Any] = await ahttp_json(base, "/api/tables", request)
    return created


async def connect(base: str, created: dict[str, Any], **kw: Any) -> TableClient:
    """The creator's connection (with the host token)."""
    client = TableClient(
        base, created["table"]["code"], created["token"], created["host_token"], **kw
    )
    await client.connect()
    return client


async def play_out(client: TableClient, rng: random.Random, max_moves: int = 5000) -> int:
    """Play the client's seat with random legal moves until the game ends; moves made."""
    moves = 0
    while await client.my_turn_or_end(timeout=30):
        legal = client.legal
        await client.act(rng.choice(legal))
        moves += 1
        assert moves < max_moves, "the game does not end"
    return moves


async def play_turns(client: TableClient, max_moves: int = 5000) -> int:
    """Real time: play/collect whenever offered (never slap) until the game ends."""
    moves = 0
    while await client.my_turn_or_end(timeout=30):
        moves_now = [a for a in client.legal if not a.startswith("slap")]
        if not moves_now:
            seq = client.state["seq"] if client.state else 0
            await client.wait(
                lambda c, s=seq: c.over or (c.state is not None and c.state["seq"] > s)
            )
            continue
        try:
            await client.act(moves_now[0])
        except Exception as exc:  # a slap may have taken the pile first
            if "illegal_action" not in str(exc):
                raise
        moves += 1
        assert moves < max_moves, "the game does not end"
    return moves
