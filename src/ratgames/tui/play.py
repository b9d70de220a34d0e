"""Playing a game in the terminal against bots (Textual).

The app owns the true state and the bots.  The human seat's panel gets only that seat's
observation; bots get only their :class:`~ratgames.core.bots.SeatView`.  Turn-based bots move
after a short pause so their moves can be followed; real-time bots react on the wall clock with
the delays they choose.  At the end the record is saved.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Footer, Header, RichLog, Static

from ratgames.core.bots import Bot, SeatView
from ratgames.core.errors import IllegalAction
from ratgames.core.game import Action, Game, State
from ratgames.core.records import save_record

from .base import GamePanel, game_module


class PlayApp(App[None]):
    """One game between a human seat and bots."""

    TITLE = "ratgames"
    CSS = """
    #table { height: auto; }
    #log { height: 1fr; min-height: 5; border-top: solid $primary; }
    #status { height: 1; background: $boost; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        game: Game,
        bots: Sequence[Bot | None],
        *,
        seed: int | None = None,
        seat: int = 0,
        names: Sequence[str] | None = None,
        record_dir: Path | None = None,
        bot_pause: float = 0.6,
        state: State | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.bots = list(bots)
        self.seat = seat
        self.state = state if state is not None else game.new_state(seed=seed)
        self.names = list(names) if names else [game.seat_name(s) for s in range(game.players)]
        self.record_dir = record_dir
        self.bot_pause = bot_pause
        self.record_path: Path | None = None
        self.started = time.monotonic()
        self._bot_timers: dict[int, Timer] = {}
        self._pending: dict[int, Action] = {}
        self.sub_title = f"{game.title}: you are {self.names[seat]}"
        panel_cls = game_module(game, "tui").Panel
        memory_aid = bool(game.options.get("memory_aid", False))
        self.panel: GamePanel = panel_cls(game, seat, self, memory_aid=memory_aid)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="table"):
            yield self.panel
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static(self.panel.help_line(), id="status")
        yield Footer()

    def on_mount(self) -> None:
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                bot.new_game(seat)
        self.panel.focus()
        self.refresh_table()

    # --- what panels call -----------------------------------------------------------------------

    def submit(self, action: Action) -> None:
        """Apply an action for the human seat, or report why it is refused."""
        if self.state.is_over():
            self.say("The game is over.")
            return
        try:
            self.state.apply(self.seat, action, time=self.now())
        except IllegalAction as exc:
            self.say(f"Not allowed: {exc}")
            self.bell()
            return
        self.after_change()

    def say(self, message: str) -> None:
        """Add a line to the message log."""
        self.query_one("#log", RichLog).write(Text(message))

    # --- the loop -------------------------------------------------------------------------------

    def now(self) -> float:
        """Seconds since the game started."""
        return time.monotonic() - self.started

    def refresh_table(self) -> None:
        """Redraw the panel and schedule the bots."""
        to_act = self.state.seats_to_act()
        legal = self.state.legal_actions(self.seat) if self.seat in to_act else []
        self.panel.show(self.state.observation(self.seat), legal, to_act)
        if self.state.is_over():
            self.finish()
            return
        if self.game.real_time:
            self.schedule_reactions()
        else:
            seat = to_act[0]
            bot = self.bots[seat]
            if bot is not None and seat not in self._bot_timers:
                self._bot_timers[seat] = self.set_timer(self.bot_pause, lambda: self.bot_move(seat))

    def after_change(self) -> None:
        """Called after every applied action."""
        self.refresh_table()

    def bot_move(self, seat: int) -> None:
        """A turn-based bot takes its turn."""
        self._bot_timers.pop(seat, None)
        if self.state.is_over() or seat not in self.state.seats_to_act():
            return
        bot = self.bots[seat]
        assert bot is not None
        action = bot.act(SeatView(self.state, seat, self.now()))
        self.state.apply(seat, action, time=self.now())
        self.after_change()

    def schedule_reactions(self) -> None:
        """Real time: each bot without an action on its way decides what to do next."""
        for seat in list(self._pending):
            if not self.state.is_legal(seat, self._pending[seat]):
                self._pending.pop(seat)
                timer = self._bot_timers.pop(seat, None)
                if timer is not None:
                    timer.stop()
        for seat in self.state.seats_to_act():
            bot = self.bots[seat]
            if bot is None or seat in self._pending:
                continue
            reaction = bot.react(SeatView(self.state, seat, self.now()))
            if reaction is None:
                continue
            self._pending[seat] = reaction.action
            # Textual timers need a positive interval: a zero delay waits a millisecond.
            self._bot_timers[seat] = self.set_timer(
                max(0.001, reaction.delay), lambda s=seat: self.bot_arrives(s)
            )

    def bot_arrives(self, seat: int) -> None:
        """Real time: a bot's action arrives."""
        self._bot_timers.pop(seat, None)
        action = self._pending.pop(seat, None)
        if action is None or self.state.is_over():
            return
        if self.state.is_legal(seat, action):
            self.state.apply(seat, action, time=self.now())
        self.after_change()

    def finish(self) -> None:
        """Show the outcome and save the record (once)."""
        for timer in self._bot_timers.values():
            timer.stop()
        self._bot_timers.clear()
        if self.record_path is not None:
            return
        outcome = self.state.outcome()
        assert outcome is not None
        winners = ", ".join(self.names[w] for w in outcome.winners) or "nobody"
        self.say(f"Game over ({outcome.reason}). Winner: {winners}.")
        points = "  ".join(f"{self.names[s]}: {p:g}" for s, p in enumerate(outcome.points))
        self.say(f"{self.game.points_label.capitalize()}: {points}")
        if self.record_dir is not None:
            self.record_path = save_record(self.make_record(), self.record_file())
            self.say(f"Record saved to {self.record_path}  (ratgames replay {self.record_path})")
        else:
            self.record_path = Path()
        self.say("Press Ctrl+Q to leave.")

    def make_record(self) -> dict[str, Any]:
        """The record of this game with who sat where."""
        seats = [
            {"name": self.names[s], "player": "human" if b is None else b.describe()}
            for s, b in enumerate(self.bots)
        ]
        return self.state.record(seats)

    def record_file(self) -> Path:
        """Where the record of this game goes."""
        assert self.record_dir is not None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return self.record_dir / f"{self.game.id}-{stamp}-{self.state.seed}.json"
