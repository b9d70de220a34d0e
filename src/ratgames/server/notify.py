"""The lobby shared by the server processes over one PostgreSQL: PostgreSQL's ``LISTEN`` and
``NOTIFY`` carry each process's public tables to the others.

Each process announces its public tables as they change (the lobby's :class:`TableInfo` of
each, a few changes batched into one notification), a heartbeat every :data:`HEARTBEAT`
seconds, ``hello`` when it starts listening (every other process then announces all its public
tables again, so that the newcomer's listing is whole) and ``bye`` when it stops.  The others
keep what they heard in :attr:`SharedLobby.tables` and list it beside their own tables.

Why PostgreSQL and not Redis: the processes share the database already, so this needs no
further service to run, secure, back up and watch, and a notification sent in a transaction
is delivered only if it commits.  A notification is at most 8000 bytes, which holds a
table's listing many times over; every listener gets every notification, which suits a lobby
(every process lists every public table).

A notification may be lost while a listener reconnects: it says ``hello`` again then, and the
others announce their tables anew.  An entry's lease fencing token orders what is heard about
one table: a process that took a table over has a higher token than the one that lost it, so a
late word from the loser is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

log = logging.getLogger("ratgames.server")

CHANNEL = "ratgames_lobby"
HEARTBEAT = 2.0
"""Seconds between a process's heartbeats."""
SILENT = 3 * HEARTBEAT + 1.0
"""A process not heard from for this long is gone: its tables are listed with nobody
connected until another process takes them over (or they are forgotten, :attr:`forget`)."""
MAX_PAYLOAD = 7900
"""Bytes of one notification at most (PostgreSQL's limit is 8000)."""
FLUSH_DELAY = 0.05
"""Changes within this many seconds go out in one notification."""
LISTED = ("lobby", "playing")
"""The statuses of the tables a lobby lists."""


@dataclass
class Remote:
    """A public table of another process, as last heard."""

    info: dict[str, Any]
    owner: str
    fence: int

    @property
    def key(self) -> tuple[str, str]:
        """Its place in the listing: newest first by creation, then by code."""
        return (str(self.info.get("created", "")), str(self.info.get("code", "")))


def libpq_url(engine: Any) -> str:
    """The engine's database as a URL psycopg connects to (no SQLAlchemy driver name)."""
    url = engine.url.set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


