# ratgames: compiled
"""The cards of Caged Rats and the fixed figures of its play: each colour's 26 cards, each card's
rank, suit, owner, text and rat value (as tables read at every move), the sizes of a deal, the
phases of a lead, and the notation of an explicit deal (:func:`read_deal`).

Cards are the standard deck ints of :mod:`ratgames.cards`; seat 0 is red, seat 1 black.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from ratgames import cards as deckmod
from ratgames.core.errors import DealError, IllegalAction
from ratgames.core.snapshots import short as _short

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


def read_deal(deal: Mapping[str, Any]) -> tuple[int, list[int], list[int]]:
    """(dealer, red cards, black cards: hand then stock top first) of an explicit deal, or
    :class:`DealError` naming what is wrong with it."""
    fmt = (
        'a deal is {"dealer": "red" or "black", "red": {"hand": [8 cards], "stock": [18 cards]}, '
        '"black": {...}}'
    )
    if not isinstance(deal, Mapping):
        raise DealError(f"{fmt}, not {_short(deal)}")
    keys = set(COLOUR_KEYS) | {"dealer"}
    unknown = [k for k in cast("Mapping[object, Any]", deal) if k not in keys]
    if unknown:
        raise DealError(f"the deal has unknown keys {_short(unknown)}; {fmt}")
    missing = [k for k in ("dealer", *COLOUR_KEYS) if k not in deal]
    if missing:
        raise DealError(f"the deal lacks {', '.join(repr(k) for k in missing)}; {fmt}")
    dealer = deal["dealer"]
    if not isinstance(dealer, str) or dealer not in COLOUR_KEYS:
        raise DealError(f"the deal's 'dealer' is 'red' or 'black', not {_short(dealer)}")
    halves: list[list[int]] = []
    for seat, key in enumerate(COLOUR_KEYS):
        half = deal[key]
        if not isinstance(half, Mapping) or set(half) != {"hand", "stock"}:
            raise DealError(
                f"the deal's {key!r} is an object with 'hand' and 'stock' only, not {_short(half)}"
            )
        order: list[int] = []
        for part, size in (("hand", HAND_SIZE), ("stock", STOCK_SIZE)):
            listed = half[part]
            if not isinstance(listed, list | tuple) or len(listed) != size:
                raise DealError(f"the {key} {part} is a list of {size} cards, not {_short(listed)}")
            for text in listed:
                order.append(card_in_deal(text, seat, f"the {key} {part}"))
        seen: set[int] = set()
        for card in order:
            if card in seen:
                raise DealError(f"{TEXT[card]} is dealt twice in the {key} hand and stock")
            seen.add(card)
        halves.append(order)
    return COLOUR_KEYS.index(dealer), halves[0], halves[1]


def card_in_deal(text: object, seat: int, where: str) -> int:
    """A card of ``seat``'s colour written in a deal, else :class:`DealError`."""
    colour = COLOUR_KEYS[seat]
    if not isinstance(text, str):
        raise DealError(f"{where}: a card is written as text such as '10H', not {_short(text)}")
    try:
        card = deckmod.parse_card(text)
    except IllegalAction as exc:
        raise DealError(f"{where}: {exc}") from None
    if card >= 52 or OWNER[card] != seat:
        suits = "hearts and diamonds" if seat == RED else "clubs and spades"
        raise DealError(f"{where}: {text!r} is not a {colour} card; {colour} holds the {suits}")
    return card
