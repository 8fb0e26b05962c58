"""The final report of a load test: a plain-text table, and the same figures as JSON."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.loadtest.check import CheckSummary
from bench.loadtest.metrics import Metrics, RpcStats


@dataclass(frozen=True)
class RpcFigures:
    name: str
    ok: int
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float

    @classmethod
    def of(cls, name: str, stats: RpcStats) -> RpcFigures:
        p50, p95, p99 = stats.quantiles_ms()
        return cls(name, stats.ok, sum(stats.errors.values()), p50, p95, p99)


@dataclass
class LoadReport:
    """Every figure of one run. ``ok``: the check passed and no driver failed."""

    setup: str
    machine: str
    referees: list[str]
    redis: str
    seconds: float  # the measured window
    games_created: int
    games_finished: int
    moves: int  # accepted in the measured window
    moves_total: int
    moves_per_second: float
    duplicates: int
    conflicts: int
    retries: int
    watch_streams: int
    watch_messages: int
    calls_per_second: float  # requests answered (unary calls, Play requests) in the window
    updates_per_second: float  # watch / Play updates received in the window
    rpcs: list[RpcFigures]
    errors: dict[str, int]
    driver_errors: dict[str, int]
    submit_bytes: tuple[float, float]  # mean request, response
    redis_used_memory: tuple[int, int]  # before, after
    redis_keys: int
    bytes_per_game: float
    cpu: dict[str, float]  # share of one core per process over the measured window
    check: CheckSummary | None
    games_stopped: int = 0  # still live when the time was up
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return (self.check is None or self.check.ok) and not self.driver_errors

    def rpc(self, name: str) -> RpcFigures | None:
        return next((figures for figures in self.rpcs if figures.name == name), None)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["ok"] = self.ok
        return data

    def write_json(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2, default=str) + "\n", "utf-8")

    def table(self) -> str:
        lines = [
            f"load test: {self.setup}",
            f"machine: {self.machine}",
            f"referees {', '.join(self.referees)}; redis {self.redis}",
            "",
            f"games        created {self.games_created:,}, finished {self.games_finished:,}, "
            f"in play when the time was up {self.games_stopped:,}",
            f"moves        {self.moves:,} accepted in {self.seconds:.1f} s measured = "
            f"{self.moves_per_second:,.1f} moves/s ({self.moves_total:,} in all)",
            f"conflicts    {self.conflicts:,} ABORTED; retries {self.retries:,} (same "
            f"client_move_id sent again); duplicates answered {self.duplicates:,}",
            f"calls        {self.calls_per_second:,.0f} requests answered/s, "
            f"{self.updates_per_second:,.0f} updates received/s (measured window)",
            f"watch        {self.watch_streams:,} streams, {self.watch_messages:,} updates",
            f"SubmitMove   mean request {self.submit_bytes[0]:.0f} B, "
            f"response {self.submit_bytes[1]:.0f} B",
            "",
        ]
        rows = [
            [
                figures.name,
                f"{figures.ok:,}",
                f"{figures.errors:,}",
                _ms(figures.p50_ms),
                _ms(figures.p95_ms),
                _ms(figures.p99_ms),
            ]
            for figures in self.rpcs
        ]
        lines += aligned(["rpc", "ok", "errors", "p50 ms", "p95 ms", "p99 ms"], rows)
        lines.append("")
        for what, count in sorted(self.errors.items(), key=lambda item: -item[1]):
            lines.append(f"error        {what}: {count:,}")
        for what, count in sorted(self.driver_errors.items(), key=lambda item: -item[1]):
            lines.append(f"DRIVER ERROR {what}: {count:,}")
        before, after = self.redis_used_memory
        lines.append(
            f"redis        used_memory (less client buffers) {before / 1e6:.1f} MB -> "
            f"{after / 1e6:.1f} MB, "
            f"{self.redis_keys:,} keys; {self.bytes_per_game:,.0f} bytes per game created"
        )
        if self.cpu:
            shares = ", ".join(f"{who} {share:.2f}" for who, share in self.cpu.items())
            lines.append(f"cpu          cores used while measured: {shares}")
        check = self.check
        if check is None:
            lines.append("check        skipped (--no-check)")
        else:
            lines.append(
                f"check        {check.games:,} games, {check.moves:,} logged moves: "
                f"{check.verified:,} finished games verified from the revealed seed, "
                f"{check.live:,} live games checked against Redis"
            )
            lines.append(
                f"             failed replays {check.failed}, lost moves {check.lost}, "
                f"doubled moves {check.doubled}, phantom moves {check.phantom}, "
                f"in-doubt moves applied once {check.in_doubt_applied}"
            )
            lines += [f"  problem: {problem}" for problem in check.problems]
        lines.append(f"result       {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def aligned(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A plain table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = str(cells[0]).ljust(widths[0])
        rest = (str(cell).rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    return [line(header), line(["-" * width for width in widths]), *map(line, rows)]


def rpc_figures(metrics: Metrics) -> list[RpcFigures]:
    order = ["CreateGame", "GetView", "ListLegalMoves", "SubmitMove", "ValidateMove"]
    names = sorted(
        metrics.rpcs, key=lambda name: (order.index(name) if name in order else 99, name)
    )
    return [RpcFigures.of(name, metrics.rpcs[name]) for name in names]


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores ({model}), {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()} {platform.release()}"
    )
