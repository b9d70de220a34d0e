"""Hostile clients of the REST side: a private table's games and rematch stay with its players;
one request cannot cost the server without bound; big numbers, look-alike names, foreign host
names and odd message fields get a clear error, never a server failure."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
from typing import Any

import httpx
import pytest
import websockets

from ratgames.core.registry import get_game
from ratgames.server import store
from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.webclient import replay as replay_module
from ratgames.webclient.replay import replay_steps

from .conftest import Running, run
from .helpers import connect, create, play_out

TOKEN = "X-Ratgames-Token"


def finished_game(server: Running, public: bool, rematch: bool = False) -> dict[str, Any]:
    """A game of Caged Rats played to the end by its host against a bot, at a public or
    private table; with ``rematch`` the host then asks for one.  Returns the table as
    created (with ``record_id``, and ``next_table`` after a rematch)."""

    async def main() -> dict[str, Any]:
        created = await create(
            server.base,
            "caged-rats",
            [{"kind": "open"}, {"kind": "bot", "bot": "random"}],
            public=public,
        )
        host = await connect(server.base, created)
        host.host("start")
        await play_out(host, random.Random(3))
        await host.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        created["record_id"] = host.state["record_id"]  # type: ignore[index]
        if rematch:
            host.host("rematch")
            await host.wait(lambda c: c.rematch is not None)
            created["next_table"] = host.rematch
        await host.close()
        return created

    result: dict[str, Any] = run(main())
    return result


def get(server: Running, path: str, **headers: str) -> httpx.Response:
    return httpx.get(server.base + path, headers=headers, timeout=30)


# --- private tables --------------------------------------------------------------------------


def test_private_games_are_for_their_players_only(server: Running) -> None:
    public = finished_game(server, public=True)
    private = finished_game(server, public=False)
    other = finished_game(server, public=False)
    pid, rid = public["record_id"], private["record_id"]

    # The listing shows public games only, unless a token of a private table comes along.
    listed = get(server, "/api/records").json()
    assert [r["id"] for r in listed] == [pid]
    assert listed[0]["public"] is True
    assert private["table"]["code"] not in json.dumps(listed)
    mine = get(server, "/api/records", **{TOKEN: private["token"]}).json()
    assert [r["id"] for r in mine] == [rid, pid]
    assert mine[0]["public"] is False
    both = get(server, "/api/records", **{TOKEN: f"{private['host_token']}, {other['token']}"})
    assert [r["id"] for r in both.json()] == [other["record_id"], rid, pid]

    # The record and its replay: refused without a token of that table, whoever asks.
    for path in (
        f"/api/records/{rid}",
        f"/api/records/{rid}/replay",
        f"/api/records/{rid}/replay?seat=1",
    ):
        refused = get(server, path)
        assert refused.status_code == 403, path
        assert TOKEN in refused.json()["detail"]
        assert get(server, path, **{TOKEN: other["token"]}).status_code == 403
        assert get(server, path, **{TOKEN: "made-up"}).status_code == 403
        for token in (private["token"], private["host_token"]):
            assert get(server, path, **{TOKEN: token}).status_code == 200, path
        assert get(server, path, **{TOKEN: f"{other['token']},{private['token']}"}).is_success
    record = get(server, f"/api/records/{rid}", **{TOKEN: private["token"]}).json()
    assert record["game"] == "caged-rats" and record["seats"][0]["name"] == "Host"
    # a public game stays open to all
    assert get(server, f"/api/records/{pid}").status_code == 200
    assert get(server, f"/api/records/{pid}/replay").status_code == 200
    # a header that holds no tokens is refused as such
    bad = get(server, "/api/records", **{TOKEN: "x" * 200})
    assert bad.status_code == 400 and TOKEN in bad.json()["detail"]
    many = get(server, "/api/records", **{TOKEN: ",".join(["t"] * 65)})
    assert many.status_code == 400 and "at most 64" in many.json()["detail"]
    # the database itself still holds everything (ratgames export reads it)
    engine = store.make_engine(server.url)
    assert {i for i, _ in store.iter_records(engine)} == {pid, rid, other["record_id"]}
    engine.dispose()


def test_a_private_rematch_is_told_to_its_players_only(server: Running) -> None:
    private = finished_game(server, public=False, rematch=True)
    code, rematch = private["table"]["code"], private["next_table"]
    assert rematch
    # an outsider who knows the finished table's code does not learn the rematch's
    assert get(server, f"/api/tables/{code}").json()["next_table"] is None
    assert get(server, f"/api/tables/{code}", **{TOKEN: "made-up"}).json()["next_table"] is None
    for token in (private["token"], private["host_token"]):
        assert get(server, f"/api/tables/{code}", **{TOKEN: token}).json()["next_table"] == rematch

    async def main() -> None:
        # a spectator is not told it either; the seat is
        watcher = TableClient(server.base, code)
        await watcher.connect()
        seat = TableClient(server.base, code, private["token"])
        await seat.connect()
        assert watcher.table is not None and watcher.table["next_table"] is None
        assert seat.table is not None and seat.table["next_table"] == rematch
        await watcher.close()
        await seat.close()

    run(main())

    # at a public table the rematch is everyone's
    public = finished_game(server, public=True, rematch=True)
    info = get(server, f"/api/tables/{public['table']['code']}").json()
    assert info["next_table"] == public["next_table"]


def test_a_private_rematch_offer_reaches_seats_not_spectators(server: Running) -> None:
    async def main() -> None:
        created = await create(
            server.base,
            "caged-rats",
            [{"kind": "open"}, {"kind": "bot", "bot": "random"}],
            public=False,
        )
        code = created["table"]["code"]
        host = await connect(server.base, created)
        watcher = TableClient(server.base, code)
        await watcher.connect()
        host.host("start")
        await play_out(host, random.Random(4))
        await watcher.wait(lambda c: c.over)
        host.host("rematch")
        await host.wait(lambda c: c.rematch is not None and c.table["next_table"] is not None)  # type: ignore[index]
        await asyncio.sleep(0.3)
        assert watcher.rematch is None
        assert watcher.table is not None and watcher.table["next_table"] is None
        await host.close()
        await watcher.close()

    run(main())


# --- replays: bounded pages ------------------------------------------------------------------


def long_record(seed: int = 0) -> dict[str, Any]:
    """A game of Egyptian Ratscrew for four played at random: several hundred actions."""
    game = get_game("egyptian-ratscrew", players=4)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state.record()


def stored(server: Running, record: dict[str, Any], public: bool = True) -> int:
    """``record`` stored as the game of a new table; its id."""
    created = run(create(server.base, "egyptian-ratscrew", [{"kind": "open"}] * 4, public=public))
    engine = store.make_engine(server.url)
    with engine.begin() as conn:
        record_id: int = store.op_finish(created["table"]["code"], record, "2026-01-01")(conn)
    engine.dispose()
    return record_id


def test_a_replay_comes_in_pages_of_bounded_size(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = long_record()
    moves = sum(1 for e in record["events"] if "chance" not in e)
    assert moves > 200
    record_id = stored(server, record)
    monkeypatch.setattr(replay_module, "PAGE_BYTES", 40_000)
    whole = json.loads(json.dumps(replay_steps(record, 1)))
    steps: list[Any] = []
    start: int | None = 0
    pages = 0
    while start is not None:
        answer = get(server, f"/api/records/{record_id}/replay?seat=1&start={start}")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "application/json"
        page = answer.json()
        assert page["start"] == start and page["moves"] == moves and page["viewer"] == 1
        assert page["steps"][0]["seq"] == start
        last = len(json.dumps(page["steps"][-1]))
        assert len(answer.content) < 40_000 + last + 2000
        steps += page["steps"]
        start = page["next"]
        pages += 1
    assert pages > 3
    assert steps == whole["steps"]
    # each page went on from where the one before ended; a page asked for out of turn is
    # made from the deal, and is the same
    assert len(server.app.state.replay_pages._resumes) == 0  # every one used
    middle = steps[len(steps) // 2]["seq"]
    alone = get(server, f"/api/records/{record_id}/replay?seat=1&start={middle}&limit=9").json()
    assert alone["steps"] == steps[middle : middle + 9]
    # limit: fewer steps a page
    page = get(server, f"/api/records/{record_id}/replay?limit=3&start=5").json()
    assert [s["seq"] for s in page["steps"]] == [5, 6, 7] and page["next"] == 8
    # the last step alone, and past it
    page = get(server, f"/api/records/{record_id}/replay?start={moves}").json()
    assert [s["seq"] for s in page["steps"]] == [moves] and page["next"] is None
    past = get(server, f"/api/records/{record_id}/replay?start={moves + 1}")
    assert past.status_code == 400 and f"steps are 0 to {moves}" in past.json()["detail"]
    for bad in ("limit=0", "limit=501", "start=-1", "seat=64"):
        refused = get(server, f"/api/records/{record_id}/replay?{bad}")
        assert refused.status_code == 422, bad
        assert bad.split("=")[0] in refused.json()["detail"]
    assert get(server, f"/api/records/{record_id}/replay?seat=4").status_code == 400


def test_replay_pages_are_made_once_and_kept(server: Running) -> None:
    record_id = stored(server, long_record(1))
    path = f"/api/records/{record_id}/replay?seat=0&limit=50"
    first = get(server, path)
    pages = server.app.state.replay_pages
    made = pages.made
    again = get(server, path)
    assert again.content == first.content and pages.made == made
    other = get(server, path.replace("seat=0", "seat=1"))
    assert other.content != first.content and pages.made == made + 1


def test_replay_pages_are_made_one_at_a_time_and_a_client_may_queue_only_a_few(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a page is being made the others wait; a client with CLIENT_LIMIT pages waiting
    gets 429 for more, and beyond the queue's length everyone gets 503."""
    release = threading.Event()
    making: list[tuple[Any, ...]] = []

    def slow_page(engine: Any, key: tuple[Any, ...], resumes: Any = None) -> bytes:
        making.append(key)
        release.wait(10)
        return b"{}"

    monkeypatch.setattr(replay_module, "_make_page", slow_page)
    pages = replay_module.ReplayPages(queue_limit=6, client_limit=4)

    async def main() -> None:
        mine = [
            asyncio.ensure_future(pages.make(None, "10.0.0.1", (1, 0, k, 500))) for k in range(4)
        ]
        await asyncio.sleep(0.2)
        assert len(making) == 1  # one made at a time, the others wait
        with pytest.raises(replay_module.RequestError) as refused:
            await pages.make(None, "10.0.0.1", (1, 0, 9, 500))
        assert refused.value.status == 429 and "4 replay pages" in refused.value.message
        theirs = [
            asyncio.ensure_future(pages.make(None, "10.0.0.2", (2, 0, k, 500))) for k in range(3)
        ]
        await asyncio.sleep(0.05)
        with pytest.raises(replay_module.RequestError) as busy:
            await pages.make(None, "10.0.0.3", (3, 0, 0, 500))
        assert busy.value.status == 503
        release.set()
        assert await asyncio.gather(*mine, *theirs) == [b"{}"] * 7
        assert len(making) == 7
        # kept: asked again, nothing is made
        assert await pages.make(None, "10.0.0.1", (1, 0, 2, 500)) == b"{}"
        assert len(making) == 7
        assert await pages.make(None, "10.0.0.1", (1, 0, 9, 500)) == b"{}"

    run(main())


