"""The server's database: tables, seats, every accepted action, and the records of finished games.

SQLAlchemy Core on SQLite (WAL mode, the default: ``$RATGAMES_HOME/ratgames.db``) or PostgreSQL
(``postgresql+psycopg://...``).  The schema is made by Alembic migrations
(:func:`upgrade`, run at every start and by ``ratgames db upgrade``).

Writes go through a :class:`Writer`: one thread that commits everything queued since its last
commit in one transaction (group commit), so that many tables can store their actions without
one fsync each and without blocking the event loop.  A caller awaits its own write: when the
await returns, the write is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

game_tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("host_token_hash", sa.String(64), nullable=False),
    sa.Column("timeout", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("game_no", sa.Integer, nullable=False),
    sa.Column("rematch_of", sa.String(16), nullable=True),
    sa.Column("next_table", sa.String(16), nullable=True),
    sa.Column("record_id", sa.Integer, nullable=True),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("owner_address", sa.String(200), nullable=True),
    sa.Column("owner_until", sa.Float, nullable=True),
    sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"),
)
"""``owner``, ``owner_address``, ``owner_until`` and ``fence`` are a table's lease when several
server processes share the database (:class:`Lease`): the process owning it, the address its
clients reach it at, until when (seconds since the epoch on the database's clock) and the
fencing token, bumped at every take-over."""

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(200), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("arrived", sa.Float, nullable=True),
)
"""``arrived`` is when a person or a bot took a late seat (``Game.late_seats``) after the start,
in seconds of play; None for every other seat.  Kept with the seat, so that a table brought back
after a restart or taken over by another process still says it (and its record too)."""

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("time", sa.Float, nullable=True),
)

records = sa.Table(
    "records",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_code", sa.String(16), nullable=False, index=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("outcome", sa.Text, nullable=True),
    sa.Column("record", sa.Text, nullable=False),
)

log = logging.getLogger("ratgames.server")


def ratgames_home() -> Path:
    """``$RATGAMES_HOME``, or ``~/.ratgames``."""
    home = os.environ.get("RATGAMES_HOME")
    return Path(home) if home else Path.home() / ".ratgames"


def default_url() -> str:
    """The embedded database: ``sqlite:///$RATGAMES_HOME/ratgames.db``."""
    return f"sqlite:///{ratgames_home() / 'ratgames.db'}"


def database_url(given: str | None) -> str:
    """The URL to use: ``given`` (a URL, or a path to an SQLite file), else the default."""
    if not given:
        return default_url()
    if "://" in given:
        return given
    return f"sqlite:///{Path(given).expanduser().resolve()}"


def make_engine(url: str, *, background_checkpoints: bool = False) -> Engine:
    """An engine for ``url``.  SQLite files get WAL mode, ``synchronous=NORMAL`` (a commit
    survives the process being killed) and a busy timeout; their folder is made.

    With ``background_checkpoints`` (the server's engine), commits never copy the WAL back into
    the database themselves: a :class:`Writer` does it from a thread of its own, so that no
    commit waits for the disk's flush of a checkpoint."""
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            if background_checkpoints:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    if url.startswith("postgresql"):
        return sa.create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4)
    raise ValueError(
        f"unsupported database URL {url!r}: use sqlite:///PATH (or a file path) or "
        "postgresql+psycopg://USER:PASSWORD@HOST/DB"
    )


