"""The ASGI application: the lobby's REST API and the WebSocket at ``/ws`` (``docs/protocol.md``).

:func:`create_app` builds it for a database URL; ``ratgames serve`` runs it under uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from ratgames.core.bots import describe_bots
from ratgames.core.registry import game_class, game_ids
from ratgames.levels import levels_for
from ratgames.webclient import mount as mount_client

from . import store
from .protocol import (
    CLIENT_TYPES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ActionMsg,
    ChatMsg,
    CreatedTable,
    CreateTable,
    FillBots,
    GameInfo,
    Hello,
    Joined,
    JoinTable,
    Leave,
    Pong,
    ProblemDetail,
    RecordSummary,
    Rematch,
    SampleRequest,
    SeatChange,
    Start,
    TableInfo,
    client_message,
    json_schema,
)
from .tables import Conn, Lobby, RequestError, Settings, Table, hash_token, same_token

log = logging.getLogger("ratgames.server")

WS_MAX_SIZE = 65536
"""Frames larger than this close the connection (uvicorn's ``ws_max_size``)."""


def game_info(game_id: str) -> dict[str, Any]:
    """A game as :class:`GameInfo`."""
    cls = game_class(game_id)
    game = cls()
    described = game.describe()
    return {
        **described,
        "default_players": cls.default_players,
        "bots": [
            {
                "name": name,
                "summary": summary,
                "params": {p.name: {"default": p.default, "help": p.help} for p in params},
            }
            for name, summary, params in describe_bots(game_id)
        ],
        "levels": levels_for(game_id),
        "rules": game.rules(),
    }


def _problem(status: int, detail: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail})


