"""The seeded random generator kept inside every game state (counter-based SplitMix64).

The generator is a pydantic model holding only ``seed`` and ``counter``, so it round-trips
through JSON exactly and a game replays byte for byte from its seed and command log. It is
mutated in place by the ruleset on the working copy of a state; callers never share it.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from pydantic import BaseModel, Field

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _splitmix64(x: int) -> int:
    """One SplitMix64 output for the 64-bit input ``x``."""
    z = (x + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng(BaseModel):
    """Deterministic random numbers: output ``n`` is a pure function of ``(seed, n)``.

    Attributes:
        seed: the game's seed (any integer; reduced to 64 bits).
        counter: how many 64-bit words have been drawn so far.
    """

    seed: int
    counter: int = Field(default=0, ge=0)

    def next_u64(self) -> int:
        """Return the next 64-bit word and advance the counter."""
        base = _splitmix64(self.seed & _MASK)
        value = _splitmix64((base + self.counter * _GAMMA) & _MASK)
        self.counter += 1
        return value

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        :raises ValueError: if ``n < 1``.
        """
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def die(self, sides: int) -> int:
        """Roll one die with faces ``1..sides`` and return the face.

        :raises ValueError: if ``sides < 1``.
        """
        return self.below(sides) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
