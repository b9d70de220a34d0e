# ratgames: compiled
"""Rats' observation vector read straight from the state, for the batched environments:
:class:`Features` writes exactly the vector :class:`~ratgames.games.rats.encoding.RatsEncoder`
makes of a seat's observation (``tests/rl/test_features.py`` compares them on played games),
without building the observation.  It reads only what the seat's observation holds: its own
hand and reserve, what it knows of the others' holdings, and the table everybody sees.

It imports no numpy (the compiled build needs none): it appends positions in the vector to
lists, which the caller places in its rows and writes into its arrays at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ratgames.cards import SUITS
from ratgames.core.game import relative_seat

from .action import RUN, SET, SINGLE, trick_kind_name

if TYPE_CHECKING:
    from .rules import RatsState

_COUNTS: Final = 64
"""Room for a trick's card count in :attr:`Features.kind_pos`."""


class Features:
    """The observation vector of a seat, as positions (see the module docstring).

    ``offsets`` are the encoder's sections (name to start and end), ``kinds`` its trick kinds
    (``run`` for any run), ``suits`` its suit letters, ``deck`` the cards in the deck (52 to
    54), ``base_run`` the first id of a run shape (a pending id minus it is the shape shown)."""

    def __init__(
        self,
        offsets: dict[str, tuple[int, int]],
        players: int,
        kinds: tuple[str, ...],
        suits: tuple[str, ...],
        deck: int,
        base_run: int,
        jokers: bool,
    ) -> None:
        def at(name: str) -> int:
            return offsets[name][0]

        self.n = players
        self.deck = deck
        self.scale = float(deck)
        self.base_run = base_run
        self.jokers = jokers
        self.hand = at("hand")
        self.reserve_known = at("reserve_known")
        self.reserve_unknown = at("reserve_unknown")
        self.seen = at("seen")
        self.played_this_round = at("played_this_round")
        self.holdings_known = at("holdings_known")
        self.known_in_hand = at("known_in_hand")
        self.won_this_round = at("won_this_round")
        self.hand_sizes = at("hand_sizes")
        self.reserve_sizes = at("reserve_sizes")
        self.out = at("out")
        self.stock = at("stock")
        self.leader = at("leader")
        self.trick_count = at("trick_count")
        self.suit_led = at("suit_led")
        self.best_seat = at("best_seat")
        self.best = at("best")
        self.trick_cards = at("trick_cards")
        self.discarding = at("discarding")
        self.round = at("round")
        self.hand_size = at("hand_size")
        self.pending_run = at("pending_run") if jokers else -1
        self.bit_width = deck
        """The width of a bit section: a card set, one position per card of the deck."""
        self.bit_starts: list[int] = [
            self.hand,
            self.reserve_known,
            self.seen,
            self.played_this_round,
        ]
        """Where each card set :meth:`write` gives as a bit mask starts, in order: the seat's
        hand and known reserve, the cards seen and played this round, then every seat's known
        holdings, known hand cards and cards won this round (the seat's first)."""
        for section in (self.holdings_known, self.known_in_hand, self.won_this_round):
            self.bit_starts += [section + r * deck for r in range(players)]
        size = max(end for _, end in offsets.values())
        self.scales: list[float] = [1.0] * size
        """The divisor of the count :meth:`write` gives at each position (1 where it gives
        none): the value there is the count divided by it, clipped to 1."""
        for name in ("reserve_unknown", "hand_sizes", "reserve_sizes", "stock", "hand_size"):
            for k in range(*offsets[name]):
                self.scales[k] = self.scale
        self.scales[self.trick_count] = 13.0
        self.scales[self.round] = 50.0
        self.pos: list[Any] = list(range(size))
        """Every position of the vector as an int object, appended as it is: compiled, a
        position worked out anew would be a new int object each time, made and freed again."""
        start = at("trick_kind")
        self.kind_pos = [-1] * (3 * _COUNTS)
        """The position of the trick's kind, by ``kind * 64 + count`` (-1: not a kind known)."""
        for kind in (SINGLE, SET, RUN):
            for count in range(1, _COUNTS):
                if kind == SET and not 2 <= count <= 4:
                    continue
                name = trick_kind_name(kind, count)
                name = "run" if name.startswith("run of ") else name
                if name in kinds:
                    self.kind_pos[kind * _COUNTS + count] = start + kinds.index(name)
        self.suit_pos = [at("suit_led") + suits.index(suit) for suit in SUITS]

    def write(
        self,
        s: RatsState,
        me: int,
        pending: int,
        ones: list[int],
        at: list[int],
        values: list[int],
        bits: list[Any] | None,
    ) -> None:
        """Append ``me``'s vector: the positions of its ones to ``ones``, every other nonzero
        value to ``values`` as a count, its value that count divided by :attr:`scales` at its
        position (clipped to 1), with its position in ``at`` (positions in the vector, the
        objects of :attr:`pos`), and the card sets of :attr:`bit_starts` to ``bits`` as bit
        masks, in that order (without ``bits``, their cards' positions to ``ones``).
        ``pending`` is the run shape's id picked at the first step of a run with jokers, else
        -1."""
        P = self.pos
        n = self.n
        reserve = s.reserves[me]
        known = reserve & s.known[me]
        trick_mask = s.trick_mask
        # The masks kept in the state's lists go over as the objects they are (typed Any, so
        # that the compiled build passes them on instead of making a new int object of each).
        hands: list[Any] = s.hand_masks
        knowns: list[Any] = s.known
        known_hands: list[Any] = s.known_hand
        wons: list[Any] = s.won_round
        if bits is not None:
            bits.append(hands[me])
            bits.append(known)
            bits.append(s.seen | trick_mask)
            bits.append(s.round_seen | trick_mask)
            for r in range(n):
                bits.append(knowns[(me + r) % n])
            for r in range(n):
                bits.append(known_hands[(me + r) % n])
            for r in range(n):
                bits.append(wons[(me + r) % n])
        else:
            starts = self.bit_starts
            _set(ones, P, starts[0], s.hand_masks[me])
            _set(ones, P, starts[1], known)
            _set(ones, P, starts[2], s.seen | trick_mask)
            _set(ones, P, starts[3], s.round_seen | trick_mask)
            for r in range(n):
                _set(ones, P, starts[4 + r], s.known[(me + r) % n])
            for r in range(n):
                _set(ones, P, starts[4 + n + r], s.known_hand[(me + r) % n])
            for r in range(n):
                _set(ones, P, starts[4 + 2 * n + r], s.won_round[(me + r) % n])
        _count(at, values, P, self.reserve_unknown, popcount(reserve & ~known))
        seat = me
        for r in range(n):
            _count(at, values, P, self.hand_sizes + r, popcount(s.hand_masks[seat]))
            _count(at, values, P, self.reserve_sizes + r, popcount(s.reserves[seat]))
            if not s.alive[seat]:
                ones.append(P[self.out + r])
            seat += 1
            if seat == n:
                seat = 0
        _count(at, values, P, self.stock, popcount(s.stock))
        ones.append(P[self.leader + relative_seat(s.leader, me, n)])
        trick = s.trick
        if trick:
            count = s.trick_n
            kind = s.trick_kind
            pos = -1
            if 0 <= kind <= 2 and 0 < count < _COUNTS:
                pos = self.kind_pos[kind * _COUNTS + count]
            if pos < 0:
                raise ValueError(f"unknown trick: kind {kind}, {count} cards")
            ones.append(P[pos])
            _count(at, values, P, self.trick_count, count)
            if s.suit_led >= 0:
                ones.append(P[self.suit_pos[s.suit_led]])
            ones.append(P[self.best_seat + relative_seat(s.best_seat, me, n)])
            b = self.best
            for c in s._best_cards():
                ones.append(P[b + c])
            b = self.trick_cards
            for _, action in trick:
                for c in action.cards:
                    ones.append(P[b + c])
            b = self.discarding
            for c in s.pending:
                ones.append(P[b + c])
        _count(at, values, P, self.round, s.round)
        _count(at, values, P, self.hand_size, s.hand_size)
        if self.jokers and pending >= 0:
            ones.append(P[self.pending_run + pending - self.base_run])


_POP16: Final = [bin(i).count("1") for i in range(1 << 16)]
"""The ones of each 16-bit number."""


def popcount(m: int) -> int:
    """``m.bit_count()``, compiled without a call of the int's method (which makes an int
    object of ``m`` and looks the method up)."""
    if m < 0:
        return m.bit_count()
    t = _POP16
    n = 0
    while m:
        n += t[m & 0xFFFF]
        m >>= 16
    return n


def _set(ones: list[int], P: list[Any], start: int, mask: int) -> None:
    """A card set: the position ``start + c`` of every card ``c`` in ``mask``."""
    c = start
    while mask:
        if mask & 1:
            ones.append(P[c])
        mask >>= 1
        c += 1


def _count(at: list[int], values: list[int], P: list[Any], pos: int, count: int) -> None:
    """A count at ``pos`` (nothing for 0)."""
    if count:
        at.append(P[pos])
        values.append(count)
