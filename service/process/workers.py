"""`referee serve --workers N`: N referee processes on the same gRPC and HTTP ports.

One referee process runs one event loop, so it uses one core at most. Here a supervisor
(this process, which serves no call) starts ``N`` workers, each a whole referee
(:func:`service.process.server.serve`) bound to the same ports with SO_REUSEPORT: the kernel
spreads new connections over them, a connection stays with the worker that accepted it.
Nothing but Redis is shared, as between replicas behind a load balancer: games are
version-checked in Redis, the deadline firer claims leased deadlines (each applies
once), tournaments are directed under a lease (one director each), watches read Redis
streams, quotas are kept in Redis; only the request-rate bucket of a caller is per
process, so a caller spread over ``N`` connections may get up to ``N`` times it.

The supervisor:

* starts the embedded Redis once (:class:`~service.process.redis_supervisor.Supervisor` keeps it
  alive) and loads or creates the token secret once, and gives each worker the Redis URL
  (with its password) and the secret in its pickled settings on its standard input: never
  on a command line or in the environment, which other users may read (``ps``);
* checks the ports are free (a bind without SO_REUSEPORT: with it, a second supervisor
  of the same user on a port in use would silently share its connections) and picks them
  when they are 0 (a free port); then binds a socket of its own with SO_REUSEPORT, never
  listening (so it is given no connection), held until the end so the port stays
  reserved, and tells every worker the ports;
* waits for every worker to say it serves (one JSON line on its standard output), then
  prints ``referee listening on HOST:PORT`` once, as a single process does;
* restarts a worker that dies (at once the first time, then after a backoff doubling from
  :data:`FIRST_BACKOFF` to :data:`MAX_BACKOFF`); a worker restarted more than
  :data:`MAX_RESTARTS` times in :data:`RESTART_WINDOW` seconds is a fault the supervisor
  cannot mend: it stops everything and exits 1, for the init system or orchestrator to act;
* on SIGTERM or SIGINT, sends SIGTERM to every worker (each stops gracefully: health
  NOT_SERVING, watches end, in-flight calls get ``shutdown_grace_seconds``; every step
  bounded, :mod:`service.process.stopping`), waits, then stops Redis; exit code 0, or 1
  when a worker did not stop cleanly (killed after its grace and
  :data:`STOP_MARGIN_SECONDS`, or its own exit code not 0) or could not start. A second
  signal ends the supervisor at once. Workers ignore SIGINT (a Ctrl-C reaches the whole
  process group) so that the supervisor alone decides.

Workers die with their supervisor, however it dies: each gets SIGTERM from a parent-death
signal, and each keeps its standard input open, whose other end the supervisor holds, so
its end of file (the kernel closes the pipe of a process killed outright) begins the
worker's stop from a thread, with the stop's watchdog armed even if the worker's event
loop is stuck. The embedded redis-server gets the parent-death SIGTERM as well. The brief
on standard input also tells a worker that its ``redis_url`` is the supervisor's embedded
Redis, so that its log lines say ``"redis": "embedded"``.

Metrics: each worker serves its own /metrics, worker ``i`` on ``metrics_port + i``. One
scrape target per worker keeps every metric exact and costs nothing per call;
prometheus_client's multiprocess mode would put every counter in a file shared through a
folder, lose the collectors read at scrape time (the watch stream gauge) and need the
files of dead workers cleaned.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import json
import math
import os
import pickle
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import structlog

from service.domain.auth import load_or_create_secret
from service.edge.connect.app import reusable_socket
from service.process import logs, server
from service.process.announce import announce
from service.process.redis_server import DIR_MODE, EmbeddedRedis, dying_with_parent
from service.process.redis_supervisor import Supervisor
from service.process.server import Running, serve
from service.process.stopping import StopSignals
from service.settings import Settings

log = structlog.get_logger("referee.workers")

# How long a worker may take to serve once started (imports, Redis, binding).
START_SECONDS: Final = 60.0
FIRST_BACKOFF: Final = 0.5
MAX_BACKOFF: Final = 10.0
MAX_RESTARTS: Final = 5
RESTART_WINDOW: Final = 60.0
# What a stopping worker gets beyond its shutdown grace before it is killed: a little more
# than its own watchdog gives it (server.STOP_MARGIN_SECONDS), so that a worker stuck in its
# stop ends itself first and says why.
STOP_MARGIN_SECONDS: Final = server.STOP_MARGIN_SECONDS + 2.0
# What the supervisor's own stop may take beyond that (the embedded Redis' stop) before its
# watchdog ends it.
SUPERVISOR_MARGIN_SECONDS: Final = 15.0
# The length of the brief that precedes the pickled settings on a worker's standard input.
BRIEF_LENGTH_BYTES: Final = 8
CGROUP_CPU_MAX: Final = Path("/sys/fs/cgroup/cpu.max")
# Large enough for any log line but a long traceback, so that a line is one write.
LOG_BUFFER_BYTES: Final = 1 << 16


def host_cores(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """Cores this process may use: its CPU affinity, capped by a cgroup v2 CPU limit
    (a container's ``--cpus`` or a pod's limit, rounded up)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    with contextlib.suppress(OSError, ValueError):
        quota, period = cpu_max.read_text(encoding="ascii").split()
        if quota != "max":
            cores = min(cores, math.ceil(int(quota) / int(period)))
    return max(cores, 1)


