"""Rats (the trick-taking game): a small exact action space and the observation vector below.

A hand can make thousands of different plays (with two jokers the deck allows 8,225 distinct
plays), so the ids describe a play by its shape.  With ``C`` cards in the deck (52, 53 or 54):

* ids ``0 .. C-1``: the single card ``c``;
* ids ``C .. 2C-1``: one discard step of card ``c`` (the game lays a discard one card at a time);
* the next block: one id per set, that is per (rank, suits of its natural cards, jokers in it)
  with 2 to 4 cards (143 sets without jokers, 325 with one joker, 637 with two);
* the next 264 ids: one per run *shape*: (suit, top card of the run's reading, length 3-13), the
  reading being the game's (the run counts upward from its lowest natural card, as far as the
  king);
* with jokers in the deck, a last block of *joker patterns*: which places of the run (counted from
  its lowest place) the jokers fill, and which joker (1 + 13 x jokers, + 78 with two jokers).

Without jokers a run's shape says its cards, so every play is one id (511 ids in all).  With
jokers a run is a two-step choice: first its shape, then its joker pattern (an empty pattern when
it uses none); every other play stays one id.  The action space is 709 ids with one joker and
1,114 with two.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from ratgames.core.game import Game
from ratgames.rl.encoding.base import (
    Encoder,
    EncodingError,
    Layout,
    Writer,
    index_of,
    relative,
    rotate,
)

from .features import Features

TRICK_KINDS = ("single", "pair", "three of a kind", "four of a kind", "run")
RUN_SHAPES = tuple(
    (suit, top, n) for suit in range(4) for n in range(3, 14) for top in range(n - 1, 13)
)
"""Every run shape (suit, top place, length); places count ace 0, two 1 ... king 12."""
SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _place_card(place: int, suit: int) -> int:
    """The natural card (``rank * 4 + suit``) at run place ``place`` (ace 0 .. king 12)."""
    rank = 12 if place == 0 else place - 1
    return rank * 4 + suit


def _place(card: int) -> int:
    rank = card >> 2
    return 0 if rank == 12 else rank + 1


class RatsEncoder(Encoder):
    """Rats: singles, discard steps, sets and run shapes (+ joker patterns)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.jokers = int(game.options["jokers"])
        C = self.deck_size = len(self.cards)
        if self.cards != list(range(C)):
            raise EncodingError("Rats cards are expected to be 0..51 and the jokers after")
        self.text = [game.card_text(c) for c in range(C)]
        joker_masks = range(1 << self.jokers)
        self.sets: list[tuple[int, int, int]] = [
            (rank, suits, jm)
            for rank in range(13)
            for suits in range(1, 16)
            for jm in joker_masks
            if 2 <= suits.bit_count() + jm.bit_count() <= 4
        ]
        self.set_index = {key: i for i, key in enumerate(self.sets)}
        self.patterns: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        if self.jokers:
            self.patterns.append(((), ()))
            self.patterns += [((p,), (j,)) for p in range(13) for j in range(self.jokers)]
            if self.jokers == 2:
                self.patterns += [((p, q), (0, 1)) for p in range(13) for q in range(p + 1, 13)]
        self.pattern_index = {key: i for i, key in enumerate(self.patterns)}
        self.shape_index = {key: i for i, key in enumerate(RUN_SHAPES)}
        self.base_discard = C
        self.base_set = 2 * C
        self.base_run = self.base_set + len(self.sets)
        self.base_pattern = self.base_run + len(RUN_SHAPES)
        self.num_actions = self.base_pattern + len(self.patterns)
        self.max_ids_per_action = 2 if self.jokers else 1

        n = game.players
        L = self.layout = Layout()
        L.add("hand", C)
        L.add("reserve_known", C)
        L.add("reserve_unknown", 1)
        L.add("seen", C)
        L.add("played_this_round", C)
        L.add("holdings_known", n * C)
        L.add("known_in_hand", n * C)
        L.add("won_this_round", n * C)
        L.add("hand_sizes", n)
        L.add("reserve_sizes", n)
        L.add("out", n)
        L.add("stock", 1)
        L.add("leader", n)
        L.add("trick_kind", len(TRICK_KINDS))
        L.add("trick_count", 1)
        L.add("suit_led", 4)
        L.add("best_seat", n)
        L.add("best", C)
        L.add("trick_cards", C)
        L.add("discarding", C)
        L.add("round", 1)
        L.add("hand_size", 1)
        if self.jokers:
            L.add("pending_run", len(RUN_SHAPES))
        self.features = Features(
            L.offsets, n, TRICK_KINDS, SUITS, C, self.base_run, bool(self.jokers)
        )

    # --- actions --------------------------------------------------------------------------------

    def _action_ids(self, action: Hashable) -> tuple[int, ...]:
        words = str(action).split()
        if not words:
            raise EncodingError(f"{action!r} is not a play of Rats")
        if words[0] == "discard":
            if len(words) != 2:
                raise EncodingError(f"a discard step is one card, not {action}")
            return (self.base_discard + self.card(words[1]),)
        kind = None
        if words[-1] in ("set", "run"):
            kind = words.pop()
        cards = [self.card(w) for w in words]
        if len(cards) == 1 and kind is None:
            return (cards[0],)
        naturals = [c for c in cards if c < 52]
        jokers = [c - 52 for c in cards if c >= 52]
        if not naturals:
            raise EncodingError(f"{action} has no natural card")
        if kind is None:
            same_rank = len({c >> 2 for c in naturals}) == 1
            kind = "set" if len(cards) == 2 or (same_rank and len(cards) <= 4) else "run"
        if kind == "set":
            suits = sum(1 << (c & 3) for c in naturals)
            jm = sum(1 << j for j in jokers)
            key = (naturals[0] >> 2, suits, jm)
            if key not in self.set_index:
                raise EncodingError(f"{action} is not a set of this game")
            return (self.base_set + self.set_index[key],)
        n = len(cards)
        places = sorted(_place(c) for c in naturals)
        top = min(12, places[0] + n - 1)
        shape = self.shape_index.get((naturals[0] & 3, top, n))
        if shape is None:
            raise EncodingError(f"{action} is not a run")
        if not self.jokers:
            return (self.base_run + shape,)
        low = top - n + 1
        holes = tuple(p - low for p in range(low, top + 1) if p not in places)
        pattern = self.pattern_index.get((holes, tuple(sorted(jokers))))
        if pattern is None:
            raise EncodingError(f"{action}: its jokers do not fill its gaps")
        return (self.base_run + shape, self.base_pattern + pattern)

    def action_from_ids(self, ids: Sequence[int]) -> Hashable:
        text = self._notation(ids)
        try:
            return self.game.parse_action(text)
        except ValueError as exc:
            raise EncodingError(f"ids {list(ids)} ({text}) are not a play: {exc}") from None

    def _notation(self, ids: Sequence[int]) -> str:
        bad = EncodingError(f"ids {list(ids)} are not an action of {self.game.id}")
        if not ids or not all(isinstance(i, int) and 0 <= i < self.num_actions for i in ids):
            raise bad
        first = ids[0]
        t = self.text
        if first < self.base_set:
            if len(ids) != 1:
                raise bad
            if first < self.base_discard:
                return t[first]
            return "discard " + t[first - self.base_discard]
        if first < self.base_run:
            if len(ids) != 1:
                raise bad
            rank, suits, jm = self.sets[first - self.base_set]
            cards = [rank * 4 + s for s in range(4) if suits >> s & 1]
            cards += [52 + j for j in range(2) if jm >> j & 1]
            word = " set" if len(cards) == 3 and len(cards) - suits.bit_count() == 2 else ""
            return " ".join(t[c] for c in cards) + word
        if first >= self.base_pattern or len(ids) != self.max_ids_per_action:
            raise bad
        suit, top, n = RUN_SHAPES[first - self.base_run]
        holes: tuple[int, ...] = ()
        jokers: tuple[int, ...] = ()
        if self.jokers:
            if not self.base_pattern <= ids[1] < self.num_actions:
                raise bad
            holes, jokers = self.patterns[ids[1] - self.base_pattern]
        low = top - n + 1
        if any(h >= n for h in holes) or len(holes) >= n:
            raise bad
        cards = [_place_card(low + i, suit) for i in range(n) if i not in holes]
        cards += [52 + j for j in jokers]
        word = " run" if n == 3 and len(jokers) == 2 else ""
        return " ".join(t[c] for c in cards) + word

    def id_text(self, action_id: int) -> str:
        if action_id < self.base_set:
            return self._notation([action_id])
        if action_id < self.base_run:
            return "set " + self._notation([action_id])
        if action_id < self.base_pattern:
            suit, top, n = RUN_SHAPES[action_id - self.base_run]
            low = top - n + 1
            names = ("A", *RANKS[:12])
            return f"run {names[low]}-{names[top]} {SUITS[suit]}"
        holes, jokers = self.patterns[action_id - self.base_pattern]
        if not holes:
            return "no jokers"
        return "jokers " + " ".join(
            f"{self.text[52 + j]}@{h + 1}" for h, j in zip(holes, jokers, strict=True)
        )

    # --- observations ---------------------------------------------------------------------------

    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        me = obs["seat"]
        n = self.game.players
        C = self.deck_size
        w.bits("hand", self.card_list(obs["hand"]))
        w.bits("reserve_known", self.card_list(obs["reserve_known"]))
        w.scaled("reserve_unknown", [obs["reserve_unknown"]], float(C))
        w.bits("seen", self.card_list(obs["seen"]))
        w.bits("played_this_round", self.card_list(obs["played_this_round"]))
        for key in ("holdings_known", "known_in_hand", "won_this_round"):
            rows = rotate(obs[key], me)
            w.bits(key, [r * C + c for r, row in enumerate(rows) for c in self.card_list(row)])
        w.scaled("hand_sizes", rotate(obs["hand_sizes"], me), float(C))
        w.scaled("reserve_sizes", rotate(obs["reserve_sizes"], me), float(C))
        w.bits("out", [i for i, v in enumerate(rotate(obs["out"], me)) if v])
        w.scaled("stock", [obs["stock"]], float(C))
        w.one_hot("leader", relative(obs["leader"], me, n))
        trick = obs["trick"]
        if trick is None:
            for name in ("trick_kind", "trick_count", "suit_led", "best_seat"):
                w.take(name)
            for name in ("best", "trick_cards", "discarding"):
                w.take(name)
        else:
            kind = trick["combination"]
            kind = "run" if kind.startswith("run of ") else kind
            if kind not in TRICK_KINDS:
                raise EncodingError(f"unknown trick combination {trick['combination']!r}")
            w.one_hot("trick_kind", TRICK_KINDS.index(kind))
            w.scaled("trick_count", [trick["count"]], 13.0)
            led = trick["suit_led"]
            w.one_hot("suit_led", None if led is None else index_of("suit_led", led, SUITS))
            w.one_hot("best_seat", relative(trick["best_seat"], me, n))
            w.bits("best", self.card_list(trick["best"]))
            w.bits("trick_cards", [c for p in trick["plays"] for c in self.card_list(p["cards"])])
            w.bits("discarding", self.card_list(trick["discarding"]))
        w.scaled("round", [obs["round"]], 50.0)
        w.scaled("hand_size", [obs["hand_size"]], float(C))
        if self.jokers:
            shape = None
            if pending:
                shape = pending[0] - self.base_run
            w.one_hot("pending_run", shape)

    def max_decisions(self, max_ticks: int | None = None) -> int:
        """In a round every card dealt is played once; a play of ``k`` cards takes one decision
        (a single, a set, a run without jokers), ``k`` (a discard, one card a step) or two (a
        run of three or more cards with jokers: its shape, then its jokers), never more than
        ``k``.  So a round takes at most as many decisions as the deck has cards (52, plus the
        jokers), and a game is at most ``max_rounds`` rounds.

        >>> import ratgames
        >>> game = ratgames.get_game("rats", players=3, options={"jokers": 2, "max_rounds": 10})
        >>> RatsEncoder(game).max_decisions()
        540
        """
        return len(self.game.deck()) * int(self.game.options["max_rounds"])
