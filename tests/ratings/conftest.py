"""Fixtures of the rating tests: the stores on the session's real redis-server, each test
under a key prefix of its own."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.storage.pending_ratings import PendingRatings
from service.storage.ratings import RatingStore


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    opened = Redis.from_url(redis_url, protocol=2)
    yield opened
    await opened.aclose()


@pytest.fixture
def prefix() -> str:
    return f"t{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def ratings(client: Redis, prefix: str) -> RatingStore:
    return RatingStore(client, key_prefix=prefix, history_kept=5)


@pytest.fixture
def pending(client: Redis, prefix: str) -> PendingRatings:
    return PendingRatings(client, key_prefix=prefix, shards=4)
