"""The lobby: every table of this server process, the database writer and the bots' process
pool; creating, finding, listing, bringing back and expiring tables, and the host's requests.

Everything here runs on the server's event loop (the tables themselves are in :mod:`.tables`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
import time
from concurrent.futures import Executor
from typing import Any

import orjson

from ratgames.core.errors import RatgamesError
from ratgames.core.registry import get_game

from . import store
from .connections import MOVED, Conn
from .limits import AddressLimits
from .logs import event
from .metrics import OFF, Metrics
from .notify import LISTED, SharedLobby, libpq_url
from .protocol import CreateTable, RematchOut, SeatLinkOut, TimeoutPolicy
from .tables import (
    Elsewhere,
    RequestError,
    Seat,
    Settings,
    Table,
    _sequence,
    hash_token,
    new_token,
    now_iso,
    resolve_bot,
)
from .thinking import SearchQueue, ready, stop_pool, warm_up

log = logging.getLogger("ratgames.server")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
"""A public table's code: short enough to read aloud (public tables are listed anyway)."""
PRIVATE_CODE_LENGTH = 12
"""A private table's code: 31**12 (about 8e17) codes, so that guessing one is hopeless, even
before the per-address limit on failed lookups."""
KEEP_FINISHED = 2000
"""Finished tables kept in memory (older ones are read back from the database when asked)."""


