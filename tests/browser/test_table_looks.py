"""How the table looks and moves: the cards' drawings and names, cards moving to where they
go (and not under reduced motion), the dark theme, a raised card clear of the badges, and bots
named as bots."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import DESKTOP, PHONE
from .test_accessibility import no_overflow, open_table, serious_violations

WATCH_MOVES = """() => {
  window.__moved = [];
  const slid = new Set();
  new MutationObserver((records) => {
    for (const r of records) {
      // A slide sets the card's transform and lets it go at once: the old value shows it.
      const el = r.target;
      const moved = /translate\\(/.test((r.oldValue || '') + el.style.transform);
      const card = el.classList && el.classList.contains('card') && !el.classList.contains('ghost');
      if (card && moved && !slid.has(el)) {
        window.__moved.push(el.dataset.card || 'face-down');
        slid.add(el);
      }
    }
  }).observe(document.body, {
    subtree: true, attributes: true, attributeFilter: ['style'], attributeOldValue: true,
  });
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n.classList && n.classList.contains('ghost'))
          window.__moved.push(n.dataset.flying || 'ghost');
  }).observe(document.body, { childList: true });
}"""


def wait_for_hand(page: Page) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not page.locator(".hand button.card.live").count():
        time.sleep(0.1)
    expect(page.locator(".hand button.card.live").first).to_be_visible()


def play_a_hint_or_discard(page: Page) -> list[str]:
    """Play the first hint (Rats), or discard the first cards; the cards played."""
    wait_for_hand(page)
    seq = page.get_by_test_id("board").get_attribute("data-seq") or ""
    chips = page.locator("[data-testid=hints] button.chip")
    if chips.count():
        chips.first.click()
    else:
        for card in page.locator(".hand button.card.live").all():
            if page.get_by_test_id("act-discard").is_enabled():
                break
            card.click()
    chosen = page.locator(".hand button.card[aria-pressed=true]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    page.keyboard.press("p" if chips.count() else "x")
    page.wait_for_function(
        "(s) => document.querySelector('[data-testid=board]').dataset.seq !== s", arg=seq
    )
    # A discard goes one card at a time: wait until all of them have left the hand.
    page.wait_for_function(
        "(cards) => cards.every((c) => !document.querySelector(`.hand [data-card='${c}']`))",
        arg=chosen,
    )
    return list(chosen)


def test_cards_are_drawn_as_pictures_and_named_in_words(server: Server, browser: Browser):
    page = open_table(browser, server.base, "rats", 3, DESKTOP)
    wait_for_hand(page)
    hand = page.locator(".hand button.card")
    assert hand.count() > 5
    for i in range(hand.count()):
        card = hand.nth(i)
        assert card.locator("svg.art").count() == 1
        assert card.locator("svg.art").get_attribute("aria-hidden") == "true"
        name = card.locator(".visually-hidden").inner_text()
        assert " of " in name or name.endswith("joker"), name
        box = card.locator("svg.art").bounding_box()
        assert box and box["width"] >= 40 and box["height"] >= 60, box  # fills the card
    page.context.close()
    page = open_table(browser, server.base, "rat-a-tat-cat", 2, PHONE)
    expect(page.get_by_test_id("draw-pile")).to_be_visible()
    backs = page.locator(".card.down")
    assert backs.count() >= 7  # the draw pile, the bot's row, your two middle cards
    assert backs.first.locator("svg.art").count() == 1
    for slot in range(1, 5):
        label = page.get_by_test_id(f"slot-1-{slot}").get_attribute("aria-label")
        assert label and label.startswith(f"Normal bot's slot {slot}: face down"), label
    page.context.close()


def test_a_card_played_moves_there_unless_motion_is_reduced(server: Server, browser: Browser):
    page = open_table(browser, server.base, "rats", 3, DESKTOP)
    page.evaluate(WATCH_MOVES)
    played = play_a_hint_or_discard(page)
    assert played
    wait_for_hand(page)  # the bots have played meanwhile
    moved = page.evaluate("() => window.__moved")
    # Your cards slid from your hand to the trick (the bots' from their places), or flew on
    # with the trick they ended to its winner.
    assert set(played) & set(moved), (played, moved)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("() => { window.__moved = []; }")
    play_a_hint_or_discard(page)
    wait_for_hand(page)
    assert page.evaluate("() => window.__moved") == []
    page.context.close()


def luminance(rgb: str) -> float:
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_the_dark_theme_follows_the_system_and_keeps_contrast(server: Server, browser: Browser):
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    body = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert luminance(body) < 0.2, body
    assert serious_violations(page) == []
    context.close()
    for game, players in (("rats", 3), ("rat-a-tat-cat", 3)):
        page = open_table(browser, server.base, game, players, DESKTOP)
        page.emulate_media(color_scheme="dark")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not page.locator(".log li").count():
            time.sleep(0.1)
        time.sleep(0.4)
        panel = page.locator(".side section").first
        assert luminance(panel.evaluate("e => getComputedStyle(e).backgroundColor")) < 0.3
        # The cards stay light, as cards are.
        card = page.locator(".card.up").first
        if card.count():
            assert luminance(card.evaluate("e => getComputedStyle(e).backgroundColor")) > 0.8
        assert serious_violations(page) == []
        page.context.close()


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def test_a_raised_card_leaves_the_to_play_badge_clear(server: Server, browser: Browser):
    for viewport in (DESKTOP, PHONE):
        page = open_table(browser, server.base, "rat-a-tat-cat", 3, viewport)
        badge = page.locator("[data-testid=row-0] .badge", has_text="to play")
        expect(badge).to_be_visible(timeout=30000)
        for slot in range(1, 5):
            card = page.get_by_test_id(f"slot-0-{slot}")
            card.evaluate("e => e.classList.add('selected')")  # as a card chosen for a swap
            time.sleep(0.2)
            box, mark = card.bounding_box(), badge.bounding_box()
            assert box and mark and overlap(box, mark) == 0, (slot, box, mark)
            card.evaluate("e => e.classList.remove('selected')")
        no_overflow(page)
        page.context.close()


def test_bots_are_named_as_bots(server: Server, browser: Browser):
    page = open_table(browser, server.base, "rats", 3, DESKTOP)
    players = page.locator(".players li")
    expect(players.nth(1)).to_contain_text("Normal bot (seat 2)")
    expect(players.nth(2)).to_contain_text("Normal bot (seat 3)")
    play_a_hint_or_discard(page)
    wait_for_hand(page)  # the bots have moved since
    log = page.get_by_test_id("log").inner_text()
    assert "Normal bot" in log and "Seat 2" not in log and "Seat 3" not in log, log
    assert "(bot)" not in page.locator("main").inner_text()
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_game_choice_has_its_radio_beside_its_title(
    server: Server, browser: Browser, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server.base + "/")
    choices = page.locator(".game-choice")
    expect(choices.first).to_be_visible()
    for i in range(choices.count()):
        radio = choices.nth(i).locator("input[type=radio]").bounding_box()
        title = choices.nth(i).locator("label strong").bounding_box()
        assert radio is not None and title is not None
        middle = radio["y"] + radio["height"] / 2
        assert title["y"] <= middle <= title["y"] + title["height"], (i, radio, title)
        assert radio["x"] + radio["width"] <= title["x"]
    context.close()
