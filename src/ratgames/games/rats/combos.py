# ratgames: compiled
"""The combinations of Rats a hand allows: every set and run of a hand, and the tables, keyed by
parts of a hand's bit mask (bit ``c`` for card ``c``), that move generation reads its plays from.

Cards are the standard deck ints of :mod:`ratgames.cards` (``rank * 4 + suit``, 2 lowest and ace
highest; clubs < diamonds < hearts < spades) with the jokers 52 and 53; the plays are
:class:`~ratgames.games.rats.action.RatsAction`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from ratgames.cards import make_card, rank_of, suit_of

from .action import (
    DISCARD1,
    JOKERS,
    RANK,
    RUN,
    SET,
    SINGLES,
    SUIT,
    RatsAction,
    Table,
    cached_table,
    make_action,
    seq_rank,
)

# --- hands as bit masks -----------------------------------------------------------------------

BITS: Final = tuple(1 << c for c in range(54))
"""``BITS[card]``: the card's bit.  The sum of the bits of distinct cards is their mask, and
``sum(map(BITS.__getitem__, cards))`` adds them up in C (on the hot path only, where the cards
are known to be distinct; :func:`mask_of` takes any cards)."""


def _lowest_card(mask: int) -> int:
    """The lowest card of a non-empty bit mask."""
    return (mask & -mask).bit_length() - 1


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """The bit mask of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_BYTE_CARDS: Final = tuple(
    tuple(tuple(base * 8 + i for i in range(8) if b >> i & 1) for b in range(256))
    for base in range(7)
)


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, in increasing order."""
    out: list[int] = []
    table = _BYTE_CARDS
    i = 0
    while mask:
        b = mask & 255
        if b:
            out += table[i][b]
        mask >>= 8
        i += 1
    return out


def split_hand(hand: tuple[int, ...]) -> tuple[list[int], list[int], tuple[int, ...]]:
    """Per rank, the bit mask of suits held; per suit, the bit mask of sequence ranks held;
    the jokers."""
    by_rank = [0] * 13
    by_suit = [0, 0, 0, 0]
    jokers: tuple[int, ...] = ()
    for c in hand:
        if c >= 52:
            jokers = (*jokers, c)
            continue
        r = RANK[c]
        s = SUIT[c]
        by_rank[r] |= 1 << s
        by_suit[s] |= 1 << (0 if r == 12 else r + 1)
    return by_rank, by_suit, jokers


# --- enumeration ----------------------------------------------------------------------------


def enum_sets(
    hand: tuple[int, ...], size: int | None, above: int
) -> list[tuple[int, tuple[int, ...]]]:
    """Every set (2-4 cards, or exactly ``size``) in ``hand`` of rank above ``above``,
    as ``(rank, cards)``, each card combination once."""
    jokers = [c for c in hand if c >= 52]
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if c < 52 and rank_of(c) > above:
            by_rank.setdefault(rank_of(c), []).append(c)
    out: list[tuple[int, tuple[int, ...]]] = []
    nj = len(jokers)
    sizes = (size,) if size is not None else (2, 3, 4)
    for rank, nat in by_rank.items():
        nn = len(nat)
        if nn == 1 and not nj:
            continue
        for n in sizes:
            for m in range(max(1, n - nj), min(n, nn) + 1):
                nat_combos = combinations(nat, m) if m < nn else (tuple(nat),)
                k = n - m
                for nc in nat_combos:
                    if k == 0:
                        out.append((rank, nc))
                    else:
                        for jc in combinations(jokers, k):
                            out.append((rank, nc + jc))
    return out


def enum_runs(
    hand: tuple[int, ...], length: int | None, above: int
) -> list[tuple[int, tuple[int, ...]]]:
    """Every run in ``hand`` (of exactly ``length`` cards if given) worth more than ``above``,
    as ``(value, cards)`` with the cards in canonical order, each card combination once."""
    jokers = tuple(c for c in hand if c >= 52)
    nj = len(jokers)
    suits: list[list[tuple[int, int]]] = [[], [], [], []]
    for c in hand:
        if c < 52:
            suits[suit_of(c)].append((seq_rank(c), c))
    out: list[tuple[int, tuple[int, ...]]] = []
    for suit in range(4):
        held = suits[suit]
        if len(held) + nj < 3:
            continue
        held.sort()
        np_ = len(held)
        for i in range(np_):
            lo = held[i][0]
            for j in range(i, np_):
                span = held[j][0] - lo + 1
                missing = span - (j - i + 1)
                if missing > nj:
                    break
                interior = held[i + 1 : j]
                for d in range(nj - missing + 1):
                    if d > len(interior):
                        break
                    drops = combinations(interior, d) if d else ((),)
                    for dropped in drops:
                        nat = [held[i][1]]
                        nat.extend(c for q, c in interior if (q, c) not in dropped)
                        if j > i:
                            nat.append(held[j][1])
                        gaps = missing + d
                        for k in range(gaps, nj + 1):
                            n = len(nat) + k
                            if n < 3 or n > 13 or (length is not None and n != length):
                                continue
                            value = min(12, lo + n - 1) * 4 + suit
                            if value <= above:
                                continue
                            if k == 0:
                                out.append((value, tuple(nat)))
                            else:
                                for jc in combinations(jokers, k):
                                    out.append((value, (*nat, *jc)))
    return out


# --- cached tables: the combinations one rank (or one suit) of a hand allows ------------------
#
# Every cache below is a bounded :class:`Table`.  The limits hold what long simulations keep
# asking for (hands with jokers make the most distinct keys) while keeping memory to a few MB.

SetKey = tuple[int, int, tuple[int, ...]]


def _make_sets(key: SetKey) -> tuple[tuple[int, RatsAction], ...]:
    rank, suits, jokers = key
    hand = tuple(rank * 4 + s for s in range(4) if suits >> s & 1) + jokers
    return tuple((len(cards), make_action(SET, cards)) for _, cards in enum_sets(hand, None, -1))


_SETS: Table[SetKey, tuple[tuple[int, RatsAction], ...]] = cached_table(_make_sets, 1024)


def sets_of_rank(
    rank: int, suits: int, jokers: tuple[int, ...]
) -> tuple[tuple[int, RatsAction], ...]:
    """The sets (as ``(size, action)``) made of the cards of ``rank`` whose suits are in the
    bit mask ``suits``, with any of ``jokers``."""
    return _SETS[rank, suits, jokers]


def _run_ranks(ranks: int, jokers: tuple[int, ...]) -> int:
    """The ranks of ``ranks`` that can be in a run.  Without jokers only cards inside three or
    more in a row can: keying the tables on those alone keeps them small (a hand's stray cards
    make no new entries)."""
    if jokers:
        return ranks
    starts = ranks & (ranks >> 1) & (ranks >> 2)
    return ranks & (starts | (starts << 1) | (starts << 2))


def runs_of_suit(
    suit: int, ranks: int, jokers: tuple[int, ...], length: int | None = None
) -> tuple[tuple[int, RatsAction], ...]:
    """The runs (as ``(value, action)``) made of the cards of ``suit`` whose sequence ranks are
    in the bit mask ``ranks`` (ace = bit 0 ... king = bit 12), with any of ``jokers``, of
    ``length`` cards only if given.  (Not cached: the tables below keep what play asks for.)"""
    ranks = _run_ranks(ranks, jokers)
    hand = tuple(((q - 1) if q else 12) * 4 + suit for q in range(13) if ranks >> q & 1)
    return tuple(
        (value, make_action(RUN, cards)) for value, cards in enum_runs(hand + jokers, length, -1)
    )


def top_run(ranks: int, jokers: int, length: int) -> int:
    """The highest top card (sequence rank: ace 0 ... king 12) of the runs of ``length`` cards
    that the cards of one suit whose sequence ranks are in the bit mask ``ranks`` make with
    ``jokers`` jokers, taking each run's best reading; -1 if they make none."""
    if length < 3:
        return -1
    need = max(1, length - jokers)
    for top in range(12, length - 2, -1):
        window = ((1 << length) - 1) << (top - length + 1)
        if (ranks & window).bit_count() >= need:
            return top
    return -1


