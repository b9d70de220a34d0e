"""Deals as sequences of chance outcomes, for environments with explicit chance (OpenSpiel).

A deal is built one outcome at a time: :meth:`DealPlan.outcomes` lists the possible next
outcomes with their probabilities given the outcomes chosen so far (None once the deal is
complete), and :meth:`DealPlan.deal` turns the chosen outcomes into the game's own deal format
(``game.new_state(deal=...)``).  Outcomes are card indices (into the sorted list of the deck's
distinct cards) or, for a choice of dealer, a seat.  Each plan gives every deal the probability
the game's own shuffle gives it:

* Caged Rats: the dealer (1/2 each), then the order of Red's 26 cards and of Black's 26 (hand
  first, then the stock from its top);
* Rats: the dealer, then the order of the deck (the hands in turn, the rest the stock);
* Egyptian Ratscrew: the order of the deck, dealt round the seats dealt in;
* Rat-a-Tat Cat (a deck of 13 kinds with repeats, each outcome a kind drawn with probability
  count / cards left): the four cards of each seat in turn, then the first discard (with
  ``first_discard=shuffle_back`` a number card, drawn among the number cards left; with
  ``keep_turning`` any card, power cards piling up under it until a number card comes), then the
  draw pile from its top.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ratgames.core.game import Game

from .encoding import EncodingError


class DealPlan:
    """How one game's deal unfolds as chance outcomes (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = sorted(set(game.deck()))
        self.text = [game.card_text(c) for c in self.cards]
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.counts = Counter(self.index[c] for c in game.deck())
        self.max_outcomes = max(len(self.cards), game.players)
        gid = game.id
        if gid not in ("caged-rats", "rats", "egyptian-ratscrew", "rat-a-tat-cat"):
            raise EncodingError(f"no deal plan for {gid}")

    def _left(self, chosen: Sequence[int], pool: Sequence[int]) -> list[tuple[int, float]]:
        counts = Counter(pool)
        counts.subtract(chosen)
        total = sum(v for v in counts.values() if v > 0)
        return [(k, v / total) for k, v in sorted(counts.items()) if v > 0]

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        """The possible next outcomes with their probabilities, or None once complete."""
        g = self.game
        k = len(chosen)
        deck = [self.index[c] for c in g.deck()]
        if g.id == "caged-rats":
            if k == 0:
                return [(0, 0.5), (1, 0.5)]
            red = [self.index[c] for c in g.deck() if c & 3 in (1, 2)]
            black = [self.index[c] for c in g.deck() if c & 3 in (0, 3)]
            if k <= 26:
                return self._left(chosen[1:], red)
            if k <= 52:
                return self._left(chosen[27:], black)
            return None
        if g.id == "rats":
            if k == 0:
                return [(s, 1.0 / g.players) for s in range(g.players)]
            return self._left(chosen[1:], deck) if k <= len(deck) else None
        if g.id == "egyptian-ratscrew":
            return self._left(chosen, deck) if k < len(deck) else None
        return self._ratcat(chosen, deck)

    def _ratcat(self, chosen: Sequence[int], deck: list[int]) -> list[tuple[int, float]] | None:
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

    def deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        """The game's deal from a complete list of outcomes."""
        if self.outcomes(chosen) is not None:
            raise EncodingError("the deal is not complete")
        g = self.game
        t = self.text
        if g.id == "caged-rats":
            red = [t[i] for i in chosen[1:27]]
            black = [t[i] for i in chosen[27:53]]
            return {
                "dealer": ("red", "black")[chosen[0]],
                "red": {"hand": red[:8], "stock": red[8:]},
                "black": {"hand": black[:8], "stock": black[8:]},
            }
        if g.id == "rats":
            order = [t[i] for i in chosen[1:]]
            size = len(order) // g.players
            hands = [order[i * size : (i + 1) * size] for i in range(g.players)]
            return {"dealer": chosen[0], "hands": hands, "stock": order[g.players * size :]}
        if g.id == "egyptian-ratscrew":
            dealt = g.players - int(g.options["newcomers"])
            stacks: list[list[str]] = [[] for _ in range(g.players)]
            for i, k in enumerate(chosen):
                stacks[i % dealt].append(t[k])
            return {"stacks": stacks}
        hands_n = g.players * 4
        rows = [[t[k] for k in chosen[s * 4 : s * 4 + 4]] for s in range(g.players)]
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
