# ratgames: compiled
"""The actions of Egyptian Ratscrew and their notation: ``play`` (your top card onto the pile),
``collect`` (take a won pile, or the table) and ``slap@N``, a slap at the pile as its player saw
it (``N`` is the pile's version, which grows with every card played and every pile taken).

>>> parse_action(" Slap@17 "), str(parse_action("play")), well_formed(Slap(True))
(Slap(version=17), 'play', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ratgames.core._mypyc import mypyc_attr
from ratgames.core.errors import InvalidNotation

MAX_VERSION: Final = 10**18
"""Slap versions are below this (``slap@`` takes at most 18 digits)."""


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True, slots=True)
class Move:
    """``play`` (your top card onto the pile) or ``collect`` (take a won pile, or the table)."""

    name: str

    def __str__(self) -> str:
        return self.name


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True, slots=True)
class Slap:
    """A slap at the pile as its player saw it (``version``): ``slap@17``."""

    version: int

    def __str__(self) -> str:
        return f"slap@{self.version}"


RatscrewAction = Move | Slap
"""An action of the game."""

PLAY_ACTION = Move("play")
COLLECT_ACTION = Move("collect")
SLAPS: list[Slap] = [Slap(v) for v in range(4096)]
"""The slaps at the first pile versions, made once (:func:`slap`)."""


def slap(version: int) -> Slap:
    """The (interned where possible) slap at pile ``version``."""
    return SLAPS[version] if 0 <= version < 4096 else Slap(version)


def well_formed(action: object) -> bool:
    """True for an action of this game built with fields of the right types and ranges (a
    ``Move`` named play or collect, a ``Slap`` at a whole-number version from 0)."""
    kind = type(action)
    if kind is Slap:
        v = action.version  # type: ignore[attr-defined]
        return type(v) is int and 0 <= v < MAX_VERSION
    if kind is Move:
        name = action.name  # type: ignore[attr-defined]
        return type(name) is str and name in ("play", "collect")
    return False


def parse_action(text: object, title: str = "Egyptian Ratscrew") -> RatscrewAction:
    """The action written as ``text`` (``play``, ``collect``, ``slap@N``; case and surrounding
    spaces do not matter), or :class:`InvalidNotation` naming what is accepted."""
    if not isinstance(text, str):
        raise InvalidNotation(f"an action is written as text, not {text!r}")
    t = text.strip().lower()
    if t == "play":
        return PLAY_ACTION
    if t == "collect":
        return COLLECT_ACTION
    if t.startswith("slap@"):
        digits = t[5:]
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            return slap(int(digits))
    raise InvalidNotation(
        f"{text[:40]!r} is not an action of {title}; write 'play', 'collect' or "
        "'slap@N' (N = the pile version you saw, as shown in your observation)"
    )


def canonical_action(action: object) -> RatscrewAction | None:
    """``action`` if it is an action of the game (:func:`well_formed`), else None."""
    return action if well_formed(action) else None  # type: ignore[return-value]


def not_an_action(action: object, title: str = "Egyptian Ratscrew") -> str:
    """Why ``action`` (one :func:`canonical_action` refuses) is no action of the game."""
    shown = repr(action)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return (
        f"{shown} is not an action of {title}: the actions are Move('play'), "
        "Move('collect') and Slap(N) with N a whole number from 0 (the pile version seen)"
    )