def set_leads(rank: int, suits: int, jokers: tuple[int, ...]) -> tuple[RatsAction, ...]:
    """The actions of :func:`sets_of_rank` alone (for listing leads without unpacking)."""
    return tuple(a for _, a in sets_of_rank(rank, suits, jokers))


def run_leads(suit: int, ranks: int, jokers: tuple[int, ...]) -> tuple[RatsAction, ...]:
    """The actions of :func:`runs_of_suit` alone (for listing leads without unpacking)."""
    return tuple(a for _, a in runs_of_suit(suit, ranks, jokers))


# --- tables keyed by part of a hand's bit mask ------------------------------------------------
#
# A hand is also kept as a bit mask (bit ``c`` for card ``c``).  Masking it with one of the keys
# below gives an int that names both the part of the hand a table entry is about (its bits say
# which ranks or which suit) and the jokers held, so a single dict lookup finds the plays that
# part allows.  Every table is filled on first use.

JOKER_BITS: Final = 3 << 52
NATURAL_BITS: Final = (1 << 52) - 1


def _jokers_of(mask: int) -> tuple[int, ...]:
    return tuple(c for c in JOKERS if mask >> c & 1)


def _singles_and_sets(key: int) -> tuple[tuple[RatsAction, ...], tuple[RatsAction, ...]]:
    """For a hand's cards of two ranks (and its jokers): their singles, and the set leads of
    those ranks (in the order of :func:`set_leads`, rank by rank)."""
    jokers = _jokers_of(key)
    singles = tuple(SINGLES[c] for c in range(52) if key >> c & 1)
    sets: list[RatsAction] = []
    for rank in range(13):
        suits = key >> (rank * 4) & 15
        if suits and (jokers or suits & (suits - 1)):
            sets.extend(set_leads(rank, suits, jokers))
    return singles, tuple(sets)


