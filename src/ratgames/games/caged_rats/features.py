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

from .deck import CAGE, LEADS_PER_DEAL, OVER, PHASE_NAMES, RAT_VALUE
from .rules import rat_points

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
        size = max(end for _, end in offsets.values())
        self.scales: list[float] = [1.0] * size
        """The divisor of the count :meth:`write` gives at each position (1 where it gives
        none): the value there is the count divided by it, clipped to [0, 1]."""
        for name, scale in (
            ("hand_sizes", scales[0]),
            ("stock_sizes", scales[1]),
            ("discards", scales[2]),
            ("lead", float(LEADS_PER_DEAL)),
            ("deal_points", scales[3]),
            ("scores", scales[3]),
            ("rubbers_won", scales[4]),
        ):
            for k in range(*offsets[name]):
                self.scales[k] = scale
        for k in self.captures:
            self.scales[k] = 13.0
        self.pos: list[Any] = list(range(size))
        """Every position of the vector as an int object, appended as it is: compiled, a
        position worked out anew would be a new int object each time, made and freed again."""

    def write(
        self,
        s: CagedRatsState,
        me: int,
        pending: int,
        ones: list[int],
        at: list[int],
        values: list[int],
        bits: list[int] | None,
    ) -> None:
        """Append ``me``'s vector: the positions of its ones to ``ones``, every other nonzero
        value to ``values`` as a count, its value that count divided by :attr:`scales` at its
        position (clipped to [0, 1]), with its position in ``at`` (positions in the vector, the
        objects of :attr:`pos`), and the card sets of :attr:`bit_starts` to ``bits`` as bit
        masks, in that order (without ``bits``, their cards' positions to ``ones``).
        ``pending`` is not used (every action is one id)."""
        P = self.pos
        # The state's pairs (rats, throws, scores, rubbers) are read at fixed places: compiled,
        # a pair read at a place worked out at run time is made into a tuple object first.
        rats_pair = s.rats
        thrown_pair = s.thrown
        if me == 0:
            my_rats, other_rats = rats_pair[0], rats_pair[1]
            my_thrown = thrown_pair[0]
        else:
            my_rats, other_rats = rats_pair[1], rats_pair[0]
            my_thrown = thrown_pair[1]
        other = 1 - me
        fed = s.fed
        if bits is not None:
            m = 0
            for c in s.hands[me]:
                m |= 1 << c
            bits.append(m)
            m = 0
            for c in my_rats:
                m |= 1 << c
            for c in other_rats:
                m |= 1 << c
            for c in s.pile:
                m |= 1 << c
            for f in fed:
                for c in f:
                    m |= 1 << c
            if s.offer >= 0:
                m |= 1 << s.offer
            if s.bid >= 0:
                m |= 1 << s.bid
            bits.append(m)
            m = 0
            for c in my_thrown:
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
        for k in range(2):
            seat = me if k == 0 else other
            rats = my_rats if k == 0 else other_rats
            for i in range(len(rats)):
                ones.append(P[self.rats[2 * k + i] + rats[i]])
                n = len(fed[2 * seat + i])
                if n:
                    at.append(P[self.captures[2 * k + i]])
                    values.append(n)
        if bits is None:
            b = self.face_up_seen
            for c in rats_pair[0]:
                ones.append(P[b + c])
            for c in rats_pair[1]:
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
            for c in my_thrown:
                ones.append(P[b + c])
        _pair(at, values, P, self.hand_sizes, len(s.hands[me]), len(s.hands[other]))
        _pair(at, values, P, self.stock_sizes, len(s.stocks[me]), len(s.stocks[other]))
        discards = len(s.pile) + len(thrown_pair[0]) + len(thrown_pair[1])
        _count(at, values, P, self.discards, discards)
        _count(at, values, P, self.lead, min(s.lead_no + 1, LEADS_PER_DEAL))
        mine = _deal_points(my_rats, fed, me)
        theirs = _deal_points(other_rats, fed, other)
        _pair(at, values, P, self.deal_points, mine, theirs)
        scores = s.scores
        wins = s.rubber_wins
        if me == 0:
            _pair(at, values, P, self.scores, scores[0], scores[1])
            _pair(at, values, P, self.rubbers_won, wins[0], wins[1])
        else:
            _pair(at, values, P, self.scores, scores[1], scores[0])
            _pair(at, values, P, self.rubbers_won, wins[1], wins[0])


def _deal_points(rats: tuple[int, ...], fed: tuple[tuple[int, ...], ...], seat: int) -> int:
    """``s._deal_points(seat)`` of a state ``s`` with ``rats`` the seat's and ``fed`` its fed
    (:func:`~ratgames.games.caged_rats.rules.cage_points`), without the two tuples it makes
    for each reading."""
    if not rats:
        return 0
    v0 = RAT_VALUE[rats[0]]
    v1 = RAT_VALUE[rats[1]]
    n0 = len(fed[2 * seat])
    n1 = len(fed[2 * seat + 1])
    if n0 == v0 and n1 == v1:
        return 10 * (n0 + n1)
    return rat_points(v0, n0) + rat_points(v1, n1)


def _count(at: list[int], values: list[int], P: list[Any], pos: int, count: int) -> None:
    """A count at ``pos`` (nothing for 0)."""
    if count:
        at.append(P[pos])
        values.append(count)


def _pair(at: list[int], values: list[int], P: list[Any], pos: int, a: int, b: int) -> None:
    """Two counts, at ``pos`` and ``pos + 1``."""
    if a:
        at.append(P[pos])
        values.append(a)
    if b:
        at.append(P[pos + 1])
        values.append(b)
