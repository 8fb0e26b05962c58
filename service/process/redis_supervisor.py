"""Keeping the embedded redis-server alive: notice that it died, start it again, say so.

The referee's embedded Redis is a child process; if it dies (killed, out of memory), the
supervisor sees it within ``poll_seconds`` and starts it again on the same port, data folder,
append-only file and password (:meth:`EmbeddedRedis.restart`), so the referee's clients
reconnect by themselves. With ``appendfsync always`` every acknowledged move is in the AOF,
which the new server replays before it answers. While the server is down :attr:`up` is
False and :attr:`changed` is set, so the health status can turn NOT_SERVING at once.

Restarts are bounded: a failed start is retried after a backoff (``first_backoff``,
doubling up to ``max_backoff``), and at most ``max_restarts`` restarts happen in any
``window`` seconds, so a server that cannot live does not take a core with it. Each exit,
failure and restart is logged (the address, never the URL: it holds the password).

Every start (the first one too) runs in one dedicated thread that lives until the server is
stopped: the child's parent-death signal is bound to the thread that started it
(:func:`service.process.redis_server.dying_with_parent`), and a restart waits for the AOF replay,
which must not block the event loop.
"""

from __future__ import annotations

import asyncio
import collections
import time
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Final, Self

import structlog

from service.process.redis_server import EmbeddedRedis, RedisServerError

log = structlog.get_logger("referee")

POLL_SECONDS: Final = 0.2


class Supervisor:
    """Owns an :class:`EmbeddedRedis`: starts it on enter, stops it on exit, and, while
    :meth:`run` runs (a task), restarts it whenever it dies."""

    def __init__(
        self,
        server: EmbeddedRedis,
        *,
        poll_seconds: float = POLL_SECONDS,
        max_restarts: int = 20,
        window: float = 60.0,
        first_backoff: float = 0.5,
        max_backoff: float = 30.0,
    ) -> None:
        self.server = server
        self.up = False
        self.restarts = 0
        # Set whenever ``up`` changes (the health follower clears it).
        self.changed = asyncio.Event()
        self._poll = poll_seconds
        self._max_restarts = max_restarts
        self._window = window
        self._first_backoff = first_backoff
        self._max_backoff = max_backoff
        self._recent: collections.deque[float] = collections.deque()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="embedded-redis")

    def __enter__(self) -> Self:
        try:
            self._thread.submit(self.server.start).result()
        except BaseException:
            self._thread.shutdown()
            raise
        self._set(up=True)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.server.stop()  # waits for a restart in progress to finish first
        finally:
            self._thread.shutdown()

    def _set(self, *, up: bool) -> None:
        self.up = up
        self.changed.set()

    async def run(self) -> None:
        """Watch the server and bring it back each time it dies; runs until cancelled."""
        while True:
            await asyncio.sleep(self._poll)
            code = self.server.exit_code
            if code is None:
                continue
            self._set(up=False)
            log.error("embedded redis exited", exit_code=code, address=self.server.address)
            await self._bring_back()

    async def _bring_back(self) -> None:
        loop = asyncio.get_running_loop()
        down_since = time.monotonic()
        failures = 0
        while True:
            delay = max(self._rate_delay(), self._backoff(failures))
            if delay > 0:
                log.warning("embedded redis restart delayed", seconds=round(delay, 3))
                await asyncio.sleep(delay)
            try:
                await loop.run_in_executor(self._thread, self.server.restart)
            except RedisServerError as error:
                failures += 1
                log.error("embedded redis restart failed", attempt=failures, error=str(error))
                continue
            self._recent.append(time.monotonic())
            self.restarts += 1
            self._set(up=True)
            # Info, not a warning: the exit was the warning (and the log rate-limits repeated
            # warnings), and each restart is worth its own line; the supervisor's own
            # restart rate bounds them.
            log.info(
                "embedded redis restarted",
                pid=self.server.pid,
                address=self.server.address,
                restarts=self.restarts,
                down_seconds=round(time.monotonic() - down_since, 3),
            )
            return

    def _backoff(self, failures: int) -> float:
        if failures == 0:
            return 0.0
        return float(min(self._max_backoff, self._first_backoff * 2 ** (failures - 1)))

    def _rate_delay(self) -> float:
        """How long until one more restart keeps within ``max_restarts`` per ``window``."""
        now = time.monotonic()
        while self._recent and self._recent[0] <= now - self._window:
            self._recent.popleft()
        if len(self._recent) < self._max_restarts:
            return 0.0
        return self._recent[0] + self._window - now
