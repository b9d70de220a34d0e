"""``ratgames join``: a seat of a remote table in the terminal, with the games' own panels.

The panel of each game (``ratgames.games.<game>.tui.Panel``) draws the seat's observation and
turns keys into actions exactly as in ``ratgames play``; here its actions go to the server, and
the observations come from it.  A spectator sees the game's text picture of the spectator view.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Header, RichLog, Static

from ratgames.core.game import Action
from ratgames.core.registry import get_game
from ratgames.tui.base import GamePanel, game_module, render_view

from .client import ClientError, TableClient


class RemoteApp(App[None]):
    """One seat (or a spectator) of a table on a server."""

    TITLE = "ratgames"
    CSS = """
    #table { height: auto; }
    #log { height: 1fr; min-height: 5; border-top: solid $primary; }
    #status { height: 1; background: $boost; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        base: str,
        code: str,
        info: dict[str, Any],
        *,
        seat: int | None,
        token: str | None,
    ) -> None:
        super().__init__()
        self.game = get_game(info["game"], players=info["players"], options=info["options"])
        self.seat = seat
        self.client = TableClient(base, code, token, reconnect=True, on_message=self._message)
        self.code = code
        who = "watching" if seat is None else f"seat {seat + 1}"
        self.sub_title = f"{self.game.title} at table {code} ({who})"
        self.panel: GamePanel | None = None
        if seat is not None:
            panel_cls = game_module(self.game, "tui").Panel
            memory_aid = bool(self.game.options.get("memory_aid", False))
            self.panel = panel_cls(self.game, seat, self, memory_aid=memory_aid)
        self.picture = Static(id="picture")
        self.last_status = ""
        self.pile_seen: dict[int, float] = {}
        """Real time: when each pile version was first shown here (the client's clock, ms)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="table"):
            if self.panel is not None:
                yield self.panel
            else:
                yield self.picture
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static("connecting...", id="status")
        yield Footer()

    async def on_mount(self) -> None:
        if self.panel is not None:
            self.panel.focus()
        try:
            await self.client.connect()
        except (TimeoutError, ClientError) as exc:
            self.say(f"Cannot connect: {exc}")

    async def on_unmount(self) -> None:
        await self.client.close()

    # --- what panels call -----------------------------------------------------------------------

    def submit(self, action: Action) -> None:
        """Send an action; a refusal is reported in the log."""
        pressed = TableClient.clock() if self.game.real_time else None
        seen = self.seen_for(str(action))
        asyncio.get_running_loop().create_task(self._send(str(action), pressed, seen))

    def seen_for(self, text: str) -> float | None:
        """When this screen showed what action ``text`` reacts to (the client's clock, ms): for
        ``slap@N`` the moment pile version N was first drawn (the panel may name a pile older
        than the latest one, see the game's rules on reaction time), else the latest state."""
        if text.startswith("slap@") and text[5:].isdigit():
            seen = self.pile_seen.get(int(text[5:]))
            if seen is not None:
                return seen
        state = self.client.state
        return self.client.seen_at.get(state["seq"]) if state else None

    async def _send(self, text: str, pressed: float | None, seen: float | None) -> None:
        try:
            await self.client.act(
                text, pressed_at=pressed, seen_at=seen if pressed is not None else None
            )
        except ClientError as exc:
            self.say(f"Not allowed: {exc.message}")
            self.bell()
        except TimeoutError:
            self.say("No answer from the server.")

    def say(self, message: str) -> None:
        """Add a line to the message log."""
        self.query_one("#log", RichLog).write(Text(message))

    # --- messages from the server ---------------------------------------------------------------

    def _message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "state":
            self._state(msg)
        elif kind in ("table", "welcome"):
            self._status(msg["table"])
        elif kind == "chat":
            self.say(f"{msg['name']}: {msg['text']}")
        elif kind == "rematch":
            self.say(f"Rematch at table {msg['table']}: ratgames join {msg['table']}")
        elif kind == "error" and msg.get("ref") is None:
            self.say(f"Server: {msg['message']}")

    def note_pile(self, msg: dict[str, Any]) -> None:
        """Remember when a ``state`` showing a new pile version came (real-time games)."""
        obs = msg.get("observation")
        if isinstance(obs, dict) and isinstance(obs.get("pile_version"), int):
            seen = self.client.seen_at.get(msg["seq"])
            if seen is not None:
                self.pile_seen.setdefault(obs["pile_version"], seen)
                if len(self.pile_seen) > 64:
                    for old in sorted(self.pile_seen)[:32]:
                        del self.pile_seen[old]

    def _state(self, msg: dict[str, Any]) -> None:
        self.note_pile(msg)
        for item in msg["events"]:
            if item.get("text"):
                self.say(item["text"])
        if self.panel is not None and msg["observation"] is not None:
            legal = [self.game.parse_action(t) for t in msg["legal"]]
            self.panel.show(msg["observation"], legal, list(msg["to_act"]))
        elif msg["view"] is not None:
            self.picture.update(Text(render_view(self.game, msg["view"])))
        outcome = msg.get("outcome")
        if outcome is not None:
            winners = ", ".join(self.game.seat_name(w) for w in outcome["winners"]) or "nobody"
            self.say(f"Game over ({outcome['reason']}). Winner: {winners}. Ctrl+Q to leave.")

    def _status(self, table: dict[str, Any]) -> None:
        people = ", ".join(
            f"{s['seat'] + 1}: {s['name'] or 'open'}{'' if s['connected'] else ' (away)'}"
            for s in table["seats"]
        )
        text = f"{table['status']} · {people}"
        if text != self.last_status:
            self.last_status = text
            self.query_one("#status", Static).update(text)
