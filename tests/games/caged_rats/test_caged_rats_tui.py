"""The Caged Rats terminal panel, driven with Textual's Pilot against a random bot."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import ratgames
from ratgames.games.caged_rats.deck import BLACK_CARDS, RED_CARDS, TEXT
from ratgames.games.caged_rats.render import describe_event, render
from ratgames.games.caged_rats.rules import CagedRatsState

if TYPE_CHECKING:
    from tests.conftest import OpenTable

RED_HAND = ["2H", "3D", "4H", "AD", "KD", "AH", "QH", "5D"]
BLACK_HAND = ["2C", "3S", "4C", "AS", "KS", "AC", "QS", "5C"]


def make_deal(dealer: str) -> dict[str, Any]:
    """Red holds RED_HAND, black BLACK_HAND; each stock is the rest in card order."""
    return {
        "dealer": dealer,
        "red": {"hand": RED_HAND, "stock": [TEXT[c] for c in RED_CARDS if TEXT[c] not in RED_HAND]},
        "black": {
            "hand": BLACK_HAND,
            "stock": [TEXT[c] for c in BLACK_CARDS if TEXT[c] not in BLACK_HAND],
        },
    }


def _state(seed: int = 3) -> CagedRatsState:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    state = game.new_state(seed=seed, deal=make_deal("black"))
    assert isinstance(state, CagedRatsState)
    return state


async def test_cage_offer_and_bid_with_keys(play_table: OpenTable) -> None:
    state = _state()
    game = state.game
    async with play_table(state) as ui:
        text = ui.panel_text()
        assert "Your turn: mark two rats" in text
        assert "Red (you): hand 8, stock 18" in text
        # The hand is sorted: 2H 3D 4H 5D QH KD AD AH.  Mark 2H, move to 3D, enter cages both.
        await ui.pilot.press("space", "right", "enter")
        assert [TEXT[c] for c in state.rats[0]] == ["2H", "3D"]
        await ui.pilot.pause(0.2)
        assert state.rats[1], "the bot cages next"
        assert "rat 1: 2♥ 0/2 hearts hungry" in ui.panel_text()
        # Offer the card under the cursor (2H was removed; the cursor stays in the hand).
        await ui.pilot.press("left", "left", "enter")
        offered = state.offer
        assert offered >= 0 and state.observation(0)["phase"] == "bid"
        assert "Capture on offer" in ui.panel_text()
        await ui.pilot.press("enter")
        events = state.observation(0)["events"]
        assert any(
            describe_event(game, e, 0).startswith("You bid")
            and describe_event(game, e, 1).startswith("Red bids")
            for e in events
        )
        await ui.pilot.pause(0.3)
        assert state.lead_no >= 1


async def test_refused_action_is_reported_and_changes_nothing(play_table: OpenTable) -> None:
    state = _state()
    async with play_table(state) as ui:
        await ui.pilot.press("enter")  # cage with one card only: the panel asks for two
        assert state.rats == ((), ())
        await ui.pilot.press("x")  # throwing is not allowed while caging
        assert state.rats == ((), ())
        assert state.hands[0] and len(state.hands[0]) == 8


async def test_refusals_name_the_keys_and_cards_have_suit_symbols(play_table: OpenTable) -> None:
    state = _state()
    async with play_table(state) as ui:
        await ui.pilot.press("x")
        assert ui.app.logs[0][-1].plain == "Not now: mark two rats (space) and press enter."
        await ui.pilot.press("space", "right", "enter")
        await ui.pilot.pause(0.3)
        for line in (text.plain for text in ui.app.logs[0]):
            assert "'cage" not in line and "throw 2C" not in line
            for card in RED_HAND + BLACK_HAND:
                assert f" {card}" not in line, line


async def test_respond_throw_and_feed_keys_play_a_whole_deal(play_table: OpenTable) -> None:
    state = _state(seed=5)
    async with play_table(state) as ui:
        await ui.pilot.press("space", "right", "enter")
        # Bounded by time, not by a count of pauses: a loaded machine slows the bot's replies.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if state.is_over():
                break
            await ui.pilot.pause(0.02)
            if state.is_over() or state.actor != 0:
                continue
            phase = state.observation(0)["phase"]
            if phase == "feed":
                await ui.pilot.press("1")
            elif phase == "respond":
                await ui.pilot.press("x")
            else:
                await ui.pilot.press("enter")
        assert state.is_over()
        assert "Game over" in ui.panel_text()
        assert state.hands == [[], []]


def test_render_shows_observation_and_spectator_view() -> None:
    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=3, deal=make_deal("black"))
    for move in ["cage 2H 3D", "cage 2C 3S", "offer 4H", "bid AD"]:
        state.apply(state.seats_to_act()[0], move)
    mine = render(game, state.observation(0))
    assert "Your hand: 5D QH KD AH" in mine
    assert "rat 1  2H  0/2 hungry" in mine
    assert "On offer: 4H led by Red; bid: AD" in mine
    public = render(game, state.spectator_view())
    assert "Your hand" not in public and "Red offers 4H" in public
