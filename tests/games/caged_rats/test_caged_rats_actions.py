"""Caged Rats action objects are checked like text: refused with IllegalAction, changing nothing,
unless they equal a legal action with the same field types; accepted ones replay through their
notation.  Text that is not an action is InvalidNotation; a well-formed illegal move is a plain
IllegalAction with its reason."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.core.errors import IllegalAction, InvalidNotation
from ratgames.core.rng import Rng
from ratgames.games.caged_rats.action import Act
from ratgames.games.caged_rats.rules import CagedRatsState

from .action_objects import action_objects
from .test_caged_rats_rules import new, play


def _snap(state: CagedRatsState) -> Any:
    return json.loads(json.dumps(state.snapshot()))


def _same(a: object, b: object) -> bool:
    """Equal with the same types in every field (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b) or not isinstance(a, tuple) or not isinstance(b, tuple):
        return False
    return len(a) == len(b) and all(
        type(x) is type(y) and x == y for x, y in zip(a, b, strict=True)
    )


@functools.cache
def _states() -> tuple[CagedRatsState, ...]:
    """States in every phase (cage, offer, bid, respond, feed, over), from random play."""
    out: list[CagedRatsState] = []
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    for seed in range(6):
        state = game.new_state(seed=seed)
        assert isinstance(state, CagedRatsState)
        rng = Rng(seed)
        step = 0
        while not state.is_over():
            if step % 3 == 0 or state.phase == 4:
                out.append(state.clone())
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            step += 1
        out.append(state)
    phases = {s.observation(0)["phase"] for s in out}
    assert phases == {"cage", "offer", "bid", "respond", "feed", "over"}
    return tuple(out)


def _check_object(state: CagedRatsState, seat: int, action: object) -> None:
    before = _snap(state)
    legal = state.legal_actions(seat)
    if any(_same(action, a) for a in legal):
        assert state.is_legal(seat, action)
        replay = state.clone()
        state.apply(seat, action)  # type: ignore[arg-type]
        text = str(action)
        assert _same(state.game.parse_action(text), action)
        replay.apply(seat, text)
        assert _snap(replay) == _snap(state)
        return
    assert not state.is_legal(seat, action)
    assert isinstance(state.why_illegal(seat, action), str)
    with pytest.raises(IllegalAction):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert _snap(state) == before, f"a refused {action!r} changed the state"


ACTIONS = action_objects(ratgames.get_game("caged-rats"))


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    pick=st.integers(min_value=0, max_value=10_000), seat=st.sampled_from([0, 1]), action=ACTIONS
)
def test_action_objects_of_any_shape_are_checked_like_text(
    pick: int, seat: int, action: object
) -> None:
    states = _states()
    _check_object(states[pick % len(states)].clone(), seat, action)


def test_every_legal_action_built_directly_is_accepted() -> None:
    for state in _states()[::4]:
        for seat in state.seats_to_act():
            for a in state.legal_actions(seat):
                built = Act(a.kind, a.card, a.card2)
                _check_object(state.clone(), seat, built)


def test_a_cage_naming_one_card_twice_is_refused_and_changes_nothing() -> None:
    state = new()
    before = _snap(state)
    two_h = state.game.parse_card("2H")
    assert not state.is_legal(0, Act("cage", two_h, two_h))
    with pytest.raises(InvalidNotation, match="two different cards"):
        state.apply(0, Act("cage", two_h, two_h))
    assert _snap(state) == before
    assert len(state.hands[0]) == 8


def test_a_cage_with_the_higher_card_first_is_refused() -> None:
    state = new()
    before = _snap(state)
    low, high = state.game.parse_card("2H"), state.game.parse_card("3D")
    assert not state.is_legal(0, Act("cage", high, low))
    with pytest.raises(InvalidNotation, match="lower card first"):
        state.apply(0, Act("cage", high, low))
    assert _snap(state) == before
    # The same two cards lower first are a legal cage; as text, either order is understood.
    assert state.is_legal(0, Act("cage", low, high))
    assert state.game.parse_action("cage 3D 2H") == Act("cage", low, high)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Act("offer", False), "whole number"),  # False == 0 (the 2C), but it is not a card
        (Act("offer", 0.0), "whole number"),
        (Act("offer", 0, 5), "one card"),
        (Act("offer", 52), "0 to 51"),
        (Act("offer", -1), "0 to 51"),
        (Act("offer", "2C"), "whole number"),  # type: ignore[arg-type]
        (Act("nibble", 0), "kind"),
        (Act(None, 0), "kind"),  # type: ignore[arg-type]
        (Act("cage", 0, True), "whole number"),
        (Act("cage", 1, 3), "both red or both black"),
        (Act("feed", True), "rat 1 or 2"),
        (Act("feed", 3), "rat 1 or 2"),
        (("offer", 0, -1), "not a Caged Rats action"),
        (None, "not a Caged Rats action"),
    ],
)
def test_objects_of_the_wrong_type_are_refused_by_name(action: Any, reason: str) -> None:
    state = new(dealer="red")  # black cages first and leads first
    play(state, "cage 3S 4C", "cage 2H 3D")
    before = _snap(state)
    with pytest.raises(InvalidNotation, match=reason):
        state.apply(1, action)
    assert _snap(state) == before
    assert reason in state.why_illegal(1, action)
    assert not state.is_legal(1, action)
    state.apply(1, Act("offer", 0))  # the 2C itself, as a whole number, is legal


def test_text_that_is_no_action_is_invalid_notation_and_illegal_moves_are_plain() -> None:
    game = ratgames.get_game("caged-rats")
    for text in [
        "nibble",
        "",
        "cage 5H",
        "cage 5H 5H",
        "cage 5H 9S",
        "feed 3",
        "offer RJ",
        "offer XX",
        "bid 7D 8D",
    ]:
        with pytest.raises(InvalidNotation):
            game.parse_action(text)
    state = new()
    with pytest.raises(IllegalAction, match="cage two rats") as refused:
        state.apply(0, "offer 2H")
    assert type(refused.value) is IllegalAction
    with pytest.raises(IllegalAction, match="not in your hand") as refused:
        state.apply(0, "cage 2H 6H")
    assert type(refused.value) is IllegalAction
