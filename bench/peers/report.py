"""What bench.peers prints: the checks, every round's windows, the table and the ratios."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bench.common import Row, print_table
from bench.peers.referee import Check
from bench.peers.sides import Side

# The ratios the issue tracks: referee CPU per accepted move over each peer's.
RATIOS = (
    ("referee Play", "boardgame.io"),
    ("referee unary", "boardgame.io"),
    ("referee Play", "Colyseus"),
    ("referee unary", "Colyseus"),
)


def print_checks(server: str, checks: Sequence[Check], notes: Sequence[str]) -> int:
    """Print one server's checks and notes; how many failed."""
    failed = [check for check in checks if not check.ok]
    print(f"checks of {server}: {len(checks) - len(failed)}/{len(checks)} passed")
    for check in checks:
        print(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}")
    for note in notes:
        print(f"  note: {note}")
    return len(failed)


def print_round(number: int, sides: Sequence[Side]) -> None:
    """The latest window of every side."""
    parts = []
    for side in sides:
        window = side.windows[-1]
        ok = window.stats.ok
        server = sum(window.cpu[name] for name in side.server if name in window.cpu)
        others = max(0.0, window.machine - sum(window.cpu.values())) / window.seconds
        parts.append(
            f"{side.name} {ok / window.seconds:,.0f} moves/s, server "
            f"{server * 1000 / max(ok, 1):.3f} ms CPU/move, driver "
            f"{window.cpu[side.driver] * 1000 / max(ok, 1):.3f}, others {others:.0%}"
        )
    print(f"round {number}: " + "; ".join(parts), flush=True)


def _row(side: Side) -> list[str]:
    phase = side.phase
    shares = (side.share(side.server), side.share([side.driver]), side.others)
    return [
        side.name,
        f"{phase.ok:,}",
        f"{phase.rate:,.0f}",
        f"{phase.latency_ms(0.5):.2f}",
        f"{phase.latency_ms(0.99):.2f}",
        f"{sum(side.updates) / phase.seconds:,.0f}",
        f"{side.server_ms:.3f}",
        f"{side.update_ms:.3f}",
        f"{side.driver_ms:.3f}",
        " / ".join(f"{share:.0%}" for share in shares),
        f"{sum(phase.errors.values()):,}",
    ]


def ratio(sides: Mapping[str, Side], referee: str, peer: str) -> float:
    theirs = sides[peer].server_ms
    return sides[referee].server_ms / theirs if theirs else math.nan


def summarise(sides: Sequence[Side], games: Mapping[str, tuple[int, int]], redis: str) -> list[Row]:
    """Print the table, the load generators against their servers, and the ratios."""
    print_table(
        [
            "server",
            "moves",
            "moves/s",
            "p50 ms",
            "p99 ms",
            "updates/s",
            "CPU ms/move",
            "ms/update",
            "driver ms/move",
            "server/driver/others",
            "errors",
        ],
        [_row(side) for side in sides],
    )
    print(
        "CPU ms/move: the server's CPU per accepted move (referee + its redis-server, "
        f"{redis}; a peer's node process); ms/update: per update its seats received; "
        "driver: the load generator's CPU per move; the last shares are of one core"
    )
    for side in sides:
        for what, count in side.phase.errors.most_common():
            print(f"  {side.name}: {what}: {count:,}")
        cheaper = "cheaper" if side.driver_ms < side.server_ms else "NOT cheaper"
        print(
            f"  {side.name}: load generator {side.driver_ms:.3f} ms per move, "
            f"{side.driver_ms / side.server_ms:.2f} of the server's ({cheaper})"
        )
    for name, (created, finished) in games.items():
        print(f"  {name}: tables created {created:,}, played to the cut {finished:,}")
    by_name = {side.name: side for side in sides}
    rows = [Row("peers", f"{side.name} moves/s", side.phase.rate, "moves/s") for side in sides]
    rows += [Row("peers", f"{side.name} CPU per move", side.server_ms, "ms") for side in sides]
    for ours, theirs in RATIOS:
        value = ratio(by_name, ours, theirs)
        print(
            f"ratio {ours} / {theirs}, server CPU per accepted move: {value:.2f} "
            f"({by_name[ours].server_ms:.3f} / {by_name[theirs].server_ms:.3f} ms)"
        )
        rows.append(Row("peers", f"CPU per move {ours} / {theirs}", value))
    return rows
