"""The load tests' Redis: the session's redis-server, in a database of their own."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

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
