"""The Egyptian Ratscrew terminal panel in real time, driven with Textual's Pilot; and render."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from tests.games.egyptian_ratscrew.helpers import game, table

from ratgames.cards import card_text
from ratgames.core.bots import SeatView, make_bot
from ratgames.games.egyptian_ratscrew import tui
from ratgames.games.egyptian_ratscrew.bots import ReflexBot
from ratgames.games.egyptian_ratscrew.render import render
from ratgames.games.egyptian_ratscrew.rules import MIN_REACTION, EgyptianRatscrew, RatscrewState

if TYPE_CHECKING:
    from tests.conftest import OpenTable, Table


def quiet_bot(g: EgyptianRatscrew, pace: int = 5000) -> Any:
    """A bot that never slaps and plays slowly, so the human's keys decide."""
    return make_bot(g, f"heuristic:miss=1,false_slap=0,play_ms={pace}", seed=1)


class Clock:
    """The panel's clock, set by hand (``now``) or following the table (``rule``, which wins
    while set): key presses are timed exactly, whatever the load on the machine."""

    def __init__(self) -> None:
        self.now = 100.0
        self.rule: Callable[[], float] | None = None

    def __call__(self) -> float:
        return self.rule() if self.rule is not None else self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(tui, "clock", fake)
    return fake


def doubles_on_the_table() -> RatscrewState:
    """Two players; 9H and 9C are on the pile (version 2): doubles."""
    state = table(game(), "9H 4D 6S", "9C 5D 7S")
    state.apply(0, "play")
    state.apply(1, "play")
    return state


async def wait_for(ui: Table, done: Any, tries: int = 300) -> None:
    for _ in range(tries):
        if done():
            return
        await ui.pilot.pause(0.02)
    raise AssertionError("the table never got there")


async def test_space_plays_and_a_valid_slap_takes_the_pile(play_table: OpenTable) -> None:
    g = game()
    state = table(g, "9H 4C", "9C 5D")
    async with play_table(state, [None, quiet_bot(g, pace=50)]) as ui:
        assert "Your turn" in ui.panel_text()
        assert "space" in ui.app.panel.help_line() and "s slap" in ui.app.panel.help_line()
        await ui.pilot.press("space")
        assert ui.app.state.observation(0)["pile"][0] == "9H"
        for _ in range(200):  # the bot plays 9C at its pace (about 50 ms)
            await ui.pilot.pause(0.02)
            if len(ui.app.state.observation(0)["pile"]) == 2:
                break
        assert "[ 9C]" in ui.panel_text()
        await ui.pilot.press("s")
        assert ui.app.state.observation(0)["pile"] == []
        assert "You slap: doubles! You take the pile (2 cards)." in ui.log()
        assert "Your turn" in ui.panel_text()


async def test_a_bad_slap_is_reported_with_its_burn_and_a_second_slap_refused(
    play_table: OpenTable, clock: Clock
) -> None:
    g = game(burn=2)
    state = table(g, "2C", "5D")
    async with play_table(state, [None, quiet_bot(g)]) as ui:
        await ui.pilot.press("space")
        clock.now += 0.3  # 2C has been on the screen long enough to react to
        await ui.pilot.press("s")
        assert ui.app.state.last_slap[0] == 1
        assert "You slap a pile that cannot be slapped: burn 2 cards." in ui.log()
        assert "+2 burned" in ui.panel_text()
        clock.now += 0.3
        await ui.pilot.press("s")
        assert "already slapped" in ui.log() and len(ui.app.state.burned) == 2


# --- the reaction window (issue: a person's late slap was punished, a bot's was not) -------------


async def test_a_press_just_after_a_bot_took_the_pile_is_too_late_not_bad(
    play_table: OpenTable, clock: Clock
) -> None:
    state = doubles_on_the_table()
    # The bot slaps the doubles 0.6 s after it sees them (on the wall clock).
    bot = "heuristic:level=perfect,reaction_ms=600,play_ms=5000"
    # The doubles show at 100.0; whenever the bot takes them, the screen changes at 101.0.
    clock.rule = lambda: 100.0 if state.piles_won == 0 else 101.0
    async with play_table(state, [None, bot], seed=3) as ui:
        await wait_for(ui, lambda: ui.app.state.piles_won == 1)
        clock.rule = None
        assert "Seat 2 slaps: doubles! Seat 2 takes the pile (2 cards)." in ui.log()
        clock.now = 101.05  # you press 50 ms after the pile vanished from the screen
        cards = len(ui.app.state.stacks[0])
        await ui.pilot.press("s")
        assert "You slap too late (no penalty)." in ui.log()
        assert len(ui.app.state.stacks[0]) == cards and ui.app.state.burned == []
        assert ui.app.state.late == 1 and ui.app.state.bad == 0


