"""Fair slaps over a network: with one client 20 ms away and another 150 ms away (each way),
the player who reacted faster wins the race, whatever the latency."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.fairness import MIN_REACTION, reaction_credit

from .conftest import Running, run
from .helpers import connect, create

RACES = 40
ALL_SLAPS = {
    "top_bottom": True,
    "tens": True,
    "marriage": True,
    "divorce": True,
    "run": True,
    "max_cards": 2000,
    "burn": 0,
}
"""Every slap rule on, so that races come often."""


def _valid_slap(event: dict[str, Any]) -> bool:
    """A slap that took the pile (the game's event ``slap``)."""
    return event.get("kind") == "slap" and event.get("result", "valid") == "valid"


async def racer(
    client: TableClient,
    plan: dict[int, tuple[float, float]],
    me: int,
    rng: random.Random,
    done: asyncio.Event,
) -> None:
    """Play when it is our turn and the pile cannot be slapped; slap every slappable pile after
    the reaction the plan gives us (from when this client saw it)."""
    slapped: set[int] = set()
    last = -1
    tasks: set[asyncio.Task[Any]] = set()

    async def slap(version: int, seen: float, reaction: float) -> None:
        await asyncio.sleep(reaction / 1000.0)
        with contextlib.suppress(ClientError):
            await client.act(f"slap@{version}", pressed_at=seen + reaction, seen_at=seen)

    while not done.is_set() and not client.over:
        await client.wait(
            lambda c, n=last: (
                c.over  # type: ignore[misc]
                or done.is_set()
                or (c.state is not None and c.state["seq"] != n)
            ),
            60,
        )
        if client.over or done.is_set():
            break
        state = client.state
        assert state is not None
        last = state["seq"]
        obs = state["observation"]
        version = obs["pile_version"]
        if obs["slappable"] and version not in slapped and f"slap@{version}" in state["legal"]:
            slapped.add(version)
            if version not in plan:
                fast = rng.randrange(2)
                base = rng.uniform(150.0, 300.0)
                gap = rng.uniform(40.0, 120.0)
                plan[version] = (base, base + gap) if fast == 0 else (base + gap, base)
            task = asyncio.create_task(slap(version, client.seen_at[last], plan[version][me]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif not obs["slappable"]:
            moves = [a for a in state["legal"] if not a.startswith("slap")]
            if moves:
                with contextlib.suppress(ClientError):
                    await client.act(moves[0])
    for task in tasks:
        task.cancel()


async def race_table(server: Running, seed: int) -> list[tuple[int, int]]:
    """One game between a 20 ms and a 150 ms client that race for every slappable pile, with
    reactions 40-120 ms apart: (the faster reactor's seat, the winner's seat) for each race,
    until RACES races or the end of the game."""
    created = await create(
        server.base,
        "egyptian-ratscrew",
        [{"kind": "open"}, {"kind": "open"}],
        options=ALL_SLAPS,
    )
    code = created["table"]["code"]
    joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Far"})
    near = await connect(server.base, created, latency=0.020)
    far = TableClient(server.base, code, joined["token"], latency=0.150)
    await far.connect()
    await asyncio.sleep(1.2)  # a few pings: the server measures both connections
    winners: dict[int, int] = {}
    """The seat that won the race for each pile version."""
    done = asyncio.Event()
    version = [0]

    def watch(msg: dict[str, Any]) -> None:
        if msg["type"] == "state":
            for item in msg["events"]:
                if _valid_slap(item["event"]):
                    winners[version[0]] = item["event"]["seat"]
                    if len(winners) >= RACES:
                        done.set()
            version[0] = msg["observation"]["pile_version"]

    near.on_message = watch
    near.host("start")
    plan: dict[int, tuple[float, float]] = {}
    await asyncio.gather(
        racer(near, plan, 0, random.Random(2 * seed + 1), done),
        racer(far, plan, 1, random.Random(2 * seed + 2), done),
    )
    await near.close()
    await far.close()
    return [(0 if plan[v][0] < plan[v][1] else 1, winners[v]) for v in plan if v in winners]


def test_the_faster_reactor_wins_despite_latency(server: Running) -> None:
    async def main() -> None:
        # A game may end before RACES races (a player runs out of cards): play more tables.
        pairs: list[tuple[int, int]] = []
        tables = 0
        while len(pairs) < RACES and tables < 6:
            pairs += await race_table(server, tables)
            tables += 1
        assert len(pairs) >= RACES, (tables, pairs)
        right = sum(1 for f, w in pairs if f == w)
        assert right >= 0.95 * len(pairs), (right, len(pairs), pairs)
        # the far client was the faster one in many races, and won them
        assert sum(1 for f, w in pairs if f == w == 1) >= 3

    run(main(), timeout=300)


def test_credit_is_bounded() -> None:
    """A claimed reaction faster than a person can react is raised to the minimum; a claim
    later than the arrival is cut to the arrival; latency cancels out."""
    common = {"shown": 10.0, "offset": None}
    # a 40 ms reaction claimed: credited as 100 ms after the state was shown
    credit = reaction_credit(
        sent=10.0, oneway=0.02, arrival=10.5, pressed_at=5.04, seen_at=5.0, **common
    )
    assert abs(credit - (10.0 + MIN_REACTION)) < 1e-9
    # a claim of 3 s when the slap arrived 0.5 s after the state was sent: cut to the arrival
    credit = reaction_credit(
        sent=10.0, oneway=0.1, arrival=10.5, pressed_at=8.0, seen_at=5.0, **common
    )
    assert abs(credit - 10.5 + 0.0) < 1e-9 or credit <= 10.5
    # the same 250 ms reaction over a near and a far connection gets the same credit
    near = reaction_credit(
        sent=10.0, oneway=0.02, arrival=10.29, pressed_at=1.25, seen_at=1.0, **common
    )
    far = reaction_credit(
        sent=10.0, oneway=0.15, arrival=10.55, pressed_at=7.25, seen_at=7.0, **common
    )
    assert abs(near - far) < 1e-9
    # without client times: arrival less the one-way delay less the moment the state reached
    credit = reaction_credit(
        sent=10.0, oneway=0.15, arrival=10.7, pressed_at=None, seen_at=None, **common
    )
    assert abs(credit - (10.0 + 0.4)) < 1e-9
