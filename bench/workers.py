"""Every core of a host: validated moves/s of ``referee serve --workers 2`` against one worker,
in one run: ``python -m bench.workers [--seconds S] [--affine]``.

The workload is bench.e2e's referee phase (``--clients`` grpc.aio clients, one connection
each, seats of The Gang submitting random legal moves; only accepted moves count), aimed in
turn at two referees on one real Redis (embedded, ``appendfsync always``, or ``REDIS_URL``),
both logging at info and serving /metrics:

* **1 worker**: ``referee serve --workers 1``, pinned to ``--referee-cores`` (default: every
  core but the generator's);
* **2 workers**: ``referee serve --workers 2 --worker-port P``, not pinned (its supervisor and
  both workers may run on any core), called on its shared port: the kernel (SO_REUSEPORT)
  spreads *connections* over the workers, so the seats of one game reach both, and each
  move may find its worker's copy of the game stale (a refused compare-and-set, a reload,
  the move decided again: service/app/writer.py).

``--affine`` adds the same two workers reached *by game* (issue 29), each game's calls on
one worker, through the ports each worker serves alone (``--worker-port``):

* **2 workers, nginx by game**: nginx (``deploy/nginx-workers.conf`` with its ports filled
  in: one process, consistent hash on the game of the seat token) in front of the two
  workers' own ports. nginx is not pinned; its CPU is reported beside the referee's and
  added to it in "with the proxy".
* **2 workers, by game (client-side)**: the load generator opens one connection per worker
  for each client and sends each game's calls to the worker its id hashes to (crc32): the
  affinity without a proxy's CPU, as a game-aware client could have it.

Why these two (docs/hosting.md, "Workers: one game, one worker"): the kernel hands a
connection to a worker before any byte of a call exists, and a connection then carries the
calls of every game its client plays, so neither SO_REUSEPORT nor the supervisor can keep a
game on one worker; only something that reads each call's headers can, i.e. an HTTP/2
proxy. The proxy keys on the game in the seat token, which every seated call carries, so
clients change nothing. The client-side variant separates what affinity saves from what
the proxy costs.

The load generator (this process) is pinned to ``--generator-core`` (default: the last
core) before it makes its first connection, so every variant faces the same generator.
Redis is not pinned. Every server starts first and stays up; the variants' windows
alternate ``--rounds`` times (the order reversed every other round, so slow drift in other
load hits all alike), each ``--warmup`` seconds unmeasured and ``--seconds / --rounds``
measured.

Besides rates and latencies the report gives, per variant: the referee's CPU per validated
move (supervisor and workers added up), the conflicts (``referee_cas_conflicts_total``: a
commit refused because the other worker wrote first) and retries (``referee_move_retries_
total``: a move decided again on a fresh load) per validated move as the referee counted
them (its /metrics read before and after each window, warm-up included), Redis' CPU per
move, the load generator's CPU (a share of one core: near 100 % means it, not the referee,
set the pace) and what other processes on the machine used meanwhile.

What the ratio means depends on the cores there are. With more cores than the generator's
and one worker's, the second worker gets a core of its own and the ratio shows how well the
referee scales out on one host. On a 2-core machine there is no such core: one worker has
core 0 to itself, and the second worker can only take what the generator (on core 1) and
Redis leave of core 1: the ratio is bounded by the whole machine's CPU over the CPU one move
costs (referee, Redis, generator, proxy), whatever the routing. Everything listens on
127.0.0.1 and every child process is stopped when the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import grpc

from bench.common import Row, machine, print_table
from bench.e2e import (
    CHANNEL_OPTIONS,
    REPO,
    Group,
    Phase,
    RefereeLoad,
    Window,
    child_env,
    hotspots,
    process_group,
    py_spy,
    redis_url,
    report,
    run_window,
    seat_worker,
    serve_arguments,
    server_process,
    stop_process,
)
from referee.v1 import referee_pb2_grpc
from service.process.redis_server import dying_with_parent

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

GOAL = 1.6  # issue 29: 2 workers at least 1.6 times one on this machine
# A child that pins itself to the cores in argv[1], then becomes the program in argv[2:].
_PINNED = """\
import os, sys
os.sched_setaffinity(0, {int(core) for core in sys.argv[1].split(",")})
os.execv(sys.argv[2], sys.argv[2:])
"""
ONE, TWO = "1 worker", "2 workers"
NGINX, DIRECT = "2 workers, nginx by game", "2 workers, by game (client-side)"
PROXY = "nginx"  # the CPU name of the proxy's processes
NGINX_CONF = REPO / "deploy" / "nginx-workers.conf"
COUNTERS = {
    "conflicts": re.compile(r"^referee_cas_conflicts_total (\S+)$", re.M),
    "retries": re.compile(r"^referee_move_retries_total (\S+)$", re.M),
    "moves": re.compile(r'^referee_moves_total\{[^}]*code="OK"[^}]*\} (\S+)$', re.M),
}


def pinned(cores: set[int], command: list[str]) -> list[str]:
    """``command`` run on ``cores`` only (the affinity is inherited by all its threads)."""
    spec = ",".join(str(core) for core in sorted(cores))
    return [sys.executable, "-c", _PINNED, spec, *command]


def serve_command(work: Path, url: str, workers: int) -> list[str]:
    return [sys.executable, *serve_arguments(work / f"referee-{workers}", url, workers)]


def free_ports(count: int) -> int:
    """A port ``p`` such that ``p`` .. ``p + count - 1`` are free just now."""
    for _ in range(100):
        with contextlib.ExitStack() as stack:
            first = stack.enter_context(socket.socket())
            first.bind(("127.0.0.1", 0))
            base: int = first.getsockname()[1]
            try:
                for port in range(base + 1, base + count):
                    stack.enter_context(socket.socket()).bind(("127.0.0.1", port))
            except OSError:
                continue
            return base
    raise RuntimeError(f"no {count} free ports in a row")


# --- the variants -------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One way of reaching a referee: its name, its referee's CPU name and /metrics, and
    the CPU name of the proxy on its path (if any)."""

    name: str
    referee: str
    metrics: tuple[str, ...]
    proxy: str | None = None


