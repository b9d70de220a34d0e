"""The ASGI application: the lobby's REST API and the WebSocket at ``/ws`` (``docs/protocol.md``).

:func:`create_app` builds it for a database URL; ``ratgames serve`` runs it under uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from ratgames.core.bots import describe_bots
from ratgames.core.registry import game_class, game_ids
from ratgames.levels import levels_for
from ratgames.webclient import mount as mount_client

from . import fairness, operations, store
from .connections import DROPPED_LIMIT, MOVED, Conn
from .limits import address_key, bound_logs, log_refused
from .lobby import Lobby
from .logs import event
from .metrics import OFF, Metrics
from .protocol import (
    CLIENT_TYPES,
    MAX_HEADER_TOKENS,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    TOKEN_HEADER,
    ActionMsg,
    ChatMsg,
    ChatOut,
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
    Reissue,
    Rematch,
    SampleRequest,
    SeatChange,
    Start,
    TableInfo,
    Welcome,
    client_message,
    header_tokens,
    json_schema,
)
from .tables import Elsewhere, RequestError, Settings, Table, hash_token, same_token

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


TokenHeader = Annotated[
    str | None,
    Header(
        alias=TOKEN_HEADER,
        description=f"Seat or host tokens, separated by commas (at most {MAX_HEADER_TOKENS}): "
        "a private table's games and rematch are shown only to its seats and its host.",
    ),
]
"""The header that carries tokens to the REST API."""

RecordId = Annotated[int, Path(ge=0, le=store.MAX_ID, description="The stored game's id.")]


def _token_list(header: str | None) -> list[str]:
    try:
        return header_tokens(header)
    except ValueError as exc:
        raise RequestError(400, "bad_token", str(exc)) from None


async def check_record_access(engine: Any, record_id: int, header: str | None) -> None:
    """Raise 404 if there is no record ``record_id``, 403 if it is a private table's game and
    no token of ``header`` (the :data:`TOKEN_HEADER`) is a seat or host token of its table."""
    hashes = [hash_token(t) for t in _token_list(header)]
    access = await asyncio.to_thread(store.record_access, engine, record_id, hashes)
    if access == "missing":
        raise RequestError(404, "no_such_table", f"no stored game has the id {record_id}")
    if access == "private":
        raise RequestError(
            403,
            "bad_token",
            f"game {record_id} was played at a private table: it is for that table's players "
            f"only; show a seat token or the host token of the table in the {TOKEN_HEADER} "
            "header",
        )


def insider(table: Table, tokens: list[str]) -> bool:
    """True if one of ``tokens`` is a seat token or the host token of ``table``."""
    return any(
        table.seat_of_token(t) is not None or same_token(t, table.host_token_hash) for t in tokens
    )


def create_app(db_url: str | None = None, settings: Settings | None = None) -> FastAPI:
    """The server for the database at ``db_url`` (default: the embedded SQLite file)."""
    url = store.database_url(db_url)
    options = settings or Settings()
    metrics = Metrics() if options.metrics else OFF

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = store.make_engine(url, background_checkpoints=True)
        await asyncio.to_thread(store.upgrade, engine)
        lobby = Lobby(engine, settings)
        metrics.attach(lobby)
        if lobby.settings.warm_pool:
            await lobby.warm()
        count = await lobby.load()
        event(
            log,
            "server_ready",
            "server ready",
            database=engine.url.render_as_string(hide_password=True),
            tables_back=count,
        )
        lobby.start_sweeping()
        lobby.start_leasing()
        if lobby.settings.bound_logs:
            bound_logs("asyncio", "uvicorn.error", "ratgames.server")
        app.state.lobby = lobby
        try:
            yield
        finally:
            lobby.close()
            engine.dispose()
            when_stopped = getattr(app.state, "when_stopped", None)
            if when_stopped is not None:  # the serve command's last word (here, as a signal
                when_stopped()  # that stopped the server ends the process once it returns)

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
        422: {"model": ProblemDetail},
    }
    malformed: dict[int | str, dict[str, Any]] = {
        400: {"model": ProblemDetail},
        422: {"model": ProblemDetail},
    }
    limited: dict[int | str, dict[str, Any]] = {429: {"model": ProblemDetail}}

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(RequestError)
    async def _request_error(request: Request, exc: RequestError) -> JSONResponse:
        if isinstance(exc, Elsewhere) and exc.address:
            # The table is another process's: send the request there (307 keeps a POST a POST
            # with its body), the reason in words for a client that does not follow.
            query = f"?{request.url.query}" if request.url.query else ""
            where = exc.address.rstrip("/") + request.url.path + query
            answer = _problem(307, exc.message)
            answer.headers["location"] = where
            return answer
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

    @app.get(
        "/api/games/{game_id}",
        response_model=GameInfo,
        responses={404: {"model": ProblemDetail}, 422: {"model": ProblemDetail}},
    )
    async def game(game_id: str) -> dict[str, Any]:
        if game_id not in game_ids():
            raise RequestError(
                404,
                "no_such_table",
                f"unknown game {game_id!r}; the games are: " + ", ".join(game_ids()),
            )
        return game_info(game_id)

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=CreatedTable,
        responses={**malformed, **limited},
    )
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        table, host_token, seat, token = await lobby_of(request).create(body, address_of(request))
        return {
            "table": table.info(insider=True),
            "host_token": host_token,
            "seat": seat,
            "token": token,
        }

    @app.get(
        "/api/tables",
        response_model=list[TableInfo],
        response_class=Response,
        responses={
            200: {"model": list[TableInfo], "content": {"application/json": {}}},
            **malformed,
        },
    )
    async def list_tables(
        request: Request,
        limit: Annotated[
            int | None,
            Query(description="Tables in the page (1 to 500; default the server's page size)."),
        ] = None,
        after: Annotated[
            str | None,
            Query(max_length=16, description="The last code of the page before."),
        ] = None,
    ) -> Response:
        page = lobby_of(request).listing(limit, after)
        return Response(content=page, media_type="application/json")

    @app.get("/api/tables/{code}", response_model=TableInfo, responses={**errors, **limited})
    async def get_table(
        code: str, request: Request, x_ratgames_token: TokenHeader = None
    ) -> dict[str, Any]:
        tokens = _token_list(x_ratgames_token)
        table = await lobby_of(request).get(code, address_of(request))
        return table.info(insider=insider(table, tokens))

    @app.post("/api/tables/{code}/join", response_model=Joined, responses={**errors, **limited})
    async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        table, seat, token = await lobby.join(code, body.name, body.seat, address_of(request))
        return {"table": table.info(insider=True), "seat": seat, "token": token}

    @app.get("/api/records", response_model=list[RecordSummary], responses=malformed)
    async def list_records(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=500, description="How many, newest first.")] = 50,
        before: Annotated[
            int | None, Query(ge=1, description="Only games with an id below this.")
        ] = None,
        x_ratgames_token: TokenHeader = None,
    ) -> list[dict[str, Any]]:
        """The stored games of public tables, newest first, and those of the private tables
        the tokens in the header belong to."""
        hashes = [hash_token(t) for t in _token_list(x_ratgames_token)]
        engine = lobby_of(request).engine
        return await asyncio.to_thread(store.list_records, engine, limit, before, hashes)

    @app.get(
        "/api/records/{record_id}",
        responses={**errors, 403: {"model": ProblemDetail}},
    )
    async def get_record(
        record_id: RecordId, request: Request, x_ratgames_token: TokenHeader = None
    ) -> Response:
        """A stored game's record (the JSON ``ratgames replay`` reads), sent as it is stored.
        The game of a private table needs a seat token or the host token of that table in the
        header."""
        engine = lobby_of(request).engine
        await check_record_access(engine, record_id, x_ratgames_token)
        text = await asyncio.to_thread(store.get_record_text, engine, record_id)
        if text is None:
            raise RequestError(404, "no_such_table", f"no stored game has the id {record_id}")
        return Response(content=text, media_type="application/json")

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        lobby = lobby_of(ws)
        if not origin_allowed(ws, lobby.settings.allowed_origins, lobby.settings.allowed_hosts):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        client = ws.client
        address = address_of(ws)
        if not lobby.limits.open_socket(address):
            log_refused(address, "too many WebSockets from the address")
            await ws.close(
                code=1013,
                reason=f"too many connections from your address (at most "
                f"{lobby.settings.max_conns_per_address})",
            )
            return
        conn = Conn(f"{client.host}:{client.port}" if client else "?", address)
        conn.metrics = lobby.metrics
        # The server's own measure of the connection bounds the latency it makes up for.
        conn.clock.max_rtt = lobby.settings.max_rtt
        if lobby.settings.transport_rtt:
            conn.clock.probe = fairness.transport_probe(ws)
        lobby.conns.add(conn)
        sender = asyncio.create_task(_send_loop(ws, conn))
        pinger = asyncio.create_task(_ping_loop(conn, lobby.settings.ping_interval))
        idle = lobby.settings.idle_timeout
        hello_by = asyncio.get_running_loop().time() + idle
        try:
            while not conn.closed:
                if conn.greeted or idle <= 0:
                    message = await ws.receive()
                else:
                    try:
                        left = hello_by - asyncio.get_running_loop().time()
                        message = await asyncio.wait_for(ws.receive(), max(0.0, left))
                    except TimeoutError:
                        conn.error("need_hello", f"no hello within {idle:g} s: closing")
                        conn.close()
                        break
                if message["type"] == "websocket.disconnect":
                    break
                if not lobby.limits.allow("message", address):
                    # The address's connections together send too much: dropped unread, and
                    # said so once a second at most (answering each would cost as much).
                    conn.dropped += 1
                    lobby.metrics.rejected("dropped")
                    if conn.dropped >= DROPPED_LIMIT:
                        await ws.close(code=1008, reason="too many messages from your address")
                        break
                    now = asyncio.get_running_loop().time()
                    if now >= conn.told_limited_at + 1.0:
                        conn.told_limited_at = now
                        conn.error(
                            "rate_limited",
                            lobby.limits.refusal("message", address, "messages")
                            + "; until then messages are dropped",
                        )
                    continue
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
            lobby.limits.close_socket(address)
            detach(conn)
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, timeout=1.0)
            sender.cancel()

    operations.install(app, url, metrics, operations.parse_networks(options.metrics_allow))
    mount_client(app)
    app.add_middleware(GuardHeaders, lambda: app.state.lobby.settings.allowed_hosts)
    return app


LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


@functools.cache
def machine_names() -> frozenset[str]:
    """This machine's own names (``mybox``, ``mybox.local`` for mDNS, its full name): a page
    of another site cannot go by them, so the server answers to them as to its addresses."""
    names = set()
    with contextlib.suppress(OSError):
        short = socket.gethostname().lower().rstrip(".")
        if short:
            first = short.split(".")[0]
            names |= {short, first, first + ".local"}
        full = socket.getfqdn().lower().rstrip(".")
        if full:
            names.add(full)
    return frozenset(names)


def host_name(host_header: str) -> str:
    """The name in a ``Host`` header (or an origin's netloc), without the port, lower case."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[: text.find("]") + 1] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def host_allowed(host_header: str | None, allowed: tuple[str, ...]) -> bool:
    """True if the server answers to ``host_header``: an IP address (which no other site's page
    can go by), a localhost name, this machine's own name, or one of ``allowed`` (``*``: any).
    Without the header (HTTP/1.0 tools) it is allowed."""
    if host_header is None or "*" in allowed:
        return True
    name = host_name(host_header)
    if name in LOCAL_NAMES or name.endswith(".localhost"):
        return True
    if name.rstrip(".") in {a.lower().rstrip(".") for a in allowed} | machine_names():
        return True
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def origin_allowed(ws: WebSocket, allowed: tuple[str, ...], hosts: tuple[str, ...] = ()) -> bool:
    """A WebSocket's ``Origin``: none (not a browser), one allowed, or the server's own (the
    same as the ``Host`` the page reached, which must itself be a name the server answers to)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    host = ws.headers.get("host", "")
    netloc = urlsplit(origin).netloc.lower()
    return netloc == host.lower() and host_allowed(netloc, hosts)


ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]


class GuardHeaders:
    """Refuse requests whose ``Host`` the server does not answer to (:func:`host_allowed`), and
    mark every answer ``X-Content-Type-Options: nosniff``."""

    def __init__(self, app: ASGIApp, hosts: Callable[[], tuple[str, ...]]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host: str | None = None
        for key, value in scope.get("headers", ()):
            if key == b"host":
                host = value.decode("latin-1")
                break
        try:
            hosts = self.hosts()
        except AttributeError:  # before the lifespan started: nothing configured yet
            hosts = ()
        if not host_allowed(host, hosts):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
                return
            name = host_name(host or "")[:80]
            body = json.dumps(
                {
                    "detail": f"this server does not answer to the host name {name!r}: it "
                    "answers to IP addresses, localhost and the names given to "
                    "'ratgames serve --allow-host'"
                }
            ).encode("utf-8")
            await send(
                {
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"x-content-type-options", b"nosniff"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_marked(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if not any(k.lower() == b"x-content-type-options" for k, _ in headers):
                    headers.append((b"x-content-type-options", b"nosniff"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_marked)


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    while True:
        item = await conn.queue.get()
        if item is None:
            with contextlib.suppress(Exception):
                await ws.close(code=conn.close_code, reason=conn.close_reason)
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


def address_of(request: Request | WebSocket) -> str:
    """The client's address as the per-address limits count it: the TCP peer's (behind a
    proxy, the proxy's), an IPv6 one by its /64 network."""
    client = request.client
    return address_key(client.host) if client is not None else "?"


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
    table.broadcast_table(urgent=False)


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
    given_id = data.get("id")
    ref = (
        given_id
        if kind in ("action", "sample") and type(given_id) is int and 0 <= given_id <= 2**53
        else None
    )
    if kind not in CLIENT_TYPES:
        conn.error(
            "unknown_type",
            f"unknown message type {str(kind)[:40]!r}; the types are: {', '.join(CLIENT_TYPES)}",
        )
        return
    if type(data.get("v")) is not int or data.get("v") != PROTOCOL_VERSION:
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
    except Elsewhere as exc:  # no error: the close code says it, the reason says where
        conn.close(MOVED, exc.address or "")
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
        if conn.seat is None and not lobby.settings.spectator_chat:
            raise RequestError(403, "not_a_seat", "spectators cannot chat at this server")
        name = (
            table.seats[conn.seat].name or table.game.seat_name(conn.seat)
            if conn.seat is not None
            else "spectator"
        )
        line = ChatOut(seat=conn.seat, name=name, text=" ".join(msg.text.split())[:300] or "...")
        table.chat(line.model_dump(mode="json"))
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
        elif isinstance(msg, Reissue):
            conn.send(await lobby.reissue(table, msg.seat))


async def hello(lobby: Lobby, conn: Conn, msg: Hello) -> None:
    if not lobby.limits.allow("hello", conn.address):
        raise RequestError(
            429, "rate_limited", lobby.limits.refusal("hello", conn.address, "hellos")
        )
    table = await lobby.get(msg.table, conn.address)
    seat: int | None = None
    if msg.token is not None:
        seat = table.seat_of_token(msg.token)
        if seat is None:
            raise RequestError(403, "bad_token", "this seat token does not belong to this table")
    if msg.host_token is not None and not same_token(msg.host_token, table.host_token_hash):
        raise RequestError(403, "bad_token", "this host token does not belong to this table")
    cap = lobby.settings.max_spectators
    if (
        seat is None
        and cap > 0
        and not (conn.table is table and conn.seat is None)
        and table.spectators() >= cap
    ):
        raise RequestError(
            409, "wrong_status", f"table {table.code} has its most spectators ({cap}) already"
        )
    if seat is None:
        table.spectator_arrives()
    detach(conn)
    conn.greeted = True
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
    welcome = Welcome(
        table=TableInfo.model_validate(table.info(insider=seat is not None or conn.host)),
        seat=seat,
        host=conn.host,
        server_time=round(asyncio.get_running_loop().time() * 1000.0, 3),
        max_message_bytes=MAX_MESSAGE_BYTES,
    )
    conn.send(welcome.model_dump(mode="json"))
    if table.state is not None:
        view = table.state.spectator_view() if seat is None else None
        conn.send(table.state_message(conn, view), seq=table.seq)
    table.broadcast_table(urgent=False)


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
        await lobby.save(table)
    conn.seat = None
    conn.token_hash = None
    table.broadcast_table()
