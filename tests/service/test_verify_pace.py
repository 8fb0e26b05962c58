"""VerifyHistory's bounds (issue 33): a body cap the longest history fits, the verify
pool's pace in bytes, and a refusal that comes only once the refused body's bytes have
taken their time, so that a client retrying at once is paced as one let in is.

The Verifier's queue is filled here by a call that waits at the pace (its body is over
the burst), so no worker process is started and nothing is replayed."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from bench.verify_flood import weigh
from service.domain.move_limits import MAX_MOVE_LIMIT
from service.edge.calls import MAX_VERIFY_BYTES
from service.edge.encoded import Encoded
from service.edge.verifying import (
    BURST_BYTES,
    HELD_REFUSALS,
    Pace,
    Verifier,
    _alive,
    lowered,
)
from service.errors import Unavailable

RATE = 1_000_000  # bytes a second of the verifiers below
AT_ONCE = 0.5  # seconds: a refusal at once, where a paced one of RATE bytes takes 1 s


class Clock:
    """Seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_pace_lets_a_burst_through_then_paces_bytes() -> None:
    clock = Clock()
    pace = Pace(rate=100, burst=200, clock=clock)
    assert pace.wait(150) == 0  # within the burst
    assert pace.wait(100) == pytest.approx(0.5)  # 50 bytes over it: half a second
    clock.now += 0.5
    assert pace.wait(100) == pytest.approx(1.0)  # the bucket is empty: a second
    clock.now += 60  # a quiet minute refills the burst, no more
    assert pace.wait(200) == 0
    assert pace.wait(1) == pytest.approx(0.01)
    with pytest.raises(ValueError, match="positive rate"):
        Pace(rate=0, burst=1)


def _body(size: int) -> Encoded:
    return Encoded.proto(bytes(size))


@contextlib.asynccontextmanager
async def filled() -> AsyncIterator[Verifier]:
    """A verifier of one worker and no queue, its one place taken by a call waiting at the
    pace (cancelled, with whatever else is left, when the block exits)."""
    verifier = Verifier(workers=1, queue=0, bytes_per_second=RATE)
    waiting = asyncio.create_task(verifier.verify(_body(BURST_BYTES + 10 * RATE)))
    await asyncio.sleep(0)
    assert verifier.in_pool == 1
    try:
        yield verifier
    finally:
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        assert verifier.in_pool == 0  # a call given up while it waited left the queue
        verifier.close()


async def _refused(verifier: Verifier, size: int) -> float:
    """Seconds until a call with a body of ``size`` bytes was refused VERIFY_BUSY."""
    started = time.monotonic()
    with pytest.raises(Unavailable) as refused:
        await verifier.verify(_body(size))
    assert refused.value.reason == "VERIFY_BUSY"
    return time.monotonic() - started


async def test_a_call_that_finds_the_queue_full_hears_so_once_its_bytes_took_their_time() -> None:
    async with filled() as verifier:
        took = await _refused(verifier, RATE // 4)
        assert 0.25 <= took < 2, took
        # "At once" is told from "paced" by half the pacing's least wait (1 s for RATE
        # bytes), never by a tight time, which a busy machine would break.
        assert await _refused(verifier, 0) < AT_ONCE  # an empty body costs nothing to wait for
    assert await _refused(verifier, RATE) < AT_ONCE  # a closed verifier refuses at once


async def test_refused_calls_beyond_the_held_ones_are_refused_at_once() -> None:
    """Each held refusal holds its body: at most HELD_REFUSALS wait at once."""
    async with filled() as verifier:
        held = [asyncio.create_task(_refused(verifier, RATE)) for _ in range(HELD_REFUSALS)]
        await asyncio.sleep(0.05)
        assert await _refused(verifier, RATE) < AT_ONCE
        assert all(took >= 1 for took in await asyncio.gather(*held))


async def test_the_longest_history_a_table_may_have_fits_the_cap() -> None:
    """MAX_MOVE_LIMIT entries of a real game of each game (bots' games, bytes a move
    measured), with a tenth of the cap to spare (bench.verify_flood --weights)."""
    for game, seats in (("the_gang", 3), ("gang_of_four", 4), ("pinched", 5)):
        weight = await weigh(game, seats, {}, b"cap", strategy="heuristic")
        assert MAX_MOVE_LIMIT * weight.per_move(weight.binary) <= 0.9 * MAX_VERIFY_BYTES, game


def test_a_worker_runs_at_the_lowest_priority_under_the_normal_policy() -> None:
    """nice 19, not SCHED_IDLE (service.edge.verifying.lowered says why)."""
    with ProcessPoolExecutor(1, initializer=lowered, initargs=(os.getpid(),)) as pool:
        niceness, policy = pool.submit(_priority).result(timeout=30)
    assert niceness == 19
    assert policy == os.SCHED_OTHER


def _priority() -> tuple[int, int]:
    return os.nice(0), os.sched_getscheduler(0)


def test_a_worker_ends_when_its_referee_is_gone() -> None:
    """The pool's worker is the fork server's child: no parent-death signal reaches it
    when the referee is SIGKILLed. It watches the referee's pid (here a stand-in process)
    and exits once it is gone or a zombie (killed, not yet reaped)."""
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=lowered, initargs=(stand_in.pid,)
    ) as pool:
        worker = pool.submit(os.getpid).result(timeout=30)
        assert _alive(worker) and _alive(stand_in.pid)
        stand_in.kill()  # not reaped yet: a zombie
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker), "the worker outlived its referee"
    stand_in.wait()
    assert not _alive(stand_in.pid)
