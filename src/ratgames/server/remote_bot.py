"""A bot playing a seat of a remote table through the protocol (``ratgames bot``).

The bot is given a :class:`RemoteView`: the seat's observation and legal actions as the server
sent them, nothing else.  Bots that need consistent samples of the hidden cards (search) cannot
play this way: only the server can draw those (it hosts such bots at the table itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from typing import Any

from ratgames.core.bots import Bot, SeatView, make_bot
from ratgames.core.game import Action, Game, State
from ratgames.core.rng import Rng

from .client import ClientError, TableClient
from .tables import spawn


class RemoteView(SeatView):
    """A :class:`SeatView` made from what the server sent: the observation and legal actions."""

    __slots__ = ("_game", "_legal", "_observation")

    def __init__(
        self, game: Game, seat: int, observation: dict[str, Any], legal: list[str], now: float
    ) -> None:
        self._game = game
        self.seat = seat
        self.now = now
        self._observation = observation
        self._legal = [game.parse_action(text) for text in legal]

    @property
    def game(self) -> Game:
        return self._game

    def observation(self, events: bool = True) -> dict[str, Any]:
        return self._observation

    def observation_part(self, keys: Sequence[str], events: bool = False) -> dict[str, Any]:
        obs = self._observation
        return {k: obs[k] for k in keys}

    def legal_actions(self) -> list[Action]:
        return list(self._legal)

    def sample_consistent(self, rng: Rng) -> State:
        raise RuntimeError(
            "a remote bot sees only its observation: consistent samples of the hidden cards "
            "are drawn by the server for the bots it hosts"
        )


def remote_capable(bot: Bot) -> str | None:
    """Why ``bot`` cannot play remotely (None if it can)."""
    if bot.turn_based_only:
        return (
            f"{bot.describe()} searches over samples of the hidden cards, which a remote client "
            "cannot draw (it sees only its observation); seat it at the table as a server bot "
            "instead (the host's 'seat' message or the table's seats), or use a bot that reads "
            "the observation, such as heuristic"
        )
    return None


async def play_remote(
    base: str, code: str, token: str, game: Game, spec: str, seed: int = 0
) -> dict[str, Any] | None:
    """Play the seat of ``token`` with the bot ``spec`` until the game ends; the outcome."""
    bot = make_bot(game, spec, seed=seed)
    client = TableClient(base, code, token, reconnect=True)
    welcome = await client.connect()
    seat = welcome["seat"]
    assert isinstance(seat, int)
    bot.new_game(seat)
    start = time.monotonic()
    acted_at = -1
    pending: asyncio.TimerHandle | None = None
    pending_text = ""
    loop = asyncio.get_running_loop()

    def fire(text: str) -> None:
        nonlocal pending
        pending = None
        spawn(_quiet(client.act(text)))

    try:
        while True:
            await client.wait(_new_state(acted_at), 3600)
            state = client.state
            assert state is not None
            if state.get("outcome") is not None:
                outcome: dict[str, Any] = state["outcome"]
                return outcome
            acted_at = state["seq"]
            if not state["legal"]:
                continue
            view = RemoteView(
                game, seat, state["observation"], state["legal"], time.monotonic() - start
            )
            if not game.real_time:
                with contextlib.suppress(ClientError):
                    await client.act(str(bot.act(view)))
                continue
            if pending is not None and pending_text in state["legal"]:
                continue
            if pending is not None:
                pending.cancel()
                pending = None
            reaction = bot.react(view)
            if reaction is not None:
                pending_text = str(reaction.action)
                pending = loop.call_later(max(0.0, reaction.delay), fire, pending_text)
    finally:
        if pending is not None:
            pending.cancel()
        await client.close()


def _new_state(seen: int) -> Any:
    """A predicate: the client holds a state other than the one of seq ``seen``."""
    return lambda c: c.state is not None and c.state["seq"] != seen


async def _quiet(coro: Any) -> None:
    with contextlib.suppress(ClientError, asyncio.TimeoutError):
        await coro
