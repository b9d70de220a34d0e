"""Playing a game in the terminal against bots, alone or with others at one keyboard (Textual).

The app owns the true state and the bots.  Each person's panel gets only that seat's observation;
bots get only their :class:`~ratgames.core.bots.SeatView`.  Turn-based bots move after a short
pause so their moves can be followed (``+``/``-`` change it, ``f`` fast-forwards to your next
turn); real-time bots react on the wall clock with the delays they choose.

Nothing is lost: the record is saved every few seconds, when the game ends, when you leave (the
app asks first), when the terminal closes or the process is told to stop, and when something goes
wrong; ``ratgames play --resume`` takes an unfinished game up again (see
:mod:`ratgames.tui.session`).  ``?`` shows the keys and the rules; between rounds a reveal waits
for a key; at the end a result screen offers a rematch or a new game.

With several people (hot-seat), a turn-based game covers the table whenever the turn passes from
one person to another, until the next person presses a key; each person has a panel and a log of
their own.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, RichLog, Static

from ratgames.core.bots import Bot, SeatView, make_bot
from ratgames.core.errors import IllegalAction
from ratgames.core.game import Action, Game, State
from ratgames.core.records import save_record

from .base import GamePanel, check_terminal, panel_class, player_rules
from .screens import (
    ConfirmQuit,
    HelpScreen,
    KeyHelp,
    NewGameScreen,
    PassScreen,
    ResultScreen,
    TextScreen,
)
from .session import command, record_stem, seat_entries

PACES = (0.0, 0.15, 0.3, 0.6, 1.0, 1.5, 2.5)
"""The pauses a turn-based bot may take before its move, in seconds (``+``/``-`` step along)."""

NOTE_SECONDS = 4.0
"""How long a refusal stays in the status line at least (moves of others do not wipe it)."""

MAX_PLAY_OUT = 200_000
"""The most actions a real-time play-out takes (every game has a safety cap well below it)."""

QUIET_KEYS = frozenset(
    {"tab", "shift+tab", "shift", "ctrl", "alt", "meta", "escape", "up", "down", "pageup"}
    | {"pagedown", "home", "end"}
)
"""Keys that say nothing when nothing is bound to them (moving around, modifiers)."""


def _places_text(game: Game, names: Sequence[str], state: State) -> Text:
    outcome = state.outcome()
    assert outcome is not None
    text = Text()
    winners = ", ".join(names[w] for w in outcome.winners) or "nobody"
    text.append(f"Winner: {winners}", style="bold")
    text.append(f"  ({outcome.reason})\n\n")
    order = sorted(range(game.players), key=lambda s: (outcome.places[s], s))
    width = max(len(n) for n in names)
    for s in order:
        text.append(f"{_ordinal(outcome.places[s]):>4}  {names[s]:<{width}}  ")
        text.append(f"{outcome.points[s]:g} {game.points_label}\n")
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class PlayApp(App[None]):
    """One game between people at one keyboard and bots, then perhaps more games."""

    TITLE = "ratgames"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #table { height: auto; max-height: 70%; }
    #log { height: 1fr; min-height: 3; border-top: solid $primary; }
    #status { height: auto; max-height: 2; background: $boost; padding: 0 1; }
    #hint { height: auto; max-height: 3; background: $boost; color: $text-muted; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "Quit", priority=True),
        Binding("question_mark,f1", "help", "Help"),
        Binding("f", "fast_forward", "Fast-forward"),
        Binding("plus,equals_sign", "pace(-1)", "Faster"),
        Binding("minus", "pace(1)", "Slower"),
        Binding("r", "after('rematch')", "Rematch", show=False, priority=True),
        Binding("n", "after('new')", "New game", show=False, priority=True),
        Binding("enter", "after('result')", "Results", show=False, priority=True),
    ]

    def __init__(
        self,
        game: Game,
        bots: Sequence[Bot | None],
        *,
        seed: int | None = None,
        seat: int | None = None,
        names: Sequence[str] | None = None,
        record_dir: Path | None = None,
        bot_pause: float = 0.6,
        state: State | None = None,
        seeds: Sequence[int | None] | None = None,
        level: str | None = None,
        clock: float = 0.0,
        record_path: Path | None = None,
        autosave: float = 5.0,
        reveal: bool = True,
        bots_started: bool = False,
    ) -> None:
        """``bots`` has an entry a seat: a bot, or None for a person at the keyboard.  ``seat`` is
        the person who sees the table first (the first person by default).  ``seeds`` are the
        bots' seeds (kept in the record, to resume them), ``clock`` the game's time so far (for a
        resumed game), ``record_path`` the record to save to again (a resumed game's).
        ``bots_started``: the bots were told of this game already and know its history (a
        resumed game's, from :func:`~ratgames.tui.session.resume`), so they are not started
        afresh, which would make them forget what they saw."""
        super().__init__()
        self.bots_started = bots_started
        self.record_dir = record_dir
        self.bot_pause = bot_pause
        self.level = level
        self.autosave = autosave
        self.reveal = reveal
        self.saved: list[Path] = []
        """Every record saved, one a game (a rematch adds one)."""
        self._paused_at: float | None = None
        self._bot_timers: dict[int, Timer] = {}
        self._pending: dict[int, Action] = {}
        self._fast = False
        self._status_note: Text | None = None
        self._note_since = 0.0
        self._mounted = False
        self._setup(game, bots, seed, seat, names, state, seeds, clock, record_path)

    # --- set-up ---------------------------------------------------------------------------------

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Run the app in the terminal; :class:`~ratgames.tui.base.NoTerminal` (and nothing run,
        nothing saved) where input or output is not a terminal, as with ``< /dev/null``."""
        check_terminal("ratgames play", bool(kwargs.get("headless")))
        super().run(*args, **kwargs)

    def _setup(
        self,
        game: Game,
        bots: Sequence[Bot | None],
        seed: int | None,
        seat: int | None,
        names: Sequence[str] | None,
        state: State | None,
        seeds: Sequence[int | None] | None,
        clock: float,
        record_path: Path | None,
    ) -> None:
        """Take up a game (the first one, or a rematch or a new one)."""
        if len(bots) != game.players:
            raise ValueError(f"{game.title} with {game.players} players needs {game.players} seats")
        self.game = game
        self.bots = list(bots)
        self.people = [s for s, b in enumerate(self.bots) if b is None]
        self.watching = not self.people
        if self.watching:  # bots only: watch the game from ``seat``'s chair
            self.people = [seat if seat is not None else 0]
        panel_cls: type[GamePanel] = panel_class(game)
        if game.real_time and len(self.people) > panel_cls.max_people:
            raise ValueError(
                f"{game.title} is played in real time, and its table takes "
                f"{panel_cls.max_people} person(s) at one keyboard, not {len(self.people)}"
            )
        self.seat = seat if seat is not None and seat in self.people else self.people[0]
        self.state = state if state is not None else game.new_state(seed=seed)
        self.names = list(names) if names else [game.seat_name(s) for s in range(game.players)]
        self.seeds: list[int | None] = list(seeds) if seeds is not None else [None] * game.players
        self.record_path = record_path
        self._saved_length = -1 if record_path is None else len(self.state.events())
        self._clock_at_start = clock
        self.started = time.monotonic() - clock
        if self._paused_at is not None:
            self._paused_at = time.monotonic()
        self._stage = self.state.stage()
        self._stage_ends: dict[int, dict[str, Any]] = {}
        self._events_before: list[Any] = []
        self._finished = False
        self._pass_shown = False
        self._out_shown = False
        self._cover_first = (
            state is not None
            and len(self.people) > 1
            and not self.watching
            and not game.real_time
            and not self.state.is_over()
        )
        memory_aid = bool(game.options.get("memory_aid", False))
        self.panels: dict[int, GamePanel] = {}
        if game.real_time:
            panel = panel_cls(game, self.seat, self, memory_aid=memory_aid)
            panel.people = [self.seat] + [p for p in self.people if p != self.seat]
            self.panels = {p: panel for p in self.people}
        else:
            for p in self.people:
                self.panels[p] = panel_cls(game, p, self, memory_aid=memory_aid)
        self.panel: GamePanel = self.panels[self.seat]
        self.logs: dict[int, list[Text]] = {p: [] for p in self.people}
        self.sub_title = self._subtitle()

    def _subtitle(self) -> str:
        if self.watching:
            return f"{self.game.title}: watching from {self.game.seat_name(self.seat)}'s chair"
        if len(self.people) == 1:
            return f"{self.game.title}: you are {self.game.seat_name(self.seat)}"
        return f"{self.game.title}: {self.names[self.seat]} at the keyboard"

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="table"):
            yield from self._unique_panels()
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="status")
        yield Static(id="hint")

    def _unique_panels(self) -> Iterator[GamePanel]:
        seen: set[int] = set()
        for panel in self.panels.values():
            if id(panel) not in seen:
                seen.add(id(panel))
                panel.display = panel is self.panel
                yield panel

    def on_mount(self) -> None:
        self._mounted = True
        if not self.bots_started:
            self._start_bots()
        if self.autosave > 0:
            self.set_interval(self.autosave, self.save_progress)
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(signum, self.stop_on_signal, signum)
        self.panel.focus()
        if self._cover_first:
            # A hot-seat game taken up again: whoever sits at the keyboard now may not be the
            # one whose cards would show, so the table stays covered until they say so.
            self._cover_first = False
            to_act = self.state.seats_to_act()
            seat = to_act[0] if to_act and self.bots[to_act[0]] is None else self.seat
            self.pass_keyboard(seat, "The game goes on where it stopped.")
            return
        self.refresh_table()

    def _start_bots(self) -> None:
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                bot.new_game(seat)

    # --- what panels call -----------------------------------------------------------------------

    def submit(self, action: Action, seat: int | None = None) -> None:
        """Apply an action for a person (the panel's seat by default), or say why it is refused."""
        who = self.seat if seat is None else seat
        if self.watching or who not in self.people:
            self.refuse("You are watching: the bots play every seat.")
            return
        if self.state.is_over():
            self.refuse("The game is over.")
            return
        if self._paused_at is not None:
            return
        with self._guard():
            try:
                self._apply(who, action)
            except IllegalAction as exc:
                self.refuse(self.panels.get(who, self.panel).refusal(action, str(exc)))
                return
        self._note_since = 0.0  # your move answers the last refusal
        self.after_change()

    def say(self, message: str) -> None:
        """Add a line to the log of the person at the keyboard."""
        line = Text(message)
        self.logs.setdefault(self.seat, []).append(line)
        if self._mounted:
            self.query_one("#log", RichLog).write(line)

    def refuse(self, message: str) -> None:
        """Say in the status line (and the log) why a key did nothing, with a bell."""
        self.say(message)
        self._status_note = Text(message, style="bold red")
        self._note_since = time.monotonic()
        self.update_status()
        self.bell()

    # --- the clock and pauses -------------------------------------------------------------------

    def now(self) -> float:
        """The game's time in seconds: from its start, without the pauses."""
        end = self._paused_at if self._paused_at is not None else time.monotonic()
        return max(0.0, end - self.started)

    @property
    def paused(self) -> bool:
        """True while a screen over the table (help, leave, reveal...) holds the game."""
        return self._paused_at is not None

    def pause(self) -> None:
        """Hold the game: the clock stops and no bot moves."""
        if self._paused_at is None:
            self._paused_at = time.monotonic()
        self._stop_bots()

    def unpause(self) -> None:
        """Go on after :meth:`pause`; real-time bots see the table afresh."""
        if self._paused_at is not None:
            self.started += time.monotonic() - self._paused_at
            self._paused_at = None
        self.refresh_table()

    def open_screen(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Show ``screen`` over the table, the game held until it closes; then ``then(result)``."""
        self.pause()

        def closed(result: Any) -> None:
            if then is not None:
                then(result)
            else:
                self.unpause()

        self.push_screen(screen, callback=closed)

    def _stop_bots(self) -> None:
        for timer in self._bot_timers.values():
            timer.stop()
        self._bot_timers.clear()
        self._pending.clear()

    # --- the loop -------------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Redraw the table for the person at the keyboard and set the next move going."""
        state = self.state
        to_act = state.seats_to_act()
        legal = state.legal_actions(self.seat) if self.seat in to_act else []
        observation = state.observation(self.seat)
        mark = len(self.logs.get(self.seat, []))
        ended = self._stage_ends.pop(self.seat, None)
        if ended is not None:
            self.panel.stage_over(ended)
        self.panel.show(observation, legal, to_act)
        said = self.logs.get(self.seat, [])[mark:]
        if time.monotonic() - self._note_since > NOTE_SECONDS:
            self._status_note = None  # a refusal stays a few seconds, even in real time
        self.update_status()
        stage = state.stage()
        new_events = self._new_events(observation)
        if state.is_over():
            self.finish()
            return
        if self.paused:
            return
        if stage != self._stage:
            self._stage = stage
            out = self._all_out()
            if self.reveal and not (out and self._out_shown):
                # Every round is shown until the one the people went out in; later ones,
                # played by bots alone, go by without waiting for a key.
                self._out_shown = out
                self.show_reveal(observation, new_events, said)
                return
        if self.game.real_time:
            self.schedule_reactions()
            return
        seat = to_act[0]
        bot = self.bots[seat]
        if bot is None:
            self._fast = False
            if seat != self.seat:
                self.pass_keyboard(seat)
        elif seat not in self._bot_timers:
            delay = 0.001 if self._fast else max(0.001, self.bot_pause)
            self._bot_timers[seat] = self.set_timer(delay, lambda: self.bot_move(seat))

    def _new_events(self, observation: dict[str, Any]) -> list[Any]:
        """The events in ``observation`` that the last one did not hold."""
        events_now = observation.get("events")
        if not isinstance(events_now, list):
            return []
        before = self._events_before
        self._events_before = list(events_now)
        if len(before) <= len(events_now) and events_now[: len(before)] == before:
            return events_now[len(before) :]
        return list(events_now)

    def _apply(self, seat: int, action: Action) -> None:
        """Apply an action now.  Where it ends a round and deals the next at once (a panel with
        ``shows_stage_end``), it is played again on a copy that stops at the round's end, and
        each person's view of that end is kept for their panel."""
        state = self.state
        if not self.panel.shows_stage_end:
            state.apply(seat, action, time=self.now())
            return
        before = state.clone()
        stage = state.stage()
        when = self.now()
        state.apply(seat, action, time=when)
        if state.stage() != stage and not state.is_over():
            before.only_scored_after(stage)
            before.apply(seat, action, time=when)
            for person in self.people:
                self._stage_ends[person] = before.observation(person)

    def _all_out(self) -> bool:
        """True when no person at the keyboard can act again in this game."""
        return all(self.panels[p].is_out(self.state.observation(p)) for p in self.people)

    def after_change(self) -> None:
        """Called after every applied action."""
        self.refresh_table()

    def bot_move(self, seat: int) -> None:
        """A turn-based bot takes its turn."""
        self._bot_timers.pop(seat, None)
        if self.paused or self.state.is_over() or seat not in self.state.seats_to_act():
            return
        bot = self.bots[seat]
        assert bot is not None
        with self._guard():
            action = bot.act(SeatView(self.state, seat, self.now()))
            self._apply(seat, action)
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
            with self._guard():
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
        if action is None or self.paused or self.state.is_over():
            return
        with self._guard():
            if self.state.is_legal(seat, action):
                self._apply(seat, action)
        self.after_change()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Save the record if a bot or the rules fail unexpectedly (then let the error show)."""
        try:
            yield
        except IllegalAction:
            raise
        except Exception:
            self.save_progress()
            raise

    # --- hot-seat -------------------------------------------------------------------------------

    def pass_keyboard(self, seat: int, why: str | None = None) -> None:
        """Cover the table until ``seat``'s person is at the keyboard, then show them theirs."""
        why = why or f"It is {self.names[seat]}'s turn."

        def taken(_: Any) -> None:
            self.switch_person(seat)
            self.unpause()

        self.open_screen(PassScreen(self.names[seat], why), taken)

    def switch_person(self, seat: int) -> None:
        """Show ``seat``'s panel and log (each person sees only their own)."""
        if seat == self.seat:
            return
        self.panel.display = False
        self.seat = seat
        self.panel = self.panels[seat]
        self.panel.display = True
        self.panel.focus()
        self._events_before = []
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in self.logs.get(seat, []):
            log.write(line)
        self.sub_title = self._subtitle()

    # --- status ---------------------------------------------------------------------------------

    def update_status(self) -> None:
        """The status line (a refusal, or whose move it is and the pace) and the keys line."""
        if not self._mounted:
            return
        status = self._status_note or self._status_text()
        self.query_one("#status", Static).update(status)
        keys = self.panel.help_line() if not self._finished else ""
        extra = "? help"
        if not self._finished and not self.game.real_time:
            extra += " · f fast-forward · +/- pace"
        if self._finished:
            extra = "enter results · r rematch · n new game · ? help"
        keys = keys.replace(" · ctrl+q quit", "").replace("ctrl+q quit", "").strip(" ·")
        line = f"{keys} · {extra} · ctrl+q quit" if keys else f"{extra} · ctrl+q quit"
        self.query_one("#hint", Static).update(Text(line))

    def _status_text(self) -> Text:
        state = self.state
        if state.is_over():
            return Text("Game over.", style="bold")
        if self.paused:
            return Text("Paused.")
        to_act = state.seats_to_act()
        if self.game.real_time:
            return Text("Real time: the bots play at their own pace.")
        seat = to_act[0]
        if seat == self.seat:
            return Text("Your move.", style="bold yellow")
        who = self.names[seat]
        if self.bots[seat] is None:
            return Text(f"{who} to move.")
        if self._fast:
            return Text(f"Fast-forward: {who} is thinking... (your turn stops it)")
        return Text(f"{who} to move (bots wait {self.bot_pause:g} s: +/- to change, f to skip).")

    # --- app keys -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys for after a game (r, n, enter) work only once it is over."""
        if action == "after":
            return self._finished and not self.paused
        return True

    def action_after(self, what: str) -> None:
        if what == "result":
            self.show_result()
        else:
            self.choose_after(what)

    def action_leave(self) -> None:
        """Ctrl+Q: leave at once when the game is over, else ask first (the game is saved)."""
        if self.state.is_over():
            self.exit()
            return
        where = None if self.record_dir is None else str(self.record_dir)

        def answered(leave: Any) -> None:
            if leave:
                self.save_progress()
                self.exit()
            else:
                self.unpause()

        self.open_screen(ConfirmQuit(where), answered)

    def action_help(self) -> None:
        """?: the keys (the game's and the app's) and the rules of the game being played."""
        grouped: dict[tuple[bool, str], list[str]] = {}
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if active.node not in (self.panel, self) or binding.action.startswith("after"):
                continue
            label = self.get_key_display(binding)
            if not binding.description or binding.description == label:
                continue  # digits and the like: the short line below names them
            labels = grouped.setdefault((active.node is self, binding.description), [])
            if label not in labels:
                labels.append(label)
        keys = [KeyHelp(" ".join(labels), what) for (_, what), labels in grouped.items()]
        line = self.panel.help_line()
        rules = (f"**Keys in short:** {line}\n\n" if line else "") + self._options_text()
        rules += player_rules(self.game.rules())
        self.open_screen(HelpScreen(self.game.title, keys, rules))

    def _options_text(self) -> str:
        """The options of the game in play, and how to choose them next time (Markdown)."""
        specs = self.game.option_specs
        if not specs:
            return ""
        lines = [
            f"**This game's options** (next time: `ratgames play {self.game.id} -o name=value`):",
            "",
        ]
        for spec in specs:
            value = self.game.options.get(spec.name, spec.default)
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f"* `{spec.name}={shown}`: {spec.help}")
        return "\n".join(lines) + "\n\n"

    def action_fast_forward(self) -> None:
        """f: bots move at once until a person's turn (or, in real time, play out a game that no
        person can act in any more)."""
        if self.state.is_over():
            return
        if self.game.real_time:
            acting = self.state.seats_to_act()
            if not self.watching and any(p in acting for p in self.people):
                self.refuse("Fast-forward works in real time only once you cannot act any more.")
                return
            self._play_out_real_time()
            return
        to_act = self.state.seats_to_act()
        if self.bots[to_act[0]] is None:
            self.refuse("It is your move: fast-forward runs the bots until your next turn.")
            return
        self._fast = True
        for seat, timer in list(self._bot_timers.items()):
            timer.stop()
            self._bot_timers.pop(seat)
        self.refresh_table()

    def _play_out_real_time(self) -> None:
        """Play the rest of a real-time game at once, on a simulated clock that starts now: each
        bot's reaction arrives after its delay, the earliest first (as in simulation)."""
        self._stop_bots()
        state = self.state
        now = self.now()
        pending: dict[int, tuple[float, int, Action]] = {}
        order = 0
        with self._guard():
            for _ in range(MAX_PLAY_OUT):
                if state.is_over():
                    break
                for seat in list(pending):
                    if not state.is_legal(seat, pending[seat][2]):
                        del pending[seat]
                for seat in state.seats_to_act():
                    bot = self.bots[seat]
                    if bot is None or seat in pending:
                        continue
                    reaction = bot.react(SeatView(state, seat, now))
                    if reaction is not None:
                        order += 1
                        pending[seat] = (now + max(0.0, reaction.delay), order, reaction.action)
                if not pending:
                    break
                seat = min(pending, key=lambda s: pending[s][:2])
                arrival, _, action = pending.pop(seat)
                now = max(now, arrival)
                state.apply(seat, action, time=now)
        self.started = time.monotonic() - now
        self.after_change()

    def action_pace(self, step: int) -> None:
        """+/-: how long bots wait before a turn-based move."""
        if self.game.real_time:
            self.refuse("In real time the bots play at their own pace.")
            return
        nearest = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.bot_pause))
        self.bot_pause = PACES[max(0, min(len(PACES) - 1, nearest + step))]
        self.update_status()

    async def run_action(
        self,
        action: Any,
        default_namespace: Any = None,
        namespaces: Any = None,
    ) -> bool:
        """Run a key's action; when a panel's key changed nothing but said something in the log
        (the panel's way of saying why not), that goes to the status line too."""
        panel_key = isinstance(default_namespace, GamePanel)
        moves = len(self.state.events())
        log = self.logs.get(self.seat, [])
        said = len(log)
        since = self._note_since
        handled = await super().run_action(action, default_namespace, namespaces)
        if panel_key and len(self.state.events()) == moves and self._note_since == since:
            log = self.logs.get(self.seat, [])
            if len(log) > said:
                self._status_note = Text(log[-1].plain, style="bold red")
                self._note_since = time.monotonic()
                self.update_status()
        return handled

    def on_key(self, event: events.Key) -> None:
        """A key bound to nothing: say so in the status line."""
        if len(self.screen_stack) > 1 or event.key in QUIET_KEYS:
            return
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        if not (event.is_printable or event.key.startswith(("ctrl+", "f"))):
            return
        shown = event.character if event.is_printable and event.character else event.key
        self.refuse(f"The key {shown!r} does nothing here: press ? for the keys and the rules.")

    # --- between rounds and at the end ----------------------------------------------------------

    def show_reveal(
        self, observation: dict[str, Any], new_events: list[Any], said: Sequence[Text] = ()
    ) -> None:
        """Between rounds: everyone's cards and the scores, until a key.  What it shows: the
        panel's :meth:`~ratgames.tui.base.GamePanel.round_summary`, else what the panel said
        in the log as the round ended, else the round's last events in words."""
        body = self.panel.round_summary(observation)
        if body is None and said:
            body = Text("\n").join(said[-14:])
        if body is None:
            viewer = self.seat if len(self.people) == 1 else None
            lines = [self._event_line(e, viewer) for e in new_events[-14:]]
            body = "\n".join(line for line in lines if line) or "A new round begins."
        self.open_screen(TextScreen(f"{self.panel.stage_word} {self._stage} is over", body))

    def _event_line(self, event: Any, viewer: int | None) -> str:
        if not isinstance(event, dict):
            return ""
        try:
            return self.game.describe_event(event, viewer)
        except (KeyError, ValueError, TypeError, AttributeError, ImportError):
            # A game whose events are not yet in the common schema: say nothing rather than fail.
            return ""

    def finish(self) -> None:
        """Save the finished game, tell the outcome, and offer a rematch or a new game."""
        self._stop_bots()
        if self._finished:
            return
        self._finished = True
        outcome = self.state.outcome()
        assert outcome is not None
        winners = ", ".join(self.names[w] for w in outcome.winners) or "nobody"
        self.say(f"Game over ({outcome.reason}). Winner: {winners}.")
        points = "  ".join(f"{self.names[s]}: {p:g}" for s, p in enumerate(outcome.points))
        self.say(f"{self.game.points_label.capitalize()}: {points}")
        path = self.save_progress()
        if path is not None:
            self.say(f"Record saved to {path}  ({command()} replay {path})")
        self.update_status()
        self.call_later(self.show_result)

    def show_result(self) -> None:
        """The result screen: winner, places and points; rematch, new game, look, or quit."""
        if not self._finished or self.paused:
            return
        body = _places_text(self.game, self.names, self.state)
        if self.record_path is not None:
            body.append(f"\nSaved: {self.record_path}", style="dim")
        self.open_screen(ResultScreen("Game over", body), self.choose_after)

    def choose_after(self, what: Any) -> None:
        """What to do after a game: ``rematch``, ``new``, ``quit`` or ``table`` (look at it)."""
        self._paused_at = None
        if what == "quit":
            self.exit()
        elif what == "rematch":
            self.rematch()
        elif what == "new":
            self.choose_new_game()
        else:
            self.update_status()

    def rematch(self) -> None:
        """The same game, seats and bots, with a new shuffle."""
        seed = int.from_bytes(os.urandom(4), "little")
        specs = [None if b is None else b.describe() for b in self.bots]
        self.start_game(self.game, specs, seed, list(self.names))

    def choose_new_game(self) -> None:
        """Ask for a game, a player count and a level, then start it."""
        from ratgames.core.registry import game_class, game_ids
        from ratgames.levels import LEVEL_NAMES

        choices = []
        for gid in game_ids():
            cls = game_class(gid)
            if gid.startswith("test-"):
                continue
            choices.append((gid, cls.title, cls.min_players, cls.max_players, cls.default_players))
        if not any(c[0] == self.game.id for c in choices):
            choices.insert(
                0,
                (
                    self.game.id,
                    self.game.title,
                    self.game.min_players,
                    self.game.max_players,
                    self.game.players,
                ),
            )
        level = self.level or "normal"

        def chosen(result: Any) -> None:
            self._paused_at = None
            if not isinstance(result, dict):
                self.update_status()
                return
            self.new_game(result["game"], int(result["players"]), result["level"])

        self.open_screen(
            NewGameScreen(choices, self.game.id, self.game.players, level, LEVEL_NAMES), chosen
        )

    def new_game(self, game_id: str, players: int, level: str) -> None:
        """Start ``game_id`` for ``players`` with bots of ``level`` and the same people."""
        from ratgames.core.registry import get_game
        from ratgames.levels import level_bot

        game = get_game(game_id, players=players)
        people = min(len(self.people), players)
        spec = level_bot(game_id, level)
        specs: list[str | None] = [None] * people + [spec] * (players - people)
        names = self._names_for(game, specs)
        self.level = level
        seed = int.from_bytes(os.urandom(4), "little")
        self.start_game(game, specs, seed, names)

    @staticmethod
    def _names_for(game: Game, specs: Sequence[str | None]) -> list[str]:
        people = sum(1 for s in specs if s is None)
        names = []
        for s, spec in enumerate(specs):
            if spec is None:
                names.append("You" if people == 1 else game.seat_name(s))
            else:
                names.append(f"{game.seat_name(s)} ({spec.partition(':')[0]})")
        return names

    def start_game(
        self, game: Game, specs: Sequence[str | None], seed: int, names: list[str]
    ) -> None:
        """Replace the finished game by a new one (a new record, new panels)."""
        bots: list[Bot | None] = []
        seeds: list[int | None] = []
        for s, spec in enumerate(specs):
            if spec is None:
                bots.append(None)
                seeds.append(None)
            else:
                bots.append(make_bot(game, spec, seed=seed + s))
                seeds.append(seed + s)
        self._stop_bots()
        self._fast = False
        self._paused_at = None
        old = list(self._unique_panels())
        self._setup(game, bots, seed, self.seat, names, None, seeds, 0.0, None)
        table = self.query_one("#table", VerticalScroll)
        for panel in old:
            panel.remove()
        table.mount(*self._unique_panels())
        self.query_one("#log", RichLog).clear()
        self._start_bots()
        self.say(f"A new game of {game.title}.")
        self.panel.focus()
        self.call_after_refresh(self.refresh_table)

    # --- records --------------------------------------------------------------------------------

    def make_record(self) -> dict[str, Any]:
        """The record of this game: who sat where (bots with their seed and random numbers), and
        the game's clock, so that an unfinished game can be taken up again exactly."""
        play: dict[str, Any] = {
            "clock": round(self.now(), 4),
            "saved": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        }
        if self.level is not None:
            play["level"] = self.level
        return self.state.record(seat_entries(self.bots, self.names, self.seeds), play=play)

    def record_file(self) -> Path:
        """Where this game's record goes first (a free name is taken if it exists)."""
        assert self.record_dir is not None
        return self.record_dir / f"{record_stem(self.game.id, self.state.seed)}.json"

    def save_progress(self) -> Path | None:
        """Save the record now if anything happened since the last save; where it is."""
        if self.record_dir is None:
            return None
        length = len(self.state.events())
        if length == self._saved_length and self.record_path is not None:
            return self.record_path
        record = self.make_record()
        if self.record_path is None:
            self.record_path = save_record(record, self.record_file())
            self.saved.append(self.record_path)
        else:
            save_record(record, self.record_path, overwrite=True)
            if self.record_path not in self.saved:
                self.saved.append(self.record_path)
        self._saved_length = length
        return self.record_path

    def stop_on_signal(self, signum: int) -> None:
        """SIGTERM or SIGHUP: save the game and stop (exit code 128 + the signal's number)."""
        self.save_progress()
        self.exit(return_code=128 + signum)
