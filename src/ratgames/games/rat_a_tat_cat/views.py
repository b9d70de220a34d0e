# ratgames: compiled
"""What Rat-a-Tat Cat's players and spectators see: a seat's observation, the spectator's view,
the events listed in them, and the samples a seat draws of what it cannot see.

What every seat knows is the state's flat table ``known``: row ``r`` (one per seat, plus a last
row for what everyone knows, the spectator's row) holds, for every place at the table, the card
that row has seen there or ``-1``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ratgames.core.events import Event, logged_json
from ratgames.core.game import JSON
from ratgames.core.rng import Rng

from .action import OVER, PHASE_NAMES
from .cards import CARD_TEXT, PEEK, SLOTS, origin_kept, origin_pool

if TYPE_CHECKING:
    from .rules import RatState

EVENTS_SHOWN = 60
"""How many of the latest events an observation lists."""


# --- round results -------------------------------------------------------------------------------


class RoundResult(NamedTuple):
    """One finished round: every row face up, the sums, the winners and the totals after it."""

    round: int
    dealer: int
    hands: tuple[int, ...]
    """Every slot's card after power cards were replaced (slot ``i`` of seat ``s`` at
    ``s * 4 + i``; ``-1`` for a seat out of the game)."""
    sums: tuple[int, ...]
    """Each seat's sum (0 for a seat out of the game)."""
    winners: tuple[int, ...]
    knocker: int | None
    """The seat that knocked, or None (the turn cap ended the round)."""
    capped: bool
    """True when the turn cap, not a knock, ended the round."""
    totals: tuple[int, ...]
    """Each seat's total after the round."""
    active: tuple[bool, ...]
    """Which seats were dealt in."""

    def to_json(self) -> dict[str, JSON]:
        """The round as JSON (rows and sums of seats not dealt in are None)."""
        players = len(self.sums)
        return {
            "round": self.round,
            "dealer": self.dealer,
            "hands": [
                [CARD_TEXT[c] for c in self.hands[s * SLOTS : s * SLOTS + SLOTS]]
                if self.active[s]
                else None
                for s in range(players)
            ],
            "sums": [self.sums[s] if self.active[s] else None for s in range(players)],
            "winners": list(self.winners),
            "knocker": self.knocker,
            "capped": self.capped,
            "totals": list(self.totals),
        }


def rows(state: RatState, row: int) -> list[list[str | None]]:
    """Row ``row`` of what is known (a seat's, or the last: everyone's), seat by seat."""
    g = state.game
    known = state.known
    base = row * g.p4
    out: list[list[str | None]] = []
    for s in range(g.players):
        out.append(
            [
                CARD_TEXT[c] if (c := known[base + s * SLOTS + i]) >= 0 else None
                for i in range(SLOTS)
            ]
        )
    return out


def public(state: RatState, events: bool = True) -> dict[str, JSON]:
    """What everybody sees (see :func:`observation`)."""
    g = state.game
    p = g.players
    count = state._event_count
    return {
        "game": g.id,
        "players": p,
        "options": dict(g.options),
        "round": state.rnd,
        "dealer": state.dealer,
        "turn": None if state.phase == OVER else state.turn,
        "phase": PHASE_NAMES[state.phase],
        "draws_left": state.extra,
        "knocker": state.knocker if state.knocker >= 0 else None,
        "closer": state.closer if state.closer >= 0 and state.phase != OVER else None,
        "turns_this_round": state.rturns,
        "turns": state.turns,
        "in_round": in_round(state),
        "out": [bool(state.elim[s]) for s in range(p)],
        "face_up": face_up(state),
        "draw_pile": len(state.draw),
        "draw_holds": [CARD_TEXT[c] for c in state.in_draw],
        "discard": discard(state),
        "discard_top": discard_top(state),
        "totals": list(state.totals),
        "results": [r.to_json() for r in state.results],
        "events": event_list(state, EVENTS_SHOWN) if events else [],
        "events_start": count - min(count, EVENTS_SHOWN),
        "over": state.phase == OVER,
        "outcome": state.outcome_.to_json() if state.outcome_ is not None else None,
    }


