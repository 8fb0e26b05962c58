"""End-to-end referee throughput against a plain gRPC echo: ``python -m bench.e2e [--seconds S]``.

Two phases in one run, with the same process layout, the same clients and the same bytes:

1. **referee**: a real ``redis-server`` (embedded, started here; or ``REDIS_URL``), the
   referee in its own process (``python -m service.process.cli serve --port 0
   --allow-client-seeds``), and this process as the load generator: ``--clients`` grpc.aio
   clients (16), each one seat of The Gang. Clients come in groups of ``--seats``; a group
   shares ``--tables`` games, in each of which its clients hold seats 0..seats-1, so the
   load spreads over many games. A client picks one of its group's live games at random and
   submits a random move that is legal by what the group last heard of that game (the chips
   in the views SubmitMove answered), without ``expected_version``. A finished game is
   replaced by a new one (fixed seeds). Only accepted moves count as validated moves;
   rejections (the view was stale: another seat moved first) are reported by status code
   and ErrorInfo reason.
2. **echo**: ``python -m bench.echo`` in its own process, the same number of clients, each
   calling a unary bytes echo with the mean request and response sizes measured in phase 1
   and an ``authorization`` header of the token's length.

All servers start first and stay up; the phases then alternate ``--rounds`` times (so slow
changes in other load on the machine hit both alike), each window ``--warmup`` seconds
unmeasured and ``--seconds / --rounds`` measured. A call counts if it completes inside a
measured window. The tracked figure is the ratio of the two rates (goal: referee/echo >=
0.6). CPU seconds of every process (``/proc``) are reported too, with what all *other*
processes on the machine used meanwhile, and the server CPU per answered call, which other
load disturbs much less than the rates. Everything listens on 127.0.0.1 and every child
process is stopped when the run ends, whatever happens.

``--clock`` adds a third phase to every round: the same referee workload on tables created
with a turn clock (``Clock(move_seconds=3600)``: no deadline comes due during the run), by
its own clients on its own games of the same seeds, so the clock machinery's cost per move
is the difference between the two referee rows (docs/benchmarks.md, "Turn clocks").

``--workers N`` runs the referee as ``referee serve --workers N`` (N processes on one port,
service.process.workers); its CPU is then its supervisor's and workers' added up. The default, 1, is
the single process measured so far (bench.workers compares 1 and 2 with the load generator
pinned to a core of its own).

``--echo-redis`` makes the echo await one Redis ``PING`` per call (bench.echo
``--await-redis``, on the same Redis): the floor of any server with one awaited Redis round
trip per call, to read the referee's figure against.

``--py-spy FILE`` samples the referee with py-spy during its measured windows and prints the
hotspots; ``--cprofile FILE`` runs the referee under cProfile instead (much slower: the
figures of such a run are not comparable).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import os
import pstats
import random
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import grpc
from google.rpc import error_details_pb2, status_pb2

from bench import echo
from bench.common import Row, busy_cores, cpu_seconds, machine, percentile, print_table
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, table_pb2, the_gang_pb2
from service.process.redis_server import AppendFsync, dying_with_parent
from service.settings import DEFAULTS, env_name

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

REPO = Path(__file__).resolve().parents[1]
GOAL = 0.6
# The ``--clock`` tables' clock: a move limit no seat reaches during a run, so no deadline
# fires; what is measured is the clock state kept with each move and the deadline indexed.
BENCH_CLOCK = table_pb2.Clock(move_seconds=3600)
PR_SET_PDEATHSIG = 1
READY = re.compile(r"listening on \S+:(\d+)")
# One HTTP/2 connection per client, as separate players would have: without a local
# subchannel pool, gRPC shares one connection between channels with the same target.
CHANNEL_OPTIONS = (("grpc.use_local_subchannel_pool", 1),)

TG = the_gang_pb2.TheGangMove
Metadata = tuple[tuple[str, str], ...]


# --- measuring ----------------------------------------------------------------------------


@dataclass
class Stats:
    """What the clients saw in one window; only calls completing while ``measuring`` count."""

    measuring: bool = False
    ok: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    request_bytes: int = 0
    response_bytes: int = 0
    sized: int = 0

    def success(self, latency: float) -> None:
        if self.measuring:
            self.ok += 1
            self.latencies.append(latency)

    def failure(self, what: str) -> None:
        if self.measuring:
            self.errors[what] += 1


@dataclass(frozen=True)
class Window:
    """One measured window: the clients' stats, its length and the CPU seconds spent in it."""

    stats: Stats
    seconds: float
    cpu: dict[str, float]  # process -> CPU seconds
    machine: float  # CPU seconds of the whole machine, every process


