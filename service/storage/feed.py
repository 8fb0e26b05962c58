"""Live changes of games for watchers: one reader per process, one channel per watched game.

Each watched game gets one channel, followed by the process's one
:class:`~service.storage.watch_reader.WatchReader`, which reads the streams of every watched game
on a fixed few Redis connections (the stream is written by the same atomic script that
persisted each move, so nothing is announced before it is stored). The channel applies
each logged move to its copy of the state with the engine and hands the resulting state
and events to every local subscriber. Subscribers project them for their own seat. When
the stream was trimmed past the channel's version the channel reloads the stored state
(in a task of its own, so the reader goes on) and sends a snapshot instead.

A table's hosting record (seats, names, status) changes without a new version: the store
announces it on the same stream (``host.lua``, entry ``<version>-<host version>``), and the
channel reloads the game and publishes a snapshot carrying the new :class:`Table` (a
table aborted so ends every watch, as a finished game does). The channel reads after its
version and host version, so each change is read once.

Presence (which seats have a live stream, service.storage.presence) changes without a version or
a host change, and in any process, or with none (a crashed replica's lease lapses): every
:data:`PRESENCE_REFRESH_SECONDS` the feed reads the presence hash of each watched lobby
table, and a channel whose present seats differ from its table's publishes a snapshot at
the same version carrying them. So a seat's first stream opening, its last closing or its
lease lapsing reaches every open stream within that time, coalesced to at most one push
per table per interval, for one HGETALL per watched lobby table per interval in each
process -- all of them in pipelines of :data:`PRESENCE_BATCH` from one task of the feed
(not a task and a round trip per table: 2,000 tables cost two round trips a second, and
no burst of concurrent reads that grows the Redis connection pool).

Each change carries the log's chain head at its version. The channel extends the chain
itself from the entry bytes (:func:`service.domain.chain.link`, one sha256), so the stream holds
no copy of the head (it would cost every game up to a stream's length of 64-byte fields)
and entries written before the chain existed need no second path.

A subscriber's queue holds at most :data:`QUEUE_LIMIT` changes: one that falls further
behind has its queued changes replaced by one snapshot of the newest version, so a slow
watcher costs bounded memory and still misses nothing (the snapshot is at a version at
least that of every change it replaces).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import structlog

from service.domain import chain, clocks, hosting, records
from service.errors import Unavailable, shutting_down
from service.storage.store import HOST_CHANGE, Position, RedisStore
from service.storage.tables import Table, clock_after, load_table
from service.storage.watch_reader import WatchReader

QUEUE_LIMIT = 256
RETRY_SECONDS = 0.5
# How often a watched lobby table's presence is read (and a change pushed, at most once).
PRESENCE_REFRESH_SECONDS = 1.0
# Presence hashes read per pipeline (one round trip per node each).
PRESENCE_BATCH = 1_000
log = structlog.get_logger("referee.feed")


@dataclass(frozen=True)
class Change:
    version: int
    events: list[Any]
    state: Any
    snapshot: bool
    head: str
    # The game as loaded with a new hosting record (None: the record is unchanged).
    table: Table | None = None
    # The turn clocks at ``version`` as the commit stored them (None: the table has none).
    clock: bytes | None = None
    # Each viewer's update of this change, built by its first subscriber and shared with
    # every other subscriber of that viewer (service.app.watching): all of a table's spectators
    # get one projection. Keyed by what the projection depends on beyond the change.
    views: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(eq=False)
class _Channel:
    """One watched game in this process: the reader's :class:`Follower` for it."""

    feed: Feed
    table: Table
    version: int
    state: Any
    head: str
    clock: bytes | None = None
    subscribers: set[asyncio.Queue[Change | None]] = field(default_factory=set)
    catching_up: asyncio.Task[None] | None = None
    presence: asyncio.Task[None] | None = None

    @property
    def over(self) -> bool:
        aborted = self.table.hosting.status == records.TABLE_ABORTED
        return aborted or self.table.game.outcome(self.state) is not None

    def position(self) -> Position | None:
        if self.catching_up is not None or self.over:
            return None
        return (self.version, self.table.host_version)

    def deliver(self, items: list[tuple[int, bytes]]) -> None:
        self.feed._take(self, items)


