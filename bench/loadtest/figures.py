"""The load-test figures: many games through 2 referees beside a plain gRPC echo, same run.

``python -m bench.loadtest.figures [--games 200] [--seconds 60] [--transport unary play]``

For each transport, in one run on this machine:

1. the load test (:mod:`bench.loadtest`): ``--games`` concurrent games of The Gang
   (4 seats, heuristic bots) through ``--referees`` ``referee serve`` processes on one
   embedded Redis, ``--warmup`` seconds unmeasured then the rest of ``--seconds`` measured,
   then the full check (every game against Redis, finished ones replayed from their
   revealed seed). ``unary`` seats use ``play_seat`` (ListLegalMoves, SubmitMove, WatchGame);
   ``play`` seats one bidirectional ``Play`` stream each.
2. the matching **echo baseline** (:mod:`bench.echo`): as many echo server processes as
   referees, the same number of client connections per server and the same number of
   concurrent callers (one per seat: games x seats), each calling in a loop with the mean
   SubmitMove request and response sizes measured in step 1: the unary ``Echo`` for
   ``unary``, one ``EchoStream`` per caller (write a request, read its answer) for ``play``.

The tracked figure is accepted moves/s of the load test divided by echo calls/s (goal >=
0.6 of each), with p50/p95/p99 of every RPC and the check's lost, doubled and failed
replays. A markdown table is printed at the end (and written with ``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import grpc.aio

from bench import echo
from bench.common import Row, busy_cores, cpu_seconds, machine, percentile
from bench.e2e import child_env, server_process
from bench.loadtest.config import LoadConfig
from bench.loadtest.report import LoadReport
from bench.loadtest.runner import run_async
from service.settings import DEFAULTS, env_name

GOAL = 0.6
SEATS = 4
CHANNEL_OPTIONS = (("grpc.use_local_subchannel_pool", 1),)
Metadata = tuple[tuple[str, str], ...]


@dataclass
class EchoResult:
    kind: str
    calls: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    measuring: bool = False

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else math.nan

    def ms(self, fraction: float) -> float:
        return percentile(sorted(self.latencies), fraction) * 1000

    def done(self, started: float) -> None:
        if self.measuring:
            self.calls += 1
            self.latencies.append(time.perf_counter() - started)


Worker = Callable[[EchoResult, asyncio.Event], Coroutine[Any, Any, None]]


def unary_worker(channel: grpc.aio.Channel, payload: bytes, md: Metadata) -> Worker:
    call = echo.method(channel)

    async def work(result: EchoResult, stop: asyncio.Event) -> None:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                await call(payload, metadata=md)
            except grpc.aio.AioRpcError:
                result.errors += 1
                continue
            result.done(started)

    return work


def stream_worker(channel: grpc.aio.Channel, payload: bytes, md: Metadata) -> Worker:
    method = echo.stream_method(channel)

    async def work(result: EchoResult, stop: asyncio.Event) -> None:
        call = method(None, metadata=md)
        try:
            while not stop.is_set():
                started = time.perf_counter()
                await call.write(payload)
                if not isinstance(await call.read(), bytes):  # the stream ended (EOF)
                    result.errors += 1
                    return
                result.done(started)
        except grpc.aio.AioRpcError:
            result.errors += 1
        finally:
            call.cancel()

    return work


async def echo_window(
    kind: str,
    servers: Sequence[str],
    callers: int,
    connections: int,
    payload: bytes,
    token_length: int,
    warmup: float,
    seconds: float,
    pids: dict[str, int],
) -> EchoResult:
    """``callers`` concurrent echo loops over ``connections`` channels per server."""
    channels = [
        grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
        for address in servers
        for _ in range(connections)
    ]
    md: Metadata = (("authorization", "Bearer " + "x" * token_length),)
    make = unary_worker if kind == "unary" else stream_worker
    workers = [make(channels[n % len(channels)], payload, md) for n in range(callers)]
    result = EchoResult(kind)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(worker(result, stop)) for worker in workers]
    try:
        await asyncio.sleep(warmup)
        before = {who: cpu_seconds(pid) for who, pid in pids.items()}
        machine_before = busy_cores()
        result.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        result.measuring = False
        result.seconds = time.perf_counter() - started
        after = {who: cpu_seconds(pid) for who, pid in pids.items()}
        used = {who: after[who] - before[who] for who in pids}
        used["others"] = max(0.0, busy_cores() - machine_before - sum(used.values()))
        result.cpu = {who: spent / result.seconds for who, spent in used.items()}
        stop.set()
        await asyncio.wait(tasks, timeout=10)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels:
            await channel.close(None)
    return result


@dataclass
class Pair:
    transport: str
    load: LoadReport
    echo: EchoResult

    @property
    def ratio(self) -> float:
        """Accepted moves/s over echo calls/s: the issue's figure."""
        return self.load.moves_per_second / self.echo.rate if self.echo.rate else math.nan

    @property
    def call_ratio(self) -> float:
        """Every request the referees answered per second over echo calls/s."""
        return self.load.calls_per_second / self.echo.rate if self.echo.rate else math.nan