def in_round(state: RatState) -> list[bool]:
    """Which seats are dealt in this round."""
    hands = state.hands
    return [hands[s * SLOTS] >= 0 for s in range(state.game.players)]


def face_up(state: RatState) -> list[list[bool]]:
    """Each seat's face-up slots."""
    faceup = state.faceup
    return [faceup[s * SLOTS : s * SLOTS + SLOTS] for s in range(state.game.players)]


def discard(state: RatState) -> list[str]:
    """The discard pile, top first."""
    return [CARD_TEXT[c] for c in reversed(state.discard)]


def discard_top(state: RatState) -> str | None:
    """The discard pile's top card, if any."""
    return CARD_TEXT[state.discard[-1]] if state.discard else None


def public_events(state: RatState, limit: int | None = None) -> list[Event]:
    """The public events of the game, oldest first (only the latest ``limit`` if given)."""
    return [kind(*fields) for kind, fields in state._logged(-1 if limit is None else limit)]


def event_list(state: RatState, limit: int | None) -> list[dict[str, JSON]]:
    """The latest ``limit`` public events (all if None), as JSON."""
    return logged_json(state.game, state._logged(-1 if limit is None else limit))


def events_start(state: RatState) -> int:
    """How many events came before those an observation lists."""
    count = state._event_count
    return count - min(count, EVENTS_SHOWN)


def observation(state: RatState, seat: int, events: bool) -> dict[str, JSON]:
    """:meth:`RatState.observation` of ``seat`` (a seat of the game)."""
    view = public(state, events)
    view["seat"] = seat
    view["slots"] = rows(state, seat)
    view["yours"] = view["slots"][seat]
    view["held"] = held_for(state, seat)
    view["held_from"] = held_from(state)
    return view


def held_for(state: RatState, seat: int) -> str | None:
    """The card held now as ``seat`` sees it (``"hidden"`` if another seat drew it)."""
    if state.held < 0:
        return None
    return CARD_TEXT[state.held] if state.turn == seat or state.held_pub else "hidden"


def held_from(state: RatState) -> str | None:
    """Where the card held now came from."""
    return None if state.held < 0 else ("discard" if state.held_pub else "draw")


def spectator_view(state: RatState) -> dict[str, JSON]:
    """:meth:`RatState.spectator_view`."""
    view = public(state)
    view["seat"] = None
    view["slots"] = rows(state, state.game.players)
    if state.held >= 0:
        view["held"] = CARD_TEXT[state.held] if state.held_pub else "hidden"
    else:
        view["held"] = None
    view["held_from"] = held_from(state)
    return view


OBSERVATION_PARTS: dict[str, Callable[[RatState, int, bool], JSON]] = {
    "seat": lambda s, seat, events: seat,
    "round": lambda s, seat, events: s.rnd,
    "phase": lambda s, seat, events: PHASE_NAMES[s.phase],
    "turn": lambda s, seat, events: None if s.phase == OVER else s.turn,
    "draws_left": lambda s, seat, events: s.extra,
    "in_round": lambda s, seat, events: in_round(s),
    "face_up": lambda s, seat, events: face_up(s),
    "discard": lambda s, seat, events: discard(s),
    "discard_top": lambda s, seat, events: discard_top(s),
    "events": lambda s, seat, events: event_list(s, EVENTS_SHOWN) if events else [],
    "events_start": lambda s, seat, events: events_start(s),
    "slots": lambda s, seat, events: rows(s, seat),
    "held": lambda s, seat, events: held_for(s, seat),
    "totals": lambda s, seat, events: list(s.totals),
}
"""The observation's entries that bots read at every move, each built on its own exactly as
:func:`observation` builds it (:meth:`State.observation_part`): the state class's
:attr:`State._observation_parts`."""


# --- samples --------------------------------------------------------------------------------------

SamplePlan = tuple[
    bool,
    list[int],
    list[tuple[int, list[int], list[int], list[int], list[int]]],
    list[tuple[int, int]],
]
"""See :func:`sample_plan`."""


def _holds(kinds: tuple[int, ...], powers: list[int], places: list[int], first: int) -> bool:
    """True if, with ``powers[k]`` at ``places[k]``, each card of ``kinds`` is at a place from
    ``first`` on (in the draw pile)."""
    for kind in kinds:
        for k, card in enumerate(powers):
            if card == kind and places[k] >= first:
                break
        else:
            return False
    return True


