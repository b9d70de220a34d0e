"""Action objects of the High Card test game built directly, with field values of any type."""

from __future__ import annotations

from hypothesis import strategies as st

from ratgames.core.game import Game
from ratgames.testing import Play

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.tuples(st.integers(0, 9)),
)


def action_objects(game: Game) -> st.SearchStrategy[object]:
    """``Play`` holding anything, most often a card 0-9 (legal or not)."""
    return st.one_of(st.builds(Play, st.integers(0, 9)), st.builds(Play, ANY), ANY)