def worker_count(settings: Settings) -> int:
    """``settings.workers``, or one per core when it is 0."""
    return settings.workers if settings.workers > 0 else host_cores()


class WorkerFailed(RuntimeError):
    """A worker exited (or said nothing) before it served."""


@dataclass(frozen=True)
class Ready:
    """What a worker says once it serves."""

    pid: int
    port: int
    http_port: int
    metrics_port: int
    worker_port: int = 0  # its own gRPC port (0: none)


@dataclass
class Worker:
    """One slot of the pool: its settings, its current process, its recent restarts."""

    index: int
    settings: Settings
    embedded_redis: bool = False  # the settings' redis_url is the supervisor's embedded one
    process: asyncio.subprocess.Process | None = None
    restarts: deque[float] = field(default_factory=deque)

    async def start(self) -> Ready:
        """Start the worker and wait until it serves (or fails: :class:`WorkerFailed`)."""
        command = [sys.executable, "-m", "service.process.workers", str(self.index)]
        self.process = process = await asyncio.create_subprocess_exec(
            *dying_with_parent(command),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdin is not None
        assert process.stdout is not None
        brief = pickle.dumps({"settings": self.settings, "embedded_redis": self.embedded_redis})
        process.stdin.write(len(brief).to_bytes(BRIEF_LENGTH_BYTES, "big") + brief)
        with contextlib.suppress(ConnectionError):  # it died at once: told below
            await process.stdin.drain()
        # Standard input stays open: the worker takes its end of file for this process's
        # death, however it died (see worker_main).
        try:
            line = await asyncio.wait_for(process.stdout.readline(), START_SECONDS)
        except TimeoutError:
            line = b""
        if not line:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            code = await process.wait()
            raise WorkerFailed(f"worker {self.index} did not start (exit code {code})")
        try:
            return Ready(**json.loads(line))
        except (ValueError, TypeError) as error:
            process.kill()
            await process.wait()
            raise WorkerFailed(f"worker {self.index} said {line[:200]!r}") from error

    def backoff(self) -> float:
        """How long to wait before the next restart (0 for the first in the window)."""
        now = time.monotonic()
        while self.restarts and self.restarts[0] <= now - RESTART_WINDOW:
            self.restarts.popleft()
        recent = len(self.restarts)
        return 0.0 if recent == 0 else min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (recent - 1))


