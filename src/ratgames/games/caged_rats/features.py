# ratgames: compiled
"""Caged Rats' observation vector read straight from the state, for the batched environments:
:class:`Features` writes exactly the vector :class:`~ratgames.games.caged_rats.encoding.
CagedRatsEncoder` makes of a seat's observation (``tests/rl/test_features.py`` compares them on
played games), without building the observation.  It reads only what the seat's observation
holds: its own hand and face-down throws, and the table everybody sees.

It imports no numpy (the compiled build needs none): it appends positions in the vector to
lists, which the caller places in its rows and writes into its arrays at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .deck import CAGE, LEADS_PER_DEAL, OVER, PHASE_NAMES

if TYPE_CHECKING:
    from .rules import CagedRatsState


class Features:
    """The observation vector of a seat, as positions (see the module docstring).

    ``offsets`` are the encoder's sections (name to start and end), ``phases`` its phase
    names in order, and ``scales`` its divisors: hand, stock, discards, score and rubbers."""

    def __init__(
        self, offsets: dict[str, tuple[int, int]], phases: tuple[str, ...], scales: list[float]
    ) -> None:
        def at(name: str) -> int:
            return offsets[name][0]

        self.phase_of = [at("phase") + phases.index(name) for name in PHASE_NAMES]
        self.i_lead = at("i_lead")
        self.i_deal = at("i_deal")
        self.hand = at("hand")
        self.offer = at("offer")
        self.offer_from_stock = at("offer_from_stock")
        self.bid = at("bid")
        self.rats = [at(f"rat{r}_{who}") for who in ("me", "other") for r in (1, 2)]
        self.captures = [at(f"rat{r}_{who}_captures") for who in ("me", "other") for r in (1, 2)]
        self.face_up_seen = at("face_up_seen")
        self.my_throws = at("my_throws")
        self.hand_sizes = at("hand_sizes")
        self.stock_sizes = at("stock_sizes")
        self.discards = at("discards")
        self.lead = at("lead")
        self.deal_points = at("deal_points")
        self.scores = at("scores")
        self.rubbers_won = at("rubbers_won")
        self.hand_scale = scales[0]
        self.stock_scale = scales[1]
        self.discard_scale = scales[2]
        self.score_scale = scales[3]
        self.rubber_scale = scales[4]
        self.bit_starts: list[int] = [self.hand, self.face_up_seen, self.my_throws]
        """The card sets a batch takes as bit masks (bit ``c``: card ``c``): the hand, the
        cards seen face up and the seat's face-down throws, some 30 ones of an observation
        that numpy unpacks from three masks faster than it reads their positions."""
        self.bit_width = 52
        self.pos: list[Any] = list(range(max(end for _, end in offsets.values())))
        """Every position of the vector as an int object, appended as it is: compiled, a
        position worked out anew would be a new int object each time, made and freed again."""

    def write(
        self,
        s: CagedRatsState,
        me: int,
        pending: int,
        ones: list[int],
        at: list[int],
        values: list[float],
        bits: list[int] | None,
    ) -> None:
        """Append ``me``'s vector: the positions of its ones to ``ones``, every other nonzero
        value to ``values`` with its position in ``at`` (positions in the vector, the objects
        of :attr:`pos`), and the card sets of :attr:`bit_starts` to ``bits`` as bit masks, in
        that order (without ``bits``, their cards' positions to ``ones``).  ``pending`` is not
        used (every action is one id)."""
        P = self.pos
        if bits is not None:
            m = 0
            for c in s.hands[me]:
                m |= 1 << c
            bits.append(m)
            m = 0
            for r in s.rats:
                for c in r:
                    m |= 1 << c
            for c in s.pile:
                m |= 1 << c
            for f in s.fed:
                for c in f:
                    m |= 1 << c
            if s.offer >= 0:
                m |= 1 << s.offer
            if s.bid >= 0:
                m |= 1 << s.bid
            bits.append(m)
            m = 0
            for c in s.thrown[me]:
                m |= 1 << c
            bits.append(m)
        phase = s.phase
        ones.append(P[self.phase_of[phase]])
        if phase != CAGE and phase != OVER and s._leader() == me:
            ones.append(P[self.i_lead])
        if s.dealer == me:
            ones.append(P[self.i_deal])
        if bits is None:
            b = self.hand
            for c in s.hands[me]:
                ones.append(P[b + c])
        offer = s.offer
        if offer >= 0:
            ones.append(P[self.offer + offer])
        if s.from_stock:
            ones.append(P[self.offer_from_stock])
        bid = s.bid
        if bid >= 0:
            ones.append(P[self.bid + bid])
        fed = s.fed
        for k in range(2):
            seat = me if k == 0 else 1 - me
            rats = s.rats[seat]
            for i in range(len(rats)):
                ones.append(P[self.rats[2 * k + i] + rats[i]])
                n = len(fed[2 * seat + i])
                if n:
                    x = n / 13.0
                    at.append(P[self.captures[2 * k + i]])
                    values.append(1.0 if x > 1.0 else x)
        if bits is None:
            b = self.face_up_seen
            for seat in range(2):
                for c in s.rats[seat]:
                    ones.append(P[b + c])
            for c in s.pile:
                ones.append(P[b + c])
            for f in fed:
                for c in f:
                    ones.append(P[b + c])
            if offer >= 0:
                ones.append(P[b + offer])
            if bid >= 0:
                ones.append(P[b + bid])
            b = self.my_throws
            for c in s.thrown[me]:
                ones.append(P[b + c])
        other = 1 - me
        _pair(at, values, P, self.hand_sizes, len(s.hands[me]), len(s.hands[other]),
              self.hand_scale)  # fmt: skip
        _pair(at, values, P, self.stock_sizes, len(s.stocks[me]), len(s.stocks[other]),
              self.stock_scale)  # fmt: skip
        discards = len(s.pile) + len(s.thrown[0]) + len(s.thrown[1])
        _one(at, values, P, self.discards, discards / self.discard_scale)
        lead = s.lead_no + 1
        _one(at, values, P, self.lead, min(lead, LEADS_PER_DEAL) / float(LEADS_PER_DEAL))
        score = self.score_scale
        _pair(at, values, P, self.deal_points, s._deal_points(me), s._deal_points(other),
              score)  # fmt: skip
        _pair(at, values, P, self.scores, s.scores[me], s.scores[other], score)
        wins = s.rubber_wins
        _pair(at, values, P, self.rubbers_won, wins[me], wins[other], self.rubber_scale)


def _one(at: list[int], values: list[float], P: list[Any], pos: int, x: float) -> None:
    """A value already divided by its scale, clipped to [0, 1] (nothing for 0)."""
    if x != 0.0:
        at.append(P[pos])
        values.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))


def _pair(
    at: list[int], values: list[float], P: list[Any], pos: int, a: int, b: int, scale: float
) -> None:
    """Two counts divided by ``scale``, clipped to [0, 1], at ``pos`` and ``pos + 1``."""
    _one(at, values, P, pos, a / scale)
    _one(at, values, P, pos + 1, b / scale)
