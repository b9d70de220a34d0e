"""Replay steps for the browser's replay page: a finished game, action by action, as one seat
(its observation) or a spectator (the spectator view) saw it.

A stored record already holds the whole game (``GET /api/records/{id}``), so a seat's view of
it reveals nothing new; the steps are made on the server because only the engine can replay a
record.  ``GET /api/records/{id}/replay?seat=N`` answers::

    {"id", "game", "title", "players", "seats", "viewer", "outcome",
     "steps": [{"seq", "seat", "action", "view", "to_act", "events": [{"event", "text"}]}]}

``steps[0]`` is the deal; ``steps[k]`` the game after its ``k``-th action (made by ``seat``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from ratgames.core.errors import IllegalAction, RatgamesError, RecordError
from ratgames.core.game import State
from ratgames.core.records import replay as replay_record
from ratgames.server import store
from ratgames.server.tables import events_overlap

MAX_STEPS = 20000
"""Longer games are cut to their first this many actions."""

router = APIRouter()


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


def replay_steps(record: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """Every step of ``record`` as ``viewer`` (a seat, or None for a spectator) saw it.

    Raises :class:`ValueError` for a seat the game does not have and
    :class:`~ratgames.core.errors.RatgamesError` for a record that does not replay."""
    state = replay_record(record, upto=0)
    game = state.game
    if viewer is not None and not 0 <= viewer < game.players:
        raise ValueError(f"there is no seat {viewer}; seats are 0 to {game.players - 1}")
    steps: list[dict[str, Any]] = []
    step, seen = _step(state, viewer, [], None, None)
    step["seq"] = 0
    steps.append(step)
    n = 0
    for event in record.get("events", []):
        if not isinstance(event, Mapping) or "chance" in event:
            continue
        if n >= MAX_STEPS:
            break
        seat, action, time = event.get("seat"), event.get("action"), event.get("time")
        try:
            state.apply(seat, action, time=time)
        except IllegalAction as exc:
            raise RecordError(f"action {n + 1} ({action!r}) does not replay: {exc}") from None
        n += 1
        step, seen = _step(state, viewer, seen, seat, str(action))
        step["seq"] = n
        steps.append(step)
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
        "steps": steps,
    }


@router.get("/api/records/{record_id}/replay", include_in_schema=True)
async def record_replay(record_id: int, request: Request, seat: int | None = None) -> Any:
    """A stored game step by step, as ``seat`` (or a spectator, without it) saw it."""
    engine = request.app.state.lobby.engine
    record = await asyncio.to_thread(store.get_record, engine, record_id)
    if record is None:
        raise HTTPException(404, f"no stored game has the id {record_id}")
    try:
        answer = await asyncio.to_thread(replay_steps, record, seat)
    except RatgamesError as exc:
        raise HTTPException(409, f"the stored game does not replay: {exc}") from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    answer["id"] = record_id
    return answer
