"""Cards, combinations and actions of Rats (the trick-taking game).

Cards are the standard deck ints of :mod:`ratgames.cards` (``rank * 4 + suit``, 2 lowest and ace
highest; clubs < diamonds < hearts < spades) with the jokers 52 and 53.

A play is a :class:`RatsAction`: its ``kind`` (single, set, run or discard) and its cards in
canonical order.  The notation is the cards (``7H 7S``, ``5C 6C 7C``); a discard starts with
``discard`` (``discard 2C 9D``); three cards made of one natural card and both jokers can be read
as three of a kind or as a run, so that play names its reading (``5H BJ RJ set``).

>>> str(parse_action("7s 7h")), str(parse_action("discard 9d 2c")), str(parse_action("7c 5c 6c"))
('7H 7S', 'discard 2C 9D', '5C 6C 7C')
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Final, NamedTuple, TypeVar, cast

from ratgames.cards import card_text, parse_card
from ratgames.core.errors import IllegalAction, InvalidNotation

# The kinds of play (constants the compiled build inlines).
SINGLE: Final = 0
SET: Final = 1
RUN: Final = 2
DISCARD: Final = 3
KIND_WORDS = ("single", "set", "run", "discard")
JOKERS = (52, 53)


_TEXT = tuple(card_text(c) for c in range(54))

K = TypeVar("K")
V = TypeVar("V")


def seq_rank(card: int) -> int:
    """A natural card's place in a run: ace 0 (low only), two 1, ..., king 12."""
    r = card >> 2
    return 0 if r == 12 else r + 1


def _canon_key(card: int) -> int:
    return 100 + card if card >= 52 else card


def _run_key(card: int) -> int:
    return 100 + card if card >= 52 else seq_rank(card) * 4 + (card & 3)


class RatsAction(NamedTuple):
    """A play: ``kind`` (SINGLE, SET, RUN or DISCARD) and the cards in canonical order."""

    kind: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        t = _TEXT
        text = " ".join([t[c] for c in self.cards])
        if self.kind == DISCARD:
            return "discard " + text
        if self.kind != SINGLE and _ambiguous(self.cards):
            return f"{text} {KIND_WORDS[self.kind]}"
        return text


class Table(dict[K, V]):
    """A bounded cache: a dict that computes a missing entry with ``make(key)`` and keeps it.

    When it would pass ``limit`` entries it starts afresh, keeping the full generation aside:
    an entry asked for again is taken back from there instead of being made anew, so what play
    keeps asking for survives while the rest is dropped at the next turn.  It never holds more
    than twice ``limit`` entries, and a lookup that hits stays one dict access."""

    __slots__ = ("limit", "make", "older")

    def __init__(self, make: Callable[[K], V], limit: int) -> None:
        super().__init__()
        self.make = make
        self.limit = limit
        self.older: dict[K, V] = {}

    def __missing__(self, key: K) -> V:
        value = self.older.get(key)
        if value is None:
            value = self.make(key)
        if len(self) >= self.limit:
            self.older = dict(self)
            self.clear()
        self[key] = value
        return value

    def entries(self) -> int:
        """How many entries the table holds, both generations counted."""
        return len(self) + len(self.older)


TABLES: list[Table[Any, Any]] = []
"""Every cache of the module, with its limit (for tests and memory checks)."""


def _table(make: Callable[[K], V], limit: int) -> Table[K, V]:
    table = Table(make, limit)
    TABLES.append(table)
    return table


_TEXTS: Table[RatsAction, str] = _table(str, 4096)


def action_text(action: RatsAction) -> str:
    """``str(action)``, remembered (observations write the same plays many times)."""
    return _TEXTS[action]


CARD_INDEX = {card_text(c): c for c in range(54)}
"""Card notation to card, for the canonical texts observations use."""


def _ambiguous(cards: tuple[int, ...]) -> bool:
    """One natural card and both jokers: three of a kind or a run of three."""
    return len(cards) == 3 and cards[1] >= 52


