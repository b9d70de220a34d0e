"""A bot playing a seat of a remote table through the protocol (``ratgames bot``).

The bot is given a :class:`RemoteView`: the seat's observation and legal actions as the server
sent them.  A bot that searches over samples of the hidden cards asks the view for them as usual;
the first time it does in a turn, the view asks the server for one honest sample (the protocol's
``sample`` message: a full position that agrees with everything the seat knows and nothing more),
restores it with :meth:`Game.restore`, and draws every sample from it: a sample drawn from a
position the seat cannot tell from the real one is drawn exactly as from the real one.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ratgames.core.bots import SeatView, make_bot
from ratgames.core.game import Action, Game, State
from ratgames.core.rng import Rng

from .client import ClientError, TableClient
from .connections import spawn


class RemoteView(SeatView):
    """A :class:`SeatView` made from what the server sent: the observation and legal actions,
    and (through ``fetch_sample``, called at most once) the server's honest sample."""

    __slots__ = ("_fetch", "_game", "_legal", "_lock", "_observation", "_sample")

    def __init__(
        self,
        game: Game,
        seat: int,
        observation: dict[str, Any],
        legal: list[str],
        now: float,
        fetch_sample: Callable[[], State] | None = None,
    ) -> None:
        self._game = game
        self.seat = seat
        self.now = now
        self._observation = observation
        self._legal = [game.parse_action(text) for text in legal]
        self._fetch = fetch_sample
        self._sample: State | None = None
        self._lock = threading.Lock()

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
        with self._lock:
            if self._sample is None:
                if self._fetch is None:
                    raise RuntimeError(
                        "this view has no connection to ask the server for samples of the "
                        "hidden cards"
                    )
                self._sample = self._fetch()
            base = self._sample
        return base.sample_consistent(self.seat, rng)


def describe_state(client: TableClient, game: Game) -> str:
    """One line saying where a bot's table stands: waiting for the start (and for whom),
    playing, reconnecting, or finished with the result."""
    if not client.connected:
        return "the connection to the server was lost: reconnecting..."
    state = client.state
    if state is not None and state.get("outcome") is not None:
        return "finished: " + result_text(game, state["outcome"], client.seat, client.table)
    table = client.table
    if table is None:
        return "connecting..."
    if table["status"] == "lobby":
        return "waiting for the host to start the game" + missing_text(table)
    if table["status"] == "finished":
        return "finished"
    return "playing"


def seat_label(game: Game, table: dict[str, Any] | None, seat: int) -> str:
    """A seat as people know it: its player's name (else "Seat N", counted from 1)."""
    if table is not None:
        for s in table.get("seats", []):
            if s.get("seat") == seat and s.get("name"):
                return str(s["name"])
    return f"Seat {seat + 1}"


def missing_text(table: dict[str, Any]) -> str:
    """``" (still missing: seat 2, Bob (away))"``: the seats keeping a table in the lobby from
    being full, or an empty string."""
    missing = []
    for s in table["seats"]:
        if s.get("kind") == "open":
            missing.append(f"seat {s['seat'] + 1} (open)")
        elif s.get("kind") == "person" and not s.get("connected"):
            missing.append(f"{s.get('name') or 'seat ' + str(s['seat'] + 1)} (not connected)")
    return f" (still missing: {', '.join(missing)})" if missing else " (everyone is here)"


def result_text(
    game: Game, outcome: dict[str, Any], seat: int | None, table: dict[str, Any] | None
) -> str:
    """The end of a game in words: the winners (by name) and whether ``seat`` is one."""
    winners = [int(w) for w in outcome.get("winners", [])]
    names = ", ".join(seat_label(game, table, w) for w in winners) or "nobody"
    text = f"{names} won ({outcome.get('reason', 'game over')})"
    if seat is not None:
        text += "; this seat won" if seat in winners else "; this seat lost"
    return text


