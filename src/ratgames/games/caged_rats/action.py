# ratgames: compiled
"""Caged Rats' actions: the action type :class:`Act`, one shared object per action, its
notation (``cage 5H 9D``, ``offer QH``, ``bid 7D``, ``top 9S``, ``throw 2C``, ``feed 1``), the
parser of that notation, and which objects are actions of the game at all
(:func:`canonical_action`, and :func:`action_problem` saying why not).
"""

from __future__ import annotations

from typing import Final, NamedTuple, cast

from ratgames import cards as deckmod
from ratgames.core.errors import IllegalAction, InvalidNotation
from ratgames.core.snapshots import short as _short

from .deck import COLOUR_CARDS, OWNER, TEXT


class Act(NamedTuple):
    """An action: its ``kind``, a card (the rat number 1 or 2 for ``feed``), and for ``cage``
    the second card (higher than the first; -1 for every other kind).

    Only an ``Act`` whose fields have exactly these types (a ``str`` and two ``int``, never a bool
    or a float) and values is an action of the game; :func:`canonical_action` finds it.
    """

    kind: str
    card: int
    card2: int = -1

    def __str__(self) -> str:
        if canonical_action(self) is None:
            return repr(self)
        if self.kind == "feed":
            return f"feed {self.card}"
        if self.kind == "cage":
            return f"cage {TEXT[self.card]} {TEXT[self.card2]}"
        return f"{self.kind} {TEXT[self.card]}"


OFFER_ACT: Final[tuple[Act, ...]] = tuple(Act("offer", c) for c in range(52))
BID_ACT: Final[tuple[Act, ...]] = tuple(Act("bid", c) for c in range(52))
TOP_ACT: Final[tuple[Act, ...]] = tuple(Act("top", c) for c in range(52))
THROW_ACT: Final[tuple[Act, ...]] = tuple(Act("throw", c) for c in range(52))
FEED_ACT: Final[tuple[Act, Act]] = (Act("feed", 1), Act("feed", 2))
CAGE_ACT: Final[dict[tuple[int, int], Act]] = {
    (a, b): Act("cage", a, b) for colour in COLOUR_CARDS for a in colour for b in colour if a < b
}
SINGLE_KINDS = {"offer": OFFER_ACT, "bid": BID_ACT, "top": TOP_ACT, "throw": THROW_ACT}
_CANONICAL: Final[dict[Act, Act]] = {
    a: a for a in (*CAGE_ACT.values(), *OFFER_ACT, *BID_ACT, *TOP_ACT, *THROW_ACT, *FEED_ACT)
}
"""Every action of the game, as its own shared object (found by equality)."""
KINDS = ("cage", "offer", "bid", "top", "throw", "feed")
NOTATION_HELP = (
    "write 'cage 5H 9D', 'offer QH', 'bid 7D', 'top 9S', 'throw 2C' or 'feed 1' / 'feed 2'"
)


def canonical_action(action: object) -> Act | None:
    """The game's own action equal to ``action`` field by field with the same types, or None if
    ``action`` is not an action of Caged Rats at all (``Act("offer", True)`` is not ``offer 2D``).

    >>> canonical_action(Act("cage", 2, 6)) is CAGE_ACT[2, 6]
    True
    >>> canonical_action(Act("cage", 6, 2)), canonical_action(Act("bid", 1.0))
    (None, None)
    """
    if type(action) is not Act:
        return None
    try:
        found = _CANONICAL.get(action)  # equal: True and 1.0 pass for 1 here, not below
    except TypeError:  # a field that cannot be hashed
        return None
    if found is None or found is action:
        return found
    # Fields of any type (a compiled build would otherwise convert them to the declared ones).
    fields: tuple[object, object, object] = action
    kind, card, card2 = fields
    if type(kind) is str and type(card) is int and type(card2) is int:
        return found
    return None