async def test_a_press_well_after_the_pile_was_taken_is_a_bad_slap(
    play_table: OpenTable, clock: Clock
) -> None:
    state = doubles_on_the_table()
    bot = "heuristic:level=perfect,reaction_ms=600,play_ms=5000"
    # The doubles show at 100.0; whenever the bot takes them, the screen changes at 101.0.
    clock.rule = lambda: 100.0 if state.piles_won == 0 else 101.0
    async with play_table(state, [None, bot], seed=3) as ui:
        await wait_for(ui, lambda: ui.app.state.piles_won == 1)
        clock.rule = None
        clock.now = 101.0 + MIN_REACTION + 0.05  # time enough to see the empty table
        await ui.pilot.press("s")
        assert "You slap a pile that cannot be slapped: burn 1 card." in ui.log()
        assert ui.app.state.bad == 1 and len(ui.app.state.burned) == 1


async def test_a_bot_slapping_just_after_you_took_the_pile_is_too_late_not_bad(
    play_table: OpenTable, clock: Clock
) -> None:
    state = doubles_on_the_table()
    bot = "heuristic:level=perfect,reaction_ms=1500,play_ms=5000"
    async with play_table(state, [None, bot], seed=3) as ui:
        clock.now = 100.5  # you have seen the doubles for half a second; the bot is slower
        await ui.pilot.press("s")
        assert "You slap: doubles! You take the pile (2 cards)." in ui.log()
        await wait_for(ui, lambda: ui.app.state.late == 1)
        assert "Seat 2 slaps too late (no penalty)." in ui.log()
        assert ui.app.state.bad == 0 and ui.app.state.burned == []


async def test_a_press_names_the_pile_on_the_screen_a_reaction_time_before(
    play_table: OpenTable, clock: Clock
) -> None:
    g = game()
    state = table(g, "2C 4D", "3C 5D")
    async with play_table(state, [None, quiet_bot(g, pace=5000)]) as ui:
        panel = ui.app.panel
        assert isinstance(panel, tui.Panel)
        await ui.pilot.press("space")  # version 1 on the screen at 100.0
        clock.now = 100.2
        ui.app.state.apply(1, "play", time=ui.app.now())
        ui.app.after_change()  # version 2 on the screen at 100.2
        assert panel.shown == [(100.0, 0), (100.0, 1), (100.2, 2)]
        assert panel.reaction_version(100.25) == 1
        assert panel.reaction_version(100.2 + MIN_REACTION) == 2
        assert panel.reaction_version(99.0) == 0  # nothing that old: the first pile shown


def test_bots_never_slap_sooner_than_a_reaction_time_after_the_pile_appeared() -> None:
    state = doubles_on_the_table()
    for spec in (
        "heuristic:reaction_ms=0,spread_ms=0,miss=0",
        "heuristic:reaction_ms=30,spread_ms=40,miss=0",
    ):
        for seed in range(20):
            bot = make_bot(state.game, spec, seed=seed)
            assert isinstance(bot, ReflexBot)
            bot.new_game(1)
            reaction = bot.react(SeatView(state, 1, now=5.0))
            assert reaction is not None and str(reaction.action) == "slap@2"
            assert reaction.delay >= MIN_REACTION


async def test_challenge_shown_and_a_fast_bot_slap_beats_your_collect(
    play_table: OpenTable,
) -> None:
    g = game()
    # You play QD; the bot answers 5C and 5H: doubles while you have won the challenge.
    state = table(g, "QD", "5C 5H")
    bot = "heuristic:level=perfect,play_ms=1500"
    async with play_table(state, [None, bot], seed=2) as ui:
        await ui.pilot.press("space")
        text = ui.panel_text()
        assert "Challenge: QD by you; Seat 2 has 2 chances" in text
        for _ in range(400):
            await ui.pilot.pause(0.02)
            if ui.app.state.observation(0)["piles_won"]:
                break
        assert "Seat 2 slaps: doubles! Seat 2 takes the pile (3 cards)." in ui.log()
        await ui.pilot.press("c")
        assert "Not allowed" in ui.log()


