"""Caged Rats: two players feed their caged rats with captures won by bidding.

Red holds the 26 red cards (diamonds, hearts), black the 26 black ones (clubs, spades).  Each
player cages two rats from her hand; a rat's pip value is how many captures of its suit satisfy
it exactly.  Sixteen leads follow (eight each, alternating): the leader offers a capture card
face up, bids a card face up, and the responder either tops the bid with a strictly higher card
(face up) or throws any card face down.  Ties go to the leader.  A won capture feeds one of the
leader's rats of its suit; scoring rewards rats fed exactly.

Cards are the standard deck ints of :mod:`ratgames.cards`; seat 0 is red, seat 1 black.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, cast

from ratgames import cards as deckmod
from ratgames.core import snapshots
from ratgames.core._mypyc import mypyc_attr
from ratgames.core.errors import (
    DealError,
    IllegalAction,
    InvalidNotation,
    OptionError,
    SnapshotError,
)
from ratgames.core.events import Event, event_json
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng
from ratgames.core.snapshots import json_text as _json_text
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from .events import (
    Bid,
    Caged,
    DealStarted,
    Drew,
    Fed,
    Lost,
    Offered,
    RubberWon,
    Scored,
    Threw,
    Topped,
    Unfed,
)

RED: Final = 0
BLACK: Final = 1
SEAT_NAMES = ("Red", "Black")
COLOUR_KEYS = ("red", "black")
RANK: Final[tuple[int, ...]] = tuple(deckmod.rank_of(c) for c in range(52))
"""Each card's rank (:func:`ratgames.cards.rank_of`), as a table the play-outs read fast."""
SUIT: Final[tuple[int, ...]] = tuple(deckmod.suit_of(c) for c in range(52))
"""Each card's suit (:func:`ratgames.cards.suit_of`), as a table the play-outs read fast."""
RED_CARDS: Final[tuple[int, ...]] = tuple(c for c in range(52) if SUIT[c] in (1, 2))
BLACK_CARDS: Final[tuple[int, ...]] = tuple(c for c in range(52) if SUIT[c] in (0, 3))
COLOUR_CARDS = (RED_CARDS, BLACK_CARDS)
OWNER: tuple[int, ...] = tuple(RED if SUIT[c] in (1, 2) else BLACK for c in range(52))
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
TEXT: Final[tuple[str, ...]] = tuple(deckmod.card_text(c) for c in range(52))


def rat_points(value: int, captures: int) -> int:
    """Points for one rat on its own: 2 a capture under, 5 a capture exact, 1 a capture over."""
    if captures < value:
        return 2 * captures
    if captures == value:
        return 5 * captures
    return captures


def cage_points(values: tuple[int, ...], counts: tuple[int, ...]) -> int:
    """A player's points for a deal: both rats exact score 10 a capture, else rat by rat.

    >>> cage_points((3, 2), (3, 2)), cage_points((3, 2), (3, 1)), cage_points((3, 2), (4, 0))
    (50, 17, 4)
    """
    if len(values) < 2:
        return 0
    if counts[0] == values[0] and counts[1] == values[1]:
        return 10 * (counts[0] + counts[1])
    return rat_points(values[0], counts[0]) + rat_points(values[1], counts[1])


def toppers(hand: Sequence[int], bid: int) -> list[int]:
    """The cards of ``hand`` (in its order) that may top ``bid``: a top must be of strictly
    higher rank than the bid (aces high, suits ignored).  The one home of that rule: the legal
    actions, the refusals, the play-outs and the bots all ask here.

    >>> [TEXT[c] for c in toppers([deckmod.parse_card(t) for t in ("9S", "7C", "AD")], 20)]
    ['9S', 'AD']
    """
    rank = RANK[bid]
    return [c for c in hand if RANK[c] > rank]


def feed_choices_for(rats: tuple[int, ...], counts: tuple[int, ...], suit: int) -> list[int]:
    """The rats (0 or 1) a won capture of ``suit`` may feed: a hungry rat of its suit if exactly
    one is hungry, else any rat of its suit (the player chooses between two); none: discarded.

    >>> feed_choices_for((50, 2), (0, 0), 2)  # AH and 2H both hungry: the player chooses
    [0, 1]
    """
    same = [i for i in range(len(rats)) if SUIT[rats[i]] == suit]
    if len(same) == 2:
        short = [i for i in same if counts[i] < RAT_VALUE[rats[i]]]
        if len(short) == 1:
            return short
    return same


class AfterDeal(NamedTuple):
    """Where a rubber or match stands once a deal is scored (:func:`after_deal`)."""

    scores: tuple[int, int]
    """The running totals (back to 0 to 0 when a match goes on to a new rubber)."""
    rubber_wins: tuple[int, int]
    rubber_no: int
    """The rubber now in play (or the last one, once the game is over)."""
    rubber_winner: int
    """The seat that won a rubber with this deal, else -1."""
    over: bool
    capped: bool
    """The game stopped at the cap of ``max_deals`` deals."""


def after_deal(
    options: Mapping[str, Any],
    totals: tuple[int, int],
    rubber_wins: tuple[int, int],
    rubber_no: int,
    deals: int,
) -> AfterDeal:
    """How the game stands after deal number ``deals`` brought the rubber's ``totals``.

    >>> options = {"single_deal": False, "target": 120, "match": True, "max_deals": 1000}
    >>> after_deal(options, (130, 90), (0, 0), 1, 7)[:4]
    ((0, 0), (1, 0), 2, 0)
    """
    scores = totals
    winner = -1
    over = False
    if options["single_deal"]:
        over = True
    elif max(totals) >= options["target"] and totals[0] != totals[1]:
        winner = 0 if totals[0] > totals[1] else 1
        wins = [rubber_wins[0], rubber_wins[1]]
        wins[winner] += 1
        rubber_wins = (wins[0], wins[1])
        if not options["match"] or wins[winner] == 2:
            over = True
        else:
            rubber_no += 1
            scores = (0, 0)
    capped = not over and deals >= options["max_deals"]
    return AfterDeal(scores, rubber_wins, rubber_no, winner, over or capped, capped)


def next_dealer(dealer: int, points: tuple[int, int]) -> int:
    """Who deals after a deal dealt by ``dealer`` that scored ``points``: its higher scorer; a
    tied deal passes the deal on (-1, an unknown dealer, stays unknown after a tie)."""
    if points[0] == points[1]:
        return -1 if dealer < 0 else 1 - dealer
    return 0 if points[0] > points[1] else 1


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True, slots=True)
class DealSummary:
    """What one deal gave each player; every pair is (red, black)."""

    points: tuple[int, int]
    """Points scored in the deal."""
    exact: tuple[int, int]
    """Rats fed exactly their number (0 to 2)."""
    overfed: tuple[int, int]
    """Rats fed more than their number (0 to 2)."""
    captures: tuple[int, int]
    """Captures fed to the player's rats."""

    def to_json(self) -> dict[str, JSON]:
        """The summary as a JSON object of four pairs."""
        return {
            "points": list(self.points),
            "exact": list(self.exact),
            "overfed": list(self.overfed),
            "captures": list(self.captures),
        }


