"""Whether a seat is at the table: a lease per open Play or WatchGame stream of its token.

Each stream holding a seat's token keeps one lease in the game's presence hash
(``game:{<id>}:presence``, field ``<seat>:<nonce>``, value its expiry in Unix ms), set when
the stream opens, renewed every third of :data:`~service.storage.store.PRESENCE_LEASE_MS` while
the stream lives and dropped when it ends; a crashed replica's leases lapse by themselves,
and the hash expires with its newest lease. The hash is read in the same round trip as the
game (:meth:`RedisStore.load_with_presence`), so a view's ``present`` costs nothing extra.

The renewals are one process-wide :class:`_Renewer` per store, not a task per stream: every
third of the lease it renews all the leases this process holds in pipelines of
:data:`RENEW_BATCH` (:meth:`RedisStore.hold_presences`), so 8,000 seated streams cost a few
round trips every 5 s instead of 1,600 calls a second, one timer and no task per stream,
and Redis connections that do not grow with the streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import weakref
from collections.abc import AsyncIterator
from typing import Final

import structlog

from service.storage.store import PRESENCE_LEASE_MS, RedisStore

log = structlog.get_logger("referee.presence")

# Leases renewed per pipeline (each two commands): a bounded request, however many streams.
RENEW_BATCH: Final = 1_000


def _expiry() -> int:
    return int(time.time() * 1000) + PRESENCE_LEASE_MS


class _Renewer:
    """Renews every lease of this process on one store, while there are any."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self.leases: dict[str, str] = {}  # lease -> game id
        self._task: asyncio.Task[None] | None = None
        # Held while a round of renewals is on its way, so a lease dropped meanwhile is
        # dropped after the round (a renewal landing after the drop would revive it).
        self.renewing = asyncio.Lock()

    def add(self, game_id: str, lease: str) -> None:
        self.leases[lease] = game_id
        task = self._task
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._task = asyncio.create_task(self._run(), name="presence-renewer")

    def remove(self, lease: str) -> None:
        """Renew ``lease`` no more; the last one stops the timer (a round in flight is left
        to finish: cancelled, its writes could still land after the lease's drop)."""
        self.leases.pop(lease, None)
        if not self.leases and self._task is not None and not self.renewing.locked():
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while self.leases:
            await asyncio.sleep(PRESENCE_LEASE_MS / 3000)
            async with self.renewing:
                await self._renew([(game_id, lease) for lease, game_id in self.leases.items()])

    async def _renew(self, held: list[tuple[str, str]]) -> None:
        expiry = _expiry()
        for start in range(0, len(held), RENEW_BATCH):
            try:
                await self._store.hold_presences(held[start : start + RENEW_BATCH], expiry)
            except Exception:  # the next round, or the leases lapse: presence is advisory
                log.warning("could not renew presence leases", leases=len(held))


_renewers: weakref.WeakKeyDictionary[RedisStore, _Renewer] = weakref.WeakKeyDictionary()


def _renewer(store: RedisStore) -> _Renewer:
    renewer = _renewers.get(store)
    if renewer is None:
        renewer = _renewers[store] = _Renewer(store)
    return renewer


@contextlib.asynccontextmanager
async def holding(store: RedisStore, game_id: str, seat: int) -> AsyncIterator[None]:
    """``seat`` is present in ``game_id`` while the block runs."""
    lease = f"{seat}:{secrets.token_hex(6)}"
    await store.hold_presence(game_id, lease, _expiry())
    renewer = _renewer(store)
    renewer.add(game_id, lease)
    try:
        yield
    finally:
        renewer.remove(lease)
        async with renewer.renewing:  # a round in flight may still name the lease: after it
            pass
        with contextlib.suppress(Exception):  # else it lapses
            await store.drop_presence(game_id, lease)