@dataclass
class Counts:
    """The referee's own counters over a variant's windows (warm-up included)."""

    conflicts: float = 0.0
    retries: float = 0.0
    moves: float = 0.0

    def add(self, before: dict[str, float], after: dict[str, float]) -> None:
        self.conflicts += after["conflicts"] - before["conflicts"]
        self.retries += after["retries"] - before["retries"]
        self.moves += after["moves"] - before["moves"]


def scrape(urls: Sequence[str]) -> dict[str, float]:
    """The counters of :data:`COUNTERS`, added up over the workers serving ``urls``."""
    totals = dict.fromkeys(COUNTERS, 0.0)
    for url in urls:
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode()
        for name, pattern in COUNTERS.items():
            totals[name] += sum(float(value) for value in pattern.findall(text))
    return totals


class Routed:
    """The calls the load makes (CreateGame, SubmitMove, GetView), each game's sent to the
    worker its id hashes to (crc32), over one connection per worker; CreateGame to the
    workers in turn."""

    def __init__(self, stubs: Sequence[referee_pb2_grpc.RefereeServiceStub]) -> None:
        self.stubs = stubs
        self.created = 0

    def _of(self, game_id: str) -> Any:
        return self.stubs[zlib.crc32(game_id.encode()) % len(self.stubs)]

    def CreateGame(self, request: Any, **kwargs: Any) -> Any:  # noqa: N802 (a stub's name)
        self.created += 1
        return self.stubs[self.created % len(self.stubs)].CreateGame(request, **kwargs)

    def SubmitMove(self, request: Any, **kwargs: Any) -> Any:  # noqa: N802
        return self._of(request.game_id).SubmitMove(request, **kwargs)

    def GetView(self, request: Any, **kwargs: Any) -> Any:  # noqa: N802
        return self._of(request.game_id).GetView(request, **kwargs)


class RoutedLoad(RefereeLoad):
    """bench.e2e's referee load with each client's calls routed by game (:class:`Routed`)
    over one connection per address."""

    def __init__(self, addresses: Sequence[str], args: argparse.Namespace) -> None:
        self.clock = None
        self.channels = []
        self.groups = []
        self.workers = []
        for client in range(args.clients):
            channels = [
                grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) for address in addresses
            ]
            self.channels += channels
            routed = Routed([referee_pb2_grpc.RefereeServiceStub(c) for c in channels])
            stub = cast("RefereeServiceAsyncStub", routed)
            seat = client % args.seats
            if seat == 0:
                self.groups.append(Group(len(self.groups), args.seats, stub, [None] * args.tables))
            self.workers.append(seat_worker(self.groups[-1], seat, stub, f"c{client}"))
        self.request_bytes = self.response_bytes = self.sized = 0


