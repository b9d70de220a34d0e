"""Client connections: what each is allowed to do, and its outgoing queue.

A :class:`Conn` is made by the WebSocket handler (``app.py``) for each socket; the tables queue
messages on it (encoded once with :func:`encode` when many connections share one) and the
handler drains the queue.  Everything here runs on the server's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from .fairness import Clock, TokenBucket
from .metrics import OFF, Metrics
from .protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("ratgames.server")

SEND_QUEUE_LIMIT = 2000
"""A connection that lets this many messages pile up unread is closed (a stuck client)."""
SPECTATOR_QUEUE_LIMIT = 200
"""The same for a spectator: a slow spectator is let go long before a player would be."""
DROPPED_LIMIT = 200
"""A WebSocket that has had this many messages dropped (its address sending too many) is
closed: a client that does not slow down when told is not one to keep reading from."""


_BACKGROUND: set[asyncio.Task[Any]] = set()


MOVED = 4009
"""The WebSocket close code of a connection whose table another server process owns (it was
never here, or this process lost its lease): the reason is that process's address when it is
known, else empty; the client reconnects (to that address, or to the same one, where a process
takes the table over once its lease has run out)."""


def spawn(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run ``coro`` as a task that is kept until it ends (errors are logged)."""
    task = asyncio.get_running_loop().create_task(coro)
    _BACKGROUND.add(task)

    def done(t: asyncio.Task[Any]) -> None:
        _BACKGROUND.discard(t)
        if not t.cancelled() and t.exception() is not None:
            log.error("background task failed", exc_info=t.exception())

    task.add_done_callback(done)
    return task


def encode(message: Mapping[str, Any]) -> str:
    """A message as JSON text (orjson: several times faster than the standard library on the
    observations every action sends to every seat)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")


class Conn:
    """One client connection: what it is allowed to do, and its outgoing queue.

    The transport (the WebSocket handler) drains :attr:`queue` and calls :meth:`sent` as it
    writes each message."""

    def __init__(self, peer: str = "", address: str = "") -> None:
        self.peer = peer
        self.address = address
        """The client's address (the TCP peer's, without the port): what per-address limits
        count."""
        self.greeted = False
        """A ``hello`` was accepted on this connection."""
        self.told_limited_at = -1e9
        self.dropped = 0
        """Messages of this connection dropped for its address's message rate."""
        """When this connection was last told its address's messages are being dropped."""
        self.queue: asyncio.Queue[tuple[str, int | None] | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.host = False
        self.token_hash: str | None = None
        self.seen_events: list[Any] = []
        self.delta_events = False
        """Send the events lists of observations as changes (the client asked for it)."""
        self.clock = Clock()
        self.bucket = TokenBucket(rate=20.0, burst=40.0)
        self.sent_at: dict[int, float] = {}
        """When the ``state`` of each recent seq went out on this connection (monotonic s)."""
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        """The WebSocket close code and reason the transport closes with (:data:`MOVED`: the
        table lives at the process whose address is the reason)."""
        self.ping_id = 0
        self.pings: dict[int, float] = {}
        self.metrics: Metrics = OFF
        """Where the errors sent are counted (the server's metrics)."""

    def send(self, message: Mapping[str, Any], seq: int | None = None) -> None:
        """Queue a message (a dict following the protocol's models)."""
        if not self.closed:
            self.send_text(encode(message), seq)

    def send_text(self, text: str, seq: int | None = None) -> None:
        """Queue a message already encoded (one encoding shared by every connection)."""
        if self.closed:
            return
        limit = SEND_QUEUE_LIMIT if self.seat is not None else SPECTATOR_QUEUE_LIMIT
        if self.queue.qsize() >= limit:
            log.warning("closing %s: %d messages unread", self.peer, self.queue.qsize())
            self.close()
            return
        self.queue.put_nowait((text, seq))

    def error(self, code: str, message: str, ref: int | None = None) -> None:
        self.metrics.rejected(code)
        self.send(
            {"type": "error", "v": PROTOCOL_VERSION, "code": code, "message": message, "ref": ref}
        )

    def sent(self, seq: int | None) -> None:
        """The transport wrote the message of ``seq`` now."""
        if seq is not None:
            self.sent_at[seq] = time.monotonic()
            if len(self.sent_at) > 256:
                for old in sorted(self.sent_at)[:128]:
                    del self.sent_at[old]

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending; the transport closes the socket (with ``code`` and ``reason``)."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)

    def next_ping(self) -> dict[str, Any]:
        """A ping to send now (its time is kept to measure the round trip)."""
        self.ping_id += 1
        t = time.monotonic()
        self.pings[self.ping_id] = t
        if len(self.pings) > 16:
            del self.pings[min(self.pings)]
        rtt = self.clock.rtt
        return {
            "type": "ping",
            "v": PROTOCOL_VERSION,
            "id": self.ping_id,
            "server_time": round(t * 1000.0, 3),
            "rtt_ms": None if rtt is None else round(rtt * 1000.0, 2),
        }

    def pong(self, ping_id: int, client_time: float) -> None:
        """A pong came back: one more clock sample."""
        sent = self.pings.pop(ping_id, None)
        if sent is not None:
            self.clock.sample(sent, time.monotonic(), client_time / 1000.0)
