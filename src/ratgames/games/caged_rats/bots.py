# ratgames: compiled
"""Bots for Caged Rats.  They see only their seat's observation and legal actions.

``heuristic`` cages rats its hand can feed exactly, offers the captures its rats need, bids what
it can afford for a capture worth having, tops the other player's useful captures with its
cheapest winning card, and throws what it cannot use.
"""

from __future__ import annotations

from typing import Any

from ratgames.core.bots import Bot, SeatView, bot_params_from, register_bot
from ratgames.core.game import Action, Game
from ratgames.core.options import Option

from .action import BID_ACT, CAGE_ACT, FEED_ACT, OFFER_ACT, THROW_ACT, TOP_ACT, Act
from .deck import COLOUR_CARDS, COLOUR_KEYS, RANK, RAT_VALUE, SUIT, TEXT
from .rules import cage_points, feed_choices_for, toppers

CARD_OF: dict[str, int] = {t: c for c, t in enumerate(TEXT)}


def _cage(obs_cage: list[dict[str, Any]]) -> tuple[list[int], list[int], list[int]]:
    """(rat cards, values, captures) of one cage as seen in an observation."""
    rats = [CARD_OF[r["rat"]] for r in obs_cage]
    return rats, [RAT_VALUE[r] for r in rats], [int(r["captures"]) for r in obs_cage]


def capture_gain(rats: list[int], counts: list[int], suit: int) -> tuple[int, int]:
    """(points gained now, best rat) if a capture of ``suit`` is won: 0 and -1 if unfed."""
    if len(rats) < 2:
        return 0, -1
    values = (RAT_VALUE[rats[0]], RAT_VALUE[rats[1]])
    before = cage_points(values, (counts[0], counts[1]))
    best, where = -1000, -1
    for i in feed_choices_for(tuple(rats), tuple(counts), suit):
        after = list(counts)
        after[i] += 1
        gain = cage_points(values, (after[0], after[1])) - before
        # Progress towards an exact rat is worth more than its two points now.
        if after[i] <= values[i]:
            gain += 3
        if gain > best:
            best, where = gain, i
    if where < 0:
        return 0, -1
    return best, where


_OBS_KEYS = ("phase", "seat", "hand", "cages", "offer", "bid")
"""The entries of its observation the heuristic bot reads at every move (``face_up_seen`` too,
when it bids for a capture it wants)."""


