"""Taking over tournaments whose director is gone, from every referee process.

A director holds its tournament's lease and, with each renewal, moves the tournament's due
time in the store's running index to the lease's end (:mod:`.director`). A process that
died (SIGKILL, a lost node) stops renewing: its tournaments fall due. Every referee runs
:class:`Takeovers`, which at start and then every ``every_seconds`` reads the ids due
(:meth:`TournamentStore.lapsed`: a range of one sorted set, never a scan of the keyspace)
and starts directing up to ``per_pass`` of them, as long as this process directs fewer
than its :attr:`TournamentHost.max_directed`. The lease still decides: two processes that
pick the same tournament start a director each, one claims the lease and the other gives
up at once, so exactly one directs, and it plays on from the stored version (a table's game
is recorded by compare-and-set, so no table gets a second game).

What the pass meets besides a lapsed lease it tidies: an id whose record is gone, never
started or finished leaves the index; one whose lease is held after all (a lost move of its
due time) is moved to that lease's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import structlog

from service.errors import TournamentNotFound, Unavailable
from service.tournaments.host import TournamentHost
from service.tournaments.model import Status

log = structlog.get_logger("referee.tournaments")

# A pass reads this many due ids per tournament it may take over: room to skip the ones
# it tidies or already directs.
EXAMINED_PER_TAKEOVER = 4


class Takeovers:
    """The takeover passes of one process over its :class:`TournamentHost`."""

    def __init__(self, host: TournamentHost, *, every_seconds: float, per_pass: int) -> None:
        self.host = host
        self.every_seconds = every_seconds
        self.per_pass = per_pass
        self.task: asyncio.Task[None] | None = None
        self.taken = 0  # tournaments this process took over, for tests and operators
        self._stopping = False

    def start(self) -> None:
        """Run a pass now and then every ``every_seconds`` (0: never)."""
        if self.every_seconds > 0 and self.task is None:
            self.task = asyncio.create_task(self._run(), name="tournament takeovers")

    async def aclose(self) -> None:
        """Stop the passes: by a flag as well as by cancellation, since a cancellation that
        lands while a pass sends a Redis command can be lost (service.process.stopping);
        the loop then ends after that pass instead of taking tournaments over forever."""
        self._stopping = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.take_over()
            except Unavailable as error:  # the store is away: look again next time
                log.warning("takeover pass failed", reason=error.reason)
            except Exception:
                log.exception("takeover pass failed")
            await asyncio.sleep(self.every_seconds)

    async def take_over(self) -> list[str]:
        """One pass: the tournaments this process started directing."""
        most = min(self.per_pass, self.host.room())
        if most <= 0 or self._stopping:
            return []
        now = time.time()
        taken: list[str] = []
        for tournament_id in await self.host.store.lapsed(now, most * EXAMINED_PER_TAKEOVER):
            if len(taken) == most or self._stopping:
                break
            if await self._abandoned(tournament_id, now):
                self.host.direct(tournament_id, standby=False)
                taken.append(tournament_id)
        if taken:
            self.taken += len(taken)
            log.info("taking over", tournaments=taken)
        return taken

    async def _abandoned(self, tournament_id: str, now: float) -> bool:
        """Whether the due tournament runs without a director; tidies the index if not."""
        if self.host.directs(tournament_id):
            return False
        store = self.host.store
        try:
            status = (await store.load(tournament_id)).tournament.status
        except TournamentNotFound:
            status = None
        if status is not Status.RUNNING:
            await store.not_running(tournament_id)
            return False
        left_ms = await store.lease_left_ms(tournament_id)
        if left_ms > 0:
            await store.due(tournament_id, now + left_ms / 1000)
            return False
        return True
