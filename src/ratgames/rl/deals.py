"""Deals as sequences of chance outcomes, for environments with explicit chance (OpenSpiel).

A deal is built one outcome at a time: :meth:`DealPlan.outcomes` lists the possible next
outcomes with their probabilities given the outcomes chosen so far (None once the deal is
complete), and :meth:`DealPlan.deal` turns the chosen outcomes into the game's own deal format
(``game.new_state(deal=...)``).  Outcomes are card indices (into the sorted list of the deck's
distinct cards) or, for a choice of dealer, a seat.  Each plan gives every deal the probability
the game's own shuffle gives it.

A game brings its plan as its ``deal_plan`` part (declared where it is registered,
:class:`ratgames.core.registry.GameParts`), a :class:`DealPlan` subclass built from the game;
:func:`deal_plan_for` finds it there.  Each game's plan documents how its deal unfolds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ratgames.core.game import Game
from ratgames.core.registry import game_part

from .encoding import EncodingError


class DealPlan(ABC):
    """How one game's deal unfolds as chance outcomes (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = sorted(set(game.deck()))
        self.text = [game.card_text(c) for c in self.cards]
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.counts = Counter(self.index[c] for c in game.deck())
        self.max_outcomes = max(len(self.cards), game.players)

    def _left(self, chosen: Sequence[int], pool: Sequence[int]) -> list[tuple[int, float]]:
        """Each card of ``pool`` (indices, with repeats) not yet in ``chosen``, with its
        probability of coming next."""
        counts = Counter(pool)
        counts.subtract(chosen)
        total = sum(v for v in counts.values() if v > 0)
        return [(k, v / total) for k, v in sorted(counts.items()) if v > 0]

    @abstractmethod
    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        """The possible next outcomes with their probabilities, or None once complete."""

    @abstractmethod
    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        """The game's deal from a complete list of outcomes."""

    def deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        """The game's deal from a complete list of outcomes."""
        if self.outcomes(chosen) is not None:
            raise EncodingError("the deal is not complete")
        return self._deal(chosen)

    def outcome_text(self, chosen: Sequence[int], outcome: int) -> str:
        """A short name of the outcome that follows ``chosen`` (``card 7H``; a plan whose
        outcomes are seats as well names those)."""
        return f"card {self.text[outcome]}"


def deal_plan_for(game: Game) -> DealPlan:
    """The deal plan of ``game``: the game's ``deal_plan`` part."""
    cls = game_part(game.id, "deal_plan")
    if cls is None:
        raise EncodingError(
            f"no deal plan for {game.id}: a game declares one as its 'deal_plan' part "
            "(register_game(..., parts=GameParts(deal_plan='module:Class')))"
        )
    plan: DealPlan = cls(game)
    return plan
