"""Rats action objects of every shape, for the action fuzz (hypothesis).

:func:`action_objects` builds :class:`~ratgames.games.rats.action.RatsAction` objects directly
(never through the notation) with field values of any type: kinds out of range, bools where an
int belongs (``True == 1`` is the kind of a set), floats (nan too), strings, None; cards as
lists, floats, bools, strings, out-of-range ints, a card twice, cards out of canonical order, too
many cards.  Some are legal-looking (real cards read the right way: singles, one-card discard
steps, pairs, runs), so that a fuzz also reaches the plays a state allows.  A few objects are not
of the action class at all (a plain tuple equal to a play, None...).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ratgames.core.game import Game
from ratgames.games.rats.action import DISCARD, RUN, SET, SINGLE, RatsAction, canonical


def _odd_values() -> st.SearchStrategy[Any]:
    """Values of the wrong type or out of range, for any field."""
    return st.one_of(
        st.integers(min_value=-3, max_value=60),
        st.integers(),
        st.booleans(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=0, max_value=53).map(float),
        st.text(max_size=4),
        st.sampled_from(["7H", "AS", "BJ", "discard", "set", ""]),
        st.none(),
        st.tuples(st.integers(min_value=0, max_value=53)),
    )


def _card(game: Game) -> st.SearchStrategy[int]:
    return st.sampled_from(game.deck())


def _legal_looking(game: Game) -> st.SearchStrategy[RatsAction]:
    """Plays made of real cards of the deck, in canonical order, read as the notation would."""
    card = _card(game)
    pair = st.tuples(
        st.integers(0, 12), st.lists(st.integers(0, 3), min_size=2, max_size=4, unique=True)
    )
    run = st.tuples(st.integers(0, 3), st.integers(0, 10), st.integers(3, 5))
    return st.one_of(
        card.map(lambda c: RatsAction(SINGLE, (c,))),
        card.map(lambda c: RatsAction(DISCARD, (c,))),
        pair.map(lambda p: RatsAction(SET, tuple(p[0] * 4 + s for s in sorted(p[1])))),
        run.map(
            lambda r: RatsAction(
                RUN,
                canonical(
                    RUN,
                    [(q - 1 if q else 12) * 4 + r[0] for q in range(r[1], r[1] + r[2]) if q < 13],
                ),
            )
        ),
        st.lists(card, min_size=1, max_size=4, unique=True).flatmap(
            lambda cs: st.sampled_from([SINGLE, SET, RUN, DISCARD]).map(
                lambda k: RatsAction(k, canonical(k, cs))
            )
        ),
    )


def _odd(game: Game) -> st.SearchStrategy[Any]:
    """Plays with at least a chance of a field of the wrong type, value or order."""
    kind = st.one_of(st.sampled_from([SINGLE, SET, RUN, DISCARD]), _odd_values())
    card = st.one_of(_card(game), _odd_values())
    cards = st.one_of(
        st.lists(card, max_size=5).map(tuple),
        st.lists(_card(game), min_size=2, max_size=14).map(tuple),
        st.lists(card, max_size=3),
        _odd_values(),
    )
    legal_kind_odd_card = st.tuples(st.sampled_from([SINGLE, DISCARD]), _odd_values()).map(
        lambda kc: RatsAction(kc[0], (kc[1],))
    )
    return st.one_of(
        st.builds(RatsAction, kind, cards),
        legal_kind_odd_card,
        # A real play with its kind or a card given another type that compares equal.
        _legal_looking(game).map(
            lambda a: RatsAction(bool(a.kind) if a.kind < 2 else float(a.kind), a.cards)
        ),
        _legal_looking(game).map(lambda a: RatsAction(a.kind, tuple(float(c) for c in a.cards))),
        _legal_looking(game).map(lambda a: RatsAction(a.kind, tuple(a.cards[::-1]))),
        _legal_looking(game).map(lambda a: RatsAction(a.kind, (*a.cards, a.cards[0]))),
        _legal_looking(game).map(lambda a: RatsAction(a.kind, list(a.cards))),  # type: ignore[arg-type]
    )


def _not_actions(game: Game) -> st.SearchStrategy[Any]:
    """Objects that are not Rats plays at all (tuples equal to one, None, ints...)."""
    return st.one_of(
        _legal_looking(game).map(tuple),
        st.none(),
        st.integers(),
        st.builds(lambda c: [c], _card(game)),
        _legal_looking(game).map(lambda a: tuple.__new__(RatsAction, (*a, 0))),
    )


def action_objects(game: Game) -> st.SearchStrategy[object]:
    """Rats action objects with any field values of any type, some of them legal."""
    return st.one_of(_legal_looking(game), _odd(game), _not_actions(game))