def load_config(args: argparse.Namespace, transport: str) -> LoadConfig:
    return LoadConfig(
        concurrency=args.games,
        referees=args.referees,
        seconds=args.seconds,
        warmup=args.warmup,
        game=(args.game,),
        seats=SEATS,
        bot=args.bot,
        transport="play" if transport == "play" else "unary",
        connections=args.connections,
        log_level=args.log_level,
        redis_max_connections=args.redis_max_connections or None,
        progress=sys.stderr.isatty(),
    )


def cpu_line(shares: dict[str, float]) -> str:
    return ", ".join(f"{who} {share:.2f}" for who, share in shares.items())


def fmt_ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def markdown(pairs: Sequence[Pair], args: argparse.Namespace, seconds: float) -> str:
    lines = [
        f"`python -m bench.loadtest.figures {' '.join(args.argv)}`".replace(" `", "`"),
        "",
        f"machine: {machine()}; whole run {seconds:.0f} s",
        "",
        "| transport | games (finished) | moves/s | echo calls/s | **ratio** (goal >= 0.6) "
        "| requests/s (ratio) | updates/s | move p50 / p95 / p99 ms | echo p50 / p95 / p99 ms "
        "| lost | doubled | failed replays |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|",
    ]
    for pair in pairs:
        load, check = pair.load, pair.load.check
        submit = load.rpc("SubmitMove" if pair.transport == "unary" else "Play.submit")
        move_ms = (
            " / ".join(fmt_ms(v) for v in (submit.p50_ms, submit.p95_ms, submit.p99_ms))
            if submit
            else "-"
        )
        echo_ms = " / ".join(fmt_ms(pair.echo.ms(q)) for q in (0.5, 0.95, 0.99))
        verdict = "met" if pair.ratio >= GOAL else "not met"
        lines.append(
            f"| {pair.transport} | {load.games_created:,} ({load.games_finished:,}) "
            f"| {load.moves_per_second:,.0f} | {pair.echo.rate:,.0f} "
            f"| **{pair.ratio:.3f}** ({verdict}) "
            f"| {load.calls_per_second:,.0f} ({pair.call_ratio:.2f}) "
            f"| {load.updates_per_second:,.0f} | {move_ms} | {echo_ms} "
            f"| {check.lost if check else '-'} | {check.doubled if check else '-'} "
            f"| {check.failed if check else '-'} |"
        )
    lines += ["", "RPCs (client side; counts: whole run, latencies: measured window):", ""]
    lines += ["| transport | rpc | ok | errors | p50 ms | p95 ms | p99 ms |"]
    lines += ["|---|---|---:|---:|---:|---:|---:|"]
    for pair in pairs:
        for rpc in pair.load.rpcs:
            lines.append(
                f"| {pair.transport} | {rpc.name} | {rpc.ok:,} | {rpc.errors:,} "
                f"| {fmt_ms(rpc.p50_ms)} | {fmt_ms(rpc.p95_ms)} | {fmt_ms(rpc.p99_ms)} |"
            )
    lines += ["", "CPU, share of one core, in the measured windows:", ""]
    for pair in pairs:
        lines.append(f"* {pair.transport} load test: {cpu_line(pair.load.cpu)}")
        lines.append(f"* {pair.transport} echo: {cpu_line(pair.echo.cpu)}")
    return "\n".join(lines)


