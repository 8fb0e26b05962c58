"""The faults and their victims: the referee's worker and redis-server processes, found
under the supervisor in ``/proc``, killed, stopped and watched until they are back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from redis.asyncio import Redis
from redis.exceptions import RedisError

from service.process.workers import MAX_RESTARTS, RESTART_WINDOW

HEAL_SECONDS: Final = 60.0  # bound on a worker's or Redis' restart
KILL, REDIS, STOP = "worker SIGKILL", "redis SIGKILL", "worker SIGSTOP"
KINDS: Final = (KILL, REDIS, STOP)


# --- the referee's processes, from /proc ---------------------------------------------------


@dataclass(frozen=True)
class Child:
    pid: int
    name: str
    argv: list[str]


def children(parent: int) -> list[Child]:
    """The live (not zombie) child processes of ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == parent and state != "Z":
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                found.append(Child(int(entry.name), name, [a.decode() for a in argv if a]))
    return found


def workers(supervisor: int) -> dict[int, int]:
    """Worker slot -> pid (``python -m service.process.workers SLOT``)."""
    slots = {}
    for child in children(supervisor):
        if "service.process.workers" in child.argv and child.argv[-1].isdigit():
            slots[int(child.argv[-1])] = child.pid
    return slots


def redis_server(supervisor: int) -> int | None:
    return next((c.pid for c in children(supervisor) if c.name == "redis-server"), None)


def sockets(pid: int, port: int) -> tuple[int, int]:
    """(established, listening) TCP sockets of ``pid`` on local ``port``."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    established = listening = 0
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) != port or fields[9] not in inodes:
                    continue
                established += fields[3] == "01"
                listening += fields[3] == "0A"
    return established, listening


def embedded_redis_url(data_dir: Path) -> str:
    """The embedded server's URL, from its files (the referee never prints it)."""
    redis_dir = data_dir / "redis"
    password = (redis_dir / "redis.password").read_text().strip()
    conf = dict(line.split(" ", 1) for line in (redis_dir / "redis.conf").read_text().splitlines())
    return f"redis://:{password}@127.0.0.1:{conf['port']}/0"


# --- the faults ----------------------------------------------------------------------------


@dataclass
class Fault:
    kind: str
    due: float  # seconds into the run it was planned for
    at: float = 0.0  # monotonic time of the kill, or of the SIGCONT
    late: float = 0.0  # seconds it waited for the one before to heal
    slot: int | None = None  # the worker's slot
    connections: int = 0  # the victim's client connections
    healed: float = 0.0  # seconds to a new process serving (a stop: how long it was stopped)
    moving: float | None = None  # seconds to every table moving again


def schedule(counts: dict[str, int], warmup: float, end: float) -> list[Fault]:
    """The faults evenly spaced over [warmup, end], the kinds interleaved."""
    order = sorted(
        ((number + 0.5) / count, position, kind)
        for position, (kind, count) in enumerate(counts.items())
        for number in range(count)
    )
    gap = (end - warmup) / max(1, len(order))
    return [Fault(kind, warmup + (n + 0.5) * gap) for n, (_, _, kind) in enumerate(order)]


@dataclass
class Chaos:
    supervisor: int
    port: int
    redis: Redis
    stop_seconds: float
    kills: dict[int, list[float]] = field(default_factory=dict)  # slot -> kill times
    stopped: int | None = None  # a SIGSTOPped worker's pid (to SIGCONT whatever happens)

    def victim(self, killing: bool) -> tuple[int, int, int]:
        """(slot, pid, connections) of the worker with most connections; a kill spares a
        worker killed ``MAX_RESTARTS - 1`` times in the supervisor's window, which would
        otherwise stop the whole pool."""
        now = time.monotonic()
        found = []
        for slot, pid in workers(self.supervisor).items():
            recent = [t for t in self.kills.get(slot, []) if t > now - RESTART_WINDOW - 5]
            if not killing or len(recent) < MAX_RESTARTS - 1:
                found.append((sockets(pid, self.port)[0], slot, pid))
        if not found:
            raise RuntimeError(f"no worker to fault among {workers(self.supervisor)}")
        connections, slot, pid = max(found)
        return slot, pid, connections

    async def worker_kill(self, fault: Fault) -> None:
        slot, pid, fault.connections = self.victim(killing=True)
        os.kill(pid, signal.SIGKILL)
        fault.slot, fault.at = slot, time.monotonic()
        self.kills.setdefault(slot, []).append(fault.at)
        fault.healed = await self.healed(lambda: self.serving(slot, pid), fault.at)

    def serving(self, slot: int, old: int) -> bool:
        pid = workers(self.supervisor).get(slot)
        return pid is not None and pid != old and sockets(pid, self.port)[1] > 0

    async def redis_kill(self, fault: Fault) -> None:
        pid = redis_server(self.supervisor)
        if pid is None:
            raise RuntimeError("no redis-server under the supervisor")
        os.kill(pid, signal.SIGKILL)
        fault.at = time.monotonic()
        while redis_server(self.supervisor) in (pid, None):
            await self.wait(fault.at)
        while not await self.pong():
            await self.wait(fault.at)
        fault.healed = time.monotonic() - fault.at

    async def pong(self) -> bool:
        with contextlib.suppress(RedisError, OSError):
            return bool(await self.redis.ping())
        return False

    async def worker_stop(self, fault: Fault) -> None:
        fault.slot, pid, fault.connections = self.victim(killing=False)
        os.kill(pid, signal.SIGSTOP)
        self.stopped, began = pid, time.monotonic()
        try:
            await asyncio.sleep(self.stop_seconds)
        finally:
            self.resume()
        fault.at = time.monotonic()
        fault.healed = fault.at - began

    def resume(self) -> None:
        if self.stopped is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.stopped, signal.SIGCONT)
            self.stopped = None

    async def healed(self, done: Callable[[], bool], since: float) -> float:
        while not done():
            await self.wait(since)
        return time.monotonic() - since

    @staticmethod
    async def wait(since: float) -> None:
        if time.monotonic() - since > HEAL_SECONDS:
            raise RuntimeError(f"not healed in {HEAL_SECONDS:g}s")
        await asyncio.sleep(0.01)

    async def run(self, faults: Sequence[Fault], started: float, stop: asyncio.Event) -> None:
        act = {KILL: self.worker_kill, REDIS: self.redis_kill, STOP: self.worker_stop}
        try:
            for fault in faults:
                ready = time.monotonic()
                await asyncio.sleep(max(0.0, started + fault.due - ready))
                fault.late = max(0.0, ready - (started + fault.due))
                if stop.is_set():
                    return
                await act[fault.kind](fault)
                print(f"  {time.monotonic() - started:6.1f}s {describe(fault)}", flush=True)
        finally:
            self.resume()


def describe(fault: Fault) -> str:
    who = "" if fault.slot is None else f" worker {fault.slot} ({fault.connections} connections)"
    what = "stopped" if fault.kind == STOP else "back"
    late = f", {fault.late:.1f}s late" if fault.late > 0.05 else ""
    return f"{fault.kind}{who}: {what} {fault.healed:.2f}s{late}"