def orphaned(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` of a table whose process is gone: nobody is connected to it (the seats'
    people reconnect where it is taken over)."""
    out = dict(info)
    out["seats"] = [
        {**s, "connected": s.get("kind") == "bot", "host": False, "away_bot": False}
        for s in info.get("seats", [])
    ]
    out["spectators"] = 0
    return out


class SharedLobby:
    """This process's side of the shared lobby: what it heard of the others' public tables,
    and its own announcements.

    ``snapshot`` gives this process's public tables (fencing token, info) to announce again
    when another process says ``hello``; ``changed`` is told when the listing changed (so that
    the lobby makes its pages anew); ``forget`` is how long the tables of a process gone are
    still listed (0: until another process announces them or they end)."""

    def __init__(
        self,
        url: str,
        owner: str,
        snapshot: Callable[[], Iterable[tuple[int, dict[str, Any]]]],
        changed: Callable[[], None],
        forget: float = 600.0,
    ) -> None:
        self.url = url
        self.owner = owner
        self.snapshot = snapshot
        self.changed = changed
        self.forget = forget
        self.tables: dict[str, Remote] = {}
        """Other processes' public tables in the lobby or in play, by code."""
        self.heard: dict[str, float] = {}
        """When each other process was last heard from (monotonic seconds)."""
        self.gone: dict[str, float] = {}
        """Processes gone (a ``bye``, or silent): since when."""
        self.received = 0
        self.sent = 0
        self._pending: dict[str, tuple[int, dict[str, Any] | None]] = {}
        self._flush_due: asyncio.TimerHandle | None = None
        self._publisher: Any = None
        self._publishing = asyncio.Lock()
        """One announcement at a time on the one connection (and one connection made)."""
        self._tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        """Set once the first ``LISTEN`` is in place (and ``hello`` sent)."""
        self._closed = False

    # --- announcing -----------------------------------------------------------------------------

    def announce(self, fence: int, info: dict[str, Any]) -> None:
        """A public table of this process changed (its info as listed)."""
        if self._closed:
            return
        self._pending[str(info["code"])] = (fence, info)
        self._schedule()

    def withdraw(self, code: str, fence: int) -> None:
        """A public table of this process left the lobby (expired, or dropped)."""
        if self._closed:
            return
        self._pending[code] = (fence, None)
        self._schedule()

    def _schedule(self) -> None:
        if self._flush_due is None:
            loop = asyncio.get_running_loop()
            self._flush_due = loop.call_later(FLUSH_DELAY, self._flush_soon)

    def _flush_soon(self) -> None:
        self._flush_due = None
        pending, self._pending = self._pending, {}
        if pending:
            self._spawn(self._send_tables(pending))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.append(task)
        task.add_done_callback(self._tasks_done)

    def _tasks_done(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("announcing lobby tables failed", exc_info=task.exception())

    def payloads(self, pending: dict[str, tuple[int, dict[str, Any] | None]]) -> list[bytes]:
        """``pending`` as notifications of at most :data:`MAX_PAYLOAD` bytes each."""
        head = b'{"o":' + orjson.dumps(self.owner) + b',"k":"t","t":['
        out: list[bytes] = []
        items: list[bytes] = []
        size = len(head) + 2
        for code, (fence, info) in pending.items():
            item = orjson.dumps([fence, info] if info is not None else [fence, code])
            if len(head) + len(item) + 2 > MAX_PAYLOAD:
                log.warning("table %s is too large to announce to the other processes", code)
                continue
            if items and size + len(item) + 1 > MAX_PAYLOAD:
                out.append(head + b",".join(items) + b"]}")
                items, size = [], len(head) + 2
            items.append(item)
            size += len(item) + 1
        if items:
            out.append(head + b",".join(items) + b"]}")
        return out

    async def _send_tables(self, pending: dict[str, tuple[int, dict[str, Any] | None]]) -> None:
        for payload in self.payloads(pending):
            await self._notify(payload)

    async def _notify(self, payload: bytes) -> None:
        async with self._publishing:
            await self._notify_now(payload)

    async def _notify_now(self, payload: bytes) -> None:
        import psycopg

        for attempt in range(2):
            try:
                if self._publisher is None or self._publisher.closed:
                    self._publisher = await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True
                    )
                await self._publisher.execute(
                    "SELECT pg_notify(%s, %s)", (CHANNEL, payload.decode())
                )
                self.sent += 1
                return
            except psycopg.OperationalError:
                if attempt:
                    raise
                with contextlib.suppress(Exception):
                    await self._publisher.close()
                self._publisher = None

    def _message(self, kind: str) -> bytes:
        return orjson.dumps({"o": self.owner, "k": kind})

    # --- hearing --------------------------------------------------------------------------------

    def hear(self, payload: str) -> None:
        """One notification from the channel."""
        try:
            message = orjson.loads(payload)
            owner = str(message["o"])
            kind = str(message["k"])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            log.warning("a lobby notification was not understood: %.200s", payload)
            return
        if owner == self.owner:
            return
        self.received += 1
        self.heard[owner] = time.monotonic()
        was_gone = self.gone.pop(owner, None) is not None
        if kind == "hello":
            mine: dict[str, tuple[int, dict[str, Any] | None]] = {
                str(info["code"]): (fence, info) for fence, info in self.snapshot()
            }
            if mine:
                self._spawn(self._send_tables(mine))
        elif kind == "bye":
            self._owner_gone(owner)
        elif kind == "t":
            if self._apply(owner, message.get("t", [])) or was_gone:
                self.changed()
        elif was_gone:
            self.changed()

    def _apply(self, owner: str, items: list[Any]) -> bool:
        changed = False
        for item in items:
            try:
                fence, body = int(item[0]), item[1]
            except (TypeError, ValueError, IndexError):
                continue
            code = str(body["code"]) if isinstance(body, dict) else str(body)
            known = self.tables.get(code)
            if known is not None and known.fence > fence and known.owner != owner:
                continue  # a late word from a process that lost the table
            if isinstance(body, dict) and body.get("public") and body.get("status") in LISTED:
                self.tables[code] = Remote(body, owner, fence)
                changed = True
            elif known is not None:
                del self.tables[code]
                changed = True
        return changed

    def _owner_gone(self, owner: str) -> None:
        self.gone[owner] = time.monotonic()
        self.heard.pop(owner, None)
        changed = False
        for remote in self.tables.values():
            if remote.owner == owner:
                remote.info = orphaned(remote.info)
                changed = True
        if changed:
            self.changed()

    def prune(self) -> None:
        """Processes not heard from for :data:`SILENT` seconds are gone; the tables of those
        gone for :attr:`forget` seconds are forgotten."""
        now = time.monotonic()
        for owner, when in list(self.heard.items()):
            if now - when > SILENT:
                self._owner_gone(owner)
        if self.forget > 0:
            stale = {o for o, since in self.gone.items() if now - since > self.forget}
            if stale:
                for code in [c for c, r in self.tables.items() if r.owner in stale]:
                    del self.tables[code]
                for owner in stale:
                    del self.gone[owner]
                self.changed()

    def forget_code(self, code: str) -> None:
        """This process holds table ``code`` now: what others said of it is out of date."""
        if self.tables.pop(code, None) is not None:
            self.changed()

    # --- running --------------------------------------------------------------------------------

    def start(self) -> None:
        """Listen and beat from now on (on the running event loop)."""
        self._spawn(self._listen_on())
        self._spawn(self._beat_on())

    async def _beat_on(self) -> None:
        await self.listening.wait()
        while not self._closed:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._notify(self._message("hb"))
            except Exception:
                log.warning("the lobby's heartbeat could not be sent", exc_info=True)
            self.prune()

    async def _listen_on(self) -> None:
        import psycopg

        wait = 0.2
        while not self._closed:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    # heard by the others once LISTEN is in place: nothing they answer is lost
                    await self._notify(self._message("hello"))
                    mine: dict[str, tuple[int, dict[str, Any] | None]] = {
                        str(info["code"]): (fence, info) for fence, info in self.snapshot()
                    }
                    if mine:
                        await self._send_tables(mine)
                    self.listening.set()
                    wait = 0.2
                    while not self._closed:
                        async for note in conn.notifies(timeout=HEARTBEAT):
                            self.hear(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._closed:
                    return
                log.warning(
                    "the shared lobby lost its database connection (%s); listening again in %.1f s",
                    exc,
                    wait,
                )
                await asyncio.sleep(wait)
                wait = min(5.0, wait * 2)

    def close(self, engine: Any | None = None) -> None:
        """Stop; with ``engine``, say ``bye`` through it first (a blocking call: the event loop
        may be about to stop)."""
        if self._closed:
            return
        if engine is not None:
            import sqlalchemy as sa

            try:
                with engine.begin() as conn:
                    conn.execute(
                        sa.text("SELECT pg_notify(:c, :p)"),
                        {"c": CHANNEL, "p": self._message("bye").decode()},
                    )
            except Exception:
                log.warning("the other processes could not be told of this one's stop")
        self._closed = True
        if self._flush_due is not None:
            self._flush_due.cancel()
            self._flush_due = None
        for task in list(self._tasks):
            task.cancel()
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(_close_quietly(publisher))


async def _close_quietly(conn: Any) -> None:
    with contextlib.suppress(Exception):
        await conn.close()