async def test_the_table_speaks_to_you_in_plain_english(play_table: OpenTable) -> None:
    g = game()
    rest = [card_text(c) for c in sorted(g.deck()) if card_text(c) not in ("2C", "3C", "QD")]
    state = g.new_state(seed=1, deal={"stacks": [["2C", "3C"], ["QD", *rest]]})
    state.apply(0, "play")
    state.apply(1, "play")
    async with play_table(state, [None, quiet_bot(g)]) as ui:
        text = ui.panel_text()
        assert "Challenge: QD by Seat 2; You have 2 chances to play a face card" in text
        assert "Seat 1 (you)    1 card \n" in text and "2 cards on the pile" in text
        assert "version" not in text, "the pile's version is the engine's counter"
    state = table(g, "QD 3C", "2C 4D 5D")
    for seat in (0, 1, 1):
        state.apply(seat, "play")
    async with play_table(state, [None, quiet_bot(g)]) as ui:
        text = ui.panel_text()
        assert "You have won the pile (collect, or slap!)" in text
        assert "You won the pile: space (or c) to collect it" in text


async def test_a_refused_key_names_the_key_not_the_notation(play_table: OpenTable) -> None:
    g = game()
    state = table(g, "2C 3C", "4D 5D")
    state.apply(0, "play")
    async with play_table(state, [None, quiet_bot(g)]) as ui:
        await ui.pilot.press("space")
        refused = ui.app.logs[0][-1].plain
        assert refused == (
            "Not allowed: it is Seat 2's turn to play, not Seat 1's; Seat 1 may only slap (s)"
        )
        assert "slap@" not in ui.log()


async def test_too_late_is_reported(play_table: OpenTable) -> None:
    g = game(3)
    state = table(g, "9H", "9C", "2D")
    bot1 = make_bot(g, "heuristic:level=perfect,play_ms=10", seed=3)
    async with play_table(state, [None, bot1, quiet_bot(g)]) as ui:
        await ui.pilot.press("space")
        for _ in range(250):
            await ui.pilot.pause(0.02)
            if ui.app.state.observation(0)["piles_won"]:
                break
        # The pile you saw (9H 9C) was taken by Seat 2 before your slap arrived.
        ui.app.state.apply(0, "slap@2")
        ui.app.refresh_table()
        await ui.pilot.pause(0.05)
        assert "You slap too late (no penalty)." in ui.log()


async def test_a_real_time_game_between_bots_ends_with_the_person_out(
    play_table: OpenTable,
) -> None:
    g = game(3, slap_in=False, max_cards=50)  # the cap ends it soon whatever happens
    first = ["2C", "3C", "4C"]
    rest = [card_text(c) for c in range(52) if card_text(c) not in first]
    state = g.new_state(seed=1, deal={"stacks": [[], first, rest]})
    bots = [
        None,
        make_bot(g, "heuristic:level=perfect,reaction_ms=20,play_ms=2", seed=1),
        make_bot(g, "heuristic:level=easy,reaction_ms=60,play_ms=2", seed=2),
    ]
    async with play_table(state, bots) as ui:
        for _ in range(400):
            await ui.pilot.pause(0.02)
            if ui.app.state.is_over():
                break
        assert ui.app.state.is_over()
        assert "Game over" in ui.panel_text()


def test_render_shows_the_table_for_a_seat_and_for_spectators() -> None:
    g = game(3)
    state = table(g, "KD 2C", "3C 5H", "4D")
    state.apply(0, "play")
    state.apply(1, "play")
    state.apply(2, f"slap@{state.version}")
    seat_view = render(g, state.observation(1))
    assert "Seat 2 (you)" in seat_view
    assert "Pile: KD 3C  <- top  + 1 burned under" in seat_view
    assert "Challenge: KD by Seat 1; Seat 2 (you) has 2 chances" in seat_view
    assert "Seat 3 slaps a pile that cannot be slapped: burns 1 card." in seat_view
    spectator = render(g, state.spectator_view())
    assert "(you)" not in spectator and "Seat 1 plays KD." in spectator