def _replace_with_snapshot(
    queue: asyncio.Queue[Change | None], change: Change, table: Table
) -> None:
    """The queue's changes replaced by one snapshot, carrying the channel's ``table`` (a
    host change among the dropped ones is not lost)."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(
        Change(change.version, [], change.state, True, change.head, table, change.clock)
    )


def _clock_after(channel: _Channel, state: Any, entry: records.LogEntry) -> bytes | None:
    """The clocks after the move of ``entry`` (which led to ``state``), as its commit
    computed and stored them: the same pure step (service.storage.tables.clock_after) from the
    clocks before, at the instant the entry records, so no stream entry carries them."""
    before = dataclasses.replace(
        channel.table, version=channel.version, state=channel.state, clock=channel.clock
    )
    by = clocks.move_by(entry.client_move_id)
    clocked = clock_after(before, state, entry.seat, by, round(entry.at * 1000), 0)
    return channel.clock if clocked.state is None else clocks.encode(clocked.state)


class Subscription:
    """Changes after ``version``; ``state`` and ``head`` are the channel's at that version.

    Both are taken in the same step that registers the subscriber, so nothing published
    after ``version`` can be missed, whatever version the subscriber loaded itself. When the
    referee shuts down the subscription raises UNAVAILABLE: the client resumes elsewhere
    from the last version it saw.
    """

    def __init__(
        self,
        queue: asyncio.Queue[Change | None],
        version: int,
        state: Any,
        head: str,
        table: Table | None = None,
        clock: bytes | None = None,
    ) -> None:
        self._queue = queue
        self.version = version
        self.state = state
        self.head = head
        self.table = table  # the channel's game, with the newest hosting record it has
        self.clock = clock  # the turn clocks at ``version``

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Change:
        change = await self._queue.get()
        if change is None:
            raise shutting_down()
        return change


class Feed:
    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._reader = WatchReader(store)
        self._channels: dict[str, _Channel] = {}
        self._present: dict[str, _Channel] = {}  # the channels whose presence is followed
        self._presence: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def store(self) -> RedisStore:
        """The store whose streams the feed reads (and where its watchers' presence is)."""
        return self._store

    @contextlib.asynccontextmanager
    async def subscribe(self, table: Table) -> AsyncIterator[Subscription]:
        if self._closed:
            raise shutting_down()
        channel = self._channels.get(table.game_id)
        if channel is None:
            channel = _Channel(self, table, table.version, table.state, table.head, table.clock)
            self._channels[table.game_id] = channel
            self._reader.follow(table.game_id, channel)
            self._track_presence(channel)
        queue: asyncio.Queue[Change | None] = asyncio.Queue()
        channel.subscribers.add(queue)
        try:
            yield Subscription(
                queue, channel.version, channel.state, channel.head, channel.table, channel.clock
            )
        finally:
            channel.subscribers.discard(queue)
            if not channel.subscribers and self._channels.get(table.game_id) is channel:
                del self._channels[table.game_id]
                self._reader.unfollow(table.game_id)
                self._untrack_presence(channel)
                _stop(channel)

    def _publish(self, channel: _Channel, change: Change) -> None:
        channel.version, channel.state, channel.head = change.version, change.state, change.head
        channel.clock = change.clock
        if change.table is not None:
            channel.table = change.table
            self._track_presence(channel)  # a table joined by code shows presence from then
        for queue in channel.subscribers:
            if queue.qsize() >= QUEUE_LIMIT:  # far behind: one snapshot instead
                _replace_with_snapshot(queue, change, channel.table)
            else:
                queue.put_nowait(change)

    def _take(self, channel: _Channel, items: list[tuple[int, bytes]]) -> None:
        """Apply and publish the entries the reader got for ``channel``, oldest first."""
        game = channel.table.game
        for version, raw in items:
            if channel.over or channel.catching_up is not None:
                return
            if raw == HOST_CHANGE:  # the hosting record changed: reload, send a snapshot
                channel.catching_up = asyncio.create_task(
                    self._catch_up(channel), name=f"feed-host:{channel.table.game_id}"
                )
                return
            if version <= channel.version:
                continue
            if version != channel.version + 1:  # trimmed past: reload, send a snapshot
                channel.catching_up = asyncio.create_task(
                    self._catch_up(channel), name=f"feed-snapshot:{channel.table.game_id}"
                )
                return
            entry = records.log_decoder.decode(raw)
            move = channel.table.decode_move(entry.move)
            state, events = game.apply(channel.state, entry.seat, move)
            head = chain.link(channel.head, raw)
            clock = _clock_after(channel, state, entry)
            self._publish(channel, Change(version, events, state, False, head, clock=clock))
        if channel.over:
            self._reader.unfollow(channel.table.game_id)

    async def _catch_up(self, channel: _Channel) -> None:
        game_id = channel.table.game_id
        table = await self._load_until_closed(game_id)
        if table is None:
            return  # the feed closed
        hosted = table.host_version != channel.table.host_version
        if table.version > channel.version or hosted:
            change = Change(table.version, [], table.state, True, table.head, table, table.clock)
            self._publish(channel, change)
        channel.catching_up = None
        if channel.over:
            self._reader.unfollow(game_id)
        else:
            self._reader.nudge(game_id)

    async def _load_until_closed(self, game_id: str) -> Table | None:
        """The stored game, tried again while the store is down; None once the feed is
        closed. Checked as well as cancelled: a cancellation that lands while a Redis
        command is sent can be lost (service.process.stopping), and the retries would then
        go on after the shutdown, for as long as the store stays away."""
        while not self._closed:
            try:
                return await load_table(self._store, game_id)
            except Unavailable:  # the store is down: keep subscribers waiting, try again
                await asyncio.sleep(RETRY_SECONDS)
        return None

    def _track_presence(self, channel: _Channel) -> None:
        """Follow the channel's presence from now on, if its table shows it."""
        game_id = channel.table.game_id
        if game_id in self._present or not hosting.tracks_presence(channel.table.hosting):
            return
        self._present[game_id] = channel
        if self._presence is None or self._presence.done():
            self._presence = asyncio.create_task(self._follow_presence(), name="feed-presence")
        channel.presence = self._presence

    def _untrack_presence(self, channel: _Channel) -> None:
        game_id = channel.table.game_id
        if self._present.get(game_id) is channel:
            del self._present[game_id]
        channel.presence = None
        if not self._present and self._presence is not None:
            self._presence.cancel()  # no lobby table watched: no timer left behind
            self._presence = None

    async def _follow_presence(self) -> None:
        """Push each followed table's presence when it changes (see the module's docstring)."""
        while self._present:
            await asyncio.sleep(PRESENCE_REFRESH_SECONDS)
            for channel in [c for c in self._present.values() if c.over]:
                self._untrack_presence(channel)
            due = [c for c in self._present.values() if c.catching_up is None]
            for start in range(0, len(due), PRESENCE_BATCH):
                batch = due[start : start + PRESENCE_BATCH]
                try:
                    present = await self._store.present_seats_of([c.table.game_id for c in batch])
                except Unavailable:  # presence is advisory: the next round
                    log.warning("could not read presence", games=len(batch))
                    continue
                for channel, seats in zip(batch, present, strict=True):
                    self._refresh_presence(channel, seats)

    def _refresh_presence(self, channel: _Channel, present: frozenset[int]) -> None:
        """Publish ``present`` as a same-version snapshot if it is news to the channel
        (which may have caught up, ended or gone while the read was on its way)."""
        current = self._present.get(channel.table.game_id) is channel
        if not current or channel.over or channel.catching_up is not None:
            return  # a snapshot of a fresh load carries its own presence
        if present != channel.table.present:
            table = dataclasses.replace(channel.table, present=present)
            change = Change(
                channel.version, [], channel.state, True, channel.head, table, channel.clock
            )
            self._publish(channel, change)

    @property
    def watchers(self) -> int:
        """Open subscriptions in this process (one per WatchGame stream)."""
        return sum(len(channel.subscribers) for channel in self._channels.values())

    @property
    def games(self) -> int:
        """Games watched in this process (one channel each, all read by one reader)."""
        return len(self._channels)

    async def aclose(self) -> None:
        """End every subscription with UNAVAILABLE and stop the reader (shutdown)."""
        self._closed = True
        for channel in list(self._channels.values()):
            for queue in channel.subscribers:
                queue.put_nowait(None)
            self._untrack_presence(channel)
            _stop(channel)
        self._channels.clear()
        await self._reader.aclose()


def _stop(channel: _Channel) -> None:
    """Cancel the channel's catch-up (it has no subscribers left, or the feed is closing);
    its presence is the feed's to stop following (:meth:`Feed._untrack_presence`)."""
    if channel.catching_up is not None:
        channel.catching_up.cancel()
