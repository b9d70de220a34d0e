"""Seats that follow their player: a seated person's seat link (shown in the page) takes the seat
from another browser; the host gives out a new link, which makes the old one stop working; a
browser without a seat is told in a line that it watches."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import Player, create_table, join_table


def test_a_seat_link_follows_its_player_and_the_host_reissues_it(
    server: Server, browser: Browser
) -> None:
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, "caged-rats", 2, {1: "open"}, {"single_deal": True})
    join_table(bob, code)
    link = bob.page.get_by_test_id("my-seat-link").input_value()
    assert re.fullmatch(re.escape(f"{server.base}/t/{code}") + r"#seat=[A-Za-z0-9_-]{43}", link)
    assert link != ann.page.get_by_test_id("my-seat-link").input_value()
    expect(bob.page.get_by_test_id("watching")).to_have_count(0)

    # Someone with only the invite link watches, and is told so.
    stranger = Player(browser, server.base, "Cy")
    stranger.page.goto(f"{server.base}/t/{code}")
    expect(stranger.page.get_by_test_id("watching")).to_contain_text("You are watching")
    expect(stranger.page.get_by_test_id("my-seat-link")).to_have_count(0)

    # Bob on another device (a browser with nothing stored) opens his seat link: his seat.
    phone = Player(browser, server.base, "Bob")
    phone.page.goto(link)
    expect(phone.page.get_by_test_id("seats")).to_contain_text("Bob (you)")
    expect(phone.page.get_by_test_id("watching")).to_have_count(0)
    assert "#" not in phone.page.url  # the token leaves the address bar

    # The host gives Bob a new link: the old one stops working at once, the new one works.
    ann.page.get_by_role("button", name="New seat link for Bob").click()
    new_link = ann.page.get_by_test_id("issued-seat-link").input_value()
    assert new_link.startswith(f"{server.base}/t/{code}#seat=") and new_link != link
    expect(phone.page.get_by_test_id("watching")).to_be_visible()
    old = Player(browser, server.base, "Bob")
    old.page.goto(link)
    expect(old.page.get_by_test_id("notice")).to_contain_text("no longer works")
    expect(old.page.get_by_test_id("watching")).to_be_visible()
    fresh = Player(browser, server.base, "Bob")
    fresh.page.goto(new_link)
    expect(fresh.page.get_by_test_id("seats")).to_contain_text("Bob (you)")
    # No one but the host was sent the new token.
    for p in (bob, stranger, phone, old, fresh):
        assert not p.messages("seat_link")
    for p in (ann, bob, stranger, phone, old, fresh):
        assert not p.page_errors, p.page_errors
        p.close()