# --- actions ------------------------------------------------------------------------------------


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
    if type(action) is not Act or len(action) != 3:
        return None
    # Fields of any type (a compiled build would otherwise convert them to the declared ones).
    fields: tuple[object, object, object] = action
    kind, card, card2 = fields
    if type(kind) is not str or type(card) is not int or type(card2) is not int:
        return None
    if kind == "cage":
        return CAGE_ACT.get((card, card2))
    if card2 != -1:
        return None
    if kind == "feed":
        return FEED_ACT[card - 1] if card in (1, 2) else None
    table = SINGLE_KINDS.get(kind)
    if table is None or not 0 <= card < 52:
        return None
    return table[card]


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


def _card_in_notation(text: str, action: str) -> int:
    """A card of the 52 written in an action's text, else :class:`InvalidNotation`."""
    try:
        card = deckmod.parse_card(text)
    except IllegalAction as exc:
        raise InvalidNotation(f"{action!r}: {exc}") from None
    if card >= 52:
        raise InvalidNotation(f"{action!r}: Caged Rats is played without jokers")
    return card


# --- the game -----------------------------------------------------------------------------------


class CagedRats(Game):
    """Caged Rats for two players (seat 0 red, seat 1 black)."""

    id = "caged-rats"
    title = "Caged Rats"
    summary = "Two players bid for captures to feed their caged rats exactly."
    min_players = 2
    max_players = 2
    default_players = 2
    length_unit = "leads"
    option_specs = (
        Option(
            "target",
            120,
            "Points that win a rubber (with more points than the other player).",
            minimum=1,
            maximum=10_000,
        ),
        Option("match", False, "Play a match: the best of three rubbers."),
        Option("single_deal", False, "Play one deal only (for study and per-deal statistics)."),
        Option(
            "max_deals",
            1000,
            "Safety cap: the game stops after this many deals (the leader on points wins).",
            minimum=1,
            maximum=100_000,
        ),
    )
    variants = ({}, {"single_deal": True}, {"match": True, "target": 40})

    def _validate_options(self) -> None:
        if self.options["match"] and self.options["single_deal"]:
            raise OptionError(
                "options 'match' and 'single_deal' cannot both be on: a match is three rubbers"
            )

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def deck(self) -> list[int]:
        return list(range(52))

    def card_text(self, card: int) -> str:
        return deckmod.card_text(card)

    def parse_card(self, text: str) -> int:
        """The card written as ``text`` (``"10H"``, ``"QS"``); :class:`InvalidNotation` if it
        is not one of the 52 cards."""
        return _card_in_notation(text, text)

    def canonical_action(self, action: object) -> Act | None:
        return canonical_action(action)

    def not_an_action(self, action: object) -> str:
        return action_problem(action)

    def action_space(self) -> list[Act]:
        return [
            *CAGE_ACT.values(),
            *OFFER_ACT,
            *BID_ACT,
            *TOP_ACT,
            *THROW_ACT,
            *FEED_ACT,
        ]

    def parse_action(self, text: object) -> Act:
        """The action written as ``text``.  A cage may name its cards in either order (it is
        written lower card first); text that is no action raises :class:`InvalidNotation`."""
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
            a, b = _card_in_notation(words[1], text), _card_in_notation(words[2], text)
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
        return table[_card_in_notation(words[1], text)]

    def rules(self) -> str:
        o = self.options
        return f"""# Caged Rats

Two players: **Red** (seat 0) holds all 26 hearts and diamonds, **Black** (seat 1) all 26
clubs and spades.  Each player only ever plays her own cards.

## The deal
Each player shuffles her own 26 cards, takes 8 into her hand and keeps the other 18 face down
as her own stock.  The first dealer is chosen by lot.

## Caging the rats
The non-dealer puts two cards from her hand face up as her rats, then the dealer
cages two of hers.  A rat wants as many captures of its own suit as its pips: ace 1, two to ten
their number, jack, queen and king 10.  Rat 1 is the lower of the two cards (in card order:
rank, then clubs, diamonds, hearts, spades), rat 2 the higher.

## A lead
There are 16 leads a deal, 8 for each player, alternating, the non-dealer first.
1. The leader offers a capture card face up from her hand.  Exception: the dealer's
   first capture is the top card of her stock, turned up automatically.
2. The leader bids a card from her hand face up.
3. The responder either tops the bid with a strictly higher card from her hand, shown face up
   (aces are high, suits do not matter), or throws any card from her hand face down.  Equal
   ranks do not top: a tie goes to the leader.
4. If the leader won, the capture is fed, face down, to one of her rats of its suit:
   to a rat still short of its number if there is one; if two rats of that suit both qualify
   (both short, or both already full) she chooses which.  A rat that already has
   its number and is fed again is overfed.  A capture of a suit neither rat has is discarded.
   If the leader lost, the capture is discarded.  Bids and responses go to the discard pile.
5. The leader draws up to 3 cards from her own stock.

So after both have led once, a player responds from a hand of 7 and bids from a hand of 5 (after
offering) until the stocks run out; then hands shrink.  After 16 leads every card is used.

## Scoring a deal
For each rat: fewer captures than its number, 2 points a capture; exactly its number
(satisfied), 5 points a capture; more (overfed), 1 point a capture.  If both of a player's rats
are exactly satisfied she scores 10 points a capture for all her captures instead.

## Deals, rubbers and match
The player who scored more in a deal deals the next one; if they scored the same, the deal
passes to the other player.  Each new deal reshuffles both halves.
A rubber ends after a deal in which a player has reached `target` points (default
{self.option_specs[0].default}, now {o["target"]}) with more points than the other; if they are
tied, deals go on until the tie is broken.
- `match` (default false, now {_b(o["match"])}): play a match, the best of three rubbers; each
  rubber starts from 0 to 0 and the dealer rule carries on from the last deal.  Points in the
  outcome are then rubbers won.
- `single_deal` (default false, now {_b(o["single_deal"])}): play a single deal; the higher
  score wins it, equal scores share the win.
- `max_deals` (default 1000, now {o["max_deals"]}): safety cap on the number of deals; a game
  stopped by it is won by whoever leads (rubbers first in a match, then points), and is marked
  capped.

## What each player knows
Both players' rats and how many captures each rat holds are public, as is every card played face
up (offers, bids, tops), which players remember.  Hands, stock order and cards thrown face down
are hidden (a player knows her own throws).  Fed captures are face down: their suit follows from
the rat, and players remember the capture as it was offered.  In the play-by-play, a card
thrown face down is named only to its thrower.

## Where the rule sheet is silent
- Rats may share a suit.  Two hungry rats of the capture's suit, or two already full: the
  leader chooses which; exactly one hungry: it gets the capture.
- Cards remembered are those of the current deal; earlier deals' cards were reshuffled away.
- In a match, the next rubber's first dealer follows the usual rule (the last deal's higher
  scorer, or the other player after a tied deal).
- A single deal (`single_deal`) with equal scores is a shared win.

## Notation
How programs and records write the game (players use the keys shown with `?`).  Cards are
written `10H`, `QS`, `AC`.  Actions: `cage 5H 9D` (lower card first; typed, the two cards may
come in either order, `cage 9D 5H` is `cage 5H 9D`, but an action object must name two
different cards of one colour, lower first), `offer QH`, `bid 7D`, `top 9S`, `throw 2C`,
`feed 1` or `feed 2`.  An explicit deal is
`{{"dealer": "red"|"black", "red": {{"hand": [8 cards], "stock": [18 cards, top first]}},
"black": {{...}}}}`; it must place each of a colour's 26 cards exactly once in its hand and
stock, written as text (`"10H"`); anything else is refused with the reason.  Outcome figures:
`length` counts leads; `deals`, `rubbers`, points per deal for each colour, exact rats per deal
and captures per deal for each colour are reported too.
"""

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> CagedRatsState:
        if deal is None:
            dealer = chance.rng.randbelow(2)
            red = list(RED_CARDS)
            black = list(BLACK_CARDS)
            chance.rng.shuffle(red)
            chance.rng.shuffle(black)
        else:
            dealer, red, black = _read_deal(deal)
        state = CagedRatsState.__new__(CagedRatsState)
        state._init_core(self, chance)
        state._setup(dealer, red, black)
        return state

    def _restore(self, snapshot: Mapping[str, Any]) -> CagedRatsState:
        """The position of ``snapshot`` (:meth:`CagedRatsState.snapshot`), checked by playing
        the current deal's events again from a deal that leads to it: every entry must be what
        those events and the earlier deals' history make it (see :func:`restore_position`)."""
        return restore_position(self, snapshot)