# --- numbers, names, text --------------------------------------------------------------------


def test_numbers_beyond_64_bits_are_refused_clearly(server: Running) -> None:
    big = 2**63
    assert get(server, f"/api/records?before={big}").status_code == 200
    assert get(server, f"/api/records?before={2**70}").json() == []
    for path in (f"/api/records/{big}", f"/api/records/{big}/replay", f"/api/records/{2**80}"):
        answer = get(server, path)
        assert answer.status_code == 422, path
        assert "record_id" in answer.json()["detail"]
    for path in ("/api/records?limit=0", "/api/records?limit=501", "/api/records?before=0"):
        answer = get(server, path)
        assert answer.status_code == 422, path
        assert isinstance(answer.json()["detail"], str)


def test_odd_ids_and_versions_get_an_error_and_the_connection_stays(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "open"}])
        client = await connect(server.base, created)
        frames = [
            ('{"type": "action", "v": 1, "id": 18446744073709551616, "action": "x"}', None),
            ('{"type": "sample", "v": 1, "id": 99999999999999999999999}', None),
            ('{"type": "action", "v": 1, "id": true, "action": "x"}', None),
            ('{"type": "action", "v": 1.0, "id": 7, "action": "x"}', 7),
            ('{"type": "action", "v": true, "id": 8, "action": "x"}', 8),
            ('{"type": "chat", "v": 1.0, "text": "hi"}', None),
            ('{"type": "pong", "v": 1, "id": 18446744073709551616, "client_time": 1}', None),
        ]
        for frame, ref in frames:
            count = len(client.errors)
            client.send_raw(frame)
            await client.wait(lambda c, n=count: len(c.errors) > n, timeout=5)  # type: ignore[misc]
            error = client.errors[-1]
            assert error["code"] == "invalid_message", (frame, error)
            assert error["ref"] == ref, (frame, error)
        # still connected and served
        client.send({"type": "chat", "v": 1, "text": "still here"})
        await client.wait(lambda c: any(m["text"] == "still here" for m in c.chat), timeout=5)
        await client.close()

    run(main())


