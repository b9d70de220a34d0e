"""Whole games in real browsers: two or more people (browser contexts of their own) join one
table through the lobby, with bots in the other seats, and play to the result by clicks and
keys; a reload mid-game returns to the seat; one seat never receives another's hidden cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import Player, create_table, join_table, play_to_end, start



def live_cards(p: Player, scope: str = ".hand") -> list[str]:
    return p.page.locator(f"{scope} button.card.live").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


# --- Caged Rats --------------------------------------------------------------------------------


def caged_move(p: Player) -> None:
    page = p.page
    if page.get_by_test_id("act-cage").count():
        cards = live_cards(p)
        page.get_by_test_id(f"hand-{cards[0]}").click()
        page.get_by_test_id(f"hand-{cards[1]}").click()
        page.get_by_test_id("act-cage").click()
        return
    feeds = page.locator("[data-testid^=act-feed-]")
    if feeds.count():
        page.keyboard.press(feeds.first.get_attribute("data-testid")[-1])  # type: ignore[index]
        return
    cards = live_cards(p)
    if not cards:
        return
    card = cards[p.moves % len(cards)]
    page.get_by_test_id(f"hand-{card}").click()
    buttons = page.locator(".actions button[data-testid^=act-]:not([disabled])")
    expect(buttons.first).to_be_visible()
    # The first offered action (offer, bid, or top face up), or a face-down throw now and then.
    throw = page.get_by_test_id("act-throw")
    if throw.count() and p.moves % 3 == 0:
        page.keyboard.press("d")
    else:
        buttons.first.click()


def black_cards(text: str) -> set[str]:
    """Clubs and spades named in a text (Black's cards in Caged Rats)."""
    return set(re.findall(r'"((?:10|[2-9JQKA])[CS])"', text))


def test_caged_rats_two_browsers_reload_and_no_hidden_cards(server: Server, browser: Browser):
    red, black = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(red, "Caged Rats", 2, {1: "open"}, {"single_deal": True})
    join_table(black, code)
    start(red, [black])
    reloaded = False

    def reload_once() -> None:
        nonlocal reloaded
        if not reloaded and red.seq() >= 12:
            reloaded = True
            red.page.reload()
            expect(red.page.get_by_test_id("board")).to_be_visible()
            expect(red.page.get_by_test_id("cage-0")).to_contain_text("Ann (you)")
            assert red.board()["seat"] == "0"

    play_to_end([red, black], caged_move, between=reload_once)
    assert reloaded
    # Red never received a card of Black's that was not shown face up (rats, offers, bids,
    # tops): not Black's hand, stock or face-down throws, in any frame or in the page.
    final = red.messages("state")[-1]["observation"]
    seen_black = set(final["face_up_seen"]["black"])
    received = set().union(*(black_cards(f) for f in red.frames))
    assert received <= seen_black, received - seen_black
    assert black_cards(red.page.content()) <= seen_black
    table = server.app.state.lobby.tables[code]
    all_black = {c for c in table.make_record()["deal"]["black"]["hand"]} | set(
        table.make_record()["deal"]["black"]["stock"]
    )
    assert all_black - seen_black, "some of Black's cards stayed hidden"
    # The rematch: both players go to the new table, in their seats.
    red.page.get_by_role("button", name="Rematch").click()
    for p in (red, black):
        p.page.wait_for_url(re.compile(r"/t/(?!" + code + r")[A-Z0-9]{6}$"))
        expect(p.page.get_by_test_id("seats")).to_contain_text(f"{p.name} (you)")
