"""Fairness over a network: clock estimates, rate limits, and settling races.

In a real-time game the engine judges a race action against the position its player saw (the
game names it: :meth:`Game.race_aim`, :meth:`State.race_version`).  Over a network, one more
thing matters: two players race to answer the same position; the one whose packet arrives first
is not always the one who reacted first, because their connections differ.  :class:`RaceDesk`
credits each action at the moment the player reacted (measured from when the state reached that
player, so that latency cancels out), holds the actions of a race for a short window, and
applies them in the order of their credit.  How it works and its limits are in
``docs/server.md`` ("Fair races").
"""

from __future__ import annotations

import asyncio
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ratgames.core.errors import RatgamesError
from ratgames.core.game import Action, State

if TYPE_CHECKING:
    from .connections import Conn
    from .tables import Table

MIN_REACTION = 0.100
"""No person reacts faster than this (seconds): no action is credited sooner after the state
it reacts to, and a race action pressed sooner after its position appeared on a screen is aimed
at the position before it."""
MAX_WINDOW = 0.600
"""The longest a race stays open after its first action arrived (seconds)."""
MARGIN = 0.030
"""Slack added to the window for jitter (seconds)."""
DEFAULT_RTT = 0.100
"""The round trip assumed for a connection not measured yet (seconds)."""
MAX_RTT = 0.300
"""The longest round trip the server makes up for (seconds), when it cannot measure the
connection itself: a client that answers pings late cannot make its reactions look faster by
more than this."""
TRANSPORT_SLACK = 0.025
"""What the round trip of the pings may exceed the transport's own measure by (seconds): the
time the client and the server take to read and answer a message."""
CLAIM_SLACK = 0.040
"""How much earlier than its arrival allows a client's own times may put a reaction (seconds):
room for jitter on the way, and all that a false claim can gain."""

# struct tcp_info (linux/tcp.h): after 8 one-byte fields come 32-bit ones, the smoothed round
# trip (tcpi_rtt, microseconds) the 18th at byte 68; since Linux 4.6 the windowed minimum round
# trip (tcpi_min_rtt) follows at byte 148, after the 64-bit pacing and byte counters.
_TCPI_RTT_OFFSET = 68
_TCPI_MIN_RTT_OFFSET = 148
_TCPI_SIZE = 232
_NO_SAMPLE = 0xFFFFFFFF


def _tcp_rtt(sock: socket.socket) -> float | None:
    """The kernel's round trip of a TCP socket (seconds): its windowed minimum where the kernel
    keeps one (a receiver's delayed acknowledgements inflate the smoothed one), else the
    smoothed one; None if unknown."""
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCPI_SIZE)
    except (AttributeError, OSError):
        return None
    if len(info) < _TCPI_RTT_OFFSET + 4:
        return None
    (micros,) = struct.unpack_from("I", info, _TCPI_RTT_OFFSET)
    if len(info) >= _TCPI_MIN_RTT_OFFSET + 4:
        (least,) = struct.unpack_from("I", info, _TCPI_MIN_RTT_OFFSET)
        if 0 < least < _NO_SAMPLE and (micros == 0 or least < micros):
            micros = least
    return micros / 1e6 if micros > 0 else None


