"""Late arrivals at the keyboard: ``ratgames play egyptian-ratscrew -o newcomers=1`` seats a
bot that arrives late (it slaps in), or, with ``--seat`` on the last seat, you are the one who
arrives late: the table tells you how to come in, and a valid slap brings you in."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.egyptian_ratscrew.helpers import game

from ratgames.cards import card_text, parse_card
from ratgames.cli.play import _new_app
from ratgames.core.bots import make_bot
from ratgames.games.egyptian_ratscrew import tui
from ratgames.games.egyptian_ratscrew.phases import IN, WAITING
from ratgames.games.egyptian_ratscrew.rules import RatscrewState
from ratgames.tui.play import PlayApp


class Clock:
    """The panel's clock, set by hand: key presses are timed exactly."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(tui, "clock", fake)
    return fake


def test_ratgames_play_seats_a_late_bot_or_you_in_the_late_seat() -> None:
    app = _new_app("egyptian-ratscrew", 3, (), ("newcomers=1",), 5, 1, 1, None, 0.1)
    assert app.game.late_seats() == (2,)
    assert app.bots[0] is None and app.bots[1] is not None and app.bots[2] is not None
    app = _new_app("egyptian-ratscrew", 3, (), ("newcomers=1",), 5, 3, 1, None, 0.1)
    assert app.bots[2] is None and app.seat == 2


def _deal(g: Any, *stacks: str) -> RatscrewState:
    named = [s.split() for s in stacks]
    named += [[] for _ in range(g.players - len(named))]
    used = {parse_card(c) for s in named for c in s}
    named[1] += [card_text(c) for c in sorted(g.deck()) if c not in used]
    state = g.new_state(seed=1, deal={"stacks": named})
    assert isinstance(state, RatscrewState)
    return state


async def test_you_arrive_late_at_the_keyboard_and_slap_in(clock: Clock) -> None:
    g = game(3, newcomers=1)
    state = _deal(g, "9H 2C", "9C 3C")
    quiet = [make_bot(g, "heuristic:miss=1,false_slap=0,play_ms=400", seed=s) for s in (1, 2)]
    app = PlayApp(g, [quiet[0], quiet[1], None], state=state, seat=2, bot_pause=0.01)
    async with app.run_test() as pilot:
        text = app.panel.render().plain
        assert "waiting to slap in" in text and "You have no cards yet" in text
        for _ in range(300):  # the bots play 9H, then 9C, at their pace
            await pilot.pause(0.02)
            if app.state.observation(2)["pile"] == ["9H", "9C"]:
                break
        assert app.state.observation(2)["pile"] == ["9H", "9C"]
        clock.now += 1.0  # you saw the doubles a second ago
        assert app.state.status[2] == WAITING
        await pilot.press("s")
        assert app.state.status[2] == IN and len(app.state.stacks[2]) == 2
        assert "You have no cards yet" not in app.panel.render().plain
