"""Each game's features (its observation vector read straight from the state, compiled with the
engine) against the encoder's vector made from the seat's observation: equal for every seat in
every position of played games, pending run shapes and finished games included.  They are what
the batched environments write, so a difference here is a difference in what an agent sees."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import ratgames
from ratgames.rl.encoding import encoder_for
from ratgames.rl.vector import SelfPlayBatch

CASES = [
    ("caged-rats", 2, {}),
    ("caged-rats", 2, {"single_deal": True}),
    ("caged-rats", 2, {"match": True, "target": 40}),
    ("rats", 2, {}),
    ("rats", 3, {"jokers": 1}),
    ("rats", 5, {"jokers": 2}),
    ("rat-a-tat-cat", 2, {"mode": "round"}),
    ("rat-a-tat-cat", 4, {}),
    ("rat-a-tat-cat", 6, {"edition": "forlago"}),
    ("egyptian-ratscrew", 2, {}),
    ("egyptian-ratscrew", 4, {"jokers": 2}),
]


def _check(enc: Any, state: Any, seat: int, pending: tuple[int, ...] = ()) -> None:
    fast = enc.observe(state, seat, pending)
    slow = enc.observe_slow(state, seat, pending)
    if not np.array_equal(fast, slow):
        wrong = np.flatnonzero(fast != slow)[:5].tolist()
        names = [
            next(n for n, (lo, hi) in enc.layout.offsets.items() if lo <= i < hi) for i in wrong
        ]
        raise AssertionError(f"seat {seat}: features differ at {wrong} ({names})")


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_features_equal_the_observations_vector(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    enc = encoder_for(game)
    assert enc.features is not None
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(300):
            for seat in range(players):
                _check(enc, state, seat)
                checked += 1
            if state.is_over():
                break
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            action = rng.choice(legal)
            ids = enc.action_ids(action)
            if len(ids) > 1:  # a run with jokers: its shape shown while its jokers are chosen
                _check(enc, state, seat, ids[:1])
            state.apply(seat, action)
    assert checked > 100


def test_features_refuse_a_state_they_cannot_read() -> None:
    game = ratgames.get_game("caged-rats")
    enc = encoder_for(game)
    assert enc.features is not None
    with pytest.raises((TypeError, AttributeError)):
        enc.features.write(object(), 0, -1, [], [], [], [])


@pytest.mark.parametrize("all_seats", [False, True])
def test_batch_rows_equal_the_encoders_vectors(all_seats: bool) -> None:
    """The batch's rows (gathered by the compiled loop) are the encoder's vectors of the same
    states, with or without every seat's row."""
    batch = SelfPlayBatch("rat-a-tat-cat", 5, 3, {"mode": "round"}, all_seats=all_seats)
    batch.reset(seed=4)
    enc = batch.encoder
    rng = np.random.default_rng(1)
    for _ in range(150):
        for g, state in enumerate(batch._states):
            seat = int(batch.to_act[g])
            assert state.seats_to_act() == [seat]
            np.testing.assert_array_equal(batch.obs[g], enc.observe_slow(state, seat))
            np.testing.assert_array_equal(batch.masks[g], enc.mask(state.legal_actions(seat)))
            if batch.seat_obs is not None:
                for s in range(3):
                    np.testing.assert_array_equal(batch.seat_obs[g, s], enc.observe_slow(state, s))
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks]))
