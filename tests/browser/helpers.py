"""Driving the client as a person does: a player is a browser context of its own (its own
local storage, so its own seat token), acting only by clicks and key presses."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 360, "height": 740}
QUICK = 3000
"""Milliseconds a move's click may wait for its card or button (the table may have moved on)."""


class Player:
    """One person in a browser context of their own, with every WebSocket frame it received."""

    def __init__(self, browser: Browser, base: str, name: str, viewport: dict[str, int] = DESKTOP):
        self.name = name
        self.base = base
        self.context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(45000)  # a loaded 2-core CI machine can be slow
        self.frames: list[str] = []
        self.page_errors: list[str] = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        self.moves = 0
        self.stale_moves = 0
        """Moves given up because the page changed under them (tried again afresh)."""

    def _watch(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, str) else payload.decode()
            ),
        )

    def messages(self, kind: str | None = None) -> list[dict[str, Any]]:
        out = [json.loads(f) for f in self.frames]
        return [m for m in out if kind is None or m.get("type") == kind]

    # --- what the page shows ----------------------------------------------------------------

    def board(self) -> dict[str, str]:
        """The board's data attributes (seq, seat, legal, over), or {} before the game."""
        got = self.page.evaluate(
            "() => { const b = document.querySelector('[data-testid=board]');"
            " return b ? Object.assign({}, b.dataset) : {}; }"
        )
        return dict(got)

    def seq(self) -> int:
        return int(self.board().get("seq", "-1") or -1)

    def over(self) -> bool:
        return self.board().get("over") == "1"

    def my_turn(self) -> bool:
        b = self.board()
        return b.get("over") == "0" and int(b.get("legal", "0") or 0) > 0

    def wait_past(self, seq: int, timeout: float = 15.0) -> None:
        """Wait until the page shows a state after ``seq`` (or the game is over)."""
        self.page.wait_for_function(
            "(seq) => { const b = document.querySelector('[data-testid=board]');"
            " return b && (Number(b.dataset.seq) > seq || b.dataset.over === '1'); }",
            arg=seq,
            timeout=timeout * 1000,
        )

    def visible(self, testid: str) -> bool:
        loc = self.page.get_by_test_id(testid)
        return loc.count() > 0 and loc.first.is_visible() and loc.first.is_enabled()

    def close(self) -> None:
        self.context.close()


# --- the lobby ---------------------------------------------------------------------------------


def create_table(
    host: Player,
    game: str,
    players: int,
    seats: dict[int, str],
    options: dict[str, str | bool],
) -> str:
    """Create a table through the lobby's form; the table's code.  ``seats`` maps a seat
    (from 0; seat 0 is the host) to "open" or "bot:LEVEL"."""
    page = host.page
    page.goto(host.base + "/")
    page.locator("#name").fill(host.name)
    page.locator(f"input[name=game][value={game}]").check()
    page.locator("select[name=players]").select_option(str(players))
    for seat, kind in seats.items():
        page.locator(f"select[name=seat{seat + 1}]").select_option(kind)
    for name, value in options.items():
        field = page.locator(f"#opt-{name}")
        if not field.is_visible():  # a safety cap, folded under "Advanced"
            page.locator("details.advanced > summary").click()
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            # A structured option ("rounds=3"): its form, then its number.
            word, _, number = value.partition("=")
            field.select_option(word)
            if number:
                page.locator(f"#opt-{name}-n").fill(number)
        else:
            field.fill(value)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    code = page.get_by_test_id("code").inner_text().strip()
    return code


def join_table(player: Player, code: str) -> None:
    """Open the invite link and take a seat."""
    page = player.page
    page.goto(f"{player.base}/t/{code}")
    page.locator("#join-name").fill(player.name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_test_id("seats")).to_contain_text(f"{player.name} (you)")


def start(host: Player, others: list[Player]) -> None:
    """The host starts the game; every page shows the table."""
    start = host.page.get_by_role("button", name="Start the game")
    expect(start).to_be_enabled()
    start.click()
    for p in [host, *others]:
        expect(p.page.get_by_test_id("board")).to_be_visible()


def play_to_end(
    players: list[Player],
    move: Callable[[Player], None],
    timeout: float = 150.0,
    between: Callable[[], None] | None = None,
    ready: Callable[[Player], bool] | None = None,
) -> None:
    """Let each player move (``move`` acts by clicks and keys) whenever the page offers a move,
    until every page shows the result.  ``ready`` tells whether a page offers a move worth
    making now (by default: any legal move)."""
    deadline = time.monotonic() + timeout
    while not all(p.over() for p in players):
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for p in players:
            if p.my_turn() and (ready is None or ready(p)):
                seq = p.seq()
                try:
                    move(p)
                except PlaywrightTimeout:
                    # The table moved on under the move (its card or button went away before
                    # the click): look at the page again.
                    p.stale_moves += 1
                    continue
                p.moves += 1
                with contextlib.suppress(PlaywrightTimeout):  # a refused or raced move
                    p.wait_past(seq, timeout=10)
                moved = True
        if between is not None:
            between()
        if not moved:
            time.sleep(0.05)
    for p in players:
        expect(p.page.get_by_test_id("outcome")).to_be_visible()
        assert not p.page_errors, p.page_errors
