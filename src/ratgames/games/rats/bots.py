# ratgames: compiled
"""Bots for Rats.

``heuristic`` looks only at its observation and legal plays.  It works out which cards the other
players could still hold this round (every card it has not seen played and does not hold, less
what it knows sits in reserves) and then:

* leads the largest combination nobody can beat, else its weakest single;
* beats as cheaply as it can when the beat is safe (nobody after it could top it), and takes an
  unsafe beat only with cheap cards (``risk`` sets how cheap);
* otherwise discards its weakest cards, keeping pairs, runs, jokers and high cards that win later.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ratgames.cards import is_joker, rank_of, standard_deck, suit_of
from ratgames.core.bots import Bot, SeatView, bot_params_from, register_bot
from ratgames.core.game import Action, Game
from ratgames.core.options import Option

from .action import CARD_INDEX, DISCARD, RANK, SET, SINGLE, SUIT, RatsAction, run_value, set_rank
from .combos import beating_singles, split_hand, top_run


def card_values(hand: list[int]) -> dict[int, float]:
    """How much each card is worth keeping: its rank, more inside a pair/set or a run; jokers
    most of all."""
    by_rank, by_suit, _ = split_hand(tuple(hand))
    values: dict[int, float] = {}
    for c in hand:
        if c >= 52:
            values[c] = 20.0
            continue
        r, s = RANK[c], SUIT[c]
        v = float(r)
        same = by_rank[r].bit_count() - 1
        v += 3.0 * same
        q = 0 if r == 12 else r + 1
        ranks = by_suit[s]
        near = (ranks >> (q + 1) & 1) + (ranks >> (q - 1) & 1 if q else 0)
        v += 2.0 * near
        values[c] = v
    return values


def can_be_beaten(kind: int, cards: tuple[int, ...], suit_led: int, outside: list[int]) -> bool:
    """Whether the ``outside`` cards (all together) hold a play that beats ``cards``."""
    n = len(cards)
    if kind == SINGLE:
        c = cards[0]
        if is_joker(c):
            beating = beating_singles(-1, -1)
        else:
            beating = beating_singles(suit_of(c) if suit_led < 0 else suit_led, rank_of(c))
        return any(beating >> o & 1 for o in outside)
    by_rank, by_suit, jokers = split_hand(tuple(sorted(outside)))
    if kind == SET:
        rank = set_rank(cards)
        for r in range(rank + 1, 13):
            if by_rank[r] and by_rank[r].bit_count() + len(jokers) >= n:
                return True
        return False
    value = run_value(cards)
    for suit in range(4):
        ranks = by_suit[suit]
        if ranks and top_run(ranks, len(jokers), n) * 4 + suit > value:
            return True
    return False


_OBS_KEYS = ("hand", "out", "trick", "played_this_round", "won_this_round", "reserve_known")
"""The entries of its observation the heuristic bot reads."""


class HeuristicBot(Bot):
    """Leads what it can win, beats cheaply, discards its weakest cards."""

    name = "heuristic"
    params: ClassVar[tuple[Option, ...]] = (
        Option(
            "risk",
            0.5,
            "Take a beat that could still be topped when its cards are worth at most this "
            "fraction of the hand's best card value (0 never, 1 always).",
            minimum=0.0,
            maximum=1.0,
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        self.risk = float(bot_params_from(HeuristicBot, params)["risk"])
        self.deck = standard_deck(game.options["jokers"])

    def act(self, view: SeatView) -> Action:
        legal: list[RatsAction] = view.legal_actions()  # type: ignore[assignment]
        if len(legal) == 1:
            return legal[0]
        obs = view.observation_part(_OBS_KEYS)
        hand = [CARD_INDEX[t] for t in obs["hand"]]
        values = card_values(hand)
        outside = self._outside(obs, hand)
        trick = obs["trick"]
        if trick is None:
            return self._lead(legal, values, outside)
        if trick["discarding"]:
            return self._discard_step(legal, hand, values, trick)
        return self._follow(obs, legal, hand, values, outside, trick)

    def _outside(self, obs: dict[str, Any], hand: list[int]) -> list[int]:
        """Cards another player could still play this round."""
        index = CARD_INDEX
        gone = set(hand)
        gone.update([index[t] for t in obs["played_this_round"]])
        gone.update([index[t] for t in obs["reserve_known"]])
        for won in obs["won_this_round"]:
            gone.update([index[t] for t in won])
        return [c for c in self.deck if c not in gone]

    def _cost(self, action: RatsAction, values: dict[int, float]) -> float:
        return sum(values[c] for c in action.cards)

    def _lead(
        self, legal: list[RatsAction], values: dict[int, float], outside: list[int]
    ) -> RatsAction:
        safe = [a for a in legal if not can_be_beaten(a.kind, a.cards, -1, outside)]
        if safe:
            return max(safe, key=lambda a: (len(a.cards), -self._cost(a, values)))
        singles = [a for a in legal if a.kind == SINGLE]
        return min(singles or legal, key=lambda a: (self._cost(a, values), a.cards))

    def _follow(
        self,
        obs: dict[str, Any],
        legal: list[RatsAction],
        hand: list[int],
        values: dict[int, float],
        outside: list[int],
        trick: dict[str, Any],
    ) -> RatsAction:
        beats = [a for a in legal if a.kind != DISCARD]
        if beats:
            still_to_play = self._still_to_play(obs, trick)
            led = "CDHS".index(trick["suit_led"]) if trick["suit_led"] else -1
            safe = [
                a
                for a in beats
                if not still_to_play or not can_be_beaten(a.kind, a.cards, led, outside)
            ]
            if safe:
                return min(safe, key=lambda a: (self._cost(a, values), a.cards))
            cheapest = min(beats, key=lambda a: (self._cost(a, values), a.cards))
            top = max(values.values())
            if self._cost(cheapest, values) / len(cheapest.cards) <= self.risk * top:
                return cheapest
        return self._discard_step(legal, hand, values, trick)

    def _still_to_play(self, obs: dict[str, Any], trick: dict[str, Any]) -> bool:
        players_in = sum(1 for out in obs["out"] if not out)
        return len(trick["plays"]) + 1 < players_in

    def _discard_step(
        self,
        legal: list[RatsAction],
        hand: list[int],
        values: dict[int, float],
        trick: dict[str, Any],
    ) -> RatsAction:
        steps = [a for a in legal if a.kind == DISCARD]
        if not steps:
            return legal[0]
        pending = [CARD_INDEX[t] for t in trick["discarding"]]
        need = trick["count"] - len(pending)
        last = pending[-1] if pending else -1
        eligible = [c for c in hand if c > last]
        target = sorted(eligible, key=lambda c: (values[c], c))[:need]
        first = min(target)
        for a in steps:
            if a.cards[0] == first:
                return a
        return min(steps, key=lambda a: (values[a.cards[0]], a.cards))


LEVELS = {
    "easy": "random",
    "normal": "heuristic",
    "hard": "pimc:iterations=200",
    "expert": "pimc:seconds=1.5",
}
"""The difficulty levels: paired rollouts by the heuristic to the end of the round."""

register_bot(
    "heuristic",
    HeuristicBot,
    "leads what it can win, beats cheaply, discards its weakest cards",
    "rats",
)
