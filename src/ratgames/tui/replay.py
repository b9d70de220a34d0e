"""Stepping through a game record in the terminal (Textual)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Static

from ratgames.core.game import Game, State
from ratgames.core.records import load_record, replay

from .base import check_terminal, panel_class, render_view
from .screens import HelpScreen, KeyHelp
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


def play_clock(seconds: float) -> str:
    """Seconds of play as a clock shows them: ``1:23``, ``1:02:03`` past an hour."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def late_arrivals(record: dict[str, Any], game: Game) -> list[str]:
    """The record's seats for late arrivals (``"late": true``, a game's ``late_seats`` played at
    a server), one line each: "Seat 3, Dana (joined late at 1:23)" (when they took the seat, in
    seconds of play, where the record says it), or that nobody came."""
    lines: list[str] = []
    seats = record.get("seats")
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        if not isinstance(seat, dict) or seat.get("late") is not True or i >= game.players:
            continue
        label = game.seat_name(i)
        if seat.get("player") == "nobody":
            lines.append(f"{label}: open for a late arrival, nobody came")
            continue
        name = seat.get("name")
        who = f"{label}, {name}" if isinstance(name, str) and name and name != label else label
        arrived = seat.get("arrived")
        if isinstance(arrived, int | float) and not isinstance(arrived, bool):
            lines.append(f"{who} (joined late at {play_clock(arrived)})")
        else:
            lines.append(f"{who} (joined late)")
    return lines


def frame_text(
    frames: list[State],
    moves: list[tuple[int, str]],
    index: int,
    seat: int | None,
    late: Sequence[str] = (),
) -> str:
    """What the viewer shows for frame ``index``: the last move and the table, under the lines
    of ``late`` (:func:`late_arrivals`) saying who came late."""
    state = frames[index]
    game = state.game
    if index == 0:
        head = f"The deal (step 0 of {len(moves)})"
    else:
        mover, action = moves[index - 1]
        head = f"Step {index} of {len(moves)}: {game.seat_name(mover)} - {action}"
    if late:
        head += "".join(f"\n{line}" for line in late)
    view = state.observation(seat) if seat is not None else state.spectator_view()
    body = render_view(game, view)
    ended = stage_end_view(frames, moves, index, seat)
    if ended is not None:
        word = panel_class(game).stage_word
        number = frames[index - 1].stage() + 1
        body = (
            f"{word} {number} is over:\n{render_view(game, ended)}\n\n{word} {number + 1}:\n{body}"
        )
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


def stage_end_view(
    frames: list[State], moves: list[tuple[int, str]], index: int, seat: int | None
) -> dict[str, Any] | None:
    """Where the action before frame ``index`` ended a round and dealt the next at once (a game
    whose panel ``shows_stage_end``), the view of that round's end, which no frame holds: the
    action played again on a copy that stops there.  None for every other frame."""
    if index == 0 or frames[index].is_over():
        return None
    before = frames[index - 1]
    stage = before.stage()
    if frames[index].stage() == stage:
        return None
    if not panel_class(before.game).shows_stage_end:
        return None
    end = before.clone()
    end.only_scored_after(stage)
    mover, action = moves[index - 1]
    end.apply(mover, action)
    view = end.observation(seat) if seat is not None else end.spectator_view()
    if "to_act" in view:
        view["to_act"] = []  # the round is over: nobody acts in it any more
    return view


class ReplayApp(App[None]):
    """Step through a record: from one seat's view, or as a spectator."""

    TITLE = "ratgames replay"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #table-scroll { width: 2fr; }
    #moves-scroll { width: 1fr; border-left: solid $primary; }
    #table, #moves { width: 100%; padding: 0 1; }
    """
    KEYS: ClassVar[list[tuple[str, str, str, str, str, str]]] = [
        # keys, action, in the footer: keys and label; in the help: keys and what they do
        ("right,n,space", "step(1)", "→/n", "Next", "right n space", "the next step"),
        ("left,p,backspace", "step(-1)", "←/p", "Back", "left p backspace", "the step before"),
        ("pagedown", "step(10)", "PgDn", "+10", "page down", "10 steps on"),
        ("pageup", "step(-10)", "PgUp", "-10", "page up", "10 steps back"),
        ("home", "jump(0)", "Home", "Start", "home", "the deal"),
        ("end", "jump(-1)", "End", "End", "end", "the end"),
        ("question_mark", "help", "?", "Help", "?", "these keys and the rules of the game"),
        ("q,ctrl+q", "quit", "q", "Quit", "q ctrl+q", "quit"),
    ]
    # Priority: the scrolling panes would otherwise take Home, End and the page keys.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(keys, action, label, key_display=shown, priority=True)
        for keys, action, shown, label, _, _ in KEYS
    ]

    def __init__(self, record: dict[str, Any], seat: int | None = None) -> None:
        super().__init__()
        self.frames, self.moves = replay_frames(record)
        self.seat = seat
        self.index = 0
        game = self.frames[0].game
        self.late = late_arrivals(record, game)
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

    def action_help(self) -> None:
        """?: the viewer's keys, and the rules of the game."""
        if isinstance(self.screen, HelpScreen):
            return
        game = self.frames[0].game
        keys = [KeyHelp(full, what) for *_, full, what in self.KEYS]
        self.push_screen(HelpScreen(f"Replay of {game.title}", keys, game.rules()))

    def _follow_move(self) -> None:
        """Scroll the move list so that the current step is in view (in its middle)."""
        pane = self.query_one("#moves-scroll", VerticalScroll)
        line = max(0, self.index - 1)
        pane.scroll_to(y=max(0, line - pane.size.height // 2), animate=False)

    def redraw(self) -> None:
        self.query_one("#table", Static).update(
            Text(frame_text(self.frames, self.moves, self.index, self.seat, self.late))
        )
        game = self.frames[0].game
        lines = Text()
        for i, (seat, action) in enumerate(self.moves, start=1):
            style = "reverse" if i == self.index else ""
            lines.append(f"{i:4d}  {game.seat_name(seat)}: {action}\n", style=style)
        self.query_one("#moves", Static).update(lines)
        self.call_after_refresh(self._follow_move)

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self.redraw()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.frames) - 1
        self.redraw()
