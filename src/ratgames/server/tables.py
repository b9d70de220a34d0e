"""Tables in play: seats, the connections at them, bots and timeouts.

Everything here runs on the server's event loop.  A table changes only inside ``table.lock``,
and every accepted action is stored (awaiting the database writer) before anyone is told of it:
the actor gets ``ack``, everyone gets a ``state`` made for them (a seat its observation and legal
actions, a spectator the spectator view).  Bots play through the same path as people, seeing
only their seat; search bots think in a process pool, on a state sampled from what their seat
knows, so neither the event loop nor the true hidden cards are ever theirs.  The lobby that
holds the tables is in :mod:`.lobby`, the connections in :mod:`.connections`.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import hmac
import logging
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ratgames.core.bots import Bot, SeatView, make_bot, remote_spec_problem
from ratgames.core.errors import IllegalAction, InvalidNotation
from ratgames.core.game import Game, State
from ratgames.core.rng import Rng
from ratgames.levels import LEVEL_NAMES, level_bot

from . import store
from .connections import Conn, encode, spawn
from .fairness import MAX_RTT, RaceDesk, TokenBucket
from .limits import Rate
from .logs import event
from .protocol import PROTOCOL_VERSION, SampleOut, TimeoutPolicy, name_key
from .thinking import think

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("ratgames.server")

CHAT_RATE = Rate(5, 1.0, 10)
HELLO_RATE = Rate(10, 1.0, 40)
ARRIVALS_RATE = Rate(10, 1.0, 20)
MESSAGE_RATE = Rate(100, 1.0, 200)
CONNECT_RATE = Rate(20, 1.0, 64)
CREATE_RATE = Rate(10, 60.0, 10)
LOOKUP_RATE = Rate(10, 60.0, 20)


class RequestError(Exception):
    """A request that cannot be served: ``status`` (HTTP) and ``code`` (protocol) say why."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class Elsewhere(RequestError):
    """The table is owned by another server process (a live lease): ``address`` is where its
    clients reach it, when that process said."""

    def __init__(self, code: str, address: str | None) -> None:
        where = f" at {address}" if address else ""
        super().__init__(
            409,
            "wrong_status",
            f"table {code} is served by another server process{where}: reconnect "
            + ("there" if address else "in a few seconds"),
        )
        self.address = address


def hash_token(token: str) -> str:
    """The stored form of a token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def same_token(token: str | None, stored_hash: str | None) -> bool:
    """True if ``token`` hashes to ``stored_hash`` (compared in constant time)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def resolve_bot(game: Game, spec: str | None, settings: Settings | None = None) -> str:
    """A bot spec from a spec or a level name (default ``normal``), checked by making the bot;
    with a server's ``settings``, a search bot's budget is checked against its limits too, and a
    parameter that could name a file on the server takes only the names ratgames comes with."""
    text = (spec or "normal").strip()
    problem = remote_spec_problem(game.id, text) if settings is not None else None
    if problem is not None:
        raise RequestError(400, "invalid_message", problem)
    level = text in LEVEL_NAMES
    if level:
        text = level_bot(game.id, text)
    bot = make_bot(game, text)
    if settings is not None and not level:
        too_much = over_budget(bot, settings)
        if too_much:
            raise RequestError(
                400,
                "invalid_message",
                f"bot {text!r} would think too long for this server: {too_much}; "
                f"the levels ({', '.join(LEVEL_NAMES)}) are always allowed",
            )
    return text


def over_budget(bot: Bot, settings: Settings) -> str | None:
    """What in a search bot's budget is above the server's limits (None if nothing)."""
    if not bot.turn_based_only:
        return None
    seconds = getattr(bot, "seconds", 0.0)
    if isinstance(seconds, int | float) and seconds > settings.max_bot_seconds:
        return f"seconds={seconds:g} is above {settings.max_bot_seconds:g}"
    iterations = getattr(bot, "iterations", 0)
    if (
        isinstance(iterations, int)
        and not (isinstance(seconds, int | float) and seconds > 0)
        and iterations > settings.max_bot_iterations
    ):
        return f"iterations={iterations} is above {settings.max_bot_iterations}"
    return None


def within_budget(bot: Bot, settings: Settings) -> None:
    """Bring a search bot's budget down to the server's limits (a table stored before the
    limits were lowered keeps playing, within them)."""
    seconds = getattr(bot, "seconds", 0.0)
    if isinstance(seconds, int | float) and seconds > settings.max_bot_seconds:
        bot.seconds = settings.max_bot_seconds  # type: ignore[attr-defined]
    iterations = getattr(bot, "iterations", 0)
    if isinstance(iterations, int) and iterations > settings.max_bot_iterations:
        bot.iterations = settings.max_bot_iterations  # type: ignore[attr-defined]


