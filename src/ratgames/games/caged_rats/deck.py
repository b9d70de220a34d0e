# ratgames: compiled
"""The cards of Caged Rats and the fixed figures of its play: each colour's 26 cards, each card's
rank, suit, owner, text and rat value (as tables read at every move), the sizes of a deal and the
phases of a lead.

Cards are the standard deck ints of :mod:`ratgames.cards`; seat 0 is red, seat 1 black.
"""

from __future__ import annotations

from typing import Final

from ratgames import cards as deckmod

RED: Final = 0
BLACK: Final = 1
SEAT_NAMES = ("Red", "Black")
COLOUR_KEYS = ("red", "black")
RANK: Final[tuple[int, ...]] = tuple(deckmod.rank_of(c) for c in range(52))
"""Each card's rank (:func:`ratgames.cards.rank_of`; aces high), as a table the play-outs read
fast: ``RANK[card]``."""
SUIT: Final[tuple[int, ...]] = tuple(deckmod.suit_of(c) for c in range(52))
"""Each card's suit (:func:`ratgames.cards.suit_of`), as a table the play-outs read fast:
``SUIT[card]``."""
RED_SUITS: Final = (1, 2)
"""Diamonds and hearts."""
RED_CARDS: Final[tuple[int, ...]] = tuple(c for c in range(52) if SUIT[c] in RED_SUITS)
BLACK_CARDS: Final[tuple[int, ...]] = tuple(c for c in range(52) if SUIT[c] not in RED_SUITS)
COLOUR_CARDS = (RED_CARDS, BLACK_CARDS)
OWNER: tuple[int, ...] = tuple(RED if SUIT[c] in RED_SUITS else BLACK for c in range(52))
"""The seat whose cards each card is one of (red 0, black 1)."""
TEXT: Final[tuple[str, ...]] = tuple(deckmod.card_text(c) for c in range(52))
"""Each card's notation (``"10H"``)."""
CARD_OF_TEXT: dict[str, int] = {text: card for card, text in enumerate(TEXT)}
"""The card of each notation in :data:`TEXT`."""

HAND_SIZE: Final = 8
STOCK_SIZE: Final = 18
LEADS_PER_DEAL: Final = 16
REFILL: Final = 3

# The phases (constants the compiled build inlines).
CAGE: Final = 0
OFFER: Final = 1
BID: Final = 2
RESPOND: Final = 3
FEED: Final = 4
OVER: Final = 5
PHASE_NAMES = ("cage", "offer", "bid", "respond", "feed", "over")


def rat_value(card: int) -> int:
    """Captures that satisfy a rat: pip value, ace 1, jack/queen/king 10.

    >>> rat_value(deckmod.parse_card("5H")), rat_value(deckmod.parse_card("AS"))
    (5, 1)
    >>> rat_value(deckmod.parse_card("QD"))
    10
    """
    rank = deckmod.rank_of(card)
    if rank == deckmod.ACE:
        return 1
    return min(rank + 2, 10)


RAT_VALUE: Final[tuple[int, ...]] = tuple(rat_value(c) for c in range(52))
"""Each card's :func:`rat_value`."""
