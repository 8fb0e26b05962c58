"""Fixtures for storage tests: one real redis-server per session, fresh ids per test."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.storage.store import RedisStore


@pytest.fixture(params=[2, 3], ids=["resp2", "resp3"])
async def store(redis_url: str, request: pytest.FixtureRequest) -> AsyncIterator[RedisStore]:
    """A store over each wire protocol, so reply parsing is checked for both."""
    async with RedisStore.from_url(redis_url, protocol=request.param) as opened:
        yield opened


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    """A plain client for looking at keys behind the store's back."""
    client = Redis.from_url(redis_url, protocol=2)
    yield client
    await client.aclose()


@pytest.fixture
def game_id() -> str:
    return f"test-{uuid.uuid4().hex}"
