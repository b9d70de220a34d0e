"""The Rat-a-Tat Cat terminal panel, driven with Textual's Pilot."""

from __future__ import annotations

from collections import Counter
from typing import Any

import ratgames
from ratgames.core.bots import make_bot
from ratgames.games.rat_a_tat_cat.rules import CARD_TEXT, DECK
from ratgames.games.rat_a_tat_cat.tui import Panel
from ratgames.tui.play import PlayApp


def _deal(hands: list[list[str]], draw: list[str]) -> dict[str, Any]:
    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter([c for r in hands for c in r] + draw)
    rest["5"] -= 1
    return {"hands": hands, "draw": draw + sorted(rest.elements()), "discard": ["5"]}


def _panel_text(app: PlayApp) -> str:
    panel = app.panel
    assert isinstance(panel, Panel)
    return panel.render().plain


def _log(app: PlayApp) -> str:
    from textual.widgets import RichLog

    log = app.query_one("#log", RichLog)
    return "\n".join(line.text for line in log.lines)


async def test_draw_replace_and_end_turn_with_keys() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["0"]))
    app = PlayApp(game, [None, make_bot(game, "random", seed=1)], state=state, bot_pause=0.01)
    async with app.run_test() as pilot:
        text = _panel_text(app)
        assert "Your turn" in text and "Press d to draw" in text
        # The opening look: the outer cards are shown until you act.
        assert "[  1  ] [  ?  ] [  ?  ] [  2  ]" in text
        assert "d draw" in app.panel.help_line()
        await pilot.press("d")
        assert "You hold: 0" in _panel_text(app)
        assert "[  ?  ] [  ?  ] [  ?  ] [  ?  ]" in _panel_text(app)
        await pilot.press("2")
        assert app.state.snapshot()["hands"][1] == "0"
        assert "k to knock" in _panel_text(app)
        await pilot.press("e")
        await pilot.pause(0.3)
        assert app.state.observation(0)["turns"] >= 2
        assert "Seat 2" in _log(app)


async def test_knock_key_ends_the_round_after_the_others_turn() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["9"]))
    app = PlayApp(game, [None, make_bot(game, "heuristic", seed=1)], state=state, bot_pause=0.01)
    async with app.run_test() as pilot:
        await pilot.press("d", "x", "k")
        assert app.state.observation(0)["knocker"] == 0
        for _ in range(30):
            await pilot.pause(0.05)
            if app.state.is_over():
                break
        assert app.state.is_over()
        assert "Round 1 over" in _log(app)
        assert "Game over" in _panel_text(app)


async def test_peek_shows_the_card_only_while_you_look_and_swap_is_typed() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["1", "7", "8", "2"], ["3", "9", "0", "4"]], ["PEEK", "6", "SWAP"])
    state = game.new_state(seed=1, deal=deal)
    bot = make_bot(game, "heuristic", seed=1)
    app = PlayApp(game, [None, bot], state=state, bot_pause=0.01)
    async with app.run_test() as pilot:
        await pilot.press("d", "3")
        assert "[  ?  ] [  ?  ] [  8  ] [  ?  ]" in _panel_text(app)
        await pilot.press("e")
        for _ in range(30):
            await pilot.pause(0.05)
            if app.state.seats_to_act() == [0]:
                break
        # You acted again: the peeked card is face down once more.
        assert "[  8  ]" not in _panel_text(app)
        await pilot.press("d")  # a SWAP
        assert "Swap: press s" in _panel_text(app)
        await pilot.press("s", "3", "2", "3")
        hands = app.state.snapshot()["hands"]
        assert (hands[2], hands[6]) == ("0", "8")
        # With swap_look you see the card you received, until your next key.
        assert "[  ?  ] [  ?  ] [  0  ] [  ?  ]" in _panel_text(app)
        assert "You swapped" not in _log(app)  # your own moves are not reported back


async def test_memory_aid_keeps_seen_cards_visible() -> None:
    game = ratgames.get_game(
        "rat-a-tat-cat", players=2, options={"mode": "round", "memory_aid": True}
    )
    state = game.new_state(seed=1, deal=_deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["0"]))
    app = PlayApp(game, [None, make_bot(game, "random", seed=1)], state=state, bot_pause=0.01)
    async with app.run_test() as pilot:
        await pilot.press("d", "2")
        assert "[  1  ] [  0  ] [  ?  ] [  2  ]" in _panel_text(app)


def test_others_moves_are_described_with_you() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    app = PlayApp(game, [None, None, None], seed=1)
    panel = app.panel
    assert isinstance(panel, Panel)
    event = {"n": 1, "round": 1, "kind": "swap", "seat": 1, "slot": 3, "other": 0, "other_slot": 1}
    assert panel.describe(event) == "Seat 2 swapped its slot 3 with your slot 1"
