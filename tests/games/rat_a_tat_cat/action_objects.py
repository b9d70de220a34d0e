"""Rat-a-Tat Cat action objects built directly (not parsed), for the action fuzz of the generic
suite (``tests/test_generic.py``) and of this game's own tests.

Every field of :class:`Act` gets values of any type: kinds and numbers in and out of range,
bools (``True == 1``), floats (``1.0 == 1``, nan, infinities), strings, None, tuples; mixed with
the game's real actions and with near misses of them (one field changed to an equal value of
another type, or to its text).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ratgames.core.game import Game
from ratgames.games.rat_a_tat_cat.action import Act
from ratgames.games.rat_a_tat_cat.rules import RatATatCat

_ODD = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.0, 3.0, -0.0]),
    st.text(max_size=4),
    st.sampled_from(["1", "draw", "0", "swap"]),
    st.none(),
    st.tuples(st.integers(-2, 6)),
    st.integers(min_value=-(10**20), max_value=10**20),
)


def _field(small: int) -> st.SearchStrategy[Any]:
    """A value for one field: mostly ints near the real range, else anything."""
    return st.one_of(st.integers(-2, small), st.integers(-2, small), _ODD)


def _near_miss(action: Act, which: int) -> Act:
    """``action`` with field ``which % 4`` replaced by an equal value of another type: a bool or
    a float for ``which`` below 8, else its text."""
    fields: list[Any] = list(action)
    i = which % 4
    value = fields[i]
    if which < 8:
        fields[i] = {0: False, 1: True}.get(value, float(value))
    else:
        fields[i] = str(value)
    return Act(*fields)


def action_objects(game: Game) -> st.SearchStrategy[object]:
    """Action objects of ``game`` (a Rat-a-Tat Cat game) with any field values of any type."""
    assert isinstance(game, RatATatCat)
    real = game.action_space()
    any_act = st.builds(Act, _field(10), _field(5), _field(7), _field(5))
    short = st.one_of(
        st.builds(Act, _field(10)),
        st.builds(Act, _field(10), _field(5)),
    )
    legal_looking = st.sampled_from(real)
    near = st.builds(_near_miss, legal_looking, st.integers(0, 11))
    others: st.SearchStrategy[object] = st.one_of(
        st.tuples(st.integers(0, 8), st.integers(0, 3), st.integers(0, 5), st.integers(0, 3)),
        st.sampled_from(list(real)).map(tuple),
        st.none(),
        st.integers(0, 8),
    )
    return st.one_of(legal_looking, legal_looking, any_act, short, near, others)