@pytest.mark.parametrize(
    "text",
    ["abc\u202egpj.exe", "left\u2066right", "bell\x07", "nul\x00x", "mark\u200fx"],
)
def test_chat_refuses_control_and_bidi_characters(server: Running, text: str) -> None:
    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}, {"kind": "open"}])
        client = await connect(server.base, created)
        client.send_raw(json.dumps({"type": "chat", "v": 1, "text": text}))
        await client.wait(lambda c: bool(c.errors), timeout=5)
        assert client.errors[-1]["code"] == "invalid_message"
        assert "text" in client.errors[-1]["message"]
        # white space of any kind is one space; emoji sequences are kept
        client.send({"type": "chat", "v": 1, "text": "a\n\tb 👩\u200d👩\u200d👧"})
        await client.wait(lambda c: bool(c.chat), timeout=5)
        assert client.chat[-1]["text"] == "a b 👩\u200d👩\u200d👧"
        await client.close()

    run(main())


def test_two_seats_cannot_share_a_name_or_a_look_alike(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "rats", [{"kind": "open"}] * 4, name="Ann")
        code = created["table"]["code"]
        for name in ("Ann", "ANN", "ａｎｎ", "  ann  "):
            with pytest.raises(ClientError) as refused:
                await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": name})
            assert refused.value.code == "409"
            assert "'Ann'" in refused.value.message
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Anne"})
        assert joined["seat"] == 1
        with pytest.raises(ClientError):
            await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "ANNE"})
        table = await ahttp_json(server.base, f"/api/tables/{code}")
        assert [s["name"] for s in table["seats"]] == ["Ann", "Anne", None, None]

    run(main())


