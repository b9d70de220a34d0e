"""The play app under Textual's Pilot: leaving asks first and saves, resuming continues, help,
hot-seat, the reveal between rounds, fast-forward, the result screen, the 80x24 layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import RichLog, Static

import ratgames
from ratgames.core.bots import Bot, SeatView, make_bot
from ratgames.tui.base import player_rules
from ratgames.tui.play import PlayApp
from ratgames.tui.screens import (
    ConfirmQuit,
    HelpScreen,
    PassScreen,
    ResultScreen,
    TextScreen,
)
from ratgames.tui.session import resume


def rtc(players: int = 2, **options: Any) -> ratgames.Game:
    return ratgames.get_game("rat-a-tat-cat", players=players, options=options)


def app_for(game: ratgames.Game, specs: list[str | None], tmp: Path | None, **kw: Any) -> PlayApp:
    bots = [None if s is None else make_bot(game, s, seed=10 + i) for i, s in enumerate(specs)]
    seeds = [None if s is None else 10 + i for i, s in enumerate(specs)]
    kw.setdefault("seed", 5)
    kw.setdefault("bot_pause", 0.01)
    return PlayApp(game, bots, seeds=seeds, record_dir=tmp, **kw)


async def until(pilot: Any, check: Any, tries: int = 300) -> None:
    for _ in range(tries):
        if check():
            await pilot.pause()
            return
        await pilot.pause(0.01)
    assert check()


def person_moves(app: PlayApp, count: int) -> None:
    """Play ``count`` moves for the person at the keyboard, through the app."""
    mover = make_bot(app.game, "heuristic", seed=99)
    for _ in range(count):
        seat = app.state.seats_to_act()[0]
        assert seat == app.seat
        app.submit(mover.act(SeatView(app.state, seat)))


def text_of(app: PlayApp, selector: str) -> str:
    widget = app.screen.query_one(selector, Static)
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def test_leaving_asks_first_saves_and_resume_goes_on(tmp_path: Path) -> None:
    game = rtc(mode="round")
    app = app_for(game, [None, "heuristic:memory=0.5"], tmp_path)
    async with app.run_test() as pilot:
        for _ in range(3):
            await until(pilot, lambda: app.state.seats_to_act() == [0])
            person_moves(app, 1)
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuit)
        assert app.paused
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit) and not app.paused
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    assert app.return_code == 0
    [path] = app.saved
    data = json.loads(path.read_text())
    assert data["outcome"] is None
    assert data["seats"][1]["player"] == "heuristic:memory=0.5" and data["seats"][1]["seed"] == 11
    assert data["play"]["clock"] > 0
    # Taken up again: the same table, the same bot, and the game goes on to its end.
    back = resume(path)
    assert back.state.snapshot() == app.state.snapshot()
    assert back.clock == data["play"]["clock"]
    again = PlayApp(
        back.game,
        back.bots,
        state=back.state,
        names=back.names,
        seeds=back.seeds,
        clock=back.clock,
        record_dir=path.parent,
        record_path=path,
        bot_pause=0.0,
    )
    async with again.run_test() as pilot:
        assert again.now() >= back.clock
        mover = make_bot(game, "heuristic", seed=1)
        for _ in range(400):
            if again.state.is_over():
                break
            if again.state.seats_to_act() == [0] and not again.paused:
                again.submit(mover.act(SeatView(again.state, 0)))
            elif isinstance(again.screen, TextScreen):
                await pilot.press("space")
            await pilot.pause(0.01)
        assert again.state.is_over()
        await until(pilot, lambda: isinstance(again.screen, ResultScreen))
        await pilot.press("q")
    assert again.saved == [path], "the resumed game is saved over its own record"
    final = json.loads(path.read_text())
    assert final["outcome"] is not None
    assert ratgames.replay(final).snapshot() == again.state.snapshot()
    assert list(tmp_path.glob("*.json")) == [path]


async def test_leaving_a_game_that_is_not_saved_says_so() -> None:
    app = app_for(rtc(), [None, "heuristic"], None)
    async with app.run_test() as pilot:
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuit)
        assert "not being saved" in text_of(app, "#body")
        await pilot.press("escape")
        assert not isinstance(app.screen, ConfirmQuit)


async def test_a_signal_saves_the_game_and_stops(tmp_path: Path) -> None:
    import signal

    app = app_for(rtc(), [None, "heuristic"], tmp_path)
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        person_moves(app, 1)
        app.stop_on_signal(signal.SIGTERM)
        await pilot.pause()
    assert app.return_code == 128 + signal.SIGTERM
    [path] = app.saved
    assert json.loads(path.read_text())["outcome"] is None
    assert resume(path).state.snapshot() == app.state.snapshot()


class Crashing(Bot):
    """A bot that fails on its second move."""

    name = "crashing"

    def act(self, view: SeatView) -> Any:
        self.moves = getattr(self, "moves", 0) + 1
        if self.moves == 2:
            raise RuntimeError("the bot broke")
        return view.legal_actions()[0]


async def test_a_crash_saves_the_game_before_the_error_shows(tmp_path: Path) -> None:
    game = rtc()
    app = PlayApp(game, [None, Crashing(game)], seed=3, record_dir=tmp_path, bot_pause=0.01)
    bot = app.bots[1]
    with pytest.raises(RuntimeError, match="the bot broke"):
        async with app.run_test() as pilot:
            for _ in range(300):
                if getattr(bot, "moves", 0) >= 2:
                    break
                if app.state.seats_to_act() == [0] and not app.paused:
                    person_moves(app, 1)
                await pilot.pause(0.01)
            await pilot.pause(0.1)
    assert app.return_code == 1
    [path] = app.saved
    data = json.loads(path.read_text())
    assert data["outcome"] is None
    assert len([e for e in data["events"] if "action" in e]) >= 3


async def test_records_of_games_with_the_same_seed_in_the_same_second_are_all_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    from ratgames.tui import session

    class Frozen(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Frozen:
            return cls(2025, 1, 2, 3, 4, 5, 6)

    monkeypatch.setattr(session._dt, "datetime", Frozen)
    saved = []
    for _ in range(4):
        app = app_for(rtc(), [None, "heuristic"], tmp_path, seed=7)
        app.state.apply(0, app.state.legal_actions(0)[0])
        saved.append(app.save_progress())
    assert len(set(saved)) == 4
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(p.name for p in saved)
    for path in saved:
        assert path is not None and path.name.startswith("rat-a-tat-cat-20250102-030405-000006-7")


async def test_help_shows_the_keys_and_the_rules_and_unbound_keys_say_why() -> None:
    game = rtc()
    app = app_for(game, [None, "heuristic"], None)
    async with app.run_test() as pilot:
        await pilot.press("z")
        assert "'z' does nothing here: press ? for the keys" in text_of(app, "#status")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = text_of(app, "#help-keys")
        assert "Draw" in keys and "Knock" in keys and "Quit" in keys and "Fast-forward" in keys
        assert app.screen.rules_markdown.endswith(player_rules(game.rules()))
        assert "swap N P:M" not in app.screen.rules_markdown, "players see keys, not notation"
        assert "`memory_aid=false`" in app.screen.rules_markdown
        assert "ratgames play rat-a-tat-cat -o name=value" in app.screen.rules_markdown
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_a_refused_move_says_why_in_the_status_line() -> None:
    app = app_for(rtc(), [None, "heuristic"], None)
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        await pilot.press("k")  # knocking before drawing
        status = text_of(app, "#status")
        assert status.startswith("Not allowed: ")
        log = app.query_one("#log", RichLog)
        assert status.split()[-1] in " ".join(line.text for line in log.lines)


async def test_hot_seat_covers_the_table_between_people() -> None:
    game = rtc(3)
    app = app_for(game, [None, None, "heuristic"], None, names=["Ann", "Bob", "Bot"])
    async with app.run_test() as pilot:
        assert app.seat == 0 and app.panel is app.panels[0]
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        person_moves(app, 1)
        while app.state.seats_to_act() == [0]:
            person_moves(app, 1)
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        assert app.seat == 0, "the table stays Ann's until Bob takes the keyboard"
        assert "Pass the keyboard to Bob" in text_of(app, ".title")
        await pilot.press("space")
        assert app.seat == 1 and app.panel is app.panels[1]
        assert app.panels[0].display is False and app.panels[1].display is True
        assert app.state.seats_to_act() == [1]


async def test_hot_seat_is_refused_for_a_real_time_table_that_takes_one_person() -> None:
    game = ratgames.get_game("egyptian-ratscrew", players=3)
    with pytest.raises(ValueError, match="at one keyboard, not 2"):
        app_for(game, [None, None, "heuristic"], None)


async def test_between_rounds_a_reveal_waits_for_a_key() -> None:
    game = rtc(2)
    app = app_for(game, [None, "heuristic"], None)
    async with app.run_test() as pilot:
        mover = make_bot(game, "heuristic", seed=2)
        for _ in range(300):
            if isinstance(app.screen, TextScreen):
                break
            if app.state.seats_to_act() == [0] and not app.paused:
                app.submit(mover.act(SeatView(app.state, 0)))
            await pilot.pause(0.01)
        assert isinstance(app.screen, TextScreen)
        # The screen is pushed at once; its widgets are mounted on a later turn of the loop.
        await until(pilot, lambda: bool(app.screen.query(".title")))
        assert app.paused and app.state.stage() == 1
        assert "Round 1 is over" in text_of(app, ".title")
        moves = len(app.state.events())
        await pilot.pause(0.1)
        assert len(app.state.events()) == moves, "the bots wait for the key"
        await pilot.press("space")
        assert not app.paused


async def test_fast_forward_runs_the_bots_to_your_turn_and_pace_changes() -> None:
    game = rtc(4)
    app = app_for(game, [None, "heuristic", "heuristic", "heuristic"], None, bot_pause=5.0)
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        person_moves(app, 1)
        while app.state.seats_to_act() == [0]:
            person_moves(app, 1)
        await pilot.pause(0.05)
        assert app.state.seats_to_act() == [1], "the first bot waits its 5 s"
        await pilot.press("f")
        await until(pilot, lambda: app.state.seats_to_act() == [0], tries=100)
        await pilot.press("minus")
        assert app.bot_pause == 5.0 or app.bot_pause == 2.5
        await pilot.press("plus", "plus")
        assert app.bot_pause < 2.5
        await pilot.press("f")
        assert "It is your move" in text_of(app, "#status")


async def test_real_time_fast_forward_plays_out_a_game_you_cannot_act_in() -> None:
    game = ratgames.get_game("egyptian-ratscrew", players=2)
    bots = [
        make_bot(game, "heuristic:play_ms=5000", seed=1),
        make_bot(game, "heuristic:play_ms=5000", seed=2),
    ]
    app = PlayApp(game, bots, seed=4)  # bots only: watching
    async with app.run_test() as pilot:
        await pilot.press("f")
        await until(pilot, lambda: app.state.is_over())
        await until(pilot, lambda: isinstance(app.screen, ResultScreen))
        times = [e[3] for e in app.state.events() if e[0] == "action"]
        assert times == sorted(times)


async def test_the_result_screen_offers_a_rematch_and_a_new_game(tmp_path: Path) -> None:
    game = rtc(mode="round")
    app = app_for(game, ["heuristic", None], tmp_path, bot_pause=0.0)
    async with app.run_test() as pilot:
        mover = make_bot(game, "heuristic", seed=3)
        for _ in range(2000):
            if app.state.is_over():
                break
            if app.state.seats_to_act() == [1] and not app.paused:
                app.submit(mover.act(SeatView(app.state, 1)))
            elif isinstance(app.screen, TextScreen):
                await pilot.press("space")
            await pilot.pause(0.001)
        assert app.state.is_over()
        await until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert "Winner:" in text_of(app, "#body")
        first = app.record_path
        await pilot.press("v")
        assert not isinstance(app.screen, ResultScreen)
        await pilot.press("enter")
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("r")
        await pilot.pause(0.05)
        assert not app.state.is_over() and app.record_path != first
        assert app.game is game and app.bots[0] is not None
        assert app.saved == [first]
    assert first is not None and json.loads(first.read_text())["outcome"] is not None


async def test_new_game_screen_starts_the_chosen_game() -> None:
    game = ratgames.get_game("caged-rats")
    app = app_for(game, [None, "random"], None, bot_pause=60.0)  # the new bots wait
    async with app.run_test() as pilot:
        app._finished = True  # as if the game had ended
        app.choose_after("new")
        await pilot.pause()
        ids = [g[0] for g in app.screen.games]  # type: ignore[attr-defined]
        steps = (ids.index("rats") - ids.index("caged-rats")) % len(ids)
        await pilot.press(*["right"] * steps, "down", "right", "down", "right", "enter")
        await pilot.pause(0.05)
        assert app.game.id == "rats" and app.game.players == 3
        assert app.level == "hard"
        assert app.bots[0] is None and all(b is not None for b in app.bots[1:])
        assert "pimc" in app.bots[1].describe()  # type: ignore[union-attr]


@pytest.mark.parametrize("game_id", ["rat-a-tat-cat", "rats", "caged-rats", "egyptian-ratscrew"])
async def test_the_screen_fits_80x24_and_follows_a_resize(game_id: str) -> None:
    game = ratgames.get_game(game_id)
    specs: list[str | None] = [None] + ["random"] * (game.players - 1)
    app = app_for(game, specs, None, bot_pause=30.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def fits() -> None:
            width, height = app.size
            hint = app.query_one("#hint", Static)
            lines = Text(text_of(app, "#hint")).wrap(app.console, width - 2)
            assert len(lines) <= hint.region.height, "the keys line is not cut"
            assert hint.region.bottom <= height
            log = app.query_one("#log", RichLog)
            assert log.region.height >= 3
            table = app.query_one("#table")
            assert table.region.bottom <= log.region.y

        fits()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert app.size == (120, 40)
        fits()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        fits()


async def test_a_panel_key_that_says_why_not_shows_it_in_the_status_line() -> None:
    """The Rat-a-Tat Cat panel answers 's' out of a swap with a line in the log only."""
    app = app_for(rtc(), [None, "heuristic"], None)
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.state.seats_to_act() == [0])
        before = len(app.logs[0])
        await pilot.press("s")
        assert len(app.logs[0]) == before + 1
        assert text_of(app, "#status") == app.logs[0][-1].plain
