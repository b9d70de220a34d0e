"""A game's state declared once: each field's name, how a copy takes it and how a snapshot
writes and reads it.

A game lists its state's fields once, as the state class's :attr:`State._fields`::

    class HighCardState(State[Play]):
        __slots__ = ("deal", "hands", "pile", "played", "turn", "turns_done")
        _fields = StateFields(
            Field("hands", copy=ROWS, snap=Rows(Cards(DIGITS))),
            Field("pile", copy=LIST, snap=Cards(DIGITS)),
            Field("turn", snap=Seat()),
            Field("deal"),  # shared by copies, not in a snapshot
            ...
        )

and the core derives the rest: :meth:`State.clone` (a field is shared by the copy, or copied as
a list, or as a list of lists), :meth:`State.snapshot` (each field with a codec, written under
its entry), the snapshot's entries, and the shape-checking half of :meth:`Game.restore` (every
entry there, each of the right type and range, one wording of errors for every game).  A game
then writes only what ties its fields together (:meth:`State._restored`), reusing its rules.

The core's copy is plain Python (written out once per declaration, so it costs what a
hand-written copy does with the Python modules); a compiled state pays about three times that
for it.  A game whose compiled copies matter (search copies a state at every iteration) keeps a
written-out copy beside its rules, compiled with them, and ``tests/core/test_fields.py`` holds
every game's copies to its declaration: each declared field equal in the copy, a new list where
its policy copies.

Errors name the entry as a path (``hands[1][0]``) and say what it must be:

>>> Rows(Cards(("A", "B")), count=2).read([["A"], ["C"]], "hands", None)
Traceback (most recent call last):
...
ratgames.core.errors.SnapshotError: hands[1][0] must be a card (A or B), not 'C'
>>> Seat(none=True).read(5, "turn", _Players(2))
Traceback (most recent call last):
...
ratgames.core.errors.SnapshotError: turn must be a seat from 0 to 1 or null, not 5
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from . import snapshots
from .errors import SnapshotError
from .events import Event

if TYPE_CHECKING:
    from .game import Game, State

JSON = Any

SHARED: Final = "shared"
"""Copy policy: a copy holds the very same value (an int, a tuple, any value never changed in
place)."""
LIST: Final = "list"
"""Copy policy: a copy holds a new list with the same items."""
ROWS: Final = "rows"
"""Copy policy: a copy holds a new list of new lists (a list per seat, say)."""
COPY: Final = "copy"
"""Copy policy: a copy holds ``value.copy()`` (a set or a dict the state changes in place)."""
_POLICIES = (SHARED, LIST, ROWS, COPY)


class Codec(ABC):
    """How a snapshot writes one field's value as JSON, and reads it back (checked)."""

    @abstractmethod
    def write(self, value: Any) -> JSON:
        """``value`` (as the state keeps it) as JSON."""

    @abstractmethod
    def read(self, value: object, entry: str, game: Any) -> Any:
        """The value the state keeps for the JSON ``value`` of ``entry``, or
        :class:`SnapshotError` naming ``entry``, what it must be and what it was.  ``game`` is
        the game whose snapshot is read (for ranges that depend on the number of players)."""


class _Players:
    """Stands in for a game where only its number of players matters (for the doctests)."""

    def __init__(self, players: int) -> None:
        self.players = players


def _bound(bound: int | Callable[[Any], int] | None, game: Any) -> int | None:
    return bound(game) if callable(bound) else bound


@dataclass(frozen=True)
class Whole(Codec):
    """A whole number from ``low`` to ``high`` (none above if ``high`` is None); a bound may be a
    function of the game (``lambda g: g.players``)."""

    low: int | Callable[[Any], int] = 0
    high: int | Callable[[Any], int] | None = None

    def write(self, value: Any) -> JSON:
        return value

    def read(self, value: object, entry: str, game: Any) -> Any:
        low = _bound(self.low, game)
        assert low is not None
        return snapshots.whole(value, entry, low, _bound(self.high, game))