class Lobby:
    """Every table of this server process, the database writer and the bots' process pool."""

    def __init__(self, engine: Any, settings: Settings | None = None) -> None:
        self.engine = engine
        self.settings = settings or Settings()
        self.writer = store.Writer(engine)
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self._pool: Executor | None = None
        self.limits = AddressLimits(self.settings.rates(), self.settings.max_conns_per_address)
        self.searches = SearchQueue(self.pool, max(1, self.settings.pool_workers))
        """The search bots' moves waiting for a worker, served one table at a time in turn."""
        self._numbers = itertools.count(1)
        self._listings: dict[tuple[int | None, str | None], tuple[float, bytes]] = {}
        """Pages of the lobby listing made lately: (until when it is kept, its JSON)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False
        """The server is stopping: no search worker is started any more."""
        self.expired = 0
        self.metrics: Metrics = OFF
        """The server's metrics (:meth:`Metrics.attach` sets them)."""
        self.owner = f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"
        """This process among the processes sharing the database (the owner of its leases)."""
        self._taking = asyncio.Lock()
        self._renewer: asyncio.Task[None] | None = None
        self.taken_over = 0
        """Tables this process took over from another (or from before a restart)."""
        self.dropped = 0
        """Tables this process dropped, their lease lost."""
        self.shared: SharedLobby | None = None
        """The lobby shared with the other processes over PostgreSQL (leasing only): their
        public tables, listed beside this process's own."""

    @property
    def leasing(self) -> bool:
        """Several processes may share the database: tables are held under leases."""
        return self.settings.lease > 0

    def _claim(self, code: str) -> Any:
        return store.op_claim(code, self.owner, self.settings.address, self.settings.lease)

    async def save(self, table: Table) -> None:
        """Store ``table`` and its seats, under its lease when leasing (a table whose lease is
        lost is dropped, and the request refused with where the table lives now)."""
        saved = store.op_save_table(table.row(), table.seat_rows())
        if not self.leasing:
            await self.writer.run(saved)
            return
        lease = table.lease
        try:
            if lease is None:
                raise store.LeaseLost(table.code, store.Lease(self.owner, -1))
            await self.writer.run(_sequence([store.op_guard(table.code, lease), saved]))
        except store.LeaseLost:
            self.drop(table)
            raise Elsewhere(table.code, None) from None

    def drop(self, table: Table) -> None:
        """Let go of a table whose lease is lost: its bots and timers stop, and its clients are
        closed with :data:`MOVED` so that they reconnect to the process that holds it."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        self.dropped += 1
        if table.public and self.shared is not None:
            self.shared.withdraw(table.code, table.lease.fence if table.lease else 0)
        table.lease = None
        table.end_play()
        table.status = "moved"
        table.state = None
        for conn in list(table.conns):
            conn.close(MOVED, "")
        if table.public:
            self.listing_changed()

    async def renew(self) -> list[str]:
        """Renew the leases of the tables held; drop those whose lease is lost (their codes),
        and take over tables in play that a dead process left (:attr:`Settings.adopt`)."""
        held = {t.code: t.lease.fence for t in self.tables.values() if t.lease is not None}
        lost = await self.writer.run(store.op_renew(self.owner, held, self.settings.lease))
        for code in lost:
            table = self.tables.get(code)
            if table is not None and table.lease is not None and table.lease.fence == held[code]:
                event(log, "table_lost", "lease lost: table dropped", table=code)
                self.drop(table)
        if self.settings.adopt and not self.closing:
            for code in await asyncio.to_thread(store.orphans, self.engine, ("playing",)):
                if code not in self.tables:
                    with contextlib.suppress(RequestError):
                        await self.get(code)
        return list(lost)

    def start_leasing(self) -> None:
        """Renew the leases every third of their time, while the process lives."""

        async def renew_on() -> None:
            while True:
                await asyncio.sleep(self.settings.lease / 3)
                try:
                    await self.renew()
                except Exception:
                    log.exception("renewing the tables' leases failed")

        if self.leasing and self._renewer is None:
            self._renewer = asyncio.get_running_loop().create_task(renew_on())
        if self.leasing and self.shared is None and self.engine.dialect.name == "postgresql":
            self.shared = SharedLobby(
                libpq_url(self.engine),
                self.owner,
                self._announced,
                self.listing_changed,
                forget=self.settings.lobby_idle,
            )
            self.shared.start()

    def _announced(self) -> list[tuple[int, dict[str, Any]]]:
        """This process's public tables in the lobby or in play, as announced to the others."""
        return [
            (t.lease.fence if t.lease else 0, t.info())
            for t in self.tables.values()
            if t.public and t.status in LISTED
        ]

    def announce(self, table: Table) -> None:
        """Public ``table`` changed: tell the other processes' lobbies (when shared)."""
        if self.shared is not None:
            self.shared.announce(table.lease.fence if table.lease else 0, table.info())

    def release_all(self) -> int:
        """Give up every lease held (a graceful stop): other processes take the tables at once.
        How many were released."""
        leases = [(t.code, t.lease) for t in self.tables.values() if t.lease is not None]
        if not leases:
            return 0
        with self.engine.begin() as conn:
            for code, lease in leases:
                store.op_release(code, lease)(conn)
        for table in self.tables.values():
            table.lease = None
        return len(leases)

    def pool(self) -> Executor:
        """The process pool of the search bots (started when first needed, and again if a
        worker died: a pool whose worker was killed takes no more work)."""
        if self.closing:
            raise RuntimeError("the server is stopping: no more searches")
        if self._pool is not None and getattr(self._pool, "_broken", False):
            event(
                log,
                "worker_restarted",
                "a search worker died; the search bots' processes are started again",
                logging.ERROR,
                workers=max(1, self.settings.pool_workers),
            )
            self.metrics.worker_restarted()
            stop_pool(self._pool)
            self._pool = None
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(
                max_workers=max(1, self.settings.pool_workers),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def warm(self, timeout: float = 120.0) -> int:
        """Start the worker processes now and wait until each is up (at most ``timeout``
        seconds), so that the first search move is not delayed and a server that says it is
        ready has its workers ready too (a ctrl+c while a worker is still starting kills
        it).  How many are up."""
        pool = self.pool()
        wanted = max(1, self.settings.pool_workers)
        up: set[int] = set()
        deadline = time.monotonic() + timeout
        while len(up) < wanted and time.monotonic() < deadline:
            answers = [asyncio.wrap_future(pool.submit(ready, 0.05)) for _ in range(wanted)]
            up.update(await asyncio.gather(*answers))
        return len(up)

    def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._renewer is not None:
            self._renewer.cancel()
        for table in self.tables.values():
            table.end_play()
        self.writer.close()
        if self.leasing:
            try:
                released = self.release_all()
            except Exception:
                log.exception("giving up the tables' leases failed: they run out instead")
            else:
                event(log, "leases_released", "tables handed over", tables=released)
        if self.shared is not None:
            self.shared.close(self.engine)
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def add(self, table: Table) -> Table:
        """Hold ``table`` (numbered in the order tables come)."""
        if not table.number:
            table.number = next(self._numbers)
        self.tables[table.code] = table
        if table.public:
            self.listing_changed()
            if self.shared is not None:
                self.shared.forget_code(table.code)
                self.announce(table)
        return table

    # --- expiry ---------------------------------------------------------------------------------

    def start_sweeping(self, every: float = 30.0) -> None:
        """Expire idle lobby tables every ``every`` seconds from now on."""

        async def sweep_on() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.expire_idle()
                except Exception:
                    log.exception("expiring idle tables failed")

        if self._sweeper is None and self.settings.lobby_idle > 0:
            every = min(every, self.settings.lobby_idle / 2)
            self._sweeper = asyncio.get_running_loop().create_task(sweep_on())

    async def expire_idle(self) -> int:
        """Tables in the lobby that nobody has been at for :attr:`Settings.lobby_idle` seconds
        expire: they leave the lobby and their code finds nothing from then on.  How many."""
        limit = self.settings.lobby_idle
        if limit <= 0:
            return 0
        now = time.monotonic()
        idle = [
            t
            for t in self.tables.values()
            if t.status == "lobby" and not t.conns and now - t.active_at >= limit
        ]
        if not idle:
            return 0
        await self.writer.run(
            _sequence([store.op_update_table(t.code, status="expired") for t in idle])
        )
        for table in idle:
            if self.tables.get(table.code) is table and not table.conns:
                del self.tables[table.code]
            if table.public and self.shared is not None:
                self.shared.withdraw(table.code, table.lease.fence if table.lease else 0)
        self.expired += len(idle)
        self.listing_changed()
        return len(idle)

    # --- tables ---------------------------------------------------------------------------------

    def _new_code(self, public: bool) -> str:
        length = CODE_LENGTH if public else PRIVATE_CODE_LENGTH
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            if code not in self.tables and store.load_table(self.engine, code) is None:
                return code

    async def create(
        self, req: CreateTable, address: str = ""
    ) -> tuple[Table, str, int | None, str | None]:
        """A new table: (table, host token, creator's seat, creator's seat token).  ``address``
        (the client's) is held to :attr:`Settings.create_rate`."""
        if not self.limits.allow("create", address):
            raise RequestError(
                429, "rate_limited", self.limits.refusal("create", address, "tables")
            )
        settings = self.settings
        try:
            kinds = list(req.seats) if req.seats is not None else None
            if kinds is not None:
                playing = [s for s in kinds if s.kind != "closed"]
                if req.players is not None and req.players != len(playing):
                    raise RequestError(
                        400,
                        "invalid_message",
                        f"players is {req.players} but {len(playing)} seats are not closed",
                    )
                game = get_game(req.game, players=len(playing), options=req.options)
            else:
                game = get_game(req.game, players=req.players, options=req.options)
                playing = None
            seats: list[Seat] = []
            for spec in playing if playing is not None else [None] * game.players:
                if spec is not None and spec.kind == "bot":
                    seats.append(
                        Seat(
                            "bot",
                            name=spec.bot or "normal",
                            bot=resolve_bot(game, spec.bot, settings),
                        )
                    )
                else:
                    seats.append(Seat("open"))
            if req.timeout.policy == "bot":
                resolve_bot(game, req.timeout.bot, settings)
        except RatgamesError as exc:
            raise RequestError(400, "invalid_message", str(exc)) from None
        host_token = new_token()
        code = self._new_code(req.public)
        table = Table(
            lobby=self,
            code=code,
            game=game,
            public=req.public,
            timeout=req.timeout,
            host_token_hash=hash_token(host_token),
            seats=seats,
            created=now_iso(),
        )
        seat: int | None = None
        token: str | None = None
        if req.sit and any(s.kind == "open" for s in seats):
            seat = table.open_seat(None)
            token = table.take_seat(seat, req.name)
        saved = store.op_save_table(table.row(), table.seat_rows())
        if self.leasing:
            _, table.lease = await self.writer.run(_sequence([saved, self._claim(code)]))
        else:
            await self.writer.run(saved)
        self.add(table)
        self.metrics.table_created()
        event(
            log,
            "table_created",
            "table created",
            table=code,
            game=game.id,
            players=game.players,
            public=req.public,
        )
        return table, host_token, seat, token

    async def join(
        self, code: str, name: str, seat: int | None, address: str = ""
    ) -> tuple[Table, int, str]:
        table = await self.get(code, address)
        async with table.lock:
            index = table.open_seat(seat)
            table.check_name_free(name)
            token = table.take_seat(index, name)
            await self.save(table)
        table.broadcast_table()
        return table, index, token

    async def get(self, code: str, address: str | None = None) -> Table:
        """A table by code (read back from the database if it is not in memory).  A client's
        lookups (``address`` given) are refused once its failed ones exceed
        :attr:`Settings.lookup_rate`."""
        code = code.strip().upper()
        if address is not None and self.limits.blocked("lookup", address) > 0:
            raise RequestError(
                429, "rate_limited", self.limits.refusal("lookup", address, "unknown table codes")
            )
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = (
            await asyncio.to_thread(store.load_table, self.engine, code)
            if len(code) in (CODE_LENGTH, PRIVATE_CODE_LENGTH)
            and all(ch in CODE_ALPHABET for ch in code)
            else None
        )
        if stored is None or stored.row.status == "expired":
            if address is not None:
                self.limits.failed("lookup", address)
            if stored is not None:
                raise RequestError(
                    404, "no_such_table", f"table {code!r} expired unused in the lobby"
                )
            raise RequestError(404, "no_such_table", f"no table has the code {code!r}")
        if self.leasing and stored.row.status in ("lobby", "playing"):
            return await self._take_over(code)
        table = self.tables.get(code) or self._revive(stored)
        return self.add(table)

    async def _take_over(self, code: str) -> Table:
        """Take table ``code`` if its lease has run out (it is read back from the database, as
        after a restart), else raise :class:`Elsewhere` naming its owner's address."""
        async with self._taking:
            table = self.tables.get(code)
            if table is not None:
                return table
            lease = await self.writer.run(self._claim(code))
            if lease is None:
                held = await asyncio.to_thread(store.holder, self.engine, code)
                raise Elsewhere(code, held.address if held is not None else None)
            stored = await asyncio.to_thread(store.load_table, self.engine, code)
            assert stored is not None
            try:
                table = self._revive(stored)
            except RatgamesError:
                log.exception("table %s cannot be brought back; it is left out", code)
                await self.writer.run(store.op_release(code, lease))
                raise RequestError(
                    409, "wrong_status", f"table {code} cannot be brought back"
                ) from None
            table.lease = lease
            self.add(table)
            self.taken_over += 1
            event(log, "table_taken", "table taken over", table=code, fence=lease.fence)
        table.after_change()
        return table

    def listing_changed(self) -> None:
        """A public table came, started, ended or changed seats: the listing is made anew."""
        self._listings.clear()

    def listing(self, limit: int | None = None, after: str | None = None) -> bytes:
        """A page of :meth:`public_tables` as JSON, made at most once per
        :attr:`Settings.list_cache` seconds: clients polling the lobby cost the tables in play
        next to nothing."""
        key = (limit, after.strip().upper() if after is not None else None)
        now = time.monotonic()
        made = self._listings.get(key)
        if made is not None and made[0] > now:
            return made[1]
        if self.shared is not None and self.shared.tables:
            page = orjson.dumps(self._shared_page(limit, after))
        else:
            page = orjson.dumps([t.info() for t in self.public_tables(limit, after)])
        if len(self._listings) >= 64:
            self._listings = {k: v for k, v in self._listings.items() if v[0] > now}
        if len(self._listings) < 64 and self.settings.list_cache > 0:
            self._listings[key] = (now + self.settings.list_cache, page)
        return page

    def public_tables(self, limit: int | None = None, after: str | None = None) -> list[Table]:
        """The public tables in the lobby or in play, newest first: at most ``limit`` (default
        :attr:`Settings.list_limit`), from the one after the table ``after`` (the last code of
        the previous page) on."""
        limit = self._page_size(limit)
        start: float = float("inf")
        if after is not None:
            mark = self.tables.get(after.strip().upper())
            if mark is None:
                raise _unknown_after(after)
            start = mark.number
        out: list[Table] = []
        for t in reversed(self.tables.values()):  # held in the order of their numbers
            if t.number < start and t.public and t.status in ("lobby", "playing"):
                out.append(t)
                if len(out) == limit:
                    break
        return out

    def _page_size(self, limit: int | None) -> int:
        limit = self.settings.list_limit if limit is None else limit
        if not 1 <= limit <= 500:
            raise RequestError(400, "invalid_message", f"limit must be from 1 to 500, not {limit}")
        return limit

    def _shared_page(self, limit: int | None, after: str | None) -> list[dict[str, Any]]:
        """A page of the public tables of every process (this one's and those the others
        announced), newest first by creation, as :meth:`public_tables` gives this one's."""
        assert self.shared is not None
        limit = self._page_size(limit)
        remote = self.shared.tables
        keys: list[tuple[tuple[str, str], Table | None]] = [
            ((t.created, t.code), t)
            for t in self.tables.values()
            if t.public and t.status in LISTED
        ]
        keys.extend((r.key, None) for code, r in remote.items() if code not in self.tables)
        keys.sort(key=lambda k: k[0], reverse=True)
        if after is not None:
            code = after.strip().upper()
            local = self.tables.get(code)
            if local is not None:
                mark = (local.created, local.code)
            elif code in remote:
                mark = remote[code].key
            else:
                raise _unknown_after(after)
            keys = [k for k in keys if k[0] < mark]
        return [t.info() if t is not None else remote[key[1]].info for key, t in keys[:limit]]

    def _revive(self, stored: store.StoredTable) -> Table:
        """A table from its stored form, its game replayed to the last stored action."""
        row = stored.row
        game = get_game(row.game, players=row.players, options=row.options)
        table = Table(
            lobby=self,
            code=row.code,
            game=game,
            public=row.public,
            timeout=TimeoutPolicy.model_validate(row.timeout),
            host_token_hash=row.host_token_hash,
            seats=[
                Seat(s.kind, s.name, s.bot, s.token_hash, arrived=s.arrived) for s in stored.seats
            ],
            created=row.created,
            status=row.status,
            seed=row.seed,
            game_no=row.game_no,
            rematch_of=row.rematch_of,
            next_table=row.next_table,
            record_id=row.record_id,
        )
        if row.status in ("playing", "finished") and row.seed is not None:
            state = game.new_state(seed=row.seed)
            last = 0.0
            for seat, action, t in stored.actions:
                state.apply(seat, action, time=t)
                last = t if t is not None else last
            table.seq = len(stored.actions)
            if row.status == "playing":
                table._begin(state, last)
            else:
                table.state = state
                table.last_t = last
                table.finished_at = time.monotonic()
        return table

    async def load(self) -> int:
        """Bring back every table that was in the lobby or in play (after a restart); when
        leasing, those whose lease has run out (or was given up)."""
        if self.leasing:
            count = 0
            for code in await asyncio.to_thread(store.orphans, self.engine):
                with contextlib.suppress(RequestError):
                    await self._take_over(code)
                    count += 1
            return count
        stored = await asyncio.to_thread(store.load_tables, self.engine, ("lobby", "playing"))
        for item in stored:
            try:
                table = self._revive(item)
            except RatgamesError:
                log.exception("table %s cannot be brought back; it is left out", item.row.code)
                continue
            self.add(table)
        for table in self.tables.values():
            table.after_change()
        return len(stored)

    def forget_old(self) -> None:
        """Drop finished tables nobody watches beyond :data:`KEEP_FINISHED` (oldest first)."""
        finished = [t for t in self.tables.values() if t.status == "finished" and not t.conns]
        if len(finished) > KEEP_FINISHED:
            finished.sort(key=lambda t: t.finished_at)
            for table in finished[: len(finished) - KEEP_FINISHED]:
                del self.tables[table.code]

    # --- host actions ---------------------------------------------------------------------------

    async def fill_bots(self, table: Table, spec: str | None) -> None:
        """Bots in the open seats; once the game has started, in its open late seats (bots
        arriving late, ``Table.seat_bot_late``)."""
        async with table.lock:
            late = table.open_late_seats()
            if table.status != "lobby" and not late:
                raise RequestError(
                    409, "wrong_status", "the game has already started (no late seat is open)"
                )
            try:
                resolved = resolve_bot(table.game, spec, self.settings)
            except RatgamesError as exc:
                raise RequestError(400, "invalid_message", str(exc)) from None
            for i in late:
                table.seat_bot_late(i, spec or "normal", resolved)
            for s in table.seats:
                if s.kind == "open" and table.status == "lobby":
                    s.kind, s.name, s.bot = "bot", (spec or "normal"), resolved
            await self.save(table)
        table.broadcast_table()
        table.after_change()

    async def change_seat(self, table: Table, seat: int, kind: str, spec: str | None) -> None:
        if table.status == "playing" and kind == "bot" and seat in table.open_late_seats():
            async with table.lock:
                try:
                    resolved = resolve_bot(table.game, spec, self.settings)
                except RatgamesError as exc:
                    raise RequestError(400, "invalid_message", str(exc)) from None
                table.seat_bot_late(seat, spec or "normal", resolved)
                await self.save(table)
            table.broadcast_table()
            table.after_change()
            return
        async with table.lock:
            if table.status != "lobby":
                raise RequestError(
                    409,
                    "wrong_status",
                    "the game has already started (once it has, only a bot may be seated, and "
                    "only in an open seat for late arrivals)",
                )
            if not 0 <= seat < len(table.seats):
                raise RequestError(
                    400,
                    "invalid_message",
                    f"there is no seat {seat}; seats are 0 to {len(table.seats) - 1}",
                )
            old = table.seats[seat]
            if kind == "closed":
                try:
                    game = get_game(
                        table.game.id, players=len(table.seats) - 1, options=table.game.options
                    )
                except RatgamesError as exc:
                    raise RequestError(409, "wrong_status", str(exc)) from None
                table.game = game
                del table.seats[seat]
                for conn in table.conns:
                    if conn.seat is not None and conn.seat > seat:
                        conn.seat -= 1
            elif kind == "bot":
                try:
                    resolved = resolve_bot(table.game, spec, self.settings)
                except RatgamesError as exc:
                    raise RequestError(400, "invalid_message", str(exc)) from None
                table.seats[seat] = Seat("bot", name=spec or "normal", bot=resolved)
            else:
                table.seats[seat] = Seat("open")
            if old.conn is not None:
                old.conn.error("bad_token", "the host gave your seat away")
                old.conn.seat = None
                old.conn.token_hash = None
            await self.save(table)
        table.broadcast_table()

    async def reissue(self, table: Table, seat: int) -> dict[str, Any]:
        """A new seat token for the person in ``seat`` (the old one stops working at once): the
        ``seat_link`` message for the host."""
        async with table.lock:
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "person":
                raise RequestError(
                    400,
                    "invalid_message",
                    f"seat {seat} has no person in it: only a person's seat has a link to re-issue",
                )
            s = table.seats[seat]
            token = new_token()
            s.token_hash = hash_token(token)
            old = s.conn
            await self.save(table)
        if old is not None:
            old.error("bad_token", "the host re-issued your seat link: the old one no longer works")
            s.conn = None
            old.seat = None
            old.token_hash = None
            old.close()
            table.conns.discard(old)
            table.seat_left(seat)
        table.broadcast_table()
        return SeatLinkOut(seat=seat, token=token).model_dump(mode="json")

    async def rematch(self, table: Table) -> Table:
        async with table.lock:
            if table.status != "finished":
                raise RequestError(409, "wrong_status", "a rematch is offered after the end")
            if table.next_table is not None:
                return await self.get(table.next_table)
            code = self._new_code(table.public)
            new = Table(
                lobby=self,
                code=code,
                game=table.game,
                public=table.public,
                timeout=table.timeout,
                host_token_hash=table.host_token_hash,
                seats=[Seat(s.kind, s.name, s.bot, s.token_hash) for s in table.seats],
                created=now_iso(),
                game_no=table.game_no + 1,
                rematch_of=table.code,
            )
            table.next_table = code
            ops = [
                store.op_save_table(new.row(), new.seat_rows()),
                store.op_update_table(table.code, next_table=code),
            ]
            if self.leasing:
                ops.append(self._claim(code))
            results = await self.writer.run(_sequence(ops))
            if self.leasing:
                new.lease = results[-1]
            self.add(new)
        self.metrics.table_created()
        event(log, "table_created", "rematch table created", table=code, rematch_of=table.code)
        message = RematchOut(table=code).model_dump(mode="json")
        for conn in list(table.conns):
            if table.public or conn.seat is not None or conn.host:
                conn.send(message)
        table.broadcast_table()
        return new


def _unknown_after(after: str) -> RequestError:
    return RequestError(
        400,
        "invalid_message",
        f"after={after[:20]!r} is not a table this server knows; give the last code "
        "of the page before, or leave after out for the first page",
    )
