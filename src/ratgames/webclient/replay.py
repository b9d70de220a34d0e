"""Replay steps for the browser's replay page: a finished game, action by action, as one seat
(its observation) or a spectator (the spectator view) saw it.

A stored record already holds the whole game (``GET /api/records/{id}``), so a seat's view of
it reveals nothing new to those who may read the record; the steps are made on the server
because only the engine can replay a record.  ``GET /api/records/{id}/replay?seat=N&start=K``
answers one page::

    {"id", "game", "title", "players", "seats", "viewer", "outcome", "moves", "start", "next",
     "steps": [{"seq", "seat", "action", "view", "to_act", "events": [{"event", "text"}]}]}

``steps`` are the game's steps from number ``start`` on (step 0 is the deal, step ``k`` the game
after its ``k``-th action, made by ``seat``); ``moves`` is the number of actions (so the last
step is number ``moves``) and ``next`` the ``start`` of the next page (None after the last).

What one answer costs is bounded: a page holds at most ``limit`` steps (:data:`PAGE_STEPS` at
most) and stops once its steps pass :data:`PAGE_BYTES` of JSON (it always holds one).  Pages are
made in a worker thread, one at a time for the whole server (:data:`QUEUE_LIMIT` may wait; more
get 503), and one client address may have at most :data:`CLIENT_LIMIT` of them waiting or being
made (more get 429); made pages are kept (:data:`CACHE_BYTES` in all), since a stored game never
changes, and so is where the last pages ended (:data:`RESUME_POINTS`), so that the next page
goes on from there instead of replaying the game from its deal.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import orjson
import sqlalchemy as sa
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ratgames.core.errors import IllegalAction, RatgamesError, RecordError
from ratgames.core.game import State
from ratgames.core.records import replay as replay_record
from ratgames.server import store
from ratgames.server.protocol import (
    MAX_HEADER_TOKENS,
    TOKEN_HEADER,
    ProblemDetail,
    RecordSummary,
    header_tokens,
)
from ratgames.server.tables import RequestError, events_overlap, hash_token

MAX_STEPS = 20000
"""Longer games are cut to their first this many actions."""
PAGE_STEPS = 500
"""The most steps one page holds (and the default ``limit``)."""
PAGE_BYTES = 2 * 1024 * 1024
"""A page ends at the first step that takes its steps past this many bytes of JSON."""
CACHE_BYTES = 48 * 1024 * 1024
"""Made pages kept for the next client that asks (least recently used dropped first)."""
QUEUE_LIMIT = 16
"""Pages that may wait for the one being made; beyond that a request gets 503."""
CLIENT_LIMIT = 4
"""Pages one client address may have waiting or being made at once; beyond that, 429."""

router = APIRouter()


class ReplayEvent(BaseModel):
    event: dict[str, Any]
    text: str | None


class ReplayStep(BaseModel):
    seq: int
    seat: int | None
    action: str | None
    view: dict[str, Any]
    to_act: list[int]
    events: list[ReplayEvent]


class ReplaySeat(BaseModel):
    name: str
    player: str


class ReplayPage(BaseModel):
    """One page of a stored game's steps, as one seat (or a spectator) saw them."""

    id: int
    game: str
    title: str
    players: int
    seats: list[ReplaySeat]
    viewer: int | None
    outcome: dict[str, Any] | None
    moves: int = Field(description="The game's actions: its last step is number moves.")
    start: int = Field(description="The number of this page's first step.")
    next: int | None = Field(description="The start of the next page; None after the last.")
    steps: list[ReplayStep]


def _step(
    state: State, viewer: int | None, seen: list[Any], seat: int | None, action: str | None
) -> tuple[dict[str, Any], list[Any]]:
    view = state.observation(viewer) if viewer is not None else state.spectator_view()
    events = view.get("events", [])
    events = events if isinstance(events, list) else []
    fresh = events[events_overlap(seen, events) :]
    items = []
    for e in fresh:
        text: str | None = None
        if isinstance(e, dict):
            try:
                text = state.game.describe_event(e, viewer)
            except Exception:  # a sentence the game cannot make is left out, not fatal
                text = None
        items.append({"event": e, "text": text})
    return (
        {
            "seq": 0,
            "seat": seat,
            "action": action,
            "view": view,
            "to_act": state.seats_to_act(),
            "events": items,
        },
        list(events),
    )


