"""What one client address may take of the server: connections, tables, guesses, messages.

Every limit is a setting (:class:`~ratgames.server.tables.Settings`, ``ratgames serve``
options; ``docs/server.md``, "Limits").  The address is the TCP peer's: behind a reverse proxy
every client has the proxy's address, so run the proxy's own per-client limits there (or raise
these).

* :class:`AddressLimits` keeps, per address, its open WebSockets and token buckets for the
  things that cost the server (tables created, failed code lookups, hellos).  It forgets
  addresses that have been quiet for a while, so it stays small whatever the traffic.
* :func:`guarded_protocol` wraps uvicorn's HTTP protocol: connections beyond the server's cap or
  an address's cap are closed at once, and a connection that has not finished a request's
  headers within the idle timeout is closed (uvicorn's keep-alive timeout only starts after a
  first request).
* :class:`RepeatFilter` keeps logs bounded: a message repeated faster than a few times a minute
  (an accept error when the process is out of file descriptors comes thousands of times a
  second) is let through now and then with the count of the lines left out.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .fairness import TokenBucket
from .logs import event

log = logging.getLogger("ratgames.server")


def address_key(host: str) -> str:
    """What the limits count a client's address as: an IPv4 address as it is, an IPv6 address
    by its /64 network (one subscriber usually has a whole /64, so counting each of its
    addresses apart would count none of them)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def has_token(bucket: TokenBucket) -> bool:
    """Whether ``bucket`` would allow one more now (without taking it)."""
    now = time.monotonic()
    bucket.tokens = min(bucket.burst, bucket.tokens + (now - bucket.last) * bucket.rate)
    bucket.last = now
    return bucket.tokens >= 1.0


def wait_for_token(bucket: TokenBucket) -> float:
    """Seconds until ``bucket`` allows one more (0 if it does now)."""
    if has_token(bucket):
        return 0.0
    return (1.0 - bucket.tokens) / bucket.rate if bucket.rate > 0 else float("inf")


@dataclass(frozen=True)
class Rate:
    """A per-address rate: ``count`` per ``per`` seconds on average, ``burst`` at once (0 for
    no limit)."""

    count: float
    per: float
    burst: float

    @property
    def off(self) -> bool:
        return self.count <= 0

    def bucket(self) -> TokenBucket:
        return TokenBucket(rate=self.count / self.per, burst=max(1.0, self.burst))

    def words(self) -> str:
        unit = {1.0: "a second", 60.0: "a minute", 3600.0: "an hour"}.get(
            self.per, f"every {self.per:g} s"
        )
        return f"at most {self.count:g} {unit}, {self.burst:g} at once"


class AddressLimits:
    """Per-address accounting (one per server process)."""

    KEEP = 50_000
    """Addresses remembered at most (the least recently seen are forgotten first)."""

    def __init__(self, rates: dict[str, Rate], max_sockets: int) -> None:
        self.rates = rates
        self.max_sockets = max_sockets
        self.buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()
        self.sockets: dict[str, int] = {}

    def _bucket(self, kind: str, address: str) -> TokenBucket:
        key = (kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.rates[kind].bucket()
            self.buckets[key] = bucket
            while len(self.buckets) > self.KEEP:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket

    def allow(self, kind: str, address: str) -> bool:
        """Take one of ``kind`` for ``address`` if its rate allows it now."""
        if self.rates[kind].off:
            return True
        return self._bucket(kind, address).allow()

    def blocked(self, kind: str, address: str) -> float:
        """Seconds ``address`` must wait before one more of ``kind`` (0: not blocked), without
        taking one (for counting failures only: see :meth:`failed`)."""
        if self.rates[kind].off:
            return 0.0
        return wait_for_token(self._bucket(kind, address))

    def failed(self, kind: str, address: str) -> None:
        """One failure of ``kind`` counted against ``address``."""
        if not self.rates[kind].off:
            self._bucket(kind, address).allow()

    def refusal(self, kind: str, address: str, what: str) -> str:
        """The message of a refusal: what was limited, the limit and when to try again."""
        wait = self.blocked(kind, address)
        return (
            f"too many {what} from your address ({self.rates[kind].words()}); "
            f"try again in {max(1, round(wait + 0.5))} s"
        )

    # --- WebSockets ---------------------------------------------------------------------------

    def open_socket(self, address: str) -> bool:
        """A WebSocket from ``address`` opens: False (and nothing counted) if it has its
        share already."""
        count = self.sockets.get(address, 0)
        if self.max_sockets > 0 and count >= self.max_sockets:
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)


