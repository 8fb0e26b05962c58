"""Shared fixtures: one real, private redis-server for the whole run, and a referee on it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import referee_pb2_grpc
from scripts import compiled_build
from service import compiled
from service.process.redis_server import EmbeddedRedis
from service.process.server import Running, running
from tests.servers import settings_for

# Every `referee serve` a test starts is one process, as before `--workers` (which now
# defaults to one per core); tests/service/test_workers.py asks for two.
os.environ["REFEREE_WORKERS"] = "1"


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test extensions built from older sources: they would run instead of the
    code under test (``./dev test`` rebuilds them first; so does scripts/compiled_build.py)."""
    reasons = compiled_build.stale()
    if reasons:
        raise pytest.UsageError(
            "stale compiled modules: "
            + "; ".join(reasons)
            + " (./dev test rebuilds them; REFEREE_PURE_PYTHON=1 ./dev test removes them)"
        )


def pytest_report_header() -> str:
    """Which build the suite runs on (tests/test_compiled.py checks it is one build)."""
    return f"referee: {compiled.describe()}"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a private, real redis-server (embedded, like `referee serve`, but with
    ``appendfsync everysec``: an fsync per write costs milliseconds, and the suite makes
    many; the tests that need ``always`` start their own)."""
    with EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendfsync="everysec") as server:
        yield server.url


@pytest.fixture
async def referee_server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    """A referee in this test's event loop, on a free loopback port."""
    async with running(settings_for(redis_url, tmp_path)) as handle:
        yield handle


@pytest.fixture
async def stub(referee_server: Running) -> AsyncIterator[referee_pb2_grpc.RefereeServiceAsyncStub]:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        yield referee_pb2_grpc.RefereeServiceStub(channel)


@pytest.fixture
async def raw_redis(redis_url: str) -> AsyncIterator[Redis]:
    """A plain client for looking at keys behind the referee's back."""
    client = Redis.from_url(redis_url, protocol=2)
    yield client
    await client.aclose()
