"""One `referee serve` process per abuse module, on the session's Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import Served, referee_process


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with referee_process(redis_url, tmp_path_factory.mktemp("referee")) as running:
        yield running
