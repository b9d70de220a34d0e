# ratgames: compiled
"""The numbered parts of an Egyptian Ratscrew position: its phase, each seat's status and the
slap rule the pile meets, as the rules number them and as views, events and snapshots name
them."""

from __future__ import annotations

from typing import Final

PLAY: Final = 0
"""A seat is to play its top card (or answer a challenge)."""
COLLECT: Final = 1
"""A challenge is won: its challenger is to collect the pile (unless somebody slaps first)."""
FINAL: Final = 2
"""One player holds every card off the table: they are to collect it to win (or a slap first)."""
OVER: Final = 3
"""The game is over."""
PHASE_NAMES: Final = ("play", "collect", "final", "over")

IN: Final = 0
"""A seat in the game (with or without cards)."""
WAITING: Final = 1
"""A newcomer's seat, not dealt in, that may join by slapping in."""
OUT: Final = 2
"""A seat out of the game for good."""
STATUS_NAMES: Final = ("in", "waiting", "out")

# The slap rules (0: the pile cannot be slapped).
DOUBLES: Final = 1
SANDWICH: Final = 2
TOP_BOTTOM: Final = 3
TENS: Final = 4
MARRIAGE: Final = 5
DIVORCE: Final = 6
RUN: Final = 7
JOKER: Final = 8
RULE_NAMES: Final = (
    "",
    "doubles",
    "sandwich",
    "top_bottom",
    "tens",
    "marriage",
    "divorce",
    "run",
    "joker",
)
