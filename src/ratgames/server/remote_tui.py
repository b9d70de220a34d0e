"""``ratgames join``: a seat of a remote table in the terminal, with the games' own panels.

The panel of each game (``ratgames.games.<game>.tui.Panel``) draws the seat's observation and
turns keys into actions exactly as in ``ratgames play``; here its actions go to the server, and
the observations come from it.  A spectator sees the game's text picture of the spectator view.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Header, RichLog, Static

from ratgames.core.errors import RatgamesError
from ratgames.core.game import Action
from ratgames.core.registry import get_game
from ratgames.tui.base import GamePanel, panel_class, player_rules, render_view
from ratgames.tui.play import QUIET_KEYS
from ratgames.tui.screens import ConfirmQuit, HelpScreen, KeyHelp

from .client import ClientError, TableClient
from .remote_bot import missing_text, result_text

WATCHING = "You are watching this table as a spectator: you see no one's hand and cannot act."


class RemoteApp(App[None]):
    """One seat (or a spectator) of a table on a server."""

    TITLE = "ratgames"
    CSS = """
    #table { height: auto; }
    #log { height: 1fr; min-height: 5; border-top: solid $primary; }
    #status { height: auto; background: $boost; padding: 0 1; }
    #hint { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "Quit", priority=True),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+s", "start", "Start the game (host)"),
        Binding("ctrl+b", "bots", "Bots in the open seats (host; late seats during play)"),
    ]

    def __init__(
        self,
        base: str,
        code: str,
        info: dict[str, Any],
        *,
        seat: int | None,
        token: str | None,
        host_token: str | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(info["game"], players=info["players"], options=info["options"])
        self.names = [self.game.seat_name(s) for s in range(self.game.players)]
        plain_name = self.game.seat_name
        # The panels and the events' sentences name seats as the table does (its players'
        # names, as the lobby shows them).
        self.game.seat_name = lambda s: (  # type: ignore[method-assign,assignment]
            self.names[s] if 0 <= s < len(self.names) else plain_name(s)
        )
        self.seat = seat
        self.is_host = host_token is not None
        self.client = TableClient(
            base, code, token, host_token, reconnect=True, on_message=self._message
        )
        self.code = code
        self.table_info: dict[str, Any] = info
        who = "watching" if seat is None else f"seat {seat + 1}"
        self.sub_title = f"{self.game.title} at table {code} ({who})"
        self.panel: GamePanel | None = None
        if seat is not None:
            panel_cls = panel_class(self.game)
            memory_aid = bool(self.game.options.get("memory_aid", False))
            self.panel = panel_cls(self.game, seat, self, memory_aid=memory_aid)
        self.picture = Static(id="picture")
        self.last_status: Text | None = None
        self.note: str | None = None
        self.note_since = 0.0
        self.logged_events = 0
        """How many of the server's event lines a spectator was shown (a new connection is sent
        the whole history again: only the ones past this are new)."""
        self.connection_events = 0
        self.ready = False
        self.early_lines: list[str] = []
        self.race_seen: dict[int, float] = {}
        """Real time: when each race version was first shown here (the client's clock, ms)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="table"):
            if self.panel is not None:
                yield self.panel
            else:
                yield self.picture
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static("connecting...", id="status")
        yield Static(self.hint_text(), id="hint")

    async def on_mount(self) -> None:
        self.ready = True
        self.update_status()
        if self.panel is not None:
            self.panel.focus()
        else:
            self.say(WATCHING)
        if self.seat is not None and self.client.token:
            self.say(
                f"Your seat link (to play this seat from another computer or a browser; keep it "
                f"secret): {self.seat_link(self.client.token)}"
            )
        if self.is_host and self.table_info.get("status") == "lobby":
            link = self.client.base.rstrip("/") + str(
                self.table_info.get("link") or f"/t/{self.code}"
            )
            self.say(f"You host table {self.code}. Invite friends with the link {link}")
        try:
            await self.client.connect()
        except (TimeoutError, ClientError) as exc:
            self.say(f"Cannot connect: {exc}")

    def seat_link(self, token: str) -> str:
        """The seat link of ``token``: the table's link with the token in its fragment."""
        return f"{self.client.base.rstrip('/')}/t/{self.code}#seat={token}"

    async def on_unmount(self) -> None:
        await self.client.close()

    # --- what panels call -----------------------------------------------------------------------

    def submit(self, action: Action, seat: int | None = None) -> None:
        """Send an action; a refusal is reported in the status line and the log."""
        if self.seat is None:
            self.refuse(WATCHING)
            return
        pressed = TableClient.clock() if self.game.real_time else None
        seen = self.seen_for(str(action))
        asyncio.get_running_loop().create_task(self._send(action, pressed, seen))

    def seen_for(self, text: str) -> float | None:
        """When this screen showed what action ``text`` reacts to (the client's clock, ms): for
        a race action (one the game names a race version for, ``Game.race_aim``) the moment
        that version was first drawn (the panel may name one older than the latest, see the
        game's rules on reaction time), else the latest state."""
        try:
            version = self.game.race_aim(self.game.parse_action(text))
        except RatgamesError:
            version = None
        if version is not None:
            seen = self.race_seen.get(version)
            if seen is not None:
                return seen
        state = self.client.state
        return self.client.seen_at.get(state["seq"]) if state else None

    async def _send(self, action: Action, pressed: float | None, seen: float | None) -> None:
        try:
            await self.client.act(
                str(action), pressed_at=pressed, seen_at=seen if pressed is not None else None
            )
        except ClientError as exc:
            if exc.code == "illegal_action" and self.panel is not None:
                self.refuse(self.panel.refusal(action, exc.message))
            else:
                self.refuse(f"Not allowed: {exc.message}")
        except TimeoutError:
            self.refuse("No answer from the server.")

    def say(self, message: str) -> None:
        """Add a line to the message log (kept until the log is on the screen)."""
        self.early_lines.append(message)
        if len(self.early_lines) == 1:
            self.call_after_refresh(self._write_lines)

    def _write_lines(self) -> None:
        try:
            log = self.query_one("#log", RichLog)
        except NoMatches:  # not composed yet
            self.call_after_refresh(self._write_lines)
            return
        lines, self.early_lines = self.early_lines, []
        for line in lines:
            log.write(Text(line))

    def refuse(self, message: str) -> None:
        """A key that does nothing now: say why in the status line (and the log), with a bell."""
        self.say(message)
        self.note = message
        self.note_since = time.monotonic()
        self.update_status()
        self.bell()

    # --- messages from the server ---------------------------------------------------------------

    def _message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "state":
            self._state(msg)
        elif kind in ("table", "welcome"):
            if kind == "welcome":
                self.connection_events = 0
            self._table(msg["table"])
        elif kind == "chat":
            self.say(f"{msg['name']}: {msg['text']}")
        elif kind == "rematch":
            self.say(f"Rematch at table {msg['table']}: ratgames join {msg['table']}")
        elif kind == "seat_link":
            who = self.names[msg["seat"]] if 0 <= msg["seat"] < len(self.names) else "the seat"
            self.say(f"New seat link for {who}: {self.seat_link(msg['token'])}")
        elif kind == "error" and msg.get("ref") is None:
            if msg.get("code") == "bad_token" and self.seat is not None:
                # The same token would be refused again, or take the seat back from the
                # window that has it now: no reconnecting.
                self.client.reconnect = False
                if "taken over" in msg["message"]:
                    advice = "This seat is now played from another window or device."
                else:
                    advice = (
                        "This seat's link no longer works here (the host may have given out a "
                        "new one): ask the host for your new seat link and run "
                        "'ratgames join LINK'."
                    )
                self.refuse(f"Server: {msg['message']}.  {advice}")
            else:
                self.refuse(f"Server: {msg['message']}")

    def note_race(self, msg: dict[str, Any]) -> None:
        """Remember when a ``state`` showing a new race version came (real-time games)."""
        version = msg.get("race_version")
        if isinstance(version, int):
            seen = self.client.seen_at.get(msg["seq"])
            if seen is not None:
                self.race_seen.setdefault(version, seen)
                if len(self.race_seen) > 64:
                    for old in sorted(self.race_seen)[:32]:
                        del self.race_seen[old]

    def _state(self, msg: dict[str, Any]) -> None:
        self.note_race(msg)
        if self.panel is not None and msg["observation"] is not None:
            # The panel tells the seat's events itself (as in local play), once each: the
            # server's sentences for them would say everything twice.
            legal = [self.game.parse_action(t) for t in msg["legal"]]
            self.panel.show(msg["observation"], legal, list(msg["to_act"]))
        else:
            for item in msg["events"]:
                self.connection_events += 1
                if self.connection_events > self.logged_events and item.get("text"):
                    self.say(item["text"])
            self.logged_events = max(self.logged_events, self.connection_events)
            if msg["view"] is not None:
                self.picture.update(Text(render_view(self.game, msg["view"])))
        outcome = msg.get("outcome")
        if outcome is not None:
            self.say(
                "Game over: "
                + result_text(self.game, outcome, self.seat, self.table_info)
                + ". Ctrl+Q to leave."
            )
        self.update_status()

    def _table(self, table: dict[str, Any]) -> None:
        self.table_info = table
        for s in table["seats"]:
            if s.get("name") and 0 <= s["seat"] < len(self.names):
                self.names[s["seat"]] = str(s["name"])
        self.update_status()

    # --- the status and keys lines ----------------------------------------------------------------

    def status_text(self) -> Text:
        """Where the table stands: who is missing before the start, whose move, the end."""
        table = self.table_info
        status = table.get("status")
        text = Text()
        if self.seat is None:
            text.append("Watching (spectator). ", style="bold")
        if not self.client.connected and self.client.connections > 0:
            text.append("Connection lost: reconnecting...", style="bold red")
            return text
        if status == "lobby":
            text.append("Waiting for the start" + missing_text(needed_seats(table)) + ". ")
            late = [s for s in table.get("seats", []) if s.get("late")]
            if late:
                text.append(f"{late_words(late, self.names)} for late arrivals (may stay open). ")
            if self.is_host:
                text.append("You host: ctrl+s starts the game.", style="bold yellow")
            else:
                text.append("The host starts the game.")
            return text
        state = self.client.state
        if state is not None and state.get("outcome") is not None:
            text.append("Game over.", style="bold")
            return text
        if state is not None:
            to_act = [int(s) for s in state.get("to_act", [])]
            if self.seat is not None and state.get("legal"):
                text.append("Your move.", style="bold yellow")
            elif to_act and not self.game.real_time:
                text.append(f"{self.names[to_act[0]]} to move.")
            else:
                text.append("Playing.")
        open_late = [s for s in table.get("seats", []) if s.get("late") and s.get("kind") == "open"]
        if open_late and not (state is not None and state.get("outcome") is not None):
            text.append(f" {late_words(open_late, self.names)} open for a late arrival: ")
            if self.seat is None:
                text.append(f"'ratgames join {self.code}' takes it.", style="bold")
            else:
                text.append(f"'ratgames join {self.code}' or the invite link.")
            if self.is_host:
                text.append(" ctrl+b seats a bot there.", style="bold yellow")
        away = [s for s in table.get("seats", []) if s.get("kind") == "person"]
        away = [s for s in away if not s.get("connected")]
        if away:
            who = ", ".join(self.names[s["seat"]] for s in away)
            text.append(f" Away: {who}.")
        return text

    def update_status(self) -> None:
        if not self.ready:
            return
        if self.note is not None and time.monotonic() - self.note_since < 4.0:
            shown = Text(self.note, style="bold red")
        else:
            self.note = None
            shown = self.status_text()
        if shown != self.last_status:
            self.last_status = shown
            self.query_one("#status", Static).update(shown)
        self.query_one("#hint", Static).update(self.hint_text())

    def hint_text(self) -> Text:
        """The keys line: the game's keys (as in local play), then the app's."""
        keys = self.panel.help_line() if self.panel is not None else ""
        keys = keys.replace(" · ctrl+q quit", "").replace("ctrl+q quit", "").strip(" ·")
        extra = "? help"
        if self.is_host and self.table_info.get("status") == "lobby":
            extra += " · ctrl+s start"
        late_open = any(
            s.get("late") and s.get("kind") == "open" for s in self.table_info.get("seats", [])
        )
        if self.is_host and self.table_info.get("status") == "playing" and late_open:
            extra += " · ctrl+b bot in the late seat"
        return Text(f"{keys} · {extra} · ctrl+q quit" if keys else f"{extra} · ctrl+q quit")

    # --- app keys -------------------------------------------------------------------------------

    def action_start(self) -> None:
        """ctrl+s: the host starts the game (once every seat is taken)."""
        if not self.is_host:
            self.refuse("Only the host starts the game.")
            return
        table = self.table_info
        if table.get("status") != "lobby":
            self.refuse("The game has already started.")
            return
        needed = needed_seats(table)
        missing = [s for s in needed["seats"] if s.get("kind") == "open"]
        if missing:
            self.refuse(
                "The game cannot start yet: still missing"
                + missing_text(needed).split("still missing", 1)[1].rstrip(")")
                + "."
            )
            return
        self.client.host("start")
        self.say("Starting the game...")

    def action_bots(self) -> None:
        """ctrl+b: the host seats bots (the normal level) in the open seats: before the start
        every open one, during play the open seats for late arrivals (they come in as the
        rules say)."""
        if not self.is_host:
            self.refuse("Only the host seats bots.")
            return
        table = self.table_info
        seats = table.get("seats", [])
        if table.get("status") == "lobby":
            wanted = [s for s in seats if s.get("kind") == "open"]
        elif table.get("status") == "playing":
            wanted = [s for s in seats if s.get("kind") == "open" and s.get("late")]
        else:
            wanted = []
        if not wanted:
            self.refuse(
                "No open seat for a bot"
                + (" (once the game has started, only seats for late arrivals)" if seats else "")
                + "."
            )
            return
        self.client.host("fill_bots", bot="normal")
        where = ", ".join(str(s["seat"] + 1) for s in wanted)
        self.say(f"Seating bots (normal level) in seat{'s' if len(wanted) > 1 else ''} {where}.")

    def action_leave(self) -> None:
        """ctrl+q: leave at once when the game is over or not started, else ask first."""
        state = self.client.state
        over = state is not None and state.get("outcome") is not None
        if self.seat is None or over or self.table_info.get("status") != "playing":
            self.exit()
            return
        body = (
            f"Your seat stays yours: 'ratgames join {self.code}' takes it up again.  While "
            "you are away the table's timeout policy applies (a bot may play for you)."
        )

        def answered(leave: Any) -> None:
            if leave:
                self.exit()

        self.push_screen(ConfirmQuit(None, body), answered)

    def action_help(self) -> None:
        """?: the keys (the game's and the app's) and the rules of the game being played."""
        grouped: dict[tuple[bool, str], list[str]] = {}
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if active.node not in (self.panel, self) or not binding.description:
                continue
            label = self.get_key_display(binding)
            if binding.description == label:
                continue
            labels = grouped.setdefault((active.node is self, binding.description), [])
            if label not in labels:
                labels.append(label)
        keys = [KeyHelp(" ".join(labels), what) for (_, what), labels in grouped.items()]
        line = self.panel.help_line() if self.panel is not None else ""
        rules = (f"**Keys in short:** {line}\n\n" if line else "") + player_rules(self.game.rules())
        self.push_screen(HelpScreen(self.game.title, keys, rules))

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
        if self.seat is None:
            self.refuse(f"The key {shown!r} does nothing: you are watching. ? shows the keys.")
            return
        self.refuse(f"The key {shown!r} does nothing here: press ? for the keys and the rules.")


def needed_seats(table: dict[str, Any]) -> dict[str, Any]:
    """The table as far as its start goes: the open seats for late arrivals (the game names them,
    ``Game.late_seats``) left out, since the game may start without them."""
    seats = table.get("seats", [])
    return {**table, "seats": [s for s in seats if not (s.get("late") and s.get("kind") == "open")]}


def late_words(seats: list[dict[str, Any]], names: list[str]) -> str:
    """``"Seat 3 is"`` or ``"Seats 3, 4 are"`` (open seats by number, taken ones by name)."""
    if all(s.get("kind") == "open" for s in seats):
        numbers = ", ".join(str(s["seat"] + 1) for s in seats)
        return f"Seat {numbers} is" if len(seats) == 1 else f"Seats {numbers} are"
    labels = ", ".join(
        names[s["seat"]] if 0 <= s["seat"] < len(names) else f"seat {s['seat'] + 1}" for s in seats
    )
    return f"{labels} is" if len(seats) == 1 else f"{labels} are"
