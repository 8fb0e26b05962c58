"""The lobby's listing of public tables in Redis: cheap to poll, paged, Cluster-safe.

One sorted set per game and status (``lobby:{<game>:<status>}:index``, scored by the
table's creation time in ms) and, under the same hash tag, one hash of small summaries
(``lobby:{<game>:<status>}:summary``): a page is one pipeline of a few ZRANGEs and HMGETs,
whatever the number of tables. Only open and live tables are listed: an entry moves when
its table starts and leaves when it finishes or is aborted (service.app.lobby says so at each
change). A table that expired unseen is dropped the first time a page reaches it (one
pipelined EXISTS per page), so nothing stays listed forever.

Page tokens are ``<created ms>.<game id>`` of the last entry shown: newest first, equal
times in reverse game-id order (the sorted set's own order: equal scores sort by member
bytes), so ``(created ms, game id)`` is a total order and a page starts strictly after its
cursor however many tables share the cursor's millisecond: the ones at that millisecond are
read whole and cut at the game id (tables are created at a bounded rate, so a millisecond
holds few), the older ones from an exclusive score bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import msgspec

from service.domain import records
from service.errors import BadRequest
from service.storage.redis_kit import Client, Outage, as_bytes

DEFAULT_PAGE: Final = 50
MAX_PAGE: Final = 200
LISTED_STATUSES: Final = (records.TABLE_OPEN, records.TABLE_LIVE)
_outage: Final = Outage("the lobby listing", "nothing was changed; try again")


class Summary(msgspec.Struct, frozen=True, array_like=True):
    """One listed table as ListGames shows it (``ListedGame``)."""

    game_id: str
    game: str
    status: int
    seats: int
    taken: int
    allow_spectators: bool
    names: tuple[str, ...]
    created_ms: int
    clock: records.ClockSpec | None = None

    @classmethod
    def of(cls, game_id: str, meta: records.GameMeta, host: records.HostRecord) -> Summary:
        """The summary of the table ``game_id`` with ``meta`` and hosting record ``host``."""
        return cls(
            game_id=game_id,
            game=meta.game,
            status=host.status,
            seats=meta.seats,
            taken=sum(1 for hold in host.seats if hold.holder != records.OPEN_SEAT),
            allow_spectators=meta.allow_spectators,
            names=tuple(hold.name for hold in host.seats),
            created_ms=int(meta.created_at * 1000),
            clock=meta.clock if isinstance(meta.clock, records.ClockSpec) else None,
        )


_decode = msgspec.msgpack.Decoder(Summary).decode


def page_size(asked: int) -> int:
    """0 means :data:`DEFAULT_PAGE`; more than :data:`MAX_PAGE` means that."""
    return DEFAULT_PAGE if asked <= 0 else min(asked, MAX_PAGE)


def _cursor(token: str) -> tuple[int, str] | None:
    if not token:
        return None
    score, _, game_id = token.partition(".")
    if not score.isdigit() or not game_id or len(token) > 100:
        raise BadRequest("PAGE_TOKEN_INVALID", "this page_token is not one ListGames gave")
    return int(score), game_id


class Listing:
    """The listing on a bytes Redis client shared with its owner; ``game_key`` names a
    game's hash (its existence says the table has not expired)."""

    def __init__(self, client: Client, game_key: Callable[[str], str], prefix: str = "") -> None:
        self._client = client
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted
        self._game_key = game_key
        self._prefix = prefix

    def keys(self, game: str, status: int) -> tuple[str, str]:
        base = f"{self._prefix}lobby:{{{game}:{status}}}"
        return f"{base}:index", f"{base}:summary"

    @_outage
    async def put(self, summary: Summary) -> None:
        """List ``summary`` under its status (and under no other)."""
        pipe = self._client.pipeline(transaction=False)
        for status in LISTED_STATUSES:
            index, summaries = self.keys(summary.game, status)
            if status == summary.status:
                pipe.zadd(index, {summary.game_id: summary.created_ms})
                pipe.hset(summaries, summary.game_id, records.encode(summary))
            else:
                pipe.zrem(index, summary.game_id)
                pipe.hdel(summaries, summary.game_id)
        await pipe.execute()

    @_outage
    async def remove(self, game: str, game_id: str) -> None:
        pipe = self._client.pipeline(transaction=False)
        for status in LISTED_STATUSES:
            index, summaries = self.keys(game, status)
            pipe.zrem(index, game_id)
            pipe.hdel(summaries, game_id)
        await pipe.execute()

    @_outage
    async def page(
        self, games: Sequence[str], statuses: Sequence[int], size: int, token: str
    ) -> tuple[list[Summary], str]:
        """Up to ``size`` tables of ``games`` in ``statuses``, after ``token``."""
        cursor = _cursor(token)
        sources = [(game, status) for game in games for status in statuses]
        if not sources:
            return [], ""
        found = await self._candidates(sources, size + 1, cursor)
        found.sort(key=lambda item: (item[0], item[1]), reverse=True)
        more = len(found) > size
        found = found[:size]
        shown = await self._alive(await self._summaries(found))
        last = found[-1] if more and found else None
        return shown, f"{last[0]}.{last[1]}" if last else ""

    async def _candidates(
        self, sources: list[tuple[str, int]], count: int, cursor: tuple[int, str] | None
    ) -> list[tuple[int, str, str, int]]:
        """(created ms, game id, game, status) of the newest ``count`` of each source that
        come strictly after ``cursor`` in (created ms, game id) order, newest first."""
        pipe = self._client.pipeline(transaction=False)
        for game, status in sources:
            index = self.keys(game, status)[0]
            if cursor is None:
                pipe.zrevrangebyscore(index, "+inf", "-inf", start=0, num=count, withscores=True)
                continue
            # The cursor's millisecond whole (cut at its game id below), then strictly older.
            pipe.zrevrangebyscore(index, cursor[0], cursor[0], withscores=True)
            pipe.zrevrangebyscore(
                index, f"({cursor[0]}", "-inf", start=0, num=count, withscores=True
            )
        replies: list[Any] = await pipe.execute()
        per_source = 1 if cursor is None else 2
        found = []
        for at, (game, status) in enumerate(sources):
            for reply in replies[at * per_source : (at + 1) * per_source]:
                for member, score in reply:
                    entry = (int(score), as_bytes(member).decode(), game, status)
                    if cursor is None or (entry[0], entry[1]) < cursor:
                        found.append(entry)
        return found

    async def _summaries(self, found: list[tuple[int, str, str, int]]) -> list[Summary]:
        pipe = self._client.pipeline(transaction=False)
        for _, game_id, game, status in found:
            pipe.hget(self.keys(game, status)[1], game_id)
        replies: list[Any] = await pipe.execute()
        return [_decode(as_bytes(raw)) for raw in replies if raw is not None]

    async def _alive(self, summaries: list[Summary]) -> list[Summary]:
        """The summaries whose game still exists; the others are dropped from the listing."""
        if not summaries:
            return []
        pipe = self._client.pipeline(transaction=False)
        for summary in summaries:
            pipe.exists(self._game_key(summary.game_id))
        exists: list[Any] = await pipe.execute()
        gone = [s for s, there in zip(summaries, exists, strict=True) if not there]
        for summary in gone:
            await self.remove(summary.game, summary.game_id)
        return [s for s, there in zip(summaries, exists, strict=True) if there]
