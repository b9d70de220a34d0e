"""Rats' deal as chance outcomes (:mod:`ratgames.rl.deals`): the dealer, then the order of the
deck (the hands in turn, the rest the stock)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ratgames.rl.deals import DealPlan


class RatsDealPlan(DealPlan):
    """The dealer, then the deck in order."""

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        g = self.game
        k = len(chosen)
        if k == 0:
            return [(s, 1.0 / g.players) for s in range(g.players)]
        deck = [self.index[c] for c in g.deck()]
        return self._left(chosen[1:], deck) if k <= len(deck) else None

    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        players = self.game.players
        order = [self.text[i] for i in chosen[1:]]
        size = len(order) // players
        hands = [order[i * size : (i + 1) * size] for i in range(players)]
        return {"dealer": chosen[0], "hands": hands, "stock": order[players * size :]}

    def outcome_text(self, chosen: Sequence[int], outcome: int) -> str:
        return f"dealer {outcome}" if not chosen else super().outcome_text(chosen, outcome)
