"""Rat-a-Tat Cat positions as JSON: :meth:`RatState.snapshot` writes every entry, and
:meth:`RatATatCat.restore` reads one back, checked entry by entry and against the rules."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ratgames.core import snapshots
from ratgames.core.errors import SnapshotError
from ratgames.core.events import Event
from ratgames.core.game import JSON, Chance
from ratgames.core.snapshots import short as _shown

from . import views
from .action import HOLD, KNOCKING, OVER, PEEKING, PHASE_NAMES, SWAPPING, TAKEN
from .cards import CARD_TEXT, CARDS_ALLOWED, PEEK, SLOTS, SWAP, not_the_deck
from .events import EVENT_TYPES, Dealt, Reshuffled, RoundOver
from .rules import RatATatCat, RatState, RoundResult

RawEvent = tuple[type[Event], tuple[Any, ...]]


def snapshot(state: RatState) -> dict[str, JSON]:
    """The whole position as JSON (the entries :data:`SNAPSHOT_ENTRIES`), hidden cards
    included; :meth:`RatATatCat.restore` reads it back.  Piles list their top card last;
    ``events`` are all the public events of the game."""
    g = state.game
    p4 = g.p4
    return {
        "round": state.rnd,
        "dealer": state.dealer,
        "first": state.first,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "extra": state.extra,
        "knocker": state.knocker,
        "closer": state.closer,
        "hands": [CARD_TEXT[c] if c >= 0 else None for c in state.hands],
        "origin": list(state.origin),
        "pool": state.pool,
        "in_draw": [CARD_TEXT[c] for c in state.in_draw],
        "draw": [CARD_TEXT[c] for c in state.draw],
        "discard": [CARD_TEXT[c] for c in state.discard],
        "held": CARD_TEXT[state.held] if state.held >= 0 else None,
        "held_pub": state.held_pub,
        "known": [
            [CARD_TEXT[c] if c >= 0 else None for c in state.known[r * p4 : (r + 1) * p4]]
            for r in range(g.rows)
        ],
        "faceup": list(state.faceup),
        "active": list(state.active),
        "elim": list(state.elim),
        "totals": list(state.totals),
        "turns": state.turns,
        "rturns": state.rturns,
        "clock": state.clock,
        "stats": [
            state.knocks,
            state.knocker_won,
            state.cap_fired,
            state.score_sum,
            state.score_n,
            state.round_cap_fired,
        ],
        "results": [r.to_json() for r in state.results],
        "events": views.event_list(state, None),
        "outcome": state.outcome_.to_json() if state.outcome_ is not None else None,
    }


SNAPSHOT_ENTRIES = (
    "round",
    "dealer",
    "first",
    "turn",
    "phase",
    "extra",
    "knocker",
    "closer",
    "hands",
    "origin",
    "pool",
    "in_draw",
    "draw",
    "discard",
    "held",
    "held_pub",
    "known",
    "faceup",
    "active",
    "elim",
    "totals",
    "turns",
    "rturns",
    "clock",
    "stats",
    "results",
    "events",
    "outcome",
)
"""The entries of :meth:`RatState.snapshot`, every one of which :meth:`RatATatCat.restore` needs."""

STATS_ENTRIES = ("knocks", "knocker_won", "cap_fired", "score_sum", "score_n", "round_cap_fired")
"""What the snapshot's ``stats`` list holds, in order."""

_RESULT_ENTRIES = ("round", "dealer", "hands", "sums", "winners", "knocker", "capped", "totals")
_CARD_OF = {t: i for i, t in enumerate(CARD_TEXT)}
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

_EVENT_FIELD = {
    "seat": "seat",
    "dealer": "seat",
    "other": "seat",
    "slot": "slot",
    "other_slot": "slot",
    "round": "round",
    "first_discard": "card",
    "card": "card",
    "discarded": "card",
    "replacement": "card",
    "placed": "card?",
    "returned": "cards",
    "cards": "cards",
    "turns": "count",
    "low": "count",
    "total": "count",
}
"""What each field of an event holds: a seat, a slot (1-4), a round, a count, a card (or None),
or a list of cards."""