async def run_pair(
    args: argparse.Namespace, transport: str, echo_servers: list[str], pids: dict[str, int]
) -> Pair:
    print(f"--- {transport}: load test ({args.games} games, {args.seconds:g} s)", flush=True)
    report = await run_async(load_config(args, transport))
    print(report.table(), flush=True)
    request, response = (max(4, round(size)) for size in report.submit_bytes)
    if transport == "play" and report.submit_bytes == (0.0, 0.0):
        request, response = args.play_sizes
    payload = echo.request_bytes(request, response)
    callers = args.games * SEATS
    print(
        f"--- {transport}: echo ({callers} callers, {len(payload)} B requests, {response} B "
        f"responses, {args.echo_seconds:g} s)",
        flush=True,
    )
    result = await echo_window(
        "unary" if transport == "unary" else "stream",
        echo_servers,
        callers,
        args.connections,
        payload,
        token_length=64,
        warmup=args.echo_warmup,
        seconds=args.echo_seconds,
        pids=pids,
    )
    pair = Pair(transport, report, result)
    print(
        f"{transport}: {report.moves_per_second:,.0f} moves/s vs echo {result.rate:,.0f} "
        f"calls/s: ratio {pair.ratio:.3f} (requests answered/s {report.calls_per_second:,.0f}: "
        f"{pair.call_ratio:.2f}); echo p50/p95/p99 "
        f"{result.ms(0.5):.1f}/{result.ms(0.95):.1f}/{result.ms(0.99):.1f} ms; echo CPU "
        f"{cpu_line(result.cpu)}",
        flush=True,
    )
    return pair


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(
        prog="python -m bench.loadtest.figures", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--referees", type=int, default=2, help="referee (and echo) processes")
    parser.add_argument("--seconds", type=float, default=60.0, help="load test time per transport")
    parser.add_argument("--warmup", type=float, default=10.0, help="of which unmeasured")
    parser.add_argument("--echo-seconds", type=float, default=15.0, help="echo measured time")
    parser.add_argument("--echo-warmup", type=float, default=3.0)
    parser.add_argument("--transport", nargs="+", default=["unary", "play"])
    parser.add_argument("--game", default="the_gang")
    parser.add_argument("--bot", default="heuristic", choices=["random", "heuristic"])
    parser.add_argument("--connections", type=int, default=8, help="connections per server")
    parser.add_argument("--log-level", default="warning", help="the referees' log level")
    parser.add_argument(
        "--redis-max-connections",
        type=int,
        default=1024,
        help="each referee's Redis pool (0: the referee's own "
        f"{env_name('redis_max_connections')}, {DEFAULTS.redis_max_connections} unless set; "
        "redis-py's own 100 is too few for 100+ watched games per process)",
    )
    parser.add_argument(
        "--play-sizes",
        type=int,
        nargs=2,
        default=(72, 240),
        metavar=("REQUEST", "RESPONSE"),
        help="echo sizes for play when no unary sizes were measured",
    )
    parser.add_argument("--out", type=Path, help="write the markdown table here")
    parser.add_argument("--json", type=Path, help="write every figure as JSON here")
    args = parser.parse_args(argv)
    args.argv = list(argv if argv is not None else sys.argv[1:])
    started = time.perf_counter()
    env = child_env()
    pairs: list[Pair] = []
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-loadtest-")))
        servers, pids = [], {"loadtest": os.getpid()}
        for n in range(args.referees):
            process, port = stack.enter_context(
                server_process(
                    [sys.executable, "-m", "bench.echo", "--port", "0"], env, work / f"echo{n}.log"
                )
            )
            servers.append(f"127.0.0.1:{port}")
            pids[f"echo-{n}"] = process.pid

        async def everything() -> None:
            for transport in args.transport:
                pairs.append(await run_pair(args, transport, servers, pids))

        asyncio.run(everything())
    table = markdown(pairs, args, time.perf_counter() - started)
    print()
    print(table)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")
    if args.json:
        data = [
            {
                "transport": pair.transport,
                "ratio": pair.ratio,
                "call_ratio": pair.call_ratio,
                "load": pair.load.to_json(),
                "echo": {
                    "calls_per_second": pair.echo.rate,
                    "p50_ms": pair.echo.ms(0.5),
                    "p95_ms": pair.echo.ms(0.95),
                    "p99_ms": pair.echo.ms(0.99),
                    "errors": pair.echo.errors,
                    "cpu": pair.echo.cpu,
                },
            }
            for pair in pairs
        ]
        args.json.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    rows = []
    for pair in pairs:
        rows += [
            Row("loadtest", f"{pair.transport}: moves/s", pair.load.moves_per_second, "moves/s"),
            Row("loadtest", f"{pair.transport}: echo", pair.echo.rate, "calls/s"),
            Row("loadtest", f"{pair.transport}: ratio (goal >= {GOAL})", f"{pair.ratio:.3f}"),
            Row("loadtest", f"{pair.transport}: requests/echo ratio", f"{pair.call_ratio:.2f}"),
        ]
    return rows


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
