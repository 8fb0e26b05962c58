"""Many watch streams on many distinct games on one referee: ``python -m bench.watch_many``.

``python -m bench.watch_many [--games 20000] [--channels 16] [--sample 1000]`` starts a
private redis-server and `referee serve` on it (its own process), creates ``--games``
games of The Gang, opens one WatchGame stream per game from this process (grpc aio,
many streams on ``--channels`` channels), then reports:

* the referee's RSS and open fds before and after the streams (and per stream);
* the referee's Redis connections (CLIENT LIST, less this script's own) and how many
  of them wait in a blocking XREAD: the watch reader's lanes, however many games;
* that other RPCs still answer (GetView, CreateGame, SubmitMove on another game);
* a move's delivery latency (SubmitMove sent -> its watcher has the update), p50/p99,
  over ``--sample`` games one at a time, then one move on every other game at once, each
  of which its watcher must get.

Mind the fd limit (``ulimit -n``): the streams share the channels' sockets, so the count
of fds grows with channels, not streams, on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from redis.asyncio import Redis

from bench.common import machine
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, the_gang_pb2
from service.process.redis_server import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench-watch-many-secret-0123456789"
TG = the_gang_pb2.TheGangMove
TAKE_WHITE_2 = game_pb2.Move(
    the_gang=TG(take_chip=TG.TakeChip(colour=the_gang_pb2.CHIP_COLOUR_WHITE, stars=2))
)


@dataclass(frozen=True)
class Game:
    game_id: str
    mover: str  # seat 1's token


@dataclass
class Watch:
    """One open WatchGame stream: when each version came (monotonic seconds)."""

    game: Game
    seen: dict[int, float] = field(default_factory=dict)
    error: grpc.aio.AioRpcError | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


async def bounded(jobs: Sequence[Callable[[], Awaitable[object]]], concurrency: int) -> None:
    """Run every job, at most ``concurrency`` at a time."""
    pending = iter(jobs)

    async def worker() -> None:
        for job in pending:
            await job()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def stubs(channels: Sequence[grpc.aio.Channel]) -> list[referee_pb2_grpc.RefereeServiceAsyncStub]:
    return [referee_pb2_grpc.RefereeServiceStub(channel) for channel in channels]


async def create_games(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub, count: int, concurrency: int = 64
) -> list[Game]:
    games: list[Game] = []

    async def create() -> None:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
        )
        games.append(Game(created.game_id, created.seat_tokens[1].token))

    await bounded([create] * count, concurrency)
    return games


async def submit(stub: referee_pb2_grpc.RefereeServiceAsyncStub, game: Game) -> int:
    reply = await stub.SubmitMove(
        referee_pb2.SubmitMoveRequest(
            game_id=game.game_id, move=TAKE_WHITE_2, client_move_id=uuid.uuid4().hex
        ),
        metadata=(("authorization", f"Bearer {game.mover}"),),
    )
    return reply.version


def submitter(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub, game: Game
) -> Callable[[], Awaitable[int]]:
    async def one() -> int:
        return await submit(stub, game)

    return one


async def _follow(stub: referee_pb2_grpc.RefereeServiceAsyncStub, watch: Watch) -> None:
    stream = stub.WatchGame(referee_pb2.WatchGameRequest(game_id=watch.game.game_id))
    try:
        async for message in stream:
            watch.seen[message.version] = time.monotonic()
            watch.arrived.set()
    except grpc.aio.AioRpcError as error:
        watch.error = error
        watch.arrived.set()


@contextlib.asynccontextmanager
async def watching(
    stubs_: Sequence[referee_pb2_grpc.RefereeServiceAsyncStub],
    games: Sequence[Game],
    *,
    concurrency: int = 200,
    timeout: float = 120.0,
) -> AsyncIterator[list[Watch]]:
    """One open stream per game (spectating), each with its first message (the snapshot),
    opened ``concurrency`` at a time; all cancelled when the block exits."""
    watches = [Watch(game) for game in games]
    tasks: list[asyncio.Task[None]] = []

    def opener(number: int, watch: Watch) -> Callable[[], Awaitable[object]]:
        async def open_one() -> None:
            stub = stubs_[number % len(stubs_)]
            tasks.append(asyncio.create_task(_follow(stub, watch)))
            await watch.arrived.wait()

        return open_one

    try:
        async with asyncio.timeout(timeout):
            await bounded([opener(n, w) for n, w in enumerate(watches)], concurrency)
        yield watches
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def until_seen(watches: Sequence[Watch], version: int, timeout: float) -> None:
    """Wait until every watch has ``version`` (or failed), at most ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        for watch in watches:
            while version not in watch.seen and watch.error is None:
                watch.arrived.clear()
                await watch.arrived.wait()