def alembic_config() -> Any:
    """Alembic's configuration of the server's migrations (an ``alembic.config.Config``)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return config


def upgrade(engine: Engine) -> None:
    """Bring the schema up to the newest migration (Alembic ``upgrade head``)."""
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None before the first)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


# --- rows ----------------------------------------------------------------------------------------


@dataclass
class SeatRow:
    """A seat as stored."""

    seat: int
    kind: str  # open, person, bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    arrived: float | None = None
    """When a late seat was taken during play (seconds of play), or None."""


@dataclass
class TableRow:
    """A table as stored."""

    code: str
    game: str
    players: int
    options: dict[str, Any]
    public: bool
    status: str
    host_token_hash: str
    timeout: dict[str, Any]
    seed: int | None
    game_no: int
    rematch_of: str | None
    next_table: str | None
    record_id: int | None
    created: str


@dataclass
class StoredTable:
    """A table with its seats and its actions (seat, action, time) in order."""

    row: TableRow
    seats: list[SeatRow]
    actions: list[tuple[int, str, float | None]]


def _table_values(row: TableRow) -> dict[str, Any]:
    return {
        "code": row.code,
        "game": row.game,
        "players": row.players,
        "options": json.dumps(row.options, sort_keys=True),
        "public": row.public,
        "status": row.status,
        "host_token_hash": row.host_token_hash,
        "timeout": json.dumps(row.timeout, sort_keys=True),
        "seed": row.seed,
        "game_no": row.game_no,
        "rematch_of": row.rematch_of,
        "next_table": row.next_table,
        "record_id": row.record_id,
        "created": row.created,
    }


def _row(m: Any) -> TableRow:
    return TableRow(
        code=m.code,
        game=m.game,
        players=m.players,
        options=json.loads(m.options),
        public=bool(m.public),
        status=m.status,
        host_token_hash=m.host_token_hash,
        timeout=json.loads(m.timeout),
        seed=m.seed,
        game_no=m.game_no,
        rematch_of=m.rematch_of,
        next_table=m.next_table,
        record_id=m.record_id,
        created=m.created,
    )


# --- operations (each runs inside a transaction given as ``conn``) -------------------------------


def op_save_table(row: TableRow, seat_rows: Sequence[SeatRow]) -> Callable[[Connection], None]:
    """Insert or replace a table and all its seats."""
    values = _table_values(row)
    seat_values = [
        {
            "table_code": row.code,
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "bot": s.bot,
            "token_hash": s.token_hash,
            "arrived": s.arrived,
        }
        for s in seat_rows
    ]

    def run(conn: Connection) -> None:
        done = conn.execute(
            game_tables.update().where(game_tables.c.code == row.code).values(**values)
        )
        if done.rowcount == 0:
            conn.execute(game_tables.insert().values(**values))
        conn.execute(seats.delete().where(seats.c.table_code == row.code))
        if seat_values:
            conn.execute(seats.insert(), seat_values)

    return run


def op_update_table(code: str, **values: Any) -> Callable[[Connection], None]:
    """Change some columns of a table (``options``/``timeout`` as Python values)."""
    for key in ("options", "timeout"):
        if key in values:
            values[key] = json.dumps(values[key], sort_keys=True)

    def run(conn: Connection) -> None:
        conn.execute(game_tables.update().where(game_tables.c.code == code).values(**values))

    return run


def op_add_actions(
    code: str, rows: Sequence[tuple[int, int, str, float | None]]
) -> Callable[[Connection], None]:
    """Append actions ``(n, seat, action, time)`` of a table."""
    values = [
        {"table_code": code, "n": n, "seat": seat, "action": action, "time": t}
        for n, seat, action, t in rows
    ]

    def run(conn: Connection) -> None:
        conn.execute(actions.insert(), values)

    return run


def op_finish(code: str, record: dict[str, Any], created: str) -> Callable[[Connection], int]:
    """Store a finished game's record and mark its table finished; returns the record's id."""
    text = json.dumps(record, allow_nan=False)
    outcome = json.dumps(record.get("outcome"))

    def run(conn: Connection) -> int:
        result = conn.execute(
            records.insert().values(
                table_code=code,
                game=record["game"],
                players=record["players"],
                created=created,
                outcome=outcome,
                record=text,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        record_id = int(key[0])
        conn.execute(
            game_tables.update()
            .where(game_tables.c.code == code)
            .values(status="finished", record_id=record_id)
        )
        return record_id

    return run


# --- leases --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lease:
    """A process's hold on a table: who (``owner``, unique per process) and the fencing token
    it got when it took the table.  Every commit of the table's actions checks, in its own
    transaction, that the table still has this owner and token and an unexpired lease."""

    owner: str
    fence: int


class LeaseLost(Exception):
    """A table's lease is no longer this process's (it ran out, or another process took the
    table over): nothing was written, and the process must drop the table."""

    def __init__(self, code: str, lease: Lease) -> None:
        super().__init__(
            f"table {code}: the lease of {lease.owner} (fence {lease.fence}) is lost; "
            "another process owns the table or its lease ran out"
        )
        self.code = code
        self.lease = lease


@dataclass(frozen=True)
class Holder:
    """Who holds a table's lease as the database sees it."""

    owner: str | None
    address: str | None
    live: bool
    fence: int