LEAD_KEYS: Final = tuple(((255 << (8 * i)) | JOKER_BITS) for i in range(7))
"""Masks of the two-rank parts of a hand (ranks 2-3, 4-5, ..., K-A), with the jokers."""
LEAD_PARTS: Final[Table[int, tuple[tuple[RatsAction, ...], tuple[RatsAction, ...]]]] = cached_table(
    _singles_and_sets, 8192
)
"""``LEAD_PARTS[hand_mask & LEAD_KEYS[i]]``: the singles and set leads of part ``i``."""


_BELOW_ACES: Final = (1 << 48) - 1


def run_cards(mask: int) -> int:
    """The natural cards of the hand with bit mask ``mask`` that can be in a run, as a mask in
    sequence order (bit ``seq_rank * 4 + suit``, so the ace comes first) with the hand's jokers.
    Without jokers only cards inside three or more in a row of one suit can be in a run (as in
    :func:`runs_of_suit`); the tables keyed by this mask stay small that way."""
    jokers = mask & JOKER_BITS
    seq = (mask & _BELOW_ACES) << 4 | mask >> 48 & 15
    if not jokers:
        starts = seq & seq >> 4 & seq >> 8
        return seq & (starts | starts << 4 | starts << 8)
    return seq | jokers


SEQ_SUIT_KEYS: Final = tuple(
    sum(1 << (q * 4 + suit) for q in range(13)) | JOKER_BITS for suit in range(4)
)
"""Masks of one suit (and the jokers) of a :func:`run_cards` mask."""


def _suit_ranks(key: int) -> tuple[int, int]:
    """The suit of the natural cards of a one-suit :func:`run_cards` key (-1 if none) and the
    bit mask of their sequence ranks."""
    naturals = key & NATURAL_BITS
    if not naturals:
        return -1, 0
    suit = suit_of(_lowest_card(naturals))
    ranks = 0
    for q in range(13):
        if naturals >> (q * 4 + suit) & 1:
            ranks |= 1 << q
    return suit, ranks


def _suit_run_leads(key: int) -> tuple[RatsAction, ...]:
    suit, ranks = _suit_ranks(key)
    return run_leads(suit, ranks, _jokers_of(key)) if suit >= 0 else ()


RUN_LEADS: Final[Table[int, tuple[RatsAction, ...]]] = cached_table(_suit_run_leads, 4096)
"""``RUN_LEADS[run_cards(hand_mask) & SEQ_SUIT_KEYS[suit]]``: the runs of that suit, as
:func:`run_leads`."""


def leads_of_mask(mask: int) -> list[RatsAction]:
    """Every lead of the hand with bit mask ``mask``, each once: singles, sets by rank, then
    runs by suit (a hand of jokers alone leads a joker)."""
    if not mask & NATURAL_BITS:
        return [SINGLES[c] for c in JOKERS if mask >> c & 1]
    parts = LEAD_PARTS
    k = LEAD_KEYS
    p0 = parts[mask & k[0]]
    p1 = parts[mask & k[1]]
    p2 = parts[mask & k[2]]
    p3 = parts[mask & k[3]]
    p4 = parts[mask & k[4]]
    p5 = parts[mask & k[5]]
    p6 = parts[mask & k[6]]
    out = [
        *p0[0], *p1[0], *p2[0], *p3[0], *p4[0], *p5[0], *p6[0],
        *p0[1], *p1[1], *p2[1], *p3[1], *p4[1], *p5[1], *p6[1],
    ]  # fmt: skip
    # run_cards(mask), inline: this is the hottest path of random play.
    jokers = mask & JOKER_BITS
    seq = (mask & _BELOW_ACES) << 4 | mask >> 48 & 15
    if jokers:
        seq |= jokers
    else:
        starts = seq & seq >> 4 & seq >> 8
        seq &= starts | starts << 4 | starts << 8
        if not seq:
            return out
    runs = RUN_LEADS
    s = SEQ_SUIT_KEYS
    out += runs[seq & s[0]]
    out += runs[seq & s[1]]
    out += runs[seq & s[2]]
    out += runs[seq & s[3]]
    return out