async def redis_clients(redis_url: str) -> tuple[int, int]:
    """Clients of the Redis at ``redis_url`` other than this call's own, and how many of
    them are blocked (waiting in XREAD BLOCK)."""
    async with Redis.from_url(redis_url, protocol=2) as client:
        own = await client.client_id()
        listed = await client.client_list()
    others = [entry for entry in listed if int(entry["id"]) != own]
    return len(others), sum("b" in entry["flags"] for entry in others)


def process_usage(pid: int) -> tuple[int, int]:
    """RSS in bytes and open fds of process ``pid`` (Linux /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss_kb = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]
    return rss_kb * 1024, len(os.listdir(f"/proc/{pid}/fd"))


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class Referee:
    address: str
    pid: int


@contextlib.contextmanager
def referee_serve(redis_url: str, data_dir: Path) -> Iterator[Referee]:
    """`referee serve` as its own process on ``redis_url`` until the block exits."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "REFEREE_TOKEN_SECRET": SECRET,
        "REFEREE_PORT": "0",
        "REFEREE_HTTP_PORT": "off",
        "REFEREE_DATA_DIR": str(data_dir),
        "REFEREE_LOG_LEVEL": "warning",
        "REFEREE_WORKERS": "1",
        "REFEREE_LOOPBACK_QUOTAS": "unlimited",  # 20,000 watches from loopback
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "service.process.cli", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        address = None
        for line in process.stdout:
            if match := re.search(r"referee listening on (\S+)", line):
                address = match.group(1)
                break
        assert address is not None, "the referee did not start"
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield Referee(address, process.pid)
    finally:
        process.terminate()
        process.wait(30)


async def measure(referee: Referee, redis_url: str, args: argparse.Namespace) -> None:
    channels = [grpc.aio.insecure_channel(referee.address) for _ in range(args.channels)]
    try:
        stub, *_ = all_stubs = stubs(channels)
        started = time.monotonic()
        games = await create_games(stub, args.games + 1)
        other, games = games[0], games[1:]
        print(f"created {len(games):,} games in {time.monotonic() - started:.1f} s")
        rss0, fds0 = process_usage(referee.pid)
        clients0, _ = await redis_clients(redis_url)
        started = time.monotonic()
        async with watching(all_stubs, games, timeout=max(120.0, len(games) / 20)) as watches:
            print(f"opened {len(watches):,} streams in {time.monotonic() - started:.1f} s")
            await asyncio.sleep(1.0)  # let the RPC connections opened meanwhile settle
            rss1, fds1 = process_usage(referee.pid)
            clients1, blocked = await redis_clients(redis_url)
            view = await stub.GetView(referee_pb2.GetViewRequest(game_id=other.game_id))
            await create_games(stub, 1)
            assert view.view.version == 0
            assert await submit(stub, other) == 1
            print("GetView, CreateGame, SubmitMove on another game: OK")
            sample, rest = watches[: args.sample], watches[args.sample :]
            latencies = []
            for watch in sample:
                sent = time.monotonic()
                await submit(stub, watch.game)
                await until_seen([watch], 1, 30)
                latencies.append(watch.seen[1] - sent)
            started = time.monotonic()
            await bounded([submitter(stub, w.game) for w in rest], 64)
            await until_seen(rest, 1, 120)
            every = time.monotonic() - started
            missing = sum(1 not in w.seen for w in watches)
    finally:
        await asyncio.gather(*(channel.close(None) for channel in channels))
    streams = len(games)
    mib = 1024 * 1024
    print(f"machine: {machine()}")
    print(
        f"referee RSS {rss0 / mib:.0f} -> {rss1 / mib:.0f} MiB: "
        f"{(rss1 - rss0) / streams / 1024:.1f} KiB per stream"
    )
    print(f"referee fds {fds0} -> {fds1}: {(fds1 - fds0) / streams:.4f} per stream")
    print(f"Redis connections {clients0} -> {clients1}, blocked in XREAD: {blocked}")
    print(
        f"delivery over {len(latencies)} games one at a time: "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms"
    )
    print(
        f"one move on each of {len(rest):,} other games (64 at a time): all delivered in "
        f"{every:.1f} s; watchers without their move: {missing}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--sample", type=int, default=1_000)
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as tmp,
        EmbeddedRedis(Path(tmp, "redis")) as redis,
        referee_serve(redis.url, Path(tmp, "referee")) as referee,
    ):
        asyncio.run(measure(referee, redis.url, args))


if __name__ == "__main__":
    main()
