# ratgames: compiled
"""What the players and the spectators of Egyptian Ratscrew see, and the samples of what nobody
sees.

Everything a player may know is public: the face-up pile, the size of every stack, the cards of
a stack that came back with a won pile (in their order, until they come up again), the challenge
in progress and the recent events.  So an observation is the table as a spectator sees it, with
what the seat may do about slapping, and a sample (:func:`sample`) deals the unknown cards anew
among their places whoever asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ratgames.core.events import event_json
from ratgames.core.game import JSON
from ratgames.core.rng import Rng

from .cards import CHANCES, KNOWN, SEEN_TEXT, TEXT
from .events import EVENTS_SHOWN
from .phases import COLLECT, FINAL, OVER, PHASE_NAMES, PLAY, RULE_NAMES, STATUS_NAMES

if TYPE_CHECKING:
    from .rules import RatscrewState


def table_view(state: RatscrewState, events: bool) -> dict[str, JSON]:
    """The table as everybody sees it (the latest events too unless ``events`` is false)."""
    g = state.game
    text = TEXT.__getitem__
    seen = SEEN_TEXT
    phase = state.phase
    stacks = []
    for seat, st in enumerate(state.stacks):
        stacks.append(
            {
                "size": len(st),
                "known": [seen[c] for c in reversed(st)],
                "status": STATUS_NAMES[state.status[seat]],
            }
        )
    challenge: dict[str, JSON] | None = None
    if state.challenger >= 0:
        face = next((c for c in reversed(state.pile) if CHANCES[c]), None)
        challenge = {
            "by": state.challenger,
            "card": text(face) if face is not None else None,
            "chances_left": state.chances if phase == PLAY else 0,
            "answering": state.turn if phase == PLAY else None,
        }
    return {
        "game": g.id,
        "players": g.players,
        "phase": PHASE_NAMES[phase],
        "turn": state.turn if phase == PLAY else None,
        "collector": state.collector if phase in (COLLECT, FINAL) else None,
        "challenge": challenge,
        "pile": [text(c) for c in state.pile],
        "pile_version": state.version,
        "burned": [seen[c] for c in state.burned],
        "slappable": RULE_NAMES[state.rule] if state.rule else None,
        "stacks": stacks,
        "cards_played": state.played,
        "piles_won": state.piles_won,
        "event_count": state.event_count,
        "events": events_json(state) if events else [],
        "result": result(state),
    }


def recent(state: RatscrewState) -> list[tuple[type, tuple[Any, ...]]]:
    """The latest events (at most :data:`EVENTS_SHOWN`) as ``(class, fields)``, oldest first."""
    out: list[tuple[type, tuple[Any, ...]]] = []
    node = state._event_log
    while node is not None and len(out) < EVENTS_SHOWN:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def events_json(state: RatscrewState) -> list[dict[str, JSON]]:
    """The latest events (at most :data:`EVENTS_SHOWN`) as JSON, oldest first: each event's
    JSON is built once and kept with the log's newest node it was built for (``ev_json``), then
    copied, since a caller may change what it is given."""
    head = state._event_log
    cached = state.ev_json
    if cached is not None and cached[0] is head:
        return [dict(e) for e in cached[1]]
    stop = cached[0] if cached is not None else None
    new: list[tuple[type, tuple[Any, ...]]] = []
    node = head
    while node is not None and node is not stop and len(new) < EVENTS_SHOWN:
        new.append(node[0])
        node = node[1]
    old = cached[1] if cached is not None and node is stop and node is not None else []
    game = state.game
    new.reverse()
    made = old + [event_json(game, kind(*fields)) for kind, fields in new]
    if len(made) > EVENTS_SHOWN:
        made = made[-EVENTS_SHOWN:]
    state.ev_json = (head, made)
    return [dict(e) for e in made]


def result(state: RatscrewState) -> dict[str, JSON] | None:
    """Who won and why, once the game is over (else None)."""
    if state.phase != OVER:
        return None
    out = state.outcome()
    assert out is not None
    return {"winners": list(out.winners), "reason": out.reason}


def observation(state: RatscrewState, seat: int, events: bool) -> dict[str, JSON]:
    """The table as everybody sees it, with what ``seat`` may do about slapping: whether it may
    slap now (``may_slap``) and the last pile version it slapped (``last_slap``)."""
    view = table_view(state, events)
    view["seat"] = seat
    view["may_slap"] = (
        state.phase != OVER and state.last_slap[seat] < state.version and state._may_slap(seat)
    )
    view["last_slap"] = state.last_slap[seat]
    return view


def sample(state: RatscrewState, rng: Rng) -> RatscrewState:
    """A copy of ``state`` with the unknown cards of every stack and under the pile dealt anew
    among their places by ``rng`` (everyone knows the same, so it fits every seat).  The memory
    of past positions (used to detect a cycle) and the deal are about cards nobody can see, so
    the sample keeps neither (nor the seed and log: it is a hypothesis, not a game)."""
    s = state.clone()
    # A card nobody knows is an entry below the KNOWN flag (is_known() written out: a sample
    # asks it of every card).
    unknown = sorted(
        [c for st in s.stacks for c in st if c < KNOWN] + [c for c in s.burned if c < KNOWN]
    )
    rng.shuffle(unknown)
    it = iter(unknown)
    for st in s.stacks:
        for i, c in enumerate(st):
            if c < KNOWN:
                st[i] = next(it)
    for i, c in enumerate(s.burned):
        if c < KNOWN:
            s.burned[i] = next(it)
    s._forget_positions()
    s.deal = ()
    s._forget_origin(rng)
    return s
