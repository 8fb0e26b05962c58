"""A portable, deterministic random source whose whole state lives in the game state.

Draws are SHA-256 in counter mode over the game's seed, so any language can replay a game
from its revealed seed: ``block(i) = sha256(seed || i as 8-byte big-endian)``, read as a
256-bit big-endian integer; ``below(n)`` rejects blocks >= the largest multiple of n.
Shuffles are Fisher-Yates from the last position down (``j = below(i + 1)``).

A child stream (:meth:`Rng.child`) serves a draw that must not change the game's own
stream, such as a turn clock's default choice: its seed is ``sha256(seed || counter as
8-byte big-endian || len(label) as one byte || label || each key as 8-byte big-endian)``
and its counter starts at 0, so the same state, label and keys always give the same child
and drawing from it never moves the parent.
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

    def child(self, label: str, *keys: int) -> Rng:
        """A separate stream for ``label`` and ``keys`` (non-negative ints) at this point of
        the game; the parent is neither advanced nor changed."""
        name = label.encode()
        if len(name) > 255 or any(key < 0 for key in keys):
            raise ValueError("a child stream has a label of at most 255 bytes and keys >= 0")
        material = self.seed + self.counter.to_bytes(8, "big") + bytes([len(name)]) + name
        material += b"".join(key.to_bytes(8, "big") for key in keys)
        return Rng(hashlib.sha256(material).digest())

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
