"""What the search bots' worker processes run (kept apart so that a worker imports only the
engine, not the server)."""

from __future__ import annotations

import logging
import time

from ratgames.core.bots import Bot, SeatView
from ratgames.core.game import State

log = logging.getLogger("ratgames.server")


def think(bot: Bot, sample: State, seat: int) -> tuple[str, Bot]:
    """The bot's move on a state sampled from its seat's knowledge (never the real state), and
    the bot itself, whose memory may have changed."""
    began = time.monotonic()
    action = bot.act(SeatView(sample, seat))
    log.debug("worker: %s chose %s in %.2f s", bot.describe(), action, time.monotonic() - began)
    return str(action), bot


def warm_up() -> None:
    """Worker start: load the games and bots once."""
    from ratgames.core.registry import game_ids

    game_ids()


def ready() -> bool:
    """A no-op task: the worker is up."""
    return True
