"""The server's Prometheus metrics (``GET /metrics``, docs/operating.md lists each one).

Each app has a registry of its own (:class:`Metrics`), so that several servers in one process
keep apart.  What a table does while handling an action costs an increment or one observation
of a histogram; the counts of connections and tables are read from the lobby only when the
metrics are scraped.  :data:`OFF` does nothing (``ratgames serve --no-metrics``).
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from .lobby import Lobby

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of the text exposition format."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds from an action's arrival to its states queued (real-time races wait up to 0.6 s)."""
COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
"""Seconds of a database commit (SQLite's take a fraction of a millisecond)."""
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds a bot takes for a move (search bots are held to --max-bot-seconds)."""

TABLE_STATES = ("lobby", "playing", "finished")
CONNECTION_KINDS = ("seat", "spectator", "none")


class Metrics:
    """The metrics of one server.  The methods are what the tables call; :meth:`watch` adds
    the lobby's gauges, read at each scrape."""

    enabled = True

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        ProcessCollector(registry=r)
        self.actions = Counter(
            "ratgames_actions", "Actions applied at the tables (people's and bots').", registry=r
        )
        self.latency = Histogram(
            "ratgames_action_latency_seconds",
            "From an action's arrival at the server to the new state queued to every "
            "connection of its table (real-time races include their wait).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commits = Histogram(
            "ratgames_db_commit_seconds",
            "Time of each database transaction of the writer (one holds every write queued "
            "since the last).",
            buckets=COMMIT_BUCKETS,
            registry=r,
        )
        self.thinking = Histogram(
            "ratgames_bot_think_seconds",
            "Time a bot took to choose a move: quick (in the server) or search (in a worker "
            "process, waiting for one included).",
            ["kind"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.races = Counter(
            "ratgames_races_settled",
            "Real-time races settled (the presses of one window applied in order).",
            registry=r,
        )
        self.rejections = Counter(
            "ratgames_rejected_messages",
            "Client messages refused, by the error code sent back (code dropped: messages "
            "dropped unread for their address's rate).",
            ["code"],
            registry=r,
        )
        self.tables_created = Counter(
            "ratgames_tables_created", "Tables created (rematches included).", registry=r
        )
        self.games_finished = Counter(
            "ratgames_games_finished", "Games played to their end.", registry=r
        )
        self.worker_restarts = Counter(
            "ratgames_worker_restarts",
            "Times the search bots' process pool was started again after a worker died.",
            registry=r,
        )
        self._quick = self.thinking.labels("quick")
        self._search = self.thinking.labels("search")
        self._codes: dict[str, Any] = {}

    def attach(self, lobby: Lobby) -> None:
        """Count what ``lobby`` does, and report its connections and tables at each scrape."""
        lobby.metrics = self
        lobby.writer.on_commit = self.committed
        self.registry.register(LobbyCollector(lobby))

    def text(self) -> bytes:
        """The metrics in Prometheus's text exposition format."""
        return generate_latest(self.registry)

    # --- what the server calls ------------------------------------------------------------------

    def applied(self, count: int, arrivals: list[float], now: float) -> None:
        """``count`` actions applied, their states queued at ``now`` (monotonic seconds);
        ``arrivals`` are when they reached the server."""
        self.actions.inc(count)
        for at in arrivals:
            self.latency.observe(max(0.0, now - at))

    def committed(self, seconds: float) -> None:
        self.commits.observe(seconds)

    def thought(self, search: bool, seconds: float) -> None:
        (self._search if search else self._quick).observe(seconds)

    def race_settled(self) -> None:
        self.races.inc()

    def rejected(self, code: str) -> None:
        child = self._codes.get(code)
        if child is None:
            child = self._codes[code] = self.rejections.labels(code)
        child.inc()

    def table_created(self) -> None:
        self.tables_created.inc()

    def game_finished(self) -> None:
        self.games_finished.inc()

    def worker_restarted(self) -> None:
        self.worker_restarts.inc()


class NoMetrics(Metrics):
    """Metrics turned off: every call does nothing."""

    enabled = False

    def __init__(self) -> None:  # no registry
        pass

    def attach(self, lobby: Lobby) -> None:
        lobby.metrics = self

    def text(self) -> bytes:
        return b""

    def applied(self, count: int, arrivals: list[float], now: float) -> None:
        pass

    def committed(self, seconds: float) -> None:
        pass

    def thought(self, search: bool, seconds: float) -> None:
        pass

    def race_settled(self) -> None:
        pass

    def rejected(self, code: str) -> None:
        pass

    def table_created(self) -> None:
        pass

    def game_finished(self) -> None:
        pass

    def worker_restarted(self) -> None:
        pass


OFF: Metrics = NoMetrics()
"""Metrics that do nothing (a :class:`Lobby` made without a server, or ``--no-metrics``)."""


class LobbyCollector(Collector):
    """The lobby's gauges, counted when scraped (nothing to keep up to date per action)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def describe(self) -> list[Any]:
        return list(self._families(Tally(), Tally(), 0))

    def collect(self) -> Iterator[Any]:
        # Copies: a scrape runs on the event loop, but a list is safe against any change.
        tables = Tally(t.status for t in list(self.lobby.tables.values()))
        conns = Tally(
            "none" if c.table is None else "spectator" if c.seat is None else "seat"
            for c in list(self.lobby.conns)
        )
        return self._families(tables, conns, self.lobby.expired)

    @staticmethod
    def _families(tables: Tally[str], conns: Tally[str], expired: int) -> Iterator[Any]:
        table_family = GaugeMetricFamily(
            "ratgames_tables",
            "Tables held by this server, by state (lobby: waiting to start; playing; "
            "finished: over, kept for a rematch a while).",
            labels=["state"],
        )
        for state in (*TABLE_STATES, *sorted(set(tables) - set(TABLE_STATES))):
            table_family.add_metric([state], tables.get(state, 0))
        yield table_family
        conn_family = GaugeMetricFamily(
            "ratgames_connections",
            "WebSocket connections open, by kind (seat: a player's; spectator: watching a "
            "table; none: not at a table yet).",
            labels=["kind"],
        )
        for kind in CONNECTION_KINDS:
            conn_family.add_metric([kind], conns.get(kind, 0))
        yield conn_family
        expired_family = CounterMetricFamily(
            "ratgames_tables_expired",
            "Lobby tables expired for want of players since the server started.",
        )
        expired_family.add_metric([], expired)
        yield expired_family
