# ratgames: compiled
"""Rats' random play-out, fast: :meth:`State.random_playout` for a state that keeps no log.

Each action is the one :meth:`RatsState.legal_actions` lists at the index drawn (the same
numbers drawn from the generator, the same actions played, the same end), listed by the rules'
own :meth:`RatsState._follows` and :func:`~ratgames.games.rats.combos.leads_of_mask` and carried
out by :meth:`RatsState._apply`, without the core's listing and seat checks.  A play-out only to
be scored (``scoring_only`` with a ``stage``) makes the core's :meth:`State.only_scored_after`
promise while it lasts, so the next round is not dealt once the round it plays ends.
``tests/core/test_random_playout.py`` and ``tests/games/rats/test_playout.py`` hold both to the
plain loop over ``legal_actions`` and ``apply_trusted``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ratgames.core.rng import Rng

from .combos import leads_of_mask

if TYPE_CHECKING:
    from .rules import RatsState


def random_playout(state: RatsState, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
    """Play ``state`` out at random (see :meth:`State.random_playout`); the actions played."""
    promised = state._last_stage
    if scoring_only and stage >= 0:
        state.only_scored_after(stage)
    steps = 0
    while steps < depth and not state.over:
        if stage >= 0 and state.round - 1 != stage:
            break
        seat = state.turn
        if state.trick:
            found = state._follows(state.hand_masks[seat])
        else:
            found = leads_of_mask(state.hand_masks[seat])
        state._apply(seat, found[rng.randbelow(len(found))], None)
        steps += 1
    state.only_scored_after(promised)
    return steps
