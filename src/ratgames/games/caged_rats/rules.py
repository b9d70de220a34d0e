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
from collections.abc import Mapping
from typing import Any, NamedTuple

from ratgames import cards as deckmod
from ratgames.core.errors import IllegalAction, OptionError, RatgamesError
from ratgames.core.game import JSON, Action, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng

RED, BLACK = 0, 1
SEAT_NAMES = ("Red", "Black")
COLOUR_KEYS = ("red", "black")
RED_CARDS: tuple[int, ...] = tuple(c for c in range(52) if c & 3 in (1, 2))
BLACK_CARDS: tuple[int, ...] = tuple(c for c in range(52) if c & 3 in (0, 3))
COLOUR_CARDS = (RED_CARDS, BLACK_CARDS)
OWNER: tuple[int, ...] = tuple(RED if c & 3 in (1, 2) else BLACK for c in range(52))
HAND_SIZE = 8
STOCK_SIZE = 18
LEADS_PER_DEAL = 16
REFILL = 3

CAGE, OFFER, BID, RESPOND, FEED, OVER = range(6)
PHASE_NAMES = ("cage", "offer", "bid", "respond", "feed", "over")


def rat_value(card: int) -> int:
    """Captures that satisfy a rat: pip value, ace 1, jack/queen/king 10.

    >>> rat_value(deckmod.parse_card("5H")), rat_value(deckmod.parse_card("AS"))
    (5, 1)
    >>> rat_value(deckmod.parse_card("QD"))
    10
    """
    rank = card >> 2
    if rank == deckmod.ACE:
        return 1
    return min(rank + 2, 10)


RAT_VALUE: tuple[int, ...] = tuple(rat_value(c) for c in range(52))
TEXT: tuple[str, ...] = tuple(deckmod.card_text(c) for c in range(52))


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


def feed_choices_for(rats: tuple[int, ...], counts: tuple[int, ...], suit: int) -> list[int]:
    """The rats (0 or 1) a won capture of ``suit`` may feed: a hungry rat of its suit if exactly
    one is hungry, else any rat of its suit (the player chooses between two); none: discarded.

    >>> feed_choices_for((50, 2), (0, 0), 2)  # AH and 2H both hungry: the player chooses
    [0, 1]
    """
    same = [i for i in range(len(rats)) if rats[i] & 3 == suit]
    if len(same) == 2:
        short = [i for i in same if counts[i] < RAT_VALUE[rats[i]]]
        if len(short) == 1:
            return short
    return same


# --- actions ------------------------------------------------------------------------------------


class Act(NamedTuple):
    """An action: its ``kind``, a card (the rat number for ``feed``), a second card for ``cage``."""

    kind: str
    card: int
    card2: int = -1

    def __str__(self) -> str:
        if self.kind == "feed":
            return f"feed {self.card}"
        if self.kind == "cage":
            return f"cage {TEXT[self.card]} {TEXT[self.card2]}"
        return f"{self.kind} {TEXT[self.card]}"


OFFER_ACT: tuple[Act, ...] = tuple(Act("offer", c) for c in range(52))
BID_ACT: tuple[Act, ...] = tuple(Act("bid", c) for c in range(52))
TOP_ACT: tuple[Act, ...] = tuple(Act("top", c) for c in range(52))
THROW_ACT: tuple[Act, ...] = tuple(Act("throw", c) for c in range(52))
FEED_ACT: tuple[Act, Act] = (Act("feed", 1), Act("feed", 2))
CAGE_ACT: dict[tuple[int, int], Act] = {
    (a, b): Act("cage", a, b) for colour in COLOUR_CARDS for a in colour for b in colour if a < b
}
SINGLE_KINDS = {"offer": OFFER_ACT, "bid": BID_ACT, "top": TOP_ACT, "throw": THROW_ACT}
NOTATION_HELP = (
    "write 'cage 5H 9D', 'offer QH', 'bid 7D', 'top 9S', 'throw 2C' or 'feed 1' / 'feed 2'"
)


