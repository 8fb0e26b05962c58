"""Many tables at human pace on one referee: ``python -m bench.capacity [--tables 250,500]``.

The hosting figure: how many tables one ``referee serve`` process holds while people play
at them. A private redis-server (embedded, started here; or ``REDIS_URL``) and the referee
in its own process; then, for each count N of ``--tables`` in turn (a ramp: the tables of a
step stay open into the next), N tables of Gang of Four at 4 seats, each seat on its own
``Play`` stream and one spectator ``WatchGame`` per table (5 streams per table), all opened
by ``--procs`` load-generator processes, each with one grpc.aio channel (one HTTP/2
connection) per ``--per-channel`` streams. Every table makes a move every ``--interval``
seconds on average (Poisson: exponential gaps, on a schedule of its own that a slow answer
does not push back). A move is made by the seat whose turn the views show: it asks for its
legal moves over its Play stream and submits one of them at random (seeded) with
``expected_version`` -- no bot logic, so the generator stays cheap. Tables are ``listed``
(lobby tables, as people sit at: their seats hold presence leases and the feed reads
presence) unless ``--unlisted``.

Each step runs ``--warmup`` seconds unmeasured, then ``--seconds`` measured, and reports:

* move p50/p99: a move's ``submit`` written to its ``move_result`` read (the referee's
  answer), for moves submitted in the window;
* stream lag: for each move answered in the window, the time from that answer to each of
  its table's 5 streams receiving the update of its version (0 for the mover's own stream,
  whose update comes first); a stream is *behind* when its lag p99 is over 1 s, it missed a
  version, or it got a snapshot replacing updates (the referee's QUEUE_LIMIT);
* the referee's RSS per table (``VmRSS`` less the RSS before any table), Redis
  ``connected_clients`` (less this script's own), and the CPU (share of one core) of the
  referee, Redis, the load generator and every other process on the machine.

The figure is the largest N with move p99 <= 100 ms, no stream behind and no error (goal:
N >= 2,000). Loopback callers have no quotas by default (``Settings.loopback_quotas``: no
watch-stream or request-rate limit), so the benchmark needs no operator key; the
generators raise their open-files limit as the referee does. ``--py-spy FILE`` samples the
referee during the last step's measured window and prints its hotspots. Everything binds
127.0.0.1 and every process started here stops when the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import multiprocessing
import os
import random
import re
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc

from bench.common import busy_cores, cpu_seconds, machine, percentile, print_table
from bench.e2e import (
    child_env,
    hotspots,
    process_group,
    py_spy,
    redis_url,
    serve_arguments,
    server_process,
)
from referee.v1 import referee_pb2, referee_pb2_grpc
from service.edge.connect.app import raise_open_files_limit

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

GOAL_TABLES = 2_000
P99_GOAL_MS = 100.0
LAG_LIMIT_S = 1.0
SEATS = 4
STREAMS_PER_TABLE = SEATS + 1
CHANNEL_OPTIONS = (("grpc.use_local_subchannel_pool", 1),)
OPEN_CONCURRENCY = 64
_FAILED = itertools.count()  # streams that ended early in this process (the first are shown)


# --- one table, as the load generator holds it ---------------------------------------------


@dataclass(eq=False)
class Stream:
    """One stream of a table: when each version reached it, and what it was sent."""

    seen: dict[int, float] = field(default_factory=dict)
    last: int = -1
    replaced: int = 0  # snapshots at a newer version than the last seen (updates dropped)
    turn: int = 0
    over: bool = False
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    error: str | None = None  # how the stream ended early, if it did

    def fail(self, what: str, error: grpc.aio.AioRpcError) -> None:
        self.error = f"{what} {error.code().name}: {error.details()}"
        self.opened.set()
        if next(_FAILED) < 3:
            print(f"a stream ended: {self.error}", file=sys.stderr, flush=True)

    def take(self, update: referee_pb2.WatchGameResponse, now: float) -> None:
        if self.opened.is_set() and update.snapshot and update.version > self.last:
            self.replaced += 1
        self.seen[update.version] = now
        self.last = max(self.last, update.version)
        self.turn = update.view.gang_of_four.turn
        self.over = self.over or update.view.HasField("outcome")
        self.opened.set()


@dataclass(eq=False)
class Seat:
    """A seat's Play stream: its call, and the answer its one request in flight waits for."""

    stream: Stream
    call: Any = None  # grpc.aio.StreamStreamCall
    waiting: asyncio.Future[referee_pb2.PlayResponse] | None = None

    async def ask(self, request: referee_pb2.PlayRequest) -> referee_pb2.PlayResponse:
        self.waiting = asyncio.get_running_loop().create_future()
        await self.call.write(request)
        return await self.waiting


