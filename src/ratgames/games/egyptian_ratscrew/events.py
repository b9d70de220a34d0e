"""What happens at an Egyptian Ratscrew table, as events (the one schema of
:mod:`ratgames.core.events`).

Everything in this game happens in the open, so every seat and every spectator sees the same
events.  The state keeps the latest of them as plain tuples (the event's class followed by its
fields: quick to make on every card played) and builds these objects, and their JSON, only when
an observation asks for its events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ratgames.core.events import CARD, Event

EVENTS_SHOWN = 30
"""How many of the latest public events an observation carries."""


@dataclass(frozen=True, slots=True)
class Played(Event):
    """``seat`` turned its top card face up onto the pile."""

    kind: ClassVar[str] = "play"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Collected(Event):
    """``seat`` took a pile it won with a face card (``cards`` of them, burned ones included)
    to the bottom of its stack."""

    kind: ClassVar[str] = "collect"
    seat: int
    cards: int


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    """``seat``, holding every other card, collected the table and so won."""

    kind: ClassVar[str] = "claim"
    seat: int


@dataclass(frozen=True, slots=True)
class Slapped(Event):
    """A valid slap: ``seat`` took the pile (``cards`` cards) by the slap rule ``rule``
    (``doubles``, ``sandwich``, ``top_bottom``, ``tens``, ``marriage``, ``divorce``, ``run`` or
    ``joker``)."""

    kind: ClassVar[str] = "slap"
    seat: int
    rule: str
    cards: int


@dataclass(frozen=True, slots=True)
class LateSlap(Event):
    """``seat`` slapped a pile that could be slapped, but somebody took or covered it first
    (no penalty)."""

    kind: ClassVar[str] = "late_slap"
    seat: int


@dataclass(frozen=True, slots=True)
class BadSlap(Event):
    """``seat`` slapped a pile that could not be slapped and burned ``burned`` cards face down
    under the pile (0 for a player without cards, who is out for it)."""

    kind: ClassVar[str] = "bad_slap"
    seat: int
    burned: int


@dataclass(frozen=True, slots=True)
class Joined(Event):
    """``seat`` (a newcomer) slapped in and joined the game."""

    kind: ClassVar[str] = "join"
    seat: int


@dataclass(frozen=True, slots=True)
class Out(Event):
    """``seat`` is out of the game for good."""

    kind: ClassVar[str] = "out"
    seat: int


@dataclass(frozen=True, slots=True)
class Won(Event):
    """``seat`` won the game, holding every card."""

    kind: ClassVar[str] = "win"
    seat: int


@dataclass(frozen=True, slots=True)
class Ended(Event):
    """The game stopped before anyone held every card: ``why`` is ``"cap"`` (the safety cap on
    cards played) or ``"cycle"`` (a position came back, so play would repeat for ever)."""

    kind: ClassVar[str] = "end"
    why: str


EVENT_TYPES: tuple[type[Event], ...] = (
    Played,
    Collected,
    Claimed,
    Slapped,
    LateSlap,
    BadSlap,
    Joined,
    Out,
    Won,
    Ended,
)
"""Every kind of event of the game."""
