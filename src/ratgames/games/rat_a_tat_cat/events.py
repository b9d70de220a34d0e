"""What happens at a Rat-a-Tat Cat table: the events everybody sees (:mod:`ratgames.core.events`).

Seats are numbered from 0, slots from 1 to 4 (as in the action notation), cards are card ints
(notation in JSON).  Only public facts are events: a card drawn and kept is never named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final

from ratgames.core.events import CARD, Event, entry_table

from .cards import KINDS, MOST_PLAYERS, SLOTS


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Round ``round`` was dealt by ``dealer``; ``first_discard`` starts the discard pile.
    ``returned`` are the power cards turned up before it and shuffled back into the draw pile
    (``first_discard=shuffle_back``), in the order they came."""

    kind: ClassVar[str] = "deal"
    round: int
    dealer: int
    first_discard: int = field(metadata=CARD)
    returned: tuple[int, ...] = field(default=(), metadata=CARD)


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` drew a number card from the draw pile (only it sees which)."""

    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True, slots=True)
class PowerDrawn(Event):
    """``seat`` drew the power card ``card``, showed it and discarded it to use its power."""

    kind: ClassVar[str] = "power"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Took(Event):
    """``seat`` took ``card`` from the top of the discard pile."""

    kind: ClassVar[str] = "take"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Replaced(Event):
    """``seat`` put the card it held in its ``slot`` (1-4) and discarded ``discarded`` from
    there; ``placed`` is the card put there when everyone saw it (taken from the discard pile),
    else None."""

    kind: ClassVar[str] = "replace"
    seat: int
    slot: int
    discarded: int = field(metadata=CARD)
    placed: int | None = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """``seat`` threw away ``card``, the number card it drew."""

    kind: ClassVar[str] = "discard"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """During a Draw 2, ``seat`` passed on the power card ``card`` to draw again."""

    kind: ClassVar[str] = "pass"
    seat: int
    card: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Peeked(Event):
    """``seat`` looked at its own ``slot`` (1-4)."""

    kind: ClassVar[str] = "peek"
    seat: int
    slot: int


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """``seat`` exchanged its ``slot`` with slot ``other_slot`` of seat ``other`` (slots 1-4)."""

    kind: ClassVar[str] = "swap"
    seat: int
    slot: int
    other: int
    other_slot: int


@dataclass(frozen=True, slots=True)
class NoSwap(Event):
    """``seat`` drew a Swap and chose not to swap."""

    kind: ClassVar[str] = "noswap"
    seat: int


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    """``seat`` knocked: every other player has one more turn."""

    kind: ClassVar[str] = "knock"
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The draw pile ran out: ``cards`` (the discard pile but its top, sorted) were shuffled
    into a new draw pile."""

    kind: ClassVar[str] = "reshuffle"
    cards: tuple[int, ...] = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class Capped(Event):
    """The round reached its turn cap of ``turns`` turns with ``seat``'s turn, and nobody had
    knocked: the cap counts as that seat's knock, so every other player has one more turn."""

    kind: ClassVar[str] = "cap"
    seat: int
    turns: int


@dataclass(frozen=True, slots=True)
class Fixed(Event):
    """At the end of the round, the power card ``card`` in ``seat``'s ``slot`` (1-4) was
    replaced by ``replacement``, the first number card drawn."""

    kind: ClassVar[str] = "fix"
    seat: int
    slot: int
    card: int = field(metadata=CARD)
    replacement: int = field(metadata=CARD)


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """Round ``round`` is over; ``low`` is the lowest sum (the round's results say the rest)."""

    kind: ClassVar[str] = "round"
    round: int
    low: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """``seat`` reached the elimination limit with ``total`` points and is out of the game."""

    kind: ClassVar[str] = "out"
    seat: int
    total: int


EVENT_TYPES: tuple[type[Event], ...] = (
    Dealt,
    Drew,
    PowerDrawn,
    Took,
    Replaced,
    Discarded,
    Passed,
    Peeked,
    Swapped,
    NoSwap,
    Knocked,
    Reshuffled,
    Capped,
    Fixed,
    RoundOver,
    WentOut,
)
"""Every kind of event of the game."""

# The log entries of the events of almost every move, for every seat, slot (1-4) and card, made
# once (:meth:`State._log_entry`): logged from these, an event makes no tuple.  A seat's entry
# of a card is at ``seat * KINDS + card``; Replaced's at ``((seat * SLOTS + slot - 1) * KINDS +
# discarded) * (KINDS + 1) + placed`` (``placed`` KINDS for None).
_SEATS = range(MOST_PLAYERS)
_CARDS = range(KINDS)
_SLOTS = range(1, SLOTS + 1)
DREW_ENTRY: Final = entry_table(Drew, _SEATS)
POWER_ENTRY: Final = entry_table(PowerDrawn, _SEATS, _CARDS)
TOOK_ENTRY: Final = entry_table(Took, _SEATS, _CARDS)
REPLACED_ENTRY: Final = entry_table(Replaced, _SEATS, _SLOTS, _CARDS, (*_CARDS, None))
DISCARDED_ENTRY: Final = entry_table(Discarded, _SEATS, _CARDS)
PASSED_ENTRY: Final = entry_table(Passed, _SEATS, _CARDS)
PEEKED_ENTRY: Final = entry_table(Peeked, _SEATS, _SLOTS)
NOSWAP_ENTRY: Final = entry_table(NoSwap, _SEATS)
KNOCKED_ENTRY: Final = entry_table(Knocked, _SEATS)
