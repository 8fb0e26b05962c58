"""The servers of bench.peers as measured: one :class:`Side` each, and their windows.

A window runs one side alone: ``warmup`` seconds unmeasured, then ``seconds`` measured,
with the CPU seconds of every process of the run (``/proc``) and of the whole machine
taken at both ends, so each side's server and driver CPU, and what all *other*
processes used, come from the same instants.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bench.common import busy_cores, cpu_seconds
from bench.e2e import Phase, Stats, Window, run_window
from bench.peers.node import Driver
from bench.peers.referee import UnaryLoad
from bench.play_stream import TableLoad


@dataclass
class Side:
    """One server and its load generator: which processes are which, the windows so far
    and the updates its seats received in each."""

    name: str
    server: tuple[str, ...]  # names of the run's processes that are this server
    driver: str  # the name of its load generator's process
    windows: list[Window] = field(default_factory=list)
    updates: list[int] = field(default_factory=list)

    @property
    def phase(self) -> Phase:
        return Phase(self.name, self.windows)

    def cpu_ms(self, names: Sequence[str], per: int) -> float:
        """CPU milliseconds of ``names`` in all windows, per ``per`` (moves or updates)."""
        spent = sum(w.cpu.get(name, math.nan) for w in self.windows for name in names)
        return spent * 1000 / per if per else math.nan

    @property
    def server_ms(self) -> float:
        """Server CPU per accepted move (every process of the server, added up)."""
        return self.cpu_ms(self.server, self.phase.ok)

    @property
    def update_ms(self) -> float:
        """Server CPU per update its seats received."""
        return self.cpu_ms(self.server, sum(self.updates))

    @property
    def driver_ms(self) -> float:
        return self.cpu_ms([self.driver], self.phase.ok)

    def share(self, names: Sequence[str]) -> float:
        """Share of one core ``names`` used while measured."""
        return self.cpu_ms(names, 1) / 1000 / self.phase.seconds

    @property
    def others(self) -> float:
        """Share of one core every process not of this run used while measured."""
        ours = sum(sum(w.cpu.values()) for w in self.windows)
        return max(0.0, (sum(w.machine for w in self.windows) - ours) / self.phase.seconds)


def snapshot(pids: Mapping[str, int]) -> tuple[dict[str, float], float]:
    return {who: cpu_seconds(pid) for who, pid in pids.items()}, busy_cores()


async def node_window(
    driver: Driver, *, warmup: float, seconds: float, pids: Mapping[str, int]
) -> tuple[Window, int]:
    """One measured window of a peer: its driver plays, counts, reports, then rests."""
    driver.command("run")
    try:
        await asyncio.sleep(warmup)
        before, machine_before = snapshot(pids)
        started = asyncio.get_running_loop().time()
        driver.command("measure")
        await asyncio.sleep(seconds)
        report = driver.command("report")
        elapsed = asyncio.get_running_loop().time() - started
        after, machine_after = snapshot(pids)
    finally:
        driver.command("pause", timeout=30.0)
    stats = Stats(
        ok=int(report["moves"]),
        latencies=[ms / 1000 for ms in report["latencies_ms"]],
        errors=Counter({str(k): int(v) for k, v in report["failures"].items()}),
    )
    window = Window(
        stats=stats,
        seconds=elapsed,
        cpu={who: after[who] - before[who] for who in pids},
        machine=machine_after - machine_before,
    )
    return window, int(report["updates"])


async def play_window(
    load: TableLoad, *, warmup: float, seconds: float, pids: Mapping[str, int]
) -> tuple[Window, int]:
    """One measured window of the referee's Play tables; the updates its streams got."""
    before = load.tally.updates
    window = await run_window(load.workers, warmup=warmup, seconds=seconds, pids=pids)
    return window, load.tally.updates - before


async def unary_window(
    load: UnaryLoad, *, warmup: float, seconds: float, pids: Mapping[str, int]
) -> tuple[Window, int]:
    """One measured window of the referee's SubmitMove tables; each answer carries the
    mover's view, its one update (nobody else is sent one)."""
    window = await run_window(load.workers, warmup=warmup, seconds=seconds, pids=pids)
    return window, window.stats.ok
