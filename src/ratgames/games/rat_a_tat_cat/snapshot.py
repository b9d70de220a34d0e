"""Rat-a-Tat Cat positions as JSON.

The state declares its fields once (:attr:`RatState._fields`), and the core writes and reads
each of them; this module holds what has a shape of its own (the round results, what each seat
knows, the public events) and the checks that tie the fields together when a snapshot is
restored (:func:`restored`), which lean on the rules (the cards a position holds, the next seat
in the game, the outcome the rows give).  Every error names the entry, as the core's do.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ratgames.core import snapshots
from ratgames.core.errors import SnapshotError
from ratgames.core.fields import Card, Cards, Custom, Events, LogEntry, Maybe, Rows, Seat, Whole
from ratgames.core.game import JSON

from . import views
from .action import HOLD, KNOCKING, OVER, PEEKING, PHASE_NAMES, SWAPPING, TAKEN
from .cards import (
    CARD_TEXT,
    CARDS_ALLOWED,
    PEEK,
    SLOTS,
    SWAP,
    is_power,
    kept_origin,
    not_the_deck,
    origin_kept,
)
from .events import EVENT_TYPES, Dealt, Reshuffled, RoundOver
from .views import RoundResult

if TYPE_CHECKING:
    from .rules import RatATatCat, RatState

RawEvent = LogEntry

CARD = Card(CARD_TEXT, what=f"a card ({CARDS_ALLOWED}, as text)")
CARD_OR_NONE = Card(CARD_TEXT, none=True, what=f"a card ({CARDS_ALLOWED}, as text)")
CARDS = Cards(CARD_TEXT)
SLOT_CARDS = Rows(CARD_OR_NONE, count=lambda game: game.p4, what="cards or nulls, 4 per seat")
"""The cards of every slot at the table (null for a seat's row while it is out of the game)."""
KNOWN = Rows(SLOT_CARDS, count=lambda game: game.rows, what="rows, one per seat and everyone's")
"""What each seat, then everyone, has seen in every slot."""
EXTRA = ("known", "events", "outcome")
"""The entries :meth:`RatState._snapshot_extra` writes."""

_EXTRA_ALLOWED: tuple[tuple[int, ...], ...] = (
    (0,),
    (0, 1),
    (0,),
    (0, 1),
    (0, 1),
    (1, 2),
    (0,),
    (0,),
)
"""The draws left (``extra``) each phase allows: only a Draw 2 leaves any."""

_RESULT_ENTRIES = ("round", "dealer", "hands", "sums", "winners", "knocker", "capped", "totals")

EVENTS = Events(
    EVENT_TYPES,
    {
        "seat": Seat(),
        "dealer": Seat(),
        "other": Seat(),
        "slot": Whole(1, SLOTS),
        "other_slot": Whole(1, SLOTS),
        "round": Whole(1),
        "first_discard": CARD,
        "card": CARD,
        "discarded": CARD,
        "replacement": CARD,
        "placed": Maybe(CARD),
        "returned": Cards(CARD_TEXT, as_tuple=True),
        "cards": Cards(CARD_TEXT, as_tuple=True),
        "turns": Whole(0),
        "low": Whole(0),
        "total": Whole(0),
    },
)
"""What each field of an event holds: a seat, a slot (1-4), a round, a count, a card (or null),
or a list of cards."""


def _fail(entry: str, why: str) -> SnapshotError:
    return SnapshotError(f"{entry} {why}")


# --- the round results ----------------------------------------------------------------------------


def write_results(results: tuple[RoundResult, ...]) -> JSON:
    return [r.to_json() for r in results]


def read_results(value: object, entry: str, game: RatATatCat) -> tuple[RoundResult, ...]:
    """The round results, each a round that can have ended so (rows of number cards, their
    sums, the lowest sums winning, the totals adding up from 0)."""
    out: list[RoundResult] = []
    before = (0,) * game.players
    for k, item in enumerate(snapshots.items(value, entry, "round results")):
        result = _read_result(item, f"{entry}[{k}]", k + 1, before, game)
        out.append(result)
        before = result.totals
    return tuple(out)


def _read_result(
    value: object, where: str, number: int, before: tuple[int, ...], game: RatATatCat
) -> RoundResult:
    """Round ``number``'s result, after totals ``before``."""
    p = game.players
    entry = snapshots.entries(value, _RESULT_ENTRIES, where)
    snapshots.whole(entry["round"], f"{where}.round", number, number)
    dealer = snapshots.whole(entry["dealer"], f"{where}.dealer", 0, p - 1)
    hands: list[int] = []
    active: list[bool] = []
    rows = snapshots.items(entry["hands"], f"{where}.hands", "rows of 4 cards or nulls", p)
    for s, row in enumerate(rows):
        if row is None:
            hands.extend([-1] * SLOTS)
            active.append(False)
            continue
        cards = Cards(CARD_TEXT, size=SLOTS).read(row, f"{where}.hands[{s}]", game)
        if any(is_power(c) for c in cards):
            raise _fail(
                f"{where}.hands[{s}]",
                "must be number cards: power cards are replaced when a round ends",
            )
        hands.extend(cards)
        active.append(True)
    if not active[dealer]:
        raise _fail(f"{where}.dealer", "must be a seat dealt in (its row is not null)")
    sums = [sum(hands[s * SLOTS : s * SLOTS + SLOTS]) if active[s] else 0 for s in range(p)]
    for s, v in enumerate(snapshots.items(entry["sums"], f"{where}.sums", "sums", p)):
        if not active[s]:
            if v is not None:
                raise _fail(f"{where}.sums[{s}]", "must be null: no row")
        elif v.__class__ is not int or v != sums[s]:
            raise _fail(f"{where}.sums[{s}]", f"must be {sums[s]}, the sum of that row")
    low = min([sums[s] for s in range(p) if active[s]])
    winners = [s for s in range(p) if active[s] and sums[s] == low]
    given = snapshots.items(entry["winners"], f"{where}.winners", "seats")
    if given != winners or any(w.__class__ is not int for w in given):
        raise _fail(f"{where}.winners", f"must be {winners}, the seats with the lowest sum")
    knocker_in = entry["knocker"]
    knocker = None
    if knocker_in is not None:
        knocker = snapshots.whole(knocker_in, f"{where}.knocker", 0, p - 1)
        if not active[knocker]:
            raise _fail(f"{where}.knocker", "must be a seat dealt in, or null")
    capped = snapshots.flag(entry["capped"], f"{where}.capped")
    if capped != (knocker is None):
        raise _fail(f"{where}.capped", "must be true exactly when nobody knocked (knocker null)")
    totals = Rows(Whole(0)).read(entry["totals"], f"{where}.totals", game)
    after = [t + x for t, x in zip(before, sums, strict=True)]
    if totals != after:
        raise _fail(f"{where}.totals", f"must be {after}: the totals before plus the round's sums")
    return RoundResult(
        number,
        dealer,
        tuple(hands),
        tuple(sums),
        tuple(winners),
        knocker,
        capped,
        tuple(totals),
        tuple(active),
    )


RESULTS = Custom(write_results, read_results)


# --- the entries beyond the fields ----------------------------------------------------------------


def extra(state: RatState) -> dict[str, JSON]:
    """What each seat and everyone knows (``known``, a row each), every public event of the
    game (``events``) and the ``outcome``."""
    p4 = state.game.p4
    known = state.known
    return {
        "known": KNOWN.write([known[r * p4 : (r + 1) * p4] for r in range(state.game.rows)]),
        "events": views.event_list(state, None),
        "outcome": state.outcome_.to_json() if state.outcome_ is not None else None,
    }


def _read_events(
    value: object, state: RatState, ended: int
) -> tuple[tuple[RawEvent, Any] | None, int]:
    """The public events (the event log, newest first, and how many) and their checks against
    the position: one deal per round, one round end per result, and ``pool`` reshuffles since
    the last deal."""
    rnd = state.rnd
    events = EVENTS.read(value, "events", state.game)
    log: tuple[RawEvent, Any] | None = None
    deals: list[int] = []
    round_ends: list[int] = []
    dealt_by = -1
    reshuffles = 0
    for n, (cls, values) in enumerate(events):
        where = f"events[{n}]"
        if cls in (Dealt, RoundOver) and values[0] > rnd:
            raise _fail(f"{where}.round", f"must be a round from 1 to {rnd}, not {values[0]}")
        if n == 0 and cls is not Dealt:
            raise _fail(where, "must be the first deal (kind deal)")
        if cls is Dealt:
            deals.append(values[0])
            dealt_by = values[1]
            reshuffles = 0
        elif cls is RoundOver:
            round_ends.append(values[0])
        elif cls is Reshuffled:
            reshuffles += 1
        log = ((cls, values), log)
    if deals != list(range(1, rnd + 1)):
        raise _fail("events", f"must hold the deals of rounds 1 to {rnd}, in order")
    if round_ends != list(range(1, ended + 1)):
        raise _fail("events", f"must hold the ends of rounds 1 to {ended}, in order")
    if dealt_by != state.dealer:
        raise _fail("dealer", f"must be the seat of the last deal event, {dealt_by}")
    if reshuffles != state.pool:
        raise _fail("pool", f"must be {reshuffles}, the number of reshuffles since the last deal")
    return log, len(events)


# --- what ties the fields together ----------------------------------------------------------------


def restored(state: RatState, snap: Mapping[str, Any]) -> None:
    """Checks a state whose fields were read from ``snap`` (each of the right shape) against
    the rules, and sets what a snapshot does not hold: :meth:`RatState._restored`."""
    g = state.game
    p = g.players
    p4 = g.p4
    phase = state.phase
    over = phase == OVER
    name = PHASE_NAMES[phase]
    rnd = state.rnd
    if state.extra not in _EXTRA_ALLOWED[phase]:
        allowed = " or ".join(str(n) for n in _EXTRA_ALLOWED[phase])
        raise _fail("extra", f"must be {allowed} in phase {name}, not {state.extra}")

    # Seats in and out of the game.
    active, elim = state.active, state.elim
    if not any(active):
        raise _fail("active", "must have at least one seat in the game")
    if any(elim) and g.mode_kind != "elimination":
        raise _fail("elim", "must be all 0: players go out only with mode=elimination=N")
    for s in range(p):
        if elim[s] > rnd:
            raise _fail(f"elim[{s}]", f"must be a round from 1 to {rnd} (or 0), not {elim[s]}")
        if not active[s] and not elim[s]:
            raise _fail(f"active[{s}]", f"is false, but elim says seat {s} never went out")
        if active[s] and elim[s] and not over:
            raise _fail(f"elim[{s}]", f"must be 0 while seat {s} is still in the game (active)")

    # The cards.
    hands = state.hands
    for s in range(p):
        where = f"hands[{s * SLOTS}:{s * SLOTS + SLOTS}]"
        cells = hands[s * SLOTS : s * SLOTS + SLOTS]
        full = cells[0] >= 0
        if any((c >= 0) != full for c in cells):
            raise _fail(where, f"(seat {s}'s row) must be four cards or four nulls")
        if active[s] and not full:
            raise _fail(where, f"(seat {s}'s row) must hold four cards: the seat is in the game")
        if full and not active[s] and not over:
            raise _fail(where, f"(seat {s}'s row) must be nulls: the seat is out of the game")
    pool = state.pool
    for i, o in enumerate(state.origin):
        if o > kept_origin(pool) or (o and not origin_kept(o)):
            raise _fail(
                f"origin[{i}]",
                f"must be 0 (dealt) or 2k+1 (kept from the draw pile after k reshuffles, k up "
                f"to the pool, {pool}), not {o}",
            )
        if o and hands[i] < 0:
            raise _fail(f"origin[{i}]", "must be 0 for an empty slot")
        if o and is_power(hands[i]):
            raise _fail(
                f"hands[{i}]",
                f"is {CARD_TEXT[hands[i]]}, but origin says the card was kept from the draw pile: "
                "only number cards are (a power card drawn is used at once)",
            )
    in_draw = list(state.in_draw)
    if in_draw != sorted(set(in_draw)) or not all(is_power(c) for c in in_draw):
        raise _fail(
            "in_draw", "must list power cards (PEEK, SWAP, DRAW2) at most once each, in that order"
        )
    if in_draw and (pool or not g.shuffle_back):
        raise _fail(
            "in_draw",
            "must be empty after a reshuffle (pool above 0) and without first_discard=shuffle_back",
        )
    for c in in_draw:
        if c not in state.draw:
            raise _fail(
                "in_draw", f"names {CARD_TEXT[c]}, but the draw pile holds no {CARD_TEXT[c]}"
            )
    held = state.held
    holding = phase in (HOLD, TAKEN)
    if holding != (held >= 0):
        raise _fail("held", "must be a card in the phases holding and taken and null otherwise")
    if held >= 0 and is_power(held):
        raise _fail(
            "held",
            f"must be a number card, not {CARD_TEXT[held]} (a power card drawn is used at once; "
            "only a number card may be taken)",
        )
    if holding and state.held_pub != (phase == TAKEN):
        raise _fail(
            "held_pub",
            "must be true for a card taken from the discard pile (phase taken) and false for one "
            "drawn (phase holding)",
        )
    discard = state.discard
    if not discard and phase != TAKEN:
        raise _fail("discard", "may be empty only while its last card is held (phase taken)")
    for top, ph in ((PEEK, PEEKING), (SWAP, SWAPPING)):
        if phase == ph and discard[-1] != top:
            raise _fail(
                "discard",
                f"must have the {CARD_TEXT[top]} just drawn on top (its last item) in phase "
                f"{PHASE_NAMES[ph]}",
            )
    wrong = not_the_deck(state.cards())
    if wrong:
        raise _fail(
            "hands, draw, discard and held",
            "must hold the 54 cards once each (0-8 four times, 9 nine times, PEEK, SWAP and "
            f"DRAW2 three times each): they have {wrong}",
        )

    # What each seat (and everyone) knows, and the face-up cards.
    rows = KNOWN.read(snap["known"], "known", g)
    known: list[int] = []
    for r, row in enumerate(rows):
        for i, c in enumerate(row):
            if c >= 0 and c != hands[i]:
                there = CARD_TEXT[hands[i]] if hands[i] >= 0 else "no card"
                raise _fail(
                    f"known[{r}][{i}]",
                    f"must be null or the card in that slot ({there}), not {CARD_TEXT[c]}",
                )
        known.extend(row)
    state.known = known
    everyone = (g.rows - 1) * p4
    for i, up in enumerate(state.faceup):
        if over and not up:
            raise _fail(f"faceup[{i}]", "must be true: every row is face up once the game is over")
        if up and not over and (not g.younger or known[everyone + i] < 0):
            raise _fail(
                f"faceup[{i}]",
                "must be false: during play only outer cards dealt face up with younger=true "
                "are, and everybody knows them (the last row of known)",
            )
    if over and known != hands * g.rows:
        raise _fail("known", "must show every card to everybody once the game is over")

    # Whose turn, who knocked.
    knocker, closer = state.knocker, state.closer
    if not over:
        if not active[state.dealer]:
            raise _fail("dealer", f"must be a seat in the game, not seat {state.dealer}")
        nxt = state._next_active(state.dealer)
        if state.first != nxt:
            raise _fail("first", f"must be {nxt}, the first seat in the game after the dealer")
        for entry, seat in (("turn", state.turn), ("knocker", knocker), ("closer", closer)):
            if seat >= 0 and not active[seat]:
                raise _fail(entry, f"must be a seat in the game, not {seat}")
    if knocker >= 0 and closer != knocker:
        raise _fail("closer", f"must be the seat that knocked ({knocker})")
    if phase == KNOCKING and closer >= 0:
        raise _fail("phase", "cannot be knock once someone knocked (closer)")

    # Counters, results, events.
    if state.rturns > state.turns:
        raise _fail("rturns", f"(turns this round) cannot exceed turns ({state.turns})")
    if closer >= 0 and knocker < 0 and state.rturns < g.turn_cap:
        raise _fail(
            "closer",
            f"must be null: nobody knocked and the turn cap ({g.turn_cap}) was not reached",
        )
    if state.round_cap_fired and not (over and rnd == g.round_cap):
        raise _fail(
            "round_cap_fired",
            f"can be true only once the game is over after round_cap ({g.round_cap}) rounds",
        )
    results = state.results
    ended = rnd if over else rnd - 1
    if len(results) != ended:
        raise _fail(
            "results",
            f"must hold the {ended} rounds ended so far (round {rnd}, phase {name}), not "
            f"{len(results)}",
        )
    after = results[-1].totals if results else (0,) * p
    if state.totals != after:
        raise _fail("totals", f"must be the totals after the last round ended, {list(after)}")
    counts = {
        "knocks": sum(1 for r in results if r.knocker is not None),
        "knocker_won": sum(1 for r in results if r.knocker is not None and r.knocker in r.winners),
        "cap_fired": sum(1 for r in results if r.capped),
        "score_sum": sum(sum(r.sums) for r in results),
        "score_n": sum(sum(r.active) for r in results),
    }
    for entry, count in counts.items():
        if getattr(state, entry) != count:
            raise _fail(entry, f"must be {count}, as the round results count")
    if over and hands != list(results[-1].hands):
        raise _fail("hands", "must be the rows of the last round's result once the game is over")
    state._event_log, state._event_count = _read_events(snap["events"], state, len(results))

    # What follows from the rest.
    outcome = snap["outcome"]
    state.outcome_ = None
    if over:
        made = state._make_outcome(list(results[-1].sums))
        if outcome != made.to_json():
            raise _fail(
                "outcome",
                "must be the outcome that the rows, totals and counts of the position give: "
                + json.dumps(made.to_json()),
            )
        state.outcome_ = made
    elif outcome is not None:
        raise _fail("outcome", "must be null while the game goes on")
    state.deal0 = {}
    state._plan = None
