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


class LeasedShards:
    """Sharded sorted sets of members due at a time, claimed under a lease (see the
    module), on one Redis (or Cluster) client, which the caller owns: the deadline index's
    and the games to rate's (service.storage.pending_ratings). ``name`` is the sets' key
    (``{prefix}<name>:{<n>}``); subclasses say what a member means."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        name: str,
        *,
        key_prefix: str = "",
        shards: int = SHARDS,
        batcher: Batcher | None = None,
    ) -> None:
        if shards <= 0:
            raise ValueError("shards must be positive")
        self._client = client
        self._name = name
        # Where an add's ZADD goes out with the process's other commands (the store's
        # group commit, service.storage.batching); None: alone.
        self._batcher = batcher
        self._prefix = key_prefix
        self.shards = shards
        # Told the name and duration of every call (metrics); None: nobody.
        self.on_call: Callable[[str, float], None] | None = None
        self._claim_text = _script_text("deadline_claim.lua")

    def key(self, shard: int) -> str:
        return f"{self._prefix}{self._name}:{{{shard}}}"

    def key_of(self, game_id: str) -> str:
        return self.key(shard_of(game_id, self.shards))

    async def _add(self, game_id: str, name: str, due_ms: int) -> None:
        """Add ``name`` in ``game_id``'s shard, due at ``due_ms``; a member already there
        keeps its score (it may be leased)."""
        key = self.key_of(game_id)
        if self._batcher is not None:
            await self._batcher.command("ZADD", key, "NX", due_ms, name)
            return
        await self._client.zadd(key, {name: due_ms}, nx=True)

    async def _claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[tuple[str, int]]:
        """Lease up to ``per_shard`` due members of every shard, in one pipeline: each
        member with its shard."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.execute_command(
                "EVAL", self._claim_text, 1, self.key(shard), now_ms, lease_ms, per_shard
            )
        replies = await pipe.execute()
        return [
            (as_bytes(raw).decode(), shard) for shard, reply in enumerate(replies) for raw in reply
        ]

    async def _count(self) -> int:
        """Members in all shards (tests and metrics)."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.zcard(self.key(shard))
        return sum(int(count) for count in await pipe.execute())


class DeadlineIndex(LeasedShards):
    """The deadline index (see the module)."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        *,
        key_prefix: str = "",
        shards: int = SHARDS,
        batcher: Batcher | None = None,
    ) -> None:
        super().__init__(client, "deadlines", key_prefix=key_prefix, shards=shards, batcher=batcher)

    @_outage
    async def schedule(self, game_id: str, version: int, host_version: int, due_ms: int) -> None:
        """Add the member of ``game_id`` at ``version`` / ``host_version``, due at
        ``due_ms``; a member already there keeps its score (it may be leased)."""
        await self._add(game_id, member(game_id, version, host_version), due_ms)

    @_outage
    async def claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[Due]:
        """Lease up to ``per_shard`` due members of every shard, in one pipeline."""
        return [parse(raw, shard) for raw, shard in await self._claim(now_ms, lease_ms, per_shard)]

    @_outage
    async def drop(self, due: Due) -> None:
        await self._client.zrem(self.key(due.shard), due.member)

    @_outage
    async def pending(self) -> int:
        """Members in all shards (tests and metrics)."""
        return await self._count()

    @_outage
    async def score(self, game_id: str, version: int, host_version: int) -> int | None:
        """The deadline of one member, None when it is not there (tests)."""
        found = await self._client.zscore(
            self.key_of(game_id), member(game_id, version, host_version)
        )
        return None if found is None else int(found)


def _script_text(name: str) -> str:
    return (resources.files("service.storage") / "lua" / name).read_text(encoding="utf-8")