def _set_follows(size: int) -> Table[int, tuple[RatsAction, ...]]:
    def make(key: int) -> tuple[RatsAction, ...]:
        naturals = key & NATURAL_BITS
        if not naturals:
            return ()
        rank = rank_of(_lowest_card(naturals))
        suits = naturals >> (rank * 4)
        jokers = _jokers_of(key)
        if not (jokers or suits & (suits - 1)):
            return ()
        return tuple(a for n, a in sets_of_rank(rank, suits, jokers) if n == size)

    return cached_table(make, 1024)


RANK_KEYS: Final = tuple((15 << (rank * 4)) | JOKER_BITS for rank in range(13))
"""Masks of the cards of each rank of a hand, with the jokers."""
SET_FOLLOWS: Final = {size: _set_follows(size) for size in (2, 3, 4)}
"""``SET_FOLLOWS[size][hand_mask & RANK_KEYS[rank]]``: the sets of ``size`` cards of that rank."""


def _run_follows(length: int) -> Table[int, tuple[tuple[int, RatsAction], ...]]:
    def make(key: int) -> tuple[tuple[int, RatsAction], ...]:
        suit, ranks = _suit_ranks(key)
        if suit < 0:
            return ()
        return runs_of_suit(suit, ranks, _jokers_of(key), length)

    return cached_table(make, 1024)


RUN_FOLLOWS: Final = {length: _run_follows(length) for length in range(3, 14)}
"""``RUN_FOLLOWS[length][run_cards(hand_mask) & SEQ_SUIT_KEYS[suit]]``: the runs of ``length``
cards of that suit, as ``(value, action)`` in the order of :func:`runs_of_suit`."""

# --- who beats what: singles --------------------------------------------------------------------

_SINGLES_ABOVE: Final = tuple(
    tuple(sum(1 << make_card(rank, suit) for rank in range(best + 1, 13)) for best in range(13))
    for suit in range(4)
)
"""``_SINGLES_ABOVE[suit][rank]``: the bit mask of the cards of ``suit`` above ``rank``."""


def beating_singles(suit_led: int, best: int) -> int:
    """The rule of singles, its one home: a single beats only a higher card of the suit led.

    The bit mask of the cards whose single beats the best single so far (of rank ``best``) in a
    trick whose suit led is ``suit_led``: the cards of that suit above ``best``.  While only
    jokers have been played (``suit_led`` -1) every natural card beats them, and the first one
    names the suit led; a joker alone beats nothing."""
    if suit_led < 0:
        return NATURAL_BITS
    return _SINGLES_ABOVE[suit_led][best]


BEAT_SINGLES: Final[Table[int, tuple[RatsAction, ...]]] = cached_table(
    lambda key: tuple(SINGLES[c] for c in range(52) if key >> c & 1), 4096
)
"""``BEAT_SINGLES[mask]``: the singles of the natural cards of ``mask``, in card order."""

_DISCARD_BYTES: Final = tuple(
    tuple(
        tuple(DISCARD1[base + i] for i in range(8) if b >> i & 1 and base + i < 54)
        for b in range(256)
    )
    for base in range(0, 56, 8)
)


def discards_of_mask(mask: int, before: tuple[RatsAction, ...] = ()) -> list[RatsAction]:
    """The actions ``before``, then one discard step for each card of ``mask`` (jokers
    included) in card order."""
    t = _DISCARD_BYTES
    return [
        *before, *t[0][mask & 255], *t[1][mask >> 8 & 255], *t[2][mask >> 16 & 255],
        *t[3][mask >> 24 & 255], *t[4][mask >> 32 & 255], *t[5][mask >> 40 & 255],
        *t[6][mask >> 48],
    ]  # fmt: skip
