# ratgames: compiled
"""The play of Rats: its kinds, cards and notation, how text is read as a play, and what is a
well-formed play at all (:func:`canonical_action`), before any question of legality.

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
from typing import Any, Final, NamedTuple, TypeVar, cast

from ratgames.cards import card_text, is_joker, parse_card, rank_of, suit_of
from ratgames.core.errors import IllegalAction, InvalidNotation

# The kinds of play (constants the compiled build inlines).
SINGLE: Final = 0
SET: Final = 1
RUN: Final = 2
DISCARD: Final = 3
KIND_WORDS = ("single", "set", "run", "discard")
JOKERS = (52, 53)


CARD_TEXT: Final = tuple(card_text(c) for c in range(54))
"""``CARD_TEXT[card]``: the card's notation (``10H``, ``BJ``)."""


RANK: Final = tuple(-1 if is_joker(c) else rank_of(c) for c in range(54))
"""``RANK[card]``: :func:`~ratgames.cards.rank_of` as a table for the hot paths (2 is 0, ace 12),
-1 for a joker, which has no rank."""
SUIT: Final = tuple(-1 if is_joker(c) else suit_of(c) for c in range(54))
"""``SUIT[card]``: :func:`~ratgames.cards.suit_of` as a table for the hot paths (clubs 0 ...
spades 3), -1 for a joker, which has no suit."""


def texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    """The notation of each of ``cards``."""
    t = CARD_TEXT
    return [t[c] for c in cards]


K = TypeVar("K")
V = TypeVar("V")


def seq_rank(card: int) -> int:
    """A natural card's place in a run: ace 0 (low only), two 1, ..., king 12."""
    r = rank_of(card)
    return 0 if r == 12 else r + 1


def _canon_key(card: int) -> int:
    return 100 + card if card >= 52 else card


def _run_key(card: int) -> int:
    return 100 + card if card >= 52 else seq_rank(card) * 4 + suit_of(card)


class RatsAction(NamedTuple):
    """A play: ``kind`` (SINGLE, SET, RUN or DISCARD) and the cards in canonical order."""

    kind: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        t = CARD_TEXT
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


def cached_table(make: Callable[[K], V], limit: int) -> Table[K, V]:
    table = Table(make, limit)
    TABLES.append(table)
    return table


_TEXTS: Table[RatsAction, str] = cached_table(str, 4096)


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


_INTERN: Table[RatsAction, RatsAction] = cached_table(_same, 32768)


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
    ranks = RANK
    for c in cards:
        r = ranks[c]
        if r < 0:  # a joker, wild
            continue
        if rank == -1:
            rank = r
        elif r != rank:
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
        s = SUIT[c]
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


def play_value(kind: int, cards: tuple[int, ...]) -> int:
    """What a play of ``kind`` (not a discard) is worth against the plays of its kind: a single
    its rank (-1 for a joker, which beats nothing; the suit led decides the rest, see
    :func:`~ratgames.games.rats.combos.beating_singles`), a set its rank, a run
    ``top * 4 + suit`` (:func:`run_value`)."""
    if kind == SINGLE:
        return RANK[cards[0]]
    if kind == SET:
        return set_rank(cards)
    return run_value(cards)


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
    text = " ".join(CARD_TEXT[c] for c in cards)
    if canonical(kind, cards) != cards:
        right = " ".join(CARD_TEXT[c] for c in canonical(kind, cards))
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
    if len(cards) > 4 and len({suit_of(c) for c in naturals}) > 1:
        return base + "; a run must be all one suit"
    if len(cards) == 2:
        return base + "; two cards make a pair only if they share a rank"
    return base + "; to throw them away write 'discard' first"


def trick_kind_name(kind: int, count: int) -> str:
    """``single``, ``pair``, ``three of a kind``, ``four of a kind`` or ``run of N``."""
    if kind == SINGLE:
        return "single"
    if kind == SET:
        return SET_NAMES[count]
    return f"run of {count}"


# --- the game's questions: a play of this deck -------------------------------------------------


def parse_play(text: object, jokers: int) -> RatsAction:
    """The play written as ``text`` (:func:`parse_action`) in a deck with ``jokers`` jokers;
    :class:`InvalidNotation` if it names a card the deck lacks."""
    action = parse_action(text)
    for c in action.cards:
        if c >= 52 + jokers:
            raise InvalidNotation(
                f"{card_text(c)} is not in this deck "
                f"({'no jokers' if not jokers else 'only BJ is used'})"
            )
    return action


def canonical_action(action: object, jokers: int) -> RatsAction | None:
    """``action`` if it is a play of a deck with ``jokers`` jokers (see :func:`malformed`), else
    None."""
    if malformed(action, jokers) is not None:
        return None
    return action  # type: ignore[return-value]


def not_an_action(action: object, jokers: int) -> str:
    """Why ``action`` is no play of this deck (the words of :func:`malformed`)."""
    return malformed(action, jokers) or f"{action!r} is a play of Rats"
