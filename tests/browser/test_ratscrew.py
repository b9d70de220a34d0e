"""Egyptian Ratscrew in real browsers: a whole game by keys and clicks, a slap race between two
browsers, and a refused move showing its reason."""

from __future__ import annotations

import contextlib
import re
import time

from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server
from .helpers import Player, create_table, join_table, play_to_end, start

SLAP_AT = """({at, tap}) => setTimeout(() => {
  if (tap) document.querySelector('[data-testid=pile]').dispatchEvent(
    new PointerEvent('pointerdown', {bubbles: true, cancelable: true, pointerType: 'touch'}));
  else window.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', cancelable: true}));
}, at - Date.now())"""
"""A space-bar press (or a tap on the pile) at a given time of the page's clock."""


SAME_PILE = """(want) => {
  const got = [...document.querySelectorAll('[data-testid=pile] .fan .card')]
    .map((e) => e.dataset.card);
  return got.length === want.length && got.every((c, i) => c === want[i]);
}"""
"""The page shows exactly this pile."""


def er_move(p: Player) -> None:
    if p.visible("act-collect"):
        p.page.keyboard.press("c")
    elif p.visible("act-play"):
        if p.moves % 2:
            with contextlib.suppress(PlaywrightTimeout):  # a bot's slap may come first
                p.page.get_by_test_id("act-play").click(timeout=2000)
        else:
            p.page.keyboard.press("Enter")


def can_play(p: Player) -> bool:
    """Playing a card or collecting the pile is offered (a slap is always offered)."""
    return p.visible("act-play") or p.visible("act-collect")


def pile(p: Player) -> list[str]:
    return p.page.locator("[data-testid=pile] .fan .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def rank(card: str) -> str:
    return card[:-1]


def slappable(cards: list[str]) -> bool:
    """Doubles or a sandwich on top (the default slap rules)."""
    return (len(cards) >= 2 and rank(cards[-1]) == rank(cards[-2])) or (
        len(cards) >= 3 and rank(cards[-1]) == rank(cards[-3])
    )


def test_egyptian_ratscrew_whole_game_two_browsers_and_a_bot(server: Server, browser: Browser):
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(
        ann, "egyptian-ratscrew", 3, {1: "open", 2: "bot:normal"}, {"max_cards": "50"}
    )
    join_table(bob, code)
    start(ann, [bob])
    expect(ann.page.get_by_test_id("latency")).to_have_text(re.compile(r"latency \d+ ms"))
    play_to_end([ann, bob], er_move, timeout=150, ready=can_play)


def test_slap_race_between_two_browsers_and_a_refused_move(server: Server, browser: Browser):
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, "egyptian-ratscrew", 2, {1: "open"}, {})
    join_table(bob, code)
    start(ann, [bob])
    # A refused move shows its reason: Enter pressed twice faster than the network (both
    # key presses handled before the answer to the first comes back) plays one card; the
    # second "play" is refused because the turn has passed.
    first = ann if ann.visible("act-play") else bob
    expect(first.page.get_by_test_id("act-play")).to_be_enabled()
    first.page.evaluate(
        "() => { for (let i = 0; i < 2; i++)"
        " window.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'})); }"
    )
    expect(first.page.get_by_test_id("refusal")).to_contain_text("Not allowed:")
    deadline = time.monotonic() + 120
    races = 0
    while races < 2:
        assert time.monotonic() < deadline, "no slappable pile came up"
        assert not ann.over(), "the game ended before a race"
        cards = pile(ann)
        if slappable(cards) and cards != pile(bob):
            # Bob's page may show the new card a moment later (a busy machine): wait for it
            # rather than play on and lose this slappable pile.
            with contextlib.suppress(PlaywrightTimeout):
                bob.page.wait_for_function(SAME_PILE, arg=cards, timeout=5000)
        if slappable(cards) and cards == pile(bob) and cards == pile(ann):
            seq = ann.seq()
            # Both slap the same pile within a few milliseconds (Ann first), by the space bar in
            # the first race and a tap on the pile in the second: one takes it, the other is
            # too late.  The presses are timed in the pages (one clock for both) because the
            # test drives one page at a time.
            at = ann.page.evaluate("() => Date.now()") + 300
            for p, delay in ((ann, 0), (bob, 5)):
                p.page.evaluate(SLAP_AT, {"at": at + delay, "tap": races == 1})
            for p in (ann, bob):
                expect(p.page.get_by_test_id("slap-verdict")).not_to_contain_text(
                    "Waiting", timeout=10000
                )
            verdicts = {
                p.name: p.page.get_by_test_id("slap-verdict").inner_text() for p in (ann, bob)
            }
            takes = [n for n, v in verdicts.items() if "take the pile" in v]
            late = [n for n, v in verdicts.items() if "too late" in v]
            assert len(takes) == 1 and len(late) == 1, verdicts
            ann.wait_past(seq)
            bob.wait_past(seq)
            races += 1
            continue
        moved = False
        for p in (ann, bob):
            if p.my_turn() and can_play(p):
                seq = p.seq()
                er_move(p)
                p.wait_past(seq, timeout=10)
                moved = True
        if not moved:
            time.sleep(0.05)
    assert not ann.page_errors and not bob.page_errors


