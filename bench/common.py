"""Shared pieces of the benchmarks: result rows, percentiles, machine facts, CPU clocks."""

from __future__ import annotations

import math
import os
import platform
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.loadtest.metrics import percentile  # one definition, shared with the load test
from service.domain.quotas import Quotas
from service.settings import Settings

__all__ = [
    "PlayoutRate",
    "Row",
    "busy_cores",
    "cpu_model",
    "cpu_seconds",
    "machine",
    "percentile",
    "print_table",
]


@dataclass(frozen=True)
class Row:
    """One headline figure for the summary table of ``python -m bench``."""

    bench: str
    metric: str
    value: float | str
    unit: str = ""

    def formatted(self) -> str:
        if isinstance(self.value, str):
            return self.value
        if self.value >= 100:
            return f"{self.value:,.0f}"
        return f"{self.value:,.3g}" if self.value < 10 else f"{self.value:,.1f}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> str:
    """One line: cores, CPU model, Python and OS, for the top of every report."""
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return (
        f"{os.cpu_count()} cores ({cpu_model()}), {python}, "
        f"{platform.system()} {platform.release()}"
    )


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds used so far by process ``pid`` (all its threads).

    Linux only (``/proc/<pid>/stat``); NaN elsewhere or once the process is gone.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return math.nan
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = stat.rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / _CLOCK_TICKS


def busy_cores() -> float:
    """CPU seconds the whole machine has been busy (all cores, any process) since boot.

    From ``/proc/stat``: everything but idle and iowait. NaN when unavailable.
    """
    try:
        first = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0]
    except OSError:
        return math.nan
    ticks = [int(value) for value in first.split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    # guest time (fields 9 and 10) is already counted in user and nice
    return (sum(ticks[:8]) - idle) / _CLOCK_TICKS


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> None:
    """A plain text table on stdout: the first ``left`` columns left-aligned, the rest right."""
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.ljust(width) if index < left else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))
    sys.stdout.flush()


@dataclass(frozen=True)
class PlayoutRate:
    """Whole games played one after another: how many, their moves, the time they took."""

    games: int
    moves: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games


def local_settings(redis_url: str, data_dir: Path) -> Settings:
    """A referee for a benchmark: free ports on loopback, quiet logs, client seeds allowed
    (benchmarks replay fixed deals)."""
    return Settings(
        redis_url=redis_url,
        data_dir=data_dir,
        port=0,
        http_port=0,
        token_secret=b"bench-secret-0123456789",
        log_level="warning",
        allow_client_seeds=True,
        loopback_quotas=Quotas(),  # the load generator is on loopback: as `./dev serve`
    )
