"""The replay viewer names the seats that came late (a server's record of a game with seats for
late arrivals: ``"late": true`` and ``"arrived"``, seconds of play), under Textual's Pilot and
in ``ratgames replay --text``; a record without late seats shows no such line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

import ratgames
from ratgames.cli import main
from ratgames.core import make_bot, play_game
from ratgames.tui.replay import ReplayApp, late_arrivals, play_clock

BOT = "heuristic:level=perfect,play_ms=5"
WAITING = "heuristic:play_ms=200,miss=1,false_slap=0"
"""The late seats' bots never slap: nobody comes in (as nobody took seat 4)."""


def newcomers_record() -> dict[str, Any]:
    """An Egyptian Ratscrew game of four seats, the last two for late arrivals, as a server
    records it: Dana took seat 3 at 83.25 seconds of play, nobody took seat 4."""
    game = ratgames.get_game(
        "egyptian-ratscrew", players=4, options={"newcomers": 2, "max_cards": 60}
    )
    bots = [make_bot(game, BOT if s < 2 else WAITING, seed=s) for s in range(4)]
    record: dict[str, Any] = play_game(game, bots, seed=3).record()
    record["seats"] = [
        {"name": "Ann", "player": "human"},
        {"name": "normal", "player": "normal"},
        {"name": "Dana", "player": "human", "late": True, "arrived": 83.25},
        {"name": "Seat 4", "player": "nobody", "late": True},
    ]
    return record


def test_the_clock_of_play() -> None:
    assert [play_clock(s) for s in (0, 9.9, 83.25, 600, 3723.5)] == [
        "0:00",
        "0:09",
        "1:23",
        "10:00",
        "1:02:03",
    ]


def test_late_seats_are_named_with_when_they_came() -> None:
    record = newcomers_record()
    game = ratgames.get_game("egyptian-ratscrew", players=4, options=record["options"])
    assert late_arrivals(record, game) == [
        "Seat 3, Dana (joined late at 1:23)",
        "Seat 4: open for a late arrival, nobody came",
    ]
    del record["seats"][2]["arrived"]  # a record made before servers kept it
    assert late_arrivals(record, game)[0] == "Seat 3, Dana (joined late)"
    for seat in record["seats"]:
        seat.pop("late", None)
    assert late_arrivals(record, game) == []


async def test_the_viewer_shows_who_joined_late_at_every_step() -> None:
    app = ReplayApp(newcomers_record())
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one("#table", Static)
        shown = str(table.render())
        assert "The deal (step 0 of" in shown
        assert "Seat 3, Dana (joined late at 1:23)" in shown
        assert "Seat 4: open for a late arrival, nobody came" in shown
        await pilot.press("end")
        await pilot.pause()
        shown = str(table.render())
        assert "Game over" in shown and "Seat 3, Dana (joined late at 1:23)" in shown


async def test_a_record_without_late_seats_shows_no_such_line() -> None:
    record = newcomers_record()
    for seat in record["seats"]:
        seat.pop("late", None)
        seat.pop("arrived", None)
    app = ReplayApp(record)
    async with app.run_test(size=(100, 30)):
        shown = str(app.query_one("#table", Static).render())
        assert "The deal (step 0 of" in shown and "late" not in shown


def test_text_replay_names_the_late_seats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    ratgames.save_record(newcomers_record(), path)
    try:
        main(["replay", str(path), "--text"])
    except SystemExit as ended:
        assert not ended.code
    out = capsys.readouterr().out
    assert "Seat 3, Dana (joined late at 1:23)" in out
