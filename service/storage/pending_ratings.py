"""The games to rate: finished games whose ratings may not have been applied yet, in Redis.

Members live in :data:`SHARDS` sorted sets, ``{prefix}rating-pending:{<n>}``, each its own
hash tag (as the deadline index's: service.storage.deadlines), a game always in the shard
:func:`~service.storage.deadlines.shard_of` its id. A member names the game and the version
of the move that finished it (``<version>:<game id>``), its score when a sweep may take it
up (Unix ms).

The store adds a game's member *before* the commit of the move that finishes it
(:meth:`service.storage.store.RedisStore.commit`), so a process that dies right after that
commit cannot lose it; a commit that then fails leaves a member whose game never reached
its version, which the rater drops once the game has moved past it or is gone. Claiming
(``lua/deadline_claim.lua``, the deadline index's own script) leases the due members of a
shard by moving their score a lease ahead: the rater (service.app.rater) drops a member
once the game is rated (or is not to be rated), and a member of a rater that died comes
back due when its lease runs out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from service.storage.batching import Batcher
from service.storage.deadlines import LeasedShards
from service.storage.redis_kit import Client, Outage

SHARDS: Final = 16
_outage = Outage("the rating queue", "nothing was applied; a retry is safe")


@dataclass(frozen=True, slots=True)
class Pending:
    """One claimed member: the game, and the version of the move that finished it."""

    game_id: str
    version: int
    member: str
    shard: int


def member(game_id: str, version: int) -> str:
    return f"{version}:{game_id}"


def parse(raw: str, shard: int) -> Pending:
    version, game_id = raw.split(":", 1)
    return Pending(game_id, int(version), raw, shard)


class PendingRatings(LeasedShards):
    """The games to rate (see the module)."""

    def __init__(
        self,
        client: Client,
        *,
        key_prefix: str = "",
        shards: int = SHARDS,
        batcher: Batcher | None = None,
    ) -> None:
        super().__init__(
            client, "rating-pending", key_prefix=key_prefix, shards=shards, batcher=batcher
        )

    @_outage
    async def add(self, game_id: str, version: int, due_ms: int) -> None:
        """Add the member of ``game_id`` finished at ``version``, due at ``due_ms``; a
        member already there keeps its score (it may be leased)."""
        await self._add(game_id, member(game_id, version), due_ms)

    @_outage
    async def claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[Pending]:
        """Lease up to ``per_shard`` due members of every shard, in one pipeline."""
        return [parse(raw, shard) for raw, shard in await self._claim(now_ms, lease_ms, per_shard)]

    @_outage
    async def drop(self, game_id: str, version: int) -> None:
        """Remove the member of ``game_id`` finished at ``version`` (none: nothing to do)."""
        await self._client.zrem(self.key_of(game_id), member(game_id, version))

    @_outage
    async def waiting(self) -> int:
        """Members in all shards (tests and metrics)."""
        return await self._count()
