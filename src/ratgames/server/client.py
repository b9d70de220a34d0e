"""A client of the server: the lobby's REST calls and a WebSocket connection to one table.

Used by ``ratgames join`` and ``ratgames bot``, by the tests and by the benchmark.  A
:class:`TableClient` keeps the latest ``state`` and ``table`` it was sent, answers pings,
matches ``ack``/``error`` to the actions it sent, and (with ``reconnect=True``) opens a new
connection by itself when the old one is lost, sending ``hello`` with the same seat token.

``latency`` delays every message each way by that many seconds (for tests of fairness over
slow connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any, NoReturn

import websockets
from websockets.asyncio.client import ClientConnection

from .protocol import PROTOCOL_VERSION

V = PROTOCOL_VERSION
log = logging.getLogger("ratgames.client")


class ClientError(Exception):
    """The server refused something (``code`` is the protocol's error code or the HTTP
    status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# --- REST ----------------------------------------------------------------------------------------


MOST_REDIRECTS = 4
"""How many times one request follows a table to another server process (307)."""


def http_json(base: str, path: str, body: Any = None, timeout: float = 10.0) -> Any:
    """GET (or POST ``body``) ``base + path`` and return the JSON answer (following a table
    to the server process that holds it: a 307 with its address, a POST included)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    url = base.rstrip("/") + path
    for redirects in range(MOST_REDIRECTS + 1):
        request = urllib.request.Request(
            url,
            data=data,
            method="GET" if body is None else "POST",
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return json.loads(answer.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            where = exc.headers.get("location") if exc.code in (307, 308) else None
            if where and redirects < MOST_REDIRECTS:
                url = urllib.parse.urljoin(url, where)
                continue
            _raise_problem(exc)
    raise AssertionError("unreachable: the loop returns or raises")


def _raise_problem(exc: urllib.error.HTTPError) -> NoReturn:
    """Raise the server's refusal as a :class:`ClientError` (its code and words)."""
    try:
        detail = json.loads(exc.read().decode("utf-8")).get("detail", exc.reason)
    except (ValueError, AttributeError):
        detail = exc.reason
    raise ClientError(str(exc.code), str(detail)) from None


async def ahttp_json(base: str, path: str, body: Any = None) -> Any:
    """:func:`http_json` from async code (in a thread)."""
    return await asyncio.to_thread(http_json, base, path, body)


def table_ws_url(base: str, code: str) -> str:
    """The WebSocket URL of table ``code`` at ``base``: ``ws://host:port/ws?table=CODE`` (the
    code in the URL lets a balancer route a table's connections by it; the server reads the
    code from the ``hello``)."""
    url = ws_url(base)
    return f"{url}{'&' if '?' in url else '?'}table={urllib.parse.quote(code.strip().upper())}"


def ws_url(base: str) -> str:
    """``http://host:port`` -> ``ws://host:port/ws``."""
    if base.startswith("https://"):
        return "wss://" + base[len("https://") :].rstrip("/") + "/ws"
    if base.startswith("http://"):
        return "ws://" + base[len("http://") :].rstrip("/") + "/ws"
    return base


def base_url(where: str) -> str:
    """A server's address as the user typed it (``host:port``, a URL or a table link)."""
    where = where.strip()
    if "://" not in where:
        where = "http://" + where
    scheme, _, rest = where.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


# --- a table connection ----------------------------------------------------------------------


MOVED = 4009
"""The close code of a server process that does not serve the table (its reason: the address
of the one that does, if known)."""
MOST_MOVES = 20
"""How often a client that does not reconnect follows a table moving before it gives up."""


class TableClient:
    """One connection to one table (a seat with ``token``, or a spectator without)."""

    def __init__(
        self,
        base: str,
        code: str,
        token: str | None = None,
        host_token: str | None = None,
        *,
        latency: float = 0.0,
        reconnect: bool = False,
        keep_frames: bool = False,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        open_timeout: float = 10.0,
        local_host: str | None = None,
    ) -> None:
        self.base = base
        self.home = base
        """The address first given (a balancer, or one process): where the client goes back
        to when the process a table moved it to cannot be reached."""
        self.local_host = local_host
        """The local address to connect from (a load test's clients from many addresses)."""
        self.code = code
        self.token = token
        self.host_token = host_token
        self.latency = latency
        self.reconnect = reconnect
        self.keep_frames = keep_frames
        self.on_message = on_message
        self.open_timeout = open_timeout
        self.frames: list[str] = []
        self.state: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.seat: int | None = None
        self.errors: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.rematch: str | None = None
        self.seat_links: dict[int, str] = {}
        """The new seat tokens the host was sent (``reissue``), by seat."""
        self.seen_at: dict[int, float] = {}
        """When each state (by seq) was shown here (this client's clock, ms)."""
        self.rtt_ms: float | None = None
        self.connections = 0
        self._greeted = False
        """Whether the current connection has been welcomed."""
        self.acked = 0
        """The highest seq acknowledged to this client."""
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._changed = asyncio.Event()
        self._ws: ClientConnection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._out: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self._closing = False
        self._welcome: asyncio.Future[dict[str, Any]] | None = None
        self._events: list[Any] = []
        """The whole events list of the last state (to rebuild abbreviated ones)."""
        self._runner: asyncio.Task[None] | None = None
        self.moves = 0
        """How many times the server closed with MOVED (the table is another process's)."""

    @staticmethod
    def clock() -> float:
        """This client's clock in ms."""
        return time.monotonic() * 1000.0

    # --- connecting -----------------------------------------------------------------------------

    async def connect(self, timeout: float = 30.0) -> dict[str, Any]:
        """Connect, say hello and return the ``welcome`` (raises :class:`ClientError`)."""
        self._welcome = asyncio.get_running_loop().create_future()
        self._runner = asyncio.create_task(self._run())
        return await asyncio.wait_for(asyncio.shield(self._welcome), timeout)

    async def _run(self) -> None:
        delay = 0.1
        while not self._closing:
            try:
                async with websockets.connect(
                    # the table code in the URL lets a balancer route by it (the server reads
                    # the code from the hello)
                    table_ws_url(self.base, self.code),
                    max_size=8 * 2**20,
                    open_timeout=self.open_timeout,
                    ping_interval=None,
                    **self._transport_options(),
                ) as ws:
                    self._ws = ws
                    self.connections += 1
                    await self._session(ws)
                if self._greeted:  # a connection that was welcomed: try again soon
                    delay = 0.1
                if ws.close_code == MOVED:
                    # The table is another server process's: go there if it said where
                    # (else the same address, where a process takes it over once its lease
                    # has run out), on the first connection too.
                    self.moves += 1
                    where = ws.close_reason or ""
                    if where.startswith(("http://", "https://")):
                        self.base = where
                        delay = 0.2
                    else:
                        delay = 0.5
                    if self.moves <= MOST_MOVES or self.reconnect:
                        self._ws = None
                        self._fail_waiting("the table moved to another server process")
                        self._changed.set()
                        await asyncio.sleep(delay)
                        continue
                    if self._welcome is not None and not self._welcome.done():
                        self._welcome.set_exception(
                            ClientError("moved", f"table {self.code} is served elsewhere")
                        )
                        return
            except (TimeoutError, OSError, websockets.WebSocketException) as exc:
                if self.base != self.home:  # the process it was sent to is gone
                    self.base = self.home
                    continue
                if not self.reconnect and self._welcome is not None and not self._welcome.done():
                    self._welcome.set_exception(ClientError("connect", str(exc)))
                    return
            self._ws = None
            self._fail_waiting("the connection was lost")
            self._changed.set()
            if not self.reconnect or self._closing:
                return
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)

    def _transport_options(self) -> dict[str, Any]:
        """Options for the event loop's ``create_connection`` (the local address)."""
        return {"local_addr": (self.local_host, 0)} if self.local_host else {}

    async def _session(self, ws: ClientConnection) -> None:
        inbox: asyncio.Queue[tuple[float, str] | None] = asyncio.Queue()
        self._out = asyncio.Queue()
        writer = asyncio.create_task(self._writer(ws))
        reader = asyncio.create_task(self._handler(inbox))
        hello: dict[str, Any] = {"type": "hello", "v": V, "table": self.code}
        if self.token:
            hello["token"] = self.token
        if self.host_token:
            hello["host_token"] = self.host_token
        hello["delta_events"] = True
        self._events = []
        self._greeted = False
        self._queue_out(hello)
        try:
            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode("utf-8")
                inbox.put_nowait((time.monotonic() + self.latency, text))
        except websockets.ConnectionClosed:
            pass
        finally:
            inbox.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(reader, 2.0)
            writer.cancel()

    async def _writer(self, ws: ClientConnection) -> None:
        while True:
            due, text = await self._out.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await ws.send(text)

    async def _handler(self, inbox: asyncio.Queue[tuple[float, str] | None]) -> None:
        while True:
            item = await inbox.get()
            if item is None:
                return
            due, text = item
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._receive(text)

    def _queue_out(self, message: dict[str, Any]) -> None:
        self._out.put_nowait((time.monotonic() + self.latency, json.dumps(message)))

    def _receive(self, text: str) -> None:
        if self.keep_frames:
            self.frames.append(text)
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "ping":
            self.rtt_ms = msg.get("rtt_ms")
            self._queue_out({"type": "pong", "v": V, "id": msg["id"], "client_time": self.clock()})
        elif kind == "welcome":
            self._greeted = True
            self.table = msg["table"]
            self.seat = msg["seat"]
            if self._welcome is not None and not self._welcome.done():
                self._welcome.set_result(msg)
        elif kind == "table":
            self.table = msg["table"]
        elif kind == "state":
            self._whole_events(msg)
            self.state = msg
            self.seen_at[msg["seq"]] = self.clock()
            if len(self.seen_at) > 512:
                for old in sorted(self.seen_at)[:256]:
                    del self.seen_at[old]
        elif kind == "ack":
            self.acked = max(self.acked, msg["seq"])
            future = self._waiting.pop(msg["id"], None)
            if future is not None and not future.done():
                future.set_result(msg["seq"])
        elif kind == "error":
            ref = msg.get("ref")
            future = self._waiting.pop(ref, None) if ref is not None else None
            if future is not None and not future.done():
                future.set_exception(ClientError(msg["code"], msg["message"]))
            else:
                self.errors.append(msg)
                if self._welcome is not None and not self._welcome.done():
                    self._welcome.set_exception(ClientError(msg["code"], msg["message"]))
                elif self.reconnect and not self._greeted and msg.get("code") == "rate_limited":
                    # A hello refused for its rate on a reconnect (everyone behind a balancer
                    # coming back at once): leave this connection and try again after a pause
                    # that grows until a connection is welcomed.
                    ws = self._ws
                    if ws is not None:
                        asyncio.get_running_loop().create_task(ws.close())
        elif kind == "sample":
            future = self._waiting.pop(msg["id"], None)
            if future is not None and not future.done():
                future.set_result(msg)
        elif kind == "chat":
            self.chat.append(msg)
        elif kind == "rematch":
            self.rematch = msg["table"]
        elif kind == "seat_link":
            self.seat_links[msg["seat"]] = msg["token"]
        if self.on_message is not None:
            try:
                self.on_message(msg)
            except Exception:  # the caller's handler failing must not stop the connection
                log.exception("the message handler failed on a %s message", kind)
        self._changed.set()

    def _whole_events(self, msg: dict[str, Any]) -> None:
        """Put back the whole events list of a state whose list is a change (``events_kept``),
        so that :attr:`state` always holds the observation (or view) as the engine made it."""
        part = msg.get("observation") if msg.get("observation") is not None else msg.get("view")
        if not isinstance(part, dict):
            return
        events = part.get("events")
        if not isinstance(events, list):
            return
        kept = msg.get("events_kept")
        if isinstance(kept, int) and kept > 0:
            events = self._events[len(self._events) - kept :] + events
            part["events"] = events
        self._events = events

    def _fail_waiting(self, why: str) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ClientError("disconnected", why))
        self._waiting.clear()

    async def close(self) -> None:
        """Close the connection (no reconnecting)."""
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._runner is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._runner, 3.0)

    async def drop(self) -> None:
        """Lose the connection abruptly (a reconnecting client comes back by itself)."""
        if self._ws is not None:
            transport = self._ws.transport
            transport.abort()

    # --- sending --------------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Send any message as it is (tests use this for malformed ones)."""
        self._queue_out(message)

    def send_raw(self, text: str | bytes) -> None:
        """Send a frame exactly as given."""
        ws = self._ws
        assert ws is not None
        asyncio.get_running_loop().create_task(ws.send(text))

    async def act(
        self,
        action: str,
        *,
        pressed_at: float | None = None,
        seen_at: float | None = None,
        timeout: float = 15.0,
    ) -> int:
        """Send an action and wait for its ``ack`` (returns its seq; refused: ClientError; no
        connection: ClientError ``disconnected`` at once)."""
        if self._ws is None:
            raise ClientError("disconnected", "not connected (a reconnecting client waits)")
        ident = next(self._ids)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        message: dict[str, Any] = {"type": "action", "v": V, "id": ident, "action": action}
        if pressed_at is not None:
            message["pressed_at"] = pressed_at
        if seen_at is not None:
            message["seen_at"] = seen_at
        self._queue_out(message)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(ident, None)

    async def sample(self, timeout: float = 15.0) -> dict[str, Any]:
        """Ask for an honest sample of the hidden cards and wait for it: the ``sample`` message,
        whose ``state`` is a snapshot for ``Game.restore`` (refused: ClientError)."""
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        self._queue_out({"type": "sample", "v": V, "id": ident})
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(ident, None)

    def host(self, message_type: str, /, **fields: Any) -> None:
        """A host message (``start``, ``fill_bots``, ``seat``, ``rematch``)."""
        self._queue_out({"type": message_type, "v": V, **fields})

    async def wait(self, predicate: Callable[[TableClient], bool], timeout: float = 15.0) -> None:
        """Wait until ``predicate(self)`` holds."""

        async def loop() -> None:
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def my_turn_or_end(self, timeout: float = 15.0) -> bool:
        """Wait until the state (at least as new as the last ``ack``) offers this seat an action
        (True) or the game is over (False)."""

        def ready(c: TableClient) -> bool:
            state = c.state
            if state is None or state["seq"] < c.acked:
                return False
            return state.get("outcome") is not None or bool(state["legal"])

        await self.wait(ready, timeout)
        return not self.over

    # --- reading --------------------------------------------------------------------------------

    @property
    def legal(self) -> list[str]:
        return list(self.state["legal"]) if self.state else []

    @property
    def connected(self) -> bool:
        """True while a connection is open (a reconnecting client is between two)."""
        return self._ws is not None

    @property
    def welcomed(self) -> bool:
        """True while a connection is open and the server has welcomed it."""
        return self._ws is not None and self._greeted

    @property
    def over(self) -> bool:
        return bool(self.state and self.state.get("outcome") is not None)

    def my_turn(self) -> bool:
        return bool(self.state and self.seat is not None and self.state["legal"])
