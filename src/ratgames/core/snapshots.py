"""Checks for reading a snapshot (:meth:`State.snapshot`) back into a state.

A game's :meth:`Game._restore` reads each entry of a snapshot with these helpers: each returns
the value read (as the state keeps it) or raises :class:`SnapshotError` naming the entry (as the
caller names it: ``"hands[0]"``, ``"snapshot entry 'round'"``), what it must be and what it was.
Every game words these errors alike:

>>> whole(True, "dealer", 0, 1)
Traceback (most recent call last):
...
ratgames.core.errors.SnapshotError: dealer must be a whole number from 0 to 1, not True
>>> entries({"a": 0, 7: 1}, ("a", "b"), "a snapshot")
Traceback (most recent call last):
...
ratgames.core.errors.SnapshotError: a snapshot has exactly the entries a, b; missing: b; unknown: 7
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .errors import SnapshotError

SHORT = 40
"""How many characters of a bad value an error quotes at most."""


def short(value: object) -> str:
    """``repr(value)``, cut to :data:`SHORT` characters (``...`` at the end when cut)."""
    text = repr(value)
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


def entries(value: object, names: Sequence[str], what: str) -> Mapping[str, Any]:
    """``value`` if it is a mapping with exactly the entries ``names``; else a
    :class:`SnapshotError` saying that ``what`` (``"a Rats snapshot"``, ``"history[0]"``) has
    exactly those entries, naming the missing ones and the unknown ones."""
    if not isinstance(value, Mapping):
        raise SnapshotError(
            f"{what} must be an object with exactly the entries {', '.join(names)}, "
            f"not {short(value)}"
        )
    # Keys of any type: a mapping handed in need not come from JSON.
    given = cast("Mapping[object, Any]", value)
    allowed = frozenset(names)
    missing = [k for k in names if k not in given]
    unknown = sorted(short(k) for k in given if k not in allowed)
    if missing or unknown:
        raise SnapshotError(
            f"{what} has exactly the entries {', '.join(names)}"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; unknown: {', '.join(unknown)}" if unknown else "")
        )
    return cast("Mapping[str, Any]", value)


def whole(value: object, entry: str, low: int, high: int | None = None) -> int:
    """``value`` if it is a whole number (an int; a bool is not one) from ``low`` to ``high``
    (no upper bound if ``high`` is None)."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        within = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise SnapshotError(f"{entry} must be a whole number {within}, not {short(value)}")
    return value


def flag(value: object, entry: str) -> bool:
    """``value`` if it is true or false (a bool; 0 and 1 are not)."""
    if not isinstance(value, bool):
        raise SnapshotError(f"{entry} must be true or false, not {short(value)}")
    return value


def items(value: object, entry: str, what: str, size: int = -1) -> list[Any]:
    """``value`` as a list, if it is a list (or tuple) of ``size`` items (any number if
    ``size`` is -1); ``what`` names the items for the error (``"cards such as '10H'"``)."""
    if not isinstance(value, list | tuple) or (size >= 0 and len(value) != size):
        count = f"{size} " if size >= 0 else ""
        raise SnapshotError(f"{entry} must be a list of {count}{what}, not {short(value)}")
    return list(value)


def one_of(value: object, entry: str, names: Sequence[str]) -> int:
    """The index in ``names`` of ``value``, which must be one of them (a phase, a status)."""
    if not isinstance(value, str) or value not in names:
        raise SnapshotError(f"{entry} must be one of {', '.join(names)}, not {short(value)}")
    return names.index(value)


def card(value: object, entry: str, cards: Mapping[str, int], what: str) -> int:
    """The card written ``value``, exactly one of the texts of ``cards`` (text to card); else
    the error says ``entry`` must be ``what`` (``"a card such as '10H'"``)."""
    found = cards.get(value) if isinstance(value, str) else None
    if found is None:
        raise SnapshotError(f"{entry} must be {what}, not {short(value)}")
    return found


def card_list(value: object, entry: str, cards: Mapping[str, int], what: str) -> list[int]:
    """The cards of a list of card texts (see :func:`card`), item ``i`` named ``entry[i]``."""
    return [
        card(text, f"{entry}[{i}]", cards, what)
        for i, text in enumerate(items(value, entry, "cards"))
    ]


def each_once(
    places: Sequence[tuple[str, Sequence[int]]],
    deck: Sequence[int],
    names: Sequence[str],
    deck_name: str,
    entries_named: str,
) -> None:
    """Checks that the cards of ``places`` (each an entry's name and its cards) are the cards of
    ``deck``, each once: a card in two places is named with both, then the cards no place
    holds.  ``names`` gives each card's text, ``deck_name`` the deck (``"the 52-card deck"``)
    and ``entries_named`` the entries that hold the cards (``"stacks, pile, burned"``)."""
    where: dict[int, str] = {}
    for place, held in places:
        for c in held:
            if c in where:
                raise SnapshotError(
                    f"{names[c]} is in both {where[c]} and {place}: a position holds each card "
                    f"of {deck_name} exactly once"
                )
            where[c] = place
    if len(where) != len(deck):
        lacking = " ".join(names[c] for c in deck if c not in where)
        raise SnapshotError(
            f"the position lacks {lacking}: it holds each card of {deck_name} exactly once "
            f"({entries_named})"
        )


def json_text(value: object) -> str:
    """``value`` as JSON text with sorted keys, to compare entries as JSON sees them."""
    return json.dumps(value, sort_keys=True)


def agree(
    given: Mapping[str, Any], made: Mapping[str, Any], keys: Sequence[str], made_by: str
) -> None:
    """Checks that each entry ``keys`` of the snapshot ``given`` is, as JSON, that of the
    snapshot ``made`` of the state restored from it; ``made_by`` says what made it (``"after the
    deal's events"``) for the error naming the first entry that differs."""
    for key in keys:
        if json_text(given[key]) != json_text(made[key]):
            raise SnapshotError(
                f"{key} is {short(given[key])}, but {made_by} it is {short(made[key])}"
            )
