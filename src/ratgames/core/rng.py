# ratgames: compiled
"""A small seeded random number generator whose stream never changes.

Python's :mod:`random` does not promise the same sequence across versions, so the engine uses this
generator (SplitMix64) for every shuffle, deal and chance outcome.  It offers the few methods the
engine and bots need, with the same names as :class:`random.Random`.

>>> rng = Rng(7)
>>> [rng.randbelow(10) for _ in range(5)]
[3, 0, 9, 5, 4]
>>> deck = list(range(6)); Rng(7).shuffle(deck); deck
[5, 4, 0, 3, 1, 2]

:meth:`Rng.shuffle` draws all the outputs it needs at once: the SplitMix64 states of a shuffle are
``state + k * gamma``, known in advance, so their mixing is done on all of them together, each in
its own 128-bit lane of one Python integer (a handful of big-integer operations instead of a dozen
small ones per output).  The outputs, and so the shuffles, are exactly those of the plain loop
(:func:`shuffle_reference`).  The single draws (:meth:`Rng.randbelow`, :meth:`Rng.random`, ...)
take their outputs the same way, :data:`AHEAD` at a time, and hand them out one by one: the
stream is the same, and :attr:`Rng.state` counts only the outputs handed out.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, Final, TypeVar

# Constants (the compiled build reads them as such instead of looking them up at every call).
_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB
_TWO53: Final = 1.0 / 9007199254740992.0
T = TypeVar("T")

_Plan = tuple[int, int, int, int, Callable[[bytes], tuple[Any, ...]], range, int]
_PLANS: dict[int, _Plan] = {}

AHEAD: Final = 32
"""The most outputs a single draw computes at once.  After a shuffle (or a new or moved state)
the first :data:`SINGLY` draws compute their output alone, as most generators in search draw a
few numbers between shuffles; then 8 are computed at once, then 16, then this many."""
SINGLY: Final = 4
"""How many draws after a shuffle compute their output alone (see :data:`AHEAD`)."""
_FIRST_BATCH: Final = 8


def _lanes(k: int) -> tuple[int, int, int]:
    """The lane constants of ``k`` outputs: ones in each lane, ``(i + 1) * gamma`` in lane
    ``i``, and the 64-bit mask of every lane."""
    ones = sum(1 << (128 * i) for i in range(k))
    ramp = sum(((i + 1) * _GAMMA) << (128 * i) for i in range(k))
    return ones, ramp, _MASK * ones


_Batch = tuple[int, int, int, int, Callable[[bytes], tuple[Any, ...]], int]


def _batch(k: int) -> _Batch:
    """What computing ``k`` single draws at once needs: the lane constants, the lanes' size in
    bytes, the unpacker (each lane gives its whole 64-bit output, the last lane first, so that
    the outputs are handed out by popping them off the end of a list) and the state's advance."""
    ones, ramp, lanes = _lanes(k)
    unpack = struct.Struct(">" + "8xQ" * k).unpack
    return ones, ramp, lanes, 16 * k, unpack, (k * _GAMMA) & _MASK


_BATCHES: Final = {k: _batch(k) for k in (8, 16, 32)}
_NOTHING_AHEAD: Final[list[int]] = []
"""The empty list of a generator with no outputs computed ahead, shared (it is never popped: a
refill replaces it), so that making a generator allocates nothing more."""


def _plan(n: int) -> _Plan:
    """What a shuffle of ``n`` items needs, made once per length: ``k = n // 2`` outputs (each
    gives two swaps), the lane constants, the lanes' size in bytes, the unpacker of the outputs'
    32-bit halves, the positions swapped and the state's advance."""
    k = n // 2
    ones, ramp, lanes = _lanes(k)
    # Little-endian on every machine: each lane gives its low then its high 32 bits.
    unpack = struct.Struct("<" + "II8x" * k).unpack
    plan = (ones, ramp, lanes, 16 * k, unpack, range(n - 1, 0, -1), k * _GAMMA)
    if n <= 1024:
        _PLANS[n] = plan
    return plan


