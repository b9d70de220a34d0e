"""Rat-a-Tat Cat's fast random play-out (``rat_a_tat_cat/playout.py``) against the plain rules:
from the same positions and seeds it plays the actions the plain loop over ``legal_actions`` and
``apply_trusted`` plays, draws the same numbers and leaves the same position (snapshot, views);
only to be scored, it leaves what the plain loop leaves under ``only_scored_after`` (the round
that ends it scored, the next one not dealt)."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.rules import RatATatCat, RatState


def plain(state: RatState, rng: Rng, depth: int, stage: int) -> int:
    steps = 0
    while not state.is_over() and steps < depth and (stage < 0 or state.stage() == stage):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    return steps


def seen(state: RatState) -> list[Any]:
    seats = range(state.game.players)
    return [
        state.snapshot(),
        [state.observation(s) for s in seats],
        [state.sample_consistent(s, Rng(9)).snapshot() for s in seats if not state.is_over()],
    ]


@pytest.mark.parametrize("variant", range(len(RatATatCat.variants)))
@pytest.mark.parametrize("players", [2, 5])
def test_the_fast_play_out_is_the_plain_rules(variant: int, players: int) -> None:
    game = ratgames.get_game(
        "rat-a-tat-cat", players=players, options=dict(RatATatCat.variants[variant])
    )
    checked = scored_past = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        assert isinstance(state, RatState)
        state.set_recording(False)
        pick = Rng(seed + 50)
        step = 0
        while not state.is_over():
            if step % 9 == 0:
                for depth, stage in ((100_000, state.stage()), (7, state.stage()), (60, -1)):
                    scored = stage >= 0 and step % 2 == 0
                    fast, slow = state.clone(), state.clone()
                    if scored:
                        slow.only_scored_after(stage)
                    r1, r2 = Rng(step), Rng(step)
                    n = fast.random_playout(r1, depth, stage, scoring_only=scored)
                    assert n == plain(slow, r2, depth, stage)
                    assert r1.state == r2.state
                    if scored:
                        assert fast._last_stage == -1  # the promise lasted the play-out only
                        slow.only_scored_after(-1)
                        scored_past += fast.stage() != stage and not fast.is_over()
                    assert seen(fast) == seen(slow)
                    checked += 1
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.randbelow(len(legal))])
            step += 1
    assert checked > 0
    if game.options["mode"] != "round":
        assert scored_past > 0  # some scored play-outs ended a round and dealt no next one