# --- host names, origins, headers ------------------------------------------------------------


def test_foreign_host_names_are_refused(server: Running) -> None:
    port = server.base.rsplit(":", 1)[1]
    for host in (f"evil.example:{port}", "evil.example", "127.0.0.1.evil.example"):
        answer = get(server, "/api/tables", Host=host)
        assert answer.status_code == 400, host
        assert "--allow-host" in answer.json()["detail"]
    mine = socket.gethostname().split(".")[0]
    for host in (
        f"127.0.0.1:{port}",
        f"localhost:{port}",
        "[::1]",
        "10.0.0.5:80",
        "app.localhost",
        f"{mine}:{port}",
        f"{mine}.local:{port}",
    ):
        assert get(server, "/api/tables", Host=host).status_code == 200, host
    server.lobby.settings.allowed_hosts = ("games.example.org",)
    try:
        assert get(server, "/api/tables", Host=f"games.example.org:{port}").status_code == 200
        assert get(server, "/api/tables", Host="evil.example").status_code == 400
    finally:
        server.lobby.settings.allowed_hosts = ()


def test_a_dns_rebinding_page_cannot_open_the_websocket(server: Running) -> None:
    port = server.base.rsplit(":", 1)[1]
    url = server.base.replace("http://", "ws://") + "/ws"

    async def main() -> None:
        # the page of evil.example, whose name now points here: Origin and Host agree
        evil = f"ws://evil.example:{port}/ws"
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(
                evil,
                origin=f"http://evil.example:{port}",  # type: ignore[arg-type]
                host="127.0.0.1",
                port=int(port),
            ):
                pass
        local = f"ws://localhost:{port}/ws"
        async with websockets.connect(
            local,
            origin=f"http://localhost:{port}",  # type: ignore[arg-type]
            host="127.0.0.1",
            port=int(port),
        ) as ws:
            await ws.send('{"type": "pong", "v": 1, "id": 1, "client_time": 1}')
        async with websockets.connect(url, origin=server.base) as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "pong", "v": 1, "id": 1, "client_time": 1}')

    run(main())


