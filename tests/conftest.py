"""Test set-up: the small High Card game (ratgames.testing) is registered for every test, so the
generic suite and the tool tests can run it beside the real games."""

from __future__ import annotations

from ratgames.core import register_bot, register_game
from ratgames.testing import HighCard, HighestBot, LowestBot

register_game(HighCard.id, HighCard)
register_bot("highest", HighestBot, "plays its highest card", HighCard.id)
register_bot("lowest", LowestBot, "plays its lowest card", HighCard.id)