def db_now(conn: Connection) -> Any:
    """The database's clock (seconds since the epoch) as an SQL expression: leases are read and
    written on one clock, whichever machine each process runs on."""
    if conn.dialect.name == "postgresql":
        return sa.literal_column("extract(epoch from clock_timestamp())")
    return sa.literal_column("((julianday('now') - 2440587.5) * 86400.0)")


def op_claim(
    code: str, owner: str, address: str | None, seconds: float
) -> Callable[[Connection], Lease | None]:
    """Take table ``code`` for ``owner`` if nobody holds a live lease on it: the lease runs
    ``seconds`` and the fencing token is bumped.  The new :class:`Lease`, or None when another
    process holds the table (one conditional UPDATE: of two processes claiming at once, one
    wins)."""

    def run(conn: Connection) -> Lease | None:
        now = db_now(conn)
        c = game_tables.c
        done = conn.execute(
            game_tables.update()
            .where(
                c.code == code,
                sa.or_(c.owner.is_(None), c.owner_until.is_(None), c.owner_until < now),
            )
            .values(
                owner=owner, owner_address=address, owner_until=now + seconds, fence=c.fence + 1
            )
        )
        if done.rowcount == 0:
            return None
        fence = conn.execute(sa.select(c.fence).where(c.code == code)).scalar_one()
        return Lease(owner, int(fence))

    return run


def op_guard(code: str, lease: Lease) -> Callable[[Connection], None]:
    """Raise :class:`LeaseLost` unless ``lease`` still holds table ``code`` (same owner, same
    fencing token, not run out).  Run first in the transaction that stores the table's
    actions: its UPDATE locks the table's row, so a take-over either waits for this
    transaction or makes it write nothing."""

    def run(conn: Connection) -> None:
        c = game_tables.c
        done = conn.execute(
            game_tables.update()
            .where(
                c.code == code,
                c.owner == lease.owner,
                c.fence == lease.fence,
                c.owner_until >= db_now(conn),
            )
            .values(fence=c.fence)
        )
        if done.rowcount != 1:
            raise LeaseLost(code, lease)

    return run


def op_renew(
    owner: str, leases: dict[str, int], seconds: float
) -> Callable[[Connection], list[str]]:
    """Extend by ``seconds`` every lease of ``leases`` (code: fencing token) that ``owner``
    still holds; returns the codes whose lease is lost (run out, or taken over)."""

    def run(conn: Connection) -> list[str]:
        if not leases:
            return []
        c = game_tables.c
        now = db_now(conn)
        codes = list(leases)
        conn.execute(
            game_tables.update()
            .where(c.owner == owner, c.code.in_(codes), c.owner_until >= now)
            .values(owner_until=now + seconds)
        )
        held = {
            r.code: int(r.fence)
            for r in conn.execute(
                sa.select(c.code, c.fence).where(
                    c.owner == owner, c.code.in_(codes), c.owner_until >= now
                )
            )
        }
        return [code for code, fence in leases.items() if held.get(code) != fence]

    return run


def op_release(code: str, lease: Lease) -> Callable[[Connection], bool]:
    """Give table ``code`` up (if ``lease`` still holds it), so that another process can take
    it at once; whether it was released."""

    def run(conn: Connection) -> bool:
        c = game_tables.c
        done = conn.execute(
            game_tables.update()
            .where(c.code == code, c.owner == lease.owner, c.fence == lease.fence)
            .values(owner=None, owner_address=None, owner_until=None)
        )
        return bool(done.rowcount)

    return run


def holder(engine: Engine, code: str) -> Holder | None:
    """Who holds table ``code`` now (None: no such table)."""
    with engine.connect() as conn:
        c = game_tables.c
        m = conn.execute(
            sa.select(
                c.owner,
                c.owner_address,
                c.fence,
                (c.owner_until >= db_now(conn)).label("live"),
            ).where(c.code == code)
        ).first()
    if m is None:
        return None
    return Holder(m.owner, m.owner_address, bool(m.live) and m.owner is not None, int(m.fence))


def orphans(engine: Engine, statuses: Sequence[str] = ("lobby", "playing")) -> list[str]:
    """Codes of the tables in one of ``statuses`` whose lease ran out or was given up."""
    with engine.connect() as conn:
        c = game_tables.c
        return [
            r.code
            for r in conn.execute(
                sa.select(c.code).where(
                    c.status.in_(list(statuses)),
                    sa.or_(
                        c.owner.is_(None), c.owner_until.is_(None), c.owner_until < db_now(conn)
                    ),
                )
            )
        ]


