"""VerifyHistory's replays, in worker processes: the event loop never replays a game.

A replay (:func:`service.verify.verify_history`) is pure Python and holds the GIL for up
to seconds on a long game, so a thread would still stall every other call of the process.
:class:`Verifier` runs it in a :class:`~concurrent.futures.ProcessPoolExecutor` of
``workers`` processes, started at its first call. What crosses to a worker is bytes: the
serialized ``VerifyHistoryRequest`` in, the serialized ``VerifyHistoryResponse`` out. The
request carries the whole history (the RPC reads nothing stored; a client verifying a
stored game sends what GetHistory gave it), so a worker needs no Redis and no secret.

Workers come from a ``forkserver``, never a fork of the referee itself: the referee has
gRPC's threads, which a forked child would inherit in whatever state they were. The fork
server imports this module once, so each worker starts without importing the engines.

The queue is bounded: at most ``workers + queue`` calls are in the pool (running or
waiting); one more is refused at once with UNAVAILABLE ``VERIFY_BUSY``. A call whose
client gives up while it waits leaves the queue; one already replaying runs to its end
(a replay is bounded by the request's size limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import structlog

from referee.v1 import referee_pb2
from service.errors import Unavailable
from service.verify import verify_history

log = structlog.get_logger("referee.verify")

WORKERS = 1
QUEUE = 4


def replay(request_bytes: bytes) -> bytes:
    """One VerifyHistory call, in a worker: its request's bytes in, its answer's bytes out."""
    request = referee_pb2.VerifyHistoryRequest.FromString(request_bytes)
    report = verify_history(request.history, request.views)
    return referee_pb2.VerifyHistoryResponse(
        verified=report.ok,
        moves_replayed=report.replayed,
        views_checked=report.views,
        first_differing_version=report.first_differing_version,
        problems=report.problems,
        chained=report.chained,
    ).SerializeToString()


def _soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Run ``callback`` on ``loop``'s thread (a pool's callbacks come from its own thread)."""
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody counts any more
        loop.call_soon_threadsafe(callback)


def busy() -> Unavailable:
    return Unavailable("VERIFY_BUSY", "this referee is replaying other games; try again shortly")


class Verifier:
    """A process pool for replays with a bounded queue (see the module)."""

    def __init__(self, workers: int = WORKERS, queue: int = QUEUE) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a verifier needs at least one worker and a queue of 0 or more")
        self.workers = workers
        self.capacity = workers + queue
        self._pool: ProcessPoolExecutor | None = None
        self._in_pool = 0
        self._closed = False

    @property
    def in_pool(self) -> int:
        """Calls running or waiting in the pool now."""
        return self._in_pool

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    async def verify(self, request: referee_pb2.VerifyHistoryRequest) -> bytes:
        """The serialized answer to ``request``; VERIFY_BUSY when the queue is full."""
        if self._closed or self._in_pool >= self.capacity:
            raise busy()
        data = request.SerializeToString()
        pool = self._started()
        self._in_pool += 1
        try:
            future: Future[bytes] = pool.submit(replay, data)
        except BrokenProcessPool:
            self._in_pool -= 1
            self._replace(pool)
            raise
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda _: _soon(loop, self._left))
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next call gets a fresh pool.
            log.error("a verify worker died; starting a new pool at the next call")
            self._replace(pool)
            raise

    def _left(self) -> None:
        """A call left the pool: answered, failed, or cancelled while it waited (on the
        event loop's thread, so the count needs no lock)."""
        self._in_pool -= 1

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        if self._pool is broken:
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers: waiting calls are cancelled, a running replay ends on its own."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
