"""How hard the clients try again: after a transport failure, after a version conflict,
and after a dropped watch."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import grpc

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


TRANSIENT_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
"""The statuses of a call that may not have reached the referee, or whose answer was lost."""


@dataclass(frozen=True)
class Retry:
    """Send a call again after a transport failure, up to ``attempts`` more times.

    On by default for every read (GetView, ListLegalMoves, ValidateMove, each GetHistory
    page) and for SubmitMove: a read changes nothing, and a move is resent under the id it
    was first sent with, so a move whose answer was lost is answered again (``duplicate``
    set) and never applied twice. Only statuses in ``codes`` are tried again: UNAVAILABLE (a
    cut connection, a referee restarting or without its store, a busy verifier) and
    DEADLINE_EXCEEDED (each try has the client's whole ``timeout``). Every other status is
    an answer and is raised at once; when the tries run out the last failure is raised with
    a note that counts them. A submit's conflict retries (:class:`ConflictRetry`) come on
    top: each of those attempts is itself retried so.
    """

    attempts: int = 5
    backoff: Backoff = Backoff(initial=0.1, maximum=2.0)
    codes: frozenset[grpc.StatusCode] = TRANSIENT_CODES

    def __post_init__(self) -> None:
        if self.attempts < 0:
            raise ValueError("Retry.attempts must be at least 0")

    def retries(self, error: RefereeError) -> bool:
        """Whether ``error`` is worth another try under this policy (attempts aside)."""
        return error.code in self.codes


NO_RETRY = Retry(attempts=0)
"""One try: every failure is raised at once (``retry=NO_RETRY`` on a client or a call)."""


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
