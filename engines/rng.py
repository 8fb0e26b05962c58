"""A portable, deterministic random source whose whole state lives in the game state.

Draws are SHA-256 in counter mode over the game's seed, so any language can replay a game
from its revealed seed: ``block(i) = sha256(seed || i as 8-byte big-endian)``, read as a
256-bit big-endian integer; ``below(n)`` rejects blocks >= the largest multiple of n.
Shuffles are Fisher-Yates from the last position down (``j = below(i + 1)``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

import msgspec

T = TypeVar("T")

_SPAN = 1 << 256


class Rng(msgspec.Struct, frozen=True, array_like=True):
    """Seed and the number of blocks drawn so far."""

    seed: bytes
    counter: int = 0

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)`` and the advanced generator."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPAN - (_SPAN % n)
        counter = self.counter
        while True:
            block = hashlib.sha256(self.seed + counter.to_bytes(8, "big")).digest()
            counter += 1
            value = int.from_bytes(block, "big")
            if value < limit:
                return value % n, Rng(self.seed, counter)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A uniformly shuffled copy of ``items`` and the advanced generator."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng


def commitment(seed: bytes) -> str:
    """The public promise made at creation: hex sha256 of the seed."""
    return hashlib.sha256(seed).hexdigest()