@dataclass
class Window:
    """What one generator saw in a measured window."""

    moves: list[float] = field(default_factory=list)  # submit -> answer, seconds
    answered: list[tuple[int, int, float]] = field(default_factory=list)  # table, version, at
    rejected: int = 0
    errors: int = 0


@dataclass(eq=False)
class Table:
    game_id: str
    seats: list[Seat]
    spectator: Stream
    rng: random.Random
    moves: Iterator[int] = field(default_factory=itertools.count)

    @property
    def streams(self) -> list[Stream]:
        return [seat.stream for seat in self.seats] + [self.spectator]

    async def move(self, window: Window | None) -> None:
        """The seat to act lists its moves and submits one; timed from the submit."""
        turn = self.seats[0].stream.turn
        for seat in [self.seats[(turn + n) % SEATS] for n in range(SEATS)]:
            listed = await seat.ask(
                referee_pb2.PlayRequest(list_legal_moves=referee_pb2.PlayRequest.ListLegalMoves())
            )
            if listed.WhichOneof("kind") == "legal_moves" and listed.legal_moves.moves:
                break
        else:
            return
        submit = referee_pb2.PlayRequest.Submit(
            move=self.rng.choice(listed.legal_moves.moves),
            client_move_id=f"m{next(self.moves)}",
            expected_version=listed.legal_moves.version,
        )
        started = time.monotonic()
        answer = await seat.ask(referee_pb2.PlayRequest(submit=submit))
        done = time.monotonic()
        if window is None:
            return
        if answer.WhichOneof("kind") == "move_result":
            window.moves.append(done - started)
            window.answered.append((id(self), answer.move_result.version, done))
        else:
            window.rejected += 1


async def _read_play(seat: Seat) -> None:
    try:
        async for response in seat.call:
            if response.WhichOneof("kind") == "update":
                seat.stream.take(response.update, time.monotonic())
            elif seat.waiting is not None and not seat.waiting.done():
                seat.waiting.set_result(response)
    except grpc.aio.AioRpcError as error:
        seat.stream.fail("Play", error)
        if seat.waiting is not None and not seat.waiting.done():
            seat.waiting.set_exception(error)  # the table's mover stops with it


async def _read_watch(stub: RefereeServiceAsyncStub, game_id: str, s: Stream) -> None:
    try:
        async for update in stub.WatchGame(referee_pb2.WatchGameRequest(game_id=game_id)):
            s.take(update, time.monotonic())
    except grpc.aio.AioRpcError as error:
        s.fail("WatchGame", error)


# --- one load-generator process --------------------------------------------------------------


