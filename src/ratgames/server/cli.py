"""The commands of the online server and its clients: ``serve``, ``db upgrade``, ``export``,
``join`` and ``bot`` (loaded lazily by :mod:`ratgames.cli`)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from . import store

DEFAULT_SERVER = "127.0.0.1:8000"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""The levels of ``serve --log-level``, quietest first (uvicorn's names)."""
F = TypeVar("F", bound=Callable[..., Any])


def _db_option() -> Callable[[F], F]:
    return click.option(
        "--db",
        "db",
        default=None,
        metavar="URL",
        help="Database: an SQLite file path or URL, or postgresql+psycopg://USER:PW@HOST/DB "
        "(default: $RATGAMES_HOME/ratgames.db, else ~/.ratgames/ratgames.db).",
    )


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@_db_option()
@click.option(
    "--bot-pause",
    default=0.8,
    show_default=True,
    type=float,
    help="Seconds a turn-based bot waits before its move (so people can follow).",
)
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(min=1),
    help="Processes for search bots (default: one fewer than the cores, at least one).",
)
@click.option(
    "--allow-origin",
    multiple=True,
    metavar="ORIGIN",
    help="A web origin (https://example.org) whose pages may open the WebSocket, besides the "
    "server's own (repeatable; * for any).",
)
@click.option(
    "--allow-host",
    multiple=True,
    metavar="NAME",
    help="A host name the server answers to (games.example.org: the name players type, or "
    "the one a proxy passes on), besides IP addresses, localhost, this machine's name and the "
    "--host name; other "
    "names are refused, so that no page of another site pointed at this address (DNS "
    "rebinding) gets in (repeatable; * for any).",
)
@click.option(
    "--compress/--no-compress",
    default=False,
    show_default=True,
    help="Compress WebSocket messages (permessage-deflate): less traffic for players on slow "
    "links, more server CPU per action.",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    help="What the server logs to stderr: warning shows only problems; info also each start "
    "step and request; debug and trace more still.",
)
@click.option(
    "--verbose",
    "-v",
    count=True,
    help="Log more: -v is --log-level info, -vv debug.",
)
@click.option(
    "--log-format",
    default="text",
    show_default=True,
    type=click.Choice(("text", "json"), case_sensitive=False),
    help="Log lines as text, or as JSON: one object a line with time, level, logger, event, "
    "message and the event's fields (for a log collector).",
)
@click.option(
    "--metrics/--no-metrics",
    default=True,
    show_default=True,
    help="Keep Prometheus metrics and answer GET /metrics (docs/operating.md).  Behind a "
    "balancer, do not route /metrics to the public.",
)
@click.option(
    "--metrics-allow",
    multiple=True,
    metavar="NET",
    help="An address or network (10.0.0.0/8) shown /metrics; others get 403 (repeatable; "
    "default: every address).  Behind a proxy on this machine every client has its address.",
)
@click.option(
    "--max-connections",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    help="Connections held at once (0: what the open-files limit allows, less a reserve).",
)
@click.option(
    "--max-conns-per-address",
    default=64,
    show_default=True,
    type=click.IntRange(min=0),
    help="Connections from one address at once (0: no limit).  Behind a proxy every client "
    "has the proxy's address.",
)
@click.option(
    "--idle-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Seconds a connection has to send its request, and a WebSocket to say hello (0: no "
    "limit).",
)
@click.option(
    "--max-spectators",
    default=50,
    show_default=True,
    type=click.IntRange(min=0),
    help="Spectators at one table (0: no limit).",
)
@click.option(
    "--spectator-chat/--no-spectator-chat",
    default=False,
    show_default=True,
    help="Let spectators chat (players always may).",
)
@click.option(
    "--tables-per-minute",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Tables one address may create a minute, as many at once (0: no limit).",
)
@click.option(
    "--lookups-per-minute",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Failed table-code lookups one address may make a minute, twice as many at once; "
    "then its lookups are refused until it may again (0: no limit).",
)
@click.option(
    "--lobby-idle",
    default=600.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Seconds a table may wait in the lobby with nobody connected before it expires "
    "(0: never).",
)
@click.option(
    "--max-bot-seconds",
    default=5.0,
    show_default=True,
    type=click.FloatRange(min=0.01),
    help="The longest a search bot may think per move: a bot spec above it is refused, a "
    "level is held to it.",
)
@click.option(
    "--max-bot-iterations",
    default=20_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="The most iterations a search bot may use per move (the same way).",
)
@click.option(
    "--max-rtt-ms",
    default=300.0,
    show_default=True,
    type=click.FloatRange(min=0, max=2000),
    help="The longest round trip, in ms, made up for in real-time races (a player farther "
    "away loses races by the excess).",
)
@click.option(
    "--rtt-from-pings",
    is_flag=True,
    help="Believe the round trip the pings show (up to --max-rtt-ms) without bounding it by "
    "the kernel's TCP measure: for a server behind a reverse proxy, where that measure is of "
    "the proxy's hop.",
)
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESSES",
    help="The balancers or proxies (comma-separated addresses or networks, '*' for any) whose "
    "X-Forwarded-For and X-Forwarded-Proto this process believes: a client's address behind "
    "them (for the per-address limits and logs) is the one they pass on.  Use '' to believe "
    "none.",
)
@click.option(
    "--lease",
    default=None,
    type=click.FloatRange(min=0),
    help="Seconds a table's lease runs when several processes share one PostgreSQL (each "
    "table owned by one process, renewed while it lives, taken over when it runs out) "
    "[default: 5 with PostgreSQL, 0 (no leases) with SQLite].",
)
@click.option(
    "--advertise",
    default=None,
    help="The address (http://host:port) clients reach this process at, told to clients of "
    "its tables that reach another process; behind the shipped HAProxy configuration, the "
    "balancer's address and /p/NAME (deploy/haproxy.cfg) [default: where it listens, unless "
    "that is every interface: then clients are told to retry].",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    bot_pause: float,
    workers: int | None,
    allow_origin: tuple[str, ...],
    allow_host: tuple[str, ...],
    compress: bool,
    log_level: str,
    verbose: int,
    log_format: str,
    metrics: bool,
    metrics_allow: tuple[str, ...],
    max_connections: int,
    max_conns_per_address: int,
    idle_timeout: float,
    max_spectators: int,
    spectator_chat: bool,
    tables_per_minute: float,
    lookups_per_minute: float,
    lobby_idle: float,
    max_bot_seconds: float,
    max_bot_iterations: int,
    max_rtt_ms: float,
    rtt_from_pings: bool,
    forwarded_allow_ips: str,
    lease: float | None,
    advertise: str | None,
) -> None:
    """Run the game server: the lobby's REST API and the WebSocket for play.

    The database's schema is brought up to date at the start (Alembic migrations), and every
    table that was in play is brought back where it was.  What one client may take of the
    server is limited (docs/server.md, "Limits").

    It prints one line saying where it listens; -v (or --log-level info) shows each start step
    and request as well.

    \b
    Examples:
      ratgames serve --host 0.0.0.0 --port 9000
      ratgames serve -v                     # log the start steps and every request
      ratgames serve --host 0.0.0.0 --allow-host games.example.org   # reached by that name
      ratgames serve --max-conns-per-address 0 --tables-per-minute 0   # a load test on loopback
      ratgames serve --max-bot-seconds 10 --spectator-chat
      ratgames serve --rtt-from-pings --max-rtt-ms 250   # behind a reverse proxy
      ratgames serve --log-format json -v --metrics-allow 10.0.0.0/8   # for a log collector
    """
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from . import logs
    from .app import WS_MAX_SIZE, create_app
    from .limits import (
        ConnectionGuard,
        Rate,
        connections_for,
        guarded_protocol,
        raise_open_files_limit,
        websocket_protocol,
    )
    from .tables import Settings, default_workers

    if bot_pause < 0:
        raise click.BadParameter("must not be negative", param_hint="--bot-pause")
    from .operations import parse_networks

    for net in metrics_allow:
        try:
            parse_networks((net,))
        except ValueError:
            raise click.BadParameter(
                f"{net!r} is neither an IP address nor a network such as 10.0.0.0/8",
                param_hint="--metrics-allow",
            ) from None
    open_files = raise_open_files_limit()
    most = connections_for(open_files) if open_files else 0
    if max_connections == 0 or (most and max_connections > most):
        max_connections = most
    url = store.database_url(db)
    if lease is None:
        lease = 5.0 if url.startswith("postgresql") else 0.0
    if lease and url.startswith("sqlite"):
        raise click.BadParameter(
            "leases are for several processes sharing one PostgreSQL; an SQLite database is "
            "one process's (give --lease 0, or --db postgresql+psycopg://...)",
            param_hint="--lease",
        )
    if lease and lease < 1.0:
        raise click.BadParameter("must be 0 (no leases) or at least 1 second", param_hint="--lease")
    if advertise is not None and (
        not advertise.startswith(("http://", "https://")) or len(advertise.encode()) > 123
    ):
        raise click.BadParameter(
            f"{advertise[:60]!r} is not an address clients can be sent to: give http://host:port "
            "or https://host/path, at most 123 bytes (it is a WebSocket close reason)",
            param_hint="--advertise",
        )
    shown_host = f"[{host}]" if ":" in host else host
    settings = Settings(
        lease=lease,
        address=advertise or (None if host in ("0.0.0.0", "::") else f"http://{shown_host}:{port}"),
        bot_pause=bot_pause,
        pool_workers=workers if workers is not None else default_workers(),
        allowed_origins=tuple(allow_origin),
        allowed_hosts=(*allow_host, host),
        max_connections=max_connections,
        max_conns_per_address=max_conns_per_address,
        idle_timeout=idle_timeout,
        max_spectators=max_spectators,
        spectator_chat=spectator_chat,
        create_rate=Rate(tables_per_minute, 60.0, tables_per_minute),
        lookup_rate=Rate(lookups_per_minute, 60.0, 2 * lookups_per_minute),
        lobby_idle=lobby_idle,
        max_bot_seconds=max_bot_seconds,
        max_bot_iterations=max_bot_iterations,
        max_rtt=max_rtt_ms / 1000.0,
        transport_rtt=not rtt_from_pings,
        bound_logs=True,
        metrics=metrics,
        metrics_allow=tuple(metrics_allow),
    )
    guard = ConnectionGuard(
        max_connections, max_conns_per_address, idle_timeout, settings.connect_rate
    )
    _check_listen(host, port)
    url, engine = open_database(db, must_exist=False)  # checked before anything starts
    engine.dispose()
    level = log_level.lower()
    if verbose:  # -v: info, -vv: debug (or what --log-level says, if more)
        level = LOG_LEVELS[max(LOG_LEVELS.index(level), min(verbose + 2, 4))]
    fmt = log_format.lower()
    logs.configure(logging.DEBUG if level == "trace" else getattr(logging, level.upper()), fmt)
    if level not in ("debug", "trace"):  # Alembic lists its plugins at every start
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    shown = f"[{host}]" if ":" in host else host
    where = f"http://{shown}:{port}/"
    if fmt == "json":  # the one line at the start, as every other line
        logs.event(
            logging.getLogger("ratgames.server"),
            "listening",
            "ratgames server listening",
            logging.WARNING,
            url=where,
            database=_safe_url(url),
            metrics=metrics,
        )
    else:
        click.echo(f"ratgames server on {where} (database {_safe_url(url)})", err=True)
    app = create_app(url, settings)
    app.state.when_stopped = release = quiet_garbage_collector()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            ws_max_size=WS_MAX_SIZE,
            ws_per_message_deflate=compress,
            log_level=level,
            log_config=logs.uvicorn_log_config(fmt),
            lifespan="on",
            proxy_headers=bool(forwarded_allow_ips.strip()),
            forwarded_allow_ips=forwarded_allow_ips,
            http=guarded_protocol(AutoHTTPProtocol, guard),
            ws=websocket_protocol(),
            loop="asyncio",  # the loop the tests run (not uvloop, should it be installed)
            backlog=min(2048, max(64, max_connections)) if max_connections else 2048,
        )
    finally:
        release()


