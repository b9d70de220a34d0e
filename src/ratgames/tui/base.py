"""What a game's terminal panel is, and how it finds the game's modules."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from textual.widget import Widget

if TYPE_CHECKING:
    from ratgames.core.game import Action, Game


class Host(Protocol):
    """What a panel may ask of the app that hosts it."""

    def submit(self, action: Action) -> None:
        """Offer an action for the human seat; a refused one is reported to the player."""

    def say(self, message: str) -> None:
        """Show a line in the message log."""


class GamePanel(Widget, can_focus=True):
    """The table as one seat sees it.  Subclasses draw it and bind keys to actions.

    The app calls :meth:`show` after every change with the seat's observation, its legal actions
    and the seats that may act.  To act, a panel calls ``self.host.submit(action)``.
    """

    DEFAULT_CSS = """
    GamePanel { height: auto; min-height: 12; padding: 0 1; }
    """

    def __init__(self, game: Game, seat: int, host: Host, *, memory_aid: bool = False) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.host = host
        self.memory_aid = memory_aid

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        """Redraw for a new observation."""
        raise NotImplementedError

    def help_line(self) -> str:
        """One line naming the keys."""
        return ""


def game_module(game: Game, name: str) -> ModuleType:
    """The module ``name`` (``"tui"``, ``"render"``, ``"bots"``) of the game's own package."""
    package = type(game).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.{name}")


def render_view(game: Game, view: dict[str, Any]) -> str:
    """The game's text picture of an observation or spectator view."""
    text: str = game_module(game, "render").render(game, view)
    return text
