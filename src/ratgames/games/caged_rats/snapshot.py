"""What ties a Caged Rats snapshot's entries together, once the core has read each of them by the
state's field declaration (``CagedRatsState._fields``): every card once, an earlier deals'
history that leads to the scores and dealer, and a current deal that the rules reach, checked by
playing its events (``deal_events``) again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ratgames.core import snapshots
from ratgames.core.errors import IllegalAction, SnapshotError
from ratgames.core.events import Event, event_json
from ratgames.core.fields import Card, Cards, Events, Flag, Rows, Seat, Whole
from ratgames.core.snapshots import json_text as _json_text
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from . import views
from .action import CAGE_ACT, FEED_ACT, SINGLE_KINDS, Act
from .deck import (
    COLOUR_CARDS,
    COLOUR_KEYS,
    FEED,
    HAND_SIZE,
    LEADS_PER_DEAL,
    OVER,
    OWNER,
    SEAT_NAMES,
    TEXT,
)
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
from .rules import CagedRatsState, DealSummary, after_deal, cage_points, next_dealer

SUMMARY_KEYS = ("points", "exact", "overfed", "captures")


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


def _snap_pair(value: object, entry: str, high: int) -> tuple[int, int]:
    pair = snapshots.items(value, entry, "whole numbers (red, black)", 2)
    return (_whole(pair[0], f"{entry}[0]", 0, high), _whole(pair[1], f"{entry}[1]", 0, high))


_CARD = Card(TEXT, what="a card of the 52-card deck, no jokers, written as in '10H', 'QS' or 'AD'")
_PAIR = Rows(Whole(0), count=2, as_tuple=True, what="whole numbers (red, black)")
EVENTS = Events(
    (DealStarted, Caged, Offered, Bid, Topped, Lost, Threw, Unfed, Fed, Drew, Scored, RubberWon),
    {
        "deal": Whole(1),
        "dealer": Seat(),
        "rubber": Whole(1),
        "seat": Seat(),
        "rats": Cards(TEXT, size=2, as_tuple=True, what=_CARD.what),
        "card": _CARD,
        "from_stock": Flag(),
        "rat": Whole(1, 2),
        "rat_card": _CARD,
        "captures": Whole(0),
        "needs": Whole(1),
        "count": Whole(0),
        "points": _PAIR,
        "totals": _PAIR,
    },
)
"""Each event's fields, read by what they hold (every card is named: a snapshot shows both
seats' throws)."""


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


def read_history(value: object, entry: str) -> tuple[DealSummary, ...]:
    """``history``: the summary of each deal played, each one a deal can give."""
    listed = snapshots.items(value, entry, "deal summaries")
    return tuple(_snap_summary(h, f"{entry}[{i}]") for i, h in enumerate(listed))


