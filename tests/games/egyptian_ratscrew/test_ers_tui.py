"""The Egyptian Ratscrew terminal panel in real time, driven with Textual's Pilot; and render."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.games.egyptian_ratscrew.helpers import game, table

from ratgames.cards import card_text
from ratgames.core.bots import make_bot
from ratgames.games.egyptian_ratscrew.render import render
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew

if TYPE_CHECKING:
    from tests.conftest import OpenTable


def quiet_bot(g: EgyptianRatscrew, pace: int = 5000) -> Any:
    """A bot that never slaps and plays slowly, so the human's keys decide."""
    return make_bot(g, f"heuristic:miss=1,false_slap=0,play_ms={pace}", seed=1)


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
    play_table: OpenTable,
) -> None:
    g = game(burn=2)
    state = table(g, "2C", "5D")
    async with play_table(state, [None, quiet_bot(g)]) as ui:
        await ui.pilot.press("space", "s")
        assert "You slap a pile that cannot be slapped: burn 2 cards." in ui.log()
        assert "+2 burned" in ui.panel_text()
        await ui.pilot.press("s")
        assert "already slapped" in ui.log()


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
        assert "Challenge: QD by You; Seat 2 has 2 chances" in text
        for _ in range(400):
            await ui.pilot.pause(0.02)
            if ui.app.state.observation(0)["piles_won"]:
                break
        assert "Seat 2 slaps: doubles! Seat 2 takes the pile (3 cards)." in ui.log()
        await ui.pilot.press("c")
        assert "Not allowed" in ui.log()


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
    g = game(3, slap_in=False)
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