@dataclass(frozen=True)
class Seat(Codec):
    """A seat of the game, numbered from 0 as everywhere in the engine; with ``none``, the
    state's -1 (no seat) is written null."""

    none: bool = False

    def write(self, value: Any) -> JSON:
        return None if self.none and value < 0 else value

    def read(self, value: object, entry: str, game: Any) -> Any:
        if value is None and self.none:
            return -1
        top = game.players - 1
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            tail = " or null" if self.none else ""
            raise SnapshotError(
                f"{entry} must be a seat from 0 to {top}{tail}, not {snapshots.short(value)}"
            )
        return value


@dataclass(frozen=True)
class Flag(Codec):
    """True or false (0 and 1 are not)."""

    def write(self, value: Any) -> JSON:
        return value

    def read(self, value: object, entry: str, game: Any) -> Any:
        return snapshots.flag(value, entry)


@dataclass(frozen=True)
class Number(Codec):
    """A finite number of at least ``low`` (an int or a float; kept as a float)."""

    low: float = 0.0

    def write(self, value: Any) -> JSON:
        return value

    def read(self, value: object, entry: str, game: Any) -> Any:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not value == value  # NaN
            or value in (float("inf"), float("-inf"))
            or value < self.low
        ):
            raise SnapshotError(
                f"{entry} must be a number of at least {self.low:g}, not {snapshots.short(value)}"
            )
        return float(value)


