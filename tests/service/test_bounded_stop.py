"""A stop is bounded (service.process.stopping, issue 33): a close step that hangs is cut at
its deadline and named in the log, the watchdog ends a process whose stop overran, a second
signal ends it at once; and the loops that CPython 3.11 could keep alive after their
cancellation (asyncio.wait_for inside redis-py's writes loses a cancellation that lands as
the write completes) end by their flag."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from typing import Any, cast

import pytest
from structlog.testing import capture_logs

from service.process import stopping
from service.process.stopping import (
    EXIT_FORCED,
    Steps,
    StopSignals,
    Watchdog,
    bounded,
    drain_tasks,
)
from service.tournaments.host import TournamentHost
from service.tournaments.takeover import Takeovers


async def _never() -> None:
    await asyncio.Event().wait()


class Swallowing:
    """A loop that takes a cancellation for nothing (as a lost one looks) until released."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.released = False
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        self.task = asyncio.current_task()
        while not self.released:
            self.entered.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue

    async def release(self) -> None:
        self.released = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.wait({self.task})


async def _quick() -> None:
    await asyncio.sleep(0)


async def test_a_step_that_never_returns_is_cut_at_its_deadline_and_named() -> None:
    steps = Steps()
    swallowing = Swallowing()
    started = time.monotonic()
    with capture_logs() as logs:
        await steps.run("stuck feed", _never, 0.05)
        await steps.run("swallowing firer", swallowing.run, 0.05)
        await steps.run("store", _quick, 1)
    assert time.monotonic() - started < 2
    assert steps.cut == ["stuck feed", "swallowing firer"]
    overran = [entry for entry in logs if entry["event"] == "stop step overran"]
    assert [entry["step"] for entry in overran] == ["stuck feed", "swallowing firer"]
    assert all(entry["log_level"] == "error" for entry in overran)
    await swallowing.release()


async def test_a_failing_step_is_logged_and_the_next_still_runs() -> None:
    async def failing() -> None:
        raise RuntimeError("boom")

    ran: list[str] = []

    async def next_step() -> None:
        ran.append("next")

    steps = Steps()
    with capture_logs() as logs:
        await steps.run("failing", failing, 1)
        await steps.run("next", next_step, 1)
    assert steps.cut == ["failing"] and ran == ["next"]
    assert any(entry["event"] == "stop step failed" for entry in logs)


async def test_bounded_is_true_for_a_step_done_in_time() -> None:
    assert await bounded("quick", asyncio.sleep(0), 1)


async def test_drain_names_the_tasks_that_will_not_end() -> None:
    swallowing = Swallowing()
    stuck = asyncio.create_task(swallowing.run(), name="stuck loop")
    ending = asyncio.create_task(_never(), name="ending")
    await swallowing.entered.wait()
    with capture_logs() as logs:
        left = await drain_tasks(0.05)
    assert left == ["stuck loop"] and not stuck.done()
    assert ending.cancelled()
    assert any(entry["event"] == "tasks did not stop" for entry in logs)
    await swallowing.release()


def test_the_watchdog_exits_with_its_reason_after_its_deadline() -> None:
    exits: list[tuple[int, str, dict[str, Any]]] = []
    done = threading.Event()

    def fake_exit(code: int, reason: str, **fields: Any) -> None:
        exits.append((code, reason, fields))
        done.set()

    watchdog = Watchdog(exit=fake_exit)
    watchdog.arm(0.05, "signal SIGTERM")
    watchdog.arm(100, "armed again: the first deadline stands")
    assert done.wait(10)
    assert exits == [
        (EXIT_FORCED, "stop overran: exiting", {"stop_reason": "signal SIGTERM", "seconds": 0.05})
    ]


async def test_a_second_signal_ends_the_process_at_once_and_a_begin_is_no_signal() -> None:
    forced: list[tuple[int, str]] = []
    armed: list[tuple[float, str]] = []

    class Arming(Watchdog):
        def arm(self, seconds: float, reason: str) -> None:
            armed.append((seconds, reason))

    stopper = StopSignals(12.5, Arming())
    stopper._forced = lambda code, reason, **_: forced.append((code, reason))
    stopper.begin("supervisor gone")
    await asyncio.wait_for(stopper.stop.wait(), 5)
    stopper._on_signal(signal.SIGTERM, None)
    assert not forced, "a stop begun by another cause: the first signal only joins it"
    stopper._on_signal(signal.SIGTERM, None)
    assert forced == [(EXIT_FORCED, "second signal during the stop")]
    assert stopper.reason == "supervisor gone"
    assert armed[0] == (12.5, "supervisor gone")


def test_exit_now_flushes_the_log_before_it_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    codes: list[int] = []
    flushed: list[bool] = []
    monkeypatch.setattr(os, "_exit", codes.append)
    monkeypatch.setattr(stopping, "flush_log", lambda: flushed.append(True))
    stopping.exit_now(EXIT_FORCED, "test")
    assert codes == [EXIT_FORCED] and flushed == [True]


class _LapsedSwallowing:
    """A tournament store whose read of the lapsed ids swallows a cancellation once, as
    a lost cancellation looks from the takeover loop (it carries on as if read)."""

    def __init__(self) -> None:
        self.reads = 0
        self.swallowed = 0

    async def lapsed(self, now: float, limit: int) -> list[str]:
        self.reads += 1
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.swallowed += 1
        return []


class _Host:
    def __init__(self) -> None:
        self.store = _LapsedSwallowing()

    def room(self) -> int:
        return 4


async def test_takeovers_stop_even_when_a_pass_swallows_its_cancellation() -> None:
    host = _Host()
    takeovers = Takeovers(cast(TournamentHost, host), every_seconds=0.01, per_pass=4)
    takeovers.start()
    while not host.store.reads:
        await asyncio.sleep(0)
    # A bound on a hang, not a timing: the loop ends after the pass it is in.
    await asyncio.wait_for(takeovers.aclose(), 10)
    assert host.store.swallowed == 1
    assert host.store.reads == 1, "no pass after the stop"


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="CPython 3.12 fixed wait_for")
async def test_why_python_3_11_needs_the_flags_wait_for_loses_a_cancellation() -> None:
    """The cause of issue 33's orphans, as small as it gets: a task cancelled while its
    ``wait_for`` waits for an inner task that completes in the same loop pass carries on
    (redis-py sends every command inside one)."""

    async def quick() -> int:
        return 1

    carried_on = asyncio.Event()

    async def sender() -> None:
        await asyncio.wait_for(quick(), 5)  # the inner task ends in the next pass ...
        carried_on.set()  # ... and the cancellation of this task was lost

    task = asyncio.create_task(sender())
    await asyncio.sleep(0)  # the sender is inside wait_for, its inner task scheduled
    task.cancel()
    await asyncio.wait({task}, timeout=5)
    assert carried_on.is_set() and not task.cancelled()