def events_overlap(old: list[Any], new: list[Any]) -> int:
    """How many events ``new`` begins with that end ``old``: the games keep their events as a
    list that grows at the end (and may drop its oldest), so the longest end of ``old`` that
    begins ``new`` is what was already seen."""
    if not old:
        return 0
    for k in range(min(len(old), len(new)), 0, -1):
        if old[len(old) - k] == new[0] and old[len(old) - k :] == new[:k]:
            return k
    return 0


# --- seats and tables ----------------------------------------------------------------------------


@dataclass
class Seat:
    """A seat at a table: ``open`` (free for a person), taken by a ``person``, or a ``bot``."""

    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    conn: Conn | None = None
    away_bot: Bot | None = None
    away_timer: asyncio.TimerHandle | None = None
    player: Bot | None = None
    """The bot object of a bot seat (made at the start, or when it arrives late)."""
    arrived: float | None = None
    """When a person or a bot took this seat after the start (seconds of play; a late seat,
    :meth:`Table.late_seats`), or None.  Stored with the seat (``seats.arrived``), so a table
    brought back after a restart or taken over by another process keeps it."""

    def row(self, index: int) -> store.SeatRow:
        return store.SeatRow(index, self.kind, self.name, self.bot, self.token_hash, self.arrived)


@dataclass
class Settings:
    """How the server runs its tables."""

    bot_pause: float = 0.8
    """Seconds a turn-based bot waits before its move, so people can follow."""
    pool_workers: int = 1
    ping_interval: float = 2.0
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    """Host names (``Host`` header, without the port) the server answers to besides IP
    addresses and localhost names (``*`` for any): a page of another name that was pointed at
    this server (DNS rebinding) is refused."""
    warm_pool: bool = True
    """Start the search bots' processes with the server (else when first needed)."""
    max_rtt: float = MAX_RTT
    """The longest round trip (seconds) made up for in real-time races (docs/server.md, "Fair
    races")."""
    transport_rtt: bool = True
    """Bound each connection's round trip made up for by the kernel's TCP measure of it (off
    behind a reverse proxy, where that measure is of the proxy's hop)."""
    # --- limits (docs/server.md, "Limits"; 0 turns a limit off) ---
    max_connections: int = 0
    """TCP connections held at once (0: as many as the open-files limit allows, less a
    reserve).  Applied by ``ratgames serve``'s transport guard."""
    max_conns_per_address: int = 64
    """Connections (TCP, and WebSockets among them) from one address at once."""
    idle_timeout: float = 10.0
    """Seconds a new connection has to send a request's headers, and a WebSocket to say
    ``hello``, before it is closed."""
    max_spectators: int = 50
    """Spectators at one table at once (seats are always let in)."""
    table_update_interval: float = 0.25
    """At most one ``table`` message per table in this many seconds for people coming and
    going (a start, a seat taken or given, the end go out at once)."""
    spectator_chat: bool = False
    """Whether spectators may chat (players always may)."""
    chat_rate: Rate = CHAT_RATE
    """Chat lines at one table."""
    hello_rate: Rate = HELLO_RATE
    """``hello`` messages from one address."""
    arrivals_rate: Rate = ARRIVALS_RATE
    message_rate: Rate = MESSAGE_RATE
    connect_rate: Rate = CONNECT_RATE
    """New TCP connections from one address (``ratgames serve``'s transport guard)."""
    """WebSocket messages from one address, all its connections together (each connection
    has its own limit too); beyond it they are dropped unread."""
    """Spectators' ``hello`` messages at one table (seats are never held up by them)."""
    create_rate: Rate = CREATE_RATE
    """Tables created from one address."""
    lookup_rate: Rate = LOOKUP_RATE
    """Failed lookups of a table code from one address (REST and ``hello``); once spent, every
    lookup from the address is refused until it refills."""
    lobby_idle: float = 600.0
    """Seconds a table may wait in the lobby with nobody connected before it expires."""
    list_cache: float = 0.5
    """Seconds a page of ``GET /api/tables`` is kept and served again as it was."""
    list_limit: int = 100
    """Tables in one page of ``GET /api/tables`` unless ``limit`` says otherwise (at most
    500)."""
    max_bot_seconds: float = 5.0
    """The longest a search bot at this server may think per move (seconds)."""
    max_bot_iterations: int = 20_000
    """The most iterations a search bot at this server may use per move."""
    bound_logs: bool = False
    """Rate-limit repeated log lines (``ratgames serve`` turns it on)."""
    metrics: bool = True
    """Keep Prometheus metrics and answer ``GET /metrics`` (docs/operating.md)."""
    metrics_allow: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) shown ``/metrics`` (none given: every one)."""
    # --- several processes over one database (docs/scaling.md) ---
    lease: float = 0.0
    """Seconds a table's lease runs when several processes share the database (renewed every
    third of it while the process lives); 0: one process, no leases (SQLite's default)."""
    address: str | None = None
    """The address (``http://host:port``) clients reach this process at, told to clients of
    its tables that reach another process."""
    adopt: bool = True
    """Take over, as soon as their lease runs out, the tables in play of a process that died
    (else a table is taken over when a client asks for it)."""

    def rates(self) -> dict[str, Rate]:
        return {
            "hello": self.hello_rate,
            "create": self.create_rate,
            "lookup": self.lookup_rate,
            "message": self.message_rate,
        }


@dataclass
class Table:
    """One table: its seats, its game, the connections at it."""

    lobby: Lobby
    code: str
    game: Game
    public: bool
    timeout: TimeoutPolicy
    host_token_hash: str
    seats: list[Seat]
    created: str
    status: str = "lobby"
    seed: int | None = None
    state: State | None = None
    seq: int = 0
    t0: float = 0.0
    game_no: int = 1
    rematch_of: str | None = None
    next_table: str | None = None
    record_id: int | None = None
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    reactions: dict[int, tuple[asyncio.TimerHandle, str]] = field(default_factory=dict)
    race: RaceDesk | None = None
    lease: store.Lease | None = None
    """This process's lease on the table (when several processes share the database)."""
    finished_at: float = 0.0
    last_t: float = 0.0
    number: int = 0
    """The order in which this process made or brought back the table (the listing's order)."""
    active_at: float = field(default_factory=time.monotonic)
    """When someone last came, went or changed something (monotonic s): idle lobby tables
    expire."""
    chat_bucket: TokenBucket | None = None
    arrivals_bucket: TokenBucket | None = None
    _table_due: asyncio.TimerHandle | None = None
    _table_sent: float = -1e9

    # --- descriptions ---------------------------------------------------------------------------

    def row(self) -> store.TableRow:
        return store.TableRow(
            code=self.code,
            game=self.game.id,
            players=self.game.players,
            options=dict(self.game.options),
            public=self.public,
            status=self.status,
            host_token_hash=self.host_token_hash,
            timeout=self.timeout.model_dump(),
            seed=self.seed,
            game_no=self.game_no,
            rematch_of=self.rematch_of,
            next_table=self.next_table,
            record_id=self.record_id,
            created=self.created,
        )

    def seat_rows(self) -> list[store.SeatRow]:
        return [s.row(i) for i, s in enumerate(self.seats)]

    def info(self, insider: bool = False) -> dict[str, Any]:
        """The table as :class:`~ratgames.server.protocol.TableInfo` (a dict).

        At a private table the rematch's code (``next_table``) is for its ``insider``s only:
        its seats and its host (their tokens), not spectators or anyone who merely knows the
        code."""
        hosts = {c.seat for c in self.conns if c.host and c.seat is not None}
        late = self.late_seats()
        return {
            "code": self.code,
            "link": f"/t/{self.code}",
            "game": self.game.id,
            "title": self.game.title,
            "players": self.game.players,
            "options": dict(self.game.options),
            "public": self.public,
            "status": self.status,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.kind == "bot" or s.conn is not None,
                    "away_bot": s.away_bot is not None,
                    "host": i in hosts,
                    "late": i in late,
                    "arrived": None if s.arrived is None else round(s.arrived, 3),
                }
                for i, s in enumerate(self.seats)
            ],
            "timeout": self.timeout.model_dump(),
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "game_no": self.game_no,
            "next_table": self.next_table if self.public or insider else None,
            "record_id": self.record_id,
            "created": self.created,
        }

    def now(self) -> float:
        """Seconds of play since the start (never below the last action's time)."""
        return max(0.0, time.monotonic() - self.t0)

    # --- broadcasting ---------------------------------------------------------------------------

    def broadcast_table(self, urgent: bool = True) -> None:
        """Send everyone the table.  ``urgent=False`` (someone came or went): at most one such
        message per :attr:`Settings.table_update_interval`, carrying every change since."""
        self.active_at = time.monotonic()
        if urgent:
            if self.public:
                self.lobby.listing_changed()
            self._send_table()
            return
        if self._table_due is not None:
            return
        wait = self._table_sent + self.lobby.settings.table_update_interval - time.monotonic()
        if wait <= 0:
            self._send_table()
        else:
            self._table_due = asyncio.get_running_loop().call_later(wait, self._send_table)

    def _send_table(self) -> None:
        if self._table_due is not None:
            self._table_due.cancel()
            self._table_due = None
        self._table_sent = time.monotonic()
        if self.public:
            self.lobby.announce(self)  # to the other processes' lobbies, if any
        if not self.conns:
            return
        message = encode({"type": "table", "v": PROTOCOL_VERSION, "table": self.info(insider=True)})
        outside = message
        if not self.public and self.next_table is not None:
            outside = encode({"type": "table", "v": PROTOCOL_VERSION, "table": self.info()})
        for conn in list(self.conns):
            conn.send_text(message if conn.seat is not None or conn.host else outside)

    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None)

    def spectator_arrives(self) -> None:
        """A spectator's ``hello``: refused beyond :attr:`Settings.arrivals_rate` (a seat's
        hello never counts, so spectators cannot keep the players out)."""
        rate = self.lobby.settings.arrivals_rate
        if rate.off:
            return
        if self.arrivals_bucket is None:
            self.arrivals_bucket = rate.bucket()
        if not self.arrivals_bucket.allow():
            raise RequestError(
                429,
                "rate_limited",
                f"too many spectators arriving at table {self.code} ({rate.words()}); "
                "try again in a moment",
            )

    def chat(self, line: dict[str, Any]) -> None:
        """A chat line to everyone at the table (refused beyond the table's chat rate)."""
        rate = self.lobby.settings.chat_rate
        if not rate.off:
            if self.chat_bucket is None:
                self.chat_bucket = rate.bucket()
            if not self.chat_bucket.allow():
                raise RequestError(
                    429, "rate_limited", f"this table's chat is busy: {rate.words()} lines"
                )
        text = encode(line)
        for conn in list(self.conns):
            conn.send_text(text)

    def state_message(self, conn: Conn, spectator_view: dict[str, Any] | None) -> dict[str, Any]:
        """The ``state`` for one connection (its seat's observation, or the spectator view)."""
        state = self.state
        assert state is not None
        seat = conn.seat
        outcome = state.outcome()
        if seat is None:
            view = spectator_view if spectator_view is not None else state.spectator_view()
            observation = None
            legal: list[str] = []
            events = view.get("events", [])
        else:
            observation = state.observation(seat)
            view = None
            to_act = state.seats_to_act()
            legal = [str(a) for a in state.legal_actions(seat)] if seat in to_act else []
            events = observation.get("events", [])
        events = events if isinstance(events, list) else []
        kept = events_overlap(conn.seen_events, events)
        fresh = events[kept:]
        conn.seen_events = events
        items = [{"event": e, "text": self._sentence(e, seat)} for e in fresh]
        message: dict[str, Any] = {
            "type": "state",
            "v": PROTOCOL_VERSION,
            "seq": self.seq,
            "seat": seat,
            "observation": observation,
            "view": view,
            "legal": legal,
            "to_act": state.seats_to_act(),
            "events": items,
            "time": round(self.last_time(), 4),
            "outcome": outcome.to_json() if outcome is not None else None,
            "record_id": self.record_id,
            "race_version": state.race_version(),
        }
        if conn.delta_events and kept:
            whole = observation if observation is not None else view
            assert whole is not None
            key = "observation" if observation is not None else "view"
            message[key] = {**whole, "events": fresh}
            message["events_kept"] = kept
        return message

    def _sentence(self, event: Any, viewer: int | None) -> str | None:
        if not isinstance(event, dict):
            return None
        try:
            return self.game.describe_event(event, viewer)
        except Exception:  # a game's renderer failing must not stop the table; it is logged
            log.exception("%s: describe_event failed for %r", self.game.id, event)
            return None

    def last_time(self) -> float:
        """The time of the last action applied (seconds of play)."""
        return self.last_t

    def broadcast_state(self) -> None:
        """Send every connection its ``state``."""
        if self.state is None:
            return
        spectators = [c for c in self.conns if c.seat is None]
        view = self.state.spectator_view() if spectators else None
        if self.race is not None:
            self.race.published(self.seq, self.state)
        for conn in list(self.conns):
            if conn.seat is not None:
                conn.send(self.state_message(conn, view), seq=self.seq)
        # Spectators who saw the same events get the same message: encoded once.
        shared: dict[tuple[bool, int], tuple[str, list[Any]]] = {}
        for conn in spectators:
            key = (conn.delta_events, id(conn.seen_events))
            made = shared.get(key)
            if made is None:
                text = encode(self.state_message(conn, view))
                shared[key] = (text, conn.seen_events)
            else:
                text, conn.seen_events = made
            conn.send_text(text, seq=self.seq)

    # --- seats ----------------------------------------------------------------------------------

    def late_seats(self) -> frozenset[int]:
        """The seats for late arrivals (:meth:`Game.late_seats`): the game may start with them
        open, and a person or a bot may take one while the game is played."""
        return frozenset(self.game.late_seats())

    def open_late_seats(self) -> list[int]:
        """The late seats still open while the game is played (none before or after it)."""
        if self.status != "playing" or self.state is None or self.state.is_over():
            return []
        late = self.late_seats()
        return [i for i, s in enumerate(self.seats) if s.kind == "open" and i in late]

    def open_seat(self, wanted: int | None) -> int:
        if self.status != "lobby":
            return self._open_late_seat(wanted)
        if wanted is not None:
            if not 0 <= wanted < len(self.seats):
                raise RequestError(
                    409,
                    "wrong_status",
                    f"there is no seat {wanted}; seats are 0 to {len(self.seats) - 1}",
                )
            if self.seats[wanted].kind != "open":
                raise RequestError(409, "wrong_status", f"seat {wanted} is not open")
            return wanted
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                return i
        raise RequestError(409, "wrong_status", "the table has no open seat")

    def _open_late_seat(self, wanted: int | None) -> int:
        """A seat to take once the game has started: an open late seat (``wanted``, or the
        first), or why there is none."""
        if self.status != "playing":
            raise RequestError(409, "wrong_status", "the game is over: no seat can be taken")
        late = self.late_seats()
        if not late:
            raise RequestError(
                409,
                "wrong_status",
                "the game has started: no seat can be taken (this table has no seats for late "
                "arrivals; watch it instead)",
            )
        free = self.open_late_seats()
        names = ", ".join(str(i) for i in sorted(late))
        if wanted is None:
            if free:
                return free[0]
            raise RequestError(
                409,
                "wrong_status",
                f"the game has started and its seats for late arrivals ({names}) are taken",
            )
        if not 0 <= wanted < len(self.seats):
            raise RequestError(
                409,
                "wrong_status",
                f"there is no seat {wanted}; seats are 0 to {len(self.seats) - 1}",
            )
        if wanted not in free:
            why = "is taken" if wanted in late else "is not a seat for late arrivals"
            raise RequestError(
                409,
                "wrong_status",
                f"the game has started and seat {wanted} {why}; the seats for late arrivals "
                f"are {names}, open now: {', '.join(map(str, free)) or 'none'}",
            )
        return wanted

    def take_seat(self, seat: int, name: str) -> str:
        token = new_token()
        s = self.seats[seat]
        s.kind, s.name, s.token_hash, s.bot = "person", name, hash_token(token), None
        if self.status == "playing":
            s.arrived = self.now()
        return token

    def seat_bot_late(self, seat: int, name: str, spec: str) -> None:
        """A bot arrives at open late seat ``seat`` during play: made now, it reacts from the
        next change on (and at once to the pile as it is)."""
        if seat not in self.open_late_seats():
            raise RequestError(
                409,
                "wrong_status",
                f"the game has started: seat {seat} is not an open seat for late arrivals",
            )
        s = self.seats[seat] = Seat("bot", name=name, bot=spec)
        s.arrived = self.now()
        s.player = make_bot(self.game, spec, seed=(self.seed or 0) + 7919 * seat)
        within_budget(s.player, self.lobby.settings)
        s.player.new_game(seat)

    def check_name_free(self, name: str) -> None:
        """Refuse ``name`` if another seat goes by it, or by one that looks the same (the same
        once casefolded and NFKC-normalised: "ann", "ANN", full-width "Ａｎｎ")."""
        key = name_key(name)
        for i, s in enumerate(self.seats):
            if s.kind != "open" and s.name is not None and name_key(s.name) == key:
                raise RequestError(
                    409,
                    "wrong_status",
                    f"seat {i} at this table already goes by {s.name!r}: choose a name that "
                    "differs from the others by more than case or width",
                )

    def seat_of_token(self, token: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "person" and same_token(token, s.token_hash):
                return i
        return None

    def token_still_valid(self, conn: Conn) -> bool:
        """The check made on every action: the connection's token is still its seat's."""
        seat = conn.seat
        if seat is None or not 0 <= seat < len(self.seats):
            return False
        stored = self.seats[seat].token_hash
        return (
            stored is not None
            and conn.token_hash is not None
            and hmac.compare_digest(stored, conn.token_hash)
        )

    # --- playing --------------------------------------------------------------------------------

    def player_for(self, seat: int) -> Bot | None:
        s = self.seats[seat]
        if s.kind == "bot":
            return s.player
        return s.away_bot

    async def start(self) -> None:
        async with self.lock:
            if self.status != "lobby":
                raise RequestError(409, "wrong_status", "the game has already started")
            late = self.late_seats()
            empty = [i for i, s in enumerate(self.seats) if s.kind == "open" and i not in late]
            if empty:
                raise RequestError(
                    409,
                    "wrong_status",
                    f"seats {empty} are still open: wait for players or "
                    "fill them with bots (fill_bots)",
                )
            self.seed = secrets.randbits(62)
            self.status = "playing"
            try:
                await self.lobby.save(self)
            except RequestError:
                self.seed, self.status = None, "lobby"
                raise
            self._begin(self.game.new_state(seed=self.seed), 0.0)
        event(log, "table_started", "table started", table=self.code, game=self.game.id)
        self.broadcast_table()
        self.broadcast_state()
        self.after_change()

    def _begin(self, state: State, last_time: float) -> None:
        """Make the state live: bots made, the clock set to go on from ``last_time``."""
        self.state = state
        self.last_t = last_time
        self.t0 = time.monotonic() - last_time
        for i, s in enumerate(self.seats):
            if s.kind == "bot" and s.bot is not None:
                s.player = make_bot(self.game, s.bot, seed=(self.seed or 0) + 7919 * i)
                s.player.new_game(i)
        if self.game.real_time:
            self.race = RaceDesk(self)
        for i, s in enumerate(self.seats):
            if s.kind == "person" and s.conn is None:
                self.seat_left(i)

    def _not_playing(self) -> RequestError:
        """The refusal of a request that needs the game under way."""
        return RequestError(
            409,
            "wrong_status",
            "the game has not started" if self.status == "lobby" else "the game is over",
        )

    async def submit(
        self,
        seat: int,
        text: str,
        *,
        conn: Conn | None = None,
        ref: int | None = None,
        pressed_at: float | None = None,
        seen_at: float | None = None,
    ) -> None:
        """An action from a seat (a person's connection, or a bot when ``conn`` is None)."""
        if self.status != "playing" or self.state is None:
            raise self._not_playing()
        if self.race is not None:
            await self.race.offer(seat, text, conn, ref, pressed_at, seen_at)
            return
        await self.apply_now([(seat, text, None, conn, ref)], [time.monotonic()])

    def sample_for(self, seat: int, ref: int) -> dict[str, Any]:
        """The ``sample`` message answering request ``ref`` of ``seat``: an honest sample of the
        current position (it depends only on what the seat knows, and on fresh randomness)."""
        state = self.state
        if self.status != "playing" or state is None or state.is_over():
            raise self._not_playing()
        sample = state.sample_consistent(seat, Rng(secrets.randbits(63)))
        made = SampleOut(id=ref, seq=self.seq, seat=seat, state=sample.snapshot())
        return made.model_dump(mode="json")

    async def apply_now(
        self,
        items: list[tuple[int, str, float | None, Conn | None, int | None]],
        arrivals: list[float] | None = None,
    ) -> None:
        """Apply actions ``(seat, text, time or None for now, conn, ref)`` in order, store those
        accepted in one commit, then tell everyone.  A refused action gets an error to its
        connection (or is dropped for a bot) and changes nothing.  ``arrivals`` (monotonic
        seconds, one per item; default now) are when the actions reached the server, for the
        latency metric."""
        entered = time.monotonic()
        async with self.lock:
            state = self.state
            if state is None or self.status != "playing":
                for _, _, _, conn, ref in items:
                    if conn is not None:
                        conn.error("wrong_status", "the game is over", ref)
                return
            backup = state.clone()
            backup_seq, backup_t = self.seq, self.last_t
            accepted: list[tuple[int, int, str, float | None]] = []
            arrived: list[float] = []
            acks: list[tuple[Conn, int, int]] = []
            for i, (seat, text, at, conn, ref) in enumerate(items):
                if state.is_over():
                    if conn is not None:
                        conn.error("wrong_status", "the game is over", ref)
                    continue
                t = max(self.last_t, self.now() if at is None else at)
                try:
                    action = self.game.parse_action(text)
                    state.apply(seat, action, time=t)
                except InvalidNotation as exc:
                    if conn is not None:
                        conn.error("invalid_notation", str(exc), ref)
                    continue
                except IllegalAction as exc:
                    if conn is not None:
                        conn.error("illegal_action", str(exc), ref)
                    continue
                self.seq += 1
                self.last_t = t
                accepted.append((self.seq, seat, str(action), round(t, 4)))
                arrived.append(arrivals[i] if arrivals is not None else entered)
                if conn is not None and ref is not None:
                    acks.append((conn, ref, self.seq))
            if not accepted:
                return
            ops: list[Callable[[Any], Any]] = [store.op_add_actions(self.code, accepted)]
            lease = self.lease
            if lease is not None:
                ops.insert(0, store.op_guard(self.code, lease))
            finished = state.is_over()
            if finished:
                record = self.make_record()
                ops.append(store.op_finish(self.code, record, now_iso()))
                if lease is not None:
                    ops.append(store.op_release(self.code, lease))
            try:
                if lease is None and self.lobby.leasing:
                    raise store.LeaseLost(self.code, store.Lease(self.lobby.owner, -1))
                results = await self.lobby.writer.run(_sequence(ops))
            except Exception as exc:
                self.state = backup
                self.seq, self.last_t = backup_seq, backup_t
                if isinstance(exc, store.LeaseLost):
                    event(log, "table_lost", "lease lost: table dropped", table=self.code)
                    self.lobby.drop(self)
                    return
                log.exception("table %s: storing actions failed; they are undone", self.code)
                for conn, ref, _ in acks:
                    conn.error("server_error", "the server could not store the action", ref)
                return
            if lease is not None:
                results = results[1:]
            if finished:
                if lease is not None:
                    results = results[:-1]
                    self.lease = None
                self.record_id = int(results[-1])
                self.status = "finished"
                self.finished_at = time.monotonic()
            for conn, ref, seq in acks:
                conn.send({"type": "ack", "v": PROTOCOL_VERSION, "id": ref, "seq": seq})
            self.broadcast_state()
            self.lobby.metrics.applied(len(accepted), arrived, time.monotonic())
        if finished:
            self.lobby.metrics.game_finished()
            event(
                log,
                "table_finished",
                "game finished",
                table=self.code,
                game=self.game.id,
                actions=self.seq,
                record=self.record_id,
            )
            self.end_play()
            self.broadcast_table()
            self.lobby.forget_old()
        else:
            self.after_change()

    def make_record(self) -> dict[str, Any]:
        assert self.state is not None
        late = self.late_seats()
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(self.seats):
            seat: dict[str, Any] = {
                "name": s.name or self.game.seat_name(i),
                "player": s.bot if s.kind == "bot" and s.bot else "human",
            }
            if i in late:
                # Who came late and when they took the seat (seconds of play, stored with the
                # seat: known after a restart or a take-over too, unknown only for a seat taken
                # before migration 0003); the game's own events say when they came in.
                seat["late"] = True
                if s.kind == "open":
                    seat["player"] = "nobody"
                if s.arrived is not None:
                    seat["arrived"] = round(s.arrived, 3)
            seats.append(seat)
        return self.state.record(seats, table=self.code, game_no=self.game_no)

    def end_play(self) -> None:
        """Stop every bot and timer of a finished (or closing) game."""
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()
        for handle, _ in self.reactions.values():
            handle.cancel()
        self.reactions.clear()
        if self.race is not None:
            self.race.cancel()
        for s in self.seats:
            if s.away_timer is not None:
                s.away_timer.cancel()
                s.away_timer = None
            s.away_bot = None

    # --- bots -----------------------------------------------------------------------------------

    def after_change(self) -> None:
        """Let the bots (and substitutes) act on the new state."""
        state = self.state
        if state is None or state.is_over() or self.status != "playing":
            return
        if self.game.real_time:
            self._schedule_reactions()
            return
        seat = state.seats_to_act()[0]
        bot = self.player_for(seat)
        if bot is not None and seat not in self.bot_tasks:
            self.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                self._bot_turn(seat, bot, self.seq)
            )

    async def _bot_turn(self, seat: int, bot: Bot, seq: int) -> None:
        try:
            if self.lobby.settings.bot_pause > 0:
                await asyncio.sleep(self.lobby.settings.bot_pause)
            state = self.state
            if state is None or self.seq != seq or self.player_for(seat) is not bot:
                return
            if bot.turn_based_only:
                sample = state.sample_consistent(seat, Rng(secrets.randbits(63)))
                began = time.monotonic()
                within_budget(bot, self.lobby.settings)
                try:
                    text, thought = await self.lobby.searches.run(
                        self.code, think, bot, sample, seat
                    )
                except BrokenProcessPool:  # a worker was killed: once more, on new workers
                    text, thought = await self.lobby.searches.run(
                        self.code, think, bot, sample, seat
                    )
                took = time.monotonic() - began
                self.lobby.metrics.thought(True, took)
                log.debug("table %s: seat %d thought for %.2f s", self.code, seat, took)
                if self.player_for(seat) is bot:
                    self._replace_bot(seat, bot, thought)
            else:
                began = time.monotonic()
                text = str(bot.act(SeatView(state, seat, self.now())))
                self.lobby.metrics.thought(False, time.monotonic() - began)
            if self.seq != seq:
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot of seat %d failed", self.code, seat)
            return
        finally:
            self.bot_tasks.pop(seat, None)
        await self.apply_now([(seat, text, None, None, None)])

    def _replace_bot(self, seat: int, old: Bot, new: Bot) -> None:
        """A bot that thought in another process comes back with its memory updated."""
        s = self.seats[seat]
        if s.player is old:
            s.player = new
        elif s.away_bot is old:
            s.away_bot = new

    def _schedule_reactions(self) -> None:
        """Real time: each bot without an action on its way decides what to do next."""
        state = self.state
        assert state is not None
        loop = asyncio.get_running_loop()
        for seat in list(self.reactions):
            handle, text = self.reactions[seat]
            if not state.is_legal(seat, self.game.parse_action(text)):
                handle.cancel()
                del self.reactions[seat]
        now = self.now()
        for seat in state.seats_to_act():
            bot = self.player_for(seat)
            if bot is None or seat in self.reactions:
                continue
            began = time.monotonic()
            reaction = bot.react(SeatView(state, seat, now))
            self.lobby.metrics.thought(False, time.monotonic() - began)
            if reaction is None:
                continue
            delay = max(0.0, reaction.delay)
            text = str(reaction.action)
            handle = loop.call_later(delay, self._reaction_due, seat, text, now + delay)
            self.reactions[seat] = (handle, text)

    def _reaction_due(self, seat: int, text: str, at: float) -> None:
        self.reactions.pop(seat, None)
        spawn(self._bot_reacts(seat, text, at))

    async def _bot_reacts(self, seat: int, text: str, at: float) -> None:
        if self.race is not None:
            await self.race.offer(seat, text, None, None, None, None, credit=at)
        else:  # pragma: no cover - real-time tables always have a race desk
            await self.apply_now([(seat, text, at, None, None)])

    # --- people coming and going ----------------------------------------------------------------

    def seat_left(self, seat: int) -> None:
        """A person's connection is gone: the timeout policy starts."""
        s = self.seats[seat]
        if self.status != "playing" or self.timeout.policy != "bot" or s.away_bot is not None:
            return
        if s.away_timer is not None:
            s.away_timer.cancel()
        s.away_timer = asyncio.get_running_loop().call_later(
            self.timeout.seconds, self._stand_in, seat
        )

    def _stand_in(self, seat: int) -> None:
        s = self.seats[seat]
        s.away_timer = None
        if s.conn is not None or self.status != "playing" or s.kind != "person":
            return
        spec = resolve_bot(self.game, self.timeout.bot)
        s.away_bot = make_bot(self.game, spec, seed=secrets.randbits(32))
        within_budget(s.away_bot, self.lobby.settings)
        s.away_bot.new_game(seat)
        self.broadcast_table()
        self.after_change()

    def seat_back(self, seat: int) -> None:
        """The person is back: the stand-in leaves."""
        s = self.seats[seat]
        if s.away_timer is not None:
            s.away_timer.cancel()
            s.away_timer = None
        if s.away_bot is not None:
            s.away_bot = None
            task = self.bot_tasks.pop(seat, None)
            if task is not None:
                task.cancel()
            pending = self.reactions.pop(seat, None)
            if pending is not None:
                pending[0].cancel()


def _sequence(ops: list[Callable[[Any], Any]]) -> Callable[[Any], list[Any]]:
    """One operation that runs ``ops`` in order (in one transaction)."""

    def run(conn: Any) -> list[Any]:
        return [op(conn) for op in ops]

    return run


def default_workers() -> int:
    """Search bots' processes: one fewer than the cores (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)
