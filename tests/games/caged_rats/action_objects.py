"""Caged Rats action objects of every shape, for the action fuzz (hypothesis).

:func:`action_objects` builds :class:`~ratgames.games.caged_rats.action.Act` objects directly
(never through the notation) with field values of any type: out-of-range ints, bools where an int
belongs, floats (nan and infinities too), strings, None, tuples, a cage naming one card twice or
its higher card first, a cage of mixed colours, a second card on an action that takes one.  Some
of them are legal-looking (a real card of the right kind), so that a fuzz also reaches the
actions a state allows.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ratgames.core.game import Game
from ratgames.games.caged_rats.action import Act
from ratgames.games.caged_rats.deck import BLACK_CARDS, RED_CARDS

KINDS = ("cage", "offer", "bid", "top", "throw", "feed")


def _odd_values() -> st.SearchStrategy[Any]:
    """Field values of the wrong type or out of range."""
    return st.one_of(
        st.integers(min_value=-5, max_value=60),
        st.integers(),
        st.booleans(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=0, max_value=51).map(float),
        st.text(max_size=4),
        st.sampled_from(["5H", "AS", "1", "feed", ""]),
        st.none(),
        st.tuples(st.integers(min_value=0, max_value=51)),
        st.just((1, 2)),
    )


def _card() -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=51)


def _legal_looking() -> st.SearchStrategy[Any]:
    """Actions of the right kind with real cards (each colour's cage in either order)."""
    colour = st.sampled_from([RED_CARDS, BLACK_CARDS])
    same_colour_pair = colour.flatmap(
        lambda cards: st.tuples(st.sampled_from(cards), st.sampled_from(cards))
    )
    return st.one_of(
        st.builds(Act, st.sampled_from(KINDS[1:5]), _card()),
        st.builds(Act, st.sampled_from(KINDS[1:5]), _card(), st.just(-1)),
        same_colour_pair.map(lambda p: Act("cage", min(p), max(p))),
        same_colour_pair.map(lambda p: Act("cage", p[0], p[1])),
        st.builds(Act, st.just("feed"), st.sampled_from([1, 2])),
    )


def _odd() -> st.SearchStrategy[Any]:
    """Actions with at least a chance of a field of the wrong type, value or order."""
    kind = st.one_of(st.sampled_from(KINDS), _odd_values(), st.sampled_from(["CAGE", "pass"]))
    card = st.one_of(_card(), _odd_values())
    return st.one_of(
        st.builds(Act, kind, card),
        st.builds(Act, kind, card, card),
        st.builds(Act, st.just("cage"), _card(), _card()),
        st.builds(Act, st.just("feed"), st.one_of(st.sampled_from([0, 1, 2, 3]), _odd_values())),
        st.builds(Act, st.sampled_from(KINDS), st.booleans(), st.one_of(st.booleans(), _card())),
    )


def _not_acts() -> st.SearchStrategy[Any]:
    """Objects that are not the game's action class at all (tuples equal to an Act, None...)."""
    return st.one_of(
        st.builds(lambda k, c: (k, c, -1), st.sampled_from(KINDS), _card()),
        st.none(),
        st.integers(),
        st.builds(lambda c: [c], _card()),
    )


def action_objects(game: Game) -> st.SearchStrategy[object]:
    """Caged Rats action objects with any field values of any type, some of them legal."""
    del game  # one action class for every option of the game
    return st.one_of(_legal_looking(), _odd(), _not_acts())