async def report_changes(client: TableClient, game: Game, say: Callable[[str], None]) -> None:
    """Call ``say`` with one line each time :func:`describe_state` changes."""
    last = ""
    while True:
        now = describe_state(client, game)
        if now != last:
            say(now)
            last = now
        if now.startswith("finished"):
            return
        await client.wait(_changed_from(now, game), 3600)


def _changed_from(line: str, game: Game) -> Callable[[TableClient], bool]:
    return lambda c: describe_state(c, game) != line


async def play_remote(
    base: str,
    code: str,
    token: str,
    game: Game,
    spec: str,
    seed: int = 0,
    say: Callable[[str], None] | None = None,
) -> dict[str, Any] | None:
    """Play the seat of ``token`` with the bot ``spec`` until the game ends; the outcome.
    ``say`` is told of each change of state (see :func:`describe_state`)."""
    bot = make_bot(game, spec, seed=seed)
    client = TableClient(base, code, token, reconnect=True)
    welcome = await client.connect()
    seat = welcome["seat"]
    assert isinstance(seat, int)
    reporter = asyncio.create_task(report_changes(client, game, say)) if say else None
    bot.new_game(seat)
    start = time.monotonic()
    acted_at = -1
    pending: asyncio.TimerHandle | None = None
    pending_text = ""
    loop = asyncio.get_running_loop()
    sampler = Rng(seed)

    def fire(text: str) -> None:
        nonlocal pending
        pending = None
        spawn(_quiet(client.act(text)))

    try:
        while True:
            await client.wait(_new_state(acted_at), 3600)
            lost = _seat_lost(client)
            if lost is not None:
                client.reconnect = False  # the token is dead, or another client plays the seat
                raise ClientError("bad_token", f"the bot lost its seat: {lost}")
            state = client.state
            assert state is not None
            if state.get("outcome") is not None:
                outcome: dict[str, Any] = state["outcome"]
                return outcome
            acted_at = state["seq"]
            if not state["legal"]:
                continue
            if not game.real_time:
                # The bot thinks in a thread, so that pings are answered meanwhile; a sample it
                # asks for comes from the server (for this very position, else it is stale).
                view = RemoteView(
                    game,
                    seat,
                    state["observation"],
                    state["legal"],
                    time.monotonic() - start,
                    _sample_fetcher(client, game, state["seq"], loop, Rng(sampler.next64())),
                )
                try:
                    action = await asyncio.to_thread(bot.act, view)
                except (TimeoutError, ClientError, StaleSample):
                    continue
                with contextlib.suppress(ClientError):
                    await client.act(str(action))
                continue
            view = RemoteView(
                game, seat, state["observation"], state["legal"], time.monotonic() - start
            )
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
        if reporter is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(reporter, 1.0)
        await client.close()


class StaleSample(Exception):
    """The table moved on while the bot was thinking: its sample is of an older position."""


def _sample_fetcher(
    client: TableClient, game: Game, seq: int, loop: asyncio.AbstractEventLoop, rng: Rng
) -> Callable[[], State]:
    """For a bot thinking in a worker thread: ask the server (on the event loop) for a sample of
    the position after ``seq`` actions and restore it."""

    def fetch() -> State:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop runs in this thread: good
            pass
        else:
            raise RuntimeError("samples are fetched from a worker thread, not the event loop")
        answer = asyncio.run_coroutine_threadsafe(client.sample(), loop).result(timeout=60)
        if answer["seq"] != seq:
            raise StaleSample(f"the sample is of action {answer['seq']}, not {seq}")
        return game.restore(answer["state"], rng)

    return fetch


def _new_state(seen: int) -> Any:
    """A predicate: the client holds a state other than the one of seq ``seen`` (or lost its
    seat)."""
    return lambda c: (c.state is not None and c.state["seq"] != seen) or _seat_lost(c) is not None


def _seat_lost(client: TableClient) -> str | None:
    """Why the seat was lost (its token re-issued, or taken by another connection), or None."""
    for error in client.errors:
        if error.get("code") == "bad_token":
            return str(error.get("message"))
    return None


async def _quiet(coro: Any) -> None:
    with contextlib.suppress(ClientError, asyncio.TimeoutError):
        await coro
