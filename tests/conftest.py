"""Session-wide fixtures: one real, private redis-server for the whole run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.redis_server import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a private, real redis-server (embedded, like `referee serve`)."""
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url