def _actions(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The record's actions (its events without the chance ones), at most :data:`MAX_STEPS`."""
    events = record.get("events", [])
    acts = [e for e in events if isinstance(e, Mapping) and "chance" not in e]
    return acts[:MAX_STEPS]


Resume = tuple[State, list[Any]]
"""Where a page ended: the game after the page's last step and the events its viewer had seen
there, from which the next page goes on without replaying the game from its start."""


def _steps(
    record: Mapping[str, Any], viewer: int | None, start: int, resume: Resume | None = None
) -> Iterator[tuple[dict[str, Any], Resume]]:
    """The steps of ``record`` from number ``start`` on, as ``viewer`` saw them, each with the
    game and the events seen after it; from ``resume`` (the game after ``start - 1`` actions)
    if given, else from the deal.

    Raises :class:`ValueError` for a seat the game does not have and
    :class:`~ratgames.core.errors.RatgamesError` for a record that does not replay."""
    seen: list[Any] = []
    if resume is not None:
        state, seen = resume
        done = start - 1
    else:
        state = replay_record(record, upto=0)
        game = state.game
        if viewer is not None and not 0 <= viewer < game.players:
            raise ValueError(f"there is no seat {viewer}; seats are 0 to {game.players - 1}")
        done = 0
        if start == 0:
            step, seen = _step(state, viewer, [], None, None)
            yield step, (state, seen)
    for n, event in enumerate(_actions(record)[done:], start=done + 1):
        seat, action, time = event.get("seat"), event.get("action"), event.get("time")
        try:
            state.apply(seat, action, time=time)
        except IllegalAction as exc:
            raise RecordError(f"action {n} ({action!r}) does not replay: {exc}") from None
        if n == start - 1:  # what the viewer had seen before the page's first step
            _, seen = _step(state, viewer, [], seat, str(action))
        elif n >= start:
            step, seen = _step(state, viewer, seen, seat, str(action))
            step["seq"] = n
            yield step, (state, seen)


def _header(record: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    from ratgames.core.registry import get_game

    game = get_game(record["game"], players=record["players"], options=record["options"])
    seats = record.get("seats") or [{"name": game.seat_name(i)} for i in range(game.players)]
    return {
        "game": game.id,
        "title": game.title,
        "players": game.players,
        "seats": [
            {"name": str(s.get("name") or game.seat_name(i)), "player": str(s.get("player", ""))}
            for i, s in enumerate(seats)
        ],
        "viewer": viewer,
        "outcome": record.get("outcome"),
        "moves": len(_actions(record)),
    }


def replay_steps(record: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """Every step of ``record`` as ``viewer`` (a seat, or None for a spectator) saw it, in one
    answer (for code that has the record at hand; the server pages it, see :func:`replay_page`).

    Raises :class:`ValueError` for a seat the game does not have and
    :class:`~ratgames.core.errors.RatgamesError` for a record that does not replay."""
    steps = [step for step, _ in _steps(record, viewer, 0)]
    return {**_header(record, viewer), "steps": steps}


def replay_page(
    record: Mapping[str, Any],
    record_id: int,
    viewer: int | None,
    start: int,
    limit: int = PAGE_STEPS,
    max_bytes: int = PAGE_BYTES,
    resume: Resume | None = None,
    ended: list[tuple[int, Resume]] | None = None,
) -> bytes:
    """One page of :class:`ReplayPage` as JSON: the steps from ``start`` on, at most ``limit``
    of them, ending at the first that takes them past ``max_bytes`` (one at least).  From
    ``resume`` (where the page before ended) if given; where this page ended (with the next
    page's start) is added to ``ended`` if given and a page follows.

    Raises :class:`ValueError` for a seat or a start the game does not have and
    :class:`~ratgames.core.errors.RatgamesError` for a record that does not replay."""
    header = _header(record, viewer)
    moves = header["moves"]
    if start > moves:
        raise ValueError(f"start {start} is past the last step: steps are 0 to {moves}")
    parts: list[bytes] = []
    size = 0
    last: Resume | None = None
    for step, where in _steps(record, viewer, start, resume):
        last = where
        text = orjson.dumps(step, option=orjson.OPT_NON_STR_KEYS)
        parts.append(text)
        size += len(text) + 1
        if len(parts) >= limit or size >= max_bytes:
            break
    end = start + len(parts)
    following = end if end <= moves else None
    if ended is not None and last is not None and following is not None:
        ended.append((following, (last[0].clone(), list(last[1]))))
    head = orjson.dumps(
        {"id": record_id, **header, "start": start, "next": following},
        option=orjson.OPT_NON_STR_KEYS,
    )
    return head[:-1] + b',"steps":[' + b",".join(parts) + b"]}"


class ReplayPages:
    """The server's made pages (a byte-bounded cache) and its limits on making more."""

    def __init__(
        self,
        cache_bytes: int = CACHE_BYTES,
        queue_limit: int = QUEUE_LIMIT,
        client_limit: int = CLIENT_LIMIT,
    ) -> None:
        self.cache_bytes = cache_bytes
        self.queue_limit = queue_limit
        self.client_limit = client_limit
        self._pages: OrderedDict[tuple[int, int | None, int, int], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._making: asyncio.Semaphore | None = None
        self._waiting = 0
        self._clients: dict[str, int] = {}
        self._resumes: OrderedDict[tuple[int, int | None, int], Resume] = OrderedDict()
        """Where recent pages ended (used by one page maker at a time)."""
        """Pages waiting or being made, by client address."""
        self.made = 0

    def cached(self, key: tuple[int, int | None, int, int]) -> bytes | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def keep(self, key: tuple[int, int | None, int, int], page: bytes) -> None:
        if len(page) > self.cache_bytes:
            return
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = page
            self._size += len(page)
            while self._size > self.cache_bytes:
                _, old = self._pages.popitem(last=False)
                self._size -= len(old)

    async def make(self, engine: Any, client: str, key: tuple[int, int | None, int, int]) -> bytes:
        """The page ``key`` (record id, viewer, start, limit), made in a worker thread."""
        page = self.cached(key)
        if page is not None:
            return page
        if self._clients.get(client, 0) >= self.client_limit:
            raise RequestError(
                429,
                "rate_limited",
                f"{self.client_limit} replay pages are already waiting for you: ask for more "
                "when they have come",
            )
        if self._waiting >= self.queue_limit:
            raise RequestError(
                503, "server_error", "the server is busy making replays: try again in a moment"
            )
        if self._making is None:
            self._making = asyncio.Semaphore(1)
        self._clients[client] = self._clients.get(client, 0) + 1
        self._waiting += 1
        waiting = True
        try:
            async with self._making:
                self._waiting -= 1
                waiting = False
                page = self.cached(key)
                if page is None:
                    page = await asyncio.to_thread(_make_page, engine, key, self._resumes)
                    self.made += 1
                    self.keep(key, page)
        finally:
            if waiting:
                self._waiting -= 1
            left = self._clients.pop(client) - 1
            if left:
                self._clients[client] = left
        return page


RESUME_POINTS = 8
"""Where the last pages made ended, kept so that the next page of each goes on from there."""


def _make_page(
    engine: Any,
    key: tuple[int, int | None, int, int],
    resumes: OrderedDict[tuple[int, int | None, int], Resume] | None = None,
) -> bytes:
    """The page ``key`` (record id, viewer, start, limit).  ``resumes`` holds where recent pages
    ended (by record id, viewer and the next page's start); it is used and kept up to date."""
    record_id, viewer, start, limit = key
    record = store.get_record(engine, record_id)
    if record is None:
        raise RequestError(404, "no_such_table", f"no stored game has the id {record_id}")
    resume = resumes.pop((record_id, viewer, start), None) if resumes is not None else None
    ended: list[tuple[int, Resume]] = []
    try:
        page = replay_page(record, record_id, viewer, start, limit, PAGE_BYTES, resume, ended)
        if resumes is not None:
            for following, where in ended:
                resumes[(record_id, viewer, following)] = where
            while len(resumes) > RESUME_POINTS:
                resumes.popitem(last=False)
        return page
    except RatgamesError as exc:
        raise RequestError(409, "wrong_status", f"the stored game does not replay: {exc}") from None
    except ValueError as exc:
        raise RequestError(400, "invalid_message", str(exc)) from None


def pages_of(request: Request) -> ReplayPages:
    """The app's :class:`ReplayPages` (made with the app's first replay)."""
    state = request.app.state
    pages: ReplayPages | None = getattr(state, "replay_pages", None)
    if pages is None:
        pages = state.replay_pages = ReplayPages()
    return pages


@router.get(
    "/api/records/{record_id}/replay",
    response_model=ReplayPage,
    response_class=Response,
    responses={
        200: {"model": ReplayPage, "content": {"application/json": {}}},
        400: {"model": ProblemDetail},
        403: {"model": ProblemDetail},
        404: {"model": ProblemDetail},
        409: {"model": ProblemDetail},
        422: {"model": ProblemDetail},
        429: {"model": ProblemDetail},
        503: {"model": ProblemDetail},
    },
)
async def record_replay(
    request: Request,
    record_id: Annotated[int, Path(ge=0, le=store.MAX_ID)],
    seat: Annotated[int | None, Query(ge=0, le=63)] = None,
    start: Annotated[int, Query(ge=0, le=MAX_STEPS)] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE_STEPS)] = PAGE_STEPS,
    x_ratgames_token: Annotated[
        str | None,
        Header(
            alias=TOKEN_HEADER,
            description=f"Seat or host tokens of the game's table, separated by commas (at most "
            f"{MAX_HEADER_TOKENS}): needed for the game of a private table.",
        ),
    ] = None,
) -> Response:
    """A stored game step by step, as ``seat`` (or a spectator, without it) saw it, one page
    from step ``start`` on (see ``next``)."""
    from ratgames.server.app import check_record_access

    engine = request.app.state.lobby.engine
    await check_record_access(engine, record_id, x_ratgames_token)
    client = request.client.host if request.client else "?"
    page = await pages_of(request).make(engine, client, (record_id, seat, start, limit))
    return Response(content=page, media_type="application/json")


class ListedSeat(BaseModel):
    kind: str = Field(description="person, bot or open")
    name: str | None = Field(description="A person's name, or a bot's level or spec.")


class ListedReplay(RecordSummary):
    """A stored game in the browser's replay list: its summary and who sat where."""

    seats: list[ListedSeat]


def with_seats(engine: Any, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records ``listed`` (of :func:`store.list_records`), each with the seats of its
    table (as many as the game has players; a seat the store lacks is open)."""
    codes = sorted({r["table"] for r in listed})
    held: dict[str, dict[int, dict[str, Any]]] = {}
    if codes:
        s = store.seats
        query = sa.select(s.c.table_code, s.c.seat, s.c.kind, s.c.name).where(
            s.c.table_code.in_(codes)
        )
        with engine.connect() as conn:
            for row in conn.execute(query):
                held.setdefault(row.table_code, {})[row.seat] = {
                    "kind": row.kind,
                    "name": row.name,
                }
    blank = {"kind": "open", "name": None}
    return [
        {**r, "seats": [held.get(r["table"], {}).get(i, blank) for i in range(r["players"])]}
        for r in listed
    ]


@router.get(
    "/api/replays",
    response_model=list[ListedReplay],
    responses={400: {"model": ProblemDetail}, 422: {"model": ProblemDetail}},
)
async def replay_list(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=500, description="How many, newest first.")] = 50,
    before: Annotated[
        int | None, Query(ge=1, description="Only games with an id below this.")
    ] = None,
    x_ratgames_token: Annotated[
        str | None,
        Header(
            alias=TOKEN_HEADER,
            description=f"Seat or host tokens, separated by commas (at most "
            f"{MAX_HEADER_TOKENS}): lists the games of their private tables too.",
        ),
    ] = None,
) -> list[dict[str, Any]]:
    """``GET /api/records`` for the replay page: the same games (public ones, and those of the
    private tables the tokens belong to), each with its seats, so that the list can name who
    won."""
    try:
        tokens = header_tokens(x_ratgames_token)
    except ValueError as exc:
        raise RequestError(400, "bad_token", str(exc)) from None
    hashes = [hash_token(t) for t in tokens]
    engine = request.app.state.lobby.engine

    def listing() -> list[dict[str, Any]]:
        return with_seats(engine, store.list_records(engine, limit, before, hashes))

    return await asyncio.to_thread(listing)
