# ratgames: compiled
"""Rat-a-Tat Cat's random play-out, fast: :meth:`State.random_playout` without the checks and
the log of the trusted path.

Each action is the one :meth:`RatState.legal_actions` lists at the index drawn, carried out by
the rules' own :meth:`RatState._apply` (the same numbers drawn from the generator, the same
actions played, the same end).  A play-out only to be scored (``scoring_only`` with a
``stage``) makes the promise of :meth:`State.only_scored_after` while it lasts, so the round
that ends it is scored and the next one is not dealt.  ``tests/core/test_random_playout.py`` and
``tests/games/rat_a_tat_cat/test_playout.py`` hold it to the plain loop over ``legal_actions``
and ``apply_trusted``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ratgames.core.rng import Rng

from .action import OVER

if TYPE_CHECKING:
    from .rules import RatState


def random_playout(state: RatState, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
    """Play ``state`` (which keeps no log) out at random (see :meth:`State.random_playout`);
    the actions played."""
    promise = state._last_stage
    if scoring_only and stage >= 0:
        state._last_stage = stage
    steps = 0
    while steps < depth and state.phase != OVER:
        if stage >= 0 and len(state.results) != stage:
            break
        seat = state.turn
        legal = state._legal_actions(seat)
        state._apply(seat, legal[rng.randbelow(len(legal))], None)
        steps += 1
    state._last_stage = promise
    return steps
