"""Running a load test: servers up, N games at a time with bots, stop, check, report.

:func:`run` is the whole test for a :class:`~bench.loadtest.config.LoadConfig`. Each of
``concurrency`` workers plays games one after another (create, then every seat at once
until the game ends or the time is up) until the games or the time run out. The seats of a
game are spread over the referee processes, so moves of one game race each other through
different processes on one Redis, as behind a load balancer.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, cast

from redis.asyncio import Redis
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from bench.loadtest.check import CheckSummary, check_games
from bench.loadtest.config import LoadConfig
from bench.loadtest.drivers import DRIVERS
from bench.loadtest.metrics import (
    GameLedger,
    MeasuredStub,
    Metrics,
    cpu_seconds,
    machine_busy_seconds,
)
from bench.loadtest.processes import Servers, servers
from bench.loadtest.report import LoadReport, machine, rpc_figures
from referee.bots import bot_for
from referee.client import AsyncRefereeClient, RefereeError
from referee.v1 import referee_pb2_grpc
from service.storage.store import RedisStore

# One HTTP/2 connection per client, as separate players would have: without a local
# subchannel pool, gRPC shares one connection between channels to the same target.
CHANNEL_OPTIONS = (("grpc.use_local_subchannel_pool", 1),)


def measured_client(target: str, metrics: Metrics, timeout: float) -> AsyncRefereeClient:
    """An ordinary asyncio client whose stub times and counts every call into ``metrics``."""
    client = AsyncRefereeClient(target, options=CHANNEL_OPTIONS, timeout=timeout)
    client.stub = cast(
        "referee_pb2_grpc.RefereeServiceAsyncStub", MeasuredStub(client.stub, metrics)
    )
    return client


class Clients:
    """``connections`` clients per referee; a game's seats go to different referees."""

    def __init__(self, referees: list[str], connections: int, metrics: Metrics, timeout: float):
        self.referees = referees
        self.pools = [
            [measured_client(address, metrics, timeout) for _ in range(connections)]
            for address in referees
        ]
        self._next = itertools.count()

    def for_seat(self, game_number: int, seat: int) -> tuple[str, AsyncRefereeClient]:
        referee = (game_number + seat) % len(self.referees)
        pool = self.pools[referee]
        return self.referees[referee], pool[next(self._next) % len(pool)]

    async def close(self) -> None:
        for pool in self.pools:
            for client in pool:
                await client.close()


class Load:
    """The games of one run: who plays, when to stop, what they were told."""

    def __init__(self, config: LoadConfig, clients: Clients, metrics: Metrics) -> None:
        self.config = config
        self.clients = clients
        self.metrics = metrics
        self.stop = asyncio.Event()
        self.driver_errors: Counter[str] = Counter()
        self.stopped_live = 0
        self._numbers: Iterator[int] = itertools.count()
        self._driver = DRIVERS[config.transport]

    def next_game(self) -> int | None:
        if self.stop.is_set():
            return None
        number = next(self._numbers)
        if self.config.games and number >= self.config.games:
            return None
        return number

    async def worker(self) -> None:
        while (number := self.next_game()) is not None:
            await self.play_game(number)

    async def play_game(self, number: int) -> None:
        config = self.config
        name = config.game[number % len(config.game)]
        referee, creator = self.clients.for_seat(number, 0)
        try:
            created = await creator.create_game(name, config.seats, allow_spectators=True)
        except RefereeError as error:
            self.driver_errors[f"CreateGame {error.code.name} {error.reason}"] += 1
            await asyncio.sleep(0.1)  # do not spin on a referee that refuses
            return
        tokens = [seat.token for seat in created.seat_tokens]
        ledger = GameLedger(created.game_id, name, tokens, referee)
        self.metrics.register(ledger)
        seats = []
        for number_of_seat, token in enumerate(tokens):
            _, client = self.clients.for_seat(number, number_of_seat)
            seats.append(client.seat(created.game_id, token))
        outcomes = await asyncio.gather(
            *(
                self._driver(
                    seat,
                    seat_number,
                    bot_for(name, config.bot),
                    random.Random(f"{config.seed}:{number}:{seat_number}"),
                    self.stop,
                    ledger,
                    self.metrics,
                )
                for seat_number, seat in enumerate(seats)
            ),
            return_exceptions=True,
        )
        finished = False
        for outcome in outcomes:
            if isinstance(outcome, asyncio.CancelledError):
                raise outcome
            if isinstance(outcome, BaseException):
                what = (
                    f"{type(outcome).__name__} {outcome.reason}"
                    if isinstance(outcome, RefereeError)
                    else f"{type(outcome).__name__}: {outcome}"
                )
                self.driver_errors[what] += 1
                ledger.driver_error = what
            elif outcome is not None and outcome.HasField("outcome"):
                finished = True
        if finished:
            ledger.finished_seen = True
            self.metrics.games_finished += 1
        else:
            self.stopped_live += 1


