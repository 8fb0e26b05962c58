"""Fixtures of the console's end-to-end tests: the referee as its own process, chromium."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis
from playwright.async_api import Browser, async_playwright

from tests.console.support import CHROMIUM, CHROMIUM_ARGS, CONSOLE_DB, ROOT, Served
from tests.servers import SECRET


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{CONSOLE_DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    env = {
        **os.environ,
        "REDIS_URL": url,
        "REFEREE_TOKEN_SECRET": SECRET.decode(),
        "REFEREE_PORT": "0",
        "REFEREE_HTTP_PORT": "0",
        "REFEREE_DATA_DIR": str(tmp_path_factory.mktemp("console")),
        "REFEREE_LOG_LEVEL": "warning",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        found: dict[str, str] = {}
        for line in process.stdout:
            if match := re.search(r"referee listening on (\S+)", line):
                found["grpc"] = match.group(1)
            if match := re.search(r"HTTP/JSON on (http://\S+)", line):
                found["http"] = match.group(1)
                break
        assert set(found) == {"grpc", "http"}, "the referee did not start"
        yield Served(found["http"], found["grpc"])
    finally:
        process.terminate()
        process.wait(10)
        client.flushdb()
        client.close()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: ./dev installs it (apt-get install chromium)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            await launched.close()