def _parse_52(text: str) -> int:
    card = deckmod.parse_card(text)
    if card >= 52:
        raise IllegalAction(f"{text!r}: Caged Rats is played without jokers")
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
        """The card written as ``text`` (``"10H"``, ``"QS"``)."""
        return _parse_52(text)

    def action_space(self) -> list[Action]:
        return [
            *CAGE_ACT.values(),
            *OFFER_ACT,
            *BID_ACT,
            *TOP_ACT,
            *THROW_ACT,
            *FEED_ACT,
        ]

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"an action is text; {NOTATION_HELP}")
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction(f"empty action; {NOTATION_HELP}")
        kind = words[0]
        if kind == "feed":
            if len(words) == 2 and words[1] in ("1", "2"):
                return FEED_ACT[int(words[1]) - 1]
            raise IllegalAction(f"{text!r}: choose the rat with 'feed 1' or 'feed 2'")
        if kind == "cage":
            if len(words) != 3:
                raise IllegalAction(f"{text!r}: cage two cards, e.g. 'cage 5H 9D'")
            a, b = _parse_52(words[1]), _parse_52(words[2])
            if a == b:
                raise IllegalAction(f"{text!r}: cage two different cards")
            key = (a, b) if a < b else (b, a)
            act = CAGE_ACT.get(key)
            if act is None:
                raise IllegalAction(
                    f"{text!r}: both rats come from one player's cards (both red or both black)"
                )
            return act
        table = SINGLE_KINDS.get(kind)
        if table is None:
            raise IllegalAction(f"{text!r} is not an action; {NOTATION_HELP}")
        if len(words) != 2:
            raise IllegalAction(f"{text!r}: {kind} takes one card, e.g. '{kind} 9S'")
        return table[_parse_52(words[1])]

    def rules(self) -> str:
        o = self.options
        return f"""# Caged Rats

Two players: **Red** (seat 0) holds all 26 hearts and diamonds, **Black** (seat 1) all 26
clubs and spades.  Each player only ever plays her own cards.

## The deal
Each player shuffles her own 26 cards, takes 8 into her hand and keeps the other 18 face down
as her own stock.  The first dealer is chosen by lot; the deal format is
`{{"dealer": "red"|"black", "red": {{"hand": [8 cards], "stock": [18 cards, top first]}},
"black": {{...}}}}`.

## Caging the rats
The non-dealer puts two cards from her hand face up as her rats (`cage 5H 9D`), then the dealer
cages two of hers.  A rat wants as many captures of its own suit as its pips: ace 1, two to ten
their number, jack, queen and king 10.  Rat 1 is the lower of the two cards (the `cage` action
is always written lower card first), rat 2 the higher.

## A lead
There are 16 leads a deal, 8 for each player, alternating, the non-dealer first.
1. The leader offers a capture card face up from her hand (`offer QH`).  Exception: the dealer's
   first capture is the top card of her stock, turned up automatically.
2. The leader bids a card from her hand face up (`bid 7D`).
3. The responder either tops the bid with a strictly higher card from her hand, shown face up
   (`top 9S`; aces are high, suits do not matter), or throws any card from her hand face down
   (`throw 2C`).  Equal ranks do not top: a tie goes to the leader.
4. If the leader won, the capture is fed, face down, to one of her rats of its suit:
   to a rat still short of its number if there is one; if two rats of that suit both qualify
   (both short, or both already full) she chooses (`feed 1` or `feed 2`).  A rat that already has
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
the rat, and players remember the capture as it was offered.

## Where the rule sheet is silent
- Rats may share a suit.  Two hungry rats of the capture's suit, or two already full: the
  leader chooses (`feed 1`/`feed 2`); exactly one hungry: it gets the capture.
- Cards remembered are those of the current deal; earlier deals' cards were reshuffled away.
- In a match, the next rubber's first dealer follows the usual rule (the last deal's higher
  scorer, or the other player after a tied deal).
- A single deal (`single_deal`) with equal scores is a shared win.

## Outcome figures
`length` counts leads; `deals`, `rubbers`, points per deal for each colour, exact rats per deal
and captures per deal for each colour are reported too.
"""

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> State:
        if deal is None:
            dealer = chance.rng.randbelow(2)
            red = list(RED_CARDS)
            black = list(BLACK_CARDS)
            chance.rng.shuffle(red)
            chance.rng.shuffle(black)
        else:
            dealer, red, black = self._read_deal(deal)
        state = CagedRatsState.__new__(CagedRatsState)
        state._init_core(self, chance)
        state._setup(dealer, red, black)
        return state

    def _read_deal(self, deal: Mapping[str, Any]) -> tuple[int, list[int], list[int]]:
        if not isinstance(deal, Mapping):
            raise ValueError("the deal must be an object with 'dealer', 'red' and 'black'")
        extra = set(deal) - {"dealer", "red", "black"}
        if extra:
            raise ValueError(
                f"the deal has unknown keys {sorted(map(str, extra))}; "
                "it holds 'dealer', 'red' and 'black'"
            )
        dealer_name = deal.get("dealer")
        if dealer_name not in COLOUR_KEYS:
            raise ValueError("the deal's 'dealer' must be 'red' or 'black'")
        halves: list[list[int]] = []
        for seat, key in enumerate(COLOUR_KEYS):
            half = deal.get(key)
            if not isinstance(half, Mapping) or set(half) != {"hand", "stock"}:
                raise ValueError(f"the deal's {key!r} must be an object with 'hand' and 'stock'")
            hand, stock = half["hand"], half["stock"]
            if not isinstance(hand, list) or len(hand) != HAND_SIZE:
                raise ValueError(f"{key} hand must list {HAND_SIZE} cards")
            if not isinstance(stock, list) or len(stock) != STOCK_SIZE:
                raise ValueError(f"{key} stock must list {STOCK_SIZE} cards, top first")
            order = [_parse_52(str(t)) for t in hand + stock]
            if sorted(order) != list(COLOUR_CARDS[seat]):
                raise ValueError(
                    f"{key} hand and stock must hold each of the 26 {key} cards exactly once"
                )
            halves.append(order)
        return COLOUR_KEYS.index(dealer_name), halves[0], halves[1]


