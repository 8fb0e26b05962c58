"""A running referee (in this test's event loop) on the session's real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import referee_pb2_grpc
from service.server import Running, running
from service.settings import Settings
from tests.service.table import SECRET


def settings_for(redis_url: str, data_dir: Path) -> Settings:
    return Settings(
        redis_url=redis_url,
        data_dir=data_dir,
        port=0,
        token_secret=SECRET,
        allow_client_seeds=True,
        finished_ttl_seconds=3600,
    )


@pytest.fixture
async def referee_server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    async with running(settings_for(redis_url, tmp_path)) as handle:
        yield handle


@pytest.fixture
async def stub(referee_server: Running) -> AsyncIterator[referee_pb2_grpc.RefereeServiceStub]:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        yield referee_pb2_grpc.RefereeServiceStub(channel)


@pytest.fixture
async def raw_redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url, protocol=2)
    yield client
    await client.aclose()