PRESS_AFTER_CHANGE = """(after) => {
  const pile = () => document.querySelector('[data-testid=pile]');
  const drawn = () => pile().getAttribute('aria-label') + ' ' + pile().dataset.version;
  const before = drawn();
  window.__press = new Promise((resolve) => {
    setTimeout(() => resolve(-1), 20000);
    const watch = new MutationObserver(() => {
      if (drawn() === before) return;
      watch.disconnect();
      const changed = performance.now();
      setTimeout(() => {
        window.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', cancelable: true}));
        resolve(performance.now() - changed);
      }, after);
    });
    watch.observe(document.body, {subtree: true, childList: true, attributes: true});
  });
}"""
"""Press the space bar ``after`` ms after the page draws the next pile (timed in the page)."""


def stack_size(p: Player, seat: int) -> int:
    text = p.page.get_by_test_id(f"stack-{seat}").inner_text()
    match = re.search(r"(\d+) cards?", text)
    assert match, text
    return int(match.group(1))


def test_the_loser_of_a_close_race_is_too_late_not_burned(server: Server, browser: Browser):
    """Ann takes a slappable pile; Bob presses 20 ms, then 50 ms, after the empty pile reached
    his screen.  Nobody reacts that fast: the press is aimed at the pile Bob saw before, which
    Ann took, so it is too late and costs Bob no card (it used to burn one).  The empty pile
    is not drawn as slappable, and once it has been on the screen long enough to see, the
    Slap button is off."""
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, "egyptian-ratscrew", 2, {1: "open"}, {"burn": "1"})
    join_table(bob, code)
    start(ann, [bob])
    deadline = time.monotonic() + 240
    races = empties = late_timers = 0
    todo = [20, 50]
    while todo:
        after = todo[0]
        while True:
            assert time.monotonic() < deadline, "no slappable pile came up"
            assert not ann.over(), "the game ended before a race"
            cards = pile(ann)
            if slappable(cards) and cards != pile(bob):
                with contextlib.suppress(PlaywrightTimeout):
                    bob.page.wait_for_function(SAME_PILE, arg=cards, timeout=5000)
            if slappable(cards) and cards == pile(bob) and cards == pile(ann):
                break
            moved = False
            for p in (ann, bob):
                if p.my_turn() and can_play(p):
                    seq = p.seq()
                    er_move(p)
                    p.wait_past(seq, timeout=10)
                    moved = True
            if not moved:
                time.sleep(0.05)
        before = stack_size(bob, 1)
        seq = ann.seq()
        bob.page.evaluate(PRESS_AFTER_CHANGE, after)
        time.sleep(0.2)  # Ann sees the pile a while before she slaps it
        ann.page.keyboard.press(" ")
        expect(ann.page.get_by_test_id("slap-verdict")).to_contain_text("take the pile")
        waited = bob.page.evaluate("() => window.__press")
        verdict = bob.page.get_by_test_id("slap-verdict")
        expect(verdict).not_to_contain_text("Waiting", timeout=10000)
        if waited >= after + 60:
            # The page's timer fired late (a busy machine): no press of the kind meant here.
            ann.wait_past(seq)
            bob.wait_past(seq)
            late_timers += 1
            assert late_timers <= 4, "the page's timers keep firing late"
            continue
        assert after <= waited, waited
        expect(verdict).to_contain_text("too late")
        ann.wait_past(seq)
        bob.wait_past(seq)
        assert stack_size(bob, 1) == before
        races += 1
        todo.pop(0)
        pile_button = bob.page.get_by_test_id("pile")
        if (pile_button.get_attribute("aria-label") or "").startswith("The pile: 0 cards"):
            # the empty pile: not drawn as slappable; after the reaction window, no Slap
            expect(pile_button).not_to_have_class(re.compile(r"\blive\b"))
            expect(bob.page.get_by_test_id("act-slap")).to_be_disabled()
            empties += 1
    assert races == 2 and empties >= 1
    assert not ann.page_errors and not bob.page_errors