def sample_consistent(state: RatState, seat: int, rng: Rng) -> RatState:
    """A state ``seat`` (a seat of the game) cannot tell from ``state``, the cards it has not
    seen dealt at random among the places they may be.

    Where a card may be is public: each hidden card belongs to a *pool* (the deal, or one
    reshuffle of the discard pile, whose cards everybody saw), and it stays among the places
    of its pool (the unseen slots filled from it and, for the latest pool, the draw pile and
    a drawn card another player holds).  A card kept from the draw pile, or held after
    drawing it, is a number card (a power card drawn is shown and used).  Within those
    bounds every arrangement is equally likely.
    """
    p4 = state.game.p4
    held_hidden, template, pools, updates = sample_plan(state, seat)
    values = template[:]
    for pool, powers, nums, free, numbers in pools:
        power = len(powers)
        if power:  # power cards go to places that may hold any card, chosen at random
            places = free[:]
            size = len(places)
            while True:
                for k in range(power):
                    j = k + rng.randbelow(size - k)
                    places[k], places[j] = places[j], places[k]
                if pool or _holds(state.in_draw, powers, places, p4 + 1):
                    break
            for k in range(power):
                values[places[k]] = powers[k]
            rest = places[power:] + numbers
        else:
            rest = free + numbers
        shuffled = nums[:]
        rng.shuffle(shuffled)
        for c, place in zip(shuffled, rest, strict=True):
            values[place] = c
    new = state.clone()  # its rows and draw pile are dealt anew below
    new.hands = hands = values[:p4]
    if held_hidden:
        new.held = values[p4]
    new.draw = values[p4 + 1 :]
    known = new.known
    for index, slot in updates:
        known[index] = hands[slot]
    new.deal0 = {}
    new._plan = None
    new._forget_origin(rng)
    return new


def sample_plan(state: RatState, seat: int) -> SamplePlan:
    """What every :func:`sample_consistent` for ``seat`` in this position starts from (made
    once per position and seat: search draws thousands of samples of one position).

    Places are slots ``0..p4-1``, the held card at ``p4`` and the draw pile from ``p4 + 1``
    on (bottom first).  The plan holds whether the held card is hidden, the values of every
    place as they are, and per pool with hidden cards: its power cards, its number cards (in
    card order), the places that may hold any card and those that hold a number card; last,
    the entries of the rows of knowledge that show a hidden slot, with the slot."""
    plan = state._plan
    if plan is not None and plan[0] == seat:
        return plan[1]
    p4 = state.game.p4
    hands = state.hands
    known = state.known
    origin = state.origin
    base = seat * p4
    now = state.pool
    cards: list[list[int]] = [[] for _ in range(now + 1)]
    free: list[list[int]] = [[] for _ in range(now + 1)]
    numbers: list[list[int]] = [[] for _ in range(now + 1)]
    hidden = []
    for i in range(p4):
        c = hands[i]
        if c >= 0 and known[base + i] < 0:
            o = origin[i]
            pool = origin_pool(o)
            cards[pool].append(c)
            (numbers if origin_kept(o) else free)[pool].append(i)
            hidden.append(i)
    held_hidden = state.held >= 0 and not state.held_pub and state.turn != seat
    if held_hidden:
        cards[now].append(state.held)
        numbers[now].append(p4)
    draw = state.draw
    cards[now].extend(draw)
    free[now].extend(range(p4 + 1, p4 + 1 + len(draw)))
    pools = []
    for pool in range(now + 1):
        pool_cards = cards[pool]
        if not pool_cards:
            continue
        pool_cards.sort()
        split = len(pool_cards)
        while split and pool_cards[split - 1] >= PEEK:
            split -= 1
        pools.append((pool, pool_cards[split:], pool_cards[:split], free[pool], numbers[pool]))
    updates = [
        (r * p4 + i, i) for r in range(state.game.rows) for i in hidden if known[r * p4 + i] >= 0
    ]
    made: SamplePlan = (held_hidden, [*hands, state.held, *draw], pools, updates)
    state._plan = (seat, made)
    return made
