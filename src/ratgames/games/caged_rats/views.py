# ratgames: compiled
"""What each seat and a spectator know of a Caged Rats position: the observation, the spectator
view, the current deal's events as a seat sees them, and the samples a seat cannot tell from the
real position (:func:`sample_consistent`)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from ratgames import cards as deckmod
from ratgames.core.events import Event, logged_json
from ratgames.core.game import JSON
from ratgames.core.rng import Rng

from .deck import (
    CAGE,
    COLOUR_KEYS,
    LEADS_PER_DEAL,
    OVER,
    OWNER,
    PHASE_NAMES,
    RAT_VALUE,
    SUIT,
    TEXT,
)
from .events import DealStarted, Threw

if TYPE_CHECKING:
    from .rules import CagedRatsState


def deal_events(state: CagedRatsState, shown: Collection[int]) -> list[Event]:
    """The events of the current deal, oldest first; a card thrown face down is named only for
    the throwers in ``shown``."""
    return [cls(*fields) for cls, fields in deal_entries(state, shown)]


def deal_entries(
    state: CagedRatsState, shown: Collection[int]
) -> list[tuple[type[Event], tuple[Any, ...]]]:
    """:func:`deal_events` as log entries ``(class, fields)``."""
    entries = state._logged(since=DealStarted)
    throws = [0, 0]
    for i, (cls, fields) in enumerate(entries):
        if cls is Threw:
            seat = fields[0]
            card = state.thrown[seat][throws[seat]] if seat in shown else None
            throws[seat] += 1
            entries[i] = (Threw, (seat, card))
    return entries


def face_up_seen(state: CagedRatsState) -> dict[str, JSON]:
    """Each colour's cards seen face up this deal (rats, captures, bids, tops), in order."""
    cards = [*state.rats[0], *state.rats[1], *state.pile]
    for f in state.fed:
        cards.extend(f)
    if state.offer >= 0:
        cards.append(state.offer)
    if state.bid >= 0:
        cards.append(state.bid)
    seen: list[list[str]] = [[], []]
    for c in sorted(cards):
        seen[OWNER[c]].append(TEXT[c])
    return {"red": seen[0], "black": seen[1]}


def cages_json(state: CagedRatsState) -> list[JSON]:
    """Each seat's rats: the card, its suit, the captures it needs and has, and how it is fed."""
    cages: list[JSON] = []
    for seat in (0, 1):
        rats = state.rats[seat]
        cage: list[JSON] = []
        for i, rat in enumerate(rats):
            n = len(state.fed[2 * seat + i])
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


def public(state: CagedRatsState, viewer: int | None, with_events: bool = True) -> dict[str, JSON]:
    """What everyone at the table knows (the deal's events as ``viewer`` sees them)."""
    cages = cages_json(state)
    last: JSON = None
    if state.history:
        h = state.history[-1]
        last = {
            "points": list(h.points),
            "exact_rats": list(h.exact),
            "captures": list(h.captures),
        }
    events: list[JSON] = []
    game = state.game
    if with_events:
        shown = () if viewer is None else (viewer,)
        events = logged_json(game, deal_entries(state, shown))
    phase = state.phase
    options = game.options
    return {
        "phase": PHASE_NAMES[phase],
        "to_act": state.seats_to_act(),
        "dealer": state.dealer,
        "leader": state._leader() if phase not in (CAGE, OVER) else None,
        "lead": min(state.lead_no + 1, LEADS_PER_DEAL),
        "leads_per_deal": LEADS_PER_DEAL,
        "offer": TEXT[state.offer] if state.offer >= 0 else None,
        "offer_from_stock": state.from_stock,
        "bid": TEXT[state.bid] if state.bid >= 0 else None,
        "hand_sizes": [len(state.hands[0]), len(state.hands[1])],
        "stock_sizes": [len(state.stocks[0]), len(state.stocks[1])],
        "discards": len(state.pile) + len(state.thrown[0]) + len(state.thrown[1]),
        "cages": cages,
        "deal_points": [state._deal_points(0), state._deal_points(1)],
        "scores": list(state.scores),
        "target": options["target"],
        "deal": state.deals + (0 if phase == OVER else 1),
        "rubber": state.rubber_no,
        "rubbers_won": list(state.rubber_wins),
        "match": options["match"],
        "single_deal": options["single_deal"],
        "history": [list(h.points) for h in state.history],
        "last_deal": last,
        "face_up_seen": face_up_seen(state),
        "events": events,
    }


def observation(state: CagedRatsState, seat: int, events: bool = True) -> dict[str, JSON]:
    """What ``seat`` knows: the public view, her colour, her hand and her face-down throws."""
    obs = public(state, seat, events)
    obs["seat"] = seat
    obs["colour"] = COLOUR_KEYS[seat]
    obs["hand"] = [TEXT[c] for c in state.hands[seat]]
    obs["your_throws"] = [TEXT[c] for c in state.thrown[seat]]
    return obs


def spectator_view(state: CagedRatsState) -> dict[str, JSON]:
    """What someone watching knows: the public view, every throw unnamed."""
    obs = public(state, None)
    obs["seat"] = None
    return obs


def sample_consistent(state: CagedRatsState, seat: int, rng: Rng) -> CagedRatsState:
    """A state ``seat`` cannot tell from ``state``: her own stock in a random order, and the other
    player's hand, stock and face-down throws dealt at random from the cards of her colour nobody
    has seen face up.  Every such card may be anywhere among them (a throw may be any card of the
    hand, and whoever is to act has a move: the hand sizes are kept)."""
    other = 1 - seat
    s = state.clone()
    s._forget_origin(rng)
    s.initial = None
    own = sorted(state.stocks[seat])
    rng.shuffle(own)
    s.stocks[seat] = own
    opp_hand = state.hands[other]
    opp_stock = state.stocks[other]
    opp_thrown = state.thrown[other]
    pool = sorted(opp_hand + opp_stock + list(opp_thrown))
    rng.shuffle(pool)
    a, b = len(opp_hand), len(opp_hand) + len(opp_stock)
    s.hands[other] = sorted(pool[:a])
    s.stocks[other] = pool[a:b]
    t = tuple(pool[b:])
    s.thrown = (s.thrown[0], t) if other == 1 else (t, s.thrown[1])
    return s


def _seat(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return seat


def _phase(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return PHASE_NAMES[state.phase]


def _hand(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return [TEXT[c] for c in state.hands[seat]]


def _cages(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return cages_json(state)


def _offer(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return TEXT[state.offer] if state.offer >= 0 else None


def _bid(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return TEXT[state.bid] if state.bid >= 0 else None


def _face_up_seen(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return face_up_seen(state)


def _scores(state: CagedRatsState, seat: int, events: bool) -> JSON:
    return list(state.scores)


OBSERVATION_PARTS: dict[str, Callable[[CagedRatsState, int, bool], JSON]] = {
    "seat": _seat,
    "phase": _phase,
    "hand": _hand,
    "cages": _cages,
    "offer": _offer,
    "bid": _bid,
    "face_up_seen": _face_up_seen,
    "scores": _scores,
}
"""The observation's entries that bots read at every move, each built on its own exactly as
:func:`observation` builds it (:meth:`State.observation_part`): the state class's
:attr:`State._observation_parts`."""
