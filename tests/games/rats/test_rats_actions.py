"""Rats actions built directly as objects are checked exactly like their notation: refused with
:class:`IllegalAction` (leaving the state untouched) unless they equal a legal play with the same
field types, and an accepted one replays through its notation to the same state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.errors import IllegalAction, InvalidNotation
from ratgames.core.rng import Rng
from ratgames.games.rats.action import DISCARD, SET, SINGLE, RatsAction
from ratgames.games.rats.rules import RatsState

from .action_objects import action_objects


def table(hands: list[str], dealer: int = 0, jokers: int = 0) -> RatsState:
    game = ratgames.get_game("rats", players=len(hands), options={"jokers": jokers})
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(jokers) if c not in used]
    state = game.new_state(seed=5, deal={"dealer": dealer, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    return state


def same_types(a: Any, b: Any) -> bool:
    """``a == b`` with every part of the same type (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_types(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def refused(state: RatsState, seat: int, action: object) -> IllegalAction:
    before = state.snapshot()
    log = state.events()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)  # type: ignore[arg-type]
    assert not state.is_legal(seat, action)
    assert isinstance(state.why_illegal(seat, action), str)
    assert state.snapshot() == before and state.events() == log
    return info.value


def test_a_bool_kind_is_not_the_kind_it_equals() -> None:
    state = table(["7H 7S 2C", "3C 4C 5D"])
    pair = state.game.parse_action("7H 7S")
    assert pair == RatsAction(SET, (parse_card("7H"), parse_card("7S")))
    assert state.is_legal(0, pair)
    err = refused(state, 0, RatsAction(True, pair.cards))  # type: ignore[arg-type]
    assert isinstance(err, InvalidNotation) and "kind" in str(err)
    single = RatsAction(SINGLE, (parse_card("2C"),))
    assert state.is_legal(0, single)
    refused(state, 0, RatsAction(False, single.cards))  # type: ignore[arg-type]
    refused(state, 0, RatsAction(0.0, single.cards))  # type: ignore[arg-type]
    state.apply(0, pair)
    record = json.loads(json.dumps(state.record()))
    assert ratgames.replay(record).snapshot() == state.snapshot()


def test_cards_of_another_type_are_refused_not_crashing() -> None:
    state = table(["7H 7S 2C", "3C 4C 5D"])
    two = parse_card("2C")
    for cards in ((float(two),), (True,), ("2C",), (None,), ([two],), (two, two), (99,), (-1,)):
        err = refused(state, 0, RatsAction(SINGLE, cards))  # type: ignore[arg-type]
        assert "card" in str(err)
    refused(state, 0, RatsAction(SINGLE, [two]))  # type: ignore[arg-type]
    refused(state, 0, RatsAction(SINGLE, ()))
    refused(state, 0, RatsAction(SET, (parse_card("7S"), parse_card("7H"))))  # out of order
    refused(state, 0, RatsAction(SET, (parse_card("7H"), parse_card("7H"))))  # a card twice
    refused(state, 0, RatsAction(7, (two,)))
    refused(state, 0, RatsAction(float("nan"), (two,)))  # type: ignore[arg-type]
    refused(state, 0, (SINGLE, (two,)))  # a plain tuple equal to the play
    refused(state, 0, tuple.__new__(RatsAction, (SINGLE, (two,), 0)))
    refused(state, 0, None)
    state.apply(0, RatsAction(SINGLE, (two,)))


def test_a_discard_step_of_another_type_is_refused() -> None:
    state = table(["9C 9D 2S", "3C 8D KH"])
    state.apply(0, "9C 9D")
    eight = parse_card("8D")
    refused(state, 1, RatsAction(DISCARD, (float(eight),)))
    refused(state, 1, RatsAction(3.0, (eight,)))  # type: ignore[arg-type]
    state.apply(1, RatsAction(DISCARD, (eight,)))


def test_parse_action_tells_malformed_text_from_an_illegal_play() -> None:
    game = ratgames.get_game("rats", players=2)
    for text in (
        "",
        "7X",
        "7H 7H",
        "7H 8C",
        "discard",
        "BJ",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D",
    ):
        with pytest.raises(InvalidNotation):
            game.parse_action(text)
    with pytest.raises(InvalidNotation, match="set' or 'run"):
        ratgames.get_game("rats", players=2, options={"jokers": 2}).parse_action("7H BJ RJ")
    state = table(["7H 7S 2C", "3C 4C 5D"])
    with pytest.raises(IllegalAction) as info:
        state.apply(0, "AS")
    assert not isinstance(info.value, InvalidNotation)
    assert "not in your hand" in str(info.value)
    assert "not in your hand" in state.why_illegal(0, game.parse_action("AS"))


def test_query_methods_refuse_a_bad_seat() -> None:
    state = table(["7H 7S 2C", "3C 4C 5D"])
    action = state.legal_actions(0)[0]
    for bad in (True, False, -1, 2, "0", 0.0, None):
        for method, extra in (
            (state.legal_actions, ()),
            (state.observation, ()),
            (state.sample_consistent, (Rng(1),)),
            (state.is_legal, (action,)),
            (state.why_illegal, (action,)),
        ):
            with pytest.raises(IllegalAction, match="seat"):
                method(bad, *extra)  # type: ignore[operator]


def _positions(seed: int, players: int, jokers: int) -> list[RatsState]:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    state = game.new_state(seed=seed)
    assert isinstance(state, RatsState)
    rng = Rng(seed)
    out = []
    for step in range(120):
        if state.is_over():
            break
        if step % 9 == 0 or state.pending:
            out.append(state.clone())
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    return out[:: max(1, len(out) // 6)]


@pytest.mark.parametrize(("players", "jokers"), [(2, 2), (4, 0), (3, 1)])
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**16), data=st.data())
def test_action_objects_are_checked_like_text(
    players: int, jokers: int, seed: int, data: st.DataObject
) -> None:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    objects = action_objects(game)
    for state in _positions(seed, players, jokers):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        before = state.snapshot()
        for _ in range(6):
            obj = data.draw(objects)
            trial = state.clone()
            ok = any(same_types(obj, a) for a in legal)
            assert trial.is_legal(seat, obj) == ok  # type: ignore[arg-type]
            if not ok:
                with pytest.raises(IllegalAction):
                    trial.apply(seat, obj)  # type: ignore[arg-type]
                assert trial.snapshot() == before
                continue
            trial.apply(seat, obj)  # type: ignore[arg-type]
            parsed = game.parse_action(str(obj))
            assert same_types(parsed, obj)
            again = state.clone()
            again.apply(seat, str(obj))
            assert again.snapshot() == trial.snapshot()
