"""The run: the referee, the load and the faults together, then the figures."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from redis.asyncio import Redis

from bench.common import Row, machine, print_table
from bench.e2e import child_env, server_process
from bench.faults.clients import Channels, Load, Table, run_table
from bench.faults.processes import (
    KILL,
    KINDS,
    REDIS,
    STOP,
    Chaos,
    Fault,
    embedded_redis_url,
    schedule,
)
from bench.faults.witnesses import Verdict, baseline, moving_again, spread, witness


def make_tables(args: argparse.Namespace) -> list[Table]:
    """``--tables`` tables, one in ``--gang-every`` of them The Gang (3 seats)."""
    every = args.gang_every
    return [
        Table(n, "the_gang", 3) if every and n % every == every - 1 else Table(n, "gang_of_four", 4)
        for n in range(args.tables)
    ]


@dataclass
class Run:
    """What one run saw."""

    load: Load
    tables: list[Table]
    faults: list[Fault]
    verdict: Verdict
    started: float  # monotonic
    elapsed: float


async def drive(args: argparse.Namespace, supervisor: int, port: int, data_dir: Path) -> Run:
    """The load, the faults during it, then the witnesses."""
    counts = {KILL: args.worker_kills, REDIS: args.redis_kills, STOP: args.stops}
    faults = schedule(counts, args.warmup, args.seconds - args.settle)
    tables = make_tables(args)
    redis = Redis.from_url(embedded_redis_url(data_dir), protocol=2, socket_timeout=10)
    channels = Channels(f"127.0.0.1:{port}", args.channels, args.reconnect_seconds)
    load = Load(channels, args.rpc_timeout, args.pace)
    chaos = Chaos(supervisor, port, redis, args.stop_seconds)
    try:
        started = time.monotonic()
        playing = [asyncio.create_task(run_table(load, table)) for table in tables]
        rotating = asyncio.create_task(channels.rotate(load.stop))
        breaking = asyncio.create_task(chaos.run(faults, started, load.stop))
        await asyncio.wait([breaking], timeout=args.seconds)
        if not breaking.done() or breaking.exception() is None:  # else stop now and raise it
            await asyncio.sleep(max(0.0, started + args.seconds - time.monotonic()))
        load.stop.set()
        elapsed = time.monotonic() - started
        await asyncio.gather(*playing, rotating, breaking)
        for fault in faults:
            fault.moving = moving_again(tables, fault.at) if fault.at else None
        verdict = await witness(redis, f"127.0.0.1:{port}", tables)
    finally:
        chaos.resume()
        await channels.close()
        await redis.aclose()
    return Run(load, tables, faults, verdict, started, elapsed)


def quiet_stretches(run: Run, settle: float) -> list[tuple[float, float]]:
    """The stretches without a fault: the warm-up, and the settle after the last heal."""
    done = [fault for fault in run.faults if fault.at]
    end = run.started + run.elapsed
    first = min((fault.at for fault in done), default=end) - 1
    last = max((fault.at + fault.healed for fault in done), default=end - settle) + 5
    return [(run.started + 2, first), (last, end - 1)]


def report(run: Run, settle: float) -> list[Row]:
    verdict = run.verdict
    lost = f"{verdict.lost_store} / {verdict.lost_history}"
    rows = [
        Row("faults", "acknowledged moves", run.load.acked),
        Row("faults", "lost (Redis log / GetHistory)", lost),
        Row("faults", "doubled", str(verdict.doubled)),
        Row("faults", "anomalies", str(len(run.load.anomalies) + len(verdict.problems))),
    ]
    for kind in KINDS:
        done = [fault for fault in run.faults if fault.kind == kind and fault.at]
        moving = [fault.moving for fault in done if fault.moving is not None]
        label = "stopped for" if kind == STOP else "new process serving after"
        since = "SIGCONT" if kind == STOP else "the kill"
        rows += [
            Row("faults", f"{kind}: count", str(len(done))),
            Row("faults", f"{kind}: tables moving again after {since}", spread(moving)),
            Row("faults", f"{kind}: {label}", spread([fault.healed for fault in done])),
        ]
    base = baseline(run.tables, quiet_stretches(run, settle))
    rows.append(Row("faults", "no fault: tables moving again (baseline)", spread(base)))
    return rows


def summary(run: Run) -> None:
    load, verdict, elapsed = run.load, run.verdict, run.elapsed
    print(
        f"\n{load.acked:,} moves acknowledged in {elapsed:.0f} s ({load.acked / elapsed:,.0f}/s) "
        f"in {verdict.games:,} games ({verdict.finished:,} finished), {verdict.logged:,} logged; "
        f"{load.resent:,} calls sent again, {load.duplicates:,} answered duplicate; "
        f"{verdict.in_doubt} moves never answered ({verdict.in_doubt_applied} of them logged, "
        "once)"
    )
    print("transient failures:", dict(load.failures.most_common()))
    for line in [*load.anomalies, *verdict.problems][:30]:
        print("  ANOMALY", line)


@contextlib.contextmanager
def referee(args: argparse.Namespace, work: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``referee serve --workers N`` on its embedded Redis in ``work``; stopped on exit."""
    env = {k: v for k, v in child_env().items() if k != "REDIS_URL"}
    env["REFEREE_LOG_LEVEL"] = args.log_level
    command = [sys.executable, "-m", "service.process.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", "0", "--http-port", "0", "--allow-client-seeds"]
    command += ["--data-dir", str(work / "data"), "--workers", str(args.workers)]
    with server_process(command, env, work / "referee.log") as started:
        yield started


