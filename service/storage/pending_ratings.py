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

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Final

from service.storage.batching import Batcher
from service.storage.deadlines import shard_of
from service.storage.redis_kit import Client, Outage, as_bytes

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


class PendingRatings:
    """The sharded sorted sets on one Redis (or Cluster) client, which the caller owns."""

    def __init__(
        self,
        client: Client,
        *,
        key_prefix: str = "",
        shards: int = SHARDS,
        batcher: Batcher | None = None,
    ) -> None:
        if shards <= 0:
            raise ValueError("shards must be positive")
        self._client = client
        # Where a finishing move's ZADD goes out with the process's other commands (the
        # store's group commit, service.storage.batching); None: alone.
        self._batcher = batcher
        self._prefix = key_prefix
        self.shards = shards
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted
        self._claim_text = (
            resources.files("service.storage") / "lua" / "deadline_claim.lua"
        ).read_text(encoding="utf-8")

    def key(self, shard: int) -> str:
        return f"{self._prefix}rating-pending:{{{shard}}}"

    def _key_of(self, game_id: str) -> str:
        return self.key(shard_of(game_id, self.shards))

    @_outage
    async def add(self, game_id: str, version: int, due_ms: int) -> None:
        """Add the member of ``game_id`` finished at ``version``, due at ``due_ms``; a
        member already there keeps its score (it may be leased)."""
        key, name = self._key_of(game_id), member(game_id, version)
        if self._batcher is not None:
            await self._batcher.command("ZADD", key, "NX", due_ms, name)
            return
        await self._client.zadd(key, {name: due_ms}, nx=True)

    @_outage
    async def claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[Pending]:
        """Lease up to ``per_shard`` due members of every shard, in one pipeline."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.execute_command(
                "EVAL", self._claim_text, 1, self.key(shard), now_ms, lease_ms, per_shard
            )
        replies = await pipe.execute()
        return [
            parse(as_bytes(raw).decode(), shard)
            for shard, reply in enumerate(replies)
            for raw in reply
        ]

    @_outage
    async def drop(self, game_id: str, version: int) -> None:
        """Remove the member of ``game_id`` finished at ``version`` (none: nothing to do)."""
        await self._client.zrem(self._key_of(game_id), member(game_id, version))

    @_outage
    async def waiting(self) -> int:
        """Members in all shards (tests and metrics)."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.zcard(self.key(shard))
        return sum(int(count) for count in await pipe.execute())