@dataclass(frozen=True)
class Phase:
    """The windows of one kind (referee or echo), added up."""

    name: str
    windows: list[Window]

    @property
    def ok(self) -> int:
        return sum(w.stats.ok for w in self.windows)

    @property
    def seconds(self) -> float:
        return sum(w.seconds for w in self.windows)

    @property
    def rate(self) -> float:
        return self.ok / self.seconds

    @property
    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for w in self.windows:
            total.update(w.stats.errors)
        return total

    def latency_ms(self, fraction: float) -> float:
        merged = sorted(x for w in self.windows for x in w.stats.latencies)
        return percentile(merged, fraction) * 1000

    def cpu_ms_per_call(self, who: str) -> float:
        """CPU milliseconds process ``who`` spent per successful call (rejections included
        in the cost, not in the count)."""
        return sum(w.cpu[who] for w in self.windows) * 1000 / max(self.ok, 1)

    def cpu(self, busy: Sequence[str]) -> dict[str, float]:
        """Share of one core per process in ``busy``, and ``others``: every other process on
        the machine (other users, py-spy), which the figures do not want."""
        tracked = [who for who in busy if who in self.windows[0].cpu]  # REDIS_URL: not ours
        shares = {who: sum(w.cpu[who] for w in self.windows) / self.seconds for who in tracked}
        ours = sum(sum(w.cpu.values()) for w in self.windows)
        shares["others"] = max(0.0, (sum(w.machine for w in self.windows) - ours) / self.seconds)
        return shares


Worker = Callable[[Stats, asyncio.Event], Coroutine[Any, Any, None]]
# Processes whose CPU time is counted as one (the supervisor and the workers of `referee
# serve --workers N`), by name; a name here stands for its group, not for its pid alone.
Groups = Mapping[str, tuple[int, ...]]


def counted(pids: Mapping[str, int], groups: Groups | None) -> dict[str, tuple[int, ...]]:
    """Each measured name and the processes its CPU time adds up."""
    return {who: (pid,) for who, pid in pids.items()} | dict(groups or {})


def group_cpu(pids: tuple[int, ...]) -> float:
    """CPU seconds of a group of processes, added up."""
    return sum(cpu_seconds(pid) for pid in pids)


def process_group(pid: int) -> tuple[int, ...]:
    """``pid`` and its child processes (the workers of a `referee serve --workers N`)."""
    children = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            stat = (proc / "stat").read_text(encoding="ascii")
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                children.append(int(proc.name))
    return (pid, *sorted(children))