def restored(state: CagedRatsState, snap: Mapping[str, Any]) -> None:
    """Checks that ``state``, holding the fields read from ``snap``, is a position the rules
    reach, and makes it that position; else :class:`SnapshotError` naming what is wrong.

    Every card must be in one place, once; the earlier deals' ``history`` must lead to the
    scores, rubbers and dealer; and the current deal's events (``deal_events``) are played
    again, with the rules' own checks, from a deal that gives each player the cards she played in
    the order she played them (then her hand and stock).  Every entry must then be what that play
    makes it.
    """
    game = state.game
    opts = game.options
    for seat in (0, 1):
        if len(state.rats[seat]) not in (0, 2):
            raise SnapshotError(f"rats[{seat}] holds no rat or two, not {len(state.rats[seat])}")
    hands, stocks, rats, fed, thrown = (
        state.hands,
        state.stocks,
        state.rats,
        state.fed,
        state.thrown,
    )
    places: list[tuple[str, Sequence[int]]] = [
        ("hands[0]", hands[0]),
        ("hands[1]", hands[1]),
        ("stocks_top_first[0]", stocks[0]),
        ("stocks_top_first[1]", stocks[1]),
        ("rats[0]", rats[0]),
        ("rats[1]", rats[1]),
        *[(f"fed[{i}]", fed[i]) for i in range(4)],
        ("pile", state.pile),
        ("thrown[0]", thrown[0]),
        ("thrown[1]", thrown[1]),
        *[
            (name, [card])
            for name, card in (("offer", state.offer), ("bid", state.bid))
            if card >= 0
        ],
    ]
    snapshots.each_once(
        places,
        range(52),
        TEXT,
        "the 52-card deck",
        "hands, stocks_top_first, rats, fed, pile, thrown, offer, bid",
    )
    history = state.history
    deals = state.deals
    if len(history) != deals:
        raise SnapshotError(
            f"history is a list of the {deals} deals played (as 'deals' says), one object "
            f"each, not {_short(snap['history'])}"
        )
    events = [cls(*values) for cls, values in EVENTS.read(snap["deal_events"], "deal_events", game)]
    if not events or not isinstance(events[0], DealStarted):
        raise SnapshotError("deal_events starts with the deal's start (an event of kind 'deal')")

    # The earlier deals: the scores, rubbers and dealer they lead to.
    dealer = state.dealer
    over = state.phase == OVER
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
    orders = _deal_orders(state, events)

    # The position played again: the earlier deals' outcome, then this deal's events.
    state.initial = None
    state.scores = scores
    state.rubber_wins = wins
    state.rubber_no = rubber_no
    state.history = tuple(prior)
    state.deals = len(prior)
    state.leads_total = LEADS_PER_DEAL * len(prior)
    state.capped = False
    state._start_deal(dealer, orders[0], orders[1])
    for i, event in enumerate(events):
        played = _played_action(state, event)
        if played is None:
            continue
        seat, act = played
        try:
            state.apply(seat, act)
        except IllegalAction as exc:
            raise SnapshotError(
                f"deal_events[{i}] ({act} by {SEAT_NAMES[seat]}) cannot happen there: {exc}"
            ) from None
    told = [event_json(game, e) for e in views.deal_events(state, (0, 1))]
    for i in range(max(len(told), len(events))):
        given: object = snap["deal_events"][i] if i < len(events) else None
        made: object = told[i] if i < len(told) else None
        if _json_text(given) != _json_text(made):
            raise SnapshotError(
                f"deal_events[{i}] is {_short(given)}, but the deal played so far makes it "
                f"{_short(made)}"
            )
    fields = type(state)._fields
    assert fields is not None
    snapshots.agree(
        snap, state.snapshot(), fields.entries, "after the deal's events and the history"
    )


def _deal_orders(state: CagedRatsState, events: list[Event]) -> list[list[int]]:
    """Each player's cards in a deal that leads to the current one: the cards in the order they
    left her hand (read from ``events``), then her hand, then her stock."""
    passed: list[list[int]] = [[], []]
    from_stock: list[int] = []
    for event in events:
        if isinstance(event, Caged):
            passed[event.seat] += event.rats
        elif isinstance(event, Offered) and event.from_stock:
            from_stock.append(event.card)
        elif isinstance(event, Offered | Bid | Topped | Threw):
            assert event.card is not None  # read as a card
            passed[event.seat].append(event.card)
    if len(from_stock) > 1:
        raise SnapshotError(
            "deal_events: only the dealer's first capture is turned up from her stock, once a "
            f"deal, not {len(from_stock)} captures"
        )
    orders: list[list[int]] = []
    for seat in (0, 1):
        turned = from_stock if seat == state.dealer else []
        held = passed[seat] + state.hands[seat]
        stock = state.stocks[seat][::-1]  # top first
        mine = held + turned + stock
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
        orders.append(held[:HAND_SIZE] + turned + held[HAND_SIZE:] + stock)
    return orders


def _played_action(state: CagedRatsState, event: Event) -> tuple[int, Act] | None:
    """The seat and the action a player took in ``event``, or None for an event that follows
    from the rules (a capture turned up from stock, a feed without a choice, a draw, a score)."""
    if isinstance(event, Fed):
        return (event.seat, FEED_ACT[event.rat - 1]) if state.phase == FEED else None
    if isinstance(event, Caged):
        a, b = event.rats
        act = CAGE_ACT.get((a, b) if a < b else (b, a))
        if act is None:
            raise SnapshotError(
                f"a cage holds two different rats of one colour, not {TEXT[a]} {TEXT[b]}"
            )
        return event.seat, act
    if isinstance(event, Offered | Bid | Topped | Threw) and not (
        isinstance(event, Offered) and event.from_stock
    ):
        assert event.card is not None  # read as a card
        single: Act = SINGLE_KINDS[event.kind][event.card]
        return event.seat, single
    return None
