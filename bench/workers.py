"""Every core of a host: validated moves/s of ``referee serve --workers 2`` against one worker,
in one run: ``python -m bench.workers [--seconds S]``.

The workload is bench.e2e's referee phase (``--clients`` grpc.aio clients, one connection
each, seats of The Gang submitting random legal moves; only accepted moves count), aimed in
turn at two referees on one real Redis (embedded, ``appendfsync always``, or ``REDIS_URL``):

* **1 worker**: ``referee serve --workers 1``, pinned to ``--referee-cores`` (default: every
  core but the generator's);
* **2 workers**: ``referee serve --workers 2``, not pinned (its supervisor and both workers
  may run on any core).

The load generator (this process) is pinned to ``--generator-core`` (default: the last
core) before it makes its first connection, so both referees face the same generator.
Redis is not pinned. Both referees start first and stay up; their windows alternate
``--rounds`` times (the order swapped every other round, so slow drift in other load hits
both alike), each ``--warmup`` seconds unmeasured and ``--seconds / --rounds`` measured.

What the ratio means depends on the cores there are. With more cores than the generator's
and one worker's, the second worker gets a core of its own and the ratio shows how well the
referee scales out on one host. On a 2-core machine there is no such core: one worker has
core 0 to itself, and the second worker can only take what the generator (on core 1) and
Redis leave of core 1; the ratio then says how much a host with a busy core still gains.
So the report gives the load generator's CPU (a share of one core: near 100 % means it,
not the referee, set the pace) and what other processes on the machine used, and the
server CPU per validated move of both (the cost of the second process per move).
Everything listens on 127.0.0.1 and every child process is stopped when the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import secrets
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.common import Row, machine, print_table
from bench.e2e import (
    Groups,
    Phase,
    RefereeLoad,
    Window,
    child_env,
    process_group,
    redis_url,
    report,
    run_window,
    serve_arguments,
    server_process,
)

GOAL = 1.0  # more than one worker's moves/s: the second worker adds something
# A child that pins itself to the cores in argv[1], then becomes the program in argv[2:].
_PINNED = """\
import os, sys
os.sched_setaffinity(0, {int(core) for core in sys.argv[1].split(",")})
os.execv(sys.argv[2], sys.argv[2:])
"""
NAMES = ("1 worker", "2 workers")


def pinned(cores: set[int], command: list[str]) -> list[str]:
    """``command`` run on ``cores`` only (the affinity is inherited by all its threads)."""
    spec = ",".join(str(core) for core in sorted(cores))
    return [sys.executable, "-c", _PINNED, spec, *command]


def serve_command(work: Path, url: str, workers: int) -> list[str]:
    return [sys.executable, *serve_arguments(work / f"referee-{workers}", url, workers)]


async def measure(
    addresses: dict[str, str], pids: dict[str, int], groups: Groups, args: argparse.Namespace
) -> dict[str, Phase]:
    """Alternate the two referees' windows ``--rounds`` times; their phases."""
    loads = {name: RefereeLoad(address, args) for name, address in addresses.items()}
    windows: dict[str, list[Window]] = {name: [] for name in loads}
    try:
        for load in loads.values():
            await load.open()
        for round_number in range(1, args.rounds + 1):
            order = list(NAMES) if round_number % 2 else list(reversed(NAMES))
            for name in order:
                window = await run_window(
                    loads[name].workers,
                    warmup=args.warmup,
                    seconds=args.seconds / args.rounds,
                    pids=pids,
                    groups=groups,
                )
                windows[name].append(window)
            rates = ", ".join(
                f"{name} {windows[name][-1].stats.ok / windows[name][-1].seconds:,.0f} moves/s"
                for name in NAMES
            )
            print(f"round {round_number}: {rates}", flush=True)
    finally:
        for load in loads.values():
            await load.close()
    return {name: Phase(f"referee, {name}", windows[name]) for name in NAMES}


