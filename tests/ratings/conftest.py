"""Fixtures of the rating tests: the stores on the session's real redis-server, each test
under a key prefix of its own; a referee that knows an operator key."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from service.process.server import Running, running
from service.storage.pending_ratings import PendingRatings
from service.storage.ratings import RatingStore
from tests.ratings.support import OPERATOR_KEYS
from tests.servers import settings_for


@pytest.fixture
async def keyed(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    """A referee that knows one operator key (so creating needs one)."""
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), operator_keys=OPERATOR_KEYS)
    async with running(settings) as handle:
        yield handle


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
