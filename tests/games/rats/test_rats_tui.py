"""The Rats terminal panel, driven with Textual's Pilot."""

from __future__ import annotations

from typing import TYPE_CHECKING

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.game import State
from ratgames.games.rats.render import describe_event, render

if TYPE_CHECKING:
    from tests.conftest import OpenTable


def _state(hands: list[str], dealer: int = 0) -> State:
    game = ratgames.get_game("rats", players=len(hands))
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(0) if c not in used]
    return game.new_state(seed=2, deal={"dealer": dealer, "hands": dealt, "stock": stock})


async def test_mark_two_cards_and_play_them_as_a_pair(play_table: OpenTable) -> None:
    async with play_table(_state(["7S 2C 7H", "3C 4C 5D"])) as ui:
        text = ui.panel_text()
        assert "Your turn" in text
        assert "2♣  7♥  7♠" in text, "the hand is shown sorted"
        assert "Seat 2: hand 3, reserve 0" in text
        assert "enter play" in ui.app.panel.help_line()
        assert "You lead" in text
        await ui.pilot.press("right", "space", "right", "space")
        assert "Marked: 7♥ 7♠" in ui.panel_text()
        await ui.pilot.press("enter")
        await ui.pilot.pause(0.3)
        obs = ui.app.state.observation(0)
        assert obs["round_tricks"][0]["plays"][0]["play"] == "7H 7S"
        assert obs["reserve_sizes"][0] == 4, "nothing of seat 2 beats the pair"
        assert "Seat 2 discards" in ui.log()


async def test_an_illegal_play_is_refused_with_the_reason(play_table: OpenTable) -> None:
    async with play_table(_state(["7S 2C 7H", "3C 4C 5D"])) as ui:
        before = ui.app.state.snapshot()
        await ui.pilot.press("space", "right", "space", "enter")
        await ui.pilot.pause(0.1)
        assert "Not allowed" in ui.log()
        assert "pair only if they share a rank" in ui.log()
        assert ui.app.state.snapshot() == before
        await ui.pilot.press("c", "d")
        await ui.pilot.pause(0.1)
        assert "you lead this trick" in ui.log()
        assert ui.app.state.snapshot() == before


async def test_discard_the_marked_cards_lowest_first(play_table: OpenTable) -> None:
    state = _state(["3C 4C 5D", "9C 9D 2S"], dealer=1)
    state.apply(1, "9C 9D")
    async with play_table(state) as ui:
        text = ui.panel_text()
        assert "Trick: a pair led by Seat 2" in text
        assert "Seat 2: 9♣ 9♦  <- best" in text
        assert "Nothing of yours beats it: mark 2 cards" in text
        await ui.pilot.press("right", "right", "space", "left", "left", "space", "d")
        assert "Seat 2 wins the trick (4 cards)" in ui.log()
        await ui.pilot.pause(0.3)
        obs = ui.app.state.observation(0)
        assert obs["round_tricks"][0]["plays"][1]["play"] == "discard 3C 5D"
        assert obs["hand"] == ["4C"] or obs["hand"] == []


async def test_your_plays_are_in_the_log_and_cards_are_written_one_way(
    play_table: OpenTable,
) -> None:
    async with play_table(_state(["7S 2C 7H", "8C 8D 5D"]), [None, "heuristic"]) as ui:
        await ui.pilot.press("right", "space", "right", "space", "enter")
        for _ in range(40):
            await ui.pilot.pause(0.05)
            if "Seat 2 beats with" in ui.log():
                break
        lines = ui.log().splitlines()
        mine = lines.index("You lead 7♥ 7♠")
        assert lines[mine + 1] == "Seat 2 beats with 8♣ 8♦"
        text = ui.panel_text()
        assert "Seat 2: 5♦  <- best" in text and "mark 1 card to discard" in text
        for notation in ("7H", "7S", "8C", "8D", "2C", "5D"):
            assert notation not in text + ui.log(), notation


async def test_a_refused_play_names_its_cards_as_the_table_does(play_table: OpenTable) -> None:
    state = _state(["2C 3D", "AC 4D"], dealer=1)
    state.apply(1, "AC")
    async with play_table(state) as ui:
        await ui.pilot.press("enter")
        refused = ui.app.logs[0][-1].plain
        assert refused.startswith("Not allowed: 2♣ does not beat A♣"), refused


def test_counts_are_written_in_good_english() -> None:
    game = ratgames.get_game("rats", players=2)
    trick = {"kind": "trick", "round": 1, "winner": 1, "count": 1}
    assert describe_event(game, trick, 0) == "Seat 2 wins the trick (1 card)"
    end = {"kind": "round_end", "round": 1, "stock_to": None, "out": [], "next_hand_size": 1}
    assert describe_event(game, end, 0) == "Round 1 ends; next hands: 1 card"


def test_render_shows_observation_and_spectator_views() -> None:
    state = _state(["7S 2C 7H", "3C 4C 5D"])
    state.apply(0, "7H 7S")
    game = state.game
    mine = render(game, state.observation(0))
    assert "Your hand: 2C" in mine
    assert "Seat 1 (you): 7H 7S  <- best" in mine
    seen = render(game, state.spectator_view())
    assert "Your hand" not in seen
    assert "3C" not in seen and "2C" not in seen
    assert "Seat 2: hand 3, reserve 0  <- to play" in seen
