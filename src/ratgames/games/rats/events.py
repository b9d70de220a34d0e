"""The events of Rats, in the engine's one event schema (see :mod:`ratgames.core.events`).

Every event is public: plays are face up, and who wins a trick, who goes out and the next hand
size are seen by everyone.  In JSON (``event_json``)::

    {"kind": "play", "round": 1, "seat": 2, "play": "7H 7S", "combination": "set",
     "cards": ["7H", "7S"], "leads": true, "beats": false}
    {"kind": "trick", "round": 1, "winner": 2, "count": 8}
    {"kind": "round_end", "round": 1, "stock_to": 2, "out": [0], "next_hand_size": 9}

A state keeps its history as a chain of notes, one per trick (with its plays) and one per
round's end, each naming the one before it (``older``): nothing is made for a play but its place
in the trick, and the events are made from the notes only when an observation asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from ratgames.core.events import CARD, Event

from .action import DISCARD, KIND_WORDS, RatsAction, action_text


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A seat played to a trick: ``play`` is the notation, ``combination`` one of ``single``,
    ``set``, ``run`` or ``discard`` (a discard shows once whole, when its last card is laid);
    ``leads`` for the first play of the trick, ``beats`` for a play that became the best."""

    kind: ClassVar[str] = "play"
    round: int
    seat: int
    play: str
    combination: str
    cards: tuple[int, ...] = field(metadata=CARD)
    leads: bool
    beats: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``winner`` took the trick's ``count`` cards into their reserve."""

    kind: ClassVar[str] = "trick"
    round: int
    winner: int
    count: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The round ended: the stock went to ``stock_to`` (None when there was none), the seats in
    ``out`` went out, and the next hands hold ``next_hand_size`` cards (None once it is over)."""

    kind: ClassVar[str] = "round_end"
    round: int
    stock_to: int | None
    out: tuple[int, ...]
    next_hand_size: int | None


def played(round_: int, index: int, seat: int, action: RatsAction) -> Played:
    """The event of the play ``action`` by ``seat``, the ``index``-th play of its trick (a lead
    for the first; every later play that is not a discard beat the best so far, as the rules
    allow no other)."""
    return Played(
        round_,
        seat,
        action_text(action),
        KIND_WORDS[action.kind],
        action.cards,
        index == 0,
        index > 0 and action.kind != DISCARD,
    )


class TrickNote(NamedTuple):
    """The history's note of a trick: its round, leader, plays (seat and action, a discard
    whole) and winner, and the note before it (``older``)."""

    round: int
    leader: int
    plays: tuple[tuple[int, RatsAction], ...]
    winner: int
    older: Note | None

    def events(self) -> list[Event]:
        """Its plays and the trick won, oldest first."""
        out: list[Event] = [played(self.round, i, s, a) for i, (s, a) in enumerate(self.plays)]
        out.append(TrickWon(self.round, self.winner, sum(len(a.cards) for _, a in self.plays)))
        return out


class RoundNote(NamedTuple):
    """The history's note of a round's end (see :class:`RoundEnded`; ``stock_to`` -1: no stock,
    ``size`` 0: the game is over), and the note before it (``older``)."""

    round: int
    stock_to: int
    out: tuple[int, ...]
    size: int
    older: Note | None

    def events(self) -> list[Event]:
        return [
            RoundEnded(
                self.round,
                self.stock_to if self.stock_to >= 0 else None,
                self.out,
                self.size or None,
            )
        ]


Note = TrickNote | RoundNote
"""A note of the history."""