def run(args: argparse.Namespace) -> dict[str, Phase]:
    """Start Redis and both referees, pin this process, measure, stop them all."""
    cores = sorted(os.sched_getaffinity(0))
    generator = args.generator_core if args.generator_core is not None else cores[-1]
    referee_cores = set(args.referee_cores or [core for core in cores if core != generator])
    referee_cores = referee_cores or {generator}  # a 1-core machine: all on the one core
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-bench-")))
        url, redis_pid = stack.enter_context(redis_url(work, "always"))
        one, one_port = stack.enter_context(
            server_process(
                pinned(referee_cores, serve_command(work, url, 1)), env, work / "one.log"
            )
        )
        two, two_port = stack.enter_context(
            server_process(serve_command(work, url, 2), env, work / "two.log")
        )
        pids = {NAMES[0]: one.pid, NAMES[1]: two.pid, "load generator": os.getpid()}
        groups = {NAMES[1]: process_group(two.pid)}
        if redis_pid is not None:
            pids["redis"] = redis_pid
        os.sched_setaffinity(0, {generator})  # before the first channel: its threads inherit
        print(
            f"1 worker: pid {one.pid} on cores {sorted(referee_cores)}; 2 workers: supervisor "
            f"and workers {groups[NAMES[1]]}, any core; load generator pid {os.getpid()} on core "
            f"{generator}; redis {'embedded, pid ' + str(redis_pid) if redis_pid else 'REDIS_URL'}"
            ", any core",
            flush=True,
        )
        addresses = {NAMES[0]: f"127.0.0.1:{one_port}", NAMES[1]: f"127.0.0.1:{two_port}"}
        return asyncio.run(measure(addresses, pids, groups, args))


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per referee")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the two")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured time per window")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients (seats)")
    parser.add_argument("--seats", type=int, default=4, help="seats per game (3..6)")
    parser.add_argument("--tables", type=int, default=4, help="live games per group of seats")
    parser.add_argument("--generator-core", type=int, help="the load generator's core (last)")
    parser.add_argument(
        "--referee-cores",
        type=int,
        nargs="+",
        help="the 1-worker referee's cores (default: all but the generator's)",
    )
    parser.add_argument("--log-level", default="info", help="the referees' log level (info)")
    args = parser.parse_args(argv)
    if args.clients % args.seats:
        parser.error("--clients must be a multiple of --seats")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")
    print(f"workers: {machine()}", flush=True)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _report(run(args))
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _report(phases: dict[str, Phase]) -> list[Row]:
    one, two = phases[NAMES[0]], phases[NAMES[1]]
    busy = [*NAMES, "redis", "load generator"]
    busy = [who for who in busy if who in one.windows[0].cpu]
    headers = ["phase", "ok calls", "calls/s", "p50 ms", "p95 ms", "p99 ms", "errors"]
    print_table([*headers, "CPU, share of one core"], [report(one, busy), report(two, busy)])
    for phase in (one, two):
        for what, count in phase.errors.most_common():
            share = count / (count + phase.ok)
            print(f"  {phase.name} rejected: {what}: {count:,} ({share:.1%} of SubmitMove calls)")
    ratio = two.rate / one.rate if one.rate else math.nan
    cpu = {name: phases[name].cpu_ms_per_call(name) for name in NAMES}
    generator = {name: phases[name].cpu(busy)["load generator"] for name in NAMES}
    others = {name: phases[name].cpu(busy)["others"] for name in NAMES}
    print(
        f"referee CPU per validated move: 1 worker {cpu[NAMES[0]]:.3f} ms, 2 workers "
        f"{cpu[NAMES[1]]:.3f} ms (supervisor and workers); load generator "
        f"{generator[NAMES[0]]:.0%} / {generator[NAMES[1]]:.0%} of its core; other processes "
        f"{others[NAMES[0]]:.0%} / {others[NAMES[1]]:.0%} of a core"
    )
    verdict = "more" if ratio > GOAL else "NOT more"
    print(
        f"summary: 2 workers {two.rate:,.0f} validated moves/s vs 1 worker {one.rate:,.0f}: "
        f"ratio {ratio:.2f} ({verdict} than one worker; {os.cpu_count()} cores, load "
        f"generator pinned to one, {generator[NAMES[1]]:.0%} busy); p99 "
        f"{two.latency_ms(0.99):.1f} vs {one.latency_ms(0.99):.1f} ms"
    )
    return [
        Row("workers", "validated moves, 1 worker (pinned)", one.rate, "moves/s"),
        Row("workers", "validated moves, 2 workers", two.rate, "moves/s"),
        Row("workers", "ratio 2 workers / 1 worker", f"{ratio:.2f}"),
        Row("workers", "load generator CPU (2 workers)", f"{generator[NAMES[1]]:.0%}"),
    ]


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
