"""Test set-up: the small High Card game (ratgames.testing) is registered for every test, so the
generic suite and the tool tests can run it beside the real games.

It also gives the terminal (Textual Pilot) tests their one way to start the play app: the
``play_table`` fixture.

With a compiled build in use, every compiled module is imported here, before pytest collects the
doctests of ``src``: collecting a module not yet imported would load its Python file under the
same name (``--import-mode=importlib`` imports by file), and a Python bot class beside the
compiled core it was not built for fails in odd ways."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING

import pytest

from ratgames import compiled
from ratgames.core import register_bot, register_game
from ratgames.testing import HighCard, HighestBot, LowestBot

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from ratgames.core.bots import Bot
    from ratgames.core.game import State
    from ratgames.tui.play import PlayApp

if compiled.active is not None:
    for _name in compiled.MODULES:
        importlib.import_module(_name)

register_game(HighCard.id, HighCard)
register_bot("highest", HighestBot, "plays its highest card", HighCard.id)
register_bot("lowest", LowestBot, "plays its lowest card", HighCard.id)


class Table:
    """The play app running under Textual's Pilot, with what the tests read off it."""

    def __init__(self, app: PlayApp, pilot: Pilot[None]) -> None:
        self.app = app
        self.pilot = pilot

    def panel_text(self) -> str:
        """The game panel as plain text."""
        from rich.text import Text

        rendered = self.app.panel.render()
        assert isinstance(rendered, Text)
        return rendered.plain

    def log(self) -> str:
        """The message log, one line a message."""
        from textual.widgets import RichLog

        log = self.app.query_one("#log", RichLog)
        return "\n".join(line.text for line in log.lines)


OpenTable = Callable[..., AbstractAsyncContextManager[Table]]


@asynccontextmanager
async def open_table(
    state: State, bots: Sequence[Bot | str | None] = (None, "random"), *, seed: int = 1
) -> AsyncIterator[Table]:
    """Play ``state`` in the terminal app under ``run_test()``, the human at seat 0.

    ``bots`` has one entry a seat: ``None`` for the human, a bot, or a bot spec
    (``"name:key=value,..."``) made with ``seed``.  Bots wait 0.01 s before a turn-based move.
    """
    from ratgames.core.bots import make_bot
    from ratgames.tui.play import PlayApp

    game = state.game
    seats = [make_bot(game, b, seed=seed) if isinstance(b, str) else b for b in bots]
    app = PlayApp(game, seats, state=state, bot_pause=0.01)
    async with app.run_test() as pilot:
        yield Table(app, pilot)


@pytest.fixture
def play_table() -> OpenTable:
    """:func:`open_table`: ``async with play_table(state, bots) as table: ...``."""
    return open_table
