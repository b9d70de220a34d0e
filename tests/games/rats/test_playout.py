"""Rats' fast random play-out (``rats/playout.py``) against the plain rules: from the same
positions and seeds, the play-out that plays on leaves every field of the position, every view and
the generators as the plain loop over ``legal_actions`` and ``apply_trusted`` does; the one only to
be scored leaves every field as that loop does under ``only_scored_after`` (the next round dealt
without shuffling the reserves)."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.rng import Rng
from ratgames.games.rats.rules import RatsState


def position(state: RatsState) -> list[Any]:
    """Every field of the position."""
    return [(f, getattr(state, f)) for f in RatsState.__slots__]


def plain(state: RatsState, rng: Rng, depth: int, stage: int) -> int:
    steps = 0
    while not state.is_over() and steps < depth and (stage < 0 or state.stage() == stage):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    return steps


@pytest.mark.parametrize(
    ("players", "options"), [(4, {}), (2, {"jokers": 2}), (3, {"jokers": 1}), (5, {})]
)
def test_the_fast_play_out_is_the_plain_rules(players: int, options: dict[str, Any]) -> None:
    game = ratgames.get_game("rats", players=players, options=options)
    checked = scored_rounds = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        state.set_recording(False)
        pick = Rng(seed + 50)
        step = 0
        while not state.is_over():
            if step % 7 == 0:
                for depth, stage in ((100_000, state.stage()), (5, state.stage()), (40, -1)):
                    for scored in (False, True) if stage >= 0 else (False,):
                        fast, slow = state.clone(), state.clone()
                        if scored:
                            slow.only_scored_after(stage)
                        r1, r2 = Rng(step), Rng(step)
                        n = fast.random_playout(r1, depth, stage, scoring_only=scored)
                        assert n == plain(slow, r2, depth, stage)
                        assert r1.state == r2.state
                        # The state's own generator (the reserves' shuffles) in step too.
                        assert fast._chance.rng.state == slow._chance.rng.state
                        assert position(fast) == position(slow)
                        assert fast.event_count == slow.event_count
                        assert fast.outcome() == slow.outcome()
                        assert fast.win_estimate() == slow.win_estimate()
                        assert fast.stage() == slow.stage()
                        if scored and fast.stage() != stage and not fast.is_over():
                            scored_rounds += 1
                        if not scored:
                            for seat in range(players):
                                assert fast.observation(seat) == slow.observation(seat)
                        checked += 1
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_trusted(seat, legal[pick.randbelow(len(legal))])
            step += 1
    assert checked > 50 and scored_rounds > 5


def test_a_state_that_keeps_a_log_plays_out_as_the_plain_loop() -> None:
    game = ratgames.get_game("rats")
    state = game.new_state(seed=3)
    fast, slow = state.clone(), state.clone()
    assert fast.random_playout(Rng(1), 60) == plain(slow, Rng(1), 60, -1)
    assert fast.events() == slow.events()
    assert position(fast) == position(slow)
