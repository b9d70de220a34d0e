"""Egyptian Ratscrew: three ids a seat may choose at every tick, and the observation vector below.

* ``0`` wait (do nothing this tick; always allowed);
* ``1`` move: ``play`` the top card of your stack when it is your turn, or ``collect`` the pile
  you won;
* ``2`` slap the pile as you see it now (``slap@V`` with the pile's current version ``V``).

See :mod:`ratgames.rl.table` for how ticks turn real time into discrete steps.  Seats are
relative (the observer first); cards are indexed ``2C 2D 2H 2S 3C ... AS`` then the jokers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from ratgames.core.game import Game
from ratgames.rl.encoding.base import (
    WAIT,
    Encoder,
    EncodingError,
    Layout,
    Writer,
    index_of,
    relative,
    rotate,
)

from .features import Features

MOVE, SLAP = 1, 2
ID_TEXT = ("wait", "move", "slap")
PHASES = ("play", "collect", "final", "over")
STATUSES = ("in", "waiting", "out")
PILE_SHOWN = 4
"""How many of the pile's top cards the vector shows (the slap rules look at most 4 deep)."""


class EgyptianRatscrewEncoder(Encoder):
    """Egyptian Ratscrew: wait / move / slap, and the table as every seat sees it."""

    num_actions = 3

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.players
        D = self.deck_size = len(self.cards)
        L = self.layout = Layout()
        L.add("phase", len(PHASES))
        L.add("turn", n)
        L.add("collector", n)
        L.add("challenger", n)
        L.add("chances_left", 1)
        for i in range(PILE_SHOWN):
            L.add(f"pile_{i}", D)
        L.add("pile_bottom", D)
        L.add("pile_size", 1)
        L.add("burned", 1)
        L.add("slappable", 1)
        L.add("may_slap", 1)
        L.add("stack_sizes", n)
        L.add("status", n * len(STATUSES))
        L.add("stack_tops_known", n * D)
        L.add("stack_known", n)
        index = [self.card_index.get(game.card_text(c), -1) for c in range(max(self.cards) + 1)]
        self.features = Features(L.offsets, n, PHASES, STATUSES, index, PILE_SHOWN)

    def _action_ids(self, action: Hashable) -> tuple[int, ...]:
        text = str(action)
        if text in ("play", "collect"):
            return (MOVE,)
        if text.startswith("slap@"):
            return (SLAP,)
        raise EncodingError(f"{action!r} is not an action of {self.game.id}")

    def action_from_ids(self, ids: Sequence[int]) -> Hashable:
        raise EncodingError(
            "an Egyptian Ratscrew id names an action only in a position (which move, which pile "
            "version): use complete(legal_actions, ids)"
        )

    def id_text(self, action_id: int) -> str:
        return ID_TEXT[action_id]

    def next_ids(self, legal: Sequence[Hashable], pending: Sequence[int] = ()) -> list[int]:
        """Wait is always allowed; move and slap when the seat's legal actions hold one."""
        return sorted({WAIT, *(self.action_ids(a)[0] for a in legal)})

    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        me = obs["seat"]
        n = self.game.players
        D = self.deck_size
        w.one_hot("phase", index_of("phase", obs["phase"], PHASES))
        w.one_hot("turn", relative(obs["turn"], me, n))
        w.one_hot("collector", relative(obs["collector"], me, n))
        challenge = obs["challenge"]
        w.one_hot("challenger", None if challenge is None else relative(challenge["by"], me, n))
        w.scaled("chances_left", [0 if challenge is None else challenge["chances_left"]], 4.0)
        pile = self.card_list(obs["pile"])
        for i in range(PILE_SHOWN):
            w.one_hot(f"pile_{i}", pile[-1 - i] if len(pile) > i else None)
        w.one_hot("pile_bottom", pile[0] if pile else None)
        w.scaled("pile_size", [len(pile)], float(D))
        burned = obs["burned"]
        if not isinstance(burned, list):
            raise EncodingError(f"burned is a list, not {burned!r}")
        w.scaled("burned", [len(burned)], float(D))
        w.bits("slappable", [0] if obs["slappable"] is not None else [])
        w.bits("may_slap", [0] if obs["may_slap"] else [])
        stacks = rotate(obs["stacks"], me)
        w.scaled("stack_sizes", [s["size"] for s in stacks], float(D))
        w.bits(
            "status",
            [i * len(STATUSES) + index_of("status", s["status"], STATUSES) for i, s in
             enumerate(stacks)],
        )  # fmt: skip
        tops = []
        known = []
        for i, s in enumerate(stacks):
            cards = s["known"]
            if len(cards) != s["size"]:
                raise EncodingError("a stack lists one entry per card")
            if cards and cards[0] is not None:
                tops.append(i * D + self.card(cards[0]))
            known.append(sum(1 for c in cards if c is not None))
        w.bits("stack_tops_known", tops)
        w.scaled("stack_known", known, float(D))

    def complete(self, legal: Sequence[Hashable], ids: Sequence[int]) -> Hashable | None:
        """The action of id ``ids[0]`` among ``legal`` (None for wait)."""
        if len(ids) != 1 or ids[0] not in (WAIT, MOVE, SLAP):
            raise EncodingError(f"ids {list(ids)} are not wait (0), move (1) or slap (2)")
        if ids[0] == WAIT:
            return None
        for action in legal:
            if self.action_ids(action)[0] == ids[0]:
                return action
        raise EncodingError(f"{ID_TEXT[ids[0]]} is not allowed now")
