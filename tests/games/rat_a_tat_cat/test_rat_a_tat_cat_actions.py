"""Rat-a-Tat Cat actions as objects and as text: only the game's own actions, with every field
an int, are accepted; the rest is refused with the right error and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.rat_a_tat_cat.action_objects import action_objects
from tests.games.rat_a_tat_cat.helpers import start

import ratgames
from ratgames.core.errors import IllegalAction, InvalidNotation
from ratgames.core.game import State
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.action import DRAW, K_REPLACE, K_SWAP, REPLACE, Act


def _snap(state: State) -> Any:
    return json.loads(json.dumps(state.snapshot()))


@pytest.mark.parametrize(
    "bad",
    [
        Act(kind=99),
        Act(-1),
        Act(K_REPLACE, True),
        Act(K_REPLACE, 1.0),  # type: ignore[arg-type]
        Act(K_REPLACE, 4),
        Act(K_REPLACE, "1"),  # type: ignore[arg-type]
        Act(True),  # draw is kind 0, not False
        Act(False),
        Act(0.0),  # type: ignore[arg-type]
        Act(float("nan")),  # type: ignore[arg-type]
        Act(None),  # type: ignore[arg-type]
        Act(0, 1),  # a draw carries no number
        Act(K_SWAP, 0, 2, 0),  # there is no seat 3 at a table of two
        (0, 0, 0, 0),
        None,
    ],
)
def test_action_objects_that_are_not_actions_are_refused_as_invalid(bad: object) -> None:
    """Defect 4 of issue 13: ``Act(kind=99)`` raised a KeyError; ``Act(2, True)`` passed as
    ``replace 2`` because ``True == 1``."""
    state = start([["1", "7", "8", "2"], ["3", "9", "9", "4"]], draw=["0"])
    state.apply(0, "draw")  # now every replace N is legal
    before = _snap(state)
    assert not state.is_legal(0, bad)
    with pytest.raises(InvalidNotation):
        state.apply(0, bad)  # type: ignore[arg-type]
    assert _snap(state) == before
    assert "is not" in state.why_illegal(0, bad) or "no seat 3" in state.why_illegal(0, bad)
    state.apply(0, REPLACE[1])
    assert state.snapshot()["hands"][1] == "0"


def test_a_well_formed_action_not_allowed_now_is_a_plain_illegal_action() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "9", "4"]])
    for action in (Act(K_REPLACE, 1), Act(8), "replace 2", "knock"):
        with pytest.raises(IllegalAction) as info:
            state.apply(0, action)
        assert type(info.value) is IllegalAction
        assert "allowed now: draw, take" in str(info.value)
    with pytest.raises(IllegalAction, match="not Seat 2's turn") as info:
        state.apply(1, DRAW)
    assert type(info.value) is IllegalAction


def test_text_that_is_not_an_action_is_invalid_notation() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    for text in ("fly", "replace 5", "replace 0", "swap 1 2", "draw 2", "", "peek"):
        with pytest.raises(InvalidNotation, match="is not an action"):
            game.parse_action(text)
    with pytest.raises(InvalidNotation, match="no seat 3"):
        game.parse_action("swap 1 3:1")
    with pytest.raises(InvalidNotation):
        game.parse_action(3)  # type: ignore[arg-type]
    assert game.parse_action(" Replace   2 ") == REPLACE[1]


def test_a_strange_action_prints_as_what_it_is() -> None:
    assert str(Act(kind=99)) == "Act(kind=99, a=0, p=0, b=0)"
    assert str(Act(K_REPLACE, True)) == "Act(kind=2, a=True, p=0, b=0)"
    assert str(Act(K_REPLACE, 1)) == "replace 2"


def _same(obj: Any, action: Act) -> bool:
    """``obj`` equals ``action`` with every field of the same type."""
    return (
        type(obj) is Act
        and all(type(x) is type(y) for x, y in zip(obj, action, strict=True))
        and obj == action
    )


@pytest.mark.parametrize("players", [2, 3, 6])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), data=st.data())
def test_fuzzed_action_objects_are_refused_unless_legal(
    players: int, seed: int, data: st.DataObject
) -> None:
    """Any action object is refused with IllegalAction, the state unchanged, unless it equals a
    legal action with the same field types; an accepted one replays through its notation."""
    game = ratgames.get_game("rat-a-tat-cat", players=players, options={"younger": players == 3})
    objects = action_objects(game)
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    for _ in range(rng.randbelow(30)):
        if state.is_over():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    if state.is_over():
        return
    seat = state.seats_to_act()[0]
    legal = state.legal_actions(seat)
    before = _snap(state)
    for _ in range(6):
        obj = data.draw(objects)
        trial = state.clone()
        strict = any(_same(obj, a) for a in legal)
        assert state.is_legal(seat, obj) == strict
        try:
            trial.apply(seat, obj)
        except IllegalAction:
            assert not strict, f"the legal {obj!r} was refused"
            assert _snap(trial) == before, f"a refused {obj!r} changed the state"
            continue
        assert strict, f"{obj!r} was accepted"
        again = state.clone()
        again.apply(seat, game.parse_action(str(obj)))
        assert _snap(again) == _snap(trial)
        logged = [e for e in json.loads(json.dumps(trial.record()))["events"] if "action" in e]
        assert logged[-1]["action"] == str(obj)
