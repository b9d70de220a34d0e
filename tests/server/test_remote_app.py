"""The terminal client of a remote table (``ratgames join``/``ratgames host``) under Textual's
Pilot, against a real server: the host's start key and who is missing, names, events told
once, the help and quit screens, refusals, and spectators told that they watch."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.remote_tui import WATCHING, RemoteApp
from ratgames.tui.screens import ConfirmQuit, HelpScreen

from .conftest import Running, run
from .helpers import create


def _record_lines(app: RemoteApp, said: list[str]) -> None:
    """Keep every line the app writes to its log in ``said`` too."""
    real_say = app.say

    def say(message: str) -> None:
        said.append(message)
        real_say(message)

    app.say = say  # type: ignore[method-assign]


async def _until(pilot: Any, check: Any, tries: int = 200) -> None:
    for _ in range(tries):
        if check():
            return
        await pilot.pause(0.05)
    assert check()


def test_the_host_starts_from_the_terminal_and_each_event_is_told_once(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        info = await ahttp_json(server.base, f"/api/tables/{code}")
        app = RemoteApp(
            server.base,
            code,
            info,
            seat=0,
            token=created["token"],
            host_token=created["host_token"],
        )
        said: list[str] = []
        _record_lines(app, said)
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.client.table is not None)
            link = f"{server.base}/t/{code}#seat={created['token']}"
            assert any(line.startswith("Your seat link") and link in line for line in said)
            assert any(line.startswith(f"You host table {code}") for line in said)
            status = app.status_text().plain
            assert "still missing: seat 2 (open)" in status and "ctrl+s starts" in status
            assert "ctrl+s start" in app.hint_text().plain and "? help" in app.hint_text().plain
            await pilot.press("ctrl+s")
            assert app.note is not None and "cannot start yet" in app.note
            assert app.client.state is None
            joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Ann"})
            ann = TableClient(server.base, code, joined["token"])
            await ann.connect()
            await _until(pilot, lambda: "everyone is here" in app.status_text().plain)
            assert app.game.seat_name(1) == "Ann"  # names as the lobby shows them
            await pilot.press("ctrl+s")
            await _until(pilot, lambda: app.client.state is not None)
            said.clear()
            rng = random.Random(2)
            moves = 0
            while moves < 12 and not ann.over:
                await _until(
                    pilot,
                    lambda: (
                        ann.over
                        or bool(ann.legal)
                        or bool(app.client.state and app.client.state["legal"])
                    ),
                )
                mover = ann if ann.legal else app.client
                if mover.legal:
                    with contextlib.suppress(ClientError):  # a state older than the ack
                        await mover.act(rng.choice(mover.legal))
                moves += 1
            await pilot.pause(0.3)
            state = app.client.state
            assert state is not None
            events = state["observation"]["events"]
            told = [line for line in said if not line.startswith(("Not allowed", "Server"))]
            assert 0 < len(told) <= len(events), (told, events)
            # ? opens the keys and rules; an unbound key says why it does nothing
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.press("z")
            assert app.note is not None and "'z' does nothing" in app.note
            # quitting mid-game asks first
            if not app.client.over:
                await pilot.press("ctrl+q")
                assert isinstance(app.screen, ConfirmQuit)
                await pilot.press("n")
                assert not isinstance(app.screen, ConfirmQuit)
            await app.client.close()
            await ann.close()

    run(main(), timeout=120)


def test_a_spectator_is_told_it_watches_and_hears_each_event_once(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "bot"}])
        code = created["table"]["code"]
        host = TableClient(server.base, code, created["token"], created["host_token"])
        await host.connect()
        host.host("start")
        await host.my_turn_or_end()
        await host.act(host.legal[0])
        info = await ahttp_json(server.base, f"/api/tables/{code}")
        app = RemoteApp(server.base, code, info, seat=None, token=None)
        said: list[str] = []
        _record_lines(app, said)
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.client.state is not None)
            assert said[0] == WATCHING
            assert app.status_text().plain.startswith("Watching (spectator).")
            await pilot.pause(0.2)
            before = list(said)
            assert before, "the history is told"
            await app.client.drop()  # the connection is lost; the client comes back by itself
            await _until(pilot, lambda: app.client.connections >= 2 and app.client.connected)
            await pilot.pause(0.3)
            assert said[: len(before)] == before
            assert len(said) == len(before), "the history is not told again after a reconnect"
            await pilot.press("x")
            assert app.note is not None and "you are watching" in app.note
            await app.client.close()
        await host.close()

    run(main(), timeout=120)


def test_a_seat_whose_link_was_reissued_says_so_and_stops(server: Running) -> None:
    """The host gives out a new link to a seat played in the terminal: the app says why it
    lost the seat and what to do, and does not keep knocking with the dead token."""

    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        host = TableClient(server.base, code, created["token"], created["host_token"])
        await host.connect()
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bo"})
        info = await ahttp_json(server.base, f"/api/tables/{code}")
        app = RemoteApp(server.base, code, info, seat=1, token=joined["token"])
        said: list[str] = []
        _record_lines(app, said)
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.client.connected and app.client.table is not None)
            host.host("reissue", seat=1)
            await _until(
                pilot, lambda: any("ask the host for your new seat link" in s for s in said)
            )
            await pilot.pause(1.0)
            assert app.client.connections == 1, "no reconnecting with a dead token"
            await app.client.close()
        await host.close()

    run(main(), timeout=60)