def create_app(db_url: str | None = None, settings: Settings | None = None) -> FastAPI:
    """The server for the database at ``db_url`` (default: the embedded SQLite file)."""
    url = store.database_url(db_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = store.make_engine(url, background_checkpoints=True)
        await asyncio.to_thread(store.upgrade, engine)
        lobby = Lobby(engine, settings)
        if lobby.settings.warm_pool:
            lobby.warm()
        count = await lobby.load()
        log.info("database %s ready; %d tables brought back", engine.url, count)
        app.state.lobby = lobby
        try:
            yield
        finally:
            lobby.close()
            engine.dispose()

    app = FastAPI(
        title="ratgames server",
        version=str(PROTOCOL_VERSION),
        summary="Tables for the rat card games: the lobby's REST API. Play is on the WebSocket "
        "at /ws (docs/protocol.md; schema at /api/protocol/schema).",
        lifespan=lifespan,
    )
    errors: dict[int | str, dict[str, Any]] = {
        400: {"model": ProblemDetail},
        404: {"model": ProblemDetail},
        409: {"model": ProblemDetail},
    }

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(RequestError)
    async def _request_error(request: Request, exc: RequestError) -> JSONResponse:
        return _problem(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _problem(422, _validation_text(exc.errors()))

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        return {"ok": True, "tables": len(lobby.tables), "connections": len(lobby.conns)}

    @app.get("/api/protocol/schema")
    async def protocol_schema() -> dict[str, Any]:
        return json_schema()

    @app.get("/api/games", response_model=list[GameInfo])
    async def games() -> list[dict[str, Any]]:
        return [game_info(g) for g in game_ids()]

    @app.get("/api/games/{game_id}", response_model=GameInfo, responses=errors)
    async def game(game_id: str) -> dict[str, Any]:
        if game_id not in game_ids():
            raise RequestError(
                404,
                "no_such_table",
                f"unknown game {game_id!r}; the games are: " + ", ".join(game_ids()),
            )
        return game_info(game_id)

    @app.post("/api/tables", status_code=201, response_model=CreatedTable, responses=errors)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        table, host_token, seat, token = await lobby_of(request).create(body)
        return {"table": table.info(), "host_token": host_token, "seat": seat, "token": token}

    @app.get("/api/tables", response_model=list[TableInfo])
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        return [t.info() for t in lobby_of(request).public_tables()]

    @app.get("/api/tables/{code}", response_model=TableInfo, responses=errors)
    async def get_table(code: str, request: Request) -> dict[str, Any]:
        return (await lobby_of(request).get(code)).info()

    @app.post("/api/tables/{code}/join", response_model=Joined, responses=errors)
    async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        table, seat, token = await lobby_of(request).join(code, body.name, body.seat)
        return {"table": table.info(), "seat": seat, "token": token}

    @app.get("/api/records", response_model=list[RecordSummary])
    async def list_records(
        request: Request, limit: int = 50, before: int | None = None
    ) -> list[dict[str, Any]]:
        if not 1 <= limit <= 500:
            raise RequestError(400, "invalid_message", "limit must be from 1 to 500")
        engine = lobby_of(request).engine
        return await asyncio.to_thread(store.list_records, engine, limit, before)

    @app.get("/api/records/{record_id}", responses=errors)
    async def get_record(record_id: int, request: Request) -> dict[str, Any]:
        engine = lobby_of(request).engine
        record = await asyncio.to_thread(store.get_record, engine, record_id)
        if record is None:
            raise RequestError(404, "no_such_table", f"no stored game has the id {record_id}")
        return record

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        lobby = lobby_of(ws)
        if not origin_allowed(ws, lobby.settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        client = ws.client
        conn = Conn(f"{client.host}:{client.port}" if client else "?")
        lobby.conns.add(conn)
        sender = asyncio.create_task(_send_loop(ws, conn))
        pinger = asyncio.create_task(_ping_loop(conn, lobby.settings.ping_interval))
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    data = message.get("bytes") or b""
                    try:
                        raw = data.decode("utf-8")
                    except UnicodeDecodeError:
                        conn.error("bad_json", "a message is UTF-8 JSON text")
                        continue
                await handle_message(lobby, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            conn.close()
            lobby.conns.discard(conn)
            detach(conn)
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, timeout=1.0)
            sender.cancel()

    mount_client(app)
    return app


def origin_allowed(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    """A WebSocket's ``Origin``: none (not a browser), the server's own, or one allowed."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    while True:
        item = await conn.queue.get()
        if item is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        text, seq = item
        conn.sent(seq)
        try:
            await ws.send_text(text)
        except Exception:
            conn.close()
            return


async def _ping_loop(conn: Conn, interval: float) -> None:
    for i in range(1_000_000_000):
        conn.send(conn.next_ping())
        await asyncio.sleep(0.1 if i < 5 else interval)


def _validation_text(errors: Any) -> str:
    parts = []
    for e in list(errors)[:3]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body",))
        parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
    return "; ".join(parts) or "invalid message"


def detach(conn: Conn) -> None:
    """The connection leaves its table (a seat is then away; the timeout policy applies)."""
    table = conn.table
    if table is None:
        return
    table.conns.discard(conn)
    seat = conn.seat
    if seat is not None and 0 <= seat < len(table.seats) and table.seats[seat].conn is conn:
        table.seats[seat].conn = None
        table.seat_left(seat)
    conn.table = None
    conn.seat = None
    conn.host = False
    table.broadcast_table()


async def handle_message(lobby: Lobby, conn: Conn, raw: str) -> None:
    """One message from a client: checked, then carried out; any refusal is an ``error`` to
    this client only."""
    if len(raw) > MAX_MESSAGE_BYTES or len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
        conn.error("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
        return
    if not conn.bucket.allow():
        conn.error("rate_limited", "too many messages: at most 20 a second (bursts of 40)")
        return
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        conn.error("bad_json", "the message is not valid JSON")
        return
    if not isinstance(data, dict):
        conn.error("bad_json", "a message is a JSON object with 'type' and 'v'")
        return
    kind = data.get("type")
    ref = (
        data.get("id") if kind in ("action", "sample") and isinstance(data.get("id"), int) else None
    )
    if kind not in CLIENT_TYPES:
        conn.error(
            "unknown_type",
            f"unknown message type {str(kind)[:40]!r}; the types are: {', '.join(CLIENT_TYPES)}",
        )
        return
    if data.get("v") != PROTOCOL_VERSION:
        conn.error(
            "invalid_message",
            f'this server speaks protocol version {PROTOCOL_VERSION}; give "v": {PROTOCOL_VERSION}',
            ref,
        )
        return
    try:
        msg = client_message.validate_python(data)
    except ValidationError as exc:
        conn.error("invalid_message", f"{kind}: {_validation_text(exc.errors())}", ref)
        return
    try:
        await dispatch(lobby, conn, msg)
    except RequestError as exc:
        conn.error(exc.code, exc.message, ref)
    except Exception:
        log.exception("message %s from %s failed", kind, conn.peer)
        conn.error("server_error", "the server failed to carry out this message", ref)


async def dispatch(lobby: Lobby, conn: Conn, msg: Any) -> None:
    """Carry out a valid message."""
    if isinstance(msg, Hello):
        await hello(lobby, conn, msg)
        return
    if isinstance(msg, Pong):
        conn.pong(msg.id, msg.client_time)
        return
    table = conn.table
    if table is None:
        raise RequestError(400, "need_hello", "send 'hello' with a table code first")
    if isinstance(msg, ActionMsg):
        if conn.seat is None:
            raise RequestError(403, "not_a_seat", "spectators cannot act; join a seat to play")
        if not table.token_still_valid(conn):
            raise RequestError(403, "bad_token", "your seat token is no longer valid here")
        await table.submit(
            conn.seat,
            msg.action,
            conn=conn,
            ref=msg.id,
            pressed_at=msg.pressed_at,
            seen_at=msg.seen_at,
        )
    elif isinstance(msg, ChatMsg):
        if conn.seat is not None and not table.token_still_valid(conn):
            raise RequestError(403, "bad_token", "your seat token is no longer valid here")
        name = (
            table.seats[conn.seat].name or table.game.seat_name(conn.seat)
            if conn.seat is not None
            else "spectator"
        )
        line = {
            "type": "chat",
            "v": PROTOCOL_VERSION,
            "seat": conn.seat,
            "name": name,
            "text": " ".join(msg.text.split())[:300] or "...",
        }
        for other in list(table.conns):
            other.send(line)
    elif isinstance(msg, SampleRequest):
        if conn.seat is None:
            raise RequestError(403, "not_a_seat", "samples are for seats; spectators see no hand")
        if not table.token_still_valid(conn):
            raise RequestError(403, "bad_token", "your seat token is no longer valid here")
        conn.send(table.sample_for(conn.seat, msg.id))
    elif isinstance(msg, Leave):
        await leave(lobby, conn, table)
    else:
        if not conn.host:
            raise RequestError(403, "not_host", "only the host (with the host token) may do that")
        if isinstance(msg, Start):
            await table.start()
        elif isinstance(msg, FillBots):
            await lobby.fill_bots(table, msg.bot)
        elif isinstance(msg, SeatChange):
            await lobby.change_seat(table, msg.seat, msg.kind, msg.bot)
        elif isinstance(msg, Rematch):
            await lobby.rematch(table)


async def hello(lobby: Lobby, conn: Conn, msg: Hello) -> None:
    table = await lobby.get(msg.table)
    seat: int | None = None
    if msg.token is not None:
        seat = table.seat_of_token(msg.token)
        if seat is None:
            raise RequestError(403, "bad_token", "this seat token does not belong to this table")
    if msg.host_token is not None and not same_token(msg.host_token, table.host_token_hash):
        raise RequestError(403, "bad_token", "this host token does not belong to this table")
    detach(conn)
    conn.table = table
    conn.seat = seat
    conn.host = msg.host_token is not None
    conn.token_hash = hash_token(msg.token) if msg.token is not None else None
    conn.seen_events = []
    conn.delta_events = msg.delta_events
    if seat is not None:
        s = table.seats[seat]
        old = s.conn
        if old is not None and old is not conn:
            old.error("bad_token", "your seat was taken over by a new connection")
            old.seat = None
            old.close()
            table.conns.discard(old)
        s.conn = conn
        table.seat_back(seat)
    table.conns.add(conn)
    conn.send(
        {
            "type": "welcome",
            "v": PROTOCOL_VERSION,
            "table": table.info(),
            "seat": seat,
            "host": conn.host,
            "server_time": round(asyncio.get_running_loop().time() * 1000.0, 3),
            "max_message_bytes": MAX_MESSAGE_BYTES,
        }
    )
    if table.state is not None:
        view = table.state.spectator_view() if seat is None else None
        conn.send(table.state_message(conn, view), seq=table.seq)
    table.broadcast_table()


async def leave(lobby: Lobby, conn: Conn, table: Table) -> None:
    seat = conn.seat
    if seat is None:
        detach(conn)
        return
    async with table.lock:
        if table.status != "lobby":
            raise RequestError(
                409,
                "wrong_status",
                "a seat cannot be given up once the game has started; close the connection "
                "and the table's timeout policy applies",
            )
        from .tables import Seat

        table.seats[seat] = Seat("open")
        await lobby.writer.run(store.op_save_table(table.row(), table.seat_rows()))
    conn.seat = None
    conn.token_hash = None
    table.broadcast_table()