# --- the transport -------------------------------------------------------------------------------


class ConnectionGuard:
    """The TCP connections of one server: at most ``max_total`` in all and ``per_address`` from
    one address (0: no limit), new ones from one address at ``rate``, and each must finish a
    request's headers within ``idle`` seconds."""

    def __init__(
        self, max_total: int, per_address: int, idle: float, rate: Rate | None = None
    ) -> None:
        self.max_total = max_total
        self.per_address = per_address
        self.idle = idle
        self.rate = rate
        """New connections from one address (None: no limit)."""
        self.arrivals = AddressLimits({"connect": rate or Rate(0, 1.0, 0)}, 0)
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self.total = 0
        self.refused = 0
        self.timed_out = 0
        self._admitted = 0

    SWEEP_EVERY = 1024
    """Connections admitted between two sweeps of the ones gone unseen (WebSockets: the HTTP
    protocol never hears of their end), so that addresses gone stay forgotten."""

    def admit(self, address: str, transport: asyncio.BaseTransport) -> str | None:
        """Count a new connection, or say why it is refused (and count nothing)."""
        mine = self.open.get(address)
        if mine is not None:
            # An upgraded connection (a WebSocket) is no longer seen by the HTTP protocol: a
            # transport that is closing has gone.
            gone = {t for t in mine if t.is_closing()}
            if gone:
                mine -= gone
                self.total -= len(gone)
        if self.max_total > 0 and self.total >= self.max_total:
            self._sweep()
            if self.total >= self.max_total:
                return f"the server holds its most connections ({self.max_total})"
        if self.per_address > 0 and mine is not None and len(mine) >= self.per_address:
            return f"at most {self.per_address} connections from one address"
        if not self.arrivals.allow("connect", address):
            assert self.rate is not None
            return f"new connections from one address: {self.rate.words()}"
        self.open.setdefault(address, set()).add(transport)
        self.total += 1
        self._admitted += 1
        if self._admitted % self.SWEEP_EVERY == 0:
            self._sweep()
        return None

    def gone(self, address: str, transport: asyncio.BaseTransport) -> None:
        mine = self.open.get(address)
        if mine is not None and transport in mine:
            mine.discard(transport)
            self.total -= 1
            if not mine:
                del self.open[address]

    def _sweep(self) -> None:
        for address in list(self.open):
            mine = self.open[address]
            gone = {t for t in mine if t.is_closing()}
            mine -= gone
            self.total -= len(gone)
            if not mine:
                del self.open[address]


def guarded_protocol(base: type[asyncio.Protocol], guard: ConnectionGuard) -> type[Any]:
    """uvicorn's HTTP protocol class ``base`` with ``guard`` applied at each connection (give
    the result to uvicorn as ``http=``)."""

    class Guarded(base):  # type: ignore[valid-type, misc]
        _address = ""
        _idle_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            self._address = address_key(str(peer[0])) if isinstance(peer, tuple) and peer else "?"
            why = guard.admit(self._address, transport)
            if why is not None:
                guard.refused += 1
                log_refused(self._address, why)
                transport.abort()
                return
            super().connection_made(transport)
            if guard.idle > 0:
                loop = asyncio.get_running_loop()
                self._idle_timer = loop.call_later(guard.idle, self._idle_check, transport)

        def _idle_check(self, transport: asyncio.Transport) -> None:
            self._idle_timer = None
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # gone, or a WebSocket now (the application times those out)
            if getattr(self, "cycle", None) is None:
                guard.timed_out += 1
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            transport = getattr(self, "transport", None)
            if transport is not None:
                guard.gone(self._address, transport)
                super().connection_lost(exc)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