# --- reads ---------------------------------------------------------------------------------------


def load_tables(engine: Engine, statuses: Sequence[str]) -> list[StoredTable]:
    """Every table in one of ``statuses``, with its seats and actions."""
    out: list[StoredTable] = []
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(game_tables).where(game_tables.c.status.in_(list(statuses)))
        ).all()
        for m in rows:
            out.append(_load(conn, _row(m)))
    return out


def load_table(engine: Engine, code: str) -> StoredTable | None:
    """One table by code, with its seats and actions."""
    with engine.connect() as conn:
        m = conn.execute(sa.select(game_tables).where(game_tables.c.code == code)).first()
        return None if m is None else _load(conn, _row(m))


def _load(conn: Connection, row: TableRow) -> StoredTable:
    seat_rows = [
        SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash, s.arrived)
        for s in conn.execute(
            sa.select(seats).where(seats.c.table_code == row.code).order_by(seats.c.seat)
        )
    ]
    acts = [
        (a.seat, a.action, a.time)
        for a in conn.execute(
            sa.select(actions).where(actions.c.table_code == row.code).order_by(actions.c.n)
        )
    ]
    return StoredTable(row, seat_rows, acts)


MAX_ID = 2**63 - 1
"""The largest id a record can have (a signed 64-bit integer, as both databases store it)."""


def get_record(engine: Engine, record_id: int) -> dict[str, Any] | None:
    """A stored record by id, whoever may read it (``ratgames export``, tests)."""
    if not 0 <= record_id <= MAX_ID:
        return None
    with engine.connect() as conn:
        text = conn.execute(sa.select(records.c.record).where(records.c.id == record_id)).scalar()
    return None if text is None else dict(json.loads(text))


def get_record_text(engine: Engine, record_id: int) -> str | None:
    """A stored record by id, as the JSON text stored (served as it is: nothing to parse)."""
    if not 0 <= record_id <= MAX_ID:
        return None
    with engine.connect() as conn:
        text = conn.execute(sa.select(records.c.record).where(records.c.id == record_id)).scalar()
    return None if text is None else str(text)


def _readable(token_hashes: Sequence[str]) -> Any:
    """The records anyone may read (their table is public) or whose table has a seat or host
    token among ``token_hashes``.  A record whose table row is missing counts as private."""
    hashes = list(token_hashes)
    public = game_tables.c.public == sa.true()
    if not hashes:
        return public
    seat_of_one = (
        sa.select(seats.c.table_code)
        .where(seats.c.table_code == records.c.table_code, seats.c.token_hash.in_(hashes))
        .exists()
    )
    return sa.or_(public, game_tables.c.host_token_hash.in_(hashes), seat_of_one)


def _records_and_tables() -> Any:
    return records.outerjoin(game_tables, game_tables.c.code == records.c.table_code)


def record_access(engine: Engine, record_id: int, token_hashes: Sequence[str]) -> str:
    """Who may read record ``record_id``: ``"missing"`` (no such record), ``"private"`` (played
    at a private table, and no token of ``token_hashes`` belongs to a seat or the host of that
    table) or ``"ok"``."""
    if not 0 <= record_id <= MAX_ID:
        return "missing"
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(records.c.id, _readable(token_hashes).label("readable"))
            .select_from(_records_and_tables())
            .where(records.c.id == record_id)
        ).first()
    if found is None:
        return "missing"
    return "ok" if found.readable else "private"


