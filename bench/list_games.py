"""ListGames with many open listed tables, against a plain gRPC echo:
``python -m bench.list_games [--tables 10000] [--seconds 5]``.

Starts Redis (embedded, or ``REDIS_URL``), ``referee serve`` and ``bench.echo`` as their
own processes (as ``bench.e2e`` does), then:

1. **fill**: ``--tables`` open, listed tables of Pinched! (4 seats, 2 open) made through
   CreateGame, ``--concurrency`` calls in flight at a time over a few channels (each create
   also issues its join code and writes its listing entry: the real path, pipelined by
   having many calls in flight);
2. **echo**: ``--clients`` clients calling the unary bytes echo with the request and
   response sizes of a first ListGames page, the baseline;
3. **first page**: the same clients calling ListGames(game, status OPEN, page_size 50);
4. **deep page**: the same with the page token of the page at ``--depth`` tables down.

Each measured window follows a one-second warm-up; calls/s, p50 and p99 are printed per
phase. ListGames's per-caller rate is turned off in the referee
(``REFEREE_LIST_GAMES_PER_SECOND=0``): this measures the listing, not its limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import grpc

from bench import echo
from bench.common import Row, machine, percentile, print_table
from bench.e2e import CHANNEL_OPTIONS, child_env, redis_url, server_process
from referee.v1 import lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc, table_pb2

if TYPE_CHECKING:
    from referee.v1.lobby_pb2_grpc import LobbyServiceAsyncStub

GAME = "pinched"
PAGE = 50
Call = Callable[[], Awaitable[object]]


@dataclass(frozen=True)
class Figures:
    name: str
    calls: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.calls / self.seconds

    def ms(self, q: float) -> float:
        return 1000 * percentile(sorted(self.latencies), q)


async def fill(target: str, tables: int, concurrency: int) -> float:
    """Create ``tables`` open listed tables; the seconds it took."""
    channels = [grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS) for _ in range(4)]
    stubs = itertools.cycle([referee_pb2_grpc.RefereeServiceStub(c) for c in channels])
    request = referee_pb2.CreateGameRequest(game=GAME, seats=4, open_seats=2, listed=True)
    left = iter(range(tables))
    began = time.perf_counter()

    async def creator() -> None:
        for _ in left:
            await next(stubs).CreateGame(request, timeout=30)

    try:
        await asyncio.gather(*(creator() for _ in range(concurrency)))
    finally:
        for channel in channels:
            await channel.close(None)
    return time.perf_counter() - began


async def window(name: str, calls: Sequence[Call], seconds: float) -> Figures:
    """Every callable in ``calls`` (one per client) called in a loop: 1 s warm-up, then
    ``seconds`` measured."""
    latencies: list[float] = []
    measuring = False
    stop = False

    async def client(call: Call) -> None:
        while not stop:
            began = time.perf_counter()
            await call()
            if measuring:
                latencies.append(time.perf_counter() - began)

    tasks = [asyncio.create_task(client(call)) for call in calls]
    await asyncio.sleep(1.0)
    measuring, started = True, time.perf_counter()
    await asyncio.sleep(seconds)
    measuring, elapsed = False, time.perf_counter() - started
    stop = True
    await asyncio.gather(*tasks)
    return Figures(name, len(latencies), elapsed, latencies)


async def deep_token(lobby: LobbyServiceAsyncStub, depth: int) -> str:
    """The page token that starts ``depth`` tables down the listing (pages of 200)."""
    token, seen = "", 0
    while seen < depth:
        size = min(200, depth - seen)
        page = await lobby.ListGames(
            lobby_pb2.ListGamesRequest(
                game=GAME, status=table_pb2.TABLE_STATUS_OPEN, page_size=size, page_token=token
            )
        )
        seen += len(page.games)
        token = page.next_page_token
        if not token:
            raise SystemExit(f"the listing ended after {seen} tables, before --depth {depth}")
    return token


async def measure(referee: str, echo_target: str, args: argparse.Namespace) -> list[Figures]:
    filled = await fill(referee, args.tables, args.concurrency)
    print(f"fill: {args.tables:,} tables in {filled:.1f} s ({args.tables / filled:,.0f}/s)")
    channels = [
        grpc.aio.insecure_channel(referee, options=CHANNEL_OPTIONS) for _ in range(args.clients)
    ]
    echoes = [
        grpc.aio.insecure_channel(echo_target, options=CHANNEL_OPTIONS) for _ in range(args.clients)
    ]
    try:
        lobbies: list[LobbyServiceAsyncStub] = [
            lobby_pb2_grpc.LobbyServiceStub(channel) for channel in channels
        ]
        first = lobby_pb2.ListGamesRequest(
            game=GAME, status=table_pb2.TABLE_STATUS_OPEN, page_size=PAGE
        )
        sample = await lobbies[0].ListGames(first)
        assert len(sample.games) == PAGE
        assert sample.next_page_token
        deep = lobby_pb2.ListGamesRequest()
        deep.CopyFrom(first)
        deep.page_token = await deep_token(lobbies[0], args.depth)
        payload = echo.request_bytes(first.ByteSize(), sample.ByteSize())
        echo_calls: list[Call] = [partial(echo.method(c), payload) for c in echoes]
        first_calls: list[Call] = [partial(s.ListGames, first) for s in lobbies]
        deep_calls: list[Call] = [partial(s.ListGames, deep) for s in lobbies]
        return [
            await window("echo", echo_calls, args.seconds),
            await window(f"ListGames first page ({PAGE})", first_calls, args.seconds),
            await window(f"ListGames page at {args.depth:,} ({PAGE})", deep_calls, args.seconds),
        ]
    finally:
        for channel in [*channels, *echoes]:
            await channel.close(None)


def run(args: argparse.Namespace) -> list[Figures]:
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = "warning"
    env["REFEREE_LIST_GAMES_PER_SECOND"] = "0"
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-bench-")))
        url, _ = stack.enter_context(redis_url(work, "everysec"))
        serve = ["-m", "service.process.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
        serve += ["--http-port", "0", "--redis-url", url, "--data-dir", str(work)]
        _, referee_port = stack.enter_context(
            server_process([sys.executable, *serve], env, work / "referee.log")
        )
        _, echo_port = stack.enter_context(
            server_process(
                [sys.executable, "-m", "bench.echo", "--port", "0"], env, work / "echo.log"
            )
        )
        return asyncio.run(measure(f"127.0.0.1:{referee_port}", f"127.0.0.1:{echo_port}", args))


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=10_000, help="open listed tables")
    parser.add_argument("--depth", type=int, default=5_000, help="tables down, deep page")
    parser.add_argument("--seconds", type=float, default=5.0, help="each measured window")
    parser.add_argument("--clients", type=int, default=8, help="concurrent callers")
    parser.add_argument("--concurrency", type=int, default=64, help="creates in flight")
    args = parser.parse_args(argv)
    if not 0 < args.depth < args.tables:
        parser.error("--depth must be between 0 and --tables")
    print(f"{machine()}; load average {os.getloadavg()[0]:.2f}")
    phases = run(args)
    print_table(
        ["phase", "calls/s", "p50 ms", "p99 ms"],
        [[f.name, f"{f.rate:,.0f}", f"{f.ms(0.5):.2f}", f"{f.ms(0.99):.2f}"] for f in phases],
    )
    baseline = phases[0].rate
    for phase in phases[1:]:
        print(f"{phase.name}: {phase.rate / baseline:.2f} of echo's calls/s")
    return [Row("list_games", f.name, f.rate, "calls/s") for f in phases]


if __name__ == "__main__":
    main()
