"""Whole games in real browsers: two or more people (browser contexts of their own) join one
table through the lobby, with bots in the other seats, and play to the result by clicks and
keys; a reload mid-game returns to the seat; one seat never receives another's hidden cards."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import QUICK, Player, create_table, join_table, play_to_end, start


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
    code = create_table(red, "caged-rats", 2, {1: "open"}, {"single_deal": True})
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


# --- Rat-a-Tat Cat -----------------------------------------------------------------------------


def ratatat_move(p: Player) -> None:
    page = p.page
    prompt = page.get_by_test_id("prompt").inner_text()
    if p.visible("act-knock"):
        page.keyboard.press("k")
    elif p.visible("act-draw"):
        if p.moves % 2:
            page.get_by_test_id("draw-pile").click()
        else:
            page.keyboard.press("d")
    elif prompt.startswith("You drew"):
        page.keyboard.press("x" if p.moves % 3 == 0 else "2")
    elif prompt.startswith("Put the"):
        page.keyboard.press("3")
    elif prompt.startswith("Peek"):
        page.get_by_test_id(f"slot-{p.board()['seat']}-1").click()
    elif prompt.startswith("Swap"):
        page.keyboard.press("1")
        page.locator(".others button.card.live").first.click()
    elif p.visible("act-noswap"):
        page.keyboard.press("n")
    elif p.visible("act-end"):
        page.keyboard.press("e")
    elif p.visible("act-take"):
        page.keyboard.press("t")


def test_rat_a_tat_cat_two_browsers_and_a_bot(server: Server, browser: Browser):
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, "rat-a-tat-cat", 3, {1: "open", 2: "bot:normal"}, {"mode": "round"})
    join_table(bob, code)
    start(ann, [bob])
    # The opening look: your two outer cards are shown, the inner ones are not.
    me = ann.board()["seat"]
    expect(ann.page.get_by_test_id(f"slot-{me}-1")).not_to_have_accessible_name(
        re.compile("face down")
    )
    expect(ann.page.get_by_test_id(f"slot-{me}-2")).to_have_accessible_name(re.compile("face down"))
    play_to_end([ann, bob], ratatat_move)
    # The round's reveal shows every row.
    for p in (ann, bob):
        expect(p.page.get_by_test_id("round-result")).to_contain_text("Bob")
    assert ann.moves and bob.moves


# --- Rats --------------------------------------------------------------------------------------


def rats_move(p: Player) -> None:
    """Play the first hint, or (when nothing beats the trick) choose cards until a discard is
    offered and discard.  The table may move on meanwhile (a bot ends the round and a new hand
    is dealt): then a click finds its card gone and times out quickly, and the next look at
    the page starts afresh (see play_to_end)."""
    page = p.page
    hints = page.locator("[data-testid=hints] button.chip")
    if hints.count():
        hints.first.click(timeout=QUICK)
        page.keyboard.press("p")
        return
    for card in live_cards(p):
        if p.visible("act-discard"):
            break
        page.get_by_test_id(f"hand-{card}").click(timeout=QUICK)
    page.keyboard.press("x")


def test_rats_two_browsers_and_a_bot_then_the_replay(server: Server, browser: Browser):
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, "rats", 3, {1: "open", 2: "bot:normal"}, {"max_rounds": "1"})
    join_table(bob, code)
    start(ann, [bob])
    play_to_end([ann, bob], rats_move)
    # The replay of this game, from Bob's seat, stepped with the arrow keys.
    page = bob.page
    page.get_by_role("link", name="Watch the replay").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 1 of")
    expect(page.locator(".hand-box")).to_be_visible()
    page.keyboard.press("End")
    expect(page.get_by_test_id("outcome")).to_be_visible()
    page.get_by_role("link", name="All replays").click()
    expect(page.get_by_test_id("records")).to_contain_text("Rats")