class HeuristicBot(Bot):
    """Plays by the rules of thumb of the module docstring."""

    name = "heuristic"
    params = (
        Option(
            "ambition",
            4,
            "The total of rat values it aims for when caging (both rats exact pay 10 a capture).",
            minimum=2,
            maximum=16,
        ),
        Option(
            "defend",
            True,
            "Top the other player's bids for captures that would help her rats.",
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        values = bot_params_from(type(self), params)
        self.ambition = int(values["ambition"])
        self.defend = bool(values["defend"])

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation_part(_OBS_KEYS)
        phase = obs["phase"]
        seat = view.seat
        hand = [CARD_OF[t] for t in obs["hand"]]
        if phase == "cage":
            return self._cage(hand)
        rats, values, counts = _cage(obs["cages"][seat])
        if phase == "feed":
            suit = SUIT[CARD_OF[obs["offer"]]]
            _, where = capture_gain(rats, counts, suit)
            return FEED_ACT[max(where, 0)]
        hungry = {SUIT[rats[i]] for i in range(2) if counts[i] < values[i]}
        if phase == "offer":
            return self._offer(hand, rats, hungry)
        if phase == "bid":
            return self._bid(view, obs, hand, rats, counts, hungry)
        return self._respond(obs, hand, hungry)

    # --- decisions ------------------------------------------------------------------------------

    def _cage(self, hand: list[int]) -> Act:
        best_key: tuple[float, int] | None = None
        best: Act = CAGE_ACT[hand[0], hand[1]]
        n = len(hand)
        for i in range(n):
            for j in range(i + 1, n):
                a, b = hand[i], hand[j]
                va, vb = RAT_VALUE[a], RAT_VALUE[b]
                total = va + vb
                score = -abs(total - self.ambition) * 3.0
                if max(va, vb) >= 9:
                    score -= 20
                # Cards of the rats' suits already in hand are captures ready to offer.
                rest = [c for c in hand if c not in (a, b)]
                for suit in {SUIT[a], SUIT[b]}:
                    need = (va if SUIT[a] == suit else 0) + (vb if SUIT[b] == suit else 0)
                    have = sum(1 for c in rest if SUIT[c] == suit)
                    score += 0.8 * min(have, need)
                # High cards win bids: keep them in hand.
                score -= 0.25 * (RANK[a] + RANK[b])
                key = (score, -(a * 64 + b))
                if best_key is None or key > best_key:
                    best_key, best = key, CAGE_ACT[a, b]
        return best

    def _offer(self, hand: list[int], rats: list[int], hungry: set[int]) -> Act:
        wanted = [c for c in hand if SUIT[c] in hungry]
        if wanted:
            # Capture ranks do not matter: offer the lowest, keep high cards for bidding.
            return OFFER_ACT[min(wanted, key=lambda c: RANK[c])]
        rat_suits = {SUIT[r] for r in rats}
        harmless = [c for c in hand if SUIT[c] not in rat_suits]
        pool = harmless or hand
        return OFFER_ACT[min(pool, key=lambda c: RANK[c])]

    def _bid(
        self,
        view: SeatView,
        obs: dict[str, Any],
        hand: list[int],
        rats: list[int],
        counts: list[int],
        hungry: set[int],
    ) -> Act:
        suit = SUIT[CARD_OF[obs["offer"]]]
        gain, _ = capture_gain(rats, counts, suit)
        lowest = min(hand, key=lambda c: RANK[c])
        if gain <= 0:
            return BID_ACT[lowest]
        unseen = self._opponent_unseen(obs | view.observation_part(("face_up_seen",)))
        # The lowest bid that nothing the other player may hold can top wins.
        for c in sorted(hand, key=lambda c: RANK[c]):
            if not toppers(unseen, c):
                return BID_ACT[c]
        spare = self._spare(hand, hungry)
        return BID_ACT[max(spare, key=lambda c: RANK[c])]

    def _respond(self, obs: dict[str, Any], hand: list[int], hungry: set[int]) -> Act:
        leader = 1 - int(obs["seat"])
        if self.defend:
            o_rats, _, o_counts = _cage(obs["cages"][leader])
            gain, _ = capture_gain(o_rats, o_counts, SUIT[CARD_OF[obs["offer"]]])
            if gain > 0:
                tops = toppers(hand, CARD_OF[obs["bid"]])
                if tops:
                    spare = [c for c in tops if SUIT[c] not in hungry] or tops
                    return TOP_ACT[min(spare, key=lambda c: RANK[c])]
        useless = [c for c in hand if SUIT[c] not in hungry]
        return THROW_ACT[min(useless or hand, key=lambda c: RANK[c])]

    # --- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _opponent_unseen(obs: dict[str, Any]) -> list[int]:
        """The cards the other player may still hold (what she played face up is gone)."""
        other = 1 - int(obs["seat"])
        seen = {CARD_OF[t] for t in obs["face_up_seen"][COLOUR_KEYS[other]]}
        return [c for c in COLOUR_CARDS[other] if c not in seen]

    @staticmethod
    def _spare(hand: list[int], hungry: set[int]) -> list[int]:
        """Cards not kept back as future captures (the low cards of suits a rat still wants)."""
        keep = {c for c in hand if SUIT[c] in hungry and RANK[c] < 6}
        return [c for c in hand if c not in keep] or hand


LEVELS = {
    "easy": "random",
    "normal": "heuristic",
    "hard": "ismcts:iterations=100,tree=1",
    "expert": "ismcts:seconds=1.5,tree=1",
}
"""The difficulty levels: search one move deep, the heuristic playing each sample out."""

register_bot(
    "heuristic",
    HeuristicBot,
    "cages rats it can feed exactly, offers what they need, bids what it can afford, "
    "tops cheaply and throws what it cannot use",
    "caged-rats",
)