class Generator:
    """The tables of one generator process, their streams and their movers."""

    def __init__(self, address: str, index: int, args: argparse.Namespace) -> None:
        self.address = address
        self.index = index
        self.args = args
        self.channels: list[grpc.aio.Channel] = []
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.window: Window | None = None
        self.failures = 0

    def stub(self) -> RefereeServiceAsyncStub:
        """The stub for the next table's streams: a new channel every ``--per-channel``."""
        per_channel = max(1, self.args.per_channel // STREAMS_PER_TABLE)
        if len(self.tables) >= len(self.channels) * per_channel:
            self.channels.append(grpc.aio.insecure_channel(self.address, options=CHANNEL_OPTIONS))
        return referee_pb2_grpc.RefereeServiceStub(self.channels[-1])

    async def open_table(self, stub: RefereeServiceAsyncStub, number: int) -> None:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="gang_of_four", seats=SEATS, allow_spectators=True, listed=self.args.listed
            )
        )
        seats = [Seat(Stream()) for _ in range(SEATS)]
        for seat, token in zip(seats, created.seat_tokens, strict=True):
            seat.call = stub.Play(None, metadata=(("authorization", f"Bearer {token.token}"),))
            await seat.call.write(
                referee_pb2.PlayRequest(join=referee_pb2.PlayRequest.Join(game_id=created.game_id))
            )
            self._run(_read_play(seat))
        rng = random.Random(f"capacity-{self.args.seed}-{self.index}-{number}")
        table = Table(created.game_id, seats, Stream(), rng)
        self._run(_read_watch(stub, created.game_id, table.spectator))
        for stream in table.streams:
            await stream.opened.wait()
        self.tables.append(table)  # a stream that failed counts as an error (and behind)
        self._run(self._mover(table))

    def _run(self, job: Any) -> None:
        task = asyncio.create_task(job)
        task.add_done_callback(self._done)
        self.tasks.append(task)

    def _done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if not isinstance(error, grpc.aio.AioRpcError):  # a stream's: counted by it
                self._failed(repr(error))

    def _failed(self, what: str) -> None:
        self.failures += 1
        if self.failures <= 3:
            print(f"generator {self.index}: {what}", file=sys.stderr, flush=True)

    async def _mover(self, table: Table) -> None:
        at = time.monotonic() + table.rng.expovariate(1 / self.args.interval)
        while not table.seats[0].stream.over:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            window = self.window
            await table.move(window)
            at += table.rng.expovariate(1 / self.args.interval)

    async def grow(self, count: int) -> None:
        """Open tables until this generator has ``count``, a few at a time."""
        numbers = iter(range(len(self.tables), count))

        async def opener() -> None:
            for number in numbers:
                try:
                    await self.open_table(self.stub(), number)
                except grpc.aio.AioRpcError as error:
                    self._failed(f"CreateGame {error.code().name}: {error.details()}")

        await asyncio.gather(*(opener() for _ in range(OPEN_CONCURRENCY)))

    def lags(self, answered: Sequence[tuple[int, int, float]], now: float) -> list[list[float]]:
        """Per stream: the lag of each answered version (a missed one counts until ``now``)."""
        by_id = {id(table): table for table in self.tables}
        lags: dict[int, list[float]] = {}
        for table_id, version, at in answered:
            for stream in by_id[table_id].streams:
                got = stream.seen.get(version, now)
                lags.setdefault(id(stream), []).append(max(0.0, got - at))
        return list(lags.values())

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(channel.close(None) for channel in self.channels))


async def _serve(conn: Connection, address: str, index: int, args: argparse.Namespace) -> None:
    """Answer the parent's commands: grow N, start (a window), stop (its results), quit."""
    generator = Generator(address, index, args)
    loop = asyncio.get_running_loop()
    cpu0 = 0.0
    try:
        while True:
            command, value = await loop.run_in_executor(None, conn.recv)
            if command == "grow":
                await generator.grow(value)
                conn.send(("grown", len(generator.tables)))
            elif command == "start":
                generator.window, cpu0 = Window(), cpu_seconds(os.getpid())
                conn.send(("started", None))
            elif command == "stop":
                window, generator.window = generator.window, None
                cpu = cpu_seconds(os.getpid()) - cpu0
                await asyncio.sleep(LAG_LIMIT_S * 2)  # the last moves' updates on their way
                assert window is not None
                lags = generator.lags(window.answered, time.monotonic())
                replaced = sum(s.replaced for t in generator.tables for s in t.streams)
                broken = sum(s.error is not None for t in generator.tables for s in t.streams)
                result = (
                    window.moves,
                    lags,
                    window.rejected,
                    replaced,
                    generator.failures + broken,
                    cpu,
                )
                conn.send(("stopped", result))
            else:
                break
    finally:
        await generator.close()


def generator_main(conn: Connection, address: str, index: int, args: argparse.Namespace) -> None:
    raise_open_files_limit()
    asyncio.run(_serve(conn, address, index, args))


