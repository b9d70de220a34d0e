"""A game taken up again shows exactly what the screen showed when it was left: no second look at
Rat-a-Tat Cat cards already looked at, and a hot-seat table covered until someone takes it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import ratgames
from ratgames.cli import main
from ratgames.core.bots import Bot, SeatView, make_bot
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK
from ratgames.tui.play import PlayApp
from ratgames.tui.screens import PassScreen
from ratgames.tui.session import resume, seat_entries

from .test_play import app_for, text_of, until


def _deal(hands: list[list[str]], draw: list[str]) -> dict[str, Any]:
    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter([c for r in hands for c in r] + draw)
    rest["5"] -= 1
    return {"hands": hands, "draw": draw + sorted(rest.elements()), "discard": ["5"]}


def resumed_app(path: Path) -> PlayApp:
    back = resume(path)
    return PlayApp(
        back.game,
        back.bots,
        state=back.state,
        names=back.names,
        seeds=back.seeds,
        clock=back.clock,
        record_dir=path.parent,
        record_path=path,
        bot_pause=0.01,
    )


def my_row(app: PlayApp) -> str:
    rendered = app.panel.render()
    text = rendered.plain if hasattr(rendered, "plain") else str(rendered)
    return next(line for line in text.splitlines() if "(you)" in line)


async def test_resuming_rat_a_tat_cat_gives_no_second_look(tmp_path: Path) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["1", "7", "8", "2"], ["3", "9", "9", "4"]], ["6", "0"])
    # Left at once: the screen showed the two outer cards, and so does the game taken up.
    app = app_for(game, [None, "heuristic"], tmp_path, state=game.new_state(seed=1, deal=deal))
    async with app.run_test() as pilot:
        assert "[  1  ] [  ?  ] [  ?  ] [  2  ]" in my_row(app)
        await pilot.press("ctrl+q", "y")
    [path] = app.saved
    again = resumed_app(path)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert "[  1  ] [  ?  ] [  ?  ] [  2  ]" in my_row(again)
        # A move hides them; leaving and coming back does not show them again.
        await pilot.press("d", "2", "e")
        await until(pilot, lambda: again.state.seats_to_act() == [0])
        assert "[  ?  ] [  ?  ] [  ?  ] [  ?  ]" in my_row(again)
        await pilot.press("ctrl+q", "y")
    assert json.loads(path.read_text())["outcome"] is None
    third = resumed_app(path)
    async with third.run_test() as pilot:
        await pilot.pause()
        assert "[  ?  ] [  ?  ] [  ?  ] [  ?  ]" in my_row(third)


async def test_resuming_a_hot_seat_game_covers_the_table_first(tmp_path: Path) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    state = game.new_state(seed=3)
    app = app_for(game, [None, None, "heuristic"], tmp_path, names=["Ann", "Bob", "Bot"])
    app = PlayApp(
        game,
        app.bots,
        state=state,
        names=["Ann", "Bob", "Bot"],
        seeds=app.seeds,
        record_dir=tmp_path,
        bot_pause=5.0,
    )
    to_act = state.seats_to_act()[0]
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PassScreen), "nobody's cards show before a key"
        person = to_act if to_act in (0, 1) else 0
        assert f"Pass the keyboard to {['Ann', 'Bob'][person]}" in text_of(app, ".title")
        await pilot.press("space")
        assert not isinstance(app.screen, PassScreen)
        assert app.seat == person and app.panel is app.panels[person]


async def test_resumed_bots_keep_what_they_remembered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    bots: list[Bot | None] = [None, make_bot(game, "heuristic:memory=0.5", seed=11)]
    assert bots[1] is not None
    bots[1].new_game(1)
    mover = make_bot(game, "heuristic", seed=1)
    state = game.new_state(seed=5)
    for _ in range(12):
        seat = state.seats_to_act()[0]
        state.apply(seat, (bots[seat] or mover).act(SeatView(state, seat)))
    record = state.record(seat_entries(bots, ["You", "Bot"], [None, 11]), play={"clock": 1.0})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    remembered = dict(resume(path).bots[1]._mem)  # type: ignore[union-attr]
    assert remembered, "the bot had something to remember"
    # The command line takes the game up with its bots as resume() made them...
    apps: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self, *a, **k: apps.append(self))
    main(["play", "--resume", str(path), "--no-record"])
    capsys.readouterr()
    [app] = apps
    assert app.bots_started
    # ...and the app does not start them afresh, which would empty their memory.
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.bots[1]._mem == remembered  # type: ignore[union-attr]
