"""Accessibility checked by axe-core (web/node_modules/axe-core, installed by `npm ci` in web/)
in the pages as a person sees them: the lobby, each game's table in play, a finished table and
its replay.  No serious or critical violation is allowed."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import DESKTOP, PHONE, Player, create_table, play_to_end, start
from .test_games import caged_move

CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b")
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations in the page, one line per element."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` in web/")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text() + "\n;void 0")  # not a script tag: the page's CSP
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    out = []
    for v in results["violations"]:
        if v["impact"] not in ("serious", "critical"):
            continue
        for node in v["nodes"]:
            out.append(f"{v['id']}: {node['target']} {node['failureSummary']}"[:300])
    return out


def open_table(
    browser: Browser, base: str, game: str, players: int, viewport: dict[str, int]
) -> Page:
    """A table of ``game`` with the page's person in seat 0 and bots elsewhere, started."""
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "normal"}] * (players - 1)
    created = httpx.post(
        base + "/api/tables",
        json={"game": game, "seats": seats, "options": {}, "name": "Ann", "public": False},
    ).json()
    code = created["table"]["code"]
    keys = {"token": created["token"], "host_token": created["host_token"], "seat": 0}
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('ratgames.table.{code}', {json.dumps(json.dumps(keys))});"
    )
    page = context.new_page()
    page.goto(f"{base}/t/{code}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby(server: Server, browser: Browser, viewport: dict[str, int]):
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    assert serious_violations(page) == []
    page.goto(server.base + "/replays")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert serious_violations(page) == []
    context.close()


def no_overflow(page: Page) -> None:
    """Nothing wider than the screen (no sideways scrolling)."""
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def test_the_phone_lobby_fits_and_creates_a_table(server: Server, browser: Browser):
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server.base + "/")
    for game in ("rat-a-tat-cat", "egyptian-ratscrew", "rats", "caged-rats"):
        page.locator(f"input[name=game][value={game}]").check()
        page.locator("select[name=players]").select_option(index=0)
        no_overflow(page)
    page.locator("input[name=game][value=rat-a-tat-cat]").check()
    page.locator("select[name=players]").select_option("4")
    # Players read words: bot levels, options by what they do, caps folded away.
    assert page.locator("select[name=seat2] option").all_inner_texts() == [
        "A friend (open seat)",
        "Easy bot",
        "Normal bot",
        "Hard bot",
        "Expert bot",
    ]
    form = page.locator("form").filter(has=page.get_by_role("button", name="Create the table"))
    for word in ("turn_cap", "memory_aid", "pimc", "Safety cap"):
        assert word not in form.inner_text()
    expect(page.locator("#opt-turn_cap")).to_be_hidden()
    # How the game ends is a choice and a number, not a code to type.
    assert "elimination=100" not in form.inner_text()
    mode = page.locator("#opt-mode")
    assert mode.evaluate("e => e.tagName") == "SELECT"
    assert mode.locator("option").all_inner_texts()[:2] == ["One round", "A number of rounds"]
    expect(page.locator("#opt-mode-n")).to_have_value("100")  # the default: out at 100
    mode.select_option("rounds")
    expect(page.locator("#opt-mode-n")).to_have_value("3")  # where a number of rounds starts
    page.locator("#opt-mode-n").fill("5")
    mode_box = page.locator("#opt-mode").bounding_box()
    assert mode_box and mode_box["height"] >= 40, mode_box
    no_overflow(page)
    page.locator("#name").fill("Ann")
    page.get_by_role("button", name="Create the table").click()  # no other element in the way
    page.wait_for_url("**/t/*")
    no_overflow(page)
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    table = page.request.get(f"{server.base}/api/tables/{code}").json()
    assert table["options"]["mode"] == "rounds=5", table
    context.close()


@pytest.mark.parametrize(
    ("game", "players"),
    [("rat-a-tat-cat", 3), ("egyptian-ratscrew", 3), ("rats", 3), ("caged-rats", 2)],
)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_games_table(
    server: Server, browser: Browser, game: str, players: int, viewport: dict[str, int]
):
    page = open_table(browser, server.base, game, players, viewport)
    # Let the bots move and the log fill a little, then look at the table as it stands.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not page.locator(".log li").count():
        time.sleep(0.1)
    time.sleep(0.5)
    assert serious_violations(page) == []
    no_overflow(page)
    # The log writes cards as they are drawn (A♥), not as codes (AH).
    assert not CARD_CODE.search(page.get_by_test_id("log").inner_text())
    page.context.close()