class Pool:
    """The workers: started together, each kept alive, stopped together."""

    def __init__(
        self,
        settings: Settings,
        count: int,
        *,
        embedded_redis: bool = False,
        own_ports: Sequence[int] = (),
    ) -> None:
        def own(index: int) -> Settings:
            metrics = settings.metrics_port + index if settings.metrics_port else 0
            alone = own_ports[index] if own_ports else None
            return dataclasses.replace(settings, metrics_port=metrics, worker_port=alone)

        self.workers = [Worker(index, own(index), embedded_redis) for index in range(count)]
        self.stopping = False
        self.failed = asyncio.Event()  # a worker could not be kept alive

    async def start(self) -> list[Ready]:
        """Start every worker at once; all serve, or :class:`WorkerFailed`."""
        answers = await asyncio.gather(
            *(worker.start() for worker in self.workers), return_exceptions=True
        )
        for worker, answer in zip(self.workers, answers, strict=True):
            if isinstance(answer, BaseException):
                raise WorkerFailed(str(answer)) from answer
            log.info("worker started", worker=worker.index, pid=answer.pid)
        return [answer for answer in answers if isinstance(answer, Ready)]

    async def keep(self, worker: Worker) -> None:
        """Restart ``worker`` whenever it exits, until the pool stops or gives up on it."""
        while True:
            assert worker.process is not None
            code = await worker.process.wait()
            if self.stopping:
                return
            log.error("worker exited", worker=worker.index, pid=worker.process.pid, exit_code=code)
            ready = await self._restart(worker)
            if ready is None:
                if not self.stopping:
                    self.failed.set()
                return
            log.info("worker restarted", worker=worker.index, pid=ready.pid)

    async def _restart(self, worker: Worker) -> Ready | None:
        """Start ``worker`` again (after its backoff); None once it has used up its
        restarts of the window (or the pool is stopping)."""
        while not self.stopping:
            delay = worker.backoff()
            if len(worker.restarts) >= MAX_RESTARTS:
                log.error("worker keeps dying", worker=worker.index, restarts=MAX_RESTARTS)
                return None
            if delay:
                log.warning("worker restart delayed", worker=worker.index, seconds=delay)
                await asyncio.sleep(delay)
            worker.restarts.append(time.monotonic())
            if self.stopping:
                break
            try:
                return await worker.start()
            except WorkerFailed as error:
                log.error("worker restart failed", worker=worker.index, error=str(error))
        return None

    async def stop(self, grace: float) -> bool:
        """SIGTERM every worker, wait for them (killing any still there after ``grace``
        and the margin); True if every one stopped by itself. A worker a restart started
        meanwhile is stopped too."""
        self.stopping = True
        stopped: set[asyncio.subprocess.Process] = set()
        clean = True
        while running := [
            w.process
            for w in self.workers
            if w.process and w.process.returncode is None and w.process not in stopped
        ]:
            stopped.update(running)
            clean = await _stop(running, grace) and clean
        return clean


async def _stop(running: list[asyncio.subprocess.Process], grace: float) -> bool:
    for process in running:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
    waiting = [asyncio.create_task(process.wait()) for process in running]
    _, late = await asyncio.wait(waiting, timeout=grace + STOP_MARGIN_SECONDS)
    for process in running:
        if process.returncode is None:
            log.error("worker killed: it did not stop in time", pid=process.pid)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
    await asyncio.gather(*waiting)
    return not late and all(process.returncode == 0 for process in running)


def whole_lines_on_stderr() -> None:
    """Make each log line one write to stderr, which the supervisor and its workers share:
    with PYTHONUNBUFFERED a line and its newline are two writes, and lines of two processes
    could interleave. Call before :func:`service.process.logs.configure`. (A pipe keeps a write of
    at most 4 KiB whole; a longer line, a traceback, may still be cut by another's.)"""
    sys.stderr.flush()
    binary = open(2, "wb", buffering=LOG_BUFFER_BYTES, closefd=False)  # noqa: SIM115
    sys.stderr = io.TextIOWrapper(binary, errors="backslashreplace", line_buffering=True)


def supervise(settings: Settings, count: int) -> int:
    """Run ``count`` workers until SIGTERM or SIGINT; the exit code."""
    return asyncio.run(_supervise(settings, count))


