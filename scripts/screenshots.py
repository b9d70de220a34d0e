"""Screenshots of the browser client: each game's table at phone (360 px) and desktop sizes, and
at the desktop size in the dark theme, and the lobby at both sizes, written to docs/screenshots/
(or --out).

    uv run python scripts/screenshots.py [--out DIR] [--seed N]

Starts a server of its own on a free loopback port (with a temporary database), seats one
person (the browser) and bots at a table of each game, plays a few moves by clicks and keys,
and photographs the table with Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ratgames.server.app import WS_MAX_SIZE, create_app
from ratgames.server.tables import Settings

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
THEMES = {"phone": "light", "desktop": "light", "desktop-dark": "dark"}
"""Each table is photographed at these sizes (desktop-dark: the desktop in the dark theme)."""

GAMES: dict[str, dict[str, Any]] = {
    "rat-a-tat-cat": {"players": 4, "options": {}, "moves": 0},  # your outer cards still shown
    "egyptian-ratscrew": {"players": 3, "options": {}, "moves": 6},
    "rats": {"players": 3, "options": {}, "moves": 5},
    "caged-rats": {"players": 2, "options": {}, "moves": 7},
}


def serve(db: Path) -> tuple[str, uvicorn.Server, threading.Thread]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(f"sqlite:///{db}", Settings(bot_pause=0.2, ping_interval=0.5))
    server = uvicorn.Server(uvicorn.Config(app, ws_max_size=WS_MAX_SIZE, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, thread


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def board(page: Page) -> dict[str, str]:
    return dict(
        page.evaluate(
            "() => { const b = document.querySelector('[data-testid=board]');"
            " return b ? Object.assign({}, b.dataset) : {}; }"
        )
    )


def live(page: Page, selector: str) -> list[str]:
    return list(page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)"))


def enabled(page: Page, testid: str) -> bool:
    loc = page.get_by_test_id(testid)
    return loc.count() > 0 and loc.first.is_enabled()


def move_ratatat(page: Page, rng: random.Random) -> None:
    if enabled(page, "act-end"):
        page.keyboard.press("e")
    elif enabled(page, "act-draw"):
        page.keyboard.press("d")
    elif enabled(page, "act-noswap"):
        page.keyboard.press("n")
    else:
        page.keyboard.press(str(rng.randint(1, 4)))


def move_ratscrew(page: Page, rng: random.Random) -> None:
    if enabled(page, "act-collect"):
        page.keyboard.press("c")
    elif enabled(page, "act-play"):
        page.keyboard.press("Enter")


def move_rats(page: Page, rng: random.Random) -> None:
    chips = page.locator("[data-testid=hints] button.chip")
    if chips.count():
        chips.nth(rng.randrange(min(3, chips.count()))).click()
        page.keyboard.press("p")
        return
    for card in live(page, ".hand button.card.live"):
        if enabled(page, "act-discard"):
            break
        page.get_by_test_id(f"hand-{card}").click()
    page.keyboard.press("x")


def move_caged(page: Page, rng: random.Random) -> None:
    cards = live(page, ".hand button.card.live")
    if page.get_by_test_id("act-cage").count():
        for card in rng.sample(cards, 2):
            page.get_by_test_id(f"hand-{card}").click()
        page.get_by_test_id("act-cage").click()
        return
    feeds = page.locator("[data-testid^=act-feed-]")
    if feeds.count():
        feeds.first.click()
        return
    if cards:
        page.get_by_test_id(f"hand-{rng.choice(cards)}").click()
        page.locator(".actions button[data-testid^=act-]:not([disabled])").first.click()


MOVES: dict[str, Callable[[Page, random.Random], None]] = {
    "rat-a-tat-cat": move_ratatat,
    "egyptian-ratscrew": move_ratscrew,
    "rats": move_rats,
    "caged-rats": move_caged,
}


def my_turn(page: Page, game: str) -> bool:
    b = board(page)
    if b.get("over") != "0" or int(b.get("legal", "0") or 0) == 0:
        return False
    if game == "egyptian-ratscrew":
        return enabled(page, "act-play") or enabled(page, "act-collect")
    return True


def table_shot(browser: Any, base: str, game: str, out: Path, seed: int) -> None:
    spec = GAMES[game]
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "normal"}] * (spec["players"] - 1)
    created = post(
        base,
        "/api/tables",
        {"game": game, "seats": seats, "options": spec["options"], "name": "Ann", "public": False},
    )
    code = created["table"]["code"]
    keys = {"token": created["token"], "host_token": created["host_token"], "seat": 0}
    for size, theme in THEMES.items():
        viewport = SIZES[size.split("-")[0]]
        context = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            device_scale_factor=1,
            color_scheme=theme,  # type: ignore[arg-type]
        )
        context.add_init_script(
            f"localStorage.setItem('ratgames.table.{code}', {json.dumps(json.dumps(keys))});"
        )
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(f"{base}/t/{code}")
        if size == "phone":  # the first visit starts the game and plays a few moves
            page.get_by_role("button", name="Start the game").click()
            page.get_by_test_id("board").wait_for()
            rng = random.Random(seed)
            moves = 0
            deadline = time.monotonic() + 60
            while moves < spec["moves"] and time.monotonic() < deadline:
                if my_turn(page, game):
                    seq = board(page).get("seq")
                    try:
                        MOVES[game](page, rng)
                    except PlaywrightTimeout:  # the table moved on under the move: look again
                        continue
                    moves += 1
                    with contextlib.suppress(PlaywrightTimeout):  # a refused or raced move
                        page.wait_for_function(
                            "(s) => document.querySelector('[data-testid=board]').dataset.seq"
                            " !== s",
                            arg=seq,
                            timeout=15000,
                        )
                else:
                    time.sleep(0.05)
            # Wait for a moment when it is the person's move (the table shows the choices).
            while not my_turn(page, game) and time.monotonic() < deadline:
                time.sleep(0.05)
        else:
            page.get_by_test_id("board").wait_for()
        time.sleep(0.6)  # let the card animations finish
        path = out / f"{game}-{size}.png"
        page.screenshot(path=str(path), full_page=size == "phone")
        print(f"wrote {path}")
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        base, server, thread = serve(Path(tmp) / "ratgames.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for size, viewport in SIZES.items():
                    context = browser.new_context(viewport=viewport)
                    page = context.new_page()
                    page.goto(base + "/")
                    page.locator("#name").fill("Ann")
                    page.get_by_role("button", name="Create the table").wait_for()
                    path = args.out / f"lobby-{size}.png"
                    page.screenshot(path=str(path), full_page=size == "phone")
                    print(f"wrote {path}")
                    context.close()
                for game in args.game or list(GAMES):
                    table_shot(browser, base, game, args.out, args.seed)
                browser.close()
        finally:
            server.should_exit = True
            thread.join(timeout=15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
