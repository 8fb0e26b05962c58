"""Redis storage for games: one hash-tagged key family per game, one Lua script per write.

Every key of a game carries the hash tag ``{<game_id>}``, so a script may touch all of them
atomically and the layout works unchanged on Redis Cluster. Writes are compare-and-set on
an integer version inside a single script (``lua/commit.lua``): the state, the move log,
the watcher stream and the idempotency record change together or not at all, and watchers
are only notified by the same atomic step that persisted the move.

The store treats states, moves and records as opaque bytes; it knows nothing about games.
(It reads one thing in a log entry: its move key, to answer a finished game's late retry,
whose idempotency record is dropped, from the log; see :meth:`RedisStore.move_record`.)
What it does to save memory is its own and invisible to callers: a finished game's state
and log are stored compressed (:func:`service.domain.records.stored_state`,
:func:`service.domain.records.packed_log`; :meth:`RedisStore.load` and :meth:`RedisStore.log` give
them back as committed, byte for byte), and a move key is stored as a 12-byte digest
(:func:`service.domain.records.short_key`).
Its client, script loading, compare-and-set reply and outage mapping come from
:mod:`service.storage.redis_kit`, shared with the tournament store.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final, Self

import structlog
from redis.asyncio import Redis, RedisCluster
from redis.commands.core import AsyncScript
from redis.crc import key_slot
from redis.exceptions import RedisError

from service.domain import records
from service.storage.batching import Batcher, batcher_for
from service.storage.games import GameRecord as GameRecord
from service.storage.pending_ratings import PendingRatings

# CommitResult and CommitStatus are part of the game store's interface (its callers name
# them here); they live in the kit because the tournament store answers alike.
from service.storage.redis_kit import CommitResult as CommitResult
from service.storage.redis_kit import CommitStatus as CommitStatus
from service.storage.redis_kit import (
    Outage,
    as_bytes,
    check_bytes_client,
    commit_result,
    connect,
    script,
)
from service.storage.store_replies import (
    EVENT_FIELD as EVENT_FIELD,
)
from service.storage.store_replies import (
    HOST_CHANGE as HOST_CHANGE,
)
from service.storage.store_replies import (
    HOST_FIELD as HOST_FIELD,
)
from service.storage.store_replies import (
    PRESENCE_LEASE_MS as PRESENCE_LEASE_MS,
)
from service.storage.store_replies import (
    WAKE_FIELD as WAKE_FIELD,
)
from service.storage.store_replies import (
    WAKE_TTL_MS as WAKE_TTL_MS,
)
from service.storage.store_replies import (
    Position as Position,
)
from service.storage.store_replies import (
    Reads as Reads,
)
from service.storage.store_replies import (
    events,
    live_seats,
    lrange_slice,
    replication_timeout,
    stream_id,
    xread_entries,
    xread_streams,
)

log = structlog.get_logger("referee.store")

DEFAULT_FINISHED_TTL_SECONDS: Final = 7 * 24 * 3600
DEFAULT_STREAM_MAXLEN: Final = 1000
DEFAULT_IDLE_TTL_SECONDS: Final = 30 * 24 * 3600
DEFAULT_WAIT_TIMEOUT_MS: Final = 1000
# Entries a finished game's stream keeps (commit.lua): watchers that were behind when the
# game ended read its last moves from there; one further behind gets a snapshot (as after
# any trim). A few, not the whole game: the stream was about a third of a finished game.
FINISHED_STREAM_KEEP: Final = 4
# How long after the move that finished a game a rating sweep may take the game up
# (service.app.rater): the process that committed the move rates it at once; a sweep
# rates it only if that process did not (it died, or lost Redis).
RATING_GRACE_MS: Final = 2000

# A commit whose reply was lost may have been applied: the client's retry with the same
# ``client_move_id`` then gets the first result, so UNAVAILABLE never hides a wrong state.
_outage_is_unavailable: Final = Outage(
    "the game store",
    "nothing new was applied that a retry with the same client_move_id would repeat",
)


@dataclass(frozen=True, slots=True)
class GameKeys:
    """The Redis keys of one game; all share the hash tag ``{<game_id>}``."""

    game: str
    log: str
    events: str
    moves: str

    @property
    def presence(self) -> str:
        """The hash of the seats' presence leases (service.storage.presence)."""
        return f"{self.game}:presence"

    @property
    def all(self) -> tuple[str, str, str, str]:
        """The keys in the order the Lua scripts expect them as KEYS[1..4]."""
        return (self.game, self.log, self.events, self.moves)