def _read_deal(deal: Mapping[str, Any]) -> tuple[int, list[int], list[int]]:
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
                order.append(_card_in_deal(text, seat, f"the {key} {part}"))
        seen: set[int] = set()
        for card in order:
            if card in seen:
                raise DealError(f"{TEXT[card]} is dealt twice in the {key} hand and stock")
            seen.add(card)
        halves.append(order)
    return COLOUR_KEYS.index(dealer), halves[0], halves[1]


def _card_in_deal(text: object, seat: int, where: str) -> int:
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


_WANTED: Final[tuple[tuple[str, ...], ...]] = (
    ("cage",),
    ("offer",),
    ("bid",),
    ("top", "throw"),
    ("feed",),
    (),
)
"""The kinds of action each phase takes (by phase number)."""

_EXPECTED: Final[dict[int, str]] = {
    CAGE: "cage two rats from your hand ('cage 5H 9D')",
    OFFER: "offer a capture card from your hand ('offer QH')",
    BID: "bid a card from your hand ('bid 7D')",
    FEED: "choose the rat for the capture ('feed 1' or 'feed 2')",
}
"""What each phase asks for, in words (the respond phase names the bid)."""


def _b(value: bool) -> str:
    return "true" if value else "false"


# --- the state ----------------------------------------------------------------------------------


_OBSERVATION_PARTS: dict[str, Callable[[CagedRatsState, int, bool], JSON]] = {}
"""The observation's entries that bots read at every move, each built on its own exactly as
:meth:`CagedRatsState.observation` builds it (:meth:`State.observation_part`): the state class's
:attr:`State._observation_parts`, filled in below the class (its builders read its fields)."""


