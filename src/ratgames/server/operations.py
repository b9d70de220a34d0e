"""The endpoints of a server in operation: ``/healthz`` (alive), ``/readyz`` (taking tables) and
``/metrics`` (Prometheus).  docs/operating.md says how to use them."""

from __future__ import annotations

import asyncio
import functools
import ipaddress
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from . import store
from .metrics import CONTENT_TYPE, Metrics
from .protocol import ProblemDetail

READY_TIMEOUT = 3.0
"""Seconds the database has to answer a readiness check."""


class Health(BaseModel):
    """The server is alive: its event loop answers."""

    status: Literal["alive"] = "alive"


class Readiness(BaseModel):
    """Whether the server takes tables now, and if not why."""

    ready: bool
    reason: str = Field(description="Why not ready ('' when ready).")
    database: str = Field(description="The database's kind: sqlite or postgresql.")
    revision: str | None = Field(
        description="The migration the database is at (null if it could not be read)."
    )
    tables: int = Field(description="Tables held by this server.")


@functools.cache
def head_revision() -> str | None:
    """The newest migration this version of the server brings."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(store.alembic_config()).get_current_head()


def probe_engine(url: str) -> Any:
    """An engine for readiness checks: a new connection at each check (the server's pool
    would go on using a connection to an SQLite file deleted since), and one that never
    makes an SQLite file that is not there."""
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(parsed.database).resolve()
        uri = sa.engine.URL.create(
            "sqlite", database=f"file:{quote(str(path))}", query={"mode": "rw", "uri": "true"}
        )
        return sa.create_engine(uri, poolclass=NullPool, connect_args={"timeout": READY_TIMEOUT})
    connect_args = {"connect_timeout": int(READY_TIMEOUT)} if "postgresql" in url else {}
    return sa.create_engine(url, poolclass=NullPool, connect_args=connect_args)


def check_database(engine: Any) -> tuple[str, str | None]:
    """(why the database is not fit to serve, or '', the migration it is at)."""
    from alembic.runtime.migration import MigrationContext

    try:
        with engine.connect() as connection:
            revision = MigrationContext.configure(connection).get_current_revision()
    except Exception as exc:
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())[:300]
        return f"the database does not answer: {reason}", None
    head = head_revision()
    if revision != head:
        if revision is not None and revision not in known_revisions():
            # a rolling upgrade: a newer version migrated the database under this process,
            # which goes on serving its tables (the migrations are additive) until replaced
            return (
                f"the database is at migration {revision}, newer than this server's {head}: a "
                "newer version migrated it (replace this process with that version)",
                revision,
            )
        return (
            f"the database is at migration {revision or 'none'}, this server needs {head} "
            "(ratgames db upgrade)",
            revision,
        )
    return "", revision


@functools.cache
def known_revisions() -> frozenset[str]:
    """Every migration this version of the server brings."""
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(store.alembic_config())
    return frozenset(s.revision for s in scripts.walk_revisions())


def allowed(address: str | None, networks: tuple[Any, ...]) -> bool:
    """True if ``address`` is in one of ``networks`` (none given: every address)."""
    if not networks:
        return True
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip.version == n.version and ip in n for n in networks)


def parse_networks(texts: tuple[str, ...]) -> tuple[Any, ...]:
    """``--metrics-allow`` values as networks (an address alone is a network of one)."""
    return tuple(ipaddress.ip_network(t.strip(), strict=False) for t in texts)


def install(app: FastAPI, url: str, metrics: Metrics, metrics_from: tuple[Any, ...] = ()) -> None:
    """Add ``/healthz``, ``/readyz`` and (unless ``metrics`` is off) ``/metrics`` to ``app``
    (whose ``state.lobby`` is set once its lifespan has started)."""
    probe: list[Any] = []

    @app.get("/healthz", response_model=Health, tags=["operation"])
    async def healthz() -> dict[str, Any]:
        """Alive: answers as long as the server's event loop runs (a liveness probe)."""
        return {"status": "alive"}

    @app.get(
        "/readyz",
        response_model=Readiness,
        tags=["operation"],
        responses={503: {"model": Readiness, "description": "Not taking tables now."}},
    )
    async def readyz(request: Request) -> JSONResponse:
        """Ready: the server has started (tables brought back), is not stopping, and its
        database answers at the newest migration.  503 with the reason otherwise (a
        readiness probe: a balancer sends players elsewhere)."""
        lobby = getattr(request.app.state, "lobby", None)
        kind = "postgresql" if url.startswith("postgresql") else "sqlite"
        answer: dict[str, Any] = {
            "ready": False,
            "reason": "",
            "database": kind,
            "revision": None,
            "tables": 0 if lobby is None else len(lobby.tables),
        }
        if lobby is None:
            answer["reason"] = "starting: the tables in play are being brought back"
        elif lobby.closing:
            answer["reason"] = "stopping"
        else:
            if not probe:
                probe.append(probe_engine(url))
            try:
                reason, revision = await asyncio.wait_for(
                    asyncio.to_thread(check_database, probe[0]), READY_TIMEOUT + 1
                )
            except TimeoutError:
                reason, revision = (
                    f"the database did not answer within {READY_TIMEOUT:g} s",
                    None,
                )
            answer["reason"] = reason
            answer["revision"] = revision
            answer["ready"] = not reason
        return JSONResponse(answer, status_code=200 if answer["ready"] else 503)

    if not metrics.enabled:
        return

    @app.get(
        "/metrics",
        response_class=Response,
        tags=["operation"],
        responses={
            200: {
                "description": "The metrics in Prometheus's text exposition format.",
                "content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}},
            },
            403: {"model": ProblemDetail},
        },
    )
    async def prometheus(request: Request) -> Response:
        """The server's Prometheus metrics (docs/operating.md lists them).  Not for the
        public: keep it from the balancer's routes, or allow only the scraper's address
        (``serve --metrics-allow``)."""
        client = request.client
        if not allowed(client.host if client else None, metrics_from):
            return JSONResponse(
                {"detail": "the metrics are not shown to your address"}, status_code=403
            )
        return Response(content=metrics.text(), media_type=CONTENT_TYPE)
