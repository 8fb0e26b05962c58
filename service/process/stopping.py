"""A referee process's stop, bounded: each close step has a deadline, and a watchdog thread
ends the process when the whole stop overruns, even if its event loop is blocked.

Why every bound is needed: on CPython 3.11 ``asyncio.wait_for`` loses a cancellation that
arrives in the loop pass in which its inner awaitable finishes (CPython gh-86296, fixed in
3.12), and redis-py wraps every socket write in one (``send_packed_command`` with a
``socket_timeout``, 5 s by default). A task cancelled while it sends a Redis command
therefore often carries on as if nothing happened: a loop that ends only by cancellation
runs forever, and whoever awaits it waits forever. That is how a SIGTERMed worker went on
taking tournaments over, never closed its gRPC server and outlived its supervisor
(issue 33). The loops now end by a flag as well (firer, takeovers, directors' leases, the
health follower, the watch lanes), and this module bounds whatever is left:

* :func:`bounded` runs one close step as a task and stops waiting for it at its deadline,
  logging ``stop step overran`` with the step's name; the stop goes on with the next step.
* :class:`Watchdog` is a daemon thread armed when the stop begins; after its deadline it
  logs ``stop overran: exiting`` and calls :func:`os._exit` with :data:`EXIT_FORCED`.
* :class:`StopSignals` turns the first SIGTERM/SIGINT into a graceful stop (the watchdog
  armed at once, in the signal handler: a busy loop does not delay it) and a second one
  into an exit at once (:data:`EXIT_FORCED`).
* :func:`drain_tasks` ends what is left once the stop is over; what will not end in time
  is named in the log and the process leaves without waiting for it.

Exit codes of ``referee serve`` (and of each worker of ``--workers N``): 0, a clean stop;
:data:`EXIT_STEP_CUT` (3), a close step was cut at its deadline or a task would not end
(the process stopped anyway, every later step done); :data:`EXIT_FORCED` (4), the watchdog
or a second signal ended it without finishing its stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, Final

import structlog

log = structlog.get_logger("referee.stop")

EXIT_STEP_CUT: Final = 3
EXIT_FORCED: Final = 4
PROC: Final = Path("/proc")
# What the command line of a multiprocessing helper process holds.
HELPER_MARK: Final = b"from multiprocessing."


async def bounded(name: str, step: Awaitable[Any], seconds: float) -> bool:
    """Await ``step`` for at most ``seconds``; False (and logged) if it overran or failed.

    An overrunning step is cancelled but not awaited: it may be the very task that
    swallows its cancellation (see the module)."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.cancel()
        log.error("stop step overran", step=name, seconds=seconds)
        return False
    if task.cancelled():
        log.error("stop step cancelled", step=name)
        return False
    error = task.exception()
    if error is not None:
        log.error("stop step failed", step=name, error=repr(error))
        return False
    return True


async def drain_tasks(seconds: float) -> list[str]:
    """Cancel every task of the loop but the current one and wait up to ``seconds`` for
    them; the names of those still running (asyncio.run would wait for them forever)."""
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    if not others:
        return []
    _, pending = await asyncio.wait(others, timeout=seconds)
    names = sorted(task.get_name() for task in pending)
    if names:
        log.error("tasks did not stop", tasks=names[:20], count=len(names))
    return names


def flush_log() -> None:
    """Write what the log holds (see service.process.logs.PassLogger) and stderr's buffer:
    before :func:`os._exit`, which runs no atexit handler."""
    logger = structlog.get_config()["logger_factory"]
    flush = getattr(getattr(logger, "logger", None), "flush", None)
    if callable(flush):
        flush()
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        return


def exit_now(code: int, reason: str, **fields: Any) -> None:
    """Log ``reason`` and leave at once with ``code`` (no cleanup, no waiting), taking the
    verify pool's processes along (:func:`end_helpers`)."""
    log.error("exiting now", reason=reason, exit_code=code, **fields)
    flush_log()
    end_helpers()
    os._exit(code)


def _descendants(root: int, proc: Path = PROC) -> list[int]:
    """Every process under ``root`` (Linux: read from /proc; elsewhere none)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in proc.iterdir():
            with contextlib.suppress(OSError, ValueError):
                stat = (entry / "stat").read_text()
                parent = int(stat[stat.rindex(")") + 2 :].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def end_helpers(proc: Path = PROC) -> list[int]:
    """SIGKILL this process's multiprocessing helpers (the verify pool's fork server, its
    workers, the resource tracker); the pids. Without the pool's own shutdown they would
    live on: each pool worker holds both ends of its call queue and the write end of the
    fork server's "alive" pipe, so neither ever reads an end of file (seen after a forced
    exit). The embedded redis-server is not one: its parent-death SIGTERM stops it cleanly."""
    ended = []
    for pid in _descendants(os.getpid(), proc):
        with contextlib.suppress(OSError):
            if HELPER_MARK in (proc / str(pid) / "cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
                ended.append(pid)
    return ended


class Watchdog:
    """A daemon thread that ends the process ``seconds`` after :meth:`arm`, unless it
    exits first. Arming twice keeps the earlier deadline."""

    def __init__(self, exit: Callable[..., None] = exit_now) -> None:
        self._exit = exit
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.deadline: float | None = None

    @property
    def armed(self) -> bool:
        return self._thread is not None

    def arm(self, seconds: float, reason: str) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self.deadline = time.monotonic() + seconds
            self._thread = threading.Thread(
                target=self._watch, args=(seconds, reason), name="stop watchdog", daemon=True
            )
            self._thread.start()

    def _watch(self, seconds: float, reason: str) -> None:
        time.sleep(seconds)
        self._exit(EXIT_FORCED, "stop overran: exiting", stop_reason=reason, seconds=seconds)


class StopSignals:
    """SIGTERM/SIGINT for a serving process: the first begins a bounded stop, a second
    ends the process at once (see the module); :meth:`begin` begins the stop for another
    cause (a worker's supervisor gone) and is no signal. Handlers are Python's own
    (:func:`signal.signal`), which run between two bytecodes of the main thread, not loop
    callbacks, which a blocked loop would never run."""

    def __init__(self, stop_seconds: float, watchdog: Watchdog | None = None) -> None:
        self.stop_seconds = stop_seconds
        self.watchdog = watchdog or Watchdog()
        self.stop = asyncio.Event()
        self.reason: str | None = None
        self.signals = 0  # signals received (a begin() of another cause is not one)
        self._loop = asyncio.get_running_loop()
        self._forced: Callable[..., None] = exit_now

    def install(self, signals: Sequence[signal.Signals]) -> None:
        for sig in signals:
            signal.signal(sig, self._on_signal)

    def _on_signal(self, number: int, _frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        self.signals += 1
        if self.signals > 1:
            self._forced(EXIT_FORCED, "second signal during the stop", signal=name)
            return
        self.begin(f"signal {name}")

    def begin(self, reason: str) -> None:
        """Begin the stop (from any thread): arm the watchdog, wake the loop. Idempotent."""
        if self.reason is None:
            self.reason = reason
        self.watchdog.arm(self.stop_seconds, self.reason)
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing left to stop
            self._loop.call_soon_threadsafe(self.stop.set)


class Steps:
    """The close steps of one stop, each bounded (:func:`bounded`); the names of the ones
    cut at their deadline (or failed) in :attr:`cut`."""

    def __init__(self) -> None:
        self.cut: list[str] = []

    async def run(self, name: str, close: Callable[[], Awaitable[Any]], seconds: float) -> None:
        if not await bounded(name, close(), seconds):
            self.cut.append(name)