class RedisStore:
    """Game persistence on one asyncio Redis (or Redis Cluster) client, which it owns.

    The client must return bytes (``decode_responses=False``). A blocking
    :meth:`read_events` holds a pool connection for up to ``block_ms`` and needs a client
    ``socket_timeout`` above that (redis-py's default, 5 s, is).

    ``wait_replicas`` > 0 makes a commit durable beyond its primary: the script and a
    ``WAIT wait_replicas wait_timeout_ms`` go down one connection to the game's node (WAIT
    counts the replicas that have this connection's writes), and a commit fewer replicas
    confirmed raises ``UNAVAILABLE REPLICATION_TIMEOUT`` instead of answering. Its move is
    stored (watchers may see it); a retry with the same move id is a DUPLICATE, waits again,
    and answers with the first result once it is replicated.
    """

    def __init__(
        self,
        client: Redis | RedisCluster,
        *,
        finished_ttl_seconds: int = DEFAULT_FINISHED_TTL_SECONDS,
        stream_maxlen: int = DEFAULT_STREAM_MAXLEN,
        key_prefix: str = "",
        idle_ttl_seconds: int = DEFAULT_IDLE_TTL_SECONDS,
        wait_replicas: int = 0,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
    ) -> None:
        check_bytes_client(client, "RedisStore")
        if wait_replicas < 0:
            raise ValueError("wait_replicas must be >= 0 (0: no WAIT)")
        if wait_replicas and wait_timeout_ms <= 0:
            raise ValueError("wait_timeout_ms must be positive (WAIT 0 would block forever)")
        self._wait_replicas = wait_replicas
        self._wait_timeout_ms = wait_timeout_ms
        if finished_ttl_seconds <= 0:
            raise ValueError("finished_ttl_seconds must be positive")
        if stream_maxlen <= 0:
            raise ValueError("stream_maxlen must be positive")
        if "{" in key_prefix or "}" in key_prefix:
            raise ValueError("key_prefix must not contain braces: they would move the hash tag")
        self._client = client
        if idle_ttl_seconds < 0:
            raise ValueError("idle_ttl_seconds must be >= 0 (0: live games never expire)")
        self._finished_ttl = finished_ttl_seconds
        # Told the name and duration of every store operation (metrics); None: nobody.
        self.on_call: Callable[[str, float], None] | None = None
        self._idle_ttl = idle_ttl_seconds
        self._stream_maxlen = stream_maxlen
        self._prefix = key_prefix
        self._create: AsyncScript = script(client, "create.lua")
        self._commit: AsyncScript = script(client, "commit.lua")
        self._host: AsyncScript = script(client, "host.lua")
        # Commits (the hot write) go out in group-commit pipelines (service.storage.batching).
        self._batcher = batcher_for(client)
        self._move_record: AsyncScript = script(client, "move_record.lua")
        self._presence_read: AsyncScript = script(client, "presence_read.lua")
        self._presence_renew: AsyncScript = script(client, "presence_renew.lua")
        self._pack: AsyncScript = script(client, "pack_log.lua")
        # The games to rate (service.storage.pending_ratings): a finishing move's member is
        # added before its commit.
        self.pending = PendingRatings(client, key_prefix=key_prefix, batcher=self._batcher)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        finished_ttl_seconds: int = DEFAULT_FINISHED_TTL_SECONDS,
        stream_maxlen: int = DEFAULT_STREAM_MAXLEN,
        key_prefix: str = "",
        idle_ttl_seconds: int = DEFAULT_IDLE_TTL_SECONDS,
        cluster: bool = False,
        wait_replicas: int = 0,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
        **client_kwargs: Any,
    ) -> Self:
        """A store with its own client for ``url`` (:func:`service.storage.redis_kit.connect`);
        extra keywords go to the client."""
        client = connect(url, cluster=cluster, **client_kwargs)
        return cls(
            client,
            finished_ttl_seconds=finished_ttl_seconds,
            stream_maxlen=stream_maxlen,
            key_prefix=key_prefix,
            idle_ttl_seconds=idle_ttl_seconds,
            wait_replicas=wait_replicas,
            wait_timeout_ms=wait_timeout_ms,
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def keys(self, game_id: str) -> GameKeys:
        """The keys of ``game_id``. Ids are non-empty and brace-free so the tag is exact."""
        if not game_id or "{" in game_id or "}" in game_id:
            raise ValueError(f"invalid game id {game_id!r}: must be non-empty, without braces")
        base = f"{self._prefix}game:{{{game_id}}}"
        return GameKeys(
            game=base, log=f"{base}:log", events=f"{base}:events", moves=f"{base}:moves"
        )

    @_outage_is_unavailable
    async def create(
        self,
        game_id: str,
        state: bytes,
        meta: bytes,
        *,
        host: bytes | None = None,
        clock: bytes | None = None,
    ) -> bool:
        """Create the game at version 0 (host version 0); False (and nothing written) if
        it exists."""
        created = await self._create(
            keys=self.keys(game_id).all,
            args=[state, meta, self._idle_ttl, host or b"", clock or b""],
        )
        return bool(created)

    @_outage_is_unavailable
    async def load(self, game_id: str) -> GameRecord | None:
        version, state, meta, head, host, host_version, clock = await self._client.hmget(
            self.keys(game_id).game, ["version", "state", "meta", "head", "host", "hv", "clock"]
        )
        if version is None:
            return None
        return GameRecord(
            version=int(version),
            state=records.loaded_state(as_bytes(state)),
            meta=as_bytes(meta),
            head=None if head is None else as_bytes(head).decode(),
            host=None if host is None else as_bytes(host),
            host_version=0 if host_version is None else int(host_version),
            clock=None if clock is None else as_bytes(clock),
        )

    @_outage_is_unavailable
    async def load_with_presence(self, game_id: str) -> tuple[GameRecord | None, frozenset[int]]:
        """:meth:`load`, and the seats with a live presence lease, in one round trip."""
        keys = self.keys(game_id)
        fields = ["version", "state", "meta", "head", "host", "hv", "clock"]
        pipe = self._client.pipeline(transaction=False)
        pipe.hmget(keys.game, fields)
        pipe.hgetall(keys.presence)
        (version, state, meta, head, host, host_version, clock), leases = await pipe.execute()
        if version is None:
            return None, frozenset()
        record = GameRecord(
            version=int(version),
            state=records.loaded_state(as_bytes(state)),
            meta=as_bytes(meta),
            head=None if head is None else as_bytes(head).decode(),
            host=None if host is None else as_bytes(host),
            host_version=0 if host_version is None else int(host_version),
            clock=None if clock is None else as_bytes(clock),
        )
        return record, live_seats(leases)

    @_outage_is_unavailable
    async def stamp(self, game_id: str) -> tuple[int, int, frozenset[int]] | None:
        """The game's version and host version, and its present seats, in one round trip
        (None: no such game): enough to tell whether a copy loaded earlier is current."""
        keys = self.keys(game_id)
        pipe = self._client.pipeline(transaction=False)
        pipe.hmget(keys.game, ["version", "hv"])
        pipe.hgetall(keys.presence)
        (version, host_version), leases = await pipe.execute()
        if version is None:
            return None
        return int(version), 0 if host_version is None else int(host_version), live_seats(leases)

    @_outage_is_unavailable
    async def present_seats(self, game_id: str) -> frozenset[int]:
        """The seats with a live presence lease (one HGETALL; service.storage.feed's refresh)."""
        return live_seats(await self._client.hgetall(self.keys(game_id).presence))

    @_outage_is_unavailable
    async def present_seats_of(self, game_ids: Sequence[str]) -> list[frozenset[int]]:
        """:meth:`present_seats` of each of ``game_ids`` (service.storage.feed's refresh of every
        watched lobby table at once), in one round trip: on a plain Redis one script call
        (the client's cost per command paid once, not per table), on a cluster a pipeline
        of HGETALLs (a script's keys must share a slot)."""
        keys = [self.keys(game_id).presence for game_id in game_ids]
        if self.cluster:
            pipe = self._client.pipeline(transaction=False)
            for key in keys:
                pipe.hgetall(key)
            return [live_seats(leases) for leases in await pipe.execute()]
        replies = await self._presence_read(keys=keys, args=[repr(time.time() * 1000)])
        return [frozenset(int(as_bytes(n).split(b":", 1)[0]) for n in r) for r in replies]

    @_outage_is_unavailable
    async def hold_presences(self, leases: Sequence[tuple[str, str]], expiry_ms: int) -> None:
        """:meth:`hold_presence` of each ``(game_id, lease)`` (service.storage.presence's renewal of
        every lease this process holds), in one round trip: on a plain Redis one script
        call, on a cluster a pipeline (as :meth:`present_seats_of`)."""
        held: dict[str, list[str]] = {}
        for game_id, lease in leases:
            held.setdefault(self.keys(game_id).presence, []).append(lease)
        if self.cluster:  # a script call per hash (one slot each), by its text: a pipeline
            pipe = self._client.pipeline(transaction=False)  # cannot reload a script
            for key, names in held.items():
                text = self._presence_renew.script
                pipe.execute_command("EVAL", text, 1, key, expiry_ms, " ".join(names))
            await pipe.execute()
            return
        names = [" ".join(lease_names) for lease_names in held.values()]
        await self._presence_renew(keys=list(held), args=[expiry_ms, *names])

    @_outage_is_unavailable
    async def hold_presence(self, game_id: str, lease: str, expiry_ms: int) -> None:
        """Set (or renew) one stream's presence lease (``<seat>:<nonce>``) until
        ``expiry_ms``; the hash lives as long as its longest lease (``presence_renew.lua``)."""
        key = self.keys(game_id).presence
        await self._presence_renew(keys=[key], args=[expiry_ms, lease])

    @_outage_is_unavailable
    async def drop_presence(self, game_id: str, lease: str) -> None:
        await self._client.hdel(self.keys(game_id).presence, lease)

    @_outage_is_unavailable
    async def commit(
        self,
        game_id: str,
        *,
        expected_version: int,
        state: bytes,
        log_entry: bytes,
        head: str,
        move_key: str,
        move_record: bytes,
        finished: bool,
        host_version: int = 0,
        clock: bytes | None = None,
        rated: bool = False,
    ) -> CommitResult:
        """Apply one move atomically if ``expected_version`` is current (see ``commit.lua``).

        ``head`` is the log's chain head after ``log_entry`` (:func:`service.domain.chain.link`),
        computed by the caller from the game it decided on: it is stored with the version.

        Order of checks: a known ``move_key`` is a DUPLICATE (nothing written, the original
        record returned); then a missing game is MISSING; then a stale version is CONFLICT.
        On OK the game is at ``expected_version + 1``, the log and the stream hold the entry
        (stream ID ``<version>-0``), and a finished game's keys expire together. A move that
        finishes the game drops its idempotency records (the log answers for them, see
        :meth:`move_record`), trims its stream to its last :data:`FINISHED_STREAM_KEEP`
        entries, and stores its state compressed; its log is packed right after
        (:meth:`_pack_log`). Neither ever changes again.

        ``move_key`` is stored as :func:`service.domain.records.short_key`; a record a game got
        under the text key itself (stored before short keys) is found there too.

        ``host_version`` is the hosting record's version the move was decided on: a changed
        record (a reissued token, say) is a CONFLICT too. ``clock``, when given, is the turn
        clock's state after the move, stored with it.

        A move that finishes a ``rated`` table's game first puts the game among those to
        rate (:attr:`pending`, due :data:`RATING_GRACE_MS` later), so that no crash between
        the commit and the rating can lose it (service.app.rater drops it once done). An
        unrated game costs nothing there, nor does it need the pending set's shard.
        """
        if expected_version < 0:
            raise ValueError("expected_version must be >= 0")
        keys = self.keys(game_id).all
        if finished and rated:  # before the commit: a crash right after it cannot lose it
            due = int(time.time() * 1000) + RATING_GRACE_MS
            await self.pending.add(game_id, expected_version + 1, due)
        args: list[Any] = [
            expected_version,
            records.stored_state(state, finished=finished),
            log_entry,
            records.short_key(move_key),
            move_record,
            "1" if finished else "0",
            self._finished_ttl,
            self._stream_maxlen,
            EVENT_FIELD,
            self._idle_ttl,
            head,
            host_version,
            clock or b"",
            FINISHED_STREAM_KEEP,
            move_key,
        ]
        if not self._wait_replicas:
            result = commit_result(await self._batched(self._commit, keys, args))
        else:
            result, acked = await self._commit_and_wait(keys, args)
            written = result.status in (CommitStatus.OK, CommitStatus.DUPLICATE)
            if written and acked < self._wait_replicas:
                raise replication_timeout(acked, self._wait_replicas, self._wait_timeout_ms)
        if finished and result.status is CommitStatus.OK:
            await self._pack_log(game_id, result.version)
        return result

    @property
    def batcher(self) -> Batcher | None:
        """The store's group commit (service.storage.batching), for other writes on its client."""
        return self._batcher

    async def _pack_log(self, game_id: str, version: int) -> None:
        """Store the log of a game that just finished as one packed element
        (``records.packed_log``, ``pack_log.lua``): 45 % of its bytes in The Gang.

        After the commit, not in it (Lua has no zlib): readers meanwhile read the plain
        log, which holds the same entries, and so does a log this fails to pack. So a
        failure here is logged, not raised: the move is committed and its answer stands."""
        keys = self.keys(game_id)
        try:
            entries = [as_bytes(raw) for raw in await self._client.lrange(keys.log, 0, -1)]
            if len(entries) == version:
                packed = records.packed_log(entries)
                await self._pack(keys=[keys.game, keys.log], args=[version, packed, entries[-1]])
        except RedisError as error:
            log.warning("log_not_packed", game_id=game_id, error=repr(error))

    async def _batched(self, called: AsyncScript, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """``called(keys, args)``, in the next group commit where this client has them."""
        if self._batcher is None:
            return await called(keys=keys, args=args)
        return await self._batcher.script(called, keys, args)

    async def _commit_and_wait(
        self, keys: tuple[str, ...], args: list[Any]
    ) -> tuple[CommitResult, int]:
        """The commit script and a WAIT, pipelined on one connection to the game's node, so
        WAIT counts the replicas that have this very write (or, on a DUPLICATE, everything
        the primary had when it answered, the first write included).

        EVAL rather than EVALSHA: a pipeline cannot reload a script Redis forgot (after a
        restart), and the script's text costs nothing next to a replica's round trip.
        """
        wait = ("WAIT", self._wait_replicas, self._wait_timeout_ms)
        text = self._commit.script
        if isinstance(self._client, RedisCluster):
            node = self._client.get_node_from_key(keys[0])
            cluster_pipe = self._client.pipeline()
            cluster_pipe.execute_command("EVAL", text, len(keys), *keys, *args)
            cluster_pipe.execute_command(*wait, target_nodes=node)
            reply, acked = await cluster_pipe.execute()
            if self._client.get_node_from_key(keys[0]) is not node:
                # The slot moved meanwhile: the WAIT may have counted another node's writes.
                return commit_result(reply), 0
        else:
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.execute_command("EVAL", text, len(keys), *keys, *args)
                pipe.execute_command(*wait)
                reply, acked = await pipe.execute()
        return commit_result(reply), int(acked)

    @_outage_is_unavailable
    async def change_host(
        self,
        game_id: str,
        *,
        expected_version: int,
        expected_host_version: int,
        host: bytes,
        clock: bytes | None = None,
    ) -> CommitResult:
        """Replace the table's hosting record (and its clock state, if given) if the game is
        still at ``expected_version`` and its record at ``expected_host_version`` (see
        ``host.lua``). OK carries the new host version; CONFLICT the game's version."""
        keys = self.keys(game_id)
        reply = await self._host(
            keys=[keys.game, keys.events],
            args=[
                expected_version,
                expected_host_version,
                host,
                clock or b"",
                self._stream_maxlen,
                HOST_FIELD,
            ],
        )
        return commit_result(reply)

    @_outage_is_unavailable
    async def move_record(self, game_id: str, move_key: str) -> bytes | None:
        """The idempotency record of ``move_key`` (None: no move was applied under it).

        A finished game's records were dropped by the move that finished it: its log holds
        the same facts, and the record comes rebuilt from there
        (:func:`service.domain.records.logged_record`), in one script (``move_record.lua``)."""
        keys = self.keys(game_id)
        reply = await self._move_record(
            keys=[keys.moves, keys.log], args=[records.short_key(move_key), move_key]
        )
        kind = as_bytes(reply[0])
        if kind == b"RECORD":
            return as_bytes(reply[1])
        if kind == b"LOG":
            entries = records.log_entries(as_bytes(raw) for raw in reply[1])
            return records.logged_record(entries, move_key)
        return None

    @_outage_is_unavailable
    async def log(self, game_id: str, start: int = 0, stop: int = -1) -> list[bytes]:
        """Move log slice, LRANGE semantics; entry i produced version i + 1.

        A finished game's log is one packed element (:meth:`_pack_log`), whose entries come
        back as committed, byte for byte. Plain reads, not a script, so they run while
        writes are paused (a failover): the slice, then the first element, which tells
        whether the log is packed. Packing is for good, so a plain first element read after
        the slice means the slice was plain; a packed one has the whole log read again."""
        key = self.keys(game_id).log
        pipe = self._client.pipeline(transaction=False)
        pipe.lrange(key, start, stop)
        pipe.lindex(key, 0)
        sliced, first = await pipe.execute()
        if first is None or not as_bytes(first).startswith(records.PACKED):
            return [as_bytes(entry) for entry in sliced]
        whole = await self._client.lrange(key, 0, -1)
        return lrange_slice(
            records.log_entries(as_bytes(element) for element in whole), start, stop
        )

    @_outage_is_unavailable
    async def read_events(
        self, game_id: str, after_version: int, *, block_ms: int | None, count: int = 100
    ) -> list[tuple[int, bytes]]:
        """Up to ``count`` (version, log entry) pairs with version > ``after_version``.

        With ``block_ms`` set and nothing newer, waits up to that long for a commit; None
        returns at once. Entries trimmed from the stream are not returned: compare
        ``after_version`` with :meth:`first_event_version` and fall back to :meth:`log`.
        """
        if after_version < 0:
            raise ValueError("after_version must be >= 0")
        if block_ms is not None and block_ms <= 0:
            raise ValueError("block_ms must be positive or None (0 would block forever)")
        if count <= 0:
            raise ValueError("count must be positive")
        reply = await self._client.xread(
            {self.keys(game_id).events: f"{after_version}-0"}, count=count, block=block_ms
        )
        return events(xread_entries(reply))

    @property
    def client(self) -> Redis | RedisCluster:
        """The Redis client, for an index kept beside the games (service.storage.deadlines)."""
        return self._client

    @property
    def key_prefix(self) -> str:
        return self._prefix

    @property
    def cluster(self) -> bool:
        """Whether the store is on a Redis Cluster (an XREAD then names one slot's keys)."""
        return isinstance(self._client, RedisCluster)

    def slot(self, game_id: str) -> int:
        """The cluster hash slot of every key of ``game_id`` (a plain Redis has one too)."""
        return key_slot(self.keys(game_id).events.encode())

    def _streams(self, after: Mapping[str, Position]) -> tuple[dict[bytes, str], dict[bytes, str]]:
        """The game of each stream key of ``after``, and the XREAD id to read each after."""
        # The events key of each game as keys() spells it, without building all four keys:
        # a reader names thousands of streams per call.
        start, end = f"{self._prefix}game:{{", "}:events"
        keys = {(start + game_id + end).encode(): game_id for game_id in after}
        return keys, {key: stream_id(after[game_id]) for key, game_id in keys.items()}

    def _reads(self, games: Mapping[bytes, str], reply: object) -> Reads:
        return {
            games[key]: events(entries)
            for key, entries in xread_streams(reply)
            if key in games and entries
        }

    @_outage_is_unavailable
    async def events_after(
        self,
        after: Mapping[str, Position],
        *,
        count: int,
        block_ms: int,
        wake: tuple[str, str],
    ) -> tuple[Reads, str | None]:
        """One blocking XREAD over the streams of many games (a plain Redis only).

        Returns up to ``count`` events per game newer than its version in ``after``, as
        soon as any game has some, or after ``block_ms``. ``wake`` is a stream key and the
        last id its reader saw: :meth:`wake` on that key ends the wait at once (a new game
        to follow), and its new last id comes back (None: not woken). The wait holds one
        pool connection, which the client's ``socket_timeout`` must outlast.
        """
        if isinstance(self._client, RedisCluster):
            raise TypeError("a cluster reads each slot apart: use events_after_each")
        if count <= 0 or block_ms <= 0:
            raise ValueError("count and block_ms must be positive")
        games, streams = self._streams(after)
        wake_key, wake_id = wake
        streams[wake_key.encode()] = wake_id
        reply = await self._client.xread(streams, count=count, block=block_ms)  # type: ignore[arg-type]
        woken = None
        for key, entries in xread_streams(reply):
            if key == wake_key.encode() and entries:
                woken = as_bytes(entries[-1][0]).decode()
        return self._reads(games, reply), woken

    @_outage_is_unavailable
    async def events_after_each(
        self, groups: Sequence[Mapping[str, Position]], *, count: int
    ) -> Reads:
        """One non-blocking XREAD per group, all in one pipeline (one round trip per node).

        Under Redis Cluster every game of a group must share a slot (:meth:`slot`): each
        XREAD goes straight to its slot's node.
        """
        if count <= 0:
            raise ValueError("count must be positive")
        pipe = self._client.pipeline(transaction=False)
        keyed: list[dict[bytes, str]] = []
        for after in groups:
            games, streams = self._streams(after)
            if not games:
                continue
            keyed.append(games)
            command: list[Any] = ["XREAD", "COUNT", count, "STREAMS", *streams, *streams.values()]
            if isinstance(self._client, RedisCluster):
                node = self._client.get_node_from_key(next(iter(games)).decode())
                pipe.execute_command(*command, target_nodes=node)
            else:
                pipe.xread(streams, count=count)  # type: ignore[arg-type]
        replies = await pipe.execute() if keyed else []
        reads: Reads = {}
        for games, reply in zip(keyed, replies, strict=True):
            reads.update(self._reads(games, reply))
        return reads

    @_outage_is_unavailable
    async def wake(self, key: str) -> None:
        """End an :meth:`events_after` waiting on the wake stream ``key``."""
        pipe = self._client.pipeline(transaction=False)
        pipe.xadd(key, {WAKE_FIELD: b"1"}, maxlen=1)
        pipe.pexpire(key, WAKE_TTL_MS)
        await pipe.execute()

    def wake_key(self, name: str) -> str:
        """The key of a wake stream named ``name`` (a reader's, unique to its process)."""
        return f"{self._prefix}watch-wake:{name}"

    @_outage_is_unavailable
    async def first_event_version(self, game_id: str) -> int | None:
        """Version of the oldest event still in the stream, None if the stream is empty."""
        entries = await self._client.xrange(self.keys(game_id).events, count=1)
        return events(entries)[0][0] if entries else None

    @_outage_is_unavailable
    async def exists(self, game_id: str) -> bool:
        return bool(await self._client.exists(self.keys(game_id).game))

    @_outage_is_unavailable
    async def delete(self, game_id: str) -> None:
        """Remove every key of the game (tests and administration)."""
        await self._client.delete(*self.keys(game_id).all)

    @_outage_is_unavailable
    async def ping(self) -> float:
        """Round-trip time of a PING, in seconds."""
        started = time.perf_counter()
        await self._client.ping()
        return time.perf_counter() - started

    async def aclose(self) -> None:
        if self._batcher is not None:
            await self._batcher.aclose()
        await self._client.aclose()
