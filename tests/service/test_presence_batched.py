"""Presence at scale (service.storage.presence, service.storage.feed): one renewer per
process renews every lease in pipelines, one feed task reads every watched lobby table's
presence, and a lease dropped while a renewal round is on its way stays dropped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.process.server import Running, running
from service.storage import presence
from service.storage.redis_kit import connect
from service.storage.store import RedisStore
from tests.redis_cluster import redis_cluster
from tests.servers import settings_for
from tests.service.table import auth

WAIT = 10  # seconds: a condition the test waits for, or it fails


@pytest.fixture(params=["plain", "cluster"])
def any_redis(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, bool]]:
    if request.param == "plain":
        yield redis_url, False
        return
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as url:
        yield url, True


@pytest.fixture
async def server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    async with running(settings_for(redis_url, tmp_path)) as handle:
        yield handle


async def _until(condition: Any) -> None:
    async with asyncio.timeout(WAIT):
        while not await condition():
            await asyncio.sleep(0.02)


def _tasks(prefix: str) -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith(prefix)]


async def test_one_renewer_and_one_reader_serve_every_stream(
    server: Running, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_LEASE_MS", 1_500)  # a round every 0.5 s
    store = server.referee.feed.store
    async with (
        grpc.aio.insecure_channel(server.address) as channel,
        Redis.from_url(redis_url) as redis,
    ):
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        request = referee_pb2.CreateGameRequest(game="gang_of_four", seats=4, listed=True)
        tables = [await stub.CreateGame(request) for _ in range(2)]
        streams = [
            stub.WatchGame(
                referee_pb2.WatchGameRequest(game_id=t.game_id),
                metadata=auth(t.seat_tokens[seat].token),
            )
            for t in tables
            for seat in (0, 2)
        ]
        for stream in streams:
            await stream.read()  # its lease is set before its first message
        keys = [store.keys(t.game_id).presence for t in tables]
        first = [await redis.hgetall(key) for key in keys]
        assert [len(leases) for leases in first] == [2, 2]

        async def renewed() -> bool:
            now = [await redis.hgetall(key) for key in keys]
            return all(
                int(now[n].get(lease, 0)) > int(expiry)
                for n, leases in enumerate(first)
                for lease, expiry in leases.items()
            )

        await _until(renewed)
        assert len(_tasks("presence-renewer")) == 1 and not _tasks("presence:")
        followed = {c.presence for c in server.referee.feed._channels.values()}
        assert len(followed) == 1 and None not in followed  # one reader for both tables
        for stream in streams:
            stream.cancel()

        async def dropped() -> bool:
            return not any([await redis.hgetall(key) for key in keys])

        await _until(dropped)
        assert not _tasks("presence-renewer")


class _SlowStore:
    """A store whose renewal round waits for ``gate``: what each call did, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gate = asyncio.Event()
        self.in_round = asyncio.Event()

    async def hold_presence(self, game_id: str, lease: str, expiry_ms: int) -> None:
        self.calls.append("hold")

    async def hold_presences(self, leases: Sequence[tuple[str, str]], expiry_ms: int) -> None:
        self.calls.append("renew")
        self.in_round.set()
        await self.gate.wait()
        self.calls.append("renewed")

    async def drop_presence(self, game_id: str, lease: str) -> None:
        self.calls.append("drop")


async def test_a_lease_dropped_during_a_renewal_round_is_dropped_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_LEASE_MS", 30)
    slow = _SlowStore()
    store = cast(RedisStore, slow)

    async def seated() -> None:
        async with presence.holding(store, "g", 1):
            await slow.in_round.wait()  # the stream ends while its lease is being renewed

    task = asyncio.create_task(seated())
    await slow.in_round.wait()
    for _ in range(20):  # loop turns, no wall time: the stream's end runs as far as it can
        await asyncio.sleep(0)
    slow.gate.set()
    await task
    assert slow.calls == ["hold", "renew", "renewed", "drop"]


async def test_many_leases_renewed_and_read_at_once_match_one_by_one(
    any_redis: tuple[str, bool],
) -> None:
    url, cluster = any_redis
    store = RedisStore(connect(url, cluster=cluster))
    raw = connect(url, cluster=cluster)
    async with store, raw:
        games = [f"batched-{n}" for n in range(40)]
        soon = int(time.time() * 1000) + 60_000
        await store.hold_presences([(g, f"{n % 4}:a") for n, g in enumerate(games)], soon)
        await store.hold_presences([(g, "3:b") for g in games[::2]], soon)
        lapsed = str(int(time.time() * 1000) - 1)  # a crashed replica's, never renewed
        await raw.hset(store.keys(games[1]).presence, "2:lapsed", lapsed)
        batched = await store.present_seats_of(games)
        assert batched == [await store.present_seats(g) for g in games]
        assert batched[:3] == [frozenset({0, 3}), frozenset({1}), frozenset({2, 3})]