EVENT_OF: dict[str, tuple[type[Event], tuple[tuple[str, str], ...]]] = {
    cls.kind: (cls, tuple([(f.name, _EVENT_FIELD[f.name]) for f in dataclasses.fields(cls)]))
    for cls in EVENT_TYPES
}
"""Every event kind: its class and its fields, in order, with what each holds."""


def _listing(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names)


class SnapshotReader:
    """Reads a snapshot (:meth:`RatState.snapshot`) back into a state: each entry is checked
    for its shape, then the position against the rules; the first wrong entry raises a
    :class:`SnapshotError` naming it and what it may be."""

    def __init__(self, game: RatATatCat, snapshot: Mapping[str, Any]) -> None:
        self.game = game
        self.snap = snapshot

    # --- values ---------------------------------------------------------------------------------

    def fail(self, where: str, why: str) -> SnapshotError:
        return SnapshotError(f"snapshot entry {where} {why}")

    def whole(self, value: object, where: str, low: int, high: int | None = None) -> int:
        return snapshots.whole(value, f"snapshot entry {where}", low, high)

    def flag(self, value: object, where: str) -> bool:
        return snapshots.flag(value, f"snapshot entry {where}")

    def items(self, value: object, where: str, n: int | None = None) -> list[Any]:
        return snapshots.items(value, f"snapshot entry {where}", "items", -1 if n is None else n)

    def card(self, value: object, where: str, none: bool = False) -> int:
        """A card's notation as a card; None (if allowed) as -1."""
        if value is None and none:
            return -1
        also = " or null" if none else ""
        what = f"a card ({CARDS_ALLOWED}, as text){also}"
        return snapshots.card(value, f"snapshot entry {where}", _CARD_OF, what)

    def cards(
        self, value: object, where: str, n: int | None = None, none: bool = False
    ) -> list[int]:
        return [
            self.card(c, f"{where} item {i + 1}", none)
            for i, c in enumerate(self.items(value, where, n))
        ]

    def entries(self, value: object, where: str, names: Sequence[str]) -> Mapping[str, Any]:
        """``value`` as an object with exactly the entries ``names``."""
        return snapshots.entries(value, names, f"snapshot entry {where}")

    # --- the position ---------------------------------------------------------------------------

    def state(self) -> RatState:
        g = self.game
        p = g.players
        p4 = g.p4
        snap = self.snap
        snapshots.entries(snap, SNAPSHOT_ENTRIES, f"a {g.title} snapshot")
        name = snap["phase"]
        phase = snapshots.one_of(name, "snapshot entry 'phase'", PHASE_NAMES)
        over = phase == OVER
        rnd = self.whole(snap["round"], "'round'", 1, g.round_cap)
        dealer = self.whole(snap["dealer"], "'dealer'", 0, p - 1)
        first = self.whole(snap["first"], "'first'", 0, p - 1)
        turn = self.whole(snap["turn"], "'turn'", 0, p - 1)
        extra = self.whole(snap["extra"], "'extra'", 0, 2)
        if extra not in _EXTRA_ALLOWED[phase]:
            allowed = " or ".join(str(n) for n in _EXTRA_ALLOWED[phase])
            raise self.fail("'extra'", f"must be {allowed} in phase {name!r}, not {extra}")
        knocker = self.whole(snap["knocker"], "'knocker'", -1, p - 1)
        closer = self.whole(snap["closer"], "'closer'", -1, p - 1)

        # Seats in and out of the game.
        active = tuple(
            [
                self.flag(v, f"'active' item {s + 1}")
                for s, v in enumerate(self.items(snap["active"], "'active'", p))
            ]
        )
        if not any(active):
            raise self.fail("'active'", "must have at least one seat in the game")
        elim = tuple(
            [
                self.whole(v, f"'elim' item {s + 1}", 0, rnd)
                for s, v in enumerate(self.items(snap["elim"], "'elim'", p))
            ]
        )
        if any(elim) and g.mode_kind != "elimination":
            raise self.fail("'elim'", "must be all 0: players go out only with mode=elimination=N")
        for s in range(p):
            if not active[s] and not elim[s]:
                raise self.fail(
                    f"'active' item {s + 1}",
                    f"is false, but 'elim' says seat {s + 1} never went out",
                )
            if active[s] and elim[s] and not over:
                raise self.fail(
                    f"'elim' item {s + 1}",
                    f"must be 0 while seat {s + 1} is still in the game ('active' is true)",
                )

        # The cards.
        pool = self.whole(snap["pool"], "'pool'", 0)
        hands = self.cards(snap["hands"], "'hands'", p4, True)
        for s in range(p):
            cells = hands[s * SLOTS : s * SLOTS + SLOTS]
            full = cells[0] >= 0
            if any((c >= 0) != full for c in cells):
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must be four cards or four nulls",
                )
            if active[s] and not full:
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must hold four cards: the seat is in the game",
                )
            if full and not active[s] and not over:
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must be empty (nulls): the seat is out of the game",
                )
        origin = [
            self.whole(v, f"'origin' item {i + 1}", 0, 2 * pool + 1)
            for i, v in enumerate(self.items(snap["origin"], "'origin'", p4))
        ]
        for i, o in enumerate(origin):
            if o and not o & 1:
                raise self.fail(
                    f"'origin' item {i + 1}",
                    f"must be 0 (dealt) or 2k+1 (kept from the draw pile after k reshuffles), "
                    f"not {o}",
                )
            if o and hands[i] < 0:
                raise self.fail(f"'origin' item {i + 1}", "must be 0 for an empty slot")
            if o & 1 and hands[i] >= PEEK:
                raise self.fail(
                    f"'hands' item {i + 1}",
                    f"is {CARD_TEXT[hands[i]]}, but 'origin' says the card was kept from the draw "
                    "pile: only number cards are (a power card drawn is used at once)",
                )
        in_draw = self.cards(snap["in_draw"], "'in_draw'")
        if in_draw != sorted(set(in_draw)) or any(c < PEEK for c in in_draw):
            raise self.fail(
                "'in_draw'",
                "must list power cards (PEEK, SWAP, DRAW2) at most once each, in that order",
            )
        if in_draw and (pool or not g.shuffle_back):
            raise self.fail(
                "'in_draw'",
                "must be empty after a reshuffle (pool above 0) and without "
                "first_discard=shuffle_back",
            )
        draw = self.cards(snap["draw"], "'draw'")
        for c in in_draw:
            if c not in draw:
                raise self.fail(
                    "'in_draw'", f"names {CARD_TEXT[c]}, but the draw pile holds no {CARD_TEXT[c]}"
                )
        discard = self.cards(snap["discard"], "'discard'")
        held = self.card(snap["held"], "'held'", True)
        held_pub = self.flag(snap["held_pub"], "'held_pub'")
        holding = phase in (HOLD, TAKEN)
        if holding != (held >= 0):
            raise self.fail(
                "'held'", "must be a card in the phases 'holding' and 'taken' and null otherwise"
            )
        if held >= PEEK:
            raise self.fail(
                "'held'",
                f"must be a number card, not {CARD_TEXT[held]} (a power card drawn is used at "
                "once; only a number card may be taken)",
            )
        if holding and held_pub != (phase == TAKEN):
            raise self.fail(
                "'held_pub'",
                "must be true for a card taken from the discard pile (phase 'taken') and false "
                "for one drawn (phase 'holding')",
            )
        if not discard and phase != TAKEN:
            raise self.fail(
                "'discard'", "may be empty only while its last card is held (phase 'taken')"
            )
        for top, ph in ((PEEK, PEEKING), (SWAP, SWAPPING)):
            if phase == ph and discard[-1] != top:
                raise self.fail(
                    "'discard'",
                    f"must have the {CARD_TEXT[top]} just drawn on top (its last item) in phase "
                    f"{PHASE_NAMES[ph]!r}",
                )
        wrong = not_the_deck(
            [c for c in hands if c >= 0] + draw + discard + ([held] if held >= 0 else [])
        )
        if wrong:
            raise SnapshotError(
                "snapshot entries 'hands', 'draw', 'discard' and 'held' must hold the 54 cards "
                "once each (0-8 four times, 9 nine times, PEEK, SWAP and DRAW2 three times "
                f"each): they have {wrong}"
            )

        # What each seat (and everyone) knows, and the face-up cards.
        rows = self.items(snap["known"], "'known'", g.rows)
        known: list[int] = []
        for r, row in enumerate(rows):
            where = f"'known' row {r + 1}"
            values = self.cards(row, where, p4, True)
            for i, c in enumerate(values):
                if c >= 0 and c != hands[i]:
                    there = CARD_TEXT[hands[i]] if hands[i] >= 0 else "no card"
                    raise self.fail(
                        f"{where} item {i + 1}",
                        f"must be null or the card in that slot ({there}), not {CARD_TEXT[c]}",
                    )
            known.extend(values)
        faceup = [
            self.flag(v, f"'faceup' item {i + 1}")
            for i, v in enumerate(self.items(snap["faceup"], "'faceup'", p4))
        ]
        everyone = (g.rows - 1) * p4
        for i, up in enumerate(faceup):
            if over and not up:
                raise self.fail(
                    f"'faceup' item {i + 1}",
                    "must be true: every row is face up once the game is over",
                )
            if up and not over and (not g.younger or known[everyone + i] < 0):
                raise self.fail(
                    f"'faceup' item {i + 1}",
                    "must be false: during play only outer cards dealt face up with younger=true "
                    "are, and everybody knows them (the last row of 'known')",
                )
        if over and known != hands * g.rows:
            raise self.fail("'known'", "must show every card to everybody once the game is over")

        # Whose turn, who knocked.
        if not over:
            if not active[dealer]:
                raise self.fail("'dealer'", f"must be a seat in the game, not seat {dealer + 1}")
            nxt = (dealer + 1) % p
            while not active[nxt]:
                nxt = (nxt + 1) % p
            if first != nxt:
                raise self.fail(
                    "'first'", f"must be {nxt}, the first seat in the game after the dealer"
                )
            for entry, seat in (("turn", turn), ("knocker", knocker), ("closer", closer)):
                if seat >= 0 and not active[seat]:
                    raise self.fail(repr(entry), f"must be a seat in the game, not {seat}")
        if knocker >= 0 and closer != knocker:
            raise self.fail("'closer'", f"must be the seat that knocked ({knocker})")
        if phase == KNOCKING and closer >= 0:
            raise self.fail("'phase'", "cannot be 'knock' once someone knocked ('closer')")

        # Counters, results, events.
        totals = tuple(
            [
                self.whole(v, f"'totals' item {s + 1}", 0)
                for s, v in enumerate(self.items(snap["totals"], "'totals'", p))
            ]
        )
        turns = self.whole(snap["turns"], "'turns'", 0)
        rturns = self.whole(snap["rturns"], "'rturns'", 0, g.turn_cap + p)
        if rturns > turns:
            raise self.fail("'rturns'", f"(turns this round) cannot exceed 'turns' ({turns})")
        if closer >= 0 and knocker < 0 and rturns < g.turn_cap:
            raise self.fail(
                "'closer'",
                f"must be -1: nobody knocked and the turn cap ({g.turn_cap}) was not reached",
            )
        clock_in = snap["clock"]
        if isinstance(clock_in, int) and not isinstance(clock_in, bool) and 0 <= clock_in <= 10**12:
            clock = float(clock_in)
        elif isinstance(clock_in, float) and math.isfinite(clock_in) and clock_in >= 0:
            clock = clock_in
        else:
            raise self.fail(
                "'clock'", f"must be a number of seconds (at least 0), not {_shown(clock_in)}"
            )
        stats = self.items(snap["stats"], "'stats'", len(STATS_ENTRIES))
        counts = [
            self.whole(stats[i], f"'stats' item {i + 1} ({STATS_ENTRIES[i]})", 0) for i in range(5)
        ]
        round_cap_fired = self.flag(stats[5], "'stats' item 6 (round_cap_fired)")
        if round_cap_fired and not (over and rnd == g.round_cap):
            raise self.fail(
                "'stats' item 6 (round_cap_fired)",
                f"can be true only once the game is over after round_cap ({g.round_cap}) rounds",
            )
        ended = rnd if over else rnd - 1
        results_in = self.items(snap["results"], "'results'")
        if len(results_in) != ended:
            raise self.fail(
                "'results'",
                f"must hold the {ended} rounds ended so far (round {rnd}, phase {name!r}), not "
                f"{len(results_in)}",
            )
        results: list[RoundResult] = []
        before = (0,) * p
        for k, value in enumerate(results_in):
            result = self.result(value, f"'results' item {k + 1}", k + 1, before)
            results.append(result)
            before = result.totals
        if totals != before:
            raise self.fail(
                "'totals'", f"must be the totals after the last round ended, {list(before)}"
            )
        expected = [
            sum(1 for r in results if r.knocker is not None),
            sum(1 for r in results if r.knocker is not None and r.knocker in r.winners),
            sum(1 for r in results if r.capped),
            sum(sum(r.sums) for r in results),
            sum(sum(r.active) for r in results),
        ]
        if counts != expected:
            raise self.fail(
                "'stats'",
                f"must count what 'results' show: {', '.join(STATS_ENTRIES[:5])} are {expected}, "
                f"not {counts}",
            )
        if over and hands != list(results[-1].hands):
            raise self.fail(
                "'hands'", "must be the rows of the last round's result once the game is over"
            )
        log, count = self.events(snap["events"], rnd, dealer, pool, len(results))

        state = RatState.__new__(RatState)
        state._init_core(g, Chance(0))
        state._init_game()
        state.active = active
        state.elim = elim
        state.totals = totals
        state.dealer = dealer
        state.rnd = rnd
        state.turns = turns
        state.clock = clock
        state._event_log = log
        state._event_count = count
        state.knocks, state.knocker_won, state.cap_fired, state.score_sum, state.score_n = counts
        state.round_cap_fired = round_cap_fired
        state.results = tuple(results)
        state.hands = hands
        state.draw = draw
        state.discard = discard
        state.known = known
        state.faceup = faceup
        state.origin = origin
        state.pool = pool
        state.in_draw = tuple(in_draw)
        state.held = held
        state.held_pub = held_pub
        state.extra = extra
        state.knocker = knocker
        state.closer = closer
        state.rturns = rturns
        state.first = first
        state.turn = turn
        state.phase = phase
        outcome = snap["outcome"]
        if over:
            made = state._make_outcome(list(results[-1].sums))
            if outcome != made.to_json():
                raise self.fail(
                    "'outcome'",
                    "must be the outcome that the rows, totals and stats of the position give: "
                    + json.dumps(made.to_json()),
                )
            state.outcome_ = made
        elif outcome is not None:
            raise self.fail("'outcome'", "must be null while the game goes on")
        return state

    def result(
        self, value: object, where: str, number: int, before: tuple[int, ...]
    ) -> RoundResult:
        """Round ``number``'s result, after totals ``before``."""
        g = self.game
        p = g.players
        entry = self.entries(value, where, _RESULT_ENTRIES)
        self.whole(entry["round"], f"{where} 'round'", number, number)
        dealer = self.whole(entry["dealer"], f"{where} 'dealer'", 0, p - 1)
        hands: list[int] = []
        active: list[bool] = []
        for s, row in enumerate(self.items(entry["hands"], f"{where} 'hands'", p)):
            if row is None:
                hands.extend([-1] * SLOTS)
                active.append(False)
                continue
            cards = self.cards(row, f"{where} 'hands' item {s + 1}", SLOTS)
            if max(cards) >= PEEK:
                raise self.fail(
                    f"{where} 'hands' item {s + 1}",
                    "must be number cards: power cards are replaced when a round ends",
                )
            hands.extend(cards)
            active.append(True)
        if not active[dealer]:
            raise self.fail(f"{where} 'dealer'", "must be a seat dealt in (its row is not null)")
        sums = [sum(hands[s * SLOTS : s * SLOTS + SLOTS]) if active[s] else 0 for s in range(p)]
        for s, v in enumerate(self.items(entry["sums"], f"{where} 'sums'", p)):
            if not active[s]:
                if v is not None:
                    raise self.fail(f"{where} 'sums' item {s + 1}", "must be null: no row")
            elif v.__class__ is not int or v != sums[s]:
                raise self.fail(
                    f"{where} 'sums' item {s + 1}", f"must be {sums[s]}, the sum of that row"
                )
        low = min([sums[s] for s in range(p) if active[s]])
        winners = [s for s in range(p) if active[s] and sums[s] == low]
        given = self.items(entry["winners"], f"{where} 'winners'")
        if given != winners or any(w.__class__ is not int for w in given):
            raise self.fail(
                f"{where} 'winners'", f"must be {winners}, the seats with the lowest sum"
            )
        knocker_in = entry["knocker"]
        knocker = None
        if knocker_in is not None:
            knocker = self.whole(knocker_in, f"{where} 'knocker'", 0, p - 1)
            if not active[knocker]:
                raise self.fail(f"{where} 'knocker'", "must be a seat dealt in, or null")
        capped = self.flag(entry["capped"], f"{where} 'capped'")
        if capped != (knocker is None):
            raise self.fail(
                f"{where} 'capped'", "must be true exactly when nobody knocked ('knocker' is null)"
            )
        totals = [
            self.whole(v, f"{where} 'totals' item {s + 1}", 0)
            for s, v in enumerate(self.items(entry["totals"], f"{where} 'totals'", p))
        ]
        after = [t + x for t, x in zip(before, sums, strict=True)]
        if totals != after:
            raise self.fail(
                f"{where} 'totals'", f"must be {after}: the totals before plus the round's sums"
            )
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

    def events(
        self, value: object, rnd: int, dealer: int, pool: int, ended: int
    ) -> tuple[tuple[RawEvent, Any] | None, int]:
        """The public events (the event log, newest first, and how many) and their checks
        against the position: one deal per round, one round end per result, and ``pool``
        reshuffles since the last deal."""
        p = self.game.players
        events = self.items(value, "'events'")
        log: tuple[RawEvent, Any] | None = None
        deals: list[int] = []
        round_ends: list[int] = []
        dealt_by = -1
        reshuffles = 0
        for n, item in enumerate(events):
            where = f"'events' item {n + 1}"
            kind = item.get("kind") if isinstance(item, Mapping) else None
            spec = EVENT_OF.get(kind) if isinstance(kind, str) else None
            if spec is None:
                raise self.fail(
                    where,
                    "must be an event: an object whose 'kind' is one of "
                    + _listing(list(EVENT_OF)),
                )
            cls, fields = spec
            event = self.entries(item, where, ("kind", *[f for f, _ in fields]))
            values: list[Any] = []
            for field_name, what in fields:
                v = event[field_name]
                at = f"{where} ({kind}) {field_name!r}"
                if what == "seat":
                    values.append(self.whole(v, at, 0, p - 1))
                elif what == "slot":
                    values.append(self.whole(v, at, 1, SLOTS))
                elif what == "round":
                    values.append(self.whole(v, at, 1, rnd))
                elif what == "count":
                    values.append(self.whole(v, at, 0))
                elif what == "card":
                    values.append(self.card(v, at))
                elif what == "card?":
                    card = self.card(v, at, True)
                    values.append(card if card >= 0 else None)
                else:
                    values.append(tuple(self.cards(v, at)))
            if n == 0 and cls is not Dealt:
                raise self.fail(where, "must be the first deal (kind 'deal')")
            if cls is Dealt:
                deals.append(values[0])
                dealt_by = values[1]
                reshuffles = 0
            elif cls is RoundOver:
                round_ends.append(values[0])
            elif cls is Reshuffled:
                reshuffles += 1
            log = ((cls, tuple(values)), log)
        if deals != list(range(1, rnd + 1)):
            raise self.fail("'events'", f"must hold the deals of rounds 1 to {rnd}, in order")
        if round_ends != list(range(1, ended + 1)):
            raise self.fail("'events'", f"must hold the ends of rounds 1 to {ended}, in order")
        if dealt_by != dealer:
            raise self.fail("'dealer'", f"must be the seat of the last deal event, {dealt_by}")
        if reshuffles != pool:
            raise self.fail(
                "'pool'", f"must be {reshuffles}, the number of reshuffles since the last deal"
            )
        return log, len(events)