def _check_listen(host: str, port: int) -> None:
    """Refuse, in one line, an address the server cannot listen on (a name that does not
    resolve, an address of no interface here, a port in use or reserved)."""
    import socket

    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise click.BadParameter(
            f"cannot listen on {host!r}: {exc.strerror} (give an address of this machine, "
            "such as 127.0.0.1 or 0.0.0.0 for every interface)",
            param_hint="--host",
        ) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            hint = f" (another server? try --port {port + 1})" if port < 65535 else ""
            raise click.BadParameter(
                f"cannot listen on {where}: {exc.strerror or exc}{hint}", param_hint="--port"
            ) from None


def open_database(db: str | None, *, must_exist: bool) -> tuple[str, Any]:
    """The URL and an engine for ``--db`` (see :func:`store.database_url`), checked: a bad URL,
    a path through a file, a folder, a file that is not a database or a server that does not
    answer is refused in one line (``--db``).  With ``must_exist`` an SQLite file must be there
    already (a command that reads what a server stored: a typo is not an empty database)."""
    import sqlalchemy as sa

    url = store.database_url(db)

    def refuse(message: str) -> NoReturn:
        raise click.BadParameter(message, param_hint="--db")

    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        refuse(f"{url!r} is neither a database URL nor a file path")
    if url.startswith("sqlite") and parsed.database and parsed.database != ":memory:":
        path = Path(parsed.database)
        if path.is_dir():
            refuse(f"{path} is a folder: give the database file, such as {path / 'ratgames.db'}")
        for above in path.parents:
            if above.exists():
                if not above.is_dir():
                    refuse(f"cannot use {path}: {above} is a file, not a folder")
                break
        if must_exist and not path.exists():
            if db:
                refuse(f"there is no database at {path}: give the --db the server was run with")
            refuse(
                f"there is no database at {path} (the default): no server has stored a game "
                "here yet; give the --db the server was run with"
            )
        if not path.exists():  # a new database: as any output file (ratgames.outputs)
            from ratgames.outputs import check_output_file, check_output_folder

            if db:  # its folder must exist: a mistyped path is refused, not made
                check_output_file(path, "--db")
            else:  # the default place, made with its parents
                check_output_folder(path.parent, "the database's folder", make_parents=True)
    try:
        engine = store.make_engine(url)
    except ValueError as exc:
        refuse(str(exc))
    except OSError as exc:  # its folder cannot be made
        refuse(f"cannot make the folder of {parsed.database}: {exc.strerror or exc}")
    except ImportError as exc:  # the database's driver is not installed
        refuse(f"{_safe_url(url)} needs the {exc.name or 'database'} package, not installed here")
    try:
        with engine.connect():
            pass
    except sa.exc.SQLAlchemyError as exc:
        engine.dispose()
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
        refuse(f"cannot open the database {_safe_url(url)}: {reason}")
    return url, engine


