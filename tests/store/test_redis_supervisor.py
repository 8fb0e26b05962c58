"""The supervisor of the embedded redis-server: it notices a death, restarts the server on
its port (with backoff while that fails, and a bounded rate), and logs each step."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import redis
import structlog

from service.process.redis_server import EmbeddedRedis, find_redis_server
from service.process.redis_supervisor import Supervisor


async def until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {seconds}s waiting for {what}"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def supervised(
    server: EmbeddedRedis, *, first_backoff: float = 0.5
) -> AsyncIterator[Supervisor]:
    with Supervisor(server, poll_seconds=0.05, first_backoff=first_backoff) as supervisor:
        task = asyncio.create_task(supervisor.run())
        try:
            yield supervisor
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def test_backoff_doubles_and_the_rate_is_bounded(tmp_path: Path) -> None:
    supervisor = Supervisor(
        EmbeddedRedis(tmp_path), max_restarts=2, window=60.0, first_backoff=0.5, max_backoff=3.0
    )
    assert [supervisor._backoff(n) for n in range(6)] == [0.0, 0.5, 1.0, 2.0, 3.0, 3.0]
    assert supervisor._rate_delay() == 0.0
    now = time.monotonic()
    supervisor._recent.extend([now - 70.0, now - 30.0])  # the first is out of the window
    assert supervisor._rate_delay() == 0.0
    supervisor._recent.append(now - 10.0)
    assert 29.0 < supervisor._rate_delay() <= 30.0  # until the one of 30 s ago leaves it


async def test_a_killed_server_is_restarted_and_keeps_its_data(tmp_path: Path) -> None:
    with structlog.testing.capture_logs() as logs:
        async with supervised(EmbeddedRedis(tmp_path)) as supervisor:
            server = supervisor.server
            with redis.Redis.from_url(server.url) as client:
                client.set("acknowledged", b"1")
            first, password = server.pid, server.password
            os.kill(first, signal.SIGKILL)
            await until(lambda: supervisor.restarts == 1, 20, "the restart")
            assert supervisor.up and server.pid != first
            with redis.Redis.from_url(server.url) as client:
                assert client.get("acknowledged") == b"1"
    events = [line["event"] for line in logs]
    assert events == ["embedded redis exited", "embedded redis restarted"]
    assert logs[0]["exit_code"] == -signal.SIGKILL
    assert not any(password in str(line) for line in logs), "the password was logged"
    assert not server.running


async def test_a_failing_restart_is_retried_with_backoff(tmp_path: Path) -> None:
    """While the server cannot start, each restart fails and the next waits longer; once it
    can, one restart brings it back."""
    broken = tmp_path / "broken"
    binary = tmp_path / "redis-server"
    binary.write_text(f'#!/bin/sh\n[ -e {broken} ] && exit 7\nexec {find_redis_server()} "$@"\n')
    binary.chmod(0o755)
    with structlog.testing.capture_logs() as logs:
        server = EmbeddedRedis(tmp_path / "data", binary=str(binary))
        async with supervised(server, first_backoff=0.1) as supervisor:

            def failures() -> int:
                return sum(line["event"] == "embedded redis restart failed" for line in logs)

            broken.touch()
            os.kill(server.pid, signal.SIGKILL)
            await until(lambda: failures() >= 2, 30, "two failed restarts")
            assert not supervisor.up
            broken.unlink()
            await until(lambda: supervisor.up, 30, "the restart once it can start")
            assert supervisor.restarts == 1
    delays = [line["seconds"] for line in logs if line["event"] == "embedded redis restart delayed"]
    assert delays[:2] == [0.1, 0.2]
    assert "exited with code 7" in next(
        line["error"] for line in logs if line["event"] == "embedded redis restart failed"
    )