class Rng:
    """SplitMix64: tiny, fast in pure Python, and stable forever."""

    __slots__ = ("_ahead", "_end", "_grow")

    def __init__(self, seed: int = 0) -> None:
        # The state after the outputs computed so far, those not yet handed out (the next one
        # last), and how many the next computation makes (below _FIRST_BATCH: one, counting up).
        self._end = seed & _MASK
        self._ahead: list[int] = _NOTHING_AHEAD
        self._grow = _FIRST_BATCH - SINGLY

    @property
    def state(self) -> int:
        """The SplitMix64 state: where the stream stands after the outputs handed out so far.
        Setting it moves the generator there."""
        return (self._end - len(self._ahead) * _GAMMA) & _MASK

    @state.setter
    def state(self, value: int) -> None:
        self._end = value & _MASK
        self._ahead = _NOTHING_AHEAD
        self._grow = _FIRST_BATCH - SINGLY

    def _compute(self) -> int:
        """The next output, computed with the next ones after it (kept to hand out); the draws
        call it once they are past computing their outputs alone."""
        k = self._grow
        s = self._end
        ones, ramp, lanes, size, unpack, advance = _BATCHES[k]
        z = (s * ones + ramp) & lanes
        z = ((z ^ (z >> 30)) & lanes) * _MUL1 & lanes
        z = ((z ^ (z >> 27)) & lanes) * _MUL2 & lanes
        z ^= z >> 31  # bits shifted in from the next lane land above bit 64, never read
        ahead: list[int] = list(unpack(z.to_bytes(size, "big")))
        self._ahead = ahead
        self._end = (s + advance) & _MASK
        if k < AHEAD:
            self._grow = k + k
        return ahead.pop()

    def next64(self) -> int:
        """The next 64-bit output."""
        ahead = self._ahead
        if ahead:
            return ahead.pop()
        if self._grow >= _FIRST_BATCH:
            return self._compute()
        self._grow += 1
        self._end = s = (self._end + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return z ^ (z >> 31)

    def getrandbits(self, k: int) -> int:
        """A random integer of ``k`` bits (``k`` <= 64)."""
        return self.next64() >> (64 - k) if k else 0

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``n`` > 0)."""
        ahead = self._ahead
        if ahead:
            return (ahead.pop() * n) >> 64
        if self._grow >= _FIRST_BATCH:
            return (self._compute() * n) >> 64
        # One output alone (written out in each draw: this is the hot path).
        self._grow += 1
        self._end = s = (self._end + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def randrange(self, n: int) -> int:
        """Same as :meth:`randbelow`, named as in :mod:`random`."""
        return self.randbelow(n)

    def random(self) -> float:
        """A float in [0, 1)."""
        ahead = self._ahead
        if ahead:
            return (ahead.pop() >> 11) * _TWO53
        if self._grow >= _FIRST_BATCH:
            return (self._compute() >> 11) * _TWO53
        self._grow += 1
        self._end = s = (self._end + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return ((z ^ (z >> 31)) >> 11) * _TWO53

    def uniform(self, a: float, b: float) -> float:
        """A float between ``a`` and ``b``."""
        return a + (b - a) * self.random()

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """A normal variate (Box-Muller), for reaction times and the like."""
        u1 = 1.0 - self.random()
        u2 = self.random()
        return mu + sigma * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates from the end; each 64-bit output gives two
        swaps, its low 32 bits then its high 32 bits), exactly as :func:`shuffle_reference`."""
        n = len(items)
        if n < 2:
            return
        plan = _PLANS.get(n) or _plan(n)
        ones, ramp, lanes, size, unpack, positions, advance = plan
        # Where the stream stands: outputs computed ahead and not handed out are dropped (the
        # shuffle takes them), and setting the state at the end starts the single draws afresh.
        state = self.state
        # Lane i holds state + (i + 1) * gamma (below 2**69: no carry into the next lane), then
        # its SplitMix64 output; each product fits its 128-bit lane.
        z = (state * ones + ramp) & lanes
        z = ((z ^ (z >> 30)) & lanes) * _MUL1 & lanes
        z = ((z ^ (z >> 27)) & lanes) * _MUL2 & lanes
        z ^= z >> 31  # bits shifted in from the next lane land above bit 64, never read
        words: tuple[int, ...] = unpack(z.to_bytes(size, "little"))
        if type(items) is list:
            # The same loop on a list: the compiled build then indexes the list directly and
            # does the arithmetic on machine words.
            cards: list[Any] = items
            for i, w in zip(positions, words, strict=False):
                j = (w * (i + 1)) >> 32
                cards[i], cards[j] = cards[j], cards[i]
        else:
            for i, w in zip(positions, words, strict=False):
                j = (w * (i + 1)) >> 32
                items[i], items[j] = items[j], items[i]
        self.state = state + advance

    def clone(self) -> Rng:
        """An independent copy that continues the same stream."""
        return Rng(self.state)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its state, rebuilt through the constructor (as the compiled class must be).
        return (Rng, (self.state,))


def shuffle_reference(rng: Rng, items: MutableSequence[T]) -> None:
    """The plain loop :meth:`Rng.shuffle` is exactly equal to (kept to test it against)."""
    state = rng.state
    i = len(items) - 1
    while i > 0:
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        z ^= z >> 31
        j = ((z & 0xFFFFFFFF) * (i + 1)) >> 32
        items[i], items[j] = items[j], items[i]
        i -= 1
        if i > 0:
            j = ((z >> 32) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1
    rng.state = state
