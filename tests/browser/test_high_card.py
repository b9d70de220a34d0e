"""The test game, High Card, in the browser: registered with its parts and nothing else, it is
offered in the lobby and played on the generic table (its view as JSON, a button per legal
action), as any game without a table of its own would be."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

import ratgames
from ratgames.core import registry
from ratgames.testing import HighCard, register_high_card

from .conftest import Server
from .helpers import QUICK, Player, create_table, join_table, play_to_end, start


@pytest.fixture(scope="module", autouse=True)
def high_card() -> Iterator[None]:
    ratgames.game_ids()
    games, parts = dict(registry._GAMES), dict(registry._PARTS)
    register_high_card()
    yield
    registry._GAMES.clear()
    registry._GAMES.update(games)
    registry._PARTS.clear()
    registry._PARTS.update(parts)


def generic_move(p: Player) -> None:
    p.page.get_by_test_id("moves").get_by_role("button").first.click(timeout=QUICK)


def test_high_card_plays_on_the_generic_table(server: Server, browser: Browser) -> None:
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    code = create_table(ann, HighCard.id, 2, {1: "open"}, {"turns": "6"})
    join_table(bob, code)
    start(ann, [bob])
    board = ann.page.get_by_test_id("board")
    assert '"hand"' in board.inner_text()  # the seat's view, as JSON
    play_to_end([ann, bob], generic_move, timeout=60)
    assert ann.moves == 3 and bob.moves == 3
