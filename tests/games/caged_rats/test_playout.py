"""Caged Rats' fast random play-out (``caged_rats/playout.py``) against the plain rules: from the
same positions and seeds, the play-out only to be scored leaves every field of the position as
the plain loop over ``legal_actions`` and ``apply_trusted`` does (under ``only_scored_after``,
which deals no next deal either), its log aside; the one that plays on is the plain loop's in
everything, log included."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.rng import Rng
from ratgames.games.caged_rats.rules import CagedRatsState

FIELDS = (
    "actor",
    "bid",
    "capped",
    "dealer",
    "deals",
    "fed",
    "from_stock",
    "hands",
    "history",
    "lead_no",
    "leads_total",
    "offer",
    "phase",
    "pile",
    "rats",
    "rubber_no",
    "rubber_wins",
    "scores",
    "stocks",
    "thrown",
)


def position(state: CagedRatsState) -> list[Any]:
    """Every field of the position but the log."""
    return [getattr(state, f) for f in FIELDS]


def plain(state: CagedRatsState, rng: Rng, depth: int, stage: int) -> int:
    steps = 0
    while not state.is_over() and steps < depth and (stage < 0 or state.stage() == stage):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    return steps


@pytest.mark.parametrize("options", [{}, {"single_deal": True}, {"match": True}])
def test_the_fast_play_out_is_the_plain_rules(options: dict[str, Any]) -> None:
    game = ratgames.get_game("caged-rats", options=options)
    checked = 0
    for seed in range(12):
        state = game.new_state(seed=seed)
        state.set_recording(False)
        pick = Rng(seed + 50)
        step = 0
        while not state.is_over():
            if step % 5 == 0:
                for depth, stage in ((100_000, state.stage()), (7, state.stage()), (30, -1)):
                    fast, slow = state.clone(), state.clone()
                    slow.only_scored_after(stage)
                    r1, r2 = Rng(step), Rng(step)
                    scored = stage >= 0
                    n = fast.random_playout(r1, depth, stage, scoring_only=scored)
                    assert n == plain(slow, r2, depth, stage)
                    assert r1.state == r2.state
                    assert position(fast) == position(slow)
                    if not scored:
                        assert fast.observation(0) == slow.observation(0)
                        assert fast.observation(1) == slow.observation(1)
                    checked += 1
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.randbelow(len(legal))])
            step += 1
    assert checked > 100