def list_records(
    engine: Engine,
    limit: int = 50,
    before: int | None = None,
    token_hashes: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Summaries of stored records, newest first: those of public tables, and those of the
    private tables that one of ``token_hashes`` (seat or host tokens) belongs to."""
    query = (
        sa.select(
            records.c.id,
            records.c.table_code,
            records.c.game,
            records.c.players,
            records.c.created,
            records.c.outcome,
            game_tables.c.public,
        )
        .select_from(_records_and_tables())
        .where(_readable(token_hashes))
        .order_by(records.c.id.desc())
    )
    if before is not None and before <= MAX_ID:  # every id is below a larger one
        query = query.where(records.c.id < before)
    with engine.connect() as conn:
        rows = conn.execute(query.limit(limit)).all()
    return [
        {
            "id": r.id,
            "table": r.table_code,
            "game": r.game,
            "players": r.players,
            "created": r.created,
            "outcome": json.loads(r.outcome) if r.outcome else None,
            "public": bool(r.public),
        }
        for r in rows
    ]


def iter_records(engine: Engine, game: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every stored record (id, record), oldest first, optionally of one game."""
    query = sa.select(records.c.id, records.c.record).order_by(records.c.id)
    if game is not None:
        query = query.where(records.c.game == game)
    with engine.connect() as conn:
        for r in conn.execute(query):
            yield r.id, json.loads(r.record)


# --- the writer ----------------------------------------------------------------------------------


CHECKPOINT_SECONDS = 1.0
"""How often the server copies SQLite's WAL back into the database."""


class Writer:
    """Commits queued operations, many per transaction.

    ``await writer.run(op)`` returns the operation's result once its transaction has committed,
    or raises what it raised.  Operations of one caller are committed in the order given.  When
    a transaction fails, its operations are retried one transaction each, so that one bad
    operation fails alone.

    With SQLite (``inline``, the default there) the transactions run on the event loop itself:
    every operation queued while the loop was busy goes into one transaction as soon as the loop
    is free.  A commit there takes a fraction of a millisecond (WAL, ``synchronous=NORMAL``: no
    flush to disk; the checkpoints that flush run in a thread of their own).  A writer thread
    would spend far longer waiting for Python's global lock at each call into SQLite, up to the
    interpreter's switch interval (5 ms) each time, whenever the event loop is busy.  With a
    database server (PostgreSQL) a thread commits, since each commit waits for the network.
    """

    def __init__(self, engine: Engine, inline: bool | None = None) -> None:
        self.engine = engine
        self.inline = engine.dialect.name == "sqlite" if inline is None else inline
        self._queue: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        self._flush_due = False
        self._thread: threading.Thread | None = None
        if not self.inline:
            self._thread = threading.Thread(
                target=self._loop, name="ratgames-db-writer", daemon=True
            )
            self._thread.start()
        self._stopped = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if engine.dialect.name == "sqlite":
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="ratgames-db-checkpoint", daemon=True
            )
            self._checkpointer.start()
        self.commits = 0
        self.operations = 0
        self.checkpoints = 0
        self.on_commit: Callable[[float], None] | None = None
        """Told the seconds of each transaction committed (the server's metrics)."""

    async def run(self, op: Callable[[Connection], Any]) -> Any:
        """Queue ``op`` and wait for its commit."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            self._queue.append((op, future))
        if self.inline:
            if not self._flush_due:
                self._flush_due = True
                loop.call_soon(self._flush)
        else:
            self._wake.set()
        return await future

    def _flush(self) -> None:
        """Inline: commit everything queued, in one transaction."""
        self._flush_due = False
        with self._lock:
            batch, self._queue = self._queue, []
        if batch:
            self._commit(batch)

    def close(self) -> None:
        """Commit what is queued and stop the threads."""
        self._stop = True
        if self._thread is not None:
            self._wake.set()
            self._thread.join(timeout=30)
        else:
            self._flush()
        self._stopped.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=30)
            self._checkpoint()

    def _checkpoint_loop(self) -> None:
        """Copy the WAL back into an SQLite database now and then (PASSIVE: never blocking a
        commit), so that the disk's flush of a checkpoint happens here, not in a commit."""
        while not self._stopped.wait(CHECKPOINT_SECONDS):
            self._checkpoint()

    def _checkpoint(self) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except Exception:  # a busy or closed database: the next one will do it
            log.warning("a WAL checkpoint failed", exc_info=True)

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                batch, self._queue = self._queue, []
                self._wake.clear()
            if batch:
                self._commit(batch)
            elif self._stop:
                return

    def _commit(self, batch: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]]) -> None:
        began = time.perf_counter()
        try:
            with self.engine.begin() as conn:
                results = [op(conn) for op, _ in batch]
        except Exception:
            if len(batch) == 1:
                self._settle(batch[0][1], None, _current_exception())
                return
            for item in batch:
                self._commit([item])
            return
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - began)
        self.commits += 1
        self.operations += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            self._settle(future, result, None)

    def _settle(
        self, future: asyncio.Future[Any], result: Any, error: BaseException | None
    ) -> None:
        def done() -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        if self.inline:  # on the loop's own thread
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                done()
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            future.get_loop().call_soon_threadsafe(done)


def _current_exception() -> BaseException:
    import sys

    exc = sys.exc_info()[1]
    assert exc is not None
    return exc
