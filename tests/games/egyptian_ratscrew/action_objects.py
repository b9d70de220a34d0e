"""Egyptian Ratscrew action objects built directly (not parsed), with field values of any type."""

from __future__ import annotations

from hypothesis import strategies as st

from ratgames.core.game import Game
from ratgames.games.egyptian_ratscrew.action import Move, Slap

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.tuples(st.integers(0, 9)),
    st.lists(st.integers(0, 3), max_size=2),
    st.sampled_from(["1", "0", "2.0", "slap@", "", "🐀"]),
)
"""Anything, of any type (text too, though none that reads as an action: text is notation,
which ``apply`` parses)."""

NAMES = st.sampled_from(["play", "collect", "Play", "play ", "slap", "", "colect"])


def action_objects(game: Game) -> st.SearchStrategy[object]:
    """``Move`` and ``Slap`` holding anything, most often a plausible name or pile version (so
    that many are legal: a slap at the current or an older version, play, collect), mixed with
    objects that are no action of the game at all."""
    return st.one_of(
        st.builds(Slap, st.integers(min_value=-2, max_value=60)),
        st.builds(Slap, ANY),
        st.builds(Move, NAMES),
        st.builds(Move, ANY),
        ANY,
    )