def action_problem(action: object) -> str:
    """Why ``action`` is not a Caged Rats action at all (for one :func:`canonical_action`
    refuses), naming what is allowed."""
    if type(action) is not Act or len(action) != 3:
        return f"{_short(action)} is not a Caged Rats action (an Act); {NOTATION_HELP}"
    # The fields as they are, of any type (a compiled build would convert them otherwise).
    fields = cast("tuple[object, object, object]", action)
    if type(fields[0]) is not str or fields[0] not in KINDS:
        return f"{_short(fields[0])} is not a kind of action; the kinds are {', '.join(KINDS)}"
    for name, value in (("card", fields[1]), ("card2", fields[2])):
        if type(value) is not int:
            what = "the rat 1 or 2" if fields[0] == "feed" and name == "card" else "a whole number"
            shown = _short(value)
            return (
                f"{fields[0]}: {name} must be {what} (an int, not a bool or a float), not {shown}"
            )
    kind, card, card2 = action  # every field has its type now
    if kind == "feed":
        if card2 != -1:
            return f"feed takes one number, the rat 1 or 2 (card2 stays -1), not {card2}"
        return f"feed names rat 1 or 2, not {card}"
    for value in (card, card2) if kind == "cage" else (card,):
        if not 0 <= value < 52:
            return f"{kind}: a card is a number from 0 to 51, not {value}"
    if kind != "cage":
        return f"{kind} takes one card (card2 stays -1), not a second card {card2}"
    if card == card2:
        return f"a cage names two different cards, not {TEXT[card]} twice"
    if OWNER[card] != OWNER[card2]:
        return (
            f"cage {TEXT[card]} {TEXT[card2]}: both rats come from one player's cards "
            "(both red or both black)"
        )
    return (
        f"a cage names its lower card first: cage {TEXT[card2]} {TEXT[card]}, "
        f"not cage {TEXT[card]} {TEXT[card2]}"
    )


def card_in_notation(text: str, action: str) -> int:
    """A card of the 52 written in an action's text, else :class:`InvalidNotation`."""
    try:
        card = deckmod.parse_card(text)
    except IllegalAction as exc:
        raise InvalidNotation(f"{action!r}: {exc}") from None
    if card >= 52:
        raise InvalidNotation(f"{action!r}: Caged Rats is played without jokers")
    return card


def parse_action(text: object) -> Act:
    """The action written as ``text``.  A cage may name its cards in either order (it is written
    lower card first); text that is no action raises :class:`InvalidNotation`."""
    if not isinstance(text, str):
        raise InvalidNotation(f"an action is text, not {_short(text)}; {NOTATION_HELP}")
    words = text.strip().lower().split()
    if not words:
        raise InvalidNotation(f"empty action; {NOTATION_HELP}")
    kind = words[0]
    if kind == "feed":
        if len(words) == 2 and words[1] in ("1", "2"):
            return FEED_ACT[int(words[1]) - 1]
        raise InvalidNotation(f"{text!r}: choose the rat with 'feed 1' or 'feed 2'")
    if kind == "cage":
        if len(words) != 3:
            raise InvalidNotation(f"{text!r}: cage two cards, e.g. 'cage 5H 9D'")
        a, b = card_in_notation(words[1], text), card_in_notation(words[2], text)
        if a == b:
            raise InvalidNotation(f"{text!r}: cage two different cards")
        act = CAGE_ACT.get((a, b) if a < b else (b, a))
        if act is None:
            raise InvalidNotation(
                f"{text!r}: both rats come from one player's cards (both red or both black)"
            )
        return act
    table = SINGLE_KINDS.get(kind)
    if table is None:
        raise InvalidNotation(f"{text!r} is not an action; {NOTATION_HELP}")
    if len(words) != 2:
        raise InvalidNotation(f"{text!r}: {kind} takes one card, e.g. '{kind} 9S'")
    return table[card_in_notation(words[1], text)]
