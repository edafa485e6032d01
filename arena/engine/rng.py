"""The deal's random generator: SplitMix64, specified here so a seed means the same deal anywhere.

Python's :mod:`random` is reproducible only as long as its algorithms do not change; the deal
must not depend on that. SplitMix64 (Steele, Lea, Flood 2014) is tiny, well tested and easy to
re-implement in any language: ``state += 0x9E3779B97F4A7C15`` then two xor-shift-multiply
rounds. Shuffles are Fisher–Yates from the end, with unbiased rejection sampling.

>>> DealRandom(42).below(100)
13
"""

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class DealRandom:
    """A deterministic generator seeded with any integer (taken modulo 2**64)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @property
    def state(self) -> int:
        """The generator's state: ``DealRandom(g.state)`` goes on as ``g`` does."""
        return self._state

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, from the last position down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
