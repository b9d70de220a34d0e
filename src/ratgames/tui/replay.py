"""Stepping through a game record in the terminal (Textual)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Static

from ratgames.core.game import State
from ratgames.core.records import load_record, replay

from .base import check_terminal, render_view
from .session import command


def replay_frames(record: dict[str, Any]) -> tuple[list[State], list[tuple[int, str]]]:
    """Every state of a record, from the deal (frame 0) to the end, and the actions between."""
    data = load_record(record)
    state = replay(data, upto=0)
    frames = [state.clone()]
    moves: list[tuple[int, str]] = []
    for event in data["events"]:
        if "chance" in event:
            continue
        state.apply(event["seat"], event["action"], time=event.get("time"))
        frames.append(state.clone())
        moves.append((event["seat"], event["action"]))
    return frames, moves


def frame_text(
    frames: list[State], moves: list[tuple[int, str]], index: int, seat: int | None
) -> str:
    """What the viewer shows for frame ``index``: the last move and the table."""
    state = frames[index]
    game = state.game
    if index == 0:
        head = f"The deal (step 0 of {len(moves)})"
    else:
        mover, action = moves[index - 1]
        head = f"Step {index} of {len(moves)}: {game.seat_name(mover)} - {action}"
    view = state.observation(seat) if seat is not None else state.spectator_view()
    body = render_view(game, view)
    tail = ""
    outcome = state.outcome()
    if outcome is not None:
        winners = ", ".join(game.seat_name(w) for w in outcome.winners)
        tail = f"\n\nGame over ({outcome.reason}); winner: {winners}."
    elif index == len(frames) - 1:
        tail = (
            f"\n\nThe game was left unfinished here: '{command()} play --resume RECORD' takes "
            "it up again."
        )
    return f"{head}\n\n{body}{tail}"


class ReplayApp(App[None]):
    """Step through a record: from one seat's view, or as a spectator."""

    TITLE = "ratgames replay"
    CSS = """
    #table { width: 2fr; padding: 0 1; }
    #moves { width: 1fr; border-left: solid $primary; padding: 0 1; }
    """
    BINDINGS = [
        Binding("right,n,space", "step(1)", "Next"),
        Binding("left,p,backspace", "step(-1)", "Back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("q,ctrl+q", "quit", "Quit"),
    ]

    def __init__(self, record: dict[str, Any], seat: int | None = None) -> None:
        super().__init__()
        self.frames, self.moves = replay_frames(record)
        self.seat = seat
        self.index = 0
        game = self.frames[0].game
        who = game.seat_name(seat) if seat is not None else "a spectator"
        self.sub_title = f"{game.title}, seen by {who}"

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Run the viewer; :class:`~ratgames.tui.base.NoTerminal` where input or output is not
        a terminal ('ratgames replay --text' prints the steps instead)."""
        check_terminal(
            "the replay viewer", bool(kwargs.get("headless")), ": --text prints the steps"
        )
        super().run(*args, **kwargs)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with VerticalScroll(id="table-scroll"):
                yield Static(id="table")
            with VerticalScroll(id="moves-scroll"):
                yield Static(id="moves")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.query_one("#table", Static).update(
            Text(frame_text(self.frames, self.moves, self.index, self.seat))
        )
        game = self.frames[0].game
        lines = Text()
        for i, (seat, action) in enumerate(self.moves, start=1):
            style = "reverse" if i == self.index else ""
            lines.append(f"{i:4d}  {game.seat_name(seat)}: {action}\n", style=style)
        self.query_one("#moves", Static).update(lines)

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self.redraw()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.frames) - 1
        self.redraw()