def test_a_finished_table_and_its_replay(server: Server, browser: Browser):
    ann = Player(browser, server.base, "Ann")
    code = create_table(ann, "caged-rats", 2, {1: "bot:easy"}, {"single_deal": True})
    start(ann, [])
    play_to_end([ann], caged_move)
    # The replay list's source carries the seats (with a token of the table), and lists only
    # public tables' games to whoever shows none.
    token = ann.page.evaluate(
        f"() => JSON.parse(localStorage.getItem('ratgames.table.{code}')).token"
    )
    listed = httpx.get(server.base + "/api/replays", headers={"X-Ratgames-Token": token}).json()
    ours = [r for r in listed if r["table"] == code]
    assert len(ours) == 1 and ours[0]["seats"] == [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "name": "easy"},
    ], ours
    assert all(r["public"] for r in httpx.get(server.base + "/api/replays").json())
    # The result, with its Rematch and replay, is scrolled into view when the game ends.
    expect(ann.page.get_by_role("button", name="Rematch")).to_be_in_viewport()
    # The log shows its newest lines.
    log = ann.page.get_by_test_id("log")
    assert log.evaluate("e => e.scrollTop + e.clientHeight >= e.scrollHeight - 8")
    assert log.evaluate("e => e.scrollHeight > e.clientHeight")
    assert serious_violations(ann.page) == []
    ann.page.get_by_role("link", name="Watch the replay").click()
    expect(ann.page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
    assert serious_violations(ann.page) == []
    ann.page.keyboard.press("ArrowRight")
    ann.page.keyboard.press("ArrowRight")
    expect(ann.page.get_by_test_id("replay-step")).to_contain_text("move 2 of")
    assert serious_violations(ann.page) == []
    # Players read words: the bot by its level, no card codes, no game ids.
    expect(ann.page.locator("main")).to_contain_text("Easy bot")
    assert not CARD_CODE.search(ann.page.locator(".log-box").inner_text())
    ann.page.set_viewport_size(PHONE)
    no_overflow(ann.page)
    ann.page.get_by_role("link", name="All replays").click()
    expect(ann.page.get_by_test_id("records")).to_contain_text("Caged Rats")
    # The winner by name (the list carries the seats: Ann and the easy bot).
    expect(ann.page.get_by_test_id("records")).to_contain_text(re.compile("won by (Ann|Easy bot)"))
    assert "caged-rats" not in ann.page.get_by_test_id("records").inner_text()
    no_overflow(ann.page)
    ann.close()


def test_focus_is_visible_and_targets_are_big_enough(server: Server, browser: Browser):
    page = open_table(browser, server.base, "rats", 3, PHONE)
    header = page.locator("header.top nav a, header.top label")
    for box in [header.nth(i).bounding_box() for i in range(header.count())]:
        assert box and box["height"] >= 40, box
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not page.locator(".hand button.card.live").count():
        time.sleep(0.1)
    chips = page.locator("[data-testid=hints] button.chip")
    for box in [chips.nth(i).bounding_box() for i in range(chips.count())]:
        assert box and box["height"] >= 40, box
    card = page.locator(".hand button.card.live").first
    card.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard: :focus-visible
    ring = card.evaluate(
        "e => { const s = getComputedStyle(e);"
        " return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }"
    )
    assert ring == ["solid", "3px", "rgb(11, 61, 145)"], ring
    page.context.close()


def test_turn_in_the_title_sound_remembered_and_chat_keys(server: Server, browser: Browser):
    page = open_table(browser, server.base, "rats", 3, DESKTOP)
    expect(page.locator(".hand button.card.live").first).to_be_visible()
    expect(page).to_have_title("● Your turn — ratgames")
    # A key that does nothing says why.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("q")
    expect(page.get_by_test_id("key-note")).to_contain_text("Q does nothing here")
    page.keyboard.press("Escape")  # a key the game takes (clears the choice): no note
    page.keyboard.press("h")  # the next hint
    time.sleep(0.3)
    assert "H does nothing" not in page.locator("main").inner_text()
    sound = page.get_by_test_id("turn-sound")
    expect(sound).not_to_be_checked()  # off unless chosen
    sound.check()
    # Game keys do not act while the chat has focus: they type; Escape leaves the chat.
    chat = page.get_by_label("Chat message")
    chat.click()
    seq = page.get_by_test_id("board").get_attribute("data-seq")
    page.keyboard.type("hpx")
    expect(chat).to_have_value("hpx")
    assert page.get_by_test_id("board").get_attribute("data-seq") == seq
    page.keyboard.press("Escape")
    expect(chat).not_to_be_focused()
    page.reload()
    expect(page.get_by_test_id("turn-sound")).to_be_checked()  # remembered
    page.context.close()


def test_reduced_motion_stops_the_card_movements(server: Server, browser: Browser):
    page = open_table(browser, server.base, "caged-rats", 2, DESKTOP)
    card = page.locator(".hand button.card.live").first
    expect(card).to_be_visible()
    card.hover()
    time.sleep(0.4)
    assert card.evaluate("e => getComputedStyle(e).transform") != "none"  # lifted
    page.emulate_media(reduced_motion="reduce")
    assert card.evaluate("e => getComputedStyle(e).transform") == "none"
    page.context.close()
