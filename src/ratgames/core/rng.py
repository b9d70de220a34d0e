"""A small seeded random number generator whose stream never changes.

Python's :mod:`random` does not promise the same sequence across versions, so the engine uses this
generator (SplitMix64) for every shuffle, deal and chance outcome.  It offers the few methods the
engine and bots need, with the same names as :class:`random.Random`.

>>> rng = Rng(7)
>>> [rng.randbelow(10) for _ in range(5)]
[3, 0, 9, 5, 4]
>>> deck = list(range(6)); Rng(7).shuffle(deck); deck
[5, 4, 0, 3, 1, 2]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class Rng:
    """SplitMix64: tiny, fast in pure Python, and stable forever."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def getrandbits(self, k: int) -> int:
        """A random integer of ``k`` bits (``k`` <= 64)."""
        return self.next64() >> (64 - k) if k else 0

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``n`` > 0)."""
        return (self.next64() * n) >> 64

    def randrange(self, n: int) -> int:
        """Same as :meth:`randbelow`, named as in :mod:`random`."""
        return (self.next64() * n) >> 64

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def uniform(self, a: float, b: float) -> float:
        """A float between ``a`` and ``b``."""
        return a + (b - a) * self.random()

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """A normal variate (Box-Muller), for reaction times and the like."""
        import math

        u1 = 1.0 - self.random()
        u2 = self.random()
        return mu + sigma * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return seq[(self.next64() * len(seq)) >> 64]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates; each 64-bit output gives two swaps)."""
        state = self.state
        i = len(items) - 1
        while i > 0:
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            j = ((z & 0xFFFFFFFF) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1
            if i > 0:
                j = ((z >> 32) * (i + 1)) >> 32
                items[i], items[j] = items[j], items[i]
                i -= 1
        self.state = state

    def clone(self) -> Rng:
        """An independent copy that continues the same stream."""
        return Rng(self.state)
