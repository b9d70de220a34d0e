"""The end of a round in the terminal: what the log and the screen between rounds show (the last
lead of a Caged Rats deal, everyone's cards in Rats), in the game's words, and how a person who
is out is no longer kept waiting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import Static

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.games.caged_rats.render import describe_event
from ratgames.tui.base import suit_symbols
from ratgames.tui.play import PlayApp
from ratgames.tui.screens import TextScreen

from .test_play import app_for


def screen_text(app: PlayApp) -> tuple[str, str]:
    """The title and body of the screen over the table."""
    title = app.screen.query(".title").first(Static).render()
    body = app.screen.query_one("#body", Static).render()
    return (
        title.plain if isinstance(title, Text) else str(title),
        body.plain if isinstance(body, Text) else str(body),
    )


async def play_until_a_screen(app: PlayApp, pilot: Any, mover: Any, limit: int = 3000) -> None:
    """Play the person's moves with ``mover`` until a screen comes over the table."""
    for _ in range(limit):
        if len(app.screen_stack) > 1 or app.state.is_over():
            break
        if not app.paused and app.state.seats_to_act() == [app.seat]:
            app.submit(mover.act(SeatView(app.state, app.seat)))
        await pilot.pause(0.005)
    await pilot.pause()


async def test_caged_rats_shows_the_last_lead_and_the_final_cages_of_a_deal(
    tmp_path: Path,
) -> None:
    game = ratgames.get_game("caged-rats", options={"target": 500})
    app = app_for(game, [None, "heuristic"], tmp_path, seed=4, bot_pause=0.0)
    mover = make_bot(game, "heuristic", seed=7)
    async with app.run_test() as pilot:
        await play_until_a_screen(app, pilot, mover)
        assert isinstance(app.screen, TextScreen)
        assert app.state.stage() == 1 and not app.state.is_over()
        # The true end of the deal, replayed from the record up to the action that ended it.
        record = app.make_record()
        actions = [e for e in record["events"] if "chance" not in e]
        end = ratgames.replay(record, upto=0)
        for event in actions:
            stage = end.stage()
            end.only_scored_after(stage)
            end.apply(event["seat"], event["action"])
            if end.stage() != stage:
                break
        final = end.observation(0)
        title, body = screen_text(app)
        assert title == "Deal 1 is over"
        lines = app.logs[0]
        said = [line.plain for line in lines]
        scored = suit_symbols(describe_event(game, final["events"][-1], 0))
        assert scored.startswith("Deal scored: Red ")
        assert scored in said, "the deal's score is in the log"
        last_offer = max(i for i, e in enumerate(final["events"]) if e["kind"] == "offer")
        last_lead = [
            suit_symbols(describe_event(game, e, 0)) for e in final["events"][last_offer:-1]
        ]
        assert said[-len(last_lead) - 1 : -1] == last_lead or all(x in said for x in last_lead)
        for line in last_lead:
            assert line in body, line
        for seat, name in ((0, "Red (you)"), (1, "Black")):
            assert f"{name}: {final['deal_points'][seat]} points this deal" in body
            for rat in final["cages"][seat]:
                assert f"{rat['captures']}/{rat['needs']} {rat['suit']} {rat['state']}" in body
        points = app.state.observation(0)["last_deal"]["points"]
        assert f"This deal: Red {points[0]}, Black {points[1]}" in body
        await pilot.press("space")
        assert not isinstance(app.screen, TextScreen)


async def test_once_you_are_out_of_rats_the_rounds_go_by_and_f_runs_to_the_end(
    tmp_path: Path,
) -> None:
    game = ratgames.get_game("rats", players=3, options={"max_rounds": 30})
    app = app_for(game, [None, "heuristic", "heuristic"], tmp_path, seed=2, bot_pause=5.0)
    mover = make_bot(game, "heuristic", seed=3)  # out in round 3 against these bots
    async with app.run_test() as pilot:
        out = False
        reveals = 0
        deadline = time.monotonic() + 60  # a bound for a loaded machine, not a timing check
        while time.monotonic() < deadline:
            if app.state.is_over():
                break
            obs = app.state.observation(0)
            if obs["out"][0]:
                out = True
                break
            if isinstance(app.screen, TextScreen):
                title, body = screen_text(app)
                assert title.startswith("Round ") and title.endswith(" is over")
                assert "Cards held (hand + reserve):" in body
                assert "Seat 1 (you)" in body and "The round's last trick:" in body
                reveals += 1
                await pilot.press("space")
            elif not app.paused and app.state.seats_to_act() == [0]:
                app.submit(mover.act(SeatView(app.state, 0)))
            elif not app.paused:
                await pilot.press("f")
            await pilot.pause(0.01)
        assert out, "this player goes out against these bots"
        assert reveals, "the rounds before were shown"
        await pilot.pause()
        assert isinstance(app.screen, TextScreen), "the round you went out in is shown"
        title, body = screen_text(app)
        assert title == f"Round {app.state.stage()} is over" and "you are out" in body
        await pilot.press("space")
        await pilot.press("f")
        deadline = time.monotonic() + 60
        while not app.state.is_over() and time.monotonic() < deadline:
            await pilot.pause(0.02)
        assert app.state.is_over(), (app.state.stage(), app.screen_stack, app._bot_timers)
        assert app.state.stage() > 1
        assert all(not isinstance(s, TextScreen) for s in app.screen_stack)