_REFUSED_LOG = TokenBucket(rate=1.0 / 10.0, burst=3.0)


def log_refused(address: str, why: str) -> None:
    """Log a connection refused by a limit (a few lines a minute at most, whatever comes)."""
    if _REFUSED_LOG.allow():
        event(
            log,
            "connection_refused",
            "connection refused",
            logging.WARNING,
            address=address,
            reason=why,
        )


def raise_open_files_limit(wanted: int = 65536) -> int:
    """Raise this process's soft limit of open files towards its hard limit (at most
    ``wanted``); the soft limit now (0 where unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else wanted


def connections_for(open_files: int, reserve: int = 64) -> int:
    """The most connections a process with ``open_files`` descriptors should hold: the rest
    (``reserve``) stays for the database, the search workers' pipes and logs."""
    return max(16, open_files - reserve)


# --- logs ----------------------------------------------------------------------------------------


class RepeatFilter(logging.Filter):
    """Lets each distinct message (its logger and format) through ``burst`` times, then once
    every ``every`` seconds with the count of the lines left out meanwhile."""

    def __init__(
        self, burst: int = 5, every: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.burst = burst
        self.every = every
        self.clock = clock
        self.seen: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        """(logger, message format) -> [tokens, last refill, lines left out]."""

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        entry = self.seen.get(key)
        if entry is None:
            entry = [float(self.burst), now, 0.0]
            self.seen[key] = entry
            while len(self.seen) > 1000:
                self.seen.popitem(last=False)
        tokens = min(float(self.burst), entry[0] + (now - entry[1]) / self.every)
        entry[1] = now
        if tokens < 1.0:
            entry[0] = tokens
            entry[2] += 1
            return False
        entry[0] = tokens - 1.0
        if entry[2]:
            left_out = int(entry[2])
            entry[2] = 0.0
            record.msg = f"{record.msg} ({left_out} more like this left out)"
            if record.exc_info:
                record.exc_info = None  # one traceback per burst is enough
                record.exc_text = None
        return True


def bound_logs(*names: str) -> RepeatFilter:
    """Install one :class:`RepeatFilter` on the loggers ``names`` (each filters what is logged
    to it by name: ``asyncio``'s accept errors, uvicorn's, the server's own)."""
    shared = RepeatFilter()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RepeatFilter) for f in logger.filters):
            logger.addFilter(shared)
    return shared


QUEUED_MESSAGES = 8
"""How many of a WebSocket's messages may wait for the application before the server stops
reading that connection (until the application has taken them all)."""


def queued_websockets(base: type[asyncio.Protocol]) -> type[Any]:
    """uvicorn's sans-I/O WebSocket protocol class ``base`` reading on while a few messages
    wait (give the result to uvicorn as ``ws=``).

    ``base`` stops reading a connection after every message until the application has taken it,
    and starts again then: two changes of the event loop's watch list per message, about a tenth
    of the server's time at 2,000 players.  Here reading stops only once
    :data:`QUEUED_MESSAGES` wait, so that a client sending faster than the application reads is
    still held back, at no cost to the others."""

    class Queued(base):  # type: ignore[valid-type, misc]
        stopped = False
        """Reading is stopped here, until the application has taken every message."""

        def send_receive_event_to_app(self) -> None:
            self.read_paused = True  # so that base never stops reading itself
            super().send_receive_event_to_app()
            if not self.stopped and self.queue.qsize() >= QUEUED_MESSAGES:
                self.stopped = True
                self.transport.pause_reading()

        async def receive(self) -> Any:
            message = await self.queue.get()
            if self.stopped and self.queue.empty():
                self.stopped = False
                self.transport.resume_reading()
            return message

    Queued.__name__ = Queued.__qualname__ = f"Queued{base.__name__}"
    return Queued


def websocket_protocol() -> type[Any]:
    """The WebSocket protocol class the server runs with (uvicorn's ``ws=``):
    :func:`queued_websockets` of uvicorn's sans-I/O protocol."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    return queued_websockets(WebSocketsSansIOProtocol)