def quiet_garbage_collector(
    unfreeze_every: float = 600.0, freeze_every: float = 0.05
) -> Callable[[], None]:
    """Keep the garbage collector's passes short.

    A pass walks every container object of the generations it collects, and a server holding
    thousands of connections has hundreds of thousands (each WebSocket keeps a stack of some
    twenty coroutines).  Measured at 2,000 players on 2 cores:

    * full passes stopped the server for 200 to 350 ms; so the objects that survive any pass
      are set aside (``gc.freeze``) and later passes walk only what is newer;
    * the young generation's passes come when more objects were made than freed since the
      last one (700 by default), and a connection that waits again frees the objects of its
      last wait as it makes the next: the count stays low while young objects pile up, and a
      pass then walked 25,000 to 50,000 of them, 20 to 70 ms of the server's time, several
      times a second.  So every ``freeze_every`` seconds, from a thread of its own, what is
      young is set aside without being walked (which costs nothing): a pass then walks only
      what was made since, and the slowest action in a hundred went from 50-85 ms to 28 ms.

    What is set aside is freed as usual when nothing refers to it any more; only cycles among
    such objects wait for the pass that walks everything again, every ``unfreeze_every``
    seconds (one longer pause then).

    Returns the function to call before the process ends: it stops setting objects aside and
    frees what was (their finalizers run: the search pool's semaphores are given back, which
    the resource tracker would otherwise report as leaked)."""
    import gc
    import threading
    import time

    gc.collect()
    gc.freeze()
    whole = threading.Event()
    """Set while the pass that walks everything runs: nothing is set aside meanwhile."""

    def after(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and not whole.is_set():
            gc.freeze()

    gc.callbacks.append(after)

    stopped = threading.Event()

    def keep_quiet() -> None:
        last_whole = time.monotonic()
        while not stopped.wait(freeze_every):
            if time.monotonic() - last_whole < unfreeze_every:
                gc.freeze()
                continue
            whole.set()
            try:
                gc.unfreeze()
                gc.collect()
            finally:
                whole.clear()
            gc.freeze()
            last_whole = time.monotonic()

    thread = threading.Thread(target=keep_quiet, name="quiet-garbage-collector", daemon=True)
    thread.start()

    def release() -> None:
        stopped.set()
        thread.join()
        whole.set()  # nothing is set aside any more
        gc.unfreeze()
        gc.collect()

    return release


def _safe_url(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


@click.group()
def db() -> None:
    """The server's database."""


@db.command()
@_db_option()
def upgrade(db: str | None) -> None:
    """Bring the database's schema up to date (Alembic migrations)."""
    url, engine = open_database(db, must_exist=False)
    before = store.current_revision(engine)
    store.upgrade(engine)
    after = store.current_revision(engine)
    engine.dispose()
    if before == after:
        click.echo(f"{_safe_url(url)}: already at revision {after}")
    else:
        click.echo(f"{_safe_url(url)}: upgraded from {before or 'nothing'} to {after}")


@click.command()
@_db_option()
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("ratgames-export"),
    show_default=True,
    help="Folder to write the records to (one JSON file a game).",
)
@click.option("--game", default=None, help="Only the games of this id.")
def export(db: str | None, out: Path, game: str | None) -> None:
    """Write every finished game stored by the server as a record file, one JSON file a game
    ('ratgames replay FILE' steps through one).

    \b
    Examples:
      ratgames export                            every game, into ./ratgames-export
      ratgames export --game rats --out rats     only the games of Rats
    """
    from ratgames.core.records import save_record
    from ratgames.outputs import check_output_folder

    _url, engine = open_database(db, must_exist=True)
    check_output_folder(out, "--out")  # the rule every command's outputs follow
    store.upgrade(engine)
    count = 0
    for record_id, record in store.iter_records(engine, game):
        name = f"{record['game']}-{record.get('table', 'table')}-{record_id}.json"
        save_record(record, out / name, overwrite=True)
        count += 1
    engine.dispose()
    click.echo(f"{count} record{'s' if count != 1 else ''} written to {out}")


# --- clients -------------------------------------------------------------------------------------


def _parse_target(code: str, server: str) -> tuple[str, str]:
    """(base URL, code) from a code or a table link such as http://host:8000/t/K7QX2M."""
    from .client import base_url

    text = code.strip()
    if "/t/" in text:
        where, _, rest = text.partition("/t/")
        return base_url(where), rest.strip("/").upper()
    return base_url(server), text.upper()


def _seats_file() -> Path:
    return store.ratgames_home() / "seats.json"


def _remembered(base: str, code: str) -> dict[str, Any] | None:
    return _remembered_key(f"{base}/t/{code}")


def _remembered_key(key: str) -> dict[str, Any] | None:
    try:
        data = json.loads(_seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = data.get(key) if isinstance(data, dict) else None
    return entry if isinstance(entry, dict) else None


def _remember(base: str, code: str, entry: dict[str, Any]) -> None:
    _remember_key(f"{base}/t/{code}", entry)


def _remember_key(key: str, entry: dict[str, Any]) -> None:
    path = _seats_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[key] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    path.chmod(0o600)


def _ask(base: str, code: str, path: str, body: Any = None, doing: str = "") -> Any:
    """The server's answer to a request about table ``code``; a refusal or a server that cannot
    be reached is one line with exit code 2 (a server's own failure, exit code 1)."""
    from .client import ClientError, http_json

    try:
        return http_json(base, path, body)
    except ClientError as exc:
        if exc.code.startswith("5"):
            raise click.ClickException(f"the server at {base} failed: {exc.message}") from None
        if exc.code == "404":
            raise click.BadParameter(
                f"{exc.message} at {base}: check the code (or give the table's link)",
                param_hint="CODE",
            ) from None
        raise click.UsageError(f"{doing}{exc.message}") from None
    except OSError as exc:
        reason = getattr(exc, "reason", exc)
        text = getattr(reason, "strerror", None) or str(reason)
        raise click.BadParameter(
            f"cannot reach a server at {base}: {text} (is 'ratgames serve' running there? "
            "give its address with --server HOST:PORT)",
            param_hint="--server",
        ) from None


def _table_arg(base: str, code: str) -> str:
    """How to name table ``code`` of server ``base`` on the command line."""
    from .client import base_url

    return code if base == base_url(DEFAULT_SERVER) else f"{base}/t/{code}"


def _over(info: dict[str, Any], base: str, code: str, then: str) -> click.UsageError:
    """The error for a table whose game is over, saying what can still be done."""
    where = _table_arg(base, code)
    message = f"the game at table {code} is over: {then}"
    if info.get("record_id") is not None:
        message += (
            f"; its record is at {base}/api/records/{info['record_id']} (save it and step "
            "through it with 'ratgames replay FILE')"
        )
    if info.get("next_table"):
        message += f"; its rematch is table {info['next_table']}"
    return click.UsageError(message.replace("TABLE", where))


def _seat_key(base: str, code: str, seat: int | None, known: dict[str, Any] | None) -> str:
    """Where ``join`` keeps its token for table ``code``: the table's link for the first seat
    taken there, the link and ``#N`` for another seat asked for with ``--seat`` (so that no seat
    taken from this account overwrites another's saved token)."""
    key = f"{base}/t/{code}"
    if seat is None or known is None or known.get("seat") == seat:
        return key
    return f"{key}#{seat + 1}"


def _split_seat_link(code: str) -> tuple[str, str | None]:
    """A table's code or link, and the seat token of a seat link (``.../t/CODE#seat=TOKEN``)."""
    text, _, fragment = code.strip().partition("#")
    if not fragment:
        return text, None
    if not re.fullmatch(r"seat=[A-Za-z0-9_-]{16,128}", fragment):
        raise click.BadParameter(
            "a seat link ends in '#seat=' and the seat's token (letters, digits, - and _), "
            f"not '#{fragment[:20]}'",
            param_hint="CODE",
        )
    return text, fragment[5:]


def _take_seat(base: str, code: str, name: str, seat: int | None) -> tuple[int, str]:
    """A seat at the table: the one remembered for it, else a new one joined now (and
    remembered without overwriting any other seat's token)."""
    known = _remembered(base, code)
    key = _seat_key(base, code, seat, known)
    if key != f"{base}/t/{code}":
        known = _remembered_key(key)
    if known is not None and seat in (None, known.get("seat")):
        return int(known["seat"]), str(known["token"])
    seat_now, token = _join_new(base, code, name, seat)
    _remember_key(key, {"seat": seat_now, "token": token, "name": name})
    return seat_now, token


def _seat_from_link(base: str, code: str, token: str) -> tuple[int, str]:
    """The seat of a seat link's token (asked of the server), remembered for the table unless
    another seat is remembered there already (then beside it)."""
    from .client import ClientError, TableClient

    async def ask() -> int | None:
        client = TableClient(base, code, token)
        try:
            welcome = await client.connect(timeout=15)
        finally:
            await client.close()
        seat = welcome.get("seat")
        return seat if isinstance(seat, int) else None

    try:
        seat = asyncio.run(ask())
    except (ClientError, TimeoutError) as exc:
        message = getattr(exc, "message", str(exc))
        raise click.BadParameter(
            f"this seat link does not open a seat at table {code} ({message}): the host may "
            "have given out a new one; ask them for it",
            param_hint="CODE",
        ) from None
    if seat is None:
        raise click.BadParameter(f"this seat link opens no seat at table {code}", param_hint="CODE")
    known = _remembered(base, code)
    key = f"{base}/t/{code}" if known is None or known.get("seat") == seat else None
    entry = {"seat": seat, "token": token, "name": (known or {}).get("name", "Player")}
    if key is not None and known is not None:
        entry = {**known, "token": token}
    _remember_key(key or f"{base}/t/{code}#{seat + 1}", entry)
    return seat, token


def _join_new(base: str, code: str, name: str, seat: int | None) -> tuple[int, str]:
    """A new seat at the table (``seat``, else the first open one), not remembered."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    joined = _ask(base, code, f"/api/tables/{code}/join", body, f"cannot join table {code}: ")
    return int(joined["seat"]), str(joined["token"])


def _join_as_bot(base: str, code: str, name: str, seat: int | None, named: bool) -> tuple[int, str]:
    """A new seat for a bot process; a default name already taken at the table gets a number
    ("random 2"), so that bots started alike sit side by side."""
    from .client import ClientError, http_json

    if named:
        return _join_new(base, code, name, seat)
    body: dict[str, Any] = {} if seat is None else {"seat": seat}
    for n in range(1, 65):
        try:
            joined = http_json(
                base,
                f"/api/tables/{code}/join",
                {**body, "name": name if n == 1 else f"{name} {n}"},
            )
            return int(joined["seat"]), str(joined["token"])
        except ClientError as exc:
            if "already goes by" not in exc.message:
                break
        except OSError:
            break
    return _join_new(base, code, name, seat)  # says what was wrong, as for any join


def _check_seat(info: dict[str, Any], seat: int | None) -> None:
    """Refuse ``--seat`` (given from 1, held from 0) that the table has not, or not open, in
    the numbering people see."""
    if seat is None:
        return
    seats = info.get("seats", [])
    if not 0 <= seat < len(seats):
        raise click.BadParameter(
            f"table {info.get('code', '')} has seats 1 to {len(seats)}, not {seat + 1}",
            param_hint="--seat",
        )
    if seats[seat].get("kind") != "open":
        free = [str(s["seat"] + 1) for s in seats if s.get("kind") == "open"]
        raise click.BadParameter(
            f"seat {seat + 1} is not open; the open seats are {', '.join(free) or 'none'}",
            param_hint="--seat",
        )


def _seat_option_named(value: int, option: str) -> int:
    if value < 1:
        raise click.BadParameter(
            f"seats count from 1 (seat 1 is the first), not {value}", param_hint=option
        )
    return value - 1


def _new_seat_link(base: str, code: str, info: dict[str, Any], seat: int) -> str:
    """Ask the server (as the table's host) for a new token of ``seat``: its seat link."""
    from .client import ClientError, TableClient

    known = _remembered(base, code)
    host_token = known.get("host_token") if known is not None else None
    if not host_token:
        raise click.UsageError(
            f"only the host of table {code} gives out new seat links, and this account keeps no "
            "host token for it (the host is who made it with 'ratgames host' or the browser)"
        )
    seats = info.get("seats", [])
    if not 0 <= seat < len(seats) or seats[seat].get("kind") != "person":
        people = [str(s["seat"] + 1) for s in seats if s.get("kind") == "person"]
        raise click.BadParameter(
            f"seat {seat + 1} has no person in it; the people's seats are "
            f"{', '.join(people) or 'none'}",
            param_hint="--new-link",
        )

    async def ask() -> str:
        client = TableClient(base, code, None, str(host_token))
        try:
            await client.connect(timeout=15)
            client.host("reissue", seat=seat)
            await client.wait(lambda c: seat in c.seat_links or bool(c.errors), 15)
            if seat not in client.seat_links:
                raise ClientError(client.errors[-1]["code"], client.errors[-1]["message"])
            return client.seat_links[seat]
        finally:
            await client.close()

    try:
        token = asyncio.run(ask())
    except (ClientError, TimeoutError) as exc:
        raise click.ClickException(
            f"table {code} at {base}: no new seat link ({getattr(exc, 'message', exc)})"
        ) from None
    return f"{base}/t/{code}#seat={token}"


def _seat_option(value: int | None) -> int | None:
    """``--seat N`` (counted from 1, as the tables show them) as the protocol's seat index."""
    if value is None:
        return None
    if value < 1:
        raise click.BadParameter(
            f"seats count from 1 (seat 1 is the first), not {value}", param_hint="--seat"
        )
    return value - 1


@click.command()
@click.argument("code")
@click.option("--server", default=DEFAULT_SERVER, show_default=True, help="host:port or URL.")
@click.option("--name", default="Player", show_default=True, help="Your display name.")
@click.option(
    "--seat",
    type=int,
    default=None,
    help="The seat to take, counted from 1 (default: the first open one).",
)
@click.option("--watch", is_flag=True, help="Watch as a spectator instead of taking a seat.")
@click.option(
    "--new-link",
    "new_link",
    type=int,
    default=None,
    metavar="SEAT",
    help="Host only: give the person in SEAT (from 1) a new seat link, print it and stop (their "
    "old link stops working at once).",
)
def join(
    code: str, server: str, name: str, seat: int | None, watch: bool, new_link: int | None
) -> None:
    """Play a seat of a table on a server from the terminal (or watch it with --watch).

    CODE is the table's invite code or link.  The seat token is kept in
    $RATGAMES_HOME/seats.json, so running the command again returns to the same seat
    (another seat of the same table, taken with --seat, is kept beside it).  Seats count
    from 1, as the tables show them.  A seat link (the one the app and the browser show you,
    or a new one from the host) takes your seat from any computer; it is as secret as the seat
    itself.

    \b
    Examples:
      ratgames join K7QX2M                      the first open seat (or the one you had)
      ratgames join K7QX2M --seat 2 --name Ann  seat 2, as Ann
      ratgames join http://host:8000/t/K7QX2M   from the invite link
      ratgames join 'http://host:8000/t/K7QX2M#seat=TOKEN'  your seat, from its seat link
      ratgames join K7QX2M --watch              watch without a seat
      ratgames join K7QX2M --new-link 2         (host) a new seat link for seat 2
    """
    from .remote_tui import RemoteApp

    seat = _seat_option(seat)
    code, link_token = _split_seat_link(code)
    base, table_code = _parse_target(code, server)
    info = _ask(base, table_code, f"/api/tables/{table_code}")
    if new_link is not None:
        click.echo(
            _new_seat_link(base, table_code, info, _seat_option_named(new_link, "--new-link"))
        )
        return
    token = None
    my_seat = None
    if not watch and info.get("status") == "finished":
        raise _over(info, base, table_code, "watch how it ended with 'ratgames join TABLE --watch'")
    host_token = None
    if link_token is not None and not watch:
        my_seat, token = _seat_from_link(base, table_code, link_token)
    elif not watch:
        known = _remembered_key(_seat_key(base, table_code, seat, _remembered(base, table_code)))
        if known is None or known.get("seat") != seat:
            _check_seat(info, seat)
        my_seat, token = _take_seat(base, table_code, name, seat)
        known = _remembered(base, table_code)
        if known is not None and known.get("token") == token:
            host_token = known.get("host_token")  # a table made with 'ratgames host'
    RemoteApp(base, table_code, info, seat=my_seat, token=token, host_token=host_token).run()


@click.command()
@click.argument("game_id", metavar="GAME")
@click.option("--server", default=DEFAULT_SERVER, show_default=True, help="host:port or URL.")
@click.option("--players", "-n", type=int, default=None, help="Seats (default: the game's).")
@click.option(
    "--option",
    "-o",
    "option",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule or setting (repeatable; see 'ratgames rules GAME').",
)
@click.option(
    "--bots",
    "-b",
    "bots",
    multiple=True,
    metavar="SPEC",
    help="A bot (a level such as easy/normal/hard, or a spec) for each of the last seats; the "
    "other seats are for friends.",
)
@click.option(
    "--public",
    is_flag=True,
    help="List the table in the lobby (a 6-character code); by default it is private, with "
    "a 12-character code that is its key.",
)
@click.option("--name", default="Host", show_default=True, help="Your display name.")
@click.option(
    "--no-play",
    is_flag=True,
    help="Make the table and print its code and link, then stop (sit down later with "
    "'ratgames join CODE').",
)
def host(
    game_id: str,
    server: str,
    players: int | None,
    option: tuple[str, ...],
    bots: tuple[str, ...],
    public: bool,
    name: str,
    no_play: bool,
) -> None:
    """Make a table on a server, print its code and invite link, and sit at seat 1 as its
    host in the same terminal app as 'ratgames join' (ctrl+s starts the game once every seat is
    taken; the status line names who is still missing).

    Seats: yours first, then one for each friend, then the bots of --bots in the last seats.
    Your seat and host tokens are kept in $RATGAMES_HOME/seats.json: 'ratgames join CODE' takes
    you back to the seat, still the host.

    \b
    Examples:
      ratgames host caged-rats                     private, two seats: you and a friend
      ratgames host rats -n 4 --bots normal hard   you, a friend and two bots
      ratgames host rat-a-tat-cat -o mode=rounds=3 --public --server host:8000
      ratgames host caged-rats --bots easy --no-play   print the code and link only
      ratgames host egyptian-ratscrew -n 3 -o newcomers=1
                        seat 3 for a late arrival: the game starts without it, and whoever
                        joins later takes it and slaps in (ctrl+b seats a bot there)
    """
    from ratgames.core.options import parse_option_pairs
    from ratgames.core.registry import get_game

    from .remote_tui import RemoteApp
    from .tables import resolve_bot

    if players is not None and players < 1:
        raise click.BadParameter(
            f"a table needs at least 1 seat, not {players}", param_hint="--players"
        )
    game = get_game(game_id, players=players, options=parse_option_pairs(option))
    if len(bots) >= game.players:
        raise click.BadParameter(
            f"{game.title} here has {game.players} seats, one of them yours: at most "
            f"{game.players - 1} bots, not {len(bots)}",
            param_hint="--bots",
        )
    for spec in bots:
        resolve_bot(game, spec)  # a bad spec is one line here, before any table is made
    specs = list(bots)
    seats: list[dict[str, Any]] = [{"kind": "open"}] * (game.players - len(specs))
    seats += [{"kind": "bot", "bot": spec} for spec in specs]
    base = _parse_target("X", server)[0]
    body = {
        "game": game.id,
        "players": game.players,
        "options": parse_option_pairs(option),
        "seats": seats,
        "public": public,
        "name": name,
    }
    created = _ask(base, "", "/api/tables", body, "cannot make the table: ")
    table = created["table"]
    code = table["code"]
    _remember(
        base,
        code,
        {
            "seat": created["seat"],
            "token": created["token"],
            "name": name,
            "host_token": created["host_token"],
        },
    )
    friends = sum(1 for s in seats if s["kind"] == "open") - 1
    link = base + str(table.get("link") or f"/t/{code}")
    kind = "public" if public else "private (only those with the code or link find it)"
    click.echo(f"Table {code}: {game.title}, {kind}")
    click.echo(f"Invite link: {link}")
    if friends > 0:
        click.echo(f"Friends join with: ratgames join {_table_arg(base, code)}  (or the link)")
    if no_play:
        click.echo(f"Sit down and start it with: ratgames join {_table_arg(base, code)}")
        return
    info = _ask(base, code, f"/api/tables/{code}")
    RemoteApp(
        base,
        code,
        info,
        seat=created["seat"],
        token=created["token"],
        host_token=created["host_token"],
    ).run()


@click.command()
@click.argument("code")
@click.option("--server", default=DEFAULT_SERVER, show_default=True, help="host:port or URL.")
@click.option("--bot", "spec", default="heuristic", show_default=True, help="Bot spec or level.")
@click.option("--name", default=None, help="Display name (default: the bot spec).")
@click.option(
    "--seat",
    type=int,
    default=None,
    help="The seat to take, counted from 1 (default: the first open one).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The bot's seed.")
def bot(code: str, server: str, spec: str, name: str | None, seat: int | None, seed: int) -> None:
    """Seat a bot process at a remote table (for bot authors): it joins a seat, plays through
    the protocol seeing only its observation, and stops when the game ends.

    Search bots (ismcts, pimc) play too: on each turn they think, the server hands the seat one
    honest sample of the hidden cards, and they draw every other sample from it.

    
    Examples:
      ratgames bot K7QX2M --server host:8000 --bot heuristic
      ratgames bot K7QX2M --server host:8000 --bot ismcts:seconds=1 --name Searcher
    """
    from ratgames.core.registry import get_game

    from .client import ClientError
    from .remote_bot import play_remote
    from .tables import resolve_bot

    seat = _seat_option(seat)
    base, table_code = _parse_target(code, server)
    info = _ask(base, table_code, f"/api/tables/{table_code}")
    if info.get("status") == "finished":
        raise _over(info, base, table_code, "a bot can take a seat only before or during a game")
    game = get_game(info["game"], players=info["players"], options=info["options"])
    resolved = resolve_bot(game, spec)
    display = name or spec
    _check_seat(info, seat)
    my_seat, token = _join_as_bot(base, table_code, display[:29], seat, named=name is not None)
    click.echo(f"{resolved} plays seat {my_seat + 1} of table {table_code}", err=True)
    try:
        outcome = asyncio.run(
            play_remote(
                base,
                table_code,
                token,
                game,
                resolved,
                seed,
                say=lambda line: click.echo(f"table {table_code}: {line}", err=True),
            )
        )
    except ClientError as exc:  # the table's connection could not be made or was refused
        raise click.ClickException(f"table {table_code} at {base}: {exc.message}") from None
    except TimeoutError:  # the first connection never came (the client retries meanwhile)
        raise click.ClickException(
            f"table {table_code} at {base}: no connection to its WebSocket could be made"
        ) from None
    click.echo(json.dumps(outcome))
