"""VerifyHistory's replays, in worker processes: the event loop never replays a game.

A replay (:func:`service.edge.verify.verify_history`) is pure Python and holds the GIL for up
to seconds on a long game, so a thread would still stall every other call of the process.
:class:`Verifier` runs it in a :class:`~concurrent.futures.ProcessPoolExecutor` of
``workers`` processes, started at its first call. What crosses to a worker is the request
as it came (:class:`~service.edge.encoded.Encoded`: binary protobuf or proto3 JSON, maybe
gzipped), never parsed on the event loop: the worker inflates it (at most its format's
cap), parses it, checks it (:func:`service.edge.calls.check_request`), replays it and answers
in the request's format. A request it refuses comes back as a :class:`Refusal` (reason
and message), raised on the loop as the same typed error the face would have raised. The
request carries the whole history (the RPC reads nothing stored; a client verifying a
stored game sends what GetHistory gave it), so a worker needs no Redis and no secret.

Workers come from a ``forkserver``, never a fork of the referee itself: the referee has
gRPC's threads, which a forked child would inherit in whatever state they were. The fork
server imports this module once, so each worker starts without importing the engines.
Workers run at the lowest CPU priority (:data:`NICENESS`; not SCHED_IDLE, see
:func:`lowered`): a replay is background work, and on a busy machine the event loop's
short calls come first.

The event loop's own share is kept to moving bytes, off its thread where it can be: the
pool is started (the fork server's round trip, ~0.5 s) in a thread, and a body over
:data:`SPOOL_BYTES` goes to its worker as a file written by a thread (the worker reads and
deletes it), since the pool's queue would pickle it under the GIL (5 ms per 8 MB, the
whole process stalled meanwhile).

The queue is bounded: at most ``workers + queue`` calls are in the pool (running or
waiting). A call whose client gives up while it waits leaves the queue; one already
replaying runs to its end (a replay is bounded by the request's size limits).

What a flood of bodies costs the other callers is not the replay but the bytes: the
receiving process copies each body (grpcio copies a message into Python on the event
loop, 0.3-2 ms per MB on the 2-core test machine) before any check can refuse it, and
copies at wire speed take the cores that moves need (bench.verify_flood, issue 33). So
the bytes are paced, and a refusal is no invitation to send the next body at once:

* the pool takes request bytes at ``bytes_per_second`` (:class:`Pace`; a cap's worth at
  once): a call waits its turn in the queue, so callers who wait for their answers have
  the referee receive no more than that, whatever their bodies hold (a bogus body is
  refused by its worker in milliseconds, which made the worker no limit);
* a call that finds the queue full gets UNAVAILABLE ``VERIFY_BUSY`` once its own bytes
  have taken their time at the pace (a second for a body at the cap, at the default),
  not at once: a client retrying on a refusal is paced like one that was let in. At most
  :data:`HELD_REFUSALS` refused calls wait so (each holds its body); beyond that a
  refusal comes at once, and that many callers at once are a flood for the per-address
  limits of a proxy in front and for more replicas.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import structlog
from google.protobuf import json_format
from google.protobuf.message import DecodeError

from referee.v1 import referee_pb2
from service.edge.calls import MAX_JSON_VERIFY_BYTES, MAX_VERIFY_BYTES, check_request, gunzipped
from service.edge.encoded import GZIP, IDENTITY, JSON, Encoded
from service.edge.verify import verify_history
from service.errors import BadRequest, RefereeError, Unavailable, echo, excerpt

log = structlog.get_logger("referee.verify")

WORKERS = 1
QUEUE = 4
# How much lower a worker's CPU priority is than the referee's (os.nice): the lowest.
NICENESS = 19
# Bodies above this go to a worker as a file (see the module); below, through its queue.
SPOOL_BYTES = 256 * 1024
# How often a worker looks whether the referee is still there (see _outliving).
PARENT_POLL_SECONDS = 1.0
PROC_SELF = Path("/proc/self/stat")
# Request bytes a second the pool takes in (see the module), and the bytes it takes at once.
BYTES_PER_SECOND = 4 * 1024 * 1024
BURST_BYTES = MAX_VERIFY_BYTES
# Refused calls that may wait for their VERIFY_BUSY at once (see the module).
HELD_REFUSALS = 16


@dataclass(frozen=True)
class Refusal:
    """A request a worker refused: what the loop raises as :class:`BadRequest`. (An
    exception would cross the process boundary only if it pickled, which ours do not.)"""

    reason: str
    message: str


def _outliving(referee: int) -> None:
    """Exit once the process ``referee`` is gone (a worker's watch, in a daemon thread).

    A worker is the fork server's child, not the referee's, so no parent-death signal
    reaches it when the referee is SIGKILLed; and it holds both ends of its own call queue
    and the fork server's "alive" pipe, so neither sees an end of file: without this, both
    would live on for good. Its exit ends the fork server too (the pipe's last writer).
    A referee killed but not yet reaped by its supervisor is a zombie: gone as well."""
    while _alive(referee):
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs: neither gone nor a zombie (Linux's /proc), else a signal 0."""
    if not PROC_SELF.exists():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat.rsplit(b")", 1)[-1].split()[:1] != [b"Z"]


def lowered(referee: int) -> None:
    """A worker's initializer: its watch on the referee (:func:`_outliving`), and the
    lowest nice level, below the referee (see the module).

    Not Linux's SCHED_IDLE, which was meant to run it only on a core nothing else wants:
    on the 2-core test machine (Linux 6.18) a replay at SCHED_IDLE took a moving client's
    GetView p95 to 2.5-3x its quiet figure, at nice 19 to 0.9-1.2x (bench.verify_flood
    --faces json; a bare busy loop beside the same client: 2.8-3.3x against 1.06x),
    presumably because the scheduler counts a core running only SCHED_IDLE work as idle
    and wakes the referee there, behind the replay."""
    threading.Thread(target=_outliving, args=(referee,), daemon=True).start()
    with contextlib.suppress(OSError):
        os.nice(NICENESS)


def _inflated(request: Encoded, limit: int) -> bytes:
    """The request's body uncompressed, refused once it passes ``limit`` bytes."""
    if request.encoding == GZIP:
        return gunzipped(request.data, limit)
    if request.encoding != IDENTITY:
        raise BadRequest("MALFORMED_REQUEST", f"unknown compression {echo(request.encoding)}")
    return request.data


def parsed(request: Encoded) -> referee_pb2.VerifyHistoryRequest:
    """The request inflated, parsed and checked, as the faces would for any other RPC."""
    json = request.format == JSON
    data = _inflated(request, MAX_JSON_VERIFY_BYTES if json else MAX_VERIFY_BYTES)
    message = referee_pb2.VerifyHistoryRequest()
    try:
        if json:
            json_format.Parse(data, message)
        else:
            message.ParseFromString(data)
    except (json_format.ParseError, UnicodeDecodeError, DecodeError) as error:
        what = "malformed JSON request" if json else "malformed request"
        raise BadRequest("MALFORMED_REQUEST", f"{what}: {excerpt(str(error))}") from None
    check_request(message)
    return message


@dataclass(frozen=True)
class Spooled:
    """A request body on its way to a worker as the file ``path`` (see the module)."""

    path: str
    format: str
    encoding: str


def _spool(directory: str, request: Encoded) -> Spooled:
    """``request``'s body written to a new file of ``directory`` (in a thread)."""
    handle, path = tempfile.mkstemp(dir=directory)
    with open(handle, "wb") as file:
        file.write(request.data)
    return Spooled(path, request.format, request.encoding)


def _discard(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _unspooled(item: Spooled) -> Encoded:
    try:
        data = Path(item.path).read_bytes()
    finally:
        _discard(item.path)
    return Encoded(data, item.format, item.encoding)


def replay(request: Encoded | Spooled) -> bytes | Refusal:
    """One VerifyHistory call, in a worker: its request as it came in, its answer's bytes
    (in the request's format) out, or the refusal of a request that was not acceptable."""
    if isinstance(request, Spooled):
        request = _unspooled(request)
    try:
        message = parsed(request)
    except RefereeError as error:
        return Refusal(error.reason, error.message)
    report = verify_history(message.history, message.views)
    answer = referee_pb2.VerifyHistoryResponse(
        verified=report.ok,
        moves_replayed=report.replayed,
        views_checked=report.views,
        first_differing_version=report.first_differing_version,
        problems=report.problems,
        chained=report.chained,
    )
    if request.format == JSON:
        return json_format.MessageToJson(answer).encode()  # as connect-python's codec does
    return answer.SerializeToString()


def _soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Run ``callback`` on ``loop``'s thread (a pool's callbacks come from its own thread)."""
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody counts any more
        loop.call_soon_threadsafe(callback)


def busy() -> Unavailable:
    return Unavailable("VERIFY_BUSY", "this referee is replaying other games; try again shortly")


class Pace:
    """Bytes let through at ``rate`` a second, ``burst`` of them at once: each call is
    told how long to wait until its bytes fit (a token bucket, kept as the time at which
    the bytes let through so far are paid for)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        if rate <= 0 or burst < 0:
            raise ValueError("a pace needs a positive rate and a burst of 0 or more")
        self.rate, self.burst, self._clock = rate, burst, clock
        self._paid_until = -math.inf

    def wait(self, size: int) -> float:
        """Seconds until ``size`` more bytes fit the pace (0: at once); they are counted."""
        now = self._clock()
        start = max(self._paid_until, now - self.burst / self.rate)
        self._paid_until = start + size / self.rate
        return max(0.0, self._paid_until - now)


class Verifier:
    """A process pool for replays with a bounded queue, paced by bytes (see the module)."""

    def __init__(
        self,
        workers: int = WORKERS,
        queue: int = QUEUE,
        bytes_per_second: int = BYTES_PER_SECOND,
    ) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a verifier needs at least one worker and a queue of 0 or more")
        self.workers = workers
        self.capacity = workers + queue
        self._pace = Pace(bytes_per_second, max(BURST_BYTES, bytes_per_second))
        self._pool: ProcessPoolExecutor | None = None
        self._spool_dir: str | None = None
        self._starting = threading.Lock()  # the pool and spool directory are made in threads
        self._in_pool = 0
        self._held = 0  # refused calls waiting for their VERIFY_BUSY
        self._closed = False

    @property
    def in_pool(self) -> int:
        """Calls running or waiting in the pool now (or on their way into it)."""
        return self._in_pool

    def _start(self) -> None:
        """Start the pool and its every worker (in a thread: it waits on the fork server)."""
        with self._starting:
            if self._pool is not None or self._closed:
                return
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=lowered, initargs=(os.getpid(),)
            )
            # Workers are spawned on demand: as many calls as workers spawn them all now.
            for started in [pool.submit(int) for _ in range(self.workers)]:
                started.result()
            self._spool_dir = self._spool_dir or tempfile.mkdtemp(prefix="referee-verify-")
            self._pool = pool

    async def _ready(self) -> ProcessPoolExecutor:
        if self._pool is None:
            await asyncio.shield(asyncio.to_thread(self._start))
        if self._pool is None:  # closed meanwhile
            raise busy()
        return self._pool

    async def _item(self, request: Encoded) -> Encoded | Spooled:
        if len(request.data) <= SPOOL_BYTES or self._spool_dir is None:
            return request
        return await asyncio.to_thread(_spool, self._spool_dir, request)

    async def verify(self, request: referee_pb2.VerifyHistoryRequest | Encoded) -> bytes:
        """The serialized answer to ``request``, in its format (binary for a message),
        once its bytes fit the pace; VERIFY_BUSY when the queue is full (see
        :meth:`_turned_away`), the worker's refusal as :class:`BadRequest`."""
        if not isinstance(request, Encoded):
            request = Encoded.proto(request.SerializeToString())
        if self._closed:
            raise busy()
        if self._in_pool >= self.capacity:
            raise await self._turned_away(len(request.data))
        self._in_pool += 1
        try:
            await asyncio.sleep(self._pace.wait(len(request.data)))
            pool = await self._ready()
            item = await self._item(request)
            future: Future[bytes | Refusal] = pool.submit(replay, item)
        except BaseException as error:
            self._in_pool -= 1
            if isinstance(error, BrokenProcessPool) and self._pool is not None:
                self._replace(self._pool)
            raise
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda _: self._finished(loop, item))
        try:
            answer = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next call gets a fresh pool.
            log.error("a verify worker died; starting a new pool at the next call")
            self._replace(pool)
            raise
        if isinstance(answer, Refusal):
            raise BadRequest(answer.reason, answer.message)
        return answer

    async def _turned_away(self, size: int) -> Unavailable:
        """VERIFY_BUSY for a call that found the queue full, once its body's bytes have
        taken their time at the pace (see the module); at once when :data:`HELD_REFUSALS`
        refused calls (each holding its body) wait already."""
        if self._held < HELD_REFUSALS:
            self._held += 1
            try:
                await asyncio.sleep(size / self._pace.rate)
            finally:
                self._held -= 1
        return busy()

    def _finished(self, loop: asyncio.AbstractEventLoop, item: Encoded | Spooled) -> None:
        """A call left the pool (on the pool's thread): its spooled body, if the worker did
        not get to it, is deleted; the count is lowered on the loop's thread (no lock)."""
        if isinstance(item, Spooled):
            _discard(item.path)
        _soon(loop, self._left)

    def _left(self) -> None:
        """A call left the pool: answered, failed, or cancelled while it waited."""
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
        if self._spool_dir is not None:
            shutil.rmtree(self._spool_dir, ignore_errors=True)
