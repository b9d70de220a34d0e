"""Caged Rats: one id per action (the game's own action space: every cage pair, then offer, bid,
top and throw of each card, then feed 1 and feed 2), and the observation vector below.

Seats are relative: "me" is the observing seat, "other" the opponent.  Cards are indexed 0..51
in the deck's order (``2C 2D 2H 2S 3C ...``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ratgames.core.game import Game
from ratgames.rl.encoding.base import EncodingError, Layout, ListEncoder, Writer, index_of, rotate

from .features import Features

PHASES = ("cage", "offer", "bid", "respond", "feed", "over")
SCORE_SCALE = 200.0
"""Scores are divided by this (and clipped to 1)."""
HAND_SCALE, STOCK_SCALE, DISCARD_SCALE, RUBBER_SCALE = 8.0, 18.0, 52.0, 2.0

DEAL_DECISIONS = 2 + 16 * 4
"""Decisions in one deal: two cagings, 16 leads of at most four decisions (offer, bid, top or
throw, feed)."""


class CagedRatsEncoder(ListEncoder):
    """Caged Rats: the game's action space and a 52-card observation vector."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        L = self.layout = Layout()
        L.add("phase", len(PHASES))
        L.add("i_lead", 1)
        L.add("i_deal", 1)
        L.add("hand", 52)
        L.add("offer", 52)
        L.add("offer_from_stock", 1)
        L.add("bid", 52)
        for who in ("me", "other"):
            for r in (1, 2):
                L.add(f"rat{r}_{who}", 52)
                L.add(f"rat{r}_{who}_captures", 1)
        L.add("face_up_seen", 52)
        L.add("my_throws", 52)
        L.add("hand_sizes", 2)
        L.add("stock_sizes", 2)
        L.add("discards", 1)
        L.add("lead", 1)
        L.add("deal_points", 2)
        L.add("scores", 2)
        L.add("rubbers_won", 2)
        scales = [HAND_SCALE, STOCK_SCALE, DISCARD_SCALE, SCORE_SCALE, RUBBER_SCALE]
        self.features = Features(L.offsets, PHASES, scales)

    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        me = obs["seat"]
        w.one_hot("phase", index_of("phase", obs["phase"], PHASES))
        w.bits("i_lead", [0] if obs["leader"] == me else [])
        w.bits("i_deal", [0] if obs["dealer"] == me else [])
        w.bits("hand", self.card_list(obs["hand"]))
        w.one_hot("offer", None if obs["offer"] is None else self.card(obs["offer"]))
        w.bits("offer_from_stock", [0] if obs["offer_from_stock"] else [])
        w.one_hot("bid", None if obs["bid"] is None else self.card(obs["bid"]))
        cages = rotate(obs["cages"], me)
        for who, cage in zip(("me", "other"), cages, strict=True):
            if len(cage) not in (0, 2):
                raise EncodingError(f"a cage holds 0 or 2 rats, not {cage!r}")
            for r in (1, 2):
                rat = cage[r - 1] if cage else None
                w.one_hot(f"rat{r}_{who}", None if rat is None else self.card(rat["rat"]))
                w.scaled(f"rat{r}_{who}_captures", [rat["captures"] if rat else 0], 13.0)
        seen = obs["face_up_seen"]
        w.bits("face_up_seen", self.card_list(seen["red"]) + self.card_list(seen["black"]))
        w.bits("my_throws", self.card_list(obs["your_throws"]))
        w.scaled("hand_sizes", rotate(obs["hand_sizes"], me), HAND_SCALE)
        w.scaled("stock_sizes", rotate(obs["stock_sizes"], me), STOCK_SCALE)
        w.scaled("discards", [obs["discards"]], DISCARD_SCALE)
        w.scaled("lead", [obs["lead"]], float(obs["leads_per_deal"]))
        w.scaled("deal_points", rotate(obs["deal_points"], me), SCORE_SCALE)
        w.scaled("scores", rotate(obs["scores"], me), SCORE_SCALE)
        w.scaled("rubbers_won", rotate(obs["rubbers_won"], me), RUBBER_SCALE)

    def max_decisions(self, max_ticks: int | None = None) -> int:
        """A deal is at most :data:`DEAL_DECISIONS` decisions, and a game at most ``max_deals``
        deals (1 with ``single_deal``).

        >>> import ratgames
        >>> game = ratgames.get_game("caged-rats", options={"single_deal": True})
        >>> CagedRatsEncoder(game).max_decisions()
        66
        """
        o = self.game.options
        deals = 1 if o["single_deal"] else int(o["max_deals"])
        return DEAL_DECISIONS * deals
