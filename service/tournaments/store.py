"""Tournaments in Redis: one record per tournament, compare-and-set on an integer version.

Keys share the hash tag ``{<tournament_id>}`` (one Redis Cluster slot):
``tournament:{<id>}`` is a hash (``version``, ``record``), ``tournament:{<id>}:events`` a
stream with one entry ``<version>-1`` per write, which watchers block on. The sorted set
``tournaments`` lists every id by the time of its last write, for ListTournaments. It is an
index only: an id joins it before its record is created and moves up after every write,
and ids whose records have expired are pruned (all those older than the longest TTL at
each create, the others when a listing meets them). The sorted set ``tournaments:running``
holds every running tournament's id by the time its director's lease lapses (each renewal
moves it on): a referee that takes over abandoned tournaments reads only the ids due, never
the keyspace (:meth:`TournamentStore.lapsed`). An id joins it before the record says RUNNING
and leaves it after the record says FINISHED; what a crash leaves behind (an id whose
record is gone, not started or finished) is dropped by the next takeover pass that meets
it. Both indexes are single keys, so each lives in one Redis Cluster slot. Each write is one
Lua script that compares the version, stores the record with version + 1 and appends the
stream entry, so a change is persisted before anybody is told of it. As for games, a
finished tournament expires after the finished TTL and any other after the idle TTL.

It is built from the same kit as the game store (:mod:`service.storage.redis_kit`): its scripts are
``service/storage/lua/tournament_*.lua`` and ``lease_*.lua``, its writes answer with the same
compare-and-set result, and Redis failures become the same STORE_UNAVAILABLE / STORE_FULL.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from redis import exceptions as redis_errors
from redis.asyncio import Redis, RedisCluster
from redis.commands.core import AsyncScript

from service.errors import TournamentNotFound, VersionConflict
from service.storage.redis_kit import (
    CommitStatus,
    Outage,
    check_bytes_client,
    commit_result,
    connect,
    script,
)
from service.tournaments.model import Status, Tournament, decode, encode

STREAM_MAXLEN: Final = 100
INDEX: Final = "tournaments"
RUNNING: Final = "tournaments:running"
# A tournament just started is due for takeover this long after its start, as if its
# starter held a director's lease (service.tournaments.director.LEASE_MS).
START_GRACE_SECONDS: Final = 6.0
# A listing looks at this many ids at most (a status filter may skip most of them).
MAX_EXAMINED: Final = 2000
# An indexed id without a record is left alone this long: its create may be under way.
PRUNE_GRACE_SECONDS: Final = 60.0

# A write whose reply was lost may have been applied. Every change is a transition of
# :mod:`service.tournaments.rounds` decided on a fresh load, so a retry finds it done.
_outage_is_unavailable: Final = Outage(
    "the tournament store", "try again: a change whose reply was lost may have been applied"
)


@dataclass(frozen=True)
class Stored:
    version: int
    tournament: Tournament


class Conflict(Exception):
    """The record changed since it was read (compare-and-set lost)."""


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class TournamentStore:
    """Tournament records on one asyncio Redis (or Redis Cluster) client, which it owns."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        *,
        finished_ttl_seconds: int,
        idle_ttl_seconds: int,
        max_retries: int = 32,
    ) -> None:
        check_bytes_client(client, "TournamentStore")
        self._client = client
        self._finished_ttl = finished_ttl_seconds
        self._idle_ttl = idle_ttl_seconds
        self.max_retries = max_retries
        self._create: AsyncScript = script(client, "tournament_create.lua")
        self._commit: AsyncScript = script(client, "tournament_commit.lua")
        self._claim: AsyncScript = script(client, "lease_claim.lua")
        self._release: AsyncScript = script(client, "lease_release.lua")
        self.conflicts = 0  # lost compare-and-sets, for tests and metrics
        # Told the name and duration of every store operation (metrics); None: nobody.
        self.on_call: Callable[[str, float], None] | None = None

    @classmethod
    def from_url(
        cls, url: str, *, cluster: bool, finished_ttl_seconds: int, idle_ttl_seconds: int
    ) -> TournamentStore:
        """A store with its own client for ``url`` (:func:`service.storage.redis_kit.connect`)."""
        return cls(
            connect(url, cluster=cluster),
            finished_ttl_seconds=finished_ttl_seconds,
            idle_ttl_seconds=idle_ttl_seconds,
        )

    @property
    def client(self) -> Redis | RedisCluster:
        """Its Redis client, for what lives beside the records (seat codes); it owns it."""
        return self._client

    @staticmethod
    def keys(tournament_id: str) -> tuple[str, str]:
        if not tournament_id or "{" in tournament_id or "}" in tournament_id:
            raise ValueError(f"invalid tournament id {tournament_id!r}")
        base = f"tournament:{{{tournament_id}}}"
        return base, f"{base}:events"

    def _ttl(self, tournament: Tournament) -> int:
        return self._finished_ttl if tournament.status is Status.FINISHED else self._idle_ttl

    @_outage_is_unavailable
    async def create(self, tournament: Tournament) -> bool:
        """Store a new tournament at version 0; False if the id is taken.

        The id joins the index first: a crash in between leaves an id without a record,
        which :meth:`newest` prunes, never a record that no listing shows.
        """
        if self._finished_ttl and self._idle_ttl:
            expired = time.time() - max(self._finished_ttl, self._idle_ttl) - 60
            await self._client.zremrangebyscore(INDEX, "-inf", expired)
        await self._client.zadd(INDEX, {tournament.tournament_id: time.time()})
        reply = await self._create(
            keys=self.keys(tournament.tournament_id),
            args=[encode(tournament), self._ttl(tournament), STREAM_MAXLEN],
        )
        return bool(reply)

    @_outage_is_unavailable
    async def load(self, tournament_id: str) -> Stored:
        """The stored tournament; :class:`TournamentNotFound` if there is none."""
        version, record = await self._client.hmget(
            self.keys(tournament_id)[0], ["version", "record"]
        )
        if version is None or not isinstance(record, bytes):
            raise TournamentNotFound(tournament_id)
        return Stored(int(version), decode(record))

    @_outage_is_unavailable
    async def write(self, expected_version: int, tournament: Tournament) -> int:
        """Store ``tournament`` if the stored version is ``expected_version`` (see
        ``tournament_commit.lua``); the new version. Raises :class:`Conflict` if it is not,
        :class:`TournamentNotFound` if the tournament is gone."""
        result = commit_result(
            await self._commit(
                keys=self.keys(tournament.tournament_id),
                args=[expected_version, encode(tournament), self._ttl(tournament), STREAM_MAXLEN],
            )
        )
        if result.status is CommitStatus.MISSING:
            raise TournamentNotFound(tournament.tournament_id)
        if result.status is CommitStatus.CONFLICT:
            self.conflicts += 1
            raise Conflict(result.version)
        # Committed: a lost bump of the index only reorders the listing, and a lost removal
        # from the running index is made by the next takeover pass that meets the id.
        with contextlib.suppress(redis_errors.RedisError, OSError):
            await self._client.zadd(INDEX, {tournament.tournament_id: time.time()})
            if tournament.status is Status.FINISHED:
                await self._client.zrem(RUNNING, tournament.tournament_id)
        return result.version

    async def update(
        self, tournament_id: str, change: Callable[[Tournament], Tournament | None]
    ) -> Stored:
        """Load, decide, compare-and-set; on a lost race reload and decide again.

        ``change`` returns the new record or None (nothing to do). Returns what is stored
        after the call: the new record, or the loaded one if ``change`` gave None.
        """
        for _ in range(self.max_retries):
            stored = await self.load(tournament_id)
            changed = change(stored.tournament)
            if changed is None:
                return stored
            starting = stored.tournament.status is not Status.RUNNING and (
                changed.status is Status.RUNNING
            )
            if starting:  # in the running index before the record says so (a crash between)
                await self.due(tournament_id, time.time() + START_GRACE_SECONDS)
            try:
                version = await self.write(stored.version, changed)
            except Conflict:
                continue
            if starting:  # again: a takeover pass may have dropped it, not yet started
                await self.due(tournament_id, time.time() + START_GRACE_SECONDS)
            return Stored(version, changed)
        raise VersionConflict(
            "CONTENTION", "the tournament kept changing under this change; try again"
        )

    @_outage_is_unavailable
    async def newest(self, limit: int, keep: Callable[[Tournament], bool]) -> list[Stored]:
        """Up to ``limit`` tournaments that ``keep`` accepts, the most recently changed first.

        Pages through the index (each page's records read concurrently), looking at no more
        than MAX_EXAMINED ids. An id seen twice (its tournament changed while we paged) is
        listed once. An id without a record is pruned only when its score is older than
        PRUNE_GRACE_SECONDS: a younger one may be a tournament being created right now.
        """
        found: list[Stored] = []
        seen: set[str] = set()
        start, page = 0, max(limit, 32)
        cutoff = time.time() - PRUNE_GRACE_SECONDS
        while len(found) < limit and start < MAX_EXAMINED:
            scored = await self._client.zrevrange(INDEX, start, start + page - 1, withscores=True)
            if not scored:
                break
            start += page
            fresh: list[tuple[str, float]] = []
            for raw, score in cast(list[tuple[bytes, float]], scored):
                if (tid := _text(raw)) not in seen:
                    seen.add(tid)
                    fresh.append((tid, float(score)))
            # Concurrently: the ids may live on any cluster node.
            replies = await asyncio.gather(
                *(self._client.hmget(self.keys(tid)[0], ["version", "record"]) for tid, _ in fresh)
            )
            gone: list[str] = []
            for (tid, score), (version, record) in zip(fresh, replies, strict=True):
                if version is None or not isinstance(record, bytes):
                    if score < cutoff:
                        gone.append(tid)
                    continue
                stored = Stored(int(version), decode(record))
                if keep(stored.tournament):
                    found.append(stored)
                    if len(found) == limit:
                        break
            if gone:
                await self._client.zrem(INDEX, *gone)
                start -= len(gone)
        return found

    @_outage_is_unavailable
    async def wait(self, tournament_id: str, after_version: int, block_ms: int) -> None:
        """Return once a version above ``after_version`` is written, or after ``block_ms``."""
        events = self.keys(tournament_id)[1]
        await self._client.xread({events: f"{after_version}-1"}, count=1, block=block_ms)

    @_outage_is_unavailable
    async def claim(self, tournament_id: str, holder: str, lease_ms: int) -> bool:
        """Take or renew the directing lease of the tournament; True when ``holder`` has it."""
        reply = await self._claim(keys=[self.lease_key(tournament_id)], args=[holder, lease_ms])
        return bool(reply)

    @_outage_is_unavailable
    async def release(self, tournament_id: str, holder: str) -> None:
        """Give the directing lease up if ``holder`` still has it."""
        await self._release(keys=[self.lease_key(tournament_id)], args=[holder])

    @_outage_is_unavailable
    async def lease_left_ms(self, tournament_id: str) -> int:
        """How long the directing lease has left; 0 or less: nobody holds it."""
        return int(await self._client.pttl(self.lease_key(tournament_id)))

    @_outage_is_unavailable
    async def due(self, tournament_id: str, at: float) -> None:
        """In the running index, due for takeover at Unix time ``at`` (when its lease lapses)."""
        await self._client.zadd(RUNNING, {tournament_id: at})

    @_outage_is_unavailable
    async def not_running(self, tournament_id: str) -> None:
        """Out of the running index (finished, gone, or never started)."""
        await self._client.zrem(RUNNING, tournament_id)

    @_outage_is_unavailable
    async def lapsed(self, now: float, count: int) -> list[str]:
        """Up to ``count`` ids of the running index due at ``now``, the longest due first."""
        found = await self._client.zrangebyscore(RUNNING, "-inf", now, start=0, num=count)
        return [_text(raw) for raw in cast(list[bytes], found)]

    @classmethod
    def lease_key(cls, tournament_id: str) -> str:
        return f"{cls.keys(tournament_id)[0]}:director"

    @_outage_is_unavailable
    async def delete(self, tournament_id: str) -> None:
        await self._client.delete(*self.keys(tournament_id), self.lease_key(tournament_id))
        await self._client.zrem(INDEX, tournament_id)
        await self._client.zrem(RUNNING, tournament_id)

    async def aclose(self) -> None:
        await self._client.aclose()
