# ratgames: compiled
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from ratgames import cards as deckmod
from ratgames.core._mypyc import mypyc_attr
from ratgames.core.errors import OptionError
from ratgames.core.events import event_json
from ratgames.core.fields import (
    ROWS,
    Card,
    Cards,
    Custom,
    Field,
    Flag,
    OneOf,
    Rows,
    Seat,
    StateFields,
    Whole,
)
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng

from . import copying, views
from .action import (
    BID_ACT,
    CAGE_ACT,
    FEED_ACT,
    OFFER_ACT,
    THROW_ACT,
    TOP_ACT,
    Act,
    action_problem,
    canonical_action,
    card_in_notation,
    parse_action,
)
from .deck import (
    BID,
    BLACK_CARDS,
    CAGE,
    COLOUR_KEYS,
    FEED,
    HAND_SIZE,
    LEADS_PER_DEAL,
    OFFER,
    OVER,
    PHASE_NAMES,
    RANK,
    RAT_VALUE,
    RED_CARDS,
    REFILL,
    RESPOND,
    SEAT_NAMES,
    SUIT,
    TEXT,
    read_deal,
)
from .events import (
    BID_ENTRY,
    DRAW_ENTRY,
    LOST_ENTRY,
    OFFER_ENTRY,
    THROW_ENTRY,
    TOP_ENTRY,
    UNFED_ENTRY,
    Caged,
    DealStarted,
    Fed,
    Offered,
    RubberWon,
    Scored,
)


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
    The one home of that rule: the rules, the play-outs and the bots all ask here.

    >>> feed_choices_for((50, 2), (0, 0), 2)  # AH and 2H both hungry: the player chooses
    [0, 1]
    """
    if len(rats) != 2:
        return []
    first = SUIT[rats[0]] == suit
    second = SUIT[rats[1]] == suit
    if first and second:
        hungry = counts[0] < RAT_VALUE[rats[0]]
        if hungry != (counts[1] < RAT_VALUE[rats[1]]):
            return [0] if hungry else [1]
        return [0, 1]
    return [0] if first else ([1] if second else [])


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
        return card_in_notation(text, text)

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
        return parse_action(text)

    def rules(self) -> str:
        from .text import rules_text

        return rules_text(self.options, self.option_specs[0].default)

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> CagedRatsState:
        if deal is None:
            dealer = chance.rng.randbelow(2)
            red = list(RED_CARDS)
            black = list(BLACK_CARDS)
            chance.rng.shuffle(red)
            chance.rng.shuffle(black)
        else:
            dealer, red, black = read_deal(deal)
        state = CagedRatsState.__new__(CagedRatsState)
        state._init_core(self, chance)
        state._setup(dealer, red, black)
        return state


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


# --- the state ----------------------------------------------------------------------------------

_CARD_HELP = "a card of the 52-card deck, no jokers, written as in '10H', 'QS' or 'AD'"
_CARD_LIST = Cards(TEXT, what=_CARD_HELP)
_CARD_TUPLE = Cards(TEXT, as_tuple=True, what=_CARD_HELP)


def _card_rows(count: int) -> Rows:
    """``count`` lists of cards (each a tuple), as a tuple."""
    return Rows(_CARD_TUPLE, count=count, as_tuple=True, what="lists of cards")


def _pair(high: int | Callable[[Any], int]) -> Rows:
    """A (red, black) pair of whole numbers from 0 to ``high``."""
    return Rows(Whole(0, high), count=2, as_tuple=True, what="whole numbers (red, black)")


def _stocks_json(stocks: list[list[int]]) -> JSON:
    """Each stock written top card first (a stock's top card is its last element)."""
    return [[TEXT[c] for c in reversed(stock)] for stock in stocks]


def _read_stocks(value: object, entry: str, game: Any) -> list[list[int]]:
    rows: list[list[int]] = Rows(_CARD_LIST, what="lists of cards").read(value, entry, game)
    return [row[::-1] for row in rows]


def _pile_json(pile: tuple[int, ...]) -> JSON:
    """The discards, in card-text order (the order they were discarded in is not kept)."""
    return sorted(TEXT[c] for c in pile)


def _history_json(history: tuple[DealSummary, ...]) -> JSON:
    return [h.to_json() for h in history]


def _read_history(value: object, entry: str, game: Any) -> tuple[DealSummary, ...]:
    from .snapshot import read_history

    return read_history(value, entry)


class CagedRatsState(State[Act, CagedRats]):
    """One moment of a Caged Rats game (a whole rubber or match, or one deal)."""

    _observation_parts = views.OBSERVATION_PARTS
    _fields = StateFields(
        Field("phase", snap=OneOf(PHASE_NAMES)),
        Field("actor", snap=Seat(none=True)),
        Field("dealer", snap=Seat()),
        Field("lead_no", snap=Whole(0, LEADS_PER_DEAL)),
        Field("offer", snap=Card(TEXT, none=True, what=_CARD_HELP)),
        Field("from_stock", snap=Flag()),
        Field("bid", snap=Card(TEXT, none=True, what=_CARD_HELP)),
        Field("hands", ROWS, Rows(_CARD_LIST, what="lists of cards")),
        Field("stocks", ROWS, Custom(_stocks_json, _read_stocks), entry="stocks_top_first"),
        Field("rats", snap=_card_rows(2)),
        Field("fed", snap=_card_rows(4)),
        Field("pile", snap=Custom(_pile_json, _CARD_TUPLE.read)),
        Field("thrown", snap=_card_rows(2)),
        Field("scores", snap=_pair(lambda game: 160 * game.options["max_deals"])),
        Field("rubber_wins", snap=_pair(2)),
        Field("rubber_no", snap=Whole(1, 3)),
        Field("deals", snap=Whole(0, lambda game: game.options["max_deals"])),
        Field(
            "leads_total", snap=Whole(0, lambda game: LEADS_PER_DEAL * game.options["max_deals"])
        ),
        Field("history", snap=Custom(_history_json, _read_history)),
        Field("capped", snap=Flag()),
        Field("initial"),
        extra=("deal_events",),
    )
    """The state declared once: the core derives :meth:`clone`, :meth:`snapshot` (and its
    ``deal_events``, :meth:`_snapshot_extra`) and the shape checks of a snapshot restored."""

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
        self._log_event(DealStarted, (self.deals + 1, dealer, self.rubber_no))

    # --- core hooks -----------------------------------------------------------------------------

    def seats_to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.actor]

    def clone(self) -> CagedRatsState:
        # Written out (copying.py) for the compiled build; held to _fields by the tests.
        c = CagedRatsState.__new__(CagedRatsState)
        self._copy_core_to(c)
        copying.copy_fields(self, c)
        return c

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
        kind, card, card2 = act
        if kind not in _WANTED[self.phase]:
            return f"'{act}' is not allowed now: {self._expected()}"
        if kind == "feed":
            return None
        hand = self.hands[seat]
        if card not in hand or (card2 >= 0 and card2 not in hand):
            missing = card if card not in hand else card2
            hand_text = " ".join(TEXT[c] for c in hand) or "nothing"
            return f"{TEXT[missing]} is not in your hand (you hold {hand_text})"
        if kind == "top":
            tops = toppers(hand, self.bid)
            if card not in tops:
                higher = " ".join(TEXT[c] for c in tops)
                return (
                    f"{TEXT[card]} does not top {TEXT[self.bid]}: a top must be of strictly "
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
        self._log_event(Caged, (seat, rats))
        if seat != self.dealer:
            self.actor = self.dealer
        else:
            self._start_lead()

    def _offer(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.offer = card
        self.from_stock = False
        self._log_entry(OFFER_ENTRY[seat * 52 + card])
        self.phase = BID

    def _bid(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.bid = card
        self._log_entry(BID_ENTRY[seat * 52 + card])
        self.phase = RESPOND
        self.actor = 1 - seat

    def _throw(self, seat: int, card: int) -> None:
        """The responder concedes: her card goes face down, the bid stands."""
        self.hands[seat].remove(card)
        thrown = self.thrown
        mine = (*thrown[seat], card)
        self.thrown = (mine, thrown[1]) if seat == 0 else (thrown[0], mine)
        # The card is not in the entry: observations name it to the thrower only.
        self._log_entry(THROW_ENTRY[seat])
        self.pile += (self.bid,)
        self.bid = -1
        self._leader_wins()

    def _top(self, seat: int, card: int) -> None:
        """The responder tops the bid: bid, top and capture are discarded."""
        self.hands[seat].remove(card)
        leader = self.actor = 1 - seat
        self._log_entry(TOP_ENTRY[seat * 52 + card])
        self._log_entry(LOST_ENTRY[leader * 52 + self.offer])
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
            self._log_event(Offered, (dealer, card, True))
            self.phase = BID
        else:
            self.phase = OFFER

    def _leader_wins(self) -> None:
        """The bid stood: feed the capture, ask which rat, or discard it."""
        leader = 1 - self.actor
        self.actor = leader
        capture = self.offer
        fed = self.fed
        base = 2 * leader
        rats = feed_choices_for(
            self.rats[leader], (len(fed[base]), len(fed[base + 1])), SUIT[capture]
        )
        if not rats:
            self.pile += (capture,)
            self._log_entry(UNFED_ENTRY[leader * 52 + capture])
        elif len(rats) == 2:
            self.phase = FEED
            return
        else:
            self._feed(leader, rats[0])
        self._finish_lead()

    def _feed(self, seat: int, index: int) -> None:
        k = 2 * seat + index
        fed = list(self.fed)
        fed[k] = (*fed[k], self.offer)
        self.fed = tuple(fed)
        rat = self.rats[seat][index]
        self._log_event(Fed, (seat, index + 1, rat, self.offer, len(fed[k]), RAT_VALUE[rat]))

    def _finish_lead(self) -> None:
        leader = self.actor
        stock = self.stocks[leader]
        n = min(REFILL, len(stock))
        if n:
            hand = self.hands[leader]
            for _ in range(n):
                insort(hand, stock.pop())
            self._log_entry(DRAW_ENTRY[leader * 4 + n])
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
        self._log_event(Scored, (pts, totals))
        after = after_deal(self.game.options, totals, self.rubber_wins, self.rubber_no, self.deals)
        if after.rubber_winner >= 0:
            self._log_event(RubberWon, (after.rubber_winner, self.rubber_no, totals))
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

    # --- knowledge (views.py) ------------------------------------------------------------------

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        return views.observation(self, self._check_seat(seat), events)

    def spectator_view(self) -> dict[str, JSON]:
        return views.spectator_view(self)

    def sample_consistent(self, seat: object, rng: Rng) -> CagedRatsState:
        """A state ``seat`` cannot tell from this one (:func:`views.sample_consistent`)."""
        return views.sample_consistent(self, self._check_seat(seat), rng)

    def _snapshot_extra(self) -> dict[str, JSON]:
        return {"deal_events": [event_json(self.game, e) for e in views.deal_events(self, (0, 1))]}

    def _restored(self, snapshot: Mapping[str, Any]) -> None:
        """The position must be one the rules reach: the current deal's events are played again
        (:func:`ratgames.games.caged_rats.snapshot.restored`)."""
        from .snapshot import restored

        restored(self, snapshot)

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


CagedRats.state_class = CagedRatsState
