"""Caged Rats' deal as chance outcomes (:mod:`ratgames.rl.deals`): the dealer (1/2 each), then
the order of Red's 26 cards and of Black's 26 (hand first, then the stock from its top)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ratgames.rl.deals import DealPlan


class CagedRatsDealPlan(DealPlan):
    """The dealer, then Red's cards, then Black's."""

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        k = len(chosen)
        if k == 0:
            return [(0, 0.5), (1, 0.5)]
        deck = self.game.deck()
        if k <= 26:
            return self._left(chosen[1:], [self.index[c] for c in deck if c & 3 in (1, 2)])
        if k <= 52:
            return self._left(chosen[27:], [self.index[c] for c in deck if c & 3 in (0, 3)])
        return None

    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        t = self.text
        red = [t[i] for i in chosen[1:27]]
        black = [t[i] for i in chosen[27:53]]
        return {
            "dealer": ("red", "black")[chosen[0]],
            "red": {"hand": red[:8], "stock": red[8:]},
            "black": {"hand": black[:8], "stock": black[8:]},
        }

    def outcome_text(self, chosen: Sequence[int], outcome: int) -> str:
        return f"dealer {outcome}" if not chosen else super().outcome_text(chosen, outcome)
