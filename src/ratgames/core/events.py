"""Events: what happened at the table, in one schema for every game.

A game declares its events as frozen dataclasses that subclass :class:`Event`, each with a class
attribute ``kind`` (a short lowercase word such as ``"draw"`` or ``"trick"``).  Fields hold plain
values: ints, strings, bools, None, and tuples of them.  A field that holds a card (or a tuple of
cards, as small ints) says so in its metadata with :data:`CARD`, so that cards become their
notation when the event becomes JSON::

    @dataclass(frozen=True, slots=True)
    class Take(Event):
        kind: ClassVar[str] = "take"
        seat: int
        card: int = field(metadata=CARD)

Events become JSON in one place, :func:`event_json`: an object whose ``"kind"`` names the event,
followed by its fields by name (tuples as lists, cards as their notation)::

    {"kind": "take", "seat": 1, "card": "7"}

Observations and spectator views carry their events in this form (under ``"events"``), only the
ones the viewer may know.  Sentences come from each game's ``render`` part only (see
:class:`ratgames.core.registry.GameParts`), through
:func:`event_text`, which front ends (terminal, browser, logs) call with the JSON form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .game import Game

CARD: Mapping[str, bool] = {"card": True}
"""Field metadata for a field holding a card, or a tuple of cards (None stays None)."""

_Plan = tuple[tuple[str, bool], ...]
_PLANS: dict[type, _Plan] = {}


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base class of every game's events."""

    kind: ClassVar[str] = "event"


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple((f.name, bool(f.metadata.get("card"))) for f in dataclasses.fields(cls))
        _PLANS[cls] = plan
    return plan


def _plain(value: Any, card: Callable[[int], str] | None) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v, card) for v in value]
    if card is not None and isinstance(value, int) and not isinstance(value, bool):
        return card(value)
    return value


def entry_table(kind: type[Event], *values: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """The log entries ``(kind, fields)`` of an event for every combination of its fields'
    ``values`` (one sequence a field, in order), row by row, for :meth:`State._log_entry`: with
    ``range(2), range(52)`` the fields ``(a, b)`` are at ``a * 52 + b``.

    >>> from ratgames.testing import Played
    >>> table = entry_table(Played, range(2), range(52))
    >>> table[1 * 52 + 7]
    (<class 'ratgames.testing.Played'>, (1, 7))
    """
    rows: list[tuple[Any, ...]] = [()]
    for column in values:
        rows = [(*row, value) for row in rows for value in column]
    return tuple([(kind, row) for row in rows])


def event_json(game: Game, event: Event) -> dict[str, Any]:
    """``event`` as a JSON object: ``{"kind": ..., field: value, ...}`` with cards as notation.

    >>> from ratgames.testing import HighCard, Played
    >>> event_json(HighCard(), Played(seat=1, card=7))
    {'kind': 'played', 'seat': 1, 'card': '7'}
    """
    out: dict[str, Any] = {"kind": event.kind}
    card = game.card_text
    for name, is_card in _plan(type(event)):
        out[name] = _plain(getattr(event, name), card if is_card else None)
    return out


JSON_KEPT = 256
"""How many logged events a game keeps as JSON (:func:`logged_json`): more than any
observation lists, so that the events a table's seats are shown again are made once."""


def logged_json(game: Game, entries: Iterable[tuple[type[Event], tuple[Any, ...]]]) -> list[Any]:
    """:func:`event_json` of logged events ``(class, fields)`` (as :meth:`State._logged` gives
    them), each made once per game and then kept (the latest :data:`JSON_KEPT`): an observation
    lists the latest events again at every move, and each seat's lists them again.  The objects
    are shared between the lists that hold the same event, and are not to be changed.

    >>> from ratgames.testing import HighCard, Played
    >>> game = HighCard()
    >>> first = logged_json(game, [(Played, (1, 7))])
    >>> first
    [{'kind': 'played', 'seat': 1, 'card': '7'}]
    >>> logged_json(game, [(Played, (1, 7))])[0] is first[0]
    True
    """
    kept = game._events_json
    out: list[Any] = []
    for entry in entries:
        try:
            made = kept.get(entry)
        except TypeError:  # a field that is not hashable (a list): made each time
            out.append(event_json(game, entry[0](*entry[1])))
            continue
        if made is None:
            made = event_json(game, entry[0](*entry[1]))
            if len(kept) >= JSON_KEPT:
                kept.clear()
            kept[entry] = made
        out.append(made)
    return out


def event_text(game: Game, event: Mapping[str, Any], viewer: int | None = None) -> str:
    """One event (in its JSON form) as a sentence, as seat ``viewer`` sees it (None: a
    spectator).  The words come from the game's ``render`` part (``describe_event``), or from
    :meth:`Game.describe_event` where a game overrides it.

    >>> from ratgames.testing import HighCard
    >>> event_text(HighCard(), {"kind": "played", "seat": 1, "card": "7"}, viewer=1)
    'You played 7'
    """
    return game.describe_event(event, viewer)


def render_module_describe(game: Game) -> Callable[[Game, Mapping[str, Any], int | None], str]:
    """The ``describe_event`` function of the game's ``render`` part (declared where the game is
    registered, :class:`ratgames.core.registry.GameParts`)."""
    from .registry import required_part

    module = required_part(game.id, "render", "describing an event")
    describe: Callable[[Game, Mapping[str, Any], int | None], str] = module.describe_event
    return describe
