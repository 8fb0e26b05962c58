"""Outages and shutdown: typed UNAVAILABLE answers, never INTERNAL, never a wrong state."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.v1 import referee_pb2
from service.process.redis_server import EmbeddedRedis
from service.process.server import running
from tests.servers import settings_for
from tests.service.table import Stub, Table, reason_of


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_an_unreachable_store_is_unavailable_with_a_reason(tmp_path: Path) -> None:
    settings = settings_for(f"redis://127.0.0.1:{_closed_port()}/0", tmp_path)
    async with (
        running(settings) as server,
        grpc.aio.insecure_channel(server.address) as channel,
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await Stub(channel).CreateGame(referee_pb2.CreateGameRequest(game="the_gang", seats=3))
    code, reason, _ = reason_of(caught.value)
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")


async def test_shutdown_ends_watch_streams_with_unavailable(redis_url: str, tmp_path: Path) -> None:
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), shutdown_grace_seconds=2)
    async with running(settings) as server:
        channel = grpc.aio.insecure_channel(server.address)
        stub = Stub(channel)
        table = await Table.create(stub, 3)
        stream = stub.WatchGame(
            referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=table.md(0)
        )
        first = await stream.read()
        assert isinstance(first, referee_pb2.WatchGameResponse) and first.snapshot
        ending = asyncio.create_task(stream.read())
        await asyncio.sleep(0.05)
        exit_started = asyncio.get_running_loop().time()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await asyncio.wait_for(ending, 5)
    assert asyncio.get_running_loop().time() - exit_started < 2
    code, reason, _ = reason_of(caught.value)
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "REFEREE_SHUTTING_DOWN")
    await channel.close(None)


async def test_health_follows_the_store(tmp_path: Path) -> None:
    """Readiness: the RefereeService is NOT_SERVING while Redis is down, SERVING again after."""
    redis_server = EmbeddedRedis(tmp_path / "redis")
    redis_server.start()
    settings = settings_for(redis_server.url, tmp_path)
    try:
        async with (
            running(settings) as server,
            grpc.aio.insecure_channel(server.address) as channel,
        ):
            health = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest(service="referee.v1.RefereeService")

            async def status() -> int:
                return int((await health.Check(request)).status)

            assert await status() == health_pb2.HealthCheckResponse.SERVING
            port = redis_server.port
            redis_server.stop()
            await _until(status, health_pb2.HealthCheckResponse.NOT_SERVING)
            process = health_pb2.HealthCheckRequest(service="")
            assert (await health.Check(process)).status == health_pb2.HealthCheckResponse.SERVING
            redis_server = EmbeddedRedis(tmp_path / "redis", port=port)
            redis_server.start()
            await _until(status, health_pb2.HealthCheckResponse.SERVING)
    finally:
        redis_server.stop()


async def _until(probe: Callable[[], Awaitable[int]], wanted: int) -> None:
    for _ in range(100):
        if await probe() == wanted:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"health never became {wanted}")


async def test_an_external_redis_needs_a_shared_secret(redis_url: str, tmp_path: Path) -> None:
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), token_secret=None)
    with pytest.raises(SystemExit, match="REFEREE_TOKEN_SECRET"):
        async with running(settings):
            pass
