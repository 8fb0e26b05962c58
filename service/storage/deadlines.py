"""The deadline index: when each clocked game next needs the referee, in Redis.

Members live in :data:`SHARDS` sorted sets, ``{prefix}deadlines:{<n>}``, each its own hash
tag, so under Redis Cluster they spread over slots and each claim is one script on one
node; a game always lands in the shard :func:`shard_of` its id. A member names the game
and the version and host version its deadline was computed for
(``<version>:<host version>:<game id>``), its score the deadline in Unix ms. A commit adds
the member of the state it is about to store *before* the commit (a crash after the commit
cannot lose it; a commit that then fails leaves a stale member), and a newer state adds
its own member instead of moving an older one's score, so nothing is ever overwritten: a
firer that claims a member whose game has moved on simply drops it.

Claiming (``lua/deadline_claim.lua``) leases the due members of a shard by moving their
score a lease ahead; the firer (:mod:`service.app.firer`) drops a member once it has dealt
with it, and a member of a firer that died comes back due when its lease runs out.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Final

from redis.asyncio import Redis, RedisCluster

from service.storage.batching import Batcher
from service.storage.redis_kit import Outage, as_bytes

SHARDS: Final = 16

_outage = Outage("the deadline index", "no move was applied; a retry is safe")


@dataclass(frozen=True, slots=True)
class Due:
    """One claimed member: the game, and the version and host version it was set for."""

    game_id: str
    version: int
    host_version: int
    member: str
    shard: int


def member(game_id: str, version: int, host_version: int) -> str:
    return f"{version}:{host_version}:{game_id}"


def parse(raw: str, shard: int) -> Due:
    version, host_version, game_id = raw.split(":", 2)
    return Due(game_id, int(version), int(host_version), raw, shard)


def shard_of(game_id: str, shards: int = SHARDS) -> int:
    return zlib.crc32(game_id.encode()) % shards


class DeadlineIndex:
    """The sharded sorted sets on one Redis (or Cluster) client, which the caller owns."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        *,
        key_prefix: str = "",
        shards: int = SHARDS,
        batcher: Batcher | None = None,
    ) -> None:
        if shards <= 0:
            raise ValueError("shards must be positive")
        self._client = client
        # Where a move's ZADD goes out with the process's other commands (the store's
        # group commit, service.storage.batching); None: alone.
        self._batcher = batcher
        self._prefix = key_prefix
        self.shards = shards
        # Told the name and duration of every call (metrics); None: nobody.
        self.on_call: Callable[[str, float], None] | None = None
        self._claim_text = _script_text("deadline_claim.lua")

    def key(self, shard: int) -> str:
        return f"{self._prefix}deadlines:{{{shard}}}"

    @_outage
    async def schedule(self, game_id: str, version: int, host_version: int, due_ms: int) -> None:
        """Add the member of ``game_id`` at ``version`` / ``host_version``, due at
        ``due_ms``; a member already there keeps its score (it may be leased)."""
        key, name = self.key(shard_of(game_id, self.shards)), member(game_id, version, host_version)
        if self._batcher is not None:
            await self._batcher.command("ZADD", key, "NX", due_ms, name)
            return
        await self._client.zadd(key, {name: due_ms}, nx=True)

    @_outage
    async def claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[Due]:
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
    async def drop(self, due: Due) -> None:
        await self._client.zrem(self.key(due.shard), due.member)

    @_outage
    async def pending(self) -> int:
        """Members in all shards (tests and metrics)."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.zcard(self.key(shard))
        return sum(int(count) for count in await pipe.execute())

    @_outage
    async def score(self, game_id: str, version: int, host_version: int) -> int | None:
        """The deadline of one member, None when it is not there (tests)."""
        found = await self._client.zscore(
            self.key(shard_of(game_id, self.shards)), member(game_id, version, host_version)
        )
        return None if found is None else int(found)


def _script_text(name: str) -> str:
    return (resources.files("service.storage") / "lua" / name).read_text(encoding="utf-8")
