"""Fixtures of the console's end-to-end tests: the referee as its own process, chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import redis
from playwright.async_api import Browser, async_playwright

from tests.console.support import CHROMIUM_ARGS, CONSOLE_DB, chromium
from tests.servers import Served, referee_process

SERVED_ENV = {"REFEREE_BOT_MOVE_DELAY_MS": "0", "REFEREE_ALLOW_CLIENT_SEEDS": "1"}


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`referee serve` (which serves the built console) on Redis database CONSOLE_DB.
    Its bots (in a table's seats) move at once, and it takes a seed from the client, so a
    test can pick a deal that brings up every kind of move."""
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{CONSOLE_DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        with referee_process(url, tmp_path_factory.mktemp("console"), SERVED_ENV) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=chromium(), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            await launched.close()
