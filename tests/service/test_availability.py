"""Outages and shutdown: typed UNAVAILABLE answers, never INTERNAL, never a wrong state."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from pathlib import Path

import grpc
import pytest

from referee.v1 import referee_pb2
from service.server import running
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
