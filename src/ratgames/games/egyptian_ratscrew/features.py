# ratgames: compiled
"""Egyptian Ratscrew's observation vector read straight from the state, for the batched
environments: :class:`Features` writes exactly the vector :class:`~ratgames.games.
egyptian_ratscrew.encoding.EgyptianRatscrewEncoder` makes of a seat's observation
(``tests/rl/test_features.py`` compares them on played games), without building the
observation.  Everything a seat sees is public (the pile, the sizes, the cards of a stack known
to all); of a stack it reads only the entries flagged as known.

It imports no numpy (the compiled build needs none): it appends positions in the vector to
lists, which the caller places in its rows and writes into its arrays at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ratgames.core.game import relative_seat

from .cards import CARD_BITS, KNOWN
from .phases import COLLECT, FINAL, OVER, PHASE_NAMES, PLAY, STATUS_NAMES

if TYPE_CHECKING:
    from .rules import RatscrewState


class Features:
    """The observation vector of a seat, as positions (see the module docstring).

    ``offsets`` are the encoder's sections (name to start and end), ``phases`` and
    ``statuses`` its names of them in order, ``cards`` the index of each card (by its number,
    -1 for none of the deck) and ``shown`` how many of the pile's top cards it shows."""

    def __init__(
        self,
        offsets: dict[str, tuple[int, int]],
        players: int,
        phases: tuple[str, ...],
        statuses: tuple[str, ...],
        cards: list[int],
        shown: int,
    ) -> None:
        def at(name: str) -> int:
            return offsets[name][0]

        self.n = players
        self.cards = cards
        self.deck = len([c for c in cards if c >= 0])
        self.scale = float(self.deck)
        self.phase_of = [at("phase") + phases.index(name) for name in PHASE_NAMES]
        self.status_of = [statuses.index(name) for name in STATUS_NAMES]
        self.nstatus = len(statuses)
        self.turn = at("turn")
        self.collector = at("collector")
        self.challenger = at("challenger")
        self.chances_left = at("chances_left")
        self.pile = [at(f"pile_{i}") for i in range(shown)]
        self.pile_bottom = at("pile_bottom")
        self.pile_size = at("pile_size")
        self.burned = at("burned")
        self.slappable = at("slappable")
        self.may_slap = at("may_slap")
        self.stack_sizes = at("stack_sizes")
        self.status = at("status")
        self.stack_tops_known = at("stack_tops_known")
        self.stack_known = at("stack_known")
        self.bit_starts: list[int] = []
        self.bit_width = 0
        self.pos: list[Any] = list(range(max(end for _, end in offsets.values())))
        """Every position of the vector as an int object, appended as it is: compiled, a
        position worked out anew would be a new int object each time, made and freed again."""

    def _card(self, c: int) -> int:
        i = self.cards[c] if 0 <= c < len(self.cards) else -1
        if i < 0:
            raise ValueError(f"{c!r} is not a card of the deck")
        return i

    def write(
        self,
        s: RatscrewState,
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
        scale = self.scale
        phase = s.phase
        ones.append(P[self.phase_of[phase]])
        if phase == PLAY:
            ones.append(P[self.turn + relative_seat(s.turn, me, n)])
        if phase in (COLLECT, FINAL):
            ones.append(P[self.collector + relative_seat(s.collector, me, n)])
        if s.challenger >= 0:
            ones.append(P[self.challenger + relative_seat(s.challenger, me, n)])
            if phase == PLAY and s.chances:
                x = s.chances / 4.0
                at.append(P[self.chances_left])
                values.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))
        pile = s.pile
        size = len(pile)
        shown = self.pile
        for i in range(len(shown)):
            if size > i:
                ones.append(P[shown[i] + self._card(pile[size - 1 - i])])
        if size:
            ones.append(P[self.pile_bottom + self._card(pile[0])])
        _one(at, values, P, self.pile_size, size / scale)
        _one(at, values, P, self.burned, len(s.burned) / scale)
        if s.rule:
            ones.append(P[self.slappable])
        if phase != OVER and s.last_slap[me] < s.version and s._may_slap(me):
            ones.append(P[self.may_slap])
        D = self.deck
        for r in range(n):
            seat = (me + r) % n
            stack = s.stacks[seat]
            _one(at, values, P, self.stack_sizes + r, len(stack) / scale)
            ones.append(P[self.status + r * self.nstatus + self.status_of[s.status[seat]]])
            if stack:
                top = stack[-1]
                if top >= KNOWN and top & CARD_BITS < 54:
                    ones.append(P[self.stack_tops_known + r * D + self._card(top & CARD_BITS)])
            known = 0
            for c in stack:
                if c >= KNOWN and c & CARD_BITS < 54:
                    known += 1
            _one(at, values, P, self.stack_known + r, known / scale)


def _one(at: list[int], values: list[float], P: list[Any], pos: int, x: float) -> None:
    """A value already divided by its scale, clipped to [0, 1] (nothing for 0)."""
    if x != 0.0:
        at.append(P[pos])
        values.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))
