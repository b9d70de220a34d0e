"""The screens that come over the table while playing: leaving, help, passing the keyboard to the
next person, the reveal between rounds, the result of a game and the choice of a new one.

Each is modal: the game waits (bots and the clock stop) while one is open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from .session import command

MODAL_CSS = """
{name} {{ align: center middle; background: $background 60%; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; max-height: 100%;
    border: thick $primary; background: $surface; padding: 0 1;
}}
{name} .title {{ text-style: bold; color: $accent; }}
{name} .keys {{ color: $text-muted; }}
"""


class ConfirmQuit(ModalScreen[bool]):
    """Asks before leaving a game that is not over: ``y`` (or enter) leaves, ``n``/escape stays."""

    DEFAULT_CSS = MODAL_CSS.format(name="ConfirmQuit")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter,ctrl+q", "answer(True)", "Leave", priority=True),
        Binding("n,escape", "answer(False)", "Stay", priority=True),
    ]

    def __init__(self, saved_to: str | None, body: str | None = None) -> None:
        super().__init__()
        self.saved_to = saved_to
        self.body = body
        """What leaving means, said instead of the local game's saving (a remote table)."""

    def compose(self) -> ComposeResult:
        if self.body is not None:
            body = self.body
        elif self.saved_to is not None:
            body = (
                f"The game will be saved, and '{command()} play --resume' takes it up again "
                "exactly where you left it."
            )
        else:
            body = "This game is not being saved (--no-record): it will be lost."
        with Vertical():
            yield Static("Leave this game?", classes="title")
            yield Static(body, id="body")
            yield Static("y leave · n stay", classes="keys")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


@dataclass(frozen=True)
class KeyHelp:
    """One key and what it does, for the help screen."""

    key: str
    what: str


class HelpScreen(ModalScreen[None]):
    """The keys of the game and of the app, then the rules of the game being played."""

    DEFAULT_CSS = (
        MODAL_CSS.format(name="HelpScreen")
        + """
    HelpScreen > Vertical { width: 96; height: 100%; }
    HelpScreen VerticalScroll { height: 1fr; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close", priority=True),
    ]

    def __init__(self, title: str, keys: Sequence[KeyHelp], rules_markdown: str) -> None:
        super().__init__()
        self.title_text = title
        self.keys = list(keys)
        self.rules_markdown = rules_markdown

    def compose(self) -> ComposeResult:
        table = Text()
        width = max((len(k.key) for k in self.keys), default=4)
        for k in self.keys:
            table.append(f"  {k.key:<{width}}  ", style="bold")
            table.append(k.what + "\n")
        with Vertical():
            yield Static(f"{self.title_text}: keys and rules", classes="title")
            with VerticalScroll():
                yield Static(table, id="help-keys")
                yield Markdown(self.rules_markdown, id="help-rules")
            yield Static("up/down/page keys scroll · escape or ? closes", classes="keys")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(ModalScreen[None]):
    """Hot-seat play: covers the table until the next person is at the keyboard."""

    DEFAULT_CSS = (
        MODAL_CSS.format(name="PassScreen") + "PassScreen { background: $background 100%; }"
    )

    def __init__(self, name: str, why: str) -> None:
        super().__init__()
        self.person = name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Pass the keyboard to {self.person}", classes="title")
            yield Static(f"{self.why}  The cards stay hidden until {self.person} presses a key.")
            yield Static(
                f"{self.person}: press any key when only you can see the screen.", classes="keys"
            )

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)


class TextScreen(ModalScreen[None]):
    """A text that waits for a key: the reveal of everyone's cards between rounds."""

    DEFAULT_CSS = (
        MODAL_CSS.format(name="TextScreen")
        + "TextScreen VerticalScroll { height: auto; max-height: 18; }"
    )

    def __init__(self, title: str, body: Text | str, keys: str = "Press any key to go on.") -> None:
        super().__init__()
        self.heading = title
        self.body = body
        self.keys_text = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading, classes="title")
            with VerticalScroll():
                yield Static(self.body, id="body")
            yield Static(self.keys_text, classes="keys")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("up", "down", "pageup", "pagedown"):
            return
        event.stop()
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The end of a game: who won, the points and places; rematch, new game, quit, or look at
    the final table."""

    DEFAULT_CSS = MODAL_CSS.format(name="ResultScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('rematch')", "Rematch", priority=True),
        Binding("n", "choose('new')", "New game", priority=True),
        Binding("q,ctrl+q", "choose('quit')", "Quit", priority=True),
        Binding("escape,v", "choose('table')", "Look at the table", priority=True),
    ]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.heading = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading, classes="title")
            yield Static(self.body, id="body")
            yield Static("r rematch · n new game · v look at the table · q quit", classes="keys")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


@dataclass
class Choice:
    """One line of the new-game screen: its label, its values and the one chosen."""

    label: str
    values: list[str]
    index: int = 0

    @property
    def value(self) -> str:
        return self.values[self.index]


class NewGameScreen(ModalScreen["dict[str, str] | None"]):
    """Choose a game, the number of players and the bots' level; enter starts, escape goes back.

    The player counts offered follow the game chosen."""

    DEFAULT_CSS = MODAL_CSS.format(name="NewGameScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "row(-1)", "Up", priority=True),
        Binding("down", "row(1)", "Down", priority=True),
        Binding("left", "change(-1)", "Previous", priority=True),
        Binding("right,space", "change(1)", "Next", priority=True),
        Binding("enter", "start", "Start", priority=True),
        Binding("escape", "back", "Back", priority=True),
    ]

    def __init__(
        self,
        games: Sequence[tuple[str, str, int, int, int]],
        current: str,
        players: int,
        level: str,
        levels: Sequence[str],
    ) -> None:
        """``games``: (id, title, fewest players, most players, default players) of each game."""
        super().__init__()
        self.games = list(games)
        ids = [g[0] for g in self.games]
        self.game_row = Choice("Game", [g[1] for g in self.games], ids.index(current))
        self.level_row = Choice("Bots' level", list(levels), list(levels).index(level))
        self.players_row = Choice("Players", [])
        self._set_players(players)
        self.rows = [self.game_row, self.players_row, self.level_row]
        self.row = 0

    def _set_players(self, wanted: int) -> None:
        _, _, low, high, default = self.games[self.game_row.index]
        self.players_row.values = [str(n) for n in range(low, high + 1)]
        chosen = wanted if low <= wanted <= high else default
        self.players_row.index = chosen - low

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New game", classes="title")
            yield Static(id="choices")
            yield Static(
                "up/down choose a line · left/right change it · enter start · escape back",
                classes="keys",
            )

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = Text()
        for i, row in enumerate(self.rows):
            mark = "> " if i == self.row else "  "
            text.append(f"{mark}{row.label:<12}", style="bold" if i == self.row else "")
            text.append(f"< {row.value} >\n", style="reverse" if i == self.row else "")
        self.query_one("#choices", Static).update(text)

    def action_row(self, step: int) -> None:
        self.row = (self.row + step) % len(self.rows)
        self._draw()

    def action_change(self, step: int) -> None:
        row = self.rows[self.row]
        row.index = (row.index + step) % len(row.values)
        if row is self.game_row:
            self._set_players(int(self.players_row.value))
        self._draw()

    def action_start(self) -> None:
        self.dismiss(
            {
                "game": self.games[self.game_row.index][0],
                "players": self.players_row.value,
                "level": self.level_row.value,
            }
        )

    def action_back(self) -> None:
        self.dismiss(None)