# --- the run -------------------------------------------------------------------------------


@dataclass
class Step:
    """One measured step of the ramp."""

    tables: int
    seconds: float
    moves: list[float]
    stream_lags: list[list[float]]
    rejected: int
    replaced: int
    failures: int
    cpu: dict[str, float]  # share of one core
    rss_per_table_kib: float
    redis_clients: int

    @property
    def p99_ms(self) -> float:
        return percentile(sorted(self.moves), 0.99) * 1000 if self.moves else math.nan

    @property
    def behind(self) -> int:
        late = sum(1 for lags in self.stream_lags if percentile(sorted(lags), 0.99) > LAG_LIMIT_S)
        return late + self.replaced

    @property
    def held(self) -> bool:
        ok = self.p99_ms <= P99_GOAL_MS and not self.behind and not self.failures
        return bool(self.moves) and ok


def rss_bytes(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) * 1024 if match else 0


def redis_clients(url: str) -> int:
    """``connected_clients`` of the Redis at ``url``, less this call's own connection."""
    import redis

    with redis.Redis.from_url(url) as client:
        return int(client.info("clients")["connected_clients"]) - 1


class Ramp:
    """The generator processes, driven step by step from this process."""

    def __init__(self, address: str, args: argparse.Namespace) -> None:
        context = multiprocessing.get_context("spawn")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for index in range(args.procs):
            ours, theirs = context.Pipe()
            proc = context.Process(
                target=generator_main, args=(theirs, address, index, args), daemon=True
            )
            proc.start()
            self.conns.append(ours)
            self.procs.append(proc)

    def ask(self, command: str, values: Sequence[Any]) -> list[Any]:
        for conn, value in zip(self.conns, values, strict=True):
            conn.send((command, value))
        return [conn.recv()[1] for conn in self.conns]

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send(("quit", None))
        for proc in self.procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()


