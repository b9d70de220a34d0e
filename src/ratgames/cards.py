# ratgames: compiled
"""The standard 52-card deck (plus jokers) as small ints, with notation.

A card is ``rank * 4 + suit``: ranks 2..A are 0..12, suits clubs, diamonds, hearts, spades are
0..3 (so the suit order C < D < H < S is the integer order).  Jokers are 52 (the black joker) and
53 (the red joker).  Notation: rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` (``T`` is read as 10)
then the suit letter; ``BJ`` and ``RJ`` for the jokers.

>>> parse_card("10H"), card_text(parse_card("qs")), card_text(RED_JOKER)
(34, 'QS', 'RJ')
>>> rank_of(parse_card("AS")), suit_of(parse_card("AS")), pretty(parse_card("AS"))
(12, 3, 'A♠')
"""

from __future__ import annotations

from .core.errors import IllegalAction

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
BLACK_JOKER = 52
RED_JOKER = 53
JACK, QUEEN, KING, ACE = 9, 10, 11, 12
TEN = 8

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {"T": 8, "1": 12}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)} | {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}


def standard_deck(jokers: int = 0) -> list[int]:
    """The 52 cards in order, plus ``jokers`` (0-2) jokers."""
    return list(range(52)) + [BLACK_JOKER, RED_JOKER][:jokers]


def rank_of(card: int) -> int:
    """The rank index, 0 (two) to 12 (ace)."""
    return card >> 2


def suit_of(card: int) -> int:
    """The suit index, 0 (clubs) to 3 (spades)."""
    return card & 3


def is_joker(card: int) -> bool:
    """True for the two jokers."""
    return card >= 52


def make_card(rank: int, suit: int) -> int:
    """The card of a rank index and suit index."""
    return rank * 4 + suit


def card_text(card: int) -> str:
    """The notation of a card (``"10H"``, ``"AS"``, ``"RJ"``)."""
    if card == BLACK_JOKER:
        return "BJ"
    if card == RED_JOKER:
        return "RJ"
    if not 0 <= card < 52:
        raise ValueError(f"no such card: {card!r}")
    return RANKS[card >> 2] + SUITS[card & 3]


def pretty(card: int) -> str:
    """The card with its suit symbol (``"10♥"``), for display."""
    if card >= 52:
        return "Joker" if card == RED_JOKER else "joker"
    return RANKS[card >> 2] + SUIT_SYMBOLS[card & 3]


def parse_card(text: object) -> int:
    """The card written as ``text`` (case and a 10 written ``T`` are forgiven)."""
    if not isinstance(text, str):
        raise IllegalAction(f"a card is written as text such as '10H' or 'QS', not {text!r}")
    t = text.strip().upper()
    if t in ("BJ", "RJ"):
        return BLACK_JOKER if t == "BJ" else RED_JOKER
    rank, suit = _RANK_INDEX.get(t[:-1]), _SUIT_INDEX.get(t[-1:]) if t else None
    if rank is None or suit is None:
        raise IllegalAction(
            f"{text!r} is not a card; write the rank (2-10, J, Q, K, A) then the suit "
            "(C, D, H, S), e.g. '10H' or 'QS', or BJ/RJ for a joker"
        )
    return rank * 4 + suit