@dataclass
class Measured:
    """Each variant's windows and counters."""

    windows: dict[str, list[Window]] = field(default_factory=dict)
    counts: dict[str, Counts] = field(default_factory=dict)
    spied: dict[str, list[Path]] = field(default_factory=dict)  # --py-spy: samples by variant


async def measure(servers: Servers, args: argparse.Namespace) -> Measured:
    """Alternate the variants' windows ``--rounds`` times (the order reversed every other)."""
    variants, pids, groups = servers.variants, servers.pids, servers.groups
    measured = Measured({v.name: [] for v in variants}, {v.name: Counts() for v in variants})
    loads: dict[str, RefereeLoad] = {}
    for name, address in servers.addresses.items():
        if isinstance(address, str):
            loads[name] = RefereeLoad(address, args)
        else:
            loads[name] = RoutedLoad(address, args)
    try:
        for load in loads.values():
            await load.open()
        for round_number in range(1, args.rounds + 1):
            order = list(variants) if round_number % 2 else list(reversed(variants))
            for variant in order:
                before = scrape(variant.metrics)
                window = await run_window(
                    loads[variant.name].workers,
                    warmup=args.warmup,
                    seconds=args.seconds / args.rounds,
                    pids=pids,
                    groups=groups,
                    during=_spying(servers, variant, args, measured.spied),
                )
                measured.counts[variant.name].add(before, scrape(variant.metrics))
                measured.windows[variant.name].append(window)
            rates = ", ".join(
                f"{v.name} {_rate(measured.windows[v.name][-1]):,.0f} moves/s" for v in variants
            )
            print(f"round {round_number}: {rates}", flush=True)
    finally:
        for load in loads.values():
            await load.close()
    return measured


def _rate(window: Window) -> float:
    return window.stats.ok / window.seconds


def _spying(
    servers: Servers, variant: Variant, args: argparse.Namespace, spied: dict[str, list[Path]]
) -> Callable[[], contextlib.AbstractContextManager[None]] | None:
    """``--py-spy``: what samples the variant's referee processes (the 1-worker process, or
    both workers) during its measured window, into files kept in ``spied``."""
    if not args.py_spy:
        return None
    pids = [servers.pids[ONE]] if variant.referee == ONE else list(servers.groups[TWO][1:])
    files = spied.setdefault(variant.name, [])
    slug = re.sub(r"\W+", "-", variant.name)
    new = [Path(f"{args.py_spy}.{slug}.{len(files) + i}") for i in range(len(pids))]
    files += new

    @contextlib.contextmanager
    def during() -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            for pid, output in zip(pids, new, strict=True):
                seconds = args.seconds / args.rounds
                stack.enter_context(py_spy(pid, seconds, output.resolve(), native=False))
            yield

    return during


# --- the servers --------------------------------------------------------------------------


def nginx_config(listen: int, workers: Sequence[int]) -> str:
    """deploy/nginx-workers.conf listening on ``listen``, its upstream ``workers``."""
    text = NGINX_CONF.read_text(encoding="utf-8")
    servers = "".join(f"        server 127.0.0.1:{port};\n" for port in workers)
    text, upstreams = re.subn(r"(?m)(^\s*server 127\.0\.0\.1:\d+;.*\n)+", servers, text)
    text, listens = re.subn(r"listen 127\.0\.0\.1:\d+ ", f"listen 127.0.0.1:{listen} ", text)
    if (upstreams, listens) != (1, 1):
        raise RuntimeError(f"{NGINX_CONF}: not one upstream block and one listen line")
    return text


@contextlib.contextmanager
def nginx(work: Path, workers: Sequence[int]) -> Iterator[tuple[int, int]]:
    """nginx in front of ``workers`` (deploy/nginx-workers.conf); its pid and port. Stopped
    (SIGQUIT: graceful, then SIGKILL) when the block exits."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise SystemExit("--affine needs nginx (Debian: apt-get install nginx)")
    prefix = work / "nginx"
    prefix.mkdir()
    port = free_ports(1)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(port, workers), encoding="utf-8")
    main = f"daemon off; pid {prefix}/nginx.pid; error_log {prefix}/error.log warn;"
    command = [binary, "-p", f"{prefix}/", "-c", str(conf), "-g", main]
    proc = subprocess.Popen(dying_with_parent(command), stdin=subprocess.DEVNULL)
    try:
        _wait_listening(port, proc)
        yield proc.pid, port
    finally:
        stop_process(proc, signal.SIGQUIT, 15)


def _wait_listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on {port} (exit code {proc.poll()})")


@dataclass
class Servers:
    """What :func:`run` started: the variants, their loads' addresses, the measured pids."""

    variants: list[Variant]
    addresses: dict[str, str | list[str]]
    pids: dict[str, int]
    groups: dict[str, tuple[int, ...]]


