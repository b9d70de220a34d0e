"""Fairness over a network: clock estimates, rate limits, and settling slap races.

In a real-time game (Egyptian Ratscrew) the engine judges a slap against the pile its player
saw (``slap@N``).  Over a network, one more thing matters: two players slap the same pile; the
one whose packet arrives first is not always the one who reacted first, because their
connections differ.  :class:`RaceDesk` credits each action at the moment the player reacted
(measured from when the state reached that player, so that latency cancels out), holds the
actions of a race for a short window, and applies them in the order of their credit.  How it
works and its limits are in ``docs/server.md`` ("Fair slaps").
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import Conn, Table

MIN_REACTION = 0.100
"""No person reacts faster than this (seconds): a claim of a faster reaction is raised to it."""
MAX_WINDOW = 0.600
"""The longest a race stays open after its first action arrived (seconds)."""
MARGIN = 0.030
"""Slack added to the window for jitter (seconds)."""
DEFAULT_RTT = 0.100
"""The round trip assumed for a connection not measured yet (seconds)."""


class Clock:
    """What the server knows of one connection's clock, from ping/pong samples.

    A sample is the server's send time ``t0``, the client's clock ``c`` in its pong and the
    server's receive time ``t1``: the round trip is ``t1 - t0`` and the client's clock reads
    ``c - (t0 + t1) / 2`` ahead of the server's.  The estimate is the sample with the smallest
    round trip among the last few (the least disturbed by queueing)."""

    def __init__(self, keep: int = 8) -> None:
        self.samples: deque[tuple[float, float]] = deque(maxlen=keep)

    def sample(self, sent: float, received: float, client_time: float) -> None:
        rtt = max(0.0, received - sent)
        self.samples.append((rtt, client_time - (sent + received) / 2.0))

    @property
    def rtt(self) -> float | None:
        """The best round trip measured (seconds), or None."""
        return min(self.samples)[0] if self.samples else None

    @property
    def offset(self) -> float | None:
        """The client's clock minus the server's (seconds), or None."""
        return min(self.samples)[1] if self.samples else None

    def oneway(self) -> float:
        """The estimated one-way delay (half the best round trip)."""
        rtt = self.rtt
        return (DEFAULT_RTT if rtt is None else rtt) / 2.0


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


def reaction_credit(
    *,
    shown: float,
    sent: float,
    oneway: float,
    arrival: float,
    pressed_at: float | None,
    seen_at: float | None,
    offset: float | None,
) -> float:
    """The moment (server monotonic seconds) to credit a person's action.

    ``shown`` is when the server published the state the player reacted to, ``sent`` when it
    went out on this connection, ``oneway`` the connection's one-way delay, ``arrival`` when the
    action arrived; ``pressed_at`` and ``seen_at`` are the client's clock (seconds) when the
    player acted and when it showed that state, ``offset`` the client's clock minus the server's.

    The player's reaction is ``pressed_at - seen_at`` when the client says both, else the press
    time brought to the server's clock less the moment the state reached the client, else the
    arrival less the one-way delay less that moment.  It is bounded: at least
    :data:`MIN_REACTION`, at most what the arrival allows (``arrival - reached``).  The credit is
    ``shown + reaction``: every player's reaction counts from the same moment, whatever their
    latency, and never later than the action's arrival.
    """
    reached = sent + oneway
    if pressed_at is not None and seen_at is not None and pressed_at >= seen_at:
        claim = pressed_at - seen_at
    elif pressed_at is not None and offset is not None:
        claim = (pressed_at - offset) - reached
    else:
        claim = (arrival - oneway) - reached
    reaction = max(claim, MIN_REACTION)
    reaction = min(reaction, arrival - reached)
    reaction = max(reaction, 0.0)
    return shown + reaction


class RaceDesk:
    """Holds the actions of a real-time table while a race is open and settles it.

    A race opens when a slap arrives, or any action arrives while the pile can be slapped
    (a slap that reacted earlier may still be on its way).  It settles at the earliest moment
    no better-credited action can still arrive: the best credit so far plus the longest round
    trip of the people who could still act, plus a margin, and at most :data:`MAX_WINDOW` after
    its first action.  Then its actions are applied in the order of their credits.
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
        """For each recent pile version, the seq at which it appeared."""
        self.slappable = False
        self.settling = False

    # --- what the table tells the desk -----------------------------------------------------------

    def published(self, seq: int, view: dict[str, Any]) -> None:
        """The state after ``seq`` actions went out now; ``view`` is its spectator view."""
        now = time.monotonic()
        self.shown.setdefault(seq, now)
        version = view.get("pile_version")
        if isinstance(version, int):
            self.version_seq.setdefault(version, seq)
        self.slappable = bool(view.get("slappable"))
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

    def _seq_seen(self, conn: Conn | None, text: str) -> int:
        """The seq of the state the player reacted to: for ``slap@N`` the state that showed pile
        version N, else the latest state sent to the connection."""
        if text.startswith("slap@"):
            digits = text[5:]
            if digits.isdigit():
                seq = self.version_seq.get(int(digits))
                if seq is not None:
                    return seq
        if conn is not None and conn.sent_at:
            return max(conn.sent_at)
        return self.table.seq

    def credit_for(
        self, conn: Conn, text: str, pressed_at: float | None, seen_at: float | None
    ) -> float:
        """The credit (monotonic seconds) of a person's action arriving now."""
        arrival = time.monotonic()
        seq = self._seq_seen(conn, text)
        shown = self.shown.get(seq, arrival)
        sent = conn.sent_at.get(seq, shown)
        return reaction_credit(
            shown=shown,
            sent=sent,
            oneway=conn.clock.oneway(),
            arrival=arrival,
            pressed_at=None if pressed_at is None else pressed_at / 1000.0,
            seen_at=None if seen_at is None else seen_at / 1000.0,
            offset=conn.clock.offset,
        )

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
        if credit is not None:
            credit_m = table.t0 + credit
        elif conn is not None:
            credit_m = self.credit_for(conn, text, pressed_at, seen_at)
        else:
            credit_m = arrival
        is_slap = text.strip().lower().startswith("slap@")
        for other in self.pending:
            if other.seat == seat and other.text == text:
                if conn is not None:
                    conn.error("illegal_action", f"{text} is already on its way", ref)
                return
        if not self.pending and not is_slap and not self.slappable:
            await table.apply_now([(seat, text, credit_m - table.t0, conn, ref)])
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
            (s.conn.clock.rtt if s.conn.clock.rtt is not None else DEFAULT_RTT)
            for s in table.seats
            if s.kind == "person" and s.conn is not None and s.away_bot is None
        ]
        wait = max(rtts, default=0.0) + MARGIN
        return min(self.first_arrival + MAX_WINDOW, max(best + wait, self.first_arrival))

    def _schedule(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        delay = max(0.0, self._window_end() - time.monotonic())
        from .tables import spawn

        self.handle = asyncio.get_running_loop().call_later(delay, lambda: spawn(self.settle()))

    async def settle(self) -> None:
        """Apply the race's actions in the order of their credits."""
        self.handle = None
        batch = sorted(self.pending, key=lambda o: (o.credit, o.order))
        self.pending = []
        if not batch:
            return
        t0 = self.table.t0
        await self.table.apply_now([(o.seat, o.text, o.credit - t0, o.conn, o.ref) for o in batch])