@contextlib.contextmanager
def work_folder(config: LoadConfig) -> Iterator[Path]:
    if config.work_dir is not None:
        config.work_dir.mkdir(parents=True, exist_ok=True)
        yield config.work_dir
        return
    with tempfile.TemporaryDirectory(prefix="referee-loadtest-") as folder:
        yield Path(folder)


@contextlib.asynccontextmanager
async def progress_bar(
    config: LoadConfig, metrics: Metrics, load: Load, started: float
) -> AsyncIterator[None]:
    """A live line on stderr: time, games, moves and the current rate (rich.progress)."""
    console = Console(stderr=True)
    bounded_by_games = config.games > 0 and config.seconds <= 0
    total = float(config.games) if bounded_by_games else config.seconds
    progress = Progress(
        TextColumn("[bold]loadtest"),
        BarColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        disable=not config.progress,
        transient=False,
    )
    task = progress.add_task("starting", total=total)

    async def tick() -> None:
        last_moves, last_time = 0, time.perf_counter()
        rate = 0.0
        while True:
            await asyncio.sleep(0.5)
            now = time.perf_counter()
            moves = metrics.moves_total
            rate = 0.7 * rate + 0.3 * (moves - last_moves) / max(now - last_time, 1e-9)
            last_moves, last_time = moves, now
            done = metrics.games_finished if bounded_by_games else min(now - started, total)
            live = metrics.games_created - metrics.games_finished - load.stopped_live
            progress.update(
                task,
                completed=done,
                description=(
                    f"games {metrics.games_finished:,} done / {live:,} live, "
                    f"moves {moves:,} ({rate:,.0f}/s), conflicts {metrics.conflicts:,}, "
                    f"errors {sum(metrics.errors.values()):,}"
                ),
            )

    with progress:
        ticking = asyncio.create_task(tick())
        try:
            yield
        finally:
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking


# Buffers that come and go with connections and persistence, not with games (as in
# deploy/measure_redis_size.py).
TRANSIENT = (
    "mem_clients_normal",
    "mem_clients_slaves",
    "mem_aof_buffer",
    "mem_replication_backlog",
)


async def used_memory(client: Redis) -> tuple[int, int]:
    """Redis ``used_memory`` less client and AOF buffers, and the keys in our database."""
    info = await client.info("memory")
    data = int(info["used_memory"]) - sum(int(info.get(name, 0)) for name in TRANSIENT)
    return data, int(await client.dbsize())


