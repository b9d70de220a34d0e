# ratgames: compiled
"""Rats' random play-out, fast: :meth:`State.random_playout` for a state that keeps no log, and
for a play-out only to be scored without dealing the next round.

Each action is the one :meth:`RatsState.legal_actions` lists at the index drawn (the same
numbers drawn from the generator, the same actions played, the same end), listed by the rules'
own :meth:`RatsState._follows` and :func:`~ratgames.games.rats.combos.leads_of_mask` and carried
out by the rules' own methods.  A play-out that plays on does what :meth:`RatsState._apply`
does.  One only to be scored (``scoring_only`` with a ``stage``) ends the round it stops at
with :meth:`RatsState._score_round` alone: the stage moves on, but no hands are dealt (the
cards stay in the reserves, where the score counts them too), as :meth:`State.only_scored_after`
allows.  ``tests/core/test_random_playout.py`` and ``tests/games/rats/test_playout.py`` hold both
to the plain loop over ``legal_actions`` and ``apply_trusted``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ratgames.core.rng import Rng

from .combos import leads_of_mask

if TYPE_CHECKING:
    from .rules import RatsState


def random_playout(state: RatsState, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
    """Play ``state`` out at random (see :meth:`State.random_playout`); the actions played."""
    if scoring_only and stage >= 0:
        return _scored_playout(state, rng, depth, stage)
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
    return steps


def _scored_playout(state: RatsState, rng: Rng, depth: int, stage: int) -> int:
    """:func:`random_playout` of a state only scored afterwards: the round ends undealt."""
    steps = 0
    while steps < depth and not state.over and state.round - 1 == stage:
        seat = state.turn
        if state.trick:
            found = state._follows(state.hand_masks[seat])
        else:
            found = leads_of_mask(state.hand_masks[seat])
        if state._lay(seat, found[rng.randbelow(len(found))]):
            state._end_trick()
            if not state.hand_masks[state.leader]:
                state._score_round()  # and no deal: the play-out stops here
        steps += 1
    return steps