def canonical(kind: int, cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The cards in the order the notation writes them (runs in sequence order, jokers last)."""
    return tuple(sorted(cards, key=_run_key if kind == RUN else _canon_key))


def _same(action: RatsAction) -> RatsAction:
    return action


_INTERN: Table[RatsAction, RatsAction] = _table(_same, 32768)


def make_action(kind: int, cards: tuple[int, ...]) -> RatsAction:
    """The action of ``kind`` with ``cards`` already in canonical order, interned (the tables
    share one object per play, so most membership tests succeed by identity)."""
    return _INTERN[RatsAction(kind, cards)]


SINGLES: Final = tuple(make_action(SINGLE, (c,)) for c in range(54))
DISCARD1: Final = tuple(make_action(DISCARD, (c,)) for c in range(54))

SET_NAMES = {2: "pair", 3: "three of a kind", 4: "four of a kind"}
RANK_PLURAL = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings")


def rank_plural(rank: int) -> str:
    """``7s``, ``kings``, ``aces``."""
    return "aces" if rank == 12 else RANK_PLURAL[rank]


# --- what a combination is worth ------------------------------------------------------------


def set_rank(cards: tuple[int, ...]) -> int:
    """The rank of a set of 2-4 cards (jokers wild, one natural at least), or -1 if not a set."""
    if not 2 <= len(cards) <= 4:
        return -1
    rank = -1
    for c in cards:
        if c >= 52:
            continue
        if rank == -1:
            rank = c >> 2
        elif c >> 2 != rank:
            return -1
    return rank


def run_value(cards: tuple[int, ...]) -> int:
    """``top * 4 + suit`` of the best reading of a run (jokers wild), or -1 if it is not one.

    A run is 3 to 13 cards of one suit in sequence, the ace low only (A-2-3, never Q-K-A).
    """
    n = len(cards)
    if not 3 <= n <= 13:
        return -1
    suit = -1
    lo, hi = 99, -1
    seen = 0
    for c in cards:
        if c >= 52:
            continue
        s = c & 3
        if suit == -1:
            suit = s
        elif s != suit:
            return -1
        q = seq_rank(c)
        if seen >> q & 1:
            return -1
        seen |= 1 << q
        lo = min(lo, q)
        hi = max(hi, q)
    if suit == -1 or hi - lo + 1 > n:
        return -1
    return min(12, lo + n - 1) * 4 + suit


# --- notation -------------------------------------------------------------------------------


NOTATION_HELP = (
    "write the cards of your play, e.g. '7H' (a single), '7H 7S' (a pair), '5C 6C 7C' (a run), "
    "or 'discard 2C 9D' to throw cards away face up; '5H BJ RJ set' or '... run' picks the "
    "reading of one card with both jokers"
)


def parse_action(text: object) -> RatsAction:
    """Read a play from its notation (see the module docstring); text that is not a play raises
    :class:`InvalidNotation`."""
    if not isinstance(text, str):
        raise InvalidNotation(f"a play is written as text; {NOTATION_HELP}")
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidNotation(f"empty play; {NOTATION_HELP}")
    kind = -1
    if words[0].lower() == "discard":
        kind = DISCARD
        words = words[1:]
    elif words[-1].lower() in ("set", "run"):
        kind = SET if words[-1].lower() == "set" else RUN
        words = words[:-1]
    if not words:
        raise InvalidNotation(f"no cards named; {NOTATION_HELP}")
    if len(words) > 13:
        raise InvalidNotation(f"a play has at most 13 cards; {NOTATION_HELP}")
    try:
        cards = [parse_card(w) for w in words]
    except IllegalAction as exc:
        raise InvalidNotation(f"{exc}; {NOTATION_HELP}") from None
    if len(set(cards)) != len(cards):
        raise InvalidNotation(f"{text.strip()!r} names a card twice")
    tcards = tuple(cards)
    if kind == DISCARD:
        return make_action(DISCARD, canonical(DISCARD, tcards))
    if kind == -1:
        if len(tcards) == 1:
            return SINGLES[tcards[0]]
        is_set, is_run = set_rank(tcards) >= 0, run_value(tcards) >= 0
        if is_set and is_run:
            raise InvalidNotation(
                f"{text.strip()!r} can be three of a kind or a run: add 'set' or 'run'"
            )
        if not is_set and not is_run:
            raise InvalidNotation(f"{text.strip()!r} is {why_not_combination(tcards)}")
        kind = SET if is_set else RUN
    elif kind == SET and set_rank(tcards) < 0:
        raise InvalidNotation(f"{text.strip()!r} is not a pair, three or four of a kind")
    elif kind == RUN and run_value(tcards) < 0:
        raise InvalidNotation(f"{text.strip()!r} is not a run of three or more in one suit")
    return make_action(kind, canonical(kind, tcards))


def shown(value: object) -> str:
    """A short, safe description of a value someone offered as part of a play (for messages)."""
    if value is None or type(value) in (bool, float):
        return repr(value)
    if type(value) is int:
        return repr(value) if -(10**9) < value < 10**9 else "a very large number"
    if type(value) is str:
        return repr(value[:12])
    return f"a {type(value).__name__}"


def malformed(action: object, jokers: int) -> str | None:
    """Why ``action`` is not a play of Rats at all (in a deck with ``jokers`` jokers), or None
    if it is one: a :class:`RatsAction` whose kind is one of the ints SINGLE to DISCARD and
    whose cards are a tuple of 1 to 13 different card ints of the deck in canonical order, that
    its kind can read (one card for a single, a set, a run).  Types must be exact: ``True`` is
    not the kind 1 and ``7.0`` is not a card, though Python finds them equal."""
    if type(action) is not RatsAction or len(action) != 2:
        return f"{shown(action)} is not a play of Rats (a RatsAction of a kind and its cards)"
    # Fields of any type (a compiled build would otherwise convert them to the declared ones).
    kind, cards = cast("tuple[object, object]", action)
    if type(kind) is not int or not SINGLE <= kind <= DISCARD:
        return (
            "the kind of a play is one of the ints 0 to 3 (single, set, run, discard), "
            f"not {shown(kind)}"
        )
    if type(cards) is not tuple:
        return f"the cards of a play are a tuple of card ints, not {shown(cards)}"
    if not 1 <= len(cards) <= 13:
        return f"a play has 1 to 13 cards, not {len(cards)}"
    top = 52 + jokers
    for c in cards:
        if type(c) is not int or not 0 <= c < top:
            return f"{shown(c)} is not a card of this deck (the cards are the ints 0 to {top - 1})"
    if len(set(cards)) != len(cards):
        return "a play names each card once"
    text = " ".join(_TEXT[c] for c in cards)
    if canonical(kind, cards) != cards:
        right = " ".join(_TEXT[c] for c in canonical(kind, cards))
        return f"the cards {text} are not in the order of the notation ({right})"
    if kind == SINGLE and len(cards) != 1:
        return "a single is one card"
    if kind == SET and set_rank(cards) < 0:
        return f"{text} is not a set: {why_not_combination(cards)}"
    if kind == RUN and run_value(cards) < 0:
        return f"{text} is not a run: {why_not_combination(cards)}"
    return None


def why_not_combination(cards: tuple[int, ...]) -> str:
    """Why ``cards`` (two or more) are neither a set nor a run (for messages)."""
    naturals = [c for c in cards if c < 52]
    base = "not a combination (a pair, three or four of a kind, or a run of 3+ in one suit)"
    if not naturals:
        return "only jokers, " + base + "; a combination needs a natural card"
    if len(cards) > 4 and len({c & 3 for c in naturals}) > 1:
        return base + "; a run must be all one suit"
    if len(cards) == 2:
        return base + "; two cards make a pair only if they share a rank"
    return base + "; to throw them away write 'discard' first"


# --- enumeration ----------------------------------------------------------------------------


def enum_sets(
    hand: tuple[int, ...], size: int | None, above: int
) -> list[tuple[int, tuple[int, ...]]]:
    """Every set (2-4 cards, or exactly ``size``) in ``hand`` of rank above ``above``,
    as ``(rank, cards)``, each card combination once."""
    jokers = [c for c in hand if c >= 52]
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if c < 52 and c >> 2 > above:
            by_rank.setdefault(c >> 2, []).append(c)
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
            suits[c & 3].append((seq_rank(c), c))
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


_SETS: Table[SetKey, tuple[tuple[int, RatsAction], ...]] = _table(_make_sets, 1024)


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
LEAD_PARTS: Final[Table[int, tuple[tuple[RatsAction, ...], tuple[RatsAction, ...]]]] = _table(
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
    suit = ((naturals & -naturals).bit_length() - 1) & 3
    ranks = 0
    for q in range(13):
        if naturals >> (q * 4 + suit) & 1:
            ranks |= 1 << q
    return suit, ranks


def _suit_run_leads(key: int) -> tuple[RatsAction, ...]:
    suit, ranks = _suit_ranks(key)
    return run_leads(suit, ranks, _jokers_of(key)) if suit >= 0 else ()


RUN_LEADS: Final[Table[int, tuple[RatsAction, ...]]] = _table(_suit_run_leads, 4096)
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
        rank = ((naturals & -naturals).bit_length() - 1) >> 2
        suits = naturals >> (rank * 4)
        jokers = _jokers_of(key)
        if not (jokers or suits & (suits - 1)):
            return ()
        return tuple(a for n, a in sets_of_rank(rank, suits, jokers) if n == size)

    return _table(make, 1024)


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

    return _table(make, 1024)


RUN_FOLLOWS: Final = {length: _run_follows(length) for length in range(3, 14)}
"""``RUN_FOLLOWS[length][run_cards(hand_mask) & SEQ_SUIT_KEYS[suit]]``: the runs of ``length``
cards of that suit, as ``(value, action)`` in the order of :func:`runs_of_suit`."""

BEAT_SINGLES: Final[Table[int, tuple[RatsAction, ...]]] = _table(
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