def failed(run: Run) -> bool:
    verdict = run.verdict
    return bool(
        verdict.lost_store + verdict.lost_history + verdict.doubled
        or run.load.anomalies
        or verdict.problems
    )


def execute(args: argparse.Namespace, work: Path) -> int:
    with referee(args, work) as (proc, port):
        print(f"referee serve --workers {args.workers}: port {port}, in {work}", flush=True)
        os.nice(args.nice)  # after the referee started: its processes keep their priority
        run = asyncio.run(drive(args, proc.pid, port, work / "data"))
        alive = proc.poll() is None
    log = (work / "referee.log").read_text(errors="replace")
    restarts = f"{log.count('worker restarted')} / {log.count('embedded redis restarted')}"
    print(f"\n=== faults ({machine()})")
    summary(run)
    rows = [*report(run, args.settle), Row("faults", "restarts logged (worker / redis)", restarts)]
    print("(times: min / median / max)")
    print_table(["figure", "value"], [[row.metric, row.formatted()] for row in rows], left=1)
    if not alive:
        print("the referee's supervisor exited during the run (see referee.log)")
    return 1 if failed(run) or not alive else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    work = Path(tempfile.mkdtemp(prefix="referee-faults-"))
    code = 1
    try:
        code = execute(args, work)
    finally:
        if code == 0 and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"data folder and referee.log kept in {work}")
    print("result:", "ok" if code == 0 else "FAILED")
    return code


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.faults",
        description="Acknowledged, lost and doubled moves of referee serve --workers 2 while "
        "workers and the embedded Redis are killed (see bench/faults/__init__.py).",
    )
    add = parser.add_argument
    add("--seconds", type=float, default=180.0, help="length of the load (180)")
    add("--worker-kills", type=int, default=15, help="SIGKILLs of a worker (15)")
    add("--redis-kills", type=int, default=15, help="SIGKILLs of the embedded Redis (15)")
    add("--stops", type=int, default=3, help="SIGSTOPs of a worker (3)")
    add("--stop-seconds", type=float, default=3.0, help="how long a worker stays stopped (3)")
    add("--workers", type=int, default=2, help="referee serve --workers (2)")
    add("--tables", type=int, default=128, help="tables played at once (128)")
    add("--gang-every", type=int, default=4, help="one table in N plays The Gang (4; 0: none)")
    add("--channels", type=int, default=16, help="client connections (16)")
    add("--reconnect-seconds", type=float, default=20.0, help="a connection's life (20)")
    add("--rpc-timeout", type=float, default=2.0, help="deadline of each try of a call (2)")
    add("--pace", type=float, default=0.0, help="least seconds between a table's moves (0)")
    add("--warmup", type=float, default=5.0, help="seconds before the first fault (5)")
    add("--settle", type=float, default=10.0, help="seconds after the last fault (10)")
    add("--nice", type=int, default=10, help="this load generator's niceness increment (10)")
    add("--log-level", default="info", help="the referee's log level (info: a line per call)")
    add("--keep", action="store_true", help="keep the data folder and log")
    return parser.parse_args(argv)