def start(
    stack: contextlib.ExitStack, args: argparse.Namespace, referee_cores: set[int]
) -> Servers:
    """Redis, both referees (and nginx with ``--affine``), each stopped by ``stack``."""
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-bench-")))
    url, redis_pid = stack.enter_context(redis_url(work, "always"))
    one_metrics, two_metrics, own = free_ports(1), free_ports(2), free_ports(2)
    one, one_port = stack.enter_context(
        server_process(
            pinned(referee_cores, serve_command(work, url, 1)),
            {**env, "REFEREE_METRICS_PORT": str(one_metrics)},
            work / "one.log",
        )
    )
    two_env = {**env, "REFEREE_METRICS_PORT": str(two_metrics), "REFEREE_WORKER_PORT": str(own)}
    two_env["REFEREE_TRUSTED_PROXIES"] = "127.0.0.1/32"  # as deploy/nginx-workers.conf says
    two, two_port = stack.enter_context(
        server_process(serve_command(work, url, 2), two_env, work / "two.log")
    )
    metrics = {
        ONE: (f"http://127.0.0.1:{one_metrics}/metrics",),
        TWO: tuple(f"http://127.0.0.1:{two_metrics + i}/metrics" for i in range(2)),
    }
    servers = Servers(
        [Variant(ONE, ONE, metrics[ONE]), Variant(TWO, TWO, metrics[TWO])],
        {ONE: f"127.0.0.1:{one_port}", TWO: f"127.0.0.1:{two_port}"},
        {ONE: one.pid, "load generator": os.getpid()},
        {TWO: process_group(two.pid)},
    )
    if redis_pid is not None:
        servers.pids["redis"] = redis_pid
    if args.affine:
        proxy_pid, proxy_port = stack.enter_context(nginx(work, [own, own + 1]))
        servers.groups[PROXY] = process_group(proxy_pid)
        servers.variants.append(Variant(NGINX, TWO, metrics[TWO], PROXY))
        servers.addresses[NGINX] = f"127.0.0.1:{proxy_port}"
        servers.variants.append(Variant(DIRECT, TWO, metrics[TWO]))
        servers.addresses[DIRECT] = [f"127.0.0.1:{own}", f"127.0.0.1:{own + 1}"]
    return servers


def run(args: argparse.Namespace) -> tuple[list[Variant], Measured]:
    """Start Redis, the referees (and nginx), pin this process, measure, stop them all."""
    cores = sorted(os.sched_getaffinity(0))
    generator = args.generator_core if args.generator_core is not None else cores[-1]
    referee_cores = set(args.referee_cores or [core for core in cores if core != generator])
    referee_cores = referee_cores or {generator}  # a 1-core machine: all on the one core
    with contextlib.ExitStack() as stack:
        servers = start(stack, args, referee_cores)
        os.sched_setaffinity(0, {generator})  # before the first channel: its threads inherit
        proxy = f"; nginx {servers.groups[PROXY]}, any core" if PROXY in servers.groups else ""
        print(
            f"1 worker: pid {servers.pids[ONE]} on cores {sorted(referee_cores)}; 2 workers: "
            f"supervisor and workers {servers.groups[TWO]}, any core{proxy}; load generator "
            f"pid {os.getpid()} on core {generator}; redis "
            f"{'pid ' + str(servers.pids['redis']) if 'redis' in servers.pids else 'REDIS_URL'}"
            ", any core",
            flush=True,
        )
        return servers.variants, asyncio.run(measure(servers, args))


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per variant")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the variants")
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
    parser.add_argument(
        "--affine",
        action="store_true",
        help="also reach the 2 workers by game: through nginx (deploy/nginx-workers.conf) and "
        "client-side (one connection per worker)",
    )
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="sample each variant's referee processes with py-spy (FILE.<variant>.<n>) and "
        "print their hotspots; the figures of such a run are not comparable",
    )
    args = parser.parse_args(argv)
    if args.clients % args.seats:
        parser.error("--clients must be a multiple of --seats")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")
    print(f"workers: {machine()}", flush=True)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _report(*run(args))
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