async def _supervise(settings: Settings, count: int) -> int:
    # A second signal ends the supervisor at once; its workers and Redis follow it (their
    # parent-death signal, and the workers' standard input).
    stopper = StopSignals(
        settings.shutdown_grace_seconds + STOP_MARGIN_SECONDS + SUPERVISOR_MARGIN_SECONDS
    )
    stopper.install((signal.SIGINT, signal.SIGTERM))
    with contextlib.ExitStack() as stack:
        shared, own_ports, redis = _shared(settings, count, stack)
        pool = Pool(shared, count, embedded_redis=settings.redis_url is None, own_ports=own_ports)
        tasks = [asyncio.create_task(redis.run())] if redis is not None else []
        try:
            return await _run(pool, settings, stopper.stop, tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    raise AssertionError("unreachable")  # mypy: the with block always returns


async def _run(
    pool: Pool, settings: Settings, stop: asyncio.Event, tasks: list[asyncio.Task[Any]]
) -> int:
    """Start the pool, say where it serves, keep it until ``stop`` (or a worker it cannot
    keep), stop it; the exit code."""
    try:
        ready = await pool.start()
    except WorkerFailed as error:
        log.error("workers did not start", error=str(error))
        await pool.stop(settings.shutdown_grace_seconds)
        return 1
    where = "embedded" if settings.redis_url is None else "external"
    metrics = [answer.metrics_port for answer in ready if answer.metrics_port]
    own = [answer.worker_port for answer in ready if answer.worker_port]
    announce(settings.host, ready[0].port, where, ready[0].http_port, metrics, own)
    log.info(
        "started",
        workers=len(ready),
        port=ready[0].port,
        worker_ports=own,
        redis=where,
        pid=os.getpid(),
    )
    tasks += [asyncio.create_task(pool.keep(worker)) for worker in pool.workers]
    stopping = asyncio.create_task(stop.wait())
    failing = asyncio.create_task(pool.failed.wait())
    tasks += [stopping, failing]
    await asyncio.wait([stopping, failing], return_when=asyncio.FIRST_COMPLETED)
    why = "signal" if stopping.done() else "a worker could not be kept"
    log.info("stopping", workers=len(ready), reason=why)
    clean = await pool.stop(settings.shutdown_grace_seconds)
    return 0 if clean and not pool.failed.is_set() else 1


def _shared(
    settings: Settings, count: int, stack: contextlib.ExitStack
) -> tuple[Settings, list[int], Supervisor | None]:
    """The workers' settings: Redis (the embedded one started here), the secret, the ports
    (0: reserved here, see the module's docs); each worker's own port (none unless
    ``worker_port`` is set); and the embedded Redis' supervisor."""
    if settings.redis_url is not None and settings.token_secret is None:
        raise SystemExit(
            "REFEREE_TOKEN_SECRET must be set when REDIS_URL is (every replica needs the "
            "same secret); only the embedded default generates one"
        )
    port = _reserved(settings.host, settings.port, stack)
    http_port = settings.http_port
    if http_port is not None:
        http_port = _reserved(settings.host, http_port, stack)
    own_ports = _own_ports(settings, count, {port, http_port}, stack)
    redis_url, supervisor, secret = settings.redis_url, None, settings.token_secret
    if redis_url is None:
        settings.data_dir.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        settings.data_dir.chmod(DIR_MODE)
        embedded = EmbeddedRedis(settings.data_dir / "redis", appendfsync="always")
        supervisor = stack.enter_context(Supervisor(embedded))
        redis_url = embedded.url
        secret = secret or load_or_create_secret(settings.data_dir / "token-secret")
    shared = dataclasses.replace(
        settings,
        redis_url=redis_url,
        token_secret=secret,
        port=port,
        http_port=http_port,
        workers=count,
    )
    return shared, own_ports, supervisor


def _own_ports(
    settings: Settings, count: int, shared: set[int | None], stack: contextlib.ExitStack
) -> list[int]:
    """Each worker's own gRPC port, ``worker_port`` + i (0: free ones), checked free and
    reserved as the shared port is (:func:`_reserved`); none when ``worker_port`` is None.
    A worker restarted binds its port again."""
    base = settings.worker_port
    if base is None:
        return []
    wanted = [base + index if base else 0 for index in range(count)]
    if shared & set(wanted):
        raise SystemExit(f"the workers' own ports {wanted} overlap the shared ones")
    return [_reserved(settings.host, port, stack) for port in wanted]


def _reserved(host: str, port: int, stack: contextlib.ExitStack) -> int:
    """The port the workers share: ``port`` (0: a free one), checked to be free, and held
    (bound with SO_REUSEPORT, never listening) until the stack ends.

    The check binds without SO_REUSEPORT, which fails while anything listens on the port:
    the workers' own sockets would not fail there, so without it a second `referee serve
    --workers` of the same user on the same port would silently share its connections."""
    chosen = bindable(host, port)
    stack.enter_context(reusable_socket(host, chosen))
    return chosen


def bindable(host: str, port: int) -> int:
    """``port`` (0: a free one) if nothing listens on it now; else exit, in one line.

    The probe binds without SO_REUSEPORT, which fails while anything listens there: the
    referee's own sockets (grpc, uvicorn) would fail too, with a traceback instead."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise SystemExit(
                f"referee serve: cannot serve on {host}:{port}: {error.strerror}"
            ) from error
        chosen: int = probe.getsockname()[1]
    return chosen


# --- in a worker --------------------------------------------------------------------------


def _tell_supervisor(settings: Settings, handle: Running) -> None:
    """The one line on standard output the supervisor waits for; later output goes to the
    log (standard error), so that nothing can fill the pipe nobody reads any more."""
    ready = Ready(
        os.getpid(), handle.port, handle.http_port, handle.metrics_port, handle.worker_port
    )
    os.write(1, (json.dumps(dataclasses.asdict(ready)) + "\n").encode())
    os.dup2(2, 1)


def _label(index: int) -> Callable[[Any, str, MutableMapping[str, Any]], Any]:
    def label(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> Any:
        event["worker"] = index
        return event

    return label


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise SystemExit("the supervisor is gone (standard input closed early)")
        data += chunk
    return data


def _read_brief(fd: int = 0) -> dict[str, Any]:
    """What the supervisor wrote on standard input: a length, then the pickled brief
    (settings, and whether its Redis is the supervisor's embedded one). Read with
    :func:`os.read`, no buffering: the rest of the pipe is :func:`_watch_supervisor`'s."""
    length = int.from_bytes(_read_exactly(fd, BRIEF_LENGTH_BYTES), "big")
    brief: dict[str, Any] = pickle.loads(_read_exactly(fd, length))
    return brief


def _watch_supervisor(stopper: StopSignals, fd: int = 0) -> None:
    """Begin the stop when standard input ends: the supervisor holds its other end, and
    the kernel closes it when the supervisor dies, even by SIGKILL. A thread, so that
    the stop's watchdog is armed even if the event loop is blocked."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(fd, 4096):
                pass
        log.warning("supervisor gone: stopping")
        stopper.begin("supervisor gone")

    threading.Thread(target=watch, name="supervisor watch", daemon=True).start()


def worker_main(index: int) -> None:
    """Worker ``index``: its settings from standard input (pickled by the supervisor), then
    serve until SIGTERM, or until the supervisor is gone (its parent-death signal, or the
    end of standard input). Each of its log lines says ``worker``: which one answered a
    call. The stop is bounded (service.process.stopping), and so is the exit code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    brief = _read_brief()
    settings: Settings = brief["settings"]
    whole_lines_on_stderr()
    logs.configure(settings.log_level)
    structlog.configure(processors=[_label(index), *structlog.get_config()["processors"]])
    asyncio.run(
        serve(
            settings,
            on_ready=_tell_supervisor,
            signals=(signal.SIGTERM,),
            embedded_redis=bool(brief["embedded_redis"]),
            on_stopper=_watch_supervisor,
        )
    )


if __name__ == "__main__":
    worker_main(int(sys.argv[1]))
