"""The Rat-a-Tat Cat terminal panel, driven with Textual's Pilot."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import ratgames
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK
from ratgames.games.rat_a_tat_cat.tui import Panel
from ratgames.tui.play import PlayApp

if TYPE_CHECKING:
    from tests.conftest import OpenTable


def _deal(hands: list[list[str]], draw: list[str]) -> dict[str, Any]:
    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter([c for r in hands for c in r] + draw)
    rest["5"] -= 1
    return {"hands": hands, "draw": draw + sorted(rest.elements()), "discard": ["5"]}


async def test_draw_replace_and_end_turn_with_keys(play_table: OpenTable) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["0"]))
    async with play_table(state) as ui:
        text = ui.panel_text()
        assert "Your turn" in text and "Press d to draw" in text
        # The opening look: the outer cards are shown until you act.
        assert "[  1  ] [  ?  ] [  ?  ] [  2  ]" in text
        assert "d draw" in ui.app.panel.help_line()
        await ui.pilot.press("d")
        assert "You hold: 0" in ui.panel_text()
        assert "[  ?  ] [  ?  ] [  ?  ] [  ?  ]" in ui.panel_text()
        await ui.pilot.press("2")
        assert ui.app.state.snapshot()["hands"][1] == "0"
        assert "k to knock" in ui.panel_text()
        await ui.pilot.press("e")
        await ui.pilot.pause(0.3)
        assert ui.app.state.observation(0)["turns"] >= 2
        assert "Seat 2" in ui.log()


async def test_knock_key_ends_the_round_after_the_others_turn(play_table: OpenTable) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["9"]))
    async with play_table(state, [None, "heuristic"]) as ui:
        await ui.pilot.press("d", "x", "k")
        assert ui.app.state.observation(0)["knocker"] == 0
        for _ in range(30):
            await ui.pilot.pause(0.05)
            if ui.app.state.is_over():
                break
        assert ui.app.state.is_over()
        assert "Round 1 over" in ui.log()
        assert "Game over" in ui.panel_text()


async def test_peek_shows_the_card_only_while_you_look_and_swap_is_typed(
    play_table: OpenTable,
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["1", "7", "8", "2"], ["3", "9", "0", "4"]], ["PEEK", "6", "SWAP"])
    state = game.new_state(seed=1, deal=deal)
    async with play_table(state, [None, "heuristic"]) as ui:
        await ui.pilot.press("d", "3")
        assert "[  ?  ] [  ?  ] [  8  ] [  ?  ]" in ui.panel_text()
        await ui.pilot.press("e")
        for _ in range(30):
            await ui.pilot.pause(0.05)
            if ui.app.state.seats_to_act() == [0]:
                break
        # You acted again: the peeked card is face down once more.
        assert "[  8  ]" not in ui.panel_text()
        await ui.pilot.press("d")  # a SWAP
        assert "Swap: press s" in ui.panel_text()
        await ui.pilot.press("s", "3", "2", "3")
        hands = ui.app.state.snapshot()["hands"]
        assert (hands[2], hands[6]) == ("0", "8")
        # With swap_look you see the card you received, until your next key.
        assert "[  ?  ] [  ?  ] [  0  ] [  ?  ]" in ui.panel_text()
        assert ui.log().splitlines()[-1] == "You swapped your slot 3 with Seat 2's slot 3"


async def test_your_own_moves_are_in_the_log_before_the_answers(play_table: OpenTable) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["6"]))
    async with play_table(state, [None, "heuristic"]) as ui:
        await ui.pilot.press("d")
        assert ui.log().splitlines()[-1] == "You drew a card from the draw pile: a 6"
        await ui.pilot.press("2", "e")
        for _ in range(40):
            await ui.pilot.pause(0.05)
            if ui.app.state.seats_to_act() == [0]:
                break
        lines = ui.log().splitlines()
        mine = lines.index("You put the 6 in slot 2 and discarded the 7 from there")
        assert lines[mine - 1] == "You drew a card from the draw pile: a 6"
        assert any(line.startswith("Seat 2 ") for line in lines[mine + 1 :])


async def test_refusals_and_prompts_name_keys_not_notation(play_table: OpenTable) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["1", "7", "8", "2"], ["3", "9", "0", "4"]], ["SWAP", "6"])
    async with play_table(game.new_state(seed=1, deal=deal), [None, "heuristic"]) as ui:
        await ui.pilot.press("1")
        assert ui.app.logs[0][-1].plain == (
            "Not allowed: your turn starts with a draw. Press d to draw or t to take the discard."
        )
        await ui.pilot.press("d", "x")
        refused = ui.app.logs[0][-1].plain
        assert refused == (
            "Not allowed: you drew a SWAP. Press s, then your slot, the seat and its slot; "
            "or n for no swap."
        )
        await ui.pilot.press("s")
        assert "Swap: now your slot (1-4) (escape cancels)." in ui.panel_text()
        await ui.pilot.press("2")
        assert "Swap 2: now the seat number (escape cancels)." in ui.panel_text()
        await ui.pilot.press("escape", "n")
        for line in (text.plain for text in ui.app.logs[0]):
            assert "noswap" not in line and "allowed now" not in line and "P:M" not in line


async def test_memory_aid_keeps_seen_cards_visible(play_table: OpenTable) -> None:
    game = ratgames.get_game(
        "rat-a-tat-cat", players=2, options={"mode": "round", "memory_aid": True}
    )
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["0"]))
    async with play_table(state) as ui:
        await ui.pilot.press("d", "2")
        assert "[  1  ] [  0  ] [  ?  ] [  2  ]" in ui.panel_text()


def test_others_moves_are_described_with_you() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    app = PlayApp(game, [None, None, None], seed=1)
    panel = app.panel
    assert isinstance(panel, Panel)
    event = {"kind": "swap", "seat": 1, "slot": 3, "other": 0, "other_slot": 1}
    assert panel.describe(event) == "Seat 2 swapped its slot 3 with your slot 1"
    event = {"kind": "swap", "seat": 0, "slot": 2, "other": 2, "other_slot": 4}
    assert panel.describe(event) == "You swapped your slot 2 with Seat 3's slot 4"
