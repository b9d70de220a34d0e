"""Rat-a-Tat Cat: one id per action (the game's own action space: draw, take, replace 1-4,
discard, peek 1-4, noswap, knock, end, then every swap for the seats of the game), and the
observation vector below.

Seats are relative (section ``slots`` starts with the observer's own row).  Card kinds are indexed
``0``..``9``, ``PEEK``, ``SWAP``, ``DRAW2`` (13 kinds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ratgames.core.game import Game
from ratgames.rl.encoding.base import (
    EncodingError,
    Layout,
    ListEncoder,
    Writer,
    index_of,
    relative,
    rotate,
)

from .features import Features

PHASES = ("start", "holding", "taken", "peek", "swap", "draw2", "knock", "over")
KINDS = 13
SLOTS = 4
TOTAL_SCALE = 100.0
COUNT_SCALE, DRAW_SCALE, DRAWS_SCALE = 9.0, 54.0, 2.0
TURN_DECISIONS = 2 * 13 + 1
"""Decisions in one turn: at most 13 cards drawn, two decisions each, and the knock or end
of the turn (see :meth:`RatATatCatEncoder.max_decisions`)."""


class RatATatCatEncoder(ListEncoder):
    """Rat-a-Tat Cat: the game's action space and an observation of every known slot."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if len(self.cards) != KINDS:
            raise EncodingError(f"expected {KINDS} card kinds, found {len(self.cards)}")
        n = game.players
        L = self.layout = Layout()
        L.add("phase", len(PHASES))
        L.add("turn", n)
        L.add("slots", n * SLOTS * KINDS)
        L.add("slots_unknown", n * SLOTS)
        L.add("face_up", n * SLOTS)
        L.add("held", KINDS)
        L.add("held_hidden", 1)
        L.add("held_from_discard", 1)
        L.add("discard_top", KINDS)
        L.add("discard_counts", KINDS)
        L.add("draw_pile", 1)
        L.add("draws_left", 1)
        L.add("knocker", n)
        L.add("in_round", n)
        L.add("out", n)
        L.add("totals", n)
        L.add("turns_this_round", 1)
        kinds = [self.cards.index(c) if c in self.cards else -1 for c in range(max(self.cards) + 1)]
        turns = float(game.options["turn_cap"])
        scales = [COUNT_SCALE, DRAW_SCALE, DRAWS_SCALE, TOTAL_SCALE, turns]
        self.features = Features(L.offsets, n, PHASES, kinds, scales)

    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        me = obs["seat"]
        n = self.game.players
        w.one_hot("phase", index_of("phase", obs["phase"], PHASES))
        w.one_hot("turn", relative(obs["turn"], me, n))
        rows = rotate(obs["slots"], me)
        known: list[int] = []
        unknown: list[int] = []
        for r, row in enumerate(rows):
            if len(row) != SLOTS:
                raise EncodingError(f"a row has {SLOTS} slots, not {row!r}")
            for i, text in enumerate(row):
                if text is None:
                    unknown.append(r * SLOTS + i)
                else:
                    known.append((r * SLOTS + i) * KINDS + self.card(text))
        w.bits("slots", known)
        w.bits("slots_unknown", unknown)
        w.bits(
            "face_up",
            [r * SLOTS + i for r, row in enumerate(rotate(obs["face_up"], me)) for i, up in
             enumerate(row) if up],
        )  # fmt: skip
        held = obs["held"]
        w.one_hot("held", None if held in (None, "hidden") else self.card(held))
        w.bits("held_hidden", [0] if held == "hidden" else [])
        w.bits("held_from_discard", [0] if obs["held_from"] == "discard" else [])
        top = obs["discard_top"]
        w.one_hot("discard_top", None if top is None else self.card(top))
        counts = [0] * KINDS
        for i in self.card_list(obs["discard"]):
            counts[i] += 1
        w.scaled("discard_counts", counts, COUNT_SCALE)
        w.scaled("draw_pile", [obs["draw_pile"]], DRAW_SCALE)
        w.scaled("draws_left", [obs["draws_left"]], DRAWS_SCALE)
        w.one_hot("knocker", relative(obs["knocker"], me, n))
        w.bits("in_round", [i for i, v in enumerate(rotate(obs["in_round"], me)) if v])
        w.bits("out", [i for i, v in enumerate(rotate(obs["out"], me)) if v])
        w.scaled("totals", rotate(obs["totals"], me), TOTAL_SCALE)
        w.scaled(
            "turns_this_round", [obs["turns_this_round"]], float(self.game.options["turn_cap"])
        )

    def max_decisions(self, max_ticks: int | None = None) -> int:
        """A turn draws at most 13 cards, each taking at most two decisions (``draw``, then
        ``replace``, ``discard``, ``peek``, ``swap`` or ``noswap``), then ``knock`` or ``end``:
        27 decisions (:data:`TURN_DECISIONS`).  Why 13: after the first draw, only a DRAW2 grants
        more draws (two fresh chances, which do not add up), so ``d`` DRAW2s drawn in a turn
        allow at most ``1 + 2d`` draws.  The deck holds 3 DRAW2s, and one can be drawn a second
        time in a turn only after the draw pile ran out and the discard pile was shuffled into a
        new one; that new pile holds at least ``54 - 4 * 6 - 2 = 28`` cards, more than the at
        most 7 draws three DRAW2s allow, so it never runs out within the same turn: ``d <= 6``
        and a turn draws at most 13 cards.  A round has at most ``turn_cap + players - 1`` turns
        (the turn that reaches the cap counts as a knock, then everyone else has one more), and
        a game at most ``round_cap`` rounds (1 with ``mode=round``, ``N`` with ``mode=rounds=N``
        when that is fewer).

        >>> import ratgames
        >>> game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
        >>> RatATatCatEncoder(game).max_decisions()
        5427
        """
        o = self.game.options
        mode = str(o["mode"])
        rounds = int(o["round_cap"])
        if mode == "round":
            rounds = 1
        elif mode.startswith("rounds="):
            rounds = min(rounds, int(mode.partition("=")[2]))
        turns = int(o["turn_cap"]) + self.game.players - 1
        return TURN_DECISIONS * turns * rounds
