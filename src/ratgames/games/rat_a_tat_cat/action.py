# ratgames: compiled
"""Rat-a-Tat Cat's actions: the action type, its notation (slots and seats numbered from 1 for
people, from 0 in an :class:`Act`), reading it, and the game's own action objects; and the phases
of a turn, which say what may be done next.

* ``draw``: the top card of the draw pile;  ``take``: the top card of the discard pile.
* ``replace N``: put the card you hold in your slot N (the old card goes face up on the discard).
* ``discard``: discard the card you drew without using it (during Draw 2, go on to the next draw).
* ``peek N``: look at your slot N (after drawing a PEEK).
* ``swap N P:M``: swap your slot N with slot M of seat P (after drawing a SWAP); ``noswap``.
* ``knock`` / ``end``: at the end of your turn, knock ("Rat-a-Tat Cat!") or just pass the turn.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ratgames.core.errors import InvalidNotation

from .cards import SLOTS

# The kinds of action (constants the compiled build inlines).
K_DRAW: Final = 0
K_TAKE: Final = 1
K_REPLACE: Final = 2
K_DISCARD: Final = 3
K_PEEK: Final = 4
K_SWAP: Final = 5
K_NOSWAP: Final = 6
K_KNOCK: Final = 7
K_END: Final = 8


class Act(NamedTuple):
    """An action: its kind and up to three numbers (slots and a seat, counted from 0).

    Only the actions the game lists (``RatATatCat.action_space()``), with every field an
    ``int``, are actions of the game; any other ``Act`` is refused as :class:`InvalidNotation`.
    """

    kind: int
    a: int = 0
    p: int = 0
    b: int = 0

    def __str__(self) -> str:
        if canonical(self) is None:
            return repr(self)
        return _text(self)


def _text(action: Act) -> str:
    k = action.kind
    if k == K_REPLACE:
        return f"replace {action.a + 1}"
    if k == K_PEEK:
        return f"peek {action.a + 1}"
    if k == K_SWAP:
        return f"swap {action.a + 1} {action.p + 1}:{action.b + 1}"
    return _SIMPLE_TEXT[k]


_SIMPLE_TEXT = {
    K_DRAW: "draw",
    K_TAKE: "take",
    K_DISCARD: "discard",
    K_NOSWAP: "noswap",
    K_KNOCK: "knock",
    K_END: "end",
}
MAX_PLAYERS = 6
DRAW = Act(K_DRAW)
TAKE = Act(K_TAKE)
DISCARD = Act(K_DISCARD)
NOSWAP = Act(K_NOSWAP)
KNOCK = Act(K_KNOCK)
END = Act(K_END)
REPLACE = tuple(Act(K_REPLACE, i) for i in range(SLOTS))
PEEKS = tuple(Act(K_PEEK, i) for i in range(SLOTS))
SWAPS = {
    (a, p, b): Act(K_SWAP, a, p, b)
    for a in range(SLOTS)
    for p in range(MAX_PLAYERS)
    for b in range(SLOTS)
}
_ALL_ACTIONS: dict[Act, Act] = {
    a: a for a in (DRAW, TAKE, DISCARD, NOSWAP, KNOCK, END, *REPLACE, *PEEKS, *SWAPS.values())
}
_ACTION_BY_TEXT: dict[str, Act] = {_text(a): a for a in _ALL_ACTIONS}
_CANONICAL_IDS = frozenset(id(a) for a in _ALL_ACTIONS)
ACTION_FORMS = (
    "draw, take, replace N, discard, peek N, swap N P:M, noswap, knock, end "
    "(N and M are slots 1-4, P a seat number)"
)


def canonical(action: object) -> Act | None:
    """The game's own action equal to ``action``, or None if ``action`` is not one of them with
    every field an ``int`` (``True`` is not ``1`` and ``1.0`` is not ``1`` here)."""
    if id(action) in _CANONICAL_IDS:  # one of the game's own objects (they live for ever)
        return action  # type: ignore[return-value]
    if action.__class__ is not Act:
        return None
    # Fields of any type (a compiled build would otherwise convert them to the declared ones).
    fields: tuple[object, object, object, object] = action
    k, a, p, b = fields
    if k.__class__ is not int or a.__class__ is not int:
        return None
    if p.__class__ is not int or b.__class__ is not int:
        return None
    return _ALL_ACTIONS.get(action)


# --- the phases of a turn -------------------------------------------------------------------------

# The phases of a turn (constants the compiled build inlines).
START: Final = 0
HOLD: Final = 1
TAKEN: Final = 2
PEEKING: Final = 3
SWAPPING: Final = 4
MUST_DRAW: Final = 5
KNOCKING: Final = 6
OVER: Final = 7
PHASE_NAMES = ("start", "holding", "taken", "peek", "swap", "draw2", "knock", "over")


def parse(text: object, players: int) -> Act:
    """The action written as ``text`` at a table of ``players``, or :class:`InvalidNotation`
    naming the actions."""
    if not isinstance(text, str):
        raise InvalidNotation(f"an action is written as text ({ACTION_FORMS}), not {text!r}")
    key = " ".join(text.split()).lower()
    action = _ACTION_BY_TEXT.get(key)
    if action is None:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise InvalidNotation(f"{shown!r} is not an action; the actions are {ACTION_FORMS}")
    if action.kind == K_SWAP and action.p >= players:
        raise InvalidNotation(no_seat(action.p, players))
    return action


def no_seat(p: int, players: int) -> str:
    """Why a swap with seat ``p`` (from 0) is no action at a table of ``players``."""
    return f"there is no seat {p + 1} in a {players}-player game; seats are 1 to {players}"


def own_ids(players: int) -> frozenset[int]:
    """The ids of the game's own action objects that are actions at a table of ``players``."""
    return frozenset(id(a) for a in _ALL_ACTIONS if a.kind != K_SWAP or a.p < players)


def not_an_action(action: object, players: int) -> str:
    """Why ``action`` (one that is not the game's own action at a table of ``players``) is not
    an action of the game."""
    if action.__class__ is Act:
        act = canonical(action)
        if act is not None:  # a swap with a seat the game does not have
            return no_seat(act.p, players)
        return (
            f"{action!r} is not an action of the game: an Act's kind and numbers are whole "
            f"numbers (int) naming one of {ACTION_FORMS}, counted from 0"
        )
    return (
        f"{action!r} is not a Rat-a-Tat Cat action; the actions are {ACTION_FORMS} "
        "(as text, or as an Act)"
    )


def action_space(players: int) -> list[Act]:
    """Every action a table of ``players`` can ever offer."""
    out = [DRAW, TAKE, *REPLACE, DISCARD, *PEEKS, NOSWAP, KNOCK, END]
    out.extend(a for (_, p, _), a in SWAPS.items() if p < players)
    return out
