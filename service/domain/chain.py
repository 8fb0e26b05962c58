"""The hash chain of a game's move log: the tamper-evident audit trail.

The chain starts at the game's seed commitment (``seed_sha256``, published at creation)
and every accepted move extends it with the exact log entry bytes the referee stored::

    head_0 = seed_sha256
    head_v = sha256(bytes.fromhex(head_{v-1}) + log_entry_v).hexdigest()

Every view carries the head at its version. A player who keeps any one view can later
prove which history they played up to it: a history altered, reordered or cut anywhere
before that version no longer chains to the same head (sha256 is collision resistant).
Pure functions only, so the referee, the watch feed and the verifier share them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def link(head: str, entry: bytes) -> str:
    """The head after ``entry``, given the head before it (both hex)."""
    return hashlib.sha256(bytes.fromhex(head) + entry).hexdigest()


def heads(seed_sha256: str, entries: Iterable[bytes]) -> list[str]:
    """Every head from version 0 (the commitment) to the last entry's version."""
    chain = [seed_sha256]
    for entry in entries:
        chain.append(link(chain[-1], entry))
    return chain
