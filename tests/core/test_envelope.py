"""The observation envelope is the same few facts for every game, built by the core."""

from __future__ import annotations

import json
import random

import pytest

import ratgames
from ratgames.core.envelope import envelope
from ratgames.core.errors import IllegalAction


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_every_game_fills_the_envelope_as_its_state_says(game_id: str) -> None:
    game = ratgames.get_game(game_id)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    before = -1
    moves = 0
    while True:
        for seat in (None, *range(game.players)):
            env = envelope(state, seat)
            assert env.seat == seat
            assert json.loads(json.dumps(env.to_json())) == env.to_json()
        assert env.over == state.is_over() and env.events == state.event_count >= before
        before = env.events
        if env.over or moves >= 60 or not env.to_act:
            break
        assert env.to_act == tuple(state.seats_to_act()) and env.scores is None
        seat = env.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    if env.over:
        outcome = state.outcome()
        assert outcome is not None and env.scores == outcome.points and env.to_act == ()


def test_a_bad_seat_is_refused() -> None:
    state = ratgames.get_game("caged-rats").new_state(seed=1)
    for bad in (-1, 2, True, "0"):
        with pytest.raises(IllegalAction, match="is not a seat; the seats are 0 to 1"):
            envelope(state, bad)  # type: ignore[arg-type]
