"""Whether a seat is at the table: a lease per open Play or WatchGame stream of its token.

Each stream holding a seat's token keeps one lease in the game's presence hash
(``game:{<id>}:presence``, field ``<seat>:<nonce>``, value its expiry in Unix ms), renewed
every third of :data:`~service.store.PRESENCE_LEASE_MS` while the stream lives and dropped
when it ends; a crashed replica's leases lapse by themselves, and the hash expires with
its newest lease. The hash is read in the same round trip as the game
(:meth:`RedisStore.load_with_presence`), so a view's ``present`` costs nothing extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator

import structlog

from service.store import PRESENCE_LEASE_MS, RedisStore

log = structlog.get_logger("referee.presence")


def _expiry() -> int:
    return int(time.time() * 1000) + PRESENCE_LEASE_MS


async def _renew(store: RedisStore, game_id: str, lease: str) -> None:
    while True:
        await asyncio.sleep(PRESENCE_LEASE_MS / 3000)
        try:
            await store.hold_presence(game_id, lease, _expiry())
        except Exception:  # the next round, or the lease lapses: presence is advisory
            log.warning("could not renew a presence lease", game_id=game_id)


@contextlib.asynccontextmanager
async def holding(store: RedisStore, game_id: str, seat: int) -> AsyncIterator[None]:
    """``seat`` is present in ``game_id`` while the block runs."""
    lease = f"{seat}:{secrets.token_hex(6)}"
    await store.hold_presence(game_id, lease, _expiry())
    renewing = asyncio.create_task(_renew(store, game_id, lease), name=f"presence:{game_id}")
    try:
        yield
    finally:
        renewing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewing
        with contextlib.suppress(Exception):  # else it lapses
            await store.drop_presence(game_id, lease)
