"""The load tests' Redis: the session's redis-server, in a database of their own, or (for a
test that weighs what its games store) a redis-server of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from service.process.redis_server import EmbeddedRedis

# Keys of the load tests stay apart from every other test's (database 0).
DATABASE = 9


@pytest.fixture
async def loadtest_redis_url(redis_url: str) -> str:
    """The session Redis, database 9, emptied before the test."""
    url = f"{redis_url.rsplit('/', 1)[0]}/{DATABASE}"
    client = Redis.from_url(url, protocol=2)
    try:
        await client.flushdb()
    finally:
        await client.aclose()
    return url


@pytest.fixture
def private_redis_url(tmp_path: Path) -> Iterator[str]:
    """A redis-server of this test's own (``appendfsync everysec``, as the session's).

    Its ``used_memory`` moves with this test's writes alone: the session's also falls while
    a run is measured, when keys other tests left expire or are freed, which can outweigh
    a few games' bytes.
    """
    with EmbeddedRedis(tmp_path / "redis", appendfsync="everysec") as server:
        yield server.url