def _b(value: bool) -> str:
    return "true" if value else "false"


# --- the state ----------------------------------------------------------------------------------


class CagedRatsState(State):
    """One moment of a Caged Rats game (a whole rubber or match, or one deal)."""

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

    game: CagedRats
    hands: list[list[int]]
    stocks: list[list[int]]
    rats: tuple[tuple[int, ...], tuple[int, ...]]
    fed: tuple[tuple[int, ...], ...]
    thrown: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]
    scores: tuple[int, int]
    rubber_wins: tuple[int, int]
    history: tuple[tuple[int, ...], ...]
    plog: tuple[Any, ...] | None
    initial: dict[str, JSON]

    # --- setup ----------------------------------------------------------------------------------

    def _setup(self, dealer: int, red: list[int], black: list[int]) -> None:
        self.initial = {
            "dealer": COLOUR_KEYS[dealer],
            "red": {"hand": [TEXT[c] for c in red[:8]], "stock": [TEXT[c] for c in red[8:]]},
            "black": {
                "hand": [TEXT[c] for c in black[:8]],
                "stock": [TEXT[c] for c in black[8:]],
            },
        }
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
        self.plog = (("deal", self.deals + 1, dealer, self.rubber_no), self.plog)

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

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if seat != self.actor or phase == OVER:
            return []
        hand = self.hands[seat]
        if phase == OFFER:
            return [OFFER_ACT[c] for c in hand]
        if phase == BID:
            return [BID_ACT[c] for c in hand]
        if phase == RESPOND:
            rank = self.bid >> 2
            acts: list[Action] = [TOP_ACT[c] for c in hand if c >> 2 > rank]
            acts += [THROW_ACT[c] for c in hand]
            return acts
        if phase == FEED:
            return list(FEED_ACT)
        n = len(hand)
        return [CAGE_ACT[hand[i], hand[j]] for i in range(n) for j in range(i + 1, n)]

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat != self.actor or self.phase == OVER or not isinstance(action, Act):
            return False
        kind = action.kind
        phase = self.phase
        if phase == RESPOND:
            if kind == "throw":
                return action.card in self.hands[seat]
            return (
                kind == "top"
                and action.card in self.hands[seat]
                and (action.card >> 2 > self.bid >> 2)
            )
        if phase == OFFER:
            return kind == "offer" and action.card in self.hands[seat]
        if phase == BID:
            return kind == "bid" and action.card in self.hands[seat]
        if phase == FEED:
            return kind == "feed" and action.card in (1, 2)
        hand = self.hands[seat]
        return kind == "cage" and action.card in hand and action.card2 in hand

    def why_illegal(self, seat: int, action: Action) -> str:
        name = self.game.seat_name
        if seat != self.actor:
            return f"it is not {name(seat)}'s turn; waiting for {name(self.actor)}"
        expected = {
            CAGE: "cage two rats from your hand ('cage 5H 9D')",
            OFFER: "offer a capture card from your hand ('offer QH')",
            BID: "bid a card from your hand ('bid 7D')",
            RESPOND: (
                f"top the bid {TEXT[self.bid]} with a higher card ('top 9S') "
                "or throw a card face down ('throw 2C')"
            ),
            FEED: "choose the rat for the capture ('feed 1' or 'feed 2')",
        }[self.phase]
        if not isinstance(action, Act):
            return f"{action!r} is not a Caged Rats action; {expected}"
        wanted = {
            CAGE: ("cage",),
            OFFER: ("offer",),
            BID: ("bid",),
            RESPOND: ("top", "throw"),
            FEED: ("feed",),
        }
        if action.kind not in wanted[self.phase]:
            return f"'{action}' is not allowed now: {expected}"
        hand = self.hands[seat]
        hand_text = " ".join(TEXT[c] for c in hand) or "nothing"
        if action.kind != "feed":
            for card in (action.card, action.card2):
                if card >= 0 and card not in hand:
                    return f"{TEXT[card]} is not in your hand (you hold {hand_text})"
        if action.kind == "top":
            higher = " ".join(TEXT[c] for c in hand if c >> 2 > self.bid >> 2)
            return (
                f"{TEXT[action.card]} does not top {TEXT[self.bid]}: a top must be of strictly "
                f"higher rank (aces high, suits ignored); "
                + (f"you could top with {higher}" if higher else "you can only throw")
            )
        return super().why_illegal(seat, action)

    # --- playing --------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action, time: float | None) -> None:
        assert isinstance(action, Act)
        kind = action.kind
        card = action.card
        hand = self.hands[seat]
        if kind == "throw":
            hand.remove(card)
            thrown = self.thrown
            mine = thrown[seat] + (card,)
            self.thrown = (mine, thrown[1]) if seat == 0 else (thrown[0], mine)
            self.plog = (("throw", seat, len(mine) - 1), self.plog)
            self.pile += (self.bid,)
            self.bid = -1
            self._leader_wins()
        elif kind == "top":
            hand.remove(card)
            leader = self.actor = 1 - seat
            self.plog = (("lost", leader, self.offer), (("top", seat, card), self.plog))
            self.pile += (self.bid, card, self.offer)
            self._finish_lead()
        elif kind == "offer":
            hand.remove(card)
            self.offer = card
            self.from_stock = False
            self.plog = (("offer", seat, card, False), self.plog)
            self.phase = BID
        elif kind == "bid":
            hand.remove(card)
            self.bid = card
            self.plog = (("bid", seat, card), self.plog)
            self.phase = RESPOND
            self.actor = 1 - seat
        elif kind == "feed":
            self._feed(seat, card - 1)
            self._finish_lead()
        else:
            hand.remove(card)
            hand.remove(action.card2)
            rats = (card, action.card2)
            self.rats = (rats, self.rats[1]) if seat == 0 else (self.rats[0], rats)
            self.plog = (("cage", seat, card, action.card2), self.plog)
            if seat != self.dealer:
                self.actor = self.dealer
            else:
                self._start_lead()

    def _start_lead(self) -> None:
        lead_no = self.lead_no
        dealer = self.dealer
        leader = dealer if lead_no & 1 else 1 - dealer
        self.actor = leader
        if lead_no == 1:
            card = self.stocks[dealer].pop()
            self.offer = card
            self.from_stock = True
            self.plog = (("offer", dealer, card, True), self.plog)
            self.phase = BID
        else:
            self.phase = OFFER

    def _leader_wins(self) -> None:
        """The bid stood: feed the capture, ask which rat, or discard it."""
        leader = 1 - self.actor
        self.actor = leader
        capture = self.offer
        suit = capture & 3
        rats = self.rats[leader]
        same = [i for i in (0, 1) if rats[i] & 3 == suit]
        if not same:
            self.pile += (capture,)
            self.plog = (("unfed", leader, capture), self.plog)
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
        fed[k] = fed[k] + (self.offer,)
        self.fed = tuple(fed)
        self.plog = (("feed", seat, index, self.offer, len(fed[k])), self.plog)

    def _finish_lead(self) -> None:
        leader = self.actor
        stock = self.stocks[leader]
        n = min(REFILL, len(stock))
        if n:
            hand = self.hands[leader]
            for _ in range(n):
                insort(hand, stock.pop())
            self.plog = (("draw", leader, n), self.plog)
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

    def deal_points(self, seat: int) -> int:
        """What ``seat`` scores for this deal with the captures fed so far."""
        rats = self.rats[seat]
        if not rats:
            return 0
        return cage_points(
            (RAT_VALUE[rats[0]], RAT_VALUE[rats[1]]),
            (len(self.fed[2 * seat]), len(self.fed[2 * seat + 1])),
        )

    def _end_deal(self) -> None:
        opts = self.game.options
        pts = (self.deal_points(0), self.deal_points(1))
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
        self.history += ((pts[0], pts[1], exact[0], exact[1], over[0], over[1], caps[0], caps[1]),)
        self.deals += 1
        self.scores = scores = (self.scores[0] + pts[0], self.scores[1] + pts[1])
        self.plog = (("score", pts[0], pts[1], scores[0], scores[1]), self.plog)
        self.phase = CAGE
        if opts["single_deal"]:
            self.phase = OVER
        elif max(scores) >= opts["target"] and scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
            wins = list(self.rubber_wins)
            wins[winner] += 1
            self.rubber_wins = (wins[0], wins[1])
            self.plog = (("rubber", winner, self.rubber_no, scores[0], scores[1]), self.plog)
            if not opts["match"] or wins[winner] == 2:
                self.phase = OVER
            else:
                self.rubber_no += 1
                self.scores = (0, 0)
        if self.phase != OVER and self.deals >= opts["max_deals"]:
            self.phase = OVER
            self.capped = True
        if self.phase == OVER:
            self.actor = -1
            return
        # The deal's higher scorer deals next; a tied deal passes the deal on.
        dealer = 1 - self.dealer if pts[0] == pts[1] else (0 if pts[0] > pts[1] else 1)
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
        hist = self.history
        n = max(1, len(hist))
        details: dict[str, Any] = {
            "length": self.leads_total,
            "deals": self.deals,
            "rubbers": sum(self.rubber_wins),
            "points_red": sum(h[0] for h in hist),
            "points_black": sum(h[1] for h in hist),
            "points_per_deal_red": sum(h[0] for h in hist) / n,
            "points_per_deal_black": sum(h[1] for h in hist) / n,
            "exact_rats_per_deal_red": sum(h[2] for h in hist) / n,
            "exact_rats_per_deal_black": sum(h[3] for h in hist) / n,
            "overfed_rats_per_deal_red": sum(h[4] for h in hist) / n,
            "overfed_rats_per_deal_black": sum(h[5] for h in hist) / n,
            "captures_per_deal_red": sum(h[6] for h in hist) / n,
            "captures_per_deal_black": sum(h[7] for h in hist) / n,
        }
        if opts["match"]:
            details["rubbers_red"] = self.rubber_wins[0]
            details["rubbers_black"] = self.rubber_wins[1]
        return Outcome(winners, points, places, reason, self.capped, details)

    # --- knowledge ------------------------------------------------------------------------------

    def _deal_events(self) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        node = self.plog
        while node is not None:
            ev = node[0]
            out.append(ev)
            if ev[0] == "deal":
                break
            node = node[1]
        out.reverse()
        return out

    def _event_json(self, ev: tuple[Any, ...], viewer: int | None) -> dict[str, JSON]:
        kind = ev[0]
        if kind == "deal":
            return {
                "type": "deal",
                "deal": ev[1],
                "dealer": ev[2],
                "rubber": ev[3],
                "text": f"Deal {ev[1]} (rubber {ev[3]}): {SEAT_NAMES[ev[2]]} deals",
            }
        if kind == "score":
            return {
                "type": "score",
                "points": [ev[1], ev[2]],
                "totals": [ev[3], ev[4]],
                "text": f"Deal scored: Red {ev[1]}, Black {ev[2]} (rubber {ev[3]} to {ev[4]})",
            }
        if kind == "rubber":
            return {
                "type": "rubber",
                "winner": ev[1],
                "rubber": ev[2],
                "totals": [ev[3], ev[4]],
                "text": f"{SEAT_NAMES[ev[1]]} wins rubber {ev[2]}, {ev[3]} to {ev[4]}",
            }
        seat = ev[1]
        who = SEAT_NAMES[seat]
        out: dict[str, JSON] = {"type": kind, "seat": seat}
        if kind == "cage":
            out["cards"] = [TEXT[ev[2]], TEXT[ev[3]]]
            out["text"] = f"{who} cages {TEXT[ev[2]]} and {TEXT[ev[3]]}"
        elif kind == "offer":
            out["card"] = TEXT[ev[2]]
            out["from_stock"] = ev[3]
            src = " from the top of the stock" if ev[3] else ""
            out["text"] = f"{who} offers {TEXT[ev[2]]}{src}"
        elif kind == "bid":
            out["card"] = TEXT[ev[2]]
            out["text"] = f"{who} bids {TEXT[ev[2]]}"
        elif kind == "top":
            out["card"] = TEXT[ev[2]]
            out["text"] = f"{who} tops with {TEXT[ev[2]]} and the capture is discarded"
        elif kind == "lost":
            out["card"] = TEXT[ev[2]]
            out["text"] = f"{who} loses the capture {TEXT[ev[2]]}"
        elif kind == "throw":
            if viewer == seat:
                out["card"] = TEXT[self.thrown[seat][ev[2]]]
                out["text"] = f"{who} throws {out['card']} face down"
            else:
                out["text"] = f"{who} throws a card face down"
        elif kind == "unfed":
            out["card"] = TEXT[ev[2]]
            out["text"] = f"{who} wins {TEXT[ev[2]]} but has no rat of its suit: discarded"
        elif kind == "feed":
            rat = self.rats[seat][ev[2]]
            value = RAT_VALUE[rat]
            out["rat"] = ev[2] + 1
            out["card"] = TEXT[ev[3]]
            out["captures"] = ev[4]
            state = "satisfied" if ev[4] == value else ("overfed" if ev[4] > value else "fed")
            out["text"] = (
                f"{who} wins {TEXT[ev[3]]} and feeds rat {ev[2] + 1} ({TEXT[rat]}): "
                f"{ev[4]}/{value}, {state}"
            )
        elif kind == "draw":
            out["count"] = ev[2]
            out["text"] = f"{who} draws {ev[2]} from her stock"
        return out

    def _public(self, viewer: int | None, with_events: bool = True) -> dict[str, JSON]:
        cages: list[JSON] = []
        seen: list[JSON] = [[], []]
        for seat in (0, 1):
            rats = self.rats[seat]
            cage: list[JSON] = []
            for i, rat in enumerate(rats):
                n = len(self.fed[2 * seat + i])
                v = RAT_VALUE[rat]
                cage.append(
                    {
                        "rat": TEXT[rat],
                        "suit": deckmod.SUIT_NAMES[rat & 3],
                        "needs": v,
                        "captures": n,
                        "state": "hungry" if n < v else ("satisfied" if n == v else "overfed"),
                    }
                )
            cages.append(cage)
        events = self._deal_events()
        for ev in events:
            if ev[0] in ("cage",):
                seen[ev[1]].extend([TEXT[ev[2]], TEXT[ev[3]]])
            elif ev[0] in ("offer", "bid", "top"):
                seen[OWNER[ev[2]]].append(TEXT[ev[2]])
        last: JSON = None
        if self.history:
            h = self.history[-1]
            last = {"points": [h[0], h[1]], "exact_rats": [h[2], h[3]], "captures": [h[6], h[7]]}
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
            "deal_points": [self.deal_points(0), self.deal_points(1)],
            "scores": list(self.scores),
            "target": self.game.options["target"],
            "deal": self.deals + (0 if phase == OVER else 1),
            "rubber": self.rubber_no,
            "rubbers_won": list(self.rubber_wins),
            "match": self.game.options["match"],
            "single_deal": self.game.options["single_deal"],
            "history": [[h[0], h[1]] for h in self.history],
            "last_deal": last,
            "face_up_seen": {"red": seen[0], "black": seen[1]},
            "events": [self._event_json(ev, viewer) for ev in events] if with_events else [],
        }

    def observation(self, seat: int, events: bool = True) -> dict[str, JSON]:
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

    def sample_consistent(self, seat: int, rng: Rng) -> CagedRatsState:
        other = 1 - seat
        s = self.clone()
        s._log = None
        s._seed = None
        s._chance = Chance(rng.next64())
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
        s.pile = tuple(sorted(self.pile))
        # The real deal this game started from is not part of what the seat knows.
        s.initial = {}
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
            "history": [list(h) for h in self.history],
            "capped": self.capped,
            "deal_events": [list(ev) for ev in self._deal_events()],
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
        if not self.initial:
            raise RatgamesError("a state sampled for a seat's knowledge has no initial deal")
        return {
            "dealer": self.initial["dealer"],
            "red": dict(self.initial["red"]),
            "black": dict(self.initial["black"]),
        }