def _cpu(pids: tuple[int, ...]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def _rss(pids: tuple[int, ...]) -> int:
    return sum(rss_bytes(pid) for pid in pids)


def measure_step(
    ramp: Ramp,
    tables: int,
    args: argparse.Namespace,
    pids: dict[str, tuple[int, ...]],
    base: int,
    url: str,
) -> Step:
    shares = [tables // args.procs + (i < tables % args.procs) for i in range(args.procs)]
    started = time.monotonic()
    ramp.ask("grow", shares)
    print(f"  {tables:,} tables open ({time.monotonic() - started:.0f} s)", flush=True)
    time.sleep(args.warmup)
    before = {who: _cpu(group) for who, group in pids.items()}
    machine0, clock0 = busy_cores(), time.monotonic()
    ramp.ask("start", [None] * args.procs)
    spy = py_spy(pids["referee"][-1], args.seconds, Path(args.py_spy), args.native)
    with spy if args.py_spy and tables == args.tables[-1] else contextlib.nullcontext():
        time.sleep(args.seconds)
        results = ramp.ask("stop", [None] * args.procs)
        seconds = time.monotonic() - clock0 - LAG_LIMIT_S * 2
        cpu = {who: (_cpu(group) - before[who]) / seconds for who, group in pids.items()}
        busy = (busy_cores() - machine0) / seconds
    cpu["load generator"] = sum(result[5] for result in results) / seconds
    cpu["others"] = max(0.0, busy - sum(cpu.values()))
    return Step(
        tables=tables,
        seconds=seconds,
        moves=[m for result in results for m in result[0]],
        stream_lags=[lags for result in results for lags in result[1]],
        rejected=sum(result[2] for result in results),
        replaced=sum(result[3] for result in results),
        failures=sum(result[4] for result in results),
        cpu=cpu,
        rss_per_table_kib=(_rss(pids["referee"]) - base) / tables / 1024,
        redis_clients=redis_clients(url),
    )


def row(step: Step) -> list[str]:
    moves = sorted(step.moves)
    lags = sorted(lag for lags in step.stream_lags for lag in lags)
    cpu = ", ".join(f"{who} {share:.2f}" for who, share in step.cpu.items())
    return [
        f"{step.tables:,}",
        f"{len(moves) / step.seconds:,.0f}",
        f"{percentile(moves, 0.5) * 1000:.1f}" if moves else "-",
        f"{step.p99_ms:.1f}",
        f"{percentile(lags, 0.99) * 1000:.0f}" if lags else "-",
        f"{step.behind}",
        f"{step.rejected + step.failures}",
        f"{step.rss_per_table_kib:.0f}",
        f"{step.redis_clients}",
        cpu,
    ]


def report(steps: Sequence[Step]) -> None:
    headers = ["tables", "moves/s", "p50 ms", "p99 ms", "lag p99 ms", "behind", "errors"]
    headers += ["RSS KiB/table", "redis conns", "CPU, share of one core"]
    print_table(headers, [row(step) for step in steps])
    held = [step.tables for step in steps if step.held]
    largest = max(held, default=0)
    verdict = "met" if largest >= GOAL_TABLES else "NOT met"
    print(
        f"summary: largest N held {largest:,} tables ({largest * SEATS:,} seat streams + "
        f"{largest:,} spectators) with move p99 <= {P99_GOAL_MS:.0f} ms and no stream behind; "
        f"goal N >= {GOAL_TABLES:,}: {verdict}"
    )


def run(args: argparse.Namespace) -> list[Step]:
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-capacity-")))
        url, redis_pid = stack.enter_context(redis_url(work, "everysec"))
        serve = serve_arguments(work, url, args.workers)
        referee, port = stack.enter_context(
            server_process([sys.executable, *serve], env, work / "referee.log")
        )
        # With --workers N: the supervisor and its workers, counted as one referee (CPU,
        # RSS); py-spy samples the last worker.
        group = (referee.pid,) if args.workers == 1 else process_group(referee.pid)
        pids = {"referee": group}
        if redis_pid is not None:
            pids["redis"] = (redis_pid,)
        print(f"referee pids {group} on 127.0.0.1:{port}; redis pid {redis_pid}", flush=True)
        time.sleep(1.0)
        base = _rss(group)
        ramp = Ramp(f"127.0.0.1:{port}", args)
        stack.callback(ramp.close)
        steps = []
        for tables in args.tables:
            steps.append(measure_step(ramp, tables, args, pids, base, url))
            print("  " + "  ".join(row(steps[-1])), flush=True)
            if not steps[-1].held and not args.keep_going:
                break
        return steps


def _counts(text: str) -> list[int]:
    return sorted(int(part) for part in text.split(",") if part.strip())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=_counts, default=_counts("100,250,500"))
    parser.add_argument("--seconds", type=float, default=15.0, help="measured, per step")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured, per step")
    parser.add_argument("--interval", type=float, default=5.0, help="mean seconds per move")
    parser.add_argument("--procs", type=int, default=1, help="load-generator processes")
    parser.add_argument("--per-channel", type=int, default=50, help="streams per channel")
    parser.add_argument("--unlisted", dest="listed", action="store_false")
    parser.add_argument("--keep-going", action="store_true", help="go on after a failed step")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--workers", type=int, default=1, help="referee serve --workers N (1: one process)"
    )
    parser.add_argument("--py-spy", default="", help="sample the referee in the last step")
    parser.add_argument("--native", action="store_true", help="py-spy: native frames too")
    args = parser.parse_args(argv)
    print(f"capacity: {machine()}")
    print(
        f"Gang of Four, {SEATS} Play streams + 1 WatchGame per table, a move every "
        f"{args.interval:g} s per table (Poisson), {'listed' if args.listed else 'unlisted'} "
        f"tables; {args.procs} generator process(es), {args.per_channel} streams per "
        f"channel; steps {args.tables}, {args.warmup:g} s warm-up + {args.seconds:g} s each",
        flush=True,
    )
    steps = run(args)
    if args.py_spy and Path(args.py_spy).exists():
        hotspots([Path(args.py_spy)])
    report(steps)
    if steps and statistics.fmean(step.cpu["others"] for step in steps) > 0.3:
        print("note: other processes used the machine meanwhile; rerun on a quiet one")


if __name__ == "__main__":
    main()