@dataclass(frozen=True)
class OneOf(Codec):
    """One of ``names`` (a phase, a status), kept as its index (or, with ``as_text``, as the
    text itself)."""

    names: tuple[str, ...]
    as_text: bool = False

    def write(self, value: Any) -> JSON:
        return value if self.as_text else self.names[value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        index = snapshots.one_of(value, entry, self.names)
        return self.names[index] if self.as_text else index


class Card(Codec):
    """A card, written as its text (``texts[card]``); with ``none``, the state's -1 (no card)
    is written null."""

    def __init__(self, texts: Sequence[str], none: bool = False, what: str = "") -> None:
        self.texts = tuple(texts)
        self.none = none
        self.of_text = {t: c for c, t in enumerate(self.texts) if t}
        if not what:
            shown = [t for t in self.texts if t]
            listed = " or ".join(shown) if len(shown) <= 3 else f"such as {shown[0]!r}"
            what = f"a card ({listed})"
        self.what = what

    def write(self, value: Any) -> JSON:
        return None if self.none and value < 0 else self.texts[value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        if value is None and self.none:
            return -1
        return snapshots.card(value, entry, self.of_text, self.what + (" or null" * self.none))


class Cards(Codec):
    """A list of cards written as their texts; ``size`` of them if given (an int, or a function
    of the game), kept as a list (or a tuple with ``as_tuple``); ``what`` says what a card must
    be, as :class:`Card` does."""

    def __init__(
        self,
        texts: Sequence[str],
        size: int | Callable[[Any], int] | None = None,
        as_tuple: bool = False,
        what: str = "",
    ) -> None:
        self.card = Card(texts, what=what)
        self.size = size
        self.as_tuple = as_tuple

    def write(self, value: Any) -> JSON:
        texts = self.card.texts
        return [texts[c] for c in value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        size = _bound(self.size, game)
        listed = snapshots.items(value, entry, "cards", -1 if size is None else size)
        out = [self.card.read(v, f"{entry}[{i}]", game) for i, v in enumerate(listed)]
        return tuple(out) if self.as_tuple else out


class Rows(Codec):
    """A list of values each written by ``inner`` (a hand per seat, say): ``count`` of them (an
    int, a function of the game, or None for any number; by default one per seat), kept as a
    list (or a tuple with ``as_tuple``)."""

    def __init__(
        self,
        inner: Codec,
        count: int | Callable[[Any], int] | None = lambda game: game.players,
        as_tuple: bool = False,
        what: str = "",
    ) -> None:
        self.inner = inner
        self.count = count
        self.as_tuple = as_tuple
        self.what = what or "items"

    def write(self, value: Any) -> JSON:
        inner = self.inner
        return [inner.write(v) for v in value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        count = _bound(self.count, game)
        listed = snapshots.items(value, entry, self.what, -1 if count is None else count)
        out = [self.inner.read(v, f"{entry}[{i}]", game) for i, v in enumerate(listed)]
        return tuple(out) if self.as_tuple else out


@dataclass(frozen=True)
class Maybe(Codec):
    """A value read by ``inner``, or null (kept as None)."""

    inner: Codec

    def write(self, value: Any) -> JSON:
        return None if value is None else self.inner.write(value)

    def read(self, value: object, entry: str, game: Any) -> Any:
        return None if value is None else self.inner.read(value, entry, game)


@dataclass(frozen=True)
class Custom(Codec):
    """A field with a shape of its own: ``write(value)`` gives its JSON and
    ``read(value, entry, game)`` reads it back (raising :class:`SnapshotError`)."""

    writer: Callable[[Any], JSON]
    reader: Callable[[object, str, Any], Any]

    def write(self, value: Any) -> JSON:
        return self.writer(value)

    def read(self, value: object, entry: str, game: Any) -> Any:
        return self.reader(value, entry, game)


LogEntry = tuple[type[Event], tuple[Any, ...]]
"""An event as the core's event log keeps it: its class and its fields' values."""


class Events:
    """Reads events (:mod:`ratgames.core.events`) from their JSON objects by the events' own
    declaration: each must be an object whose ``kind`` is one of ``types``' kinds, with exactly
    that event's fields, each read by the codec ``fields`` holds for its name (the same codec
    for a field of that name in every event: ``{"seat": Seat(), "card": Card(TEXTS)}``).  An
    event read is a log entry ``(class, values)``, as :meth:`State._log_event` takes it.

    >>> from ratgames.testing import Played
    >>> reader = Events((Played,), {"seat": Seat(), "card": Whole(0, 9)})
    >>> reader.read([{"kind": "played", "seat": 1, "card": 7}], "events", _Players(2))
    [(<class 'ratgames.testing.Played'>, (1, 7))]
    >>> reader.read([{"kind": "played", "seat": 2, "card": 7}], "events", _Players(2))
    Traceback (most recent call last):
    ...
    ratgames.core.errors.SnapshotError: events[0].seat must be a seat from 0 to 1, not 2
    """

    def __init__(self, types: Sequence[type[Event]], fields: Mapping[str, Codec]) -> None:
        self.kinds: dict[str, tuple[type[Event], tuple[str, ...], tuple[Codec, ...]]] = {}
        for cls in types:
            names = tuple(f.name for f in dataclasses.fields(cls))
            unread = [name for name in names if name not in fields]
            if unread:
                raise ValueError(f"event {cls.kind!r}: no codec for {', '.join(unread)}")
            self.kinds[cls.kind] = (cls, ("kind", *names), tuple(fields[n] for n in names))

    def read_one(self, value: object, entry: str, game: Any) -> LogEntry:
        """One event: its class and its fields' values."""
        kind = value.get("kind") if isinstance(value, Mapping) else None
        plan = self.kinds.get(kind) if isinstance(kind, str) else None
        if plan is None:
            raise SnapshotError(
                f"{entry} must be an event: an object whose kind is one of "
                f"{', '.join(self.kinds)}, not {snapshots.short(value)}"
            )
        cls, names, codecs = plan
        event = snapshots.entries(value, names, f"{entry} (a {kind!r} event)")
        return cls, tuple(
            [
                codec.read(event[name], f"{entry}.{name}", game)
                for name, codec in zip(names[1:], codecs, strict=True)
            ]
        )

    def read(self, value: object, entry: str, game: Any) -> list[LogEntry]:
        """A list of events, item ``i`` named ``entry[i]``."""
        listed = snapshots.items(value, entry, "events")
        return [self.read_one(v, f"{entry}[{i}]", game) for i, v in enumerate(listed)]


@dataclass(frozen=True)
class Field:
    """One field of a state: its ``name`` (the slot), how :meth:`State.clone` copies it
    (:data:`SHARED`, :data:`LIST`, :data:`ROWS` or :data:`COPY`), and how a snapshot writes it
    (``snap``; None keeps it out of snapshots: a cache, or what the game rebuilds on restoring),
    under ``entry`` (by default its name)."""

    name: str
    copy: str = SHARED
    snap: Codec | None = None
    entry: str = ""

    def __post_init__(self) -> None:
        if self.copy not in _POLICIES:
            raise ValueError(f"field {self.name}: copy is one of {', '.join(_POLICIES)}")


class StateFields:
    """A state's fields, declared once (see the module's description)."""

    def __init__(self, *fields: Field, extra: Sequence[str] = ()) -> None:
        """``fields`` in the order a snapshot lists them; ``extra`` names the entries a game's
        snapshot adds beyond its fields (:meth:`State._snapshot_extra`)."""
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError("a field is declared twice: " + ", ".join(names))
        self.fields = tuple(fields)
        self.names = tuple(names)
        self.snapped = tuple((f.entry or f.name, f.name, f.snap) for f in fields if f.snap)
        self.extra = tuple(extra)
        self.entries = tuple(e for e, _, _ in self.snapped) + self.extra
        """Every entry of a snapshot, in order."""
        self.copy_into = _copier(fields)
        """``copy_into(state, copy)``: sets every field of ``copy`` from ``state`` as each field's
        copy policy says."""

    def write(self, state: State) -> dict[str, JSON]:
        """The snapshot entries of ``state``'s fields."""
        return {entry: codec.write(getattr(state, name)) for entry, name, codec in self.snapped}

    def read(self, snapshot: Mapping[str, Any], game: Game, what: str) -> dict[str, Any]:
        """Each field's value read from ``snapshot`` (by field name), after checking that it has
        exactly the entries :attr:`entries`; ``what`` names it (``"a Rats snapshot"``)."""
        snapshots.entries(snapshot, self.entries, what)
        return {
            name: codec.read(snapshot[entry], entry, game) for entry, name, codec in self.snapped
        }

    def check(self, state: State) -> None:
        """Checks that ``state`` holds every declared field and no undeclared one (a test of the
        declaration against the class's slots).  A compiled state class keeps no ``__slots__``
        (its attributes are the compiler's): then every declared field must be readable."""
        slots: set[str] = set()
        for cls in type(state).__mro__:
            if cls.__module__.startswith("ratgames.core") or cls is object:
                continue
            if "__slots__" not in cls.__dict__:  # compiled: the attributes are the compiler's
                for name in self.names:
                    getattr(state, name)
                return
            slots.update(cls.__dict__["__slots__"])
        missing = slots - set(self.names)
        unknown = set(self.names) - slots
        if missing or unknown:
            raise AssertionError(
                f"{type(state).__name__}: slots not declared as fields: {sorted(missing)}; "
                f"fields that are no slot: {sorted(unknown)}"
            )


def _copier(fields: Sequence[Field]) -> Callable[[Any, Any], None]:
    """A function setting each field of a copy as its policy says, written out once as source
    (so that a clone costs what a hand-written one does)."""
    lines = ["def copy_into(s, c):"]
    for f in fields:
        if not f.name.isidentifier():
            raise ValueError(f"{f.name!r} is not a field name")
        if f.copy == SHARED:
            lines.append(f"    c.{f.name} = s.{f.name}")
        elif f.copy == LIST:
            lines.append(f"    c.{f.name} = s.{f.name}[:]")
        elif f.copy == COPY:
            lines.append(f"    c.{f.name} = s.{f.name}.copy()")
        else:
            lines.append(f"    c.{f.name} = [r[:] for r in s.{f.name}]")
    if len(lines) == 1:
        lines.append("    pass")
    scope: dict[str, Any] = {}
    exec(compile("\n".join(lines), "<state fields>", "exec"), scope)
    copier: Callable[[Any, Any], None] = scope["copy_into"]
    return copier
