"""High Card for the research environments: its encoder and deal plan (the ``encoder`` and
``deal_plan`` parts of :data:`ratgames.testing.PARTS`), as small as a game's can be.

Actions: one id per card, ``play 0`` to ``play 9`` (the game's action space).  Observation:

| section | size | what |
|---|---|---|
| ``hand`` | 10 | the cards in the seat's hand |
| ``played`` | players x 10 | each seat's cards played since the last reshuffle, the seat first |
| ``turn`` | players | who is to play, counted from the seat |
| ``pile`` | 1 | the cards in the draw pile, out of 10 |

>>> from ratgames.testing import HighCard
>>> enc = HighCardEncoder(HighCard())
>>> enc.num_actions, enc.obs_size
(10, 33)
>>> plan = HighCardDealPlan(HighCard())
>>> plan.deal(list(range(10)))
{'hands': [['0', '1'], ['2', '3']], 'pile': ['4', '5', '6', '7', '8', '9']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .core.game import Game
from .rl.deals import DealPlan
from .rl.encoding.base import Layout, ListEncoder, Writer, relative, rotate


class HighCardEncoder(ListEncoder):
    """High Card: one id per card, and the table in 3 + 11 x players values."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.players
        L = self.layout = Layout()
        L.add("hand", 10)
        L.add("played", n * 10)
        L.add("turn", n)
        L.add("pile", 1)

    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        me = obs["seat"]
        n = self.game.players
        w.bits("hand", [self.card(str(c)) for c in obs["hand"]])
        played = rotate(obs["played"], me)
        w.bits(
            "played", [i * 10 + self.card(str(c)) for i, cards in enumerate(played) for c in cards]
        )
        w.one_hot("turn", relative(obs["turn"], me, n))
        w.scaled("pile", [obs["pile"]], 10.0)

    def max_decisions(self, max_ticks: int | None = None) -> int:
        """One decision a turn, ``turns`` turns."""
        return int(self.game.options["turns"])


class HighCardDealPlan(DealPlan):
    """The order of the ten cards: two to each seat in turn, the rest the pile (drawn from its
    end)."""

    def outcomes(self, chosen: Sequence[int]) -> list[tuple[int, float]] | None:
        deck = [self.index[c] for c in self.game.deck()]
        return self._left(chosen, deck) if len(chosen) < len(deck) else None

    def _deal(self, chosen: Sequence[int]) -> dict[str, Any]:
        cards = [self.text[i] for i in chosen]
        n = self.game.players
        return {"hands": [cards[2 * s : 2 * s + 2] for s in range(n)], "pile": cards[2 * n :]}
