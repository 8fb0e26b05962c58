"""Live changes of games for watchers, one Redis reader per watched game per process.

Each watched game gets one channel: a task that blocks on the game's Redis Stream (written
by the same atomic script that persisted each move, so nothing is announced before it is
stored), applies each logged move to its copy of the state with the engine, and hands the
resulting state and events to every local subscriber. Subscribers project them for their
own seat. When the stream was trimmed past the channel's version the channel reloads the
stored state and sends a snapshot instead.

Each change carries the log's chain head at its version. The channel extends the chain
itself from the entry bytes (:func:`service.chain.link`, one sha256), so the stream holds
no copy of the head (it would cost every game up to a stream's length of 64-byte fields)
and entries written before the chain existed need no second path.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from service import chain, records
from service.errors import shutting_down
from service.store import RedisStore
from service.tables import Table, load_table

BLOCK_MS = 2_000


@dataclass(frozen=True)
class Change:
    version: int
    events: list[Any]
    state: Any
    snapshot: bool
    head: str


@dataclass
class _Channel:
    table: Table
    version: int
    state: Any
    head: str
    subscribers: set[asyncio.Queue[Change | None]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None


class Subscription:
    """Changes after ``version``; ``state`` and ``head`` are the channel's at that version.

    Both are taken in the same step that registers the subscriber, so nothing published
    after ``version`` can be missed, whatever version the subscriber loaded itself. When the
    referee shuts down the subscription raises UNAVAILABLE: the client resumes elsewhere
    from the last version it saw.
    """

    def __init__(
        self, queue: asyncio.Queue[Change | None], version: int, state: Any, head: str
    ) -> None:
        self._queue = queue
        self.version = version
        self.state = state
        self.head = head

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
        self._channels: dict[str, _Channel] = {}
        self._closed = False

    @contextlib.asynccontextmanager
    async def subscribe(self, table: Table) -> AsyncIterator[Subscription]:
        if self._closed:
            raise shutting_down()
        channel = self._channels.get(table.game_id)
        if channel is None:
            channel = _Channel(table, table.version, table.state, table.head)
            self._channels[table.game_id] = channel
            channel.task = asyncio.create_task(self._run(channel), name=f"feed:{table.game_id}")
        queue: asyncio.Queue[Change | None] = asyncio.Queue()
        channel.subscribers.add(queue)
        try:
            yield Subscription(queue, channel.version, channel.state, channel.head)
        finally:
            channel.subscribers.discard(queue)
            if not channel.subscribers and self._channels.get(table.game_id) is channel:
                del self._channels[table.game_id]
                if channel.task is not None:
                    channel.task.cancel()

    def _publish(self, channel: _Channel, change: Change) -> None:
        channel.version, channel.state, channel.head = change.version, change.state, change.head
        for queue in channel.subscribers:
            queue.put_nowait(change)

    async def _run(self, channel: _Channel) -> None:
        game = channel.table.game
        game_id = channel.table.game_id
        while game.outcome(channel.state) is None:
            try:
                items = await self._store.read_events(game_id, channel.version, block_ms=BLOCK_MS)
            except asyncio.CancelledError:
                raise
            except Exception:  # the store is down: keep subscribers waiting, try again
                await asyncio.sleep(0.5)
                continue
            for version, raw in items:
                if version <= channel.version:
                    continue
                if version != channel.version + 1:
                    table = await load_table(self._store, game_id)
                    snapshot = Change(table.version, [], table.state, True, table.head)
                    self._publish(channel, snapshot)
                    break
                entry = records.log_decoder.decode(raw)
                move = channel.table.decode_move(entry.move)
                state, events = game.apply(channel.state, entry.seat, move)
                head = chain.link(channel.head, raw)
                self._publish(channel, Change(version, events, state, False, head))

    @property
    def watchers(self) -> int:
        """Open subscriptions in this process (one per WatchGame stream)."""
        return sum(len(channel.subscribers) for channel in self._channels.values())

    async def aclose(self) -> None:
        """End every subscription with UNAVAILABLE and stop the readers (shutdown)."""
        self._closed = True
        for channel in list(self._channels.values()):
            for queue in channel.subscribers:
                queue.put_nowait(None)
            if channel.task is not None:
                channel.task.cancel()
        self._channels.clear()