class CagedRatsState(State[Act, CagedRats]):
    """One moment of a Caged Rats game (a whole rubber or match, or one deal)."""

    _observation_parts = _OBSERVATION_PARTS

    __slots__ = (
        "actor",
        "bid",
        "capped",
        "dealer",
        "deals",
        "fed",
        "from_stock",
        "hands",
        "history",
        "initial",
        "lead_no",
        "leads_total",
        "offer",
        "phase",
        "pile",
        "plog",
        "rats",
        "rubber_no",
        "rubber_wins",
        "scores",
        "stocks",
        "thrown",
    )

    hands: list[list[int]]
    stocks: list[list[int]]
    rats: tuple[tuple[int, ...], tuple[int, ...]]
    fed: tuple[tuple[int, ...], ...]
    thrown: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]
    scores: tuple[int, int]
    rubber_wins: tuple[int, int]
    history: tuple[DealSummary, ...]
    plog: tuple[Any, ...] | None
    """What happened, newest first, as ``(entry, older)`` links; an entry is an event class
    followed by its fields (``(Bid, seat, card)``), made into an event only when asked."""
    initial: tuple[int, tuple[int, ...], tuple[int, ...]] | None
    """The deal the game started from: the dealer, then red's and black's cards (hand, then stock
    top first).  None in a sample: it is not part of what a seat knows."""

    # --- setup ----------------------------------------------------------------------------------

    def _setup(self, dealer: int, red: list[int], black: list[int]) -> None:
        self.initial = (dealer, tuple(red), tuple(black))
        self.scores = (0, 0)
        self.rubber_wins = (0, 0)
        self.rubber_no = 1
        self.history = ()
        self.deals = 0
        self.leads_total = 0
        self.capped = False
        self.plog = None
        self._start_deal(dealer, red, black)

    def _start_deal(self, dealer: int, red: list[int], black: list[int]) -> None:
        self.dealer = dealer
        self.hands = [sorted(red[:HAND_SIZE]), sorted(black[:HAND_SIZE])]
        # Internally a stock's top card is its last element.
        self.stocks = [red[HAND_SIZE:][::-1], black[HAND_SIZE:][::-1]]
        self.rats = ((), ())
        self.fed = ((), (), (), ())
        self.thrown = ((), ())
        self.pile = ()
        self.lead_no = 0
        self.offer = -1
        self.bid = -1
        self.from_stock = False
        self.phase = CAGE
        self.actor = 1 - dealer
        self.plog = ((DealStarted, self.deals + 1, dealer, self.rubber_no), self.plog)

    # --- core hooks -----------------------------------------------------------------------------

    def clone(self) -> CagedRatsState:
        c = CagedRatsState.__new__(CagedRatsState)
        self._copy_core_to(c)
        c.actor = self.actor
        c.bid = self.bid
        c.capped = self.capped
        c.dealer = self.dealer
        c.deals = self.deals
        c.plog = self.plog
        c.fed = self.fed
        c.from_stock = self.from_stock
        h = self.hands
        c.hands = [h[0][:], h[1][:]]
        c.history = self.history
        c.initial = self.initial
        c.lead_no = self.lead_no
        c.leads_total = self.leads_total
        c.offer = self.offer
        c.phase = self.phase
        c.pile = self.pile
        c.rats = self.rats
        c.rubber_no = self.rubber_no
        c.rubber_wins = self.rubber_wins
        c.scores = self.scores
        s = self.stocks
        c.stocks = [s[0][:], s[1][:]]
        c.thrown = self.thrown
        return c

    def seats_to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.actor]

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self, seat: int) -> list[Act]:
        phase = self.phase
        if seat != self.actor or phase == OVER:
            return []
        hand = self.hands[seat]
        if phase == OFFER:
            return [OFFER_ACT[c] for c in hand]
        if phase == BID:
            return [BID_ACT[c] for c in hand]
        if phase == RESPOND:
            acts = [TOP_ACT[c] for c in toppers(hand, self.bid)]
            acts += [THROW_ACT[c] for c in hand]
            return acts
        if phase == FEED:
            return list(FEED_ACT)
        n = len(hand)
        return [CAGE_ACT[hand[i], hand[j]] for i in range(n) for j in range(i + 1, n)]

    def _problem(self, seat: int, act: Act) -> str | None:
        if seat != self.actor:
            return self._not_to_act(seat)
        phase = self.phase
        kind = act.kind
        if kind not in _WANTED[phase]:
            return f"'{act}' is not allowed now: {self._expected()}"
        hand = self.hands[seat]
        if kind != "feed":
            for card in (act.card, act.card2):
                if card >= 0 and card not in hand:
                    hand_text = " ".join(TEXT[c] for c in hand) or "nothing"
                    return f"{TEXT[card]} is not in your hand (you hold {hand_text})"
        if kind == "top" and act.card not in toppers(hand, self.bid):
            higher = " ".join(TEXT[c] for c in toppers(hand, self.bid))
            return (
                f"{TEXT[act.card]} does not top {TEXT[self.bid]}: a top must be of strictly "
                f"higher rank (aces high, suits ignored); "
                + (f"you could top with {higher}" if higher else "you can only throw")
            )
        return None

    def _expected(self) -> str:
        """What the seat to act may do now, in words and notation."""
        if self.phase == RESPOND:
            return (
                f"top the bid {TEXT[self.bid]} with a higher card ('top 9S') "
                "or throw a card face down ('throw 2C')"
            )
        return _EXPECTED[self.phase]

    # --- playing --------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Act, time: float | None) -> None:
        kind = action.kind
        if kind == "throw":
            self._throw(seat, action.card)
        elif kind == "top":
            self._top(seat, action.card)
        elif kind == "offer":
            self._offer(seat, action.card)
        elif kind == "bid":
            self._bid(seat, action.card)
        elif kind == "feed":
            self._feed(seat, action.card - 1)
            self._finish_lead()
        else:
            self._cage(seat, action.card, action.card2)

    def _random_playout(self, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
        """The play-out of :mod:`ratgames.games.caged_rats.playout` (the same as the plain
        loop's, faster)."""
        if self._recording:
            return super()._random_playout(rng, depth, stage, scoring_only)
        from .playout import random_playout

        return random_playout(self, rng, depth, stage, scoring_only)

    def _cage(self, seat: int, low: int, high: int) -> None:
        hand = self.hands[seat]
        hand.remove(low)
        hand.remove(high)
        rats = (low, high)
        self.rats = (rats, self.rats[1]) if seat == 0 else (self.rats[0], rats)
        self.plog = ((Caged, seat, rats), self.plog)
        if seat != self.dealer:
            self.actor = self.dealer
        else:
            self._start_lead()

    def _offer(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.offer = card
        self.from_stock = False
        self.plog = ((Offered, seat, card, False), self.plog)
        self.phase = BID

    def _bid(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.bid = card
        self.plog = ((Bid, seat, card), self.plog)
        self.phase = RESPOND
        self.actor = 1 - seat

    def _throw(self, seat: int, card: int) -> None:
        """The responder concedes: her card goes face down, the bid stands."""
        self.hands[seat].remove(card)
        thrown = self.thrown
        mine = (*thrown[seat], card)
        self.thrown = (mine, thrown[1]) if seat == 0 else (thrown[0], mine)
        # The card is not in the entry: observations name it to the thrower only.
        self.plog = ((Threw, seat), self.plog)
        self.pile += (self.bid,)
        self.bid = -1
        self._leader_wins()

    def _top(self, seat: int, card: int) -> None:
        """The responder tops the bid: bid, top and capture are discarded."""
        self.hands[seat].remove(card)
        leader = self.actor = 1 - seat
        self.plog = ((Lost, leader, self.offer), ((Topped, seat, card), self.plog))
        self.pile += (self.bid, card, self.offer)
        self._finish_lead()

    def _start_lead(self) -> None:
        lead_no = self.lead_no
        dealer = self.dealer
        leader = dealer if lead_no & 1 else 1 - dealer
        self.actor = leader
        if lead_no == 1:
            card = self.stocks[dealer].pop()
            self.offer = card
            self.from_stock = True
            self.plog = ((Offered, dealer, card, True), self.plog)
            self.phase = BID
        else:
            self.phase = OFFER

    def _leader_wins(self) -> None:
        """The bid stood: feed the capture, ask which rat, or discard it."""
        leader = 1 - self.actor
        self.actor = leader
        capture = self.offer
        suit = SUIT[capture]
        rats = self.rats[leader]
        same = [i for i in (0, 1) if SUIT[rats[i]] == suit]
        if not same:
            self.pile += (capture,)
            self.plog = ((Unfed, leader, capture), self.plog)
            self._finish_lead()
            return
        if len(same) == 2:
            base = 2 * leader
            short = [i for i in (0, 1) if len(self.fed[base + i]) < RAT_VALUE[rats[i]]]
            if len(short) != 1:
                self.phase = FEED
                return
            same = short
        self._feed(leader, same[0])
        self._finish_lead()

    def _feed(self, seat: int, index: int) -> None:
        k = 2 * seat + index
        fed = list(self.fed)
        fed[k] = (*fed[k], self.offer)
        self.fed = tuple(fed)
        rat = self.rats[seat][index]
        self.plog = (
            (Fed, seat, index + 1, rat, self.offer, len(fed[k]), RAT_VALUE[rat]),
            self.plog,
        )

    def _finish_lead(self) -> None:
        leader = self.actor
        stock = self.stocks[leader]
        n = min(REFILL, len(stock))
        if n:
            hand = self.hands[leader]
            for _ in range(n):
                insort(hand, stock.pop())
            self.plog = ((Drew, leader, n), self.plog)
        self.offer = -1
        self.bid = -1
        self.from_stock = False
        self.leads_total += 1
        self.lead_no += 1
        if self.lead_no < LEADS_PER_DEAL:
            self._start_lead()
        else:
            self._end_deal()

    def _leader(self) -> int:
        return self.dealer if self.lead_no & 1 else 1 - self.dealer

    def deal_points(self, seat: object) -> int:
        """What ``seat`` scores for this deal with the captures fed so far."""
        return self._deal_points(self._check_seat(seat))

    def _deal_points(self, seat: int) -> int:
        rats = self.rats[seat]
        if not rats:
            return 0
        return cage_points(
            (RAT_VALUE[rats[0]], RAT_VALUE[rats[1]]),
            (len(self.fed[2 * seat]), len(self.fed[2 * seat + 1])),
        )

    def _summary(self) -> DealSummary:
        """The figures of the deal just played."""
        exact = [0, 0]
        over = [0, 0]
        caps = [0, 0]
        for seat in (0, 1):
            for i in (0, 1):
                n = len(self.fed[2 * seat + i])
                v = RAT_VALUE[self.rats[seat][i]]
                caps[seat] += n
                exact[seat] += n == v
                over[seat] += n > v
        return DealSummary(
            points=(self._deal_points(0), self._deal_points(1)),
            exact=(exact[0], exact[1]),
            overfed=(over[0], over[1]),
            captures=(caps[0], caps[1]),
        )

    def _end_deal(self) -> None:
        summary = self._summary()
        pts = summary.points
        self.history += (summary,)
        self.deals += 1
        totals = (self.scores[0] + pts[0], self.scores[1] + pts[1])
        self.plog = ((Scored, pts, totals), self.plog)
        after = after_deal(self.game.options, totals, self.rubber_wins, self.rubber_no, self.deals)
        if after.rubber_winner >= 0:
            self.plog = ((RubberWon, after.rubber_winner, self.rubber_no, totals), self.plog)
        self.scores = after.scores
        self.rubber_wins = after.rubber_wins
        self.rubber_no = after.rubber_no
        if after.over:
            self.phase = OVER
            self.capped = after.capped
            self.actor = -1
            return
        self.phase = CAGE
        if self._last_stage >= 0 and self.deals != self._last_stage:
            return  # a state only scored from here (only_scored_after): no next deal
        dealer = next_dealer(self.dealer, pts)
        red = list(RED_CARDS)
        black = list(BLACK_CARDS)
        self._shuffle(red, "red shuffle")
        self._shuffle(black, "black shuffle")
        self._start_deal(dealer, red, black)

    # --- ending ---------------------------------------------------------------------------------

    def stage(self) -> int:
        return self.deals

    def win_estimate(self) -> list[float] | None:
        # A rubber won counts as a whole target of points; a deal is worth about 20 points.
        target = self.game.options["target"]
        wins, scores = self.rubber_wins, self.scores
        return logistic_shares([wins[s] * target + scores[s] for s in (0, 1)], 25.0)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        opts = self.game.options
        names = SEAT_NAMES
        if opts["match"]:
            points: tuple[float, float] = (float(self.rubber_wins[0]), float(self.rubber_wins[1]))
            tiebreak = self.scores
        else:
            points = (float(self.scores[0]), float(self.scores[1]))
            tiebreak = (0, 0)
        key = [(points[s], tiebreak[s]) for s in (0, 1)]
        if key[0] == key[1]:
            winners: tuple[int, ...] = (0, 1)
            places: tuple[int, ...] = (1, 1)
        else:
            w = 0 if key[0] > key[1] else 1
            winners = (w,)
            places = (1, 2) if w == 0 else (2, 1)
        if self.capped:
            reason = f"stopped by the cap of {opts['max_deals']} deals"
        elif opts["single_deal"]:
            reason = (
                f"single deal, {self.scores[0]} to {self.scores[1]}"
                if len(winners) == 1
                else f"single deal tied {self.scores[0]} all"
            )
        elif opts["match"]:
            w = winners[0]
            reason = (
                f"{names[w]} wins the match {self.rubber_wins[w]} rubbers to "
                f"{self.rubber_wins[1 - w]}"
            )
        else:
            w = winners[0]
            reason = f"{names[w]} wins the rubber {self.scores[w]} to {self.scores[1 - w]}"
        details: dict[str, Any] = {
            "length": self.leads_total,
            "deals": self.deals,
            "rubbers": sum(self.rubber_wins),
        }
        hist = self.history
        n = max(1, len(hist))
        for seat, colour in enumerate(COLOUR_KEYS):
            details[f"points_{colour}"] = sum(h.points[seat] for h in hist)
        for seat, colour in enumerate(COLOUR_KEYS):
            details[f"points_per_deal_{colour}"] = sum(h.points[seat] for h in hist) / n
        for name, figure in (
            ("exact_rats", "exact"),
            ("overfed_rats", "overfed"),
            ("captures", "captures"),
        ):
            for seat, colour in enumerate(COLOUR_KEYS):
                details[f"{name}_per_deal_{colour}"] = (
                    sum(getattr(h, figure)[seat] for h in hist) / n
                )
        if opts["match"]:
            details["rubbers_red"] = self.rubber_wins[0]
            details["rubbers_black"] = self.rubber_wins[1]
        return Outcome(winners, points, places, reason, self.capped, details)

    # --- knowledge ------------------------------------------------------------------------------

    def _deal_entries(self) -> list[tuple[Any, ...]]:
        """The log entries of the current deal, oldest first (from its :class:`DealStarted`)."""
        out: list[tuple[Any, ...]] = []
        node = self.plog
        while node is not None:
            entry = node[0]
            out.append(entry)
            if entry[0] is DealStarted:
                break
            node = node[1]
        out.reverse()
        return out

    def _events(self, shown: Collection[int]) -> list[Event]:
        """The events of the current deal, oldest first; a card thrown face down is named only
        for the throwers in ``shown``."""
        events: list[Event] = []
        throws = [0, 0]
        for cls, *fields in self._deal_entries():
            if cls is Threw:
                seat = fields[0]
                card = self.thrown[seat][throws[seat]] if seat in shown else None
                throws[seat] += 1
                events.append(Threw(seat, card))
            else:
                events.append(cls(*fields))
        return events

    def _face_up_seen(self) -> dict[str, JSON]:
        """Each colour's cards seen face up this deal (rats, captures, bids, tops), in order."""
        cards = [*self.rats[0], *self.rats[1], *self.pile]
        for f in self.fed:
            cards.extend(f)
        if self.offer >= 0:
            cards.append(self.offer)
        if self.bid >= 0:
            cards.append(self.bid)
        seen: list[list[str]] = [[], []]
        for c in sorted(cards):
            seen[OWNER[c]].append(TEXT[c])
        return {"red": seen[0], "black": seen[1]}

    def _cages_json(self) -> list[JSON]:
        cages: list[JSON] = []
        for seat in (0, 1):
            rats = self.rats[seat]
            cage: list[JSON] = []
            for i, rat in enumerate(rats):
                n = len(self.fed[2 * seat + i])
                v = RAT_VALUE[rat]
                cage.append(
                    {
                        "rat": TEXT[rat],
                        "suit": deckmod.SUIT_NAMES[SUIT[rat]],
                        "needs": v,
                        "captures": n,
                        "state": "hungry" if n < v else ("satisfied" if n == v else "overfed"),
                    }
                )
            cages.append(cage)
        return cages

    def _public(self, viewer: int | None, with_events: bool = True) -> dict[str, JSON]:
        cages = self._cages_json()
        last: JSON = None
        if self.history:
            h = self.history[-1]
            last = {
                "points": list(h.points),
                "exact_rats": list(h.exact),
                "captures": list(h.captures),
            }
        events: list[JSON] = []
        if with_events:
            game = self.game
            shown = () if viewer is None else (viewer,)
            events = [event_json(game, e) for e in self._events(shown)]
        phase = self.phase
        return {
            "phase": PHASE_NAMES[phase],
            "to_act": self.seats_to_act(),
            "dealer": self.dealer,
            "leader": self._leader() if phase not in (CAGE, OVER) else None,
            "lead": min(self.lead_no + 1, LEADS_PER_DEAL),
            "leads_per_deal": LEADS_PER_DEAL,
            "offer": TEXT[self.offer] if self.offer >= 0 else None,
            "offer_from_stock": self.from_stock,
            "bid": TEXT[self.bid] if self.bid >= 0 else None,
            "hand_sizes": [len(self.hands[0]), len(self.hands[1])],
            "stock_sizes": [len(self.stocks[0]), len(self.stocks[1])],
            "discards": len(self.pile) + len(self.thrown[0]) + len(self.thrown[1]),
            "cages": cages,
            "deal_points": [self._deal_points(0), self._deal_points(1)],
            "scores": list(self.scores),
            "target": self.game.options["target"],
            "deal": self.deals + (0 if phase == OVER else 1),
            "rubber": self.rubber_no,
            "rubbers_won": list(self.rubber_wins),
            "match": self.game.options["match"],
            "single_deal": self.game.options["single_deal"],
            "history": [list(h.points) for h in self.history],
            "last_deal": last,
            "face_up_seen": self._face_up_seen(),
            "events": events,
        }

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        seat = self._check_seat(seat)
        obs = self._public(seat, events)
        obs["seat"] = seat
        obs["colour"] = COLOUR_KEYS[seat]
        obs["hand"] = [TEXT[c] for c in self.hands[seat]]
        obs["your_throws"] = [TEXT[c] for c in self.thrown[seat]]
        return obs

    def spectator_view(self) -> dict[str, JSON]:
        obs = self._public(None)
        obs["seat"] = None
        return obs

    def sample_consistent(self, seat: object, rng: Rng) -> CagedRatsState:
        """A state ``seat`` cannot tell from this one: her own stock in a random order, and the
        other player's hand, stock and face-down throws dealt at random from the cards of her
        colour nobody has seen face up.  Every such card may be anywhere among them (a throw may
        be any card of the hand, and whoever is to act has a move: the hand sizes are kept)."""
        seat = self._check_seat(seat)
        other = 1 - seat
        s = self.clone()
        s._forget_origin(rng)
        s.initial = None
        own = sorted(self.stocks[seat])
        rng.shuffle(own)
        s.stocks[seat] = own
        opp_hand = self.hands[other]
        opp_stock = self.stocks[other]
        opp_thrown = self.thrown[other]
        pool = sorted(opp_hand + opp_stock + list(opp_thrown))
        rng.shuffle(pool)
        a, b = len(opp_hand), len(opp_hand) + len(opp_stock)
        s.hands[other] = sorted(pool[:a])
        s.stocks[other] = pool[a:b]
        t = tuple(pool[b:])
        s.thrown = (s.thrown[0], t) if other == 1 else (t, s.thrown[1])
        return s

    def snapshot(self) -> dict[str, JSON]:
        return {
            "phase": PHASE_NAMES[self.phase],
            "actor": self.actor,
            "dealer": self.dealer,
            "lead_no": self.lead_no,
            "offer": TEXT[self.offer] if self.offer >= 0 else None,
            "from_stock": self.from_stock,
            "bid": TEXT[self.bid] if self.bid >= 0 else None,
            "hands": [[TEXT[c] for c in h] for h in self.hands],
            "stocks_top_first": [[TEXT[c] for c in reversed(st)] for st in self.stocks],
            "rats": [[TEXT[c] for c in r] for r in self.rats],
            "fed": [[TEXT[c] for c in f] for f in self.fed],
            "pile": sorted(TEXT[c] for c in self.pile),
            "thrown": [[TEXT[c] for c in t] for t in self.thrown],
            "scores": list(self.scores),
            "rubber_wins": list(self.rubber_wins),
            "rubber_no": self.rubber_no,
            "deals": self.deals,
            "leads_total": self.leads_total,
            "history": [h.to_json() for h in self.history],
            "capped": self.capped,
            "deal_events": [event_json(self.game, e) for e in self._events((0, 1))],
        }

    def cards(self) -> list[int]:
        out = self.hands[0] + self.hands[1] + self.stocks[0] + self.stocks[1]
        out.extend(self.rats[0])
        out.extend(self.rats[1])
        for f in self.fed:
            out.extend(f)
        out.extend(self.pile)
        out.extend(self.thrown[0])
        out.extend(self.thrown[1])
        if self.offer >= 0:
            out.append(self.offer)
        if self.bid >= 0:
            out.append(self.bid)
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        initial = self.initial
        assert initial is not None, "only a sample has no initial deal, and the core asks no sample"
        dealer, *halves = initial
        deal: dict[str, JSON] = {"dealer": COLOUR_KEYS[dealer]}
        for key, cards in zip(COLOUR_KEYS, halves, strict=True):
            deal[key] = {
                "hand": [TEXT[c] for c in cards[:HAND_SIZE]],
                "stock": [TEXT[c] for c in cards[HAND_SIZE:]],
            }
        return deal


_OBSERVATION_PARTS.update(
    {
        "seat": lambda s, seat, events: seat,
        "phase": lambda s, seat, events: PHASE_NAMES[s.phase],
        "hand": lambda s, seat, events: [TEXT[c] for c in s.hands[seat]],
        "cages": lambda s, seat, events: s._cages_json(),
        "offer": lambda s, seat, events: TEXT[s.offer] if s.offer >= 0 else None,
        "bid": lambda s, seat, events: TEXT[s.bid] if s.bid >= 0 else None,
        "face_up_seen": lambda s, seat, events: s._face_up_seen(),
        "scores": lambda s, seat, events: list(s.scores),
    }
)


# --- a position restored from its snapshot ------------------------------------------------------

SNAPSHOT_KEYS: tuple[str, ...] = (
    "phase",
    "actor",
    "dealer",
    "lead_no",
    "offer",
    "from_stock",
    "bid",
    "hands",
    "stocks_top_first",
    "rats",
    "fed",
    "pile",
    "thrown",
    "scores",
    "rubber_wins",
    "rubber_no",
    "deals",
    "leads_total",
    "history",
    "capped",
    "deal_events",
)
"""The entries of :meth:`CagedRatsState.snapshot`, each required by :func:`restore_position`."""

CARD_OF_TEXT: dict[str, int] = {text: card for card, text in enumerate(TEXT)}
SUMMARY_KEYS = ("points", "exact", "overfed", "captures")
EVENT_KINDS = (
    "deal",
    "cage",
    "offer",
    "bid",
    "top",
    "lost",
    "throw",
    "unfed",
    "feed",
    "draw",
    "score",
    "rubber",
)
PLAYED_KINDS = ("cage", "offer", "bid", "top", "throw")
"""The events in which a player's card leaves her hand (an offer unless it comes from stock)."""


def _seat_summaries() -> frozenset[tuple[int, int, int, int]]:
    """Every (points, exact rats, overfed rats, captures) one player can have after a deal: two
    rats wanting 1 to 10 captures, and at most 8 captures (she leads 8 times)."""
    out: set[tuple[int, int, int, int]] = set()
    for v1 in range(1, 11):
        for v2 in range(v1, 11):
            for n1 in range(9):
                for n2 in range(9 - n1):
                    out.add(
                        (
                            cage_points((v1, v2), (n1, n2)),
                            (n1 == v1) + (n2 == v2),
                            (n1 > v1) + (n2 > v2),
                            n1 + n2,
                        )
                    )
    return frozenset(out)


SEAT_SUMMARIES = _seat_summaries()


_CARD_HELP = "a card of the 52-card deck, no jokers, written as in '10H', 'QS' or 'AD'"


def _snap_card(value: object, entry: str) -> int:
    """The card written ``value`` exactly in the game's notation, else SnapshotError."""
    return snapshots.card(value, entry, CARD_OF_TEXT, _CARD_HELP)


def _snap_cards(value: object, entry: str) -> list[int]:
    return snapshots.card_list(value, entry, CARD_OF_TEXT, _CARD_HELP)


def _snap_rows(value: object, entry: str, count: int) -> list[list[int]]:
    rows = snapshots.items(value, entry, "lists of cards", count)
    return [_snap_cards(v, f"{entry}[{i}]") for i, v in enumerate(rows)]


def _snap_pair(value: object, entry: str, high: int) -> tuple[int, int]:
    pair = snapshots.items(value, entry, "whole numbers (red, black)", 2)
    return (_whole(pair[0], f"{entry}[0]", 0, high), _whole(pair[1], f"{entry}[1]", 0, high))


def _plain(value: object) -> bool:
    """True for a JSON scalar or a flat list of them (what a Caged Rats event's fields are)."""
    if value is None or type(value) in (str, int, float, bool):
        return True
    if type(value) is not list:
        return False
    items: list[object] = value
    return all(v is None or type(v) in (str, int, float, bool) for v in items)


def _snap_summary(value: object, entry: str) -> DealSummary:
    """One deal of ``history``: each player's figures must be ones a deal can give."""
    figures = snapshots.entries(value, SUMMARY_KEYS, entry)
    points = _snap_pair(figures["points"], f"{entry}.points", 160)
    exact = _snap_pair(figures["exact"], f"{entry}.exact", 2)
    overfed = _snap_pair(figures["overfed"], f"{entry}.overfed", 2)
    captures = _snap_pair(figures["captures"], f"{entry}.captures", 8)
    for seat in (0, 1):
        if (points[seat], exact[seat], overfed[seat], captures[seat]) not in SEAT_SUMMARIES:
            raise SnapshotError(
                f"{entry}: no deal gives {SEAT_NAMES[seat]} {points[seat]} points with "
                f"{exact[seat]} rats exact, {overfed[seat]} overfed and {captures[seat]} captures"
            )
    return DealSummary(points, exact, overfed, captures)


def restore_position(game: CagedRats, snap: Mapping[str, Any]) -> CagedRatsState:
    """The state whose snapshot is ``snap``, or :class:`SnapshotError` naming what is wrong.

    Beyond the shape of each entry and every card once, the position must be one the rules
    reach: the earlier deals' ``history`` must lead to the scores, rubbers and dealer, and the
    current deal's events (``deal_events``) are played again, with the rules' own checks, from a
    deal that gives each player the cards she played in the order she played them (then her hand
    and stock).  Every entry must then be what that play makes it.
    """
    snapshots.entries(snap, SNAPSHOT_KEYS, "a Caged Rats snapshot")
    opts = game.options
    max_deals: int = opts["max_deals"]
    phase = snapshots.one_of(snap["phase"], "phase", PHASE_NAMES)
    _whole(snap["actor"], "actor", -1, 1)
    dealer = _whole(snap["dealer"], "dealer", 0, 1)
    _whole(snap["lead_no"], "lead_no", 0, LEADS_PER_DEAL)
    table: dict[str, int] = {}
    for name in ("offer", "bid"):
        value = snap[name]
        if value is not None:
            table[name] = _snap_card(value, name)
    snapshots.flag(snap["from_stock"], "from_stock")
    hands = _snap_rows(snap["hands"], "hands", 2)
    stocks = _snap_rows(snap["stocks_top_first"], "stocks_top_first", 2)
    rats = _snap_rows(snap["rats"], "rats", 2)
    for seat in (0, 1):
        if len(rats[seat]) not in (0, 2):
            raise SnapshotError(f"rats[{seat}] holds no rat or two, not {len(rats[seat])}")
    fed = _snap_rows(snap["fed"], "fed", 4)
    pile = _snap_cards(snap["pile"], "pile")
    thrown = _snap_rows(snap["thrown"], "thrown", 2)
    places: list[tuple[str, list[int]]] = [
        ("hands[0]", hands[0]),
        ("hands[1]", hands[1]),
        ("stocks_top_first[0]", stocks[0]),
        ("stocks_top_first[1]", stocks[1]),
        ("rats[0]", rats[0]),
        ("rats[1]", rats[1]),
        *[(f"fed[{i}]", fed[i]) for i in range(4)],
        ("pile", pile),
        ("thrown[0]", thrown[0]),
        ("thrown[1]", thrown[1]),
        *[(name, [card]) for name, card in table.items()],
    ]
    snapshots.each_once(
        places,
        range(52),
        TEXT,
        "the 52-card deck",
        "hands, stocks_top_first, rats, fed, pile, thrown, offer, bid",
    )
    _snap_pair(snap["scores"], "scores", 160 * max_deals)
    _snap_pair(snap["rubber_wins"], "rubber_wins", 2)
    _whole(snap["rubber_no"], "rubber_no", 1, 3)
    deals = _whole(snap["deals"], "deals", 0, max_deals)
    _whole(snap["leads_total"], "leads_total", 0, LEADS_PER_DEAL * max_deals)
    snapshots.flag(snap["capped"], "capped")
    raw_history = snap["history"]
    if type(raw_history) is not list or len(raw_history) != deals:
        raise SnapshotError(
            f"history is a list of the {deals} deals played (as 'deals' says), one object "
            f"each, not {_short(raw_history)}"
        )
    entries: list[object] = raw_history
    history = [_snap_summary(h, f"history[{i}]") for i, h in enumerate(entries)]
    events = _snap_events(snap["deal_events"])

    # The earlier deals: the scores, rubbers and dealer they lead to.
    over = phase == OVER
    if over and not history:
        raise SnapshotError("history: a finished game has played at least one deal")
    prior = history[:-1] if over else history
    scores, wins, rubber_no = (0, 0), (0, 0), 1
    must_deal = -1
    for i, summary in enumerate(prior):
        pts = summary.points
        after = after_deal(opts, (scores[0] + pts[0], scores[1] + pts[1]), wins, rubber_no, i + 1)
        if after.over:
            raise SnapshotError(
                f"history: the game ends after deal {i + 1} of {len(history)} under these "
                "options, yet the snapshot plays on"
            )
        scores, wins, rubber_no = after.scores, after.rubber_wins, after.rubber_no
        must_deal = next_dealer(must_deal, pts)
    if must_deal >= 0 and dealer != must_deal:
        raise SnapshotError(
            f"dealer: after the deals in history {SEAT_NAMES[must_deal]} deals this deal "
            f"(dealer {must_deal}), not {SEAT_NAMES[dealer]}"
        )

    # The current deal: each player's cards in the order they left her hand, then her hand.
    passed: list[list[int]] = [[], []]
    from_stock: list[int] = []
    for i, event in enumerate(events):
        kind = event["kind"]
        if kind not in PLAYED_KINDS:
            continue
        seat = _whole(event.get("seat"), f"deal_events[{i}].seat", 0, 1)
        if kind == "cage":
            pair = event.get("rats")
            if type(pair) is not list or len(pair) != 2:
                raise SnapshotError(f"deal_events[{i}].rats is a list of two cards")
            passed[seat] += [_snap_card(c, f"deal_events[{i}].rats") for c in pair]
            continue
        card = _snap_card(event.get("card"), f"deal_events[{i}].card")
        if kind == "offer" and event.get("from_stock") is True:
            from_stock.append(card)
        else:
            passed[seat].append(card)
    if len(from_stock) > 1:
        raise SnapshotError(
            "deal_events: only the dealer's first capture is turned up from her stock, once a "
            f"deal, not {len(from_stock)} captures"
        )
    orders: list[list[int]] = []
    for seat in (0, 1):
        turned = from_stock if seat == dealer else []
        held = passed[seat] + hands[seat]
        mine = held + turned + stocks[seat]
        colour = COLOUR_KEYS[seat]
        if sorted(mine) != list(COLOUR_CARDS[seat]) or len(held) < HAND_SIZE:
            wrong = [f"{TEXT[c]} is not {colour}" for c in sorted(set(mine)) if OWNER[c] != seat]
            wrong += [f"{TEXT[c]} comes twice" for c in sorted(set(mine)) if mine.count(c) > 1]
            wrong += [f"{TEXT[c]} is missing" for c in COLOUR_CARDS[seat] if c not in mine]
            if not wrong:
                wrong = [f"only {len(held)} went through her hand"]
            raise SnapshotError(
                f"deal_events, hands[{seat}] and stocks_top_first[{seat}]: the cards {colour} "
                f"played this deal, her hand and her stock are her 26 cards, each once, at "
                f"least {HAND_SIZE} of them through her hand; " + ", ".join(wrong)
            )
        # A deal in which each card reaches her hand before she plays it: the first 8 to leave
        # it were dealt to her, the others are drawn in the order they are played.
        orders.append(held[:HAND_SIZE] + turned + held[HAND_SIZE:] + stocks[seat])

    state = CagedRatsState.__new__(CagedRatsState)
    state._init_core(game, Chance(0))
    state.initial = None
    state.scores = scores
    state.rubber_wins = wins
    state.rubber_no = rubber_no
    state.history = tuple(prior)
    state.deals = len(prior)
    state.leads_total = LEADS_PER_DEAL * len(prior)
    state.capped = False
    state.plog = None
    state._start_deal(dealer, orders[0], orders[1])
    for i, event in enumerate(events):
        act = _played_action(state, event)
        if act is None:
            continue
        seat = _whole(event.get("seat"), f"deal_events[{i}].seat", 0, 1)
        try:
            state.apply(seat, act)
        except IllegalAction as exc:
            raise SnapshotError(
                f"deal_events[{i}] ({act} by {SEAT_NAMES[seat]}) cannot happen there: {exc}"
            ) from None
    told = [event_json(game, e) for e in state._events((0, 1))]
    for i in range(max(len(told), len(events))):
        given: object = events[i] if i < len(events) else None
        made: object = told[i] if i < len(told) else None
        if _json_text(given) != _json_text(made):
            raise SnapshotError(
                f"deal_events[{i}] is {_short(given)}, but the deal played so far makes it "
                f"{_short(made)}"
            )
    snapshots.agree(
        snap, state.snapshot(), SNAPSHOT_KEYS, "after the deal's events and the history"
    )
    return state


def _snap_events(value: object) -> list[Mapping[str, object]]:
    """``deal_events``: a list of event objects with known kinds and plain JSON fields."""
    listed = snapshots.items(value, "deal_events", "the current deal's events")
    events: list[Mapping[str, object]] = []
    for i, event in enumerate(listed):
        if not isinstance(event, Mapping):
            raise SnapshotError(f"deal_events[{i}] is an event object, not {_short(event)}")
        for key, field_value in event.items():
            if type(key) is not str or not _plain(field_value):
                raise SnapshotError(
                    f"deal_events[{i}] has an entry {_short(key)} that is not an event's field "
                    "(a name with a number, text, true/false, null or a list of them)"
                )
        snapshots.one_of(event.get("kind"), f"deal_events[{i}].kind", EVENT_KINDS)
        events.append(event)
    if not events or events[0]["kind"] != "deal":
        raise SnapshotError("deal_events starts with the deal's start (an event of kind 'deal')")
    return events


def _played_action(state: CagedRatsState, event: Mapping[str, object]) -> Act | None:
    """The action a player took in ``event`` (already read by :func:`restore_position`), or
    None for an event that follows from the rules (a capture turned up from stock, a feed
    without a choice, a draw, a score)."""
    kind = event["kind"]
    if kind == "feed":
        rat = event.get("rat")
        if state.phase != FEED:
            return None
        if type(rat) is not int or rat not in (1, 2):
            raise SnapshotError(f"a feed names rat 1 or 2, not {_short(rat)}")
        return FEED_ACT[rat - 1]
    if kind not in PLAYED_KINDS or (kind == "offer" and event.get("from_stock") is True):
        return None
    if kind == "cage":
        pair = cast("list[str]", event["rats"])
        a, b = CARD_OF_TEXT[pair[0]], CARD_OF_TEXT[pair[1]]
        act = CAGE_ACT.get((a, b) if a < b else (b, a))
        if act is None:
            raise SnapshotError(f"a cage holds two different rats of one colour, not {pair}")
        return act
    return SINGLE_KINDS[kind][CARD_OF_TEXT[cast(str, event["card"])]]
