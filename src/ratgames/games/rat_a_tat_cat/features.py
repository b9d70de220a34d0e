# ratgames: compiled
"""Rat-a-Tat Cat's observation vector read straight from the state, for the batched
environments: :class:`Features` writes exactly the vector :class:`~ratgames.games.
rat_a_tat_cat.encoding.RatATatCatEncoder` makes of a seat's observation
(``tests/rl/test_features.py`` compares them on played games), without building the
observation.  It reads only what the seat's observation holds: its own row of ``known`` (what
it has seen in every slot), the card it holds (another seat's only when it was taken from the
discard pile) and the table everybody sees.

It imports no numpy (the compiled build needs none): it appends positions in the vector to
lists, which the caller places in its rows and writes into its arrays at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ratgames.core.game import relative_seat

from .action import OVER, PHASE_NAMES
from .cards import SLOTS

if TYPE_CHECKING:
    from .rules import RatState


class Features:
    """The observation vector of a seat, as positions (see the module docstring).

    ``offsets`` are the encoder's sections (name to start and end), ``phases`` its phase names
    in order, ``kinds`` the index of each card among the card kinds, and ``scales`` its
    divisors: discard counts, draw pile, draws left, totals and turns."""

    def __init__(
        self,
        offsets: dict[str, tuple[int, int]],
        players: int,
        phases: tuple[str, ...],
        kinds: list[int],
        scales: list[float],
    ) -> None:
        def at(name: str) -> int:
            return offsets[name][0]

        self.n = players
        self.kinds = kinds
        self.nkinds = max(kinds) + 1
        self.phase_of = [at("phase") + phases.index(name) for name in PHASE_NAMES]
        self.turn = at("turn")
        self.slots = at("slots")
        self.slots_unknown = at("slots_unknown")
        self.face_up = at("face_up")
        self.held = at("held")
        self.held_hidden = at("held_hidden")
        self.held_from_discard = at("held_from_discard")
        self.discard_top = at("discard_top")
        self.discard_counts = at("discard_counts")
        self.draw_pile = at("draw_pile")
        self.draws_left = at("draws_left")
        self.knocker = at("knocker")
        self.in_round = at("in_round")
        self.out = at("out")
        self.totals = at("totals")
        self.turns_this_round = at("turns_this_round")
        self.count_scale = scales[0]
        self.draw_scale = scales[1]
        self.draws_scale = scales[2]
        self.total_scale = scales[3]
        self.turn_scale = scales[4]
        self.bit_starts: list[int] = []
        self.bit_width = 0
        self.pos: list[Any] = list(range(max(end for _, end in offsets.values())))
        """Every position of the vector as an int object, appended as it is: compiled, a
        position worked out anew would be a new int object each time, made and freed again."""

    def write(
        self,
        s: RatState,
        me: int,
        pending: int,
        ones: list[int],
        at: list[int],
        values: list[float],
        bits: list[int] | None,
    ) -> None:
        """Append ``me``'s vector: the positions of its ones to ``ones``, every other nonzero
        value to ``values`` with its position in ``at`` (positions in the vector, the objects
        of :attr:`pos`).  ``pending`` and ``bits`` are not used (every action is one id, no
        section is given as bit masks)."""
        P = self.pos
        n = self.n
        kinds = self.kinds
        nk = self.nkinds
        phase = s.phase
        ones.append(P[self.phase_of[phase]])
        if phase != OVER:
            ones.append(P[self.turn + relative_seat(s.turn, me, n)])
        known = s.known
        row = me * n * SLOTS
        faceup = s.faceup
        hands = s.hands
        elim = s.elim
        slots = self.slots
        unknown = self.slots_unknown
        up = self.face_up
        for r in range(n):
            seat = (me + r) % n
            for i in range(SLOTS):
                place = seat * SLOTS + i
                k = r * SLOTS + i
                c = known[row + place]
                if c >= 0:
                    ones.append(P[slots + k * nk + kinds[c]])
                else:
                    ones.append(P[unknown + k])
                if faceup[place]:
                    ones.append(P[up + k])
            if hands[seat * SLOTS] >= 0:
                ones.append(P[self.in_round + r])
            if elim[seat]:
                ones.append(P[self.out + r])
            _one(at, values, P, self.totals + r, s.totals[seat] / self.total_scale)
        held = s.held
        if held >= 0:
            if s.held_pub:
                ones.append(P[self.held + kinds[held]])
                ones.append(P[self.held_from_discard])
            elif s.turn == me:
                ones.append(P[self.held + kinds[held]])
            else:
                ones.append(P[self.held_hidden])
        discard = s.discard
        if discard:
            ones.append(P[self.discard_top + kinds[discard[-1]]])
            counts = [0] * nk
            for c in discard:
                counts[kinds[c]] += 1
            b = self.discard_counts
            for k in range(nk):
                if counts[k]:
                    _one(at, values, P, b + k, counts[k] / self.count_scale)
        _one(at, values, P, self.draw_pile, len(s.draw) / self.draw_scale)
        _one(at, values, P, self.draws_left, s.extra / self.draws_scale)
        if s.knocker >= 0:
            ones.append(P[self.knocker + relative_seat(s.knocker, me, n)])
        _one(at, values, P, self.turns_this_round, s.rturns / self.turn_scale)


def _one(at: list[int], values: list[float], P: list[Any], pos: int, x: float) -> None:
    """A value already divided by its scale, clipped to [0, 1] (nothing for 0)."""
    if x != 0.0:
        at.append(P[pos])
        values.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))