def _find_transport(send: Any, depth: int = 0) -> asyncio.BaseTransport | None:
    """The transport behind an ASGI ``send``: the server's protocol object (``send`` is its
    method) holds it; middleware wraps ``send`` in closures, which are searched."""
    if depth > 6 or send is None:
        return None
    owner = getattr(send, "__self__", None)
    transport = getattr(owner, "transport", None)
    if callable(getattr(transport, "get_extra_info", None)):  # uvloop's are not asyncio's
        return cast(asyncio.BaseTransport, transport)
    for cell in getattr(send, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if callable(inner):
            found = _find_transport(inner, depth + 1)
            if found is not None:
                return found
    return None


def transport_probe(ws: Any) -> Callable[[], float | None] | None:
    """A function reading the round trip of a WebSocket's TCP connection as the kernel measures
    it (from the acknowledgements of the server's own segments, which a client program does not
    hold back), or None where that cannot be read (no TCP socket found, not Linux)."""
    transport = _find_transport(getattr(ws, "_send", None))
    if transport is None:
        return None
    sock = transport.get_extra_info("socket")
    if sock is None or getattr(sock, "type", None) != socket.SOCK_STREAM:
        return None
    if _tcp_rtt(sock) is None:
        return None
    return lambda: None if transport.is_closing() else _tcp_rtt(sock)


class Clock:
    """What the server knows of one connection's clock, from ping/pong samples.

    A sample is the server's send time ``t0``, the client's clock ``c`` in its pong and the
    server's receive time ``t1``: the round trip is ``t1 - t0`` and the client's clock reads
    ``c - (t0 + t1) / 2`` ahead of the server's.  The estimate is the sample with the smallest
    round trip among the last few (the least disturbed by queueing).

    The pongs are the client's to send, so a client could hold them back to look farther away
    than it is (and so quicker to react).  The round trip the server makes up for
    (:meth:`credited_rtt`) is therefore bounded by the server's own measure of the connection
    when it has one (``probe``: the transport's round trip, plus :data:`TRANSPORT_SLACK`), and
    by :data:`MAX_RTT` always."""

    def __init__(self, keep: int = 8, max_rtt: float = MAX_RTT) -> None:
        self.samples: deque[tuple[float, float]] = deque(maxlen=keep)
        self.max_rtt = max_rtt
        self.probe: Callable[[], float | None] | None = None
        """Reads the transport's own round trip (seconds), if the server can."""
        self.transport: float | None = None
        """The transport's round trip at the last sample (seconds), or None."""

    def sample(self, sent: float, received: float, client_time: float) -> None:
        rtt = max(0.0, received - sent)
        self.samples.append((rtt, client_time - (sent + received) / 2.0))
        if self.probe is not None:
            measured = self.probe()
            if measured is not None:  # none yet: the kernel has not timed a segment
                self.transport = measured

    @property
    def rtt(self) -> float | None:
        """The best round trip measured by pings (seconds), or None."""
        return min(self.samples)[0] if self.samples else None

    @property
    def offset(self) -> float | None:
        """The client's clock minus the server's (seconds), or None."""
        return min(self.samples)[1] if self.samples else None

    def rtt_limit(self) -> float:
        """The longest round trip the server believes of this connection (seconds)."""
        limit = self.max_rtt
        if self.transport is not None:
            limit = min(limit, self.transport + TRANSPORT_SLACK)
        return limit

    def credited_rtt(self) -> float:
        """The round trip made up for in this connection's reactions: the best measured (or
        :data:`DEFAULT_RTT`), at most :meth:`rtt_limit`."""
        rtt = self.rtt
        return min(DEFAULT_RTT if rtt is None else rtt, self.rtt_limit())

    def oneway(self) -> float:
        """The estimated one-way delay (half the credited round trip)."""
        return self.credited_rtt() / 2.0


class TokenBucket:
    """A rate limit: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class Offer:
    """An action waiting in a race: its credit (monotonic seconds) and where it came from."""

    seat: int
    text: str
    credit: float
    arrival: float
    order: int
    conn: Conn | None
    ref: int | None


def reaction_time(
    *,
    sent: float,
    rtt: float,
    arrival: float,
    pressed_at: float | None,
    seen_at: float | None,
    offset: float | None,
) -> float:
    """How long (seconds) a person took to act after the state reached them, as far as the
    server can tell; it may come out below :data:`MIN_REACTION` (or even below zero).

    ``sent`` is when the state went out on this connection, ``rtt`` the round trip made up for
    (:meth:`Clock.credited_rtt`), ``arrival`` when the action arrived; ``pressed_at`` and
    ``seen_at`` are the client's clock (seconds) when the player acted and when it showed that
    state, ``offset`` the client's clock minus the server's.

    The server's own measure is ``arrival - sent - rtt``: the time between the state going out
    and the action coming back, less the round trip.  The client's times (``pressed_at -
    seen_at`` on one clock, else ``pressed_at`` brought to the server's clock with ``offset``)
    are believed only within :data:`CLAIM_SLACK` below that measure, and never above it: jitter
    on the way is forgiven, a made-up fast reaction is not.
    """
    measured = arrival - sent - rtt
    if pressed_at is not None and seen_at is not None and pressed_at >= seen_at:
        claim = pressed_at - seen_at
    elif pressed_at is not None and offset is not None:
        claim = (pressed_at - offset) - (sent + rtt / 2.0)
    else:
        return measured
    return min(measured, max(claim, measured - CLAIM_SLACK))


def reaction_credit(
    *,
    shown: float,
    sent: float,
    rtt: float,
    arrival: float,
    pressed_at: float | None,
    seen_at: float | None,
    offset: float | None,
) -> float:
    """The moment (server monotonic seconds) to credit a person's action: ``shown`` (when the
    server published the state the player reacted to) plus their :func:`reaction_time`, which
    counts as at least :data:`MIN_REACTION` whatever the client says or does with its pings.
    Every player's reaction counts from the same moment, whatever their latency."""
    reaction = reaction_time(
        sent=sent,
        rtt=rtt,
        arrival=arrival,
        pressed_at=pressed_at,
        seen_at=seen_at,
        offset=offset,
    )
    return shown + max(reaction, MIN_REACTION)


