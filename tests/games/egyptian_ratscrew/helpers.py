"""Egyptian Ratscrew set-ups shared by the bot and terminal tests."""

from __future__ import annotations

from typing import Any

import ratgames
from ratgames.cards import card_text, parse_card
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState

GID = "egyptian-ratscrew"


def game(players: int = 2, **options: Any) -> EgyptianRatscrew:
    """The game for ``players`` seats with these options."""
    g = ratgames.get_game(GID, players=players, options=options)
    assert isinstance(g, EgyptianRatscrew)
    return g


def table(g: EgyptianRatscrew, *stacks: str) -> RatscrewState:
    """A deal where seat ``i`` holds the cards ``stacks[i]`` names (top card first), then its
    share of the rest of the deck."""
    named = [s.split() for s in stacks]
    used = {parse_card(c) for s in named for c in s}
    filler = [card_text(c) for c in sorted(g.deck()) if c not in used]
    for i in range(len(named)):
        named[i] += filler[i :: len(named)]
    state = g.new_state(seed=1, deal={"stacks": named})
    assert isinstance(state, RatscrewState)
    return state