def test_every_answer_says_nosniff(server: Running) -> None:
    for path in ("/api/tables", "/api/records", "/api/records/5", "/api/health", "/openapi.json"):
        answer = get(server, path)
        assert answer.headers.get("x-content-type-options") == "nosniff", path


def test_the_openapi_document_describes_the_error_answers(server: Running) -> None:
    doc = get(server, "/openapi.json").json()
    problem = "#/components/schemas/ProblemDetail"
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            answers = op["responses"]
            if op.get("parameters") or op.get("requestBody"):
                assert answers["422"]["content"]["application/json"]["schema"]["$ref"] == problem, (
                    method,
                    path,
                )
            for status, answer in answers.items():
                if status.startswith("4"):
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema["$ref"] == problem, (method, path, status)
    assert "403" in doc["paths"]["/api/records/{record_id}"]["get"]["responses"]
    assert "400" in doc["paths"]["/api/records"]["get"]["responses"]


def test_serve_answers_to_its_own_name_and_the_allowed_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import types

    from click.testing import CliRunner

    import ratgames.server.app as app_module
    import ratgames.server.cli as cli_module
    from ratgames.server.cli import serve

    made: list[Any] = []

    def create_app(url: str, settings: Any) -> Any:
        made.append(settings)
        return types.SimpleNamespace(state=types.SimpleNamespace())

    monkeypatch.setattr(cli_module, "quiet_garbage_collector", lambda: lambda: None)
    monkeypatch.setattr(app_module, "create_app", create_app)
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    args = ["--db", db, "--host", "localhost", "--allow-host", "games.example.org"]
    result = CliRunner().invoke(serve, args)
    assert result.exit_code == 0, result.output
    assert set(made[0].allowed_hosts) == {"localhost", "games.example.org"}
    result = CliRunner().invoke(serve, ["--db", db])
    assert result.exit_code == 0, result.output
    assert made[1].allowed_hosts == ("127.0.0.1",)


# --- bot specs that could read the server's files ------------------------------------------------


@pytest.mark.parametrize("path", ["/etc/passwd", "/no/such/file.npz", "../caged-rats"])
def test_a_bot_spec_cannot_name_a_file_on_the_server(server: Running, path: str) -> None:
    """A policy bot's weights are a path on the machine that runs it: sent to a server, only the
    names of the policies that come with ratgames are taken, and the refusal is the same for a
    file that exists and one that does not (nothing is opened)."""
    answer = httpx.post(
        server.base + "/api/tables",
        json={
            "game": "caged-rats",
            "seats": [{"kind": "open"}, {"kind": "bot", "bot": f"policy:file={path}"}],
        },
        timeout=30,
    )
    assert answer.status_code == 400, answer.text
    detail = answer.json()["detail"]
    assert "not a path" in detail and "caged-rats" in detail
    assert path not in detail


def test_a_bot_spec_may_name_a_policy_that_comes_with_ratgames(server: Running) -> None:
    answer = httpx.post(
        server.base + "/api/tables",
        json={
            "game": "caged-rats",
            "options": {"single_deal": True},
            "seats": [{"kind": "open"}, {"kind": "bot", "bot": "policy:file=caged-rats"}],
        },
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
