"""Rat-a-Tat Cat's deal as chance outcomes (:mod:`ratgames.rl.deals`).

The deck has 13 kinds with repeats, each outcome a kind drawn with probability count / cards
left: the four cards of each seat in turn, then the first discard (with
``first_discard=shuffle_back`` a number card, drawn among the number cards left; with
``keep_turning`` any card, power cards piling up under it until a number card comes), then the
draw pile from its top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ratgames.rl.deals import DealPlan


class RatATatCatDealPlan(DealPlan):
    """Four cards a seat, the first discard, then the draw pile."""

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        deck = [self.index[c] for c in self.game.deck()]
        hands = self.game.players * 4
        if len(chosen) >= len(deck):
            return None
        left = self._left(chosen, deck)
        if len(chosen) < hands:
            return left
        numbers = [(k, p) for k, p in left if self.text[k].isdigit()]
        turned = chosen[hands:]
        if any(self.text[k].isdigit() for k in turned):
            return left  # the discard is down: the draw pile follows
        if self.game.options["first_discard"] == "shuffle_back":
            total = sum(p for _, p in numbers)
            return [(k, p / total) for k, p in numbers]
        return left

    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        t = self.text
        hands_n = self.game.players * 4
        rows = [[t[k] for k in chosen[s * 4 : s * 4 + 4]] for s in range(self.game.players)]
        rest = list(chosen[hands_n:])
        turned: list[int] = []
        while rest:
            k = rest.pop(0)
            turned.append(k)
            if t[k].isdigit():
                break
        return {
            "hands": rows,
            "discard": [t[k] for k in reversed(turned)],
            "draw": [t[k] for k in rest],
        }