async def run_window(
    workers: Sequence[Worker],
    *,
    warmup: float,
    seconds: float,
    pids: Mapping[str, int],
    during: Callable[[], contextlib.AbstractContextManager[None]] | None = None,
    groups: Groups | None = None,
) -> Window:
    """Run ``workers`` concurrently: ``warmup`` seconds, then a measured window, then stop.
    CPU is measured for each of ``pids``, and for each of ``groups`` added up."""
    measured = counted(pids, groups)
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(worker(stats, stop)) for worker in workers]
    try:
        await asyncio.sleep(warmup)
        for task in tasks:
            if task.done():
                task.result()  # a worker that died during warm-up: raise its error now
        with during() if during else contextlib.nullcontext():
            before = {who: group_cpu(group) for who, group in measured.items()}
            machine_before = busy_cores()
            stats.measuring = True
            started = time.perf_counter()
            await asyncio.sleep(seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - started
            machine_after = busy_cores()
            after = {who: group_cpu(group) for who, group in measured.items()}
        stop.set()
        _, pending = await asyncio.wait(tasks, timeout=10)
        for task in pending:
            task.cancel()
        for task in tasks:
            if not task.cancelled():
                task.result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Window(
        stats=stats,
        seconds=elapsed,
        cpu={who: after[who] - before[who] for who in measured},
        machine=machine_after - machine_before,
    )


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """``CODE`` or ``CODE REASON`` (the ErrorInfo reason in the rich status, if any)."""
    code = error.code().name
    trailing: Any = error.trailing_metadata()  # grpc.aio.Metadata: (key, value) pairs
    for key, value in trailing or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return f"{code} {info.reason}"
    return code


# --- child processes ----------------------------------------------------------------------


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(REPO), str(REPO / "clients" / "python")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    # One referee process unless a benchmark asks for more (bench.workers, --workers).
    env.setdefault("REFEREE_WORKERS", "1")
    # The load generator calls from loopback, which has no quotas in `./dev serve` only.
    env.setdefault("REFEREE_LOOPBACK_QUOTAS", "unlimited")
    return env


@contextlib.contextmanager
def server_process(
    command: list[str], env: dict[str, str], log_path: Path, timeout: float = 60.0
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """Start a server that prints ``... listening on HOST:PORT``; yield it and its port.

    It is stopped on exit: SIGTERM (graceful), then SIGKILL after 15 seconds.
    """
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            dying_with_parent(command),
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
        )
    try:
        yield proc, _wait_for_port(proc, log_path, timeout)
    finally:
        stop_process(proc, signal.SIGTERM, 15)
        if proc.stdout is not None:
            proc.stdout.close()


def stop_process(proc: subprocess.Popen[bytes], sent: int, seconds: float) -> None:
    """Send ``sent`` to ``proc`` if it still runs, and kill it if it has not ended after
    ``seconds``."""
    if proc.poll() is None:
        proc.send_signal(sent)
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def add_referee_options(parser: argparse.ArgumentParser) -> None:
    """``--log-level`` and ``--appendfsync``: the referee's and its embedded Redis'."""
    parser.add_argument(
        "--log-level",
        default=DEFAULTS.log_level,
        help=f"the referee's {env_name('log_level')} (default {DEFAULTS.log_level}: a line "
        "per RPC)",
    )
    parser.add_argument(
        "--appendfsync",
        choices=get_args(AppendFsync),
        default="always",
        help="the embedded Redis' appendfsync (default always, the referee's own; ignored "
        "with REDIS_URL)",
    )


def _wait_for_port(proc: subprocess.Popen[bytes], log_path: Path, timeout: float) -> int:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        ready, _, _ = select.select([proc.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
            match = READY.search(seen.decode("utf-8", "replace"))
            if match:
                return int(match.group(1))
    tail = log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
    raise RuntimeError(
        f"{proc.args!r} did not start (exit code {proc.poll()}): "
        f"{seen.decode(errors='replace')}\n{tail}"
    )


@contextlib.contextmanager
def redis_url(work: Path, appendfsync: AppendFsync) -> Iterator[tuple[str, int | None]]:
    """``REDIS_URL`` if set (pid unknown), else an embedded redis-server of our own."""
    external = os.environ.get("REDIS_URL")
    if external:
        yield external, None
        return
    from service.process.redis_server import EmbeddedRedis

    with EmbeddedRedis(work / "redis", appendfsync=appendfsync) as embedded:
        yield embedded.url, embedded.pid


@contextlib.contextmanager
def py_spy(pid: int, seconds: float, output: Path, native: bool) -> Iterator[None]:
    """Sample ``pid`` with py-spy for ``seconds`` (collapsed stacks into ``output``)."""
    binary = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    command = [
        binary,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(math.ceil(seconds)),
        "--rate",
        "200",
        "--format",
        "raw",
        "--output",
        str(output),
    ]
    # Non-blocking sampling does not pause the referee; native stacks need the pause.
    command.append("--native" if native else "--nonblocking")
    try:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as error:
        print(f"py-spy not started ({error}); pip install py-spy")
        yield
        return
    try:
        yield
    finally:
        try:
            _, err = proc.communicate(timeout=seconds + 30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        if proc.returncode != 0:
            print(f"py-spy failed ({proc.returncode}): {err.decode(errors='replace')[-500:]}")


def merged_py_spy(output: Path, rounds: int) -> None:
    """Join the per-round samples (``output.1`` ...) into ``output`` and print hotspots."""
    parts = [Path(f"{output}.{n}") for n in range(1, rounds + 1)]
    parts = [part for part in parts if part.exists()]
    output.write_text(
        "".join(part.read_text(encoding="utf-8", errors="replace") for part in parts),
        encoding="utf-8",
    )
    for part in parts:
        part.unlink()
    hotspots([output])


def serve_arguments(data_dir: Path, url: str, workers: int) -> list[str]:
    """``python`` arguments of the benchmarks' referee: ``referee serve`` on free loopback
    ports, on ``url``, client seeds allowed, ``workers`` processes."""
    return [
        *("-m", "service.process.cli", "serve", "--host", "127.0.0.1", "--port", "0"),
        *("--http-port", "0", "--allow-client-seeds", "--redis-url", url),
        *("--data-dir", str(data_dir), "--workers", str(workers)),
    ]


def hotspots(collapsed: Sequence[Path], top: int = 15, label: str = "the referee") -> None:
    """Print where the sampled process spent its time (self by line, inclusive by function)."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = 0
    for path in collapsed:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            count = int(count_text)
            total += count
            frames = stack.split(";")
            own[frames[-1]] += count
            for function in {re.sub(r":\d+\)$", ")", frame) for frame in frames}:
                within[function] += count
    if not total:
        print("py-spy recorded no samples")
        return
    print(f"py-spy: {total} samples of {label} (busy time only, all threads)")
    print_table(
        ["self time: line", "share"],
        [[frame, f"{count / total:.1%}"] for frame, count in own.most_common(top)],
    )
    print_table(
        ["inclusive time: function", "share"],
        [[frame, f"{count / total:.1%}"] for frame, count in within.most_common(top + 15)],
    )


# --- phase 1: the referee -----------------------------------------------------------------


@dataclass(eq=False)
class Slot:
    """One game of a group, as its clients last heard of it."""

    game_id: str
    metadata: list[Metadata]  # per seat: the authorization header
    seats: int
    version: int = 0
    round: the_gang_pb2.ChipColour.ValueType = the_gang_pb2.CHIP_COLOUR_WHITE
    holders: list[int | None] = field(default_factory=list)
    finished: bool = False

    def learn(self, reply: referee_pb2.SubmitMoveResponse) -> None:
        if reply.version <= self.version:
            return  # an older answer overtaken by a newer one
        view = reply.view
        self.version = reply.version
        self.round = view.the_gang.round
        current = view.the_gang.chips[-1].chips  # rows of this heist, the current one last
        self.holders = [chip.holder if chip.HasField("holder") else None for chip in current]
        self.finished = view.HasField("outcome")

    def random_move(self, seat: int, rng: random.Random) -> game_pb2.Move:
        """Uniform among the moves legal by what we know: take any chip not ours, or
        return the one we hold."""
        choices = [(stars, holder == seat) for stars, holder in enumerate(self.holders, 1)]
        stars, mine = rng.choice(choices)
        if mine:
            return game_pb2.Move(
                the_gang=TG(return_chip=TG.ReturnChip(colour=self.round, stars=stars))
            )
        return game_pb2.Move(the_gang=TG(take_chip=TG.TakeChip(colour=self.round, stars=stars)))


@dataclass
class Group:
    """``seats`` clients sharing ``tables`` games; client ``i`` holds seat ``i`` in each."""

    index: int
    seats: int
    stub: RefereeServiceAsyncStub
    slots: list[Slot | None]
    clock: table_pb2.Clock | None = None
    created: int = 0
    finished: int = 0

    async def create(self) -> Slot:
        seed = f"bench-e2e-{self.index}-{self.created}".encode()
        self.created += 1
        request = referee_pb2.CreateGameRequest(game="the_gang", seats=self.seats, seed=seed)
        if self.clock is not None:
            request.options.clock.CopyFrom(self.clock)
        reply = await self.stub.CreateGame(request)
        metadata: list[Metadata] = [
            (("authorization", f"Bearer {t.token}"),) for t in reply.seat_tokens
        ]
        return Slot(reply.game_id, metadata, self.seats, holders=[None] * self.seats)

    async def fill(self) -> None:
        for index, slot in enumerate(self.slots):
            if slot is None:
                self.slots[index] = await self.create()

    async def replace(self, slot: Slot) -> None:
        """Swap a finished game for a new one (once, whoever noticed first)."""
        if slot not in self.slots:
            return
        index = self.slots.index(slot)
        self.slots[index] = None
        self.finished += 1
        self.slots[index] = await self.create()

    def pick(self, rng: random.Random) -> Slot | None:
        live = [slot for slot in self.slots if slot is not None and not slot.finished]
        return rng.choice(live) if live else None


def seat_worker(group: Group, seat: int, stub: RefereeServiceAsyncStub, name: str) -> Worker:
    rng = random.Random(name)
    move_ids = itertools.count(1)  # client_move_id stays unique across windows

    async def work(stats: Stats, stop: asyncio.Event) -> None:
        while not stop.is_set():
            slot = group.pick(rng)
            if slot is None:
                await asyncio.sleep(0.001)
                continue
            sent = next(move_ids)
            request = referee_pb2.SubmitMoveRequest(
                game_id=slot.game_id,
                move=slot.random_move(seat, rng),
                client_move_id=f"{name}-{sent}",
            )
            started = time.perf_counter()
            try:
                reply = await stub.SubmitMove(request, metadata=slot.metadata[seat])
            except grpc.aio.AioRpcError as error:
                what = reason_of(error)
                stats.failure(what)
                if what.endswith(("GAME_OVER", "GAME_NOT_FOUND")):
                    slot.finished = True
                    await group.replace(slot)
                continue
            stats.success(time.perf_counter() - started)
            if stats.measuring and sent % 16 == 0:
                stats.request_bytes += request.ByteSize()
                stats.response_bytes += reply.ByteSize()
                stats.sized += 1
            slot.learn(reply)
            if slot.finished:
                await group.replace(slot)

    return work


class RefereeLoad:
    """The referee's clients: one connection per seat, groups of seats sharing games (on
    tables with ``clock``, if given)."""

    def __init__(
        self, address: str, args: argparse.Namespace, clock: table_pb2.Clock | None = None
    ) -> None:
        self.clock = clock
        self.channels = [
            grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) for _ in range(args.clients)
        ]
        self.groups: list[Group] = []
        self.workers: list[Worker] = []
        for client, channel in enumerate(self.channels):
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            seat = client % args.seats
            if seat == 0:
                slots: list[Slot | None] = [None] * args.tables
                self.groups.append(Group(len(self.groups), args.seats, stub, slots, clock))
            self.workers.append(seat_worker(self.groups[-1], seat, stub, f"c{client}"))
        self.request_bytes = self.response_bytes = self.sized = 0

    async def open(self) -> None:
        for group in self.groups:
            await group.fill()
        if self.clock is not None:
            await self._check_clocked()

    async def _check_clocked(self) -> None:
        """Fail unless the clocked tables' clocks run (a seat to act has a deadline)."""
        group = self.groups[0]
        slot = group.slots[0]
        assert slot is not None
        reply = await group.stub.GetView(
            referee_pb2.GetViewRequest(game_id=slot.game_id), metadata=slot.metadata[0]
        )
        if not any(seat.deadline_unix_ms for seat in reply.view.table.seats):
            raise RuntimeError(f"the clocked table {slot.game_id} has no running clock")

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close(grace=None)

    def account(self, stats: Stats) -> None:
        self.request_bytes += stats.request_bytes
        self.response_bytes += stats.response_bytes
        self.sized += stats.sized

    @property
    def sizes(self) -> tuple[int, int]:
        """Mean SubmitMove request and response sizes (bytes) seen so far."""
        sized = max(self.sized, 1)
        return round(self.request_bytes / sized), round(self.response_bytes / sized)

    @property
    def token_length(self) -> int:
        slot = next(slot for group in self.groups for slot in group.slots if slot)
        return len(slot.metadata[0][0][1])

    @property
    def games(self) -> tuple[int, int]:
        """Games created and finished so far."""
        return (
            sum(group.created for group in self.groups),
            sum(group.finished for group in self.groups),
        )


def echo_worker(
    call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes], payload: bytes, md: Metadata
) -> Worker:
    async def work(stats: Stats, stop: asyncio.Event) -> None:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                await call(payload, metadata=md)
            except grpc.aio.AioRpcError as error:
                stats.failure(error.code().name)
                continue
            stats.success(time.perf_counter() - started)

    return work


# --- the run ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Servers:
    referee: str
    echo: str
    pids: dict[str, int]  # every process of ours whose CPU time is measured
    redis: str
    # A name of ``pids`` whose CPU is a group's (the referee's supervisor and workers).
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    referee: Phase
    echo: Phase
    sizes: tuple[int, int]
    games: tuple[int, int]
    clocked: Phase | None = None  # --clock: the same workload on clocked tables
    clocked_sizes: tuple[int, int] | None = None

    @property
    def ratio(self) -> float:
        return self.referee.rate / self.echo.rate if self.echo.rate else math.nan


async def measure(servers: Servers, args: argparse.Namespace) -> Result:
    """Alternate referee (and, with ``--clock``, clocked referee) and echo windows,
    ``--rounds`` times, on long-lived servers."""
    loads = Loads(
        RefereeLoad(servers.referee, args),
        RefereeLoad(servers.referee, args, BENCH_CLOCK) if args.clock else None,
        [
            grpc.aio.insecure_channel(servers.echo, options=CHANNEL_OPTIONS)
            for _ in range(args.clients)
        ],
    )
    try:
        await loads.referee.open()
        if loads.clocked is not None:
            await loads.clocked.open()
        for round_number in range(1, args.rounds + 1):
            await one_round(round_number, servers, args, loads)
    finally:
        await loads.close()
    clocked = None
    if loads.clocked is not None:
        clocked = Phase("referee SubmitMove, clocked", loads.windows["clocked"])
    return Result(
        referee=Phase("referee SubmitMove", loads.windows["referee"]),
        echo=Phase("echo", loads.windows["echo"]),
        sizes=loads.referee.sizes,
        games=loads.referee.games,
        clocked=clocked,
        clocked_sizes=None if loads.clocked is None else loads.clocked.sizes,
    )


@dataclass
class Loads:
    """The clients of each phase, and the windows measured so far per phase."""

    referee: RefereeLoad
    clocked: RefereeLoad | None
    echo_channels: list[grpc.aio.Channel]
    windows: dict[str, list[Window]] = field(
        default_factory=lambda: {"referee": [], "clocked": [], "echo": []}
    )

    async def close(self) -> None:
        await self.referee.close()
        if self.clocked is not None:
            await self.clocked.close()
        for channel in self.echo_channels:
            await channel.close(grace=None)


async def one_round(
    round_number: int, servers: Servers, args: argparse.Namespace, loads: Loads
) -> None:
    """The referee window (then the clocked one, or that first in even rounds, so slow
    drift in other load hits both alike), then the echo window; print the round."""
    window_seconds = args.seconds / args.rounds
    spy_file = Path(f"{args.py_spy}.{round_number}").resolve() if args.py_spy else None

    def during(spy: Path | None = spy_file) -> contextlib.AbstractContextManager[None]:
        if spy is None:
            return contextlib.nullcontext()
        return py_spy(servers.pids["referee"], window_seconds, spy, args.py_spy_native)

    async def referee_window(load: RefereeLoad, name: str) -> Window:
        window = await run_window(
            load.workers,
            warmup=args.warmup,
            seconds=window_seconds,
            pids=servers.pids,
            groups=servers.groups,
            during=during if name == "referee" else None,
        )
        load.account(window.stats)
        loads.windows[name].append(window)
        return window

    order = [(loads.referee, "referee")]
    if loads.clocked is not None:
        order.insert(0 if round_number % 2 == 0 else 1, (loads.clocked, "clocked"))
    measured = {name: await referee_window(load, name) for load, name in order}
    window = measured["referee"]
    request_size, response_size = loads.referee.sizes
    payload = echo.request_bytes(request_size, response_size)
    md: Metadata = (("authorization", "x" * loads.referee.token_length),)
    workers = [echo_worker(echo.method(channel), payload, md) for channel in loads.echo_channels]
    echo_window = await run_window(
        workers,
        warmup=args.warmup,
        seconds=window_seconds,
        pids=servers.pids,
        groups=servers.groups,
    )
    loads.windows["echo"].append(echo_window)
    clocked, clocked_others = "", ""
    if "clocked" in measured:
        timed = measured["clocked"]
        clocked = f"clocked {timed.stats.ok / timed.seconds:,.0f} moves/s, "
        clocked_others = f", {_others(timed):.0%} (clocked)"
    print(
        f"round {round_number}: referee {window.stats.ok / window.seconds:,.0f} moves/s, "
        f"{clocked}echo {echo_window.stats.ok / echo_window.seconds:,.0f} calls/s "
        f"({len(payload)} B requests, {response_size} B responses); "
        f"other processes used {_others(window):.0%}{clocked_others} and "
        f"{_others(echo_window):.0%} of a core",
        flush=True,
    )


def _others(window: Window) -> float:
    return max(0.0, (window.machine - sum(window.cpu.values())) / window.seconds)


def run(args: argparse.Namespace) -> Result:
    """Start Redis, the referee and the echo server, measure, and stop them all."""
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-bench-")))
        url, redis_pid = stack.enter_context(redis_url(work, args.appendfsync))
        serve = serve_arguments(work, url, args.workers)
        if args.cprofile:
            serve = ["-m", "cProfile", "-o", str(Path(args.cprofile).resolve()), *serve]
        referee, referee_port = stack.enter_context(
            server_process([sys.executable, *serve], env, work / "referee.log")
        )
        echo_command = [sys.executable, "-m", "bench.echo", "--port", "0"]
        echo_env = env
        if args.echo_redis:  # the echo awaits one PING per call (bench.echo)
            echo_command.append("--await-redis")
            echo_env = {**env, "ECHO_REDIS_URL": url}
        echo_server, echo_port = stack.enter_context(
            server_process(echo_command, echo_env, work / "echo.log")
        )
        pids = {"referee": referee.pid, "echo": echo_server.pid, "load generator": os.getpid()}
        groups = {} if args.workers == 1 else {"referee": process_group(referee.pid)}
        if redis_pid is not None:
            pids["redis"] = redis_pid
        where = (
            f"embedded, pid {redis_pid}, appendfsync {args.appendfsync}"
            if redis_pid
            else "REDIS_URL"
        )
        print(  # not the URL: it carries the password
            f"referee pid {referee.pid}{_workers_note(groups)} on "
            f"127.0.0.1:{referee_port}; echo pid {echo_server.pid} "
            f"on 127.0.0.1:{echo_port}; redis {where}; load generator pid {os.getpid()}",
            flush=True,
        )
        servers = Servers(
            f"127.0.0.1:{referee_port}", f"127.0.0.1:{echo_port}", pids, where, dict(groups)
        )
        return asyncio.run(measure(servers, args))


def _workers_note(groups: Groups) -> str:
    if "referee" not in groups:
        return ""
    return f" (supervisor; workers {', '.join(str(pid) for pid in groups['referee'][1:])})"


def report(phase: Phase, busy: Sequence[str]) -> list[str]:
    return [
        phase.name,
        f"{phase.ok:,}",
        f"{phase.rate:,.0f}",
        f"{phase.latency_ms(0.50):.2f}",
        f"{phase.latency_ms(0.95):.2f}",
        f"{phase.latency_ms(0.99):.2f}",
        f"{sum(phase.errors.values()):,}",
        ", ".join(f"{who} {share:.0%}" for who, share in phase.cpu(busy).items()),
    ]


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="measured time per phase (all rounds)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="referee/echo alternations")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured time per window")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients (seats)")
    parser.add_argument("--seats", type=int, default=4, help="seats per game (3..6)")
    parser.add_argument("--tables", type=int, default=4, help="live games per group of seats")
    add_referee_options(parser)
    parser.add_argument(
        "--clock",
        action="store_true",
        help="also run the referee workload on tables with a turn clock (move_seconds 3600, "
        "never due in a run) and report the clock's cost per move",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="referee processes (referee serve --workers; default 1; with more, the referee's "
        "CPU is its supervisor's and workers' added up)",
    )
    parser.add_argument("--py-spy", metavar="FILE", help="sample the referee with py-spy")
    parser.add_argument("--py-spy-native", action="store_true", help="py-spy --native")
    parser.add_argument(
        "--echo-redis",
        action="store_true",
        help="the echo awaits one Redis PING per call: the floor of one round trip per move",
    )
    parser.add_argument("--cprofile", metavar="FILE", help="run the referee under cProfile")
    args = parser.parse_args(argv)
    if args.clients % args.seats:
        parser.error("--clients must be a multiple of --seats")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")
    if args.workers < 1 or (args.workers > 1 and (args.py_spy or args.cprofile)):
        parser.error("--workers must be positive, and 1 with --py-spy or --cprofile")

    groups = args.clients // args.seats
    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop every child process.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _main(args, groups)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _main(args: argparse.Namespace, groups: int) -> list[Row]:
    print(f"e2e: {machine()}")
    print(
        f"{args.clients} grpc.aio clients, one connection each: {groups} groups of "
        f"{args.seats} seats x {args.tables} games = {groups * args.tables} live games; "
        f"{args.rounds} rounds of {'referee, clocked referee' if args.clock else 'referee'} "
        f"then echo, {args.seconds / args.rounds:g}s measured "
        f"after {args.warmup:g}s warm-up each",
        flush=True,
    )
    result = run(args)
    if args.py_spy:
        merged_py_spy(Path(args.py_spy), args.rounds)
    if args.cprofile and Path(args.cprofile).exists():
        print(f"cProfile of the referee (whole run, start-up included): {args.cprofile}")
        stats = pstats.Stats(args.cprofile, stream=sys.stdout)
        stats.strip_dirs().sort_stats("tottime").print_stats(25)

    referee, baseline = result.referee, result.echo
    created, finished = result.games
    print(
        f"SubmitMove mean bytes: request {result.sizes[0]}, response {result.sizes[1]}; "
        f"games created {created}, finished {finished}"
    )
    rows = [
        report(referee, ["referee", "redis", "load generator"]),
        report(baseline, ["echo", "load generator"]),
    ]
    if result.clocked is not None:
        rows.insert(1, report(result.clocked, ["referee", "redis", "load generator"]))
    print_table(
        [
            "phase",
            "ok calls",
            "calls/s",
            "p50 ms",
            "p95 ms",
            "p99 ms",
            "errors",
            "CPU, share of one core",
        ],
        rows,
    )
    for what, count in referee.errors.most_common():
        share = count / (count + referee.ok)
        print(f"  referee rejected: {what}: {count:,} ({share:.1%} of SubmitMove calls)")
    for what, count in baseline.errors.most_common():
        print(f"  echo error: {what}: {count:,}")
    ratio = result.ratio
    verdict = "met" if ratio >= GOAL else "NOT met"
    # Server CPU per answered call: robust to other load on the machine (see docs).
    referee_ms = referee.cpu_ms_per_call("referee")
    echo_ms = baseline.cpu_ms_per_call("echo")
    redis_ms = referee.cpu_ms_per_call("redis") if "redis" in referee.windows[0].cpu else math.nan
    print(
        f"server CPU per answered call: referee {referee_ms:.3f} ms per validated move "
        f"(+ redis {redis_ms:.3f} ms), echo {echo_ms:.3f} ms; "
        f"CPU-cost ratio echo/referee {echo_ms / referee_ms:.2f}"
    )
    print(
        f"summary: {referee.rate:,.0f} validated moves/s vs {baseline.rate:,.0f} echo calls/s: "
        f"ratio {ratio:.2f} (goal >= {GOAL}: {verdict}); SubmitMove p50/p95/p99 "
        f"{referee.latency_ms(0.5):.1f}/{referee.latency_ms(0.95):.1f}/"
        f"{referee.latency_ms(0.99):.1f} ms"
    )

    clock_rows = [] if result.clocked is None else clock_cost(result, result.clocked)
    return [
        Row("e2e", "validated moves (SubmitMove OK)", referee.rate, "moves/s"),
        Row("e2e", "SubmitMove p50 / p95 / p99", latencies(referee), "ms"),
        Row(
            "e2e",
            "rejected SubmitMove (stale view)",
            sum(referee.errors.values()) / referee.seconds,
            "calls/s",
        ),
        Row("e2e", "gRPC echo baseline", baseline.rate, "calls/s"),
        Row("e2e", "echo p50 / p95 / p99", latencies(baseline), "ms"),
        Row("e2e", f"ratio e2e/echo (goal >= {GOAL})", f"{ratio:.2f} ({verdict})"),
        Row(
            "e2e", "server CPU per call: referee / echo", f"{referee_ms:.2f} / {echo_ms:.2f}", "ms"
        ),
        Row("e2e", "CPU-cost ratio echo/referee", echo_ms / referee_ms),
        *clock_rows,
    ]


def latencies(phase: Phase) -> str:
    return " / ".join(f"{phase.latency_ms(q):.1f}" for q in (0.5, 0.95, 0.99))


def clock_cost(result: Result, clocked: Phase) -> list[Row]:
    """``--clock``: print and return what the clocked tables cost per move beside the
    unclocked ones (rates, latency, server CPU per validated move)."""
    plain = result.referee
    for what, count in clocked.errors.most_common():
        share = count / (count + clocked.ok)
        print(f"  clocked rejected: {what}: {count:,} ({share:.1%} of SubmitMove calls)")
    has_redis = "redis" in plain.windows[0].cpu
    cpu = {
        name: (
            phase.cpu_ms_per_call("referee"),
            phase.cpu_ms_per_call("redis") if has_redis else math.nan,
        )
        for name, phase in (("plain", plain), ("clocked", clocked))
    }
    rate_ratio = clocked.rate / plain.rate if plain.rate else math.nan
    cpu_ratio = cpu["clocked"][0] / cpu["plain"][0]
    sizes = result.clocked_sizes or (0, 0)
    print(
        f"clock: {clocked.rate:,.0f} validated moves/s on clocked tables vs {plain.rate:,.0f} "
        f"without: ratio clocked/unclocked {rate_ratio:.2f}; referee CPU per move "
        f"{cpu['clocked'][0]:.3f} vs {cpu['plain'][0]:.3f} ms (x{cpu_ratio:.2f}; "
        f"+ redis {cpu['clocked'][1]:.3f} vs {cpu['plain'][1]:.3f} ms); p50/p99 "
        f"{clocked.latency_ms(0.5):.1f}/{clocked.latency_ms(0.99):.1f} vs "
        f"{plain.latency_ms(0.5):.1f}/{plain.latency_ms(0.99):.1f} ms; clocked SubmitMove "
        f"mean bytes: request {sizes[0]}, response {sizes[1]}"
    )
    return [
        Row("e2e", "validated moves, clocked tables", clocked.rate, "moves/s"),
        Row("e2e", "clocked SubmitMove p50 / p95 / p99", latencies(clocked), "ms"),
        Row("e2e", "ratio clocked/unclocked moves/s", rate_ratio),
        Row(
            "e2e",
            "referee CPU per move: clocked / unclocked",
            f"{cpu['clocked'][0]:.3f} / {cpu['plain'][0]:.3f}",
            "ms",
        ),
    ]


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
