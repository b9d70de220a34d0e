"""Egyptian Ratscrew's deal as chance outcomes (:mod:`ratgames.rl.deals`): the order of the deck,
dealt round the seats dealt in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ratgames.rl.deals import DealPlan


class EgyptianRatscrewDealPlan(DealPlan):
    """The deck in order, dealt round the seats dealt in."""

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        deck = [self.index[c] for c in self.game.deck()]
        return self._left(chosen, deck) if len(chosen) < len(deck) else None

    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        g = self.game
        dealt = g.players - int(g.options["newcomers"])
        stacks: list[list[str]] = [[] for _ in range(g.players)]
        for i, k in enumerate(chosen):
            stacks[i % dealt].append(self.text[k])
        return {"stacks": stacks}
