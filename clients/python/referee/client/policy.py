"""How hard the clients try again: after a version conflict, and after a dropped watch."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from referee.client.errors import RefereeError, Unavailable


@dataclass(frozen=True)
class Backoff:
    """Exponential delays: ``initial * multiplier**n`` seconds, at most ``maximum``.

    With ``jitter`` each delay is drawn uniformly from its upper half, so clients that
    collided once do not collide again in lockstep.
    """

    initial: float = 0.05
    multiplier: float = 2.0
    maximum: float = 1.0
    jitter: bool = True

    def delays(self) -> Iterator[float]:
        delay = self.initial
        while True:
            yield random.uniform(delay / 2, delay) if self.jitter else delay
            delay = min(self.maximum, delay * self.multiplier)


@dataclass(frozen=True)
class ConflictRetry:
    """Resubmit a move refused with ABORTED up to ``attempts`` more times.

    Before each resubmission the seat re-reads the game (see ``Seat.submit``).
    """

    attempts: int = 3
    backoff: Backoff = Backoff(initial=0.02, maximum=0.25)

    @classmethod
    def of(cls, retry: int | ConflictRetry) -> ConflictRetry:
        """A policy from ``submit(retry_on_conflict=...)``: a count or a policy."""
        if isinstance(retry, ConflictRetry):
            return retry
        if retry < 0:
            raise ValueError("retry_on_conflict must be at least 0")
        return cls(attempts=retry)


@dataclass(frozen=True)
class Resume:
    """Reconnect a dropped watch stream up to ``attempts`` times in a row.

    The count starts again after every message received, so a long watch survives any
    number of separate drops but gives up on a referee that stays away.
    """

    attempts: int = 6
    backoff: Backoff = Backoff(initial=0.1, maximum=2.0)


NO_RESUME = Resume(attempts=0)


def is_transport_failure(error: RefereeError) -> bool:
    """Whether a watch should reconnect after ``error``: the referee went away or was busy.

    UNAVAILABLE is what a cut connection, a referee shutting down (it ends watch streams so)
    and a referee without its store all give; every other status is an answer, not a drop.
    """
    return isinstance(error, Unavailable)
