"""Helpers for the Rat-a-Tat Cat tests: scripted deals, moves written as text, what happened."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import ratgames
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK
from ratgames.games.rat_a_tat_cat.rules import RatState


def make_deal(
    hands: Sequence[Sequence[str]],
    draw: Sequence[str] = (),
    discard: Sequence[str] = ("5",),
) -> dict[str, Any]:
    """A deal with the given rows, the given top of the draw pile (top first) and discard pile;
    every other card goes below in the draw pile, number cards first then power cards."""
    used = Counter([c for row in hands for c in row] + list(draw) + list(discard))
    rest = Counter(CARD_TEXT[c] for c in DECK) - used
    order = {t: i for i, t in enumerate(CARD_TEXT)}
    tail = sorted(rest.elements(), key=lambda t: order[t])
    return {"hands": [list(r) for r in hands], "draw": list(draw) + tail, "discard": list(discard)}


def start(
    hands: Sequence[Sequence[str]],
    draw: Sequence[str] = (),
    discard: Sequence[str] = ("5",),
    **options: Any,
) -> RatState:
    """A game started from a scripted deal (one round unless a mode is given)."""
    options.setdefault("mode", "round")
    game = ratgames.get_game("rat-a-tat-cat", players=len(hands), options=options)
    state = game.new_state(seed=1, deal=make_deal(hands, draw, discard))
    assert isinstance(state, RatState)
    return state


def play(state: RatState, *moves: str) -> None:
    """Apply moves written as 'seat:action' with seats counted from 1."""
    for move in moves:
        seat, _, action = move.partition(":")
        state.apply(int(seat) - 1, action)


def legal(state: RatState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.seats_to_act()[0])]


def texts(state: RatState, seat: int = 0, viewer: int | None = None) -> list[str]:
    """The events in ``seat``'s observation as sentences, worded for ``viewer`` (None: as a
    spectator reads them, every seat by its name)."""
    return [state.game.describe_event(e, viewer) for e in state.observation(seat)["events"]]