AIM_BACK = 16
"""How many race versions back a quick press may be aimed."""


class RaceDesk:
    """Holds the actions of a real-time table while a race is open and settles it.

    A race opens when a race action arrives (one the game names a position for,
    :meth:`Game.race_aim`), or any action arrives while the state is open to one
    (:meth:`State.race_open`: a race action that reacted earlier may still be on its way).
    It settles at the earliest moment no better-credited action can still arrive: the best
    credit so far plus the longest round trip of the people who could still act (as bounded by
    :meth:`Clock.credited_rtt`, so that a client holding its pongs back does not hold races
    open), plus a margin, and at most :data:`MAX_WINDOW` after its first action.  Then its actions
    are applied in the order of their credits.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pending: list[Offer] = []
        self.first_arrival = 0.0
        self.handle: asyncio.TimerHandle | None = None
        self.order = 0
        self.shown: dict[int, float] = {}
        """When each recent seq's state was published (monotonic seconds)."""
        self.version_seq: dict[int, int] = {}
        """For each recent race version, the seq at which it appeared."""
        self.open = False
        """The state last published is open to a race action (:meth:`State.race_open`)."""
        self.settling = False

    # --- what the table tells the desk -----------------------------------------------------------

    def published(self, seq: int, state: State) -> None:
        """``state``, the state after ``seq`` actions, went out now."""
        now = time.monotonic()
        self.shown.setdefault(seq, now)
        version = state.race_version()
        if version is not None:
            self.version_seq.setdefault(version, seq)
        self.open = state.race_open()
        if len(self.shown) > 512:
            for old in sorted(self.shown)[:256]:
                del self.shown[old]
        if len(self.version_seq) > 512:
            for old in sorted(self.version_seq)[:256]:
                del self.version_seq[old]

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.pending.clear()

    # --- offers -------------------------------------------------------------------------------

    def race_aim(self, text: str) -> tuple[Action, int] | None:
        """The action written ``text`` and the race version it answers, or None for an action
        that names none (or text that is not an action of the game: the table refuses it when
        it comes to be applied)."""
        game = self.table.game
        try:
            action = game.parse_action(text)
        except RatgamesError:
            return None
        version = game.race_aim(action)
        return None if version is None else (action, version)

    def _seq_seen(self, conn: Conn | None, version: int | None) -> int:
        """The seq of the state the player reacted to: for a race action aimed at ``version``
        the state that showed it, else the latest state sent to the connection."""
        if version is not None:
            seq = self.version_seq.get(version)
            if seq is not None:
                return seq
        if conn is not None and conn.sent_at:
            return max(conn.sent_at)
        return self.table.seq

    def aim(self, conn: Conn, version: int, since: float) -> int:
        """The race version a race action is aimed at when its player pressed ``since`` seconds
        after ``version`` reached their screen: that version if it had been there at least
        :data:`MIN_REACTION`, else the latest one before it that had (by when each went out on
        this connection), else the oldest one shown there lately."""
        if since >= MIN_REACTION:
            return version
        seq = self.version_seq.get(version)
        sent = conn.sent_at.get(seq) if seq is not None else None
        if sent is None:
            return version
        cutoff = sent + since - MIN_REACTION
        aimed = version
        for older in range(version - 1, max(-1, version - AIM_BACK - 1), -1):
            seq = self.version_seq.get(older)
            went = conn.sent_at.get(seq) if seq is not None else None
            if went is None:
                continue  # never shown on this screen (published within one batch)
            aimed = older
            if went <= cutoff:
                break
        return aimed

    def credit_for(
        self,
        conn: Conn,
        text: str,
        pressed_at: float | None,
        seen_at: float | None,
        aim: tuple[Action, int] | None = None,
    ) -> tuple[float, str]:
        """The credit (monotonic seconds) of a person's action arriving now, and the action as
        it is to be judged: a race action (``aim``: it and its version, :meth:`race_aim`)
        pressed within :data:`MIN_REACTION` of its position reaching the screen is aimed at the
        position before (see :meth:`aim`)."""
        arrival = time.monotonic()
        seq = self._seq_seen(conn, None if aim is None else aim[1])
        shown = self.shown.get(seq, arrival)
        sent = conn.sent_at.get(seq, shown)
        pressed = None if pressed_at is None else pressed_at / 1000.0
        seen = None if seen_at is None else seen_at / 1000.0
        reaction = reaction_time(
            sent=sent,
            rtt=conn.clock.credited_rtt(),
            arrival=arrival,
            pressed_at=pressed,
            seen_at=seen,
            offset=conn.clock.offset,
        )
        credit = shown + max(reaction, MIN_REACTION)
        if aim is None:
            return credit, text
        action, version = aim
        # Which position the press was aimed at follows the client's own times when it gives
        # them (a false claim can only turn a bad race action into a late one), else the
        # server's measure.
        since = pressed - seen if pressed is not None and seen is not None else reaction
        aimed = self.aim(conn, version, since)
        if aimed == version:
            return credit, text
        aimed_seq = self.version_seq.get(aimed, seq)
        floor = self.shown.get(aimed_seq, shown) + MIN_REACTION
        return max(floor, shown + reaction), str(self.table.game.aimed_at(action, aimed))

    async def offer(
        self,
        seat: int,
        text: str,
        conn: Conn | None,
        ref: int | None,
        pressed_at: float | None,
        seen_at: float | None,
        *,
        credit: float | None = None,
    ) -> None:
        """An action of a real-time table.  ``credit`` (game seconds) is given for bots, whose
        reaction the server timed itself; a person's is worked out from the connection."""
        table = self.table
        arrival = time.monotonic()
        aim = self.race_aim(text)
        if credit is not None:
            credit_m = table.t0 + credit
        elif conn is not None:
            credit_m, text = self.credit_for(conn, text, pressed_at, seen_at, aim)
        else:
            credit_m = arrival
        for other in self.pending:
            if other.seat == seat and other.text == text:
                if conn is not None:
                    conn.error("illegal_action", f"{text} is already on its way", ref)
                return
        if not self.pending and aim is None and not self.open:
            await table.apply_now([(seat, text, credit_m - table.t0, conn, ref)], [arrival])
            return
        if not self.pending:
            self.first_arrival = arrival
        self.order += 1
        self.pending.append(Offer(seat, text, credit_m, arrival, self.order, conn, ref))
        self._schedule()

    def _window_end(self) -> float:
        table = self.table
        best = min(o.credit for o in self.pending)
        rtts = [
            s.conn.clock.credited_rtt()
            for s in table.seats
            if s.kind == "person" and s.conn is not None and s.away_bot is None
        ]
        wait = max(rtts, default=0.0) + MARGIN
        return min(self.first_arrival + MAX_WINDOW, max(best + wait, self.first_arrival))

    def _schedule(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        delay = max(0.0, self._window_end() - time.monotonic())
        from .connections import spawn

        self.handle = asyncio.get_running_loop().call_later(delay, lambda: spawn(self.settle()))

    async def settle(self) -> None:
        """Apply the race's actions in the order of their credits."""
        self.handle = None
        batch = sorted(self.pending, key=lambda o: (o.credit, o.order))
        self.pending = []
        if not batch:
            return
        t0 = self.table.t0
        self.table.lobby.metrics.race_settled()
        await self.table.apply_now(
            [(o.seat, o.text, o.credit - t0, o.conn, o.ref) for o in batch],
            [o.arrival for o in batch],
        )
