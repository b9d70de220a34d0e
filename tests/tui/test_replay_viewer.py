"""The replay viewer under Textual's Pilot (lines whole, the move list following the step, its
keys in the footer and under ?) and the text replay of a Caged Rats deal's end."""

from __future__ import annotations

from typing import Any

from textual.containers import VerticalScroll
from textual.widgets import Static

import ratgames
from ratgames.core import make_bot, play_game
from ratgames.games.caged_rats.render import describe_event
from ratgames.tui.replay import ReplayApp, frame_text, replay_frames
from ratgames.tui.screens import HelpScreen


def caged_rats_record(target: int = 60) -> dict[str, Any]:
    game = ratgames.get_game("caged-rats", options={"target": target})
    bots = [make_bot(game, "heuristic", seed=1), make_bot(game, "heuristic", seed=2)]
    record: dict[str, Any] = play_game(game, bots, seed=5).record()
    return record


async def test_the_viewer_keeps_lines_whole_follows_the_step_and_names_its_keys() -> None:
    app = ReplayApp(caged_rats_record())
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#table", Static)
        pane = app.query_one("#table-scroll", VerticalScroll)
        moves = app.query_one("#moves-scroll", VerticalScroll)
        # The table is no wider than its pane, so its lines wrap instead of being cut.
        assert table.outer_size.width <= pane.scrollable_content_region.width
        shown = {
            key: active.binding
            for key, active in app.screen.active_bindings.items()
            if active.binding.show
        }
        for key in ("right", "left", "home", "end", "pageup", "pagedown", "question_mark"):
            assert key in shown, key
        assert shown["pagedown"].key_display == "PgDn" and shown["right"].key_display == "→/n"
        await pilot.press("end")
        await pilot.pause()
        assert app.index == len(app.frames) - 1
        assert moves.scroll_y > 0, "the move list scrolled to the last step"
        top = moves.scroll_y
        assert top <= app.index - 1 < top + moves.size.height
        await pilot.press("home")
        await pilot.pause()
        assert app.index == 0 and moves.scroll_y == 0
        await pilot.press("pagedown", "pagedown")
        assert app.index == 20
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


def test_text_replay_shows_the_end_of_each_caged_rats_deal() -> None:
    record = caged_rats_record()
    frames, moves = replay_frames(record)
    game = frames[0].game
    ends = [i for i in range(1, len(frames)) if frames[i].stage() != frames[i - 1].stage()]
    first = ends[0]
    assert not frames[first].is_over()
    text = frame_text(frames, moves, first, 0)
    assert "Deal 1 is over:" in text and "\nDeal 2:\n" in text
    before, after = text.split("\nDeal 2:\n")
    # The end of the deal: its score and the last capture, which the next deal's table lacks.
    points = frames[first].observation(0)["last_deal"]["points"]
    assert f"Deal scored: Red {points[0]}, Black {points[1]}" in before
    end = frames[first - 1].clone()
    end.only_scored_after(0)
    end.apply(*moves[first - 1])
    last = end.observation(0)["events"][-2]
    assert describe_event(game, last, 0) in before
    assert "Deal scored" not in after
    assert "Deal 1 is over" not in frame_text(frames, moves, first + 1, 0)