def cpu_snapshot(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds of each of our processes, and ``machine``: of every process."""
    return {who: cpu_seconds(pid) for who, pid in pids.items()} | {
        "machine": machine_busy_seconds()
    }


async def drive(
    config: LoadConfig, found: Servers, metrics: Metrics
) -> tuple[Load, float, dict[str, float]]:
    """Play until the time or the games run out; the measured seconds and CPU shares."""
    clients = Clients(found.referees, config.connections, metrics, config.rpc_timeout)
    load = Load(config, clients, metrics)
    pids = {**found.pids, "loadtest": os.getpid()}
    started = time.perf_counter()
    workers = [asyncio.create_task(load.worker()) for _ in range(config.concurrency)]
    all_done = asyncio.gather(*workers, return_exceptions=True)
    try:
        async with progress_bar(config, metrics, load, started):
            if config.warmup:
                await asyncio.wait({all_done}, timeout=config.warmup)
            metrics.measuring = True
            window_start = time.perf_counter()
            cpu_before = cpu_snapshot(pids)
            limit = config.seconds - config.warmup if config.seconds > 0 else None
            await asyncio.wait({all_done}, timeout=limit)
            metrics.measuring = False
            seconds = time.perf_counter() - window_start
            cpu_after = cpu_snapshot(pids)
            load.stop.set()
            await asyncio.wait({all_done}, timeout=config.drain_seconds)
        for task in workers:
            task.cancel()
        for outcome in await all_done:
            if isinstance(outcome, BaseException) and not isinstance(
                outcome, asyncio.CancelledError
            ):
                load.driver_errors[f"worker {type(outcome).__name__}: {outcome}"] += 1
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        await clients.close()
    used = {who: cpu_after[who] - cpu_before[who] for who in cpu_before}
    machine_used = used.pop("machine")
    # "others": every process on the machine that is not part of the test (shared hosts).
    used["others"] = max(0.0, machine_used - sum(used.values()))
    cpu = {
        who: spent / seconds for who, spent in used.items() if seconds > 0 and not math.isnan(spent)
    }
    return load, seconds, cpu


async def run_async(
    config: LoadConfig, on_servers: Callable[[Servers], Any] | None = None
) -> LoadReport:
    """The whole load test of ``config``; see the module docstring."""
    metrics = Metrics()
    with work_folder(config) as work:
        async with servers(config, work) as found:
            if on_servers is not None:
                on_servers(found)
            redis = Redis.from_url(found.redis_url, protocol=2)
            store = RedisStore.from_url(found.redis_url)
            try:
                before, keys_before = await used_memory(redis)
                load, seconds, cpu = await drive(config, found, metrics)
                after, keys_after = await used_memory(redis)
                check = None
                if config.check:
                    checks = await check_games(store, found.referees, metrics.ledgers.values())
                    check = CheckSummary.of(checks)
            finally:
                await redis.aclose()
                await store.aclose()
    games = metrics.games_created
    sized = max(metrics.sized, 1)
    referees = "given" if config.targets else str(len(found.referees))
    return LoadReport(
        setup=(
            f"{referees} referee processes, {config.concurrency} concurrent games of "
            f"{'/'.join(config.game)} ({config.seats} seats), {config.bot} bots, "
            f"{config.transport} transport, {config.seconds:g} s"
            + (f" (first {config.warmup:g} s warm-up)" if config.warmup else "")
            + (f", at most {config.games} games" if config.games else "")
        ),
        machine=machine(),
        referees=found.referees,
        redis="embedded" if found.redis_embedded else found.redis_url,
        seconds=seconds,
        games_created=games,
        games_finished=check.finished if check is not None else metrics.games_finished,
        moves=metrics.moves,
        moves_total=metrics.moves_total,
        moves_per_second=metrics.moves / seconds if seconds > 0 else math.nan,
        duplicates=metrics.duplicates,
        conflicts=metrics.conflicts,
        retries=metrics.retries,
        watch_streams=metrics.watch_streams,
        watch_messages=metrics.watch_messages,
        calls_per_second=metrics.measured_calls / seconds if seconds > 0 else math.nan,
        updates_per_second=metrics.measured_updates / seconds if seconds > 0 else math.nan,
        rpcs=rpc_figures(metrics),
        errors=dict(metrics.errors),
        driver_errors=dict(load.driver_errors),
        submit_bytes=(metrics.request_bytes / sized, metrics.response_bytes / sized),
        redis_used_memory=(before, after),
        redis_keys=keys_after - keys_before,
        bytes_per_game=(after - before) / games if games else math.nan,
        cpu=cpu,
        check=check,
        games_stopped=load.stopped_live,
    )


def run(config: LoadConfig) -> LoadReport:
    report = asyncio.run(run_async(config))
    if config.json_path is not None:
        report.write_json(config.json_path)
    return report
