"""What happens at a Caged Rats table, as events (the one schema of :mod:`ratgames.core.events`).

Observations list the events of the current deal (and, once the game is over, its score and the
rubber won).  Seats are 0 (red) and 1 (black).  A card thrown face down is named only in its
thrower's observation: everyone else sees the same ``throw`` event with ``card`` None.

The state keeps each event in the core's event log (:meth:`State._log_event`: its class and its
fields) and builds these objects only when an observation asks for its events; the events of
every lead are logged from tables of their entries made once, below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final

from ratgames.core.events import CARD, Event, entry_table


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """Deal number ``deal`` (counted over the whole game) of rubber ``rubber`` begins."""

    kind: ClassVar[str] = "deal"
    deal: int
    dealer: int
    rubber: int


@dataclass(frozen=True, slots=True)
class Caged(Event):
    """``seat`` cages two rats from her hand, face up (rat 1 the lower card)."""

    kind: ClassVar[str] = "cage"
    seat: int
    rats: tuple[int, int] = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Offered(Event):
    """The leader ``seat`` offers a capture face up (the dealer's first comes from her stock)."""

    kind: ClassVar[str] = "offer"
    seat: int
    card: int = field(metadata=CARD)
    from_stock: bool


@dataclass(frozen=True, slots=True)
class Bid(Event):
    """The leader ``seat`` bids a card face up."""

    kind: ClassVar[str] = "bid"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Topped(Event):
    """The responder ``seat`` tops the bid with a higher card, face up."""

    kind: ClassVar[str] = "top"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Lost(Event):
    """The leader ``seat`` lost the capture ``card`` (it was topped): discarded."""

    kind: ClassVar[str] = "lost"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Threw(Event):
    """The responder ``seat`` throws a card face down; ``card`` is None for all but her."""

    kind: ClassVar[str] = "throw"
    seat: int
    card: int | None = field(default=None, metadata=CARD)


@dataclass(frozen=True, slots=True)
class Unfed(Event):
    """The leader ``seat`` won the capture ``card`` but has no rat of its suit: discarded."""

    kind: ClassVar[str] = "unfed"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Fed(Event):
    """The leader ``seat`` won the capture ``card`` and fed it to rat ``rat`` (1 or 2, the card
    ``rat_card``), which now holds ``captures`` of the ``needs`` it wants."""

    kind: ClassVar[str] = "feed"
    seat: int
    rat: int
    rat_card: int = field(metadata=CARD)
    card: int = field(metadata=CARD)
    captures: int
    needs: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """The leader ``seat`` draws ``count`` cards from her own stock."""

    kind: ClassVar[str] = "draw"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """A deal is scored: ``points`` of the deal and the rubber's running ``totals`` (red, black)."""

    kind: ClassVar[str] = "score"
    points: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RubberWon(Event):
    """``seat`` wins rubber number ``rubber`` with the ``totals`` (red, black)."""

    kind: ClassVar[str] = "rubber"
    seat: int
    rubber: int
    totals: tuple[int, int]


# The log entries of the events of every lead, made once (:meth:`State._log_entry`): the entry of
# a seat and a card is at ``seat * 52 + card``, of a seat and a count at ``seat * 4 + count``.
OFFER_ENTRY: Final = entry_table(Offered, range(2), range(52), (False,))
BID_ENTRY: Final = entry_table(Bid, range(2), range(52))
TOP_ENTRY: Final = entry_table(Topped, range(2), range(52))
LOST_ENTRY: Final = entry_table(Lost, range(2), range(52))
UNFED_ENTRY: Final = entry_table(Unfed, range(2), range(52))
THROW_ENTRY: Final = entry_table(Threw, range(2))
DRAW_ENTRY: Final = entry_table(Drew, range(2), range(4))
