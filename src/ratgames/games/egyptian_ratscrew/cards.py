# ratgames: compiled
"""The cards of Egyptian Ratscrew as its stacks hold them, and what each card means to the rules.

Cards are the standard deck ints of :mod:`ratgames.cards` (jokers 52 and 53).  A stack entry (a
card in a stack, or burned under the pile) is a card that may carry the flag :data:`KNOWN`:
everybody saw it face up (it came back with a won pile), so the public knowledge of every stack
is kept in the stack itself.  :func:`known` sets the flag, :func:`card_of` reads an entry's card
and :func:`is_known` its flag.

The tables, by card (0..53): :data:`MATCH_RANK` (the rank slaps compare, both jokers sharing
one), :data:`TENS_VALUE` (what a card counts for the ``tens`` slap), :data:`CHANCES` (the chances
a face card gives) and :data:`TEXT` (the notation).
"""

from __future__ import annotations

from typing import Final

from ratgames import cards as _cards

KNOWN: Final = 64
"""The flag of a stack entry whose card everybody knows."""

CARD_BITS: Final = KNOWN - 1
"""A stack entry's card is ``entry & CARD_BITS`` (:func:`card_of`, written out in hot loops)."""


def known(card: int) -> int:
    """``card`` as a stack entry that everybody knows."""
    return card | KNOWN


def card_of(entry: int) -> int:
    """The card of a stack entry (known or not)."""
    return entry & CARD_BITS


def is_known(entry: int) -> bool:
    """True for a stack entry whose card everybody knows."""
    return entry >= KNOWN


JOKER_RANK: Final = 13
"""The rank both jokers share for matching (doubles, sandwich...)."""

MATCH_RANK: Final[tuple[int, ...]] = (
    *(_cards.rank_of(c) for c in range(52)),
    JOKER_RANK,
    JOKER_RANK,
)
"""Each card's rank for the slap rules: ``ratgames.cards.rank_of``, and 13 for a joker."""

NO_VALUE: Final = -100
"""A face card's or a joker's value for ``tens``: no pair with it adds up to 10."""


def _tens_value(card: int) -> int:
    rank = _cards.rank_of(card)
    if rank == _cards.ACE:
        return 1
    return NO_VALUE if rank >= _cards.JACK else rank + 2


TENS_VALUE: Final[tuple[int, ...]] = (*(_tens_value(c) for c in range(52)), NO_VALUE, NO_VALUE)
"""Each card's value for the ``tens`` slap: an ace 1, a number card its number."""


def face_chances(rank: int) -> int:
    """The chances a card of ``rank`` gives the next player to answer it: 1 for a jack, 2 for a
    queen, 3 for a king, 4 for an ace, 0 for any other card."""
    return {_cards.JACK: 1, _cards.QUEEN: 2, _cards.KING: 3, _cards.ACE: 4}.get(rank, 0)


CHANCES: Final[tuple[int, ...]] = (
    *(face_chances(_cards.rank_of(c)) for c in range(52)),
    0,
    0,
)
"""Each card's chances: 1-4 for a face card (it starts a challenge), 0 for any other card."""

TEXT: tuple[str, ...] = tuple(_cards.card_text(c) for c in range(54))
"""Each card's notation."""

SEEN_TEXT: tuple[str | None, ...] = tuple(
    TEXT[card_of(e)] if is_known(e) and card_of(e) < 54 else None for e in range(2 * KNOWN)
)
"""A stack entry's notation if everybody knows its card, else None."""

FACE_MARK: Final = "-JQKA"
"""A card's mark in face-card notation, by the chances it gives (0 for any other card)."""

# A position (who plays next and every stack) as the bytes of its key: each stack's entries
# as their cards (the flag dropped), or, without slaps, as the chances of each card (number
# cards are alike there), the stacks joined by a separator no entry is.
AS_CARDS: Final = bytes(card_of(e) for e in range(256))
"""``bytes(stack).translate(AS_CARDS)``: a stack's cards, the flags dropped."""
AS_FACES: Final = bytes(CHANCES[card_of(e)] if card_of(e) < 54 else 0 for e in range(256))
"""``bytes(stack).translate(AS_FACES)``: a stack's cards as the chances they give."""
STACK_SEP: Final = b"\xff"
"""What separates the stacks in a position's key."""


def king_and_queen(a: int, b: int) -> bool:
    """True if the ranks ``a`` and ``b`` are a king and a queen, in either order."""
    return (a == _cards.KING and b == _cards.QUEEN) or (a == _cards.QUEEN and b == _cards.KING)


def in_a_run(ranks: list[int]) -> bool:
    """True if ``ranks`` (for matching, :data:`MATCH_RANK`) go up or down one by one, an ace high
    (J-Q-K-A) or low (A-2-3-4), with no wrapping round and no joker."""
    if JOKER_RANK in ranks:
        return False
    for low_ace in (False, True):
        rs = [-1 if (low_ace and r == _cards.ACE) else r for r in ranks]
        d = rs[1] - rs[0]
        if d in (1, -1) and all(rs[i + 1] - rs[i] == d for i in range(len(rs) - 1)):
            return True
    return False
