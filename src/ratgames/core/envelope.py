"""The observation envelope: the few facts every game's position has in the same form, whatever
the game, so that a front end, a logger or a learner can read them without knowing the game.

The core builds it from the public API of any state (:meth:`State.seats_to_act`,
:meth:`State.is_over`, :attr:`State.event_count`, :meth:`State.outcome`); a game fills nothing
of its own.  As JSON (:meth:`Envelope.to_json`)::

    {"seat": 1, "to_act": [0], "over": false, "events": 12, "scores": null}

* ``seat``: the seat it is written for (None: a spectator);
* ``to_act``: the seats that may act now (none once the game is over);
* ``over``: whether the game has ended;
* ``events``: how many events have happened so far, seen or not (it grows whenever something
  happens, so comparing it tells that the position changed);
* ``scores``: each seat's points in the game's own scoring once the game is over
  (:attr:`Outcome.points`), None while it goes on.

>>> from ratgames.testing import HighCard
>>> state = HighCard().new_state(seed=1)
>>> envelope(state, 1).to_json()
{'seat': 1, 'to_act': [0], 'over': False, 'events': 0, 'scores': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction
from .game import State


@dataclass(frozen=True, slots=True)
class Envelope:
    """The facts of a position every game shares (see the module docstring)."""

    seat: int | None
    to_act: tuple[int, ...]
    over: bool
    events: int
    scores: tuple[float, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The envelope as a JSON object (tuples as lists)."""
        return {
            "seat": self.seat,
            "to_act": list(self.to_act),
            "over": self.over,
            "events": self.events,
            "scores": None if self.scores is None else list(self.scores),
        }


def envelope(state: State[Any], seat: int | None = None) -> Envelope:
    """The envelope of ``state`` for ``seat`` (None: a spectator)."""
    players = state.game.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise IllegalAction(f"{seat!r} is not a seat; the seats are 0 to {players - 1}")
    over = state.is_over()
    outcome = state.outcome() if over else None
    return Envelope(
        seat=seat,
        to_act=() if over else tuple(state.seats_to_act()),
        over=over,
        events=state.event_count,
        scores=None if outcome is None else tuple(outcome.points),
    )
