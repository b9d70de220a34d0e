# ratgames: compiled
"""Rat-a-Tat Cat's cards and table.

Cards are ints: the number cards ``0``-``9`` are themselves, ``10`` is PEEK, ``11`` SWAP and
``12`` DRAW2 (the power cards).  Each seat has a row of four slots: slot ``i`` of seat ``s`` is
place ``s * 4 + i`` of the table (:func:`place`), whose seat is :func:`seat_of`.  Where a
card in a slot came from is its *origin* (:func:`kept_origin`, :func:`origin_pool`,
:func:`origin_kept`): dealt, or kept from the draw pile after some reshuffles.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from ratgames.core.errors import RatgamesError

PEEK: Final = 10
SWAP: Final = 11
DRAW2: Final = 12
CARD_TEXT = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "PEEK", "SWAP", "DRAW2")
KINDS: Final = len(CARD_TEXT)
"""How many kinds of card there are (0 to 9 and the three powers): cards are 0 to KINDS - 1."""
CARD_NAME = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Peek", "Swap", "Draw 2")
_CARD_PARSE = {t: i for i, t in enumerate(CARD_TEXT)} | {"DRAW 2": DRAW2, "DRAW_2": DRAW2}
DECK: tuple[int, ...] = tuple(
    sorted([n for n in range(9) for _ in range(4)] + [9] * 9 + [PEEK, SWAP, DRAW2] * 3)
)
SLOTS: Final = 4
MOST_PLAYERS: Final = 6
"""The most players a table seats."""
CARDS_ALLOWED = "0-9, PEEK, SWAP and DRAW2"


POWER: Final = frozenset((PEEK, SWAP, DRAW2))
"""The power cards, which have no value of their own (``card in POWER`` where a call costs)."""


def is_power(card: int) -> bool:
    """True for a power card (PEEK, SWAP, DRAW2), which has no value of its own."""
    return card in POWER


def place(seat: int, slot: int) -> int:
    """The place on the table of ``seat``'s ``slot`` (both from 0)."""
    return seat * SLOTS + slot


def seat_of(where: int) -> int:
    """The seat whose row holds the place ``where``."""
    return where // SLOTS


def kept_origin(pool: int) -> int:
    """The origin of a card kept from the draw pile after ``pool`` reshuffles of the round (a
    number card: a power card drawn is used at once).  A dealt card's origin is 0."""
    return 2 * pool + 1


def origin_pool(origin: int) -> int:
    """The pool a card of ``origin`` came from: 0 for the deal, ``k`` for the ``k``-th
    reshuffle."""
    return origin // 2


def origin_kept(origin: int) -> bool:
    """True if the card of ``origin`` was kept from the draw pile (so it is a number card)."""
    return origin % 2 == 1


def card_text(card: int) -> str:
    """The notation of a card: ``0``..``9``, ``PEEK``, ``SWAP``, ``DRAW2``."""
    if card.__class__ is not int or not 0 <= card <= DRAW2:
        raise RatgamesError(f"no such Rat-a-Tat Cat card: {card!r}")
    return CARD_TEXT[card]


def card_or_none(text: object) -> int | None:
    """The card written as ``text`` (case and spaces forgiven), or None."""
    if isinstance(text, str):
        return _CARD_PARSE.get(" ".join(text.split()).upper())
    return None


def parse_card(text: str) -> int:
    """The card written as ``text`` (case is forgiven; ``DRAW 2`` is read as ``DRAW2``)."""
    card = card_or_none(text)
    if card is None:
        raise RatgamesError(f"{text!r} is not a Rat-a-Tat Cat card; the cards are {CARDS_ALLOWED}")
    return card


def not_the_deck(cards: list[int]) -> str:
    """How ``cards`` differ from the deck (``"5 3 times (not 4), PEEK 4 times (not 3)"``), or
    "" if they are its 54 cards."""
    have = Counter(cards)
    if have == Counter(DECK):
        return ""
    wrong = []
    for card in range(DRAW2 + 1):
        n, want = have[card], DECK.count(card)
        if n != want:
            wrong.append(f"{CARD_TEXT[card]} {n} times (not {want})")
    return ", ".join(wrong)