# --- the report ---------------------------------------------------------------------------


def _report(variants: list[Variant], measured: Measured) -> list[Row]:
    phases = {v.name: Phase(f"referee, {v.name}", measured.windows[v.name]) for v in variants}
    busy = [ONE, TWO, PROXY, "redis", "load generator"]
    busy = [who for who in busy if who in phases[ONE].windows[0].cpu]
    headers = ["phase", "ok calls", "calls/s", "p50 ms", "p95 ms", "p99 ms", "errors"]
    print_table([*headers, "CPU, share of one core"], [report(p, busy) for p in phases.values()])
    for name, files in measured.spied.items():
        hotspots([f for f in files if f.exists()], top=12, label=f"the referee, {name}")
    for phase in phases.values():
        for what, count in phase.errors.most_common():
            share = count / (count + phase.ok)
            print(f"  {phase.name} rejected: {what}: {count:,} ({share:.1%} of SubmitMove calls)")
    one = phases[ONE]
    rows = []
    for variant in variants:
        rows += _variant_report(variant, phases[variant.name], measured.counts[variant.name], one)
    ratios = {v.name: phases[v.name].rate / one.rate if one.rate else math.nan for v in variants}
    best = max(ratios[v.name] for v in variants if v.name != ONE)
    verdict = "met" if best >= GOAL else "NOT met"
    shown = "; ".join(f"{name} {ratio:.2f}" for name, ratio in ratios.items() if name != ONE)
    print(
        f"summary: validated moves/s over 1 worker's {one.rate:,.0f}: {shown} (goal >= {GOAL}: "
        f"{verdict}; {os.cpu_count()} cores, load generator pinned to one)"
    )
    return [*rows, _ceiling(one)]


def _ceiling(one: Phase) -> Row:
    """Print and return the most any routing could give on this machine: the cores other
    processes left (as in the 1-worker windows) all busy at what a move cost there, the
    referee's, Redis' and the load generator's CPU counted."""
    counted = [who for who in (ONE, "redis", "load generator") if who in one.windows[0].cpu]
    per_move = sum(one.cpu_ms_per_call(who) for who in counted)
    cores = (os.cpu_count() or 1) - one.cpu(counted)["others"]
    ceiling = cores * 1000 / per_move / one.rate if one.rate else math.nan
    print(
        f"ceiling: {cores:.2f} cores (those other processes left) / {per_move:.3f} ms of CPU "
        f"per move with 1 worker ({', '.join(counted)}) = x{ceiling:.2f} of 1 worker's rate; "
        "2 workers pass it only if a move costs less CPU than with one"
    )
    return Row("workers", "ceiling of 2 workers / 1 worker on this machine", f"{ceiling:.2f}")


def _variant_report(variant: Variant, phase: Phase, counts: Counts, one: Phase) -> list[Row]:
    """Print and return one variant's CPU per move, counters and ratio to 1 worker."""
    shares = phase.cpu([variant.referee, PROXY, "redis", "load generator"])
    referee = phase.cpu_ms_per_call(variant.referee)
    proxy = phase.cpu_ms_per_call(variant.proxy) if variant.proxy else 0.0
    redis = phase.cpu_ms_per_call("redis") if "redis" in shares else math.nan
    moves = max(counts.moves, 1.0)
    ratio = phase.rate / one.rate if one.rate else math.nan
    with_proxy = f" + nginx {proxy:.3f} = {referee + proxy:.3f} ms" if variant.proxy else ""
    print(
        f"{variant.name}: {phase.rate:,.0f} moves/s (x{ratio:.2f}); referee CPU per validated "
        f"move {referee:.3f} ms{with_proxy}; redis {redis:.3f} ms; CAS conflicts "
        f"{counts.conflicts / moves:.3f} and retries {counts.retries / moves:.3f} per move "
        f"(referee's counters); load generator {shares['load generator']:.0%} of its core, "
        f"other processes {shares['others']:.0%} of a core"
    )
    bench = "workers"
    rows = [
        Row(bench, f"validated moves, {variant.name}", phase.rate, "moves/s"),
        Row(bench, f"referee CPU per move, {variant.name}", f"{referee + proxy:.3f}", "ms"),
    ]
    if variant.name != ONE:
        rows.append(Row(bench, f"ratio {variant.name} / 1 worker", f"{ratio:.2f}"))
    return rows


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
