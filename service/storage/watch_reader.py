"""One reader per process for every watched game's stream, on a fixed few connections.

Each followed game sits in one of :data:`LANES` lanes (by its hash slot). A lane is one
task making one Redis call at a time, so the watch feed holds at most ``LANES``
connections however many games it follows:

* On a plain Redis a lane following at most :data:`STREAMS_PER_CALL` games makes one
  blocking XREAD over all their streams (:meth:`RedisStore.events_after`), which returns
  as soon as any of them has a new entry. The call also reads the lane's *wake stream*, a
  key of its own: a newly followed game XADDs to it (once per call) so the lane starts
  again at once with the new game in its call. Unlike cancelling the call (redis-py then
  drops the connection), the wake costs one small write and no reconnection, and it
  cannot be lost: a wake written before the XREAD arrives ends that XREAD at once.
* Under Redis Cluster an XREAD may only name keys of one slot, so a blocking call per
  slot would need a connection per slot. A cluster lane (and a plain lane following more
  games than one call takes) reads instead: one pipeline of non-blocking XREADs, one per
  slot (chunks of at most :data:`STREAMS_PER_CALL`), one round trip per node, then waits
  :data:`POLL_SECONDS` unless something came or a new game joined.

Each read takes at most :data:`COUNT` entries per stream; a game with more gets the rest
on the next call. While the store is down a lane waits :data:`RETRY_SECONDS` and tries
again, keeping every follower as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, Protocol

import structlog

from service.errors import Unavailable
from service.storage.store import Position, Reads, RedisStore

log = structlog.get_logger("referee.watch")

LANES: Final = 16
STREAMS_PER_CALL: Final = 2048
COUNT: Final = 100
BLOCK_MS: Final = 2_000
POLL_SECONDS: Final = 0.1
RETRY_SECONDS: Final = 0.5
# How long a close waits for the lanes: a lane whose cancellation was lost and whose wake
# did not land returns within one BLOCK_MS.
CLOSE_SECONDS: Final = BLOCK_MS / 1000 + 0.5
# How long a close waits for its wakes to be written.
WAKE_SECONDS: Final = 0.5


class Follower(Protocol):
    """A game the reader follows for the feed."""

    def position(self) -> Position | None:
        """The version (and host version) to read after; None: skip it for now (catching
        up or over)."""

    def deliver(self, items: list[tuple[int, bytes]]) -> None:
        """Entries read after :meth:`position`, oldest first (called on the loop)."""


@dataclass
class _Lane:
    wake_key: str
    followers: dict[str, Follower] = field(default_factory=dict)
    joined: asyncio.Event = field(default_factory=asyncio.Event)
    wake_id: str = "0-0"
    blocked: bool = False  # in a blocking call that a wake would end
    woken: bool = False  # a wake for the current call is written or on its way
    task: asyncio.Task[None] | None = None


def _chunks(followers: dict[str, Position], size: int) -> Iterator[dict[str, Position]]:
    items = list(followers.items())
    for start in range(0, len(items), size):
        yield dict(items[start : start + size])


class WatchReader:
    """Reads the streams of every followed game in :data:`LANES` lanes (see module doc)."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._cluster = store.cluster
        token = secrets.token_hex(8)
        self._lanes = [_Lane(store.wake_key(f"{token}:{n}")) for n in range(LANES)]
        self._wakes: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def connections(self) -> int:
        """The most store connections the reader holds at once (one per lane)."""
        return LANES

    def follow(self, game_id: str, follower: Follower) -> None:
        """Read ``game_id``'s stream for ``follower`` from its next call on."""
        lane = self._lanes[self._store.slot(game_id) % LANES]
        lane.followers[game_id] = follower
        if lane.task is None:
            lane.task = asyncio.create_task(self._run(lane), name="watch-reader")
        self.nudge(game_id)

    def nudge(self, game_id: str) -> None:
        """Have ``game_id``'s lane call again soon (it joined, or may be read again)."""
        lane = self._lanes[self._store.slot(game_id) % LANES]
        lane.joined.set()
        if lane.blocked and not lane.woken:
            lane.woken = True
            wake = asyncio.create_task(self._wake(lane.wake_key))
            self._wakes.add(wake)
            wake.add_done_callback(self._wakes.discard)

    def unfollow(self, game_id: str) -> None:
        """Stop reading ``game_id`` (a call in flight may still name it: ignored)."""
        self._lanes[self._store.slot(game_id) % LANES].followers.pop(game_id, None)

    async def _wake(self, key: str) -> None:
        with contextlib.suppress(Unavailable):  # the lane retries on its own
            await self._store.wake(key)

    async def _run(self, lane: _Lane) -> None:
        # Checked as well as cancelled at shutdown: a cancellation that lands inside a Redis
        # read may come back from redis-py as a connection error (an outage to this loop),
        # so the cancel alone cannot be relied on to end the lane.
        while not self._closing:
            lane.joined.clear()
            after = {
                game_id: version
                for game_id, follower in lane.followers.items()
                if (version := follower.position()) is not None
            }
            if not after:
                await lane.joined.wait()
                continue
            try:
                reads = await self._read(lane, after)
            except Unavailable:  # the store is down: keep followers waiting, try again
                await asyncio.sleep(RETRY_SECONDS)
                continue
            except Exception:  # anything else: say so, keep the lane (and its games) going
                log.exception("watch read failed", games=len(after))
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self._deliver(lane, reads)
            if not reads and (self._cluster or len(after) > STREAMS_PER_CALL):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lane.joined.wait(), POLL_SECONDS)

    @staticmethod
    def _deliver(lane: _Lane, reads: Reads) -> None:
        for game_id, items in reads.items():
            follower = lane.followers.get(game_id)
            if follower is None:
                continue
            try:
                follower.deliver(items)
            except Exception:  # one game's bad entry must not stop the lane's other games
                log.exception("watch feed failed; game no longer followed", game_id=game_id)
                lane.followers.pop(game_id, None)

    async def _read(self, lane: _Lane, after: dict[str, Position]) -> Reads:
        if self._cluster:
            slots: dict[int, dict[str, Position]] = {}
            for game_id, version in after.items():
                slots.setdefault(self._store.slot(game_id), {})[game_id] = version
            groups = [c for g in slots.values() for c in _chunks(g, STREAMS_PER_CALL)]
            return await self._store.events_after_each(groups, count=COUNT)
        if len(after) > STREAMS_PER_CALL:
            groups = list(_chunks(after, STREAMS_PER_CALL))
            return await self._store.events_after_each(groups, count=COUNT)
        lane.blocked, lane.woken = True, False
        try:
            reads, woken = await self._store.events_after(
                after, count=COUNT, block_ms=BLOCK_MS, wake=(lane.wake_key, lane.wake_id)
            )
        finally:
            lane.blocked = False
        if woken is not None:
            lane.wake_id = woken
        return reads

    async def aclose(self) -> None:
        """Stop every lane (shutdown).

        Each blocked lane is woken as well as cancelled, so a lane whose cancellation a
        Redis read did not pass on still returns at once instead of after its BLOCK. The
        whole close takes at most :data:`CLOSE_SECONDS`: a lane still running then is
        named in the log and left (it ends by itself at its next turn).
        """
        self._closing = True
        blocked = [lane.wake_key for lane in self._lanes if lane.blocked]
        tasks = [asyncio.ensure_future(self._wake(key)) for key in blocked]
        if tasks:
            await asyncio.wait(tasks, timeout=WAKE_SECONDS)
        tasks += [lane.task for lane in self._lanes if lane.task is not None]
        tasks.extend(self._wakes)
        for task in tasks:
            task.cancel()
        for lane in self._lanes:
            lane.joined.set()  # a lane whose cancellation was lost waits on nothing
        _, late = await asyncio.wait(tasks, timeout=CLOSE_SECONDS) if tasks else ((), ())
        if late:
            log.warning("watch lanes did not stop in time", lanes=len(late))
        for lane in self._lanes:
            lane.task = None
