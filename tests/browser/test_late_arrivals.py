"""A late arrival at Egyptian Ratscrew, in real browsers and a terminal: Ann (a browser) makes a
table of three whose last seat is for a late arrival (option newcomers), a friend plays seat 2
from the terminal app (``ratgames join``, here under Textual's Pilot in a thread of its own),
Ann starts without the late seat; Bob opens the invite link after the start, takes the late
seat, watches from it with no cards, and his first valid slap brings him in.  The others'
pages say who came late, and the record (late seat marked) replays exactly."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import ratgames
from ratgames.server.client import ahttp_json, http_json
from ratgames.server.remote_tui import RemoteApp

from .conftest import Server
from .helpers import Player, create_table, play_to_end
from .test_ratscrew import SAME_PILE, can_play, er_move, pile, slappable


class Terminal:
    """The terminal app at one seat, in a thread: it plays (space) whenever it may play or
    collect, at a person's pace, and never slaps."""

    def __init__(self, base: str, code: str, name: str, pace: float = 0.4) -> None:
        joined = http_json(base, f"/api/tables/{code}/join", {"name": name})
        self.seat: int = joined["seat"]
        self.base, self.code, self.token, self.pace = base, code, joined["token"], pace
        self.stop = threading.Event()
        self.connected = threading.Event()
        self.outcome: dict[str, Any] | None = None
        self.failure: BaseException | None = None
        self.moves = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported by the test
            self.failure = exc

    async def _main(self) -> None:
        info = await ahttp_json(self.base, f"/api/tables/{self.code}")
        app = RemoteApp(self.base, self.code, info, seat=self.seat, token=self.token)
        async with app.run_test(size=(120, 40)) as pilot:
            last = 0.0
            while not self.stop.is_set():
                state = app.client.state
                if app.client.connected:
                    self.connected.set()
                if state is not None and state["outcome"] is not None:
                    self.outcome = state["outcome"]
                    return
                moves = [a for a in (state or {}).get("legal", []) if not a.startswith("slap")]
                if moves and time.monotonic() - last > self.pace:
                    await pilot.press("space")
                    self.moves += 1
                    last = time.monotonic()
                await pilot.pause(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=20)


def test_a_late_arrival_takes_the_seat_from_the_invite_link_and_slaps_in(
    server: Server, browser: Browser
) -> None:
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(
        ann,
        "egyptian-ratscrew",
        3,
        {1: "open", 2: "open"},
        {"newcomers": "1", "max_cards": "150"},
    )
    expect(ann.page.get_by_test_id("late-note")).to_contain_text("for late arrivals")
    expect(ann.page.get_by_test_id("seats")).to_contain_text("Open seat for a late arrival")
    terminal = Terminal(server.base, code, "Cy")
    try:
        assert terminal.seat == 1
        assert terminal.connected.wait(30), terminal.failure
        start = ann.page.get_by_role("button", name="Start the game")
        expect(start).to_be_enabled()  # the late seat may stay open
        start.click()
        expect(ann.page.get_by_test_id("board")).to_be_visible()
        expect(ann.page.get_by_test_id("late-seat")).to_contain_text("seat for a late arrival")

        # Bob arrives after the start: the lobby lists the table with its open late seat, and
        # its link (the invite link) shows the game and offers the seat.
        bob.page.goto(server.base + "/")
        listed = bob.page.get_by_test_id("public-tables").locator("li", has_text=code)
        expect(listed).to_contain_text("playing · 1 seat for a late arrival")
        listed.get_by_role("link").click()
        bob.page.wait_for_url(f"**/t/{code}")
        expect(bob.page.get_by_test_id("watching")).to_be_visible()
        bob.page.locator("#late-name").fill("Bob")
        bob.page.get_by_test_id("take-late-seat").click()
        expect(bob.page.get_by_test_id("board")).to_have_attribute("data-seat", "2")
        expect(bob.page.get_by_test_id("slap-in")).to_contain_text("You have no cards yet")
        expect(bob.page.get_by_test_id("stack-2")).to_contain_text("waiting to slap in")
        expect(ann.page.get_by_test_id("late-2")).to_contain_text("came late")
        expect(ann.page.get_by_test_id("late-seat")).to_have_count(0)

        # Ann plays (Enter), the terminal plays (space); Bob slaps the first pile he sees that
        # can be slapped, a moment after it is on his screen.
        deadline = time.monotonic() + 150
        while True:
            assert time.monotonic() < deadline, "Bob never came in"
            assert terminal.failure is None, terminal.failure
            assert not ann.over(), "the game ended before Bob came in"
            cards = pile(bob)
            if slappable(cards) and cards == pile(ann):
                time.sleep(0.25)
                if pile(bob) == cards:
                    bob.page.keyboard.press(" ")
                    verdict = bob.page.get_by_test_id("slap-verdict")
                    expect(verdict).not_to_contain_text("Waiting", timeout=10000)
                    if "take the pile" in verdict.inner_text():
                        break
                continue
            if slappable(cards) and cards != pile(ann):
                with contextlib.suppress(PlaywrightTimeout):
                    ann.page.wait_for_function(SAME_PILE, arg=cards, timeout=3000)
                continue
            if ann.my_turn() and can_play(ann):
                seq = ann.seq()
                er_move(ann)
                with contextlib.suppress(PlaywrightTimeout):
                    ann.wait_past(seq, timeout=10)
            else:
                time.sleep(0.05)
        expect(bob.page.get_by_test_id("slap-in")).to_have_count(0)
        expect(bob.page.get_by_test_id("stack-2")).not_to_contain_text("waiting")
        expect(ann.page.get_by_test_id("log")).to_contain_text("Bob slaps in and joins the game")

        play_to_end([ann, bob], er_move, timeout=200, ready=can_play)
        terminal.thread.join(timeout=30)
        assert terminal.failure is None, terminal.failure
        assert terminal.outcome is not None and terminal.moves > 0
        record_id = int(
            ann.page.get_by_role("link", name="Watch the replay")
            .get_attribute("href")
            .split("/")[-1]  # type: ignore[union-attr]
            .split("?")[0]
        )
        record = http_json(server.base, f"/api/records/{record_id}")
        assert [s["name"] for s in record["seats"]] == ["Ann", "Cy", "Bob"]
        assert record["seats"][2]["late"] is True and record["seats"][2]["arrived"] > 0
        replayed = ratgames.replay(record)
        assert replayed.outcome().to_json() == terminal.outcome  # type: ignore[union-attr]
        assert not ann.page_errors and not bob.page_errors
    finally:
        terminal.close()
        ann.close()
        bob.close()
