"""Hostile clients: every trick a client can try gets a clear error to that client only, and
the table goes on untouched; no frame sent to a seat holds a card that seat may not see, and
spectators get no hidden card.  Run for every game."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

import ratgames
from ratgames.core.registry import get_game
from ratgames.core.rng import Rng
from ratgames.server.client import ClientError, TableClient, ahttp_json

from .conftest import Running, run
from .helpers import QUICK_OPTIONS, connect, create

GAMES = ["rat-a-tat-cat", "rats", "caged-rats", "egyptian-ratscrew"]


async def auto_play(client: TableClient, rng: random.Random, real_time: bool) -> None:
    """Random legal play to the end (in real time: play and collect, and slap what can be
    slapped)."""
    while await client.my_turn_or_end(timeout=40):
        state = client.state
        assert state is not None
        legal = state["legal"]
        if real_time:
            slaps = [a for a in legal if a.startswith("slap")]
            moves = [a for a in legal if not a.startswith("slap")]
            obs = state["observation"]
            choice = slaps[0] if slaps and obs.get("slappable") else (moves[0] if moves else None)
            if choice is None:
                seq = state["seq"]
                await client.wait(lambda c, s=seq: c.over or c.state["seq"] > s)  # type: ignore[index, misc]
                continue
        else:
            choice = rng.choice(legal)
        try:
            await client.act(choice)
        except ClientError as exc:
            # In real time another player may take the pile first; nothing else is refused.
            assert real_time and exc.code == "illegal_action", exc


HOSTILE_FRAMES: list[tuple[Any, str]] = [
    ("{not json", "bad_json"),
    ("[1, 2, 3]", "bad_json"),
    ('"hello"', "bad_json"),
    ("{}", "unknown_type"),
    ('{"type": "drop_tables", "v": 1}', "unknown_type"),
    ('{"type": "action", "id": 1, "action": "x"}', "invalid_message"),
    ('{"type": "action", "v": 9, "id": 1, "action": "x"}', "invalid_message"),
    ('{"type": "action", "v": 1, "id": "1", "action": "x"}', "invalid_message"),
    ('{"type": "action", "v": 1, "id": 1, "action": "x", "seat": 1}', "invalid_message"),
    (
        '{"type": "action", "v": 1, "id": 1, "action": ' + json.dumps("a" * 65) + "}",
        "invalid_message",
    ),
    ('{"type": "chat", "v": 1, "text": ""}', "invalid_message"),
    ('{"type": "start", "v": 1}', "not_host"),
    ('{"type": "fill_bots", "v": 1}', "not_host"),
    ('{"type": "rematch", "v": 1}', "not_host"),
    ('{"type": "seat", "v": 1, "seat": 0, "kind": "open"}', "not_host"),
    ('{"type": "leave", "v": 1}', "wrong_status"),
    ('{"type": "hello", "v": 1, "table": "ZZZZZZ"}', "no_such_table"),
    ('{"type": "action", "v": 1, "id": 5, "action": "xyzzy 🐀"}', "invalid_notation"),
    ('{"type": "action", "v": 1, "id": 6, "action": "\\u0000"}', "invalid_notation"),
    (json.dumps({"type": "chat", "v": 1, "text": "x" * 5000}), "too_large"),
    (b"\xff\xfe\x00", "bad_json"),
    ("[" * 2000 + "]" * 2000, "bad_json"),
]


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


async def attack(hostile: TableClient, honest: TableClient) -> None:
    """Send every bad frame; each gets its error; the table and the other seat see nothing."""
    before = hostile.state["seq"] if hostile.state else 0
    honest_errors = len(honest.errors)
    for frame, code in HOSTILE_FRAMES:
        count = len(hostile.errors)
        hostile.send_raw(frame)
        try:
            await hostile.wait(lambda c, n=count: len(c.errors) > n, timeout=5)  # type: ignore[misc]
        except TimeoutError:
            raise AssertionError(f"no error for {frame!r}") from None
        error = hostile.errors[-1]
        assert error["code"] == code, (frame, error)
        assert error["message"]
    # acting out of turn, or an action of the game that is not legal now
    state = hostile.state
    assert state is not None
    game = state["observation"]
    if not state["legal"]:
        with pytest.raises(ClientError) as refused:
            await hostile.act(honest.legal[0] if honest.legal else "play")
        assert refused.value.code in ("illegal_action", "invalid_notation")
    # a flood: beyond the rate limit messages are dropped with an error
    count = len(hostile.errors)
    for i in range(80):
        hostile.send({"type": "chat", "v": 1, "text": f"spam {i}"})
    await hostile.wait(
        lambda c: any(e["code"] == "rate_limited" for e in c.errors[count:]), timeout=5
    )
    await asyncio.sleep(1.5)  # let the bucket fill up again
    assert len(honest.errors) == honest_errors, honest.errors[honest_errors:]
    assert game is not None
    # nothing the hostile client sent changed the table
    assert (hostile.state["seq"] if hostile.state else 0) >= before


def check_frames(game_id: str, record: dict[str, Any], frames: list[str], seat: int | None) -> int:
    """Every state frame holds exactly the seat's observation (or the spectator view) after
    its seq, its legal actions, and events from that observation only; no other frame holds a
    card the viewer had not been shown.  Returns the number of state frames checked."""
    game = get_game(record["game"], players=record["players"], options=record["options"])
    cards = {game.card_text(c) for c in game.deck()}
    seen: set[str] = set()
    checked = 0
    states: dict[int, Any] = {}
    whole: list[Any] = []
    for text in frames:
        frame = json.loads(text)
        if frame["type"] == "state":
            # An abbreviated events list (the client asked for changes) is made whole again
            # from the frames before it, as the client does.
            part = frame["observation"] if frame["observation"] is not None else frame["view"]
            if frame.get("events_kept"):
                part["events"] = whole[len(whole) - frame["events_kept"] :] + part["events"]
            whole = part["events"]
            n = frame["seq"]
            if n not in states:
                states[n] = ratgames.replay(record, upto=n, check_outcome=False)
            truth = states[n]
            if seat is None:
                assert frame["observation"] is None and frame["legal"] == []
                assert frame["view"] == json.loads(json.dumps(truth.spectator_view()))
                shown = frame["view"]
            else:
                assert frame["view"] is None
                assert frame["observation"] == json.loads(json.dumps(truth.observation(seat)))
                legal = [str(a) for a in truth.legal_actions(seat)]
                assert frame["legal"] in ([], legal)
                shown = frame["observation"]
            for item in frame["events"]:
                assert item["event"] in shown["events"]
            seen |= _strings(shown) & cards
            checked += 1
        elif frame["type"] == "sample":
            # An honest sample holds cards in places the seat cannot see (dealt at random, by
            # design): it must agree with everything the seat knows at that point.
            assert frame["seat"] == seat
            n = frame["seq"]
            if n not in states:
                states[n] = ratgames.replay(record, upto=n, check_outcome=False)
            sample = game.restore(frame["state"], Rng(n))
            assert sample.observation(seat) == states[n].observation(seat)
        else:
            leaked = (_strings(frame) & cards) - seen
            if frame["type"] == "chat":
                continue  # players' own words
            assert not leaked, (frame, leaked)
    return checked


@pytest.mark.parametrize("game", GAMES)
def test_hostile_client_and_hidden_cards(server: Running, game: str) -> None:
    real_time = get_game(game).real_time

    async def main() -> None:
        created = await create(
            server.base,
            game,
            [{"kind": "open"}, {"kind": "open"}],
            options=QUICK_OPTIONS.get(game, {}),
        )
        code = created["table"]["code"]
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Eve"})
        host = await connect(server.base, created, keep_frames=True)
        eve = TableClient(server.base, code, joined["token"], keep_frames=True)
        await eve.connect()
        watcher = TableClient(server.base, code, keep_frames=True)
        await watcher.connect()
        # before the start: actions and samples are refused
        with pytest.raises(ClientError) as refused:
            await eve.act("draw")
        assert refused.value.code == "wrong_status"
        with pytest.raises(ClientError) as refused:
            await eve.sample()
        assert refused.value.code == "wrong_status"
        host.host("start")
        await eve.wait(lambda c: c.state is not None)
        # samples are for seats: a spectator gets none; a seat gets one of its position
        with pytest.raises(ClientError) as refused:
            await watcher.sample()
        assert refused.value.code == "not_a_seat"
        await eve.sample()
        # another seat's token cannot be used to act for it from this connection: a hello
        # with a made-up token is refused, and the connection keeps its own seat
        eve.send({"type": "hello", "v": 1, "table": code, "token": "A" * 43})
        await eve.wait(lambda c: any(e["code"] == "bad_token" for e in c.errors))
        eve.errors.clear()
        await attack(eve, host)
        eve.errors.clear()
        await asyncio.gather(
            auto_play(host, random.Random(1), real_time),
            auto_play(eve, random.Random(2), real_time),
        )
        await host.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        record = await ahttp_json(server.base, f"/api/records/{host.state['record_id']}")  # type: ignore[index]
        await watcher.wait(lambda c: c.over)
        for client in (host, eve, watcher):
            await client.close()
        assert check_frames(game, record, host.frames, 0) > 3
        assert check_frames(game, record, eve.frames, 1) > 3
        assert check_frames(game, record, watcher.frames, None) > 3

    run(main(), timeout=120)


def test_slap_spam_gains_nothing(server: Running) -> None:
    """Slapping the same pile again and again: one slap counts, every other is refused; a slap
    at a pile version not shown yet is refused."""

    async def main() -> None:
        created = await create(
            server.base, "egyptian-ratscrew", [{"kind": "open"}, {"kind": "open"}]
        )
        code = created["table"]["code"]
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Spam"})
        host = await connect(server.base, created)
        spam = TableClient(server.base, code, joined["token"])
        await spam.connect()
        host.host("start")
        await spam.wait(lambda c: c.state is not None)
        version = spam.state["observation"]["pile_version"]  # type: ignore[index]
        results = await asyncio.gather(
            *(spam.act(f"slap@{version}") for _ in range(15)), return_exceptions=True
        )
        accepted = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, ClientError)]
        assert len(accepted) == 1, results
        assert all(r.code in ("illegal_action", "rate_limited") for r in refused)
        with pytest.raises(ClientError) as future:
            await spam.act(f"slap@{version + 50}")
        assert future.value.code == "illegal_action"
        await host.close()
        await spam.close()

    run(main())


def test_origin_is_checked(server: Running) -> None:
    import websockets

    async def main() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                pass
        host = server.base.removeprefix("http://")
        async with websockets.connect(url, origin=f"http://{host}") as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "pong", "v": 1, "id": 1, "client_time": 1}')

    run(main())


def test_oversized_frames_close_the_connection(server: Running) -> None:
    import websockets

    async def main() -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send("x" * 200_000)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(20):
                    await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    run(main())
