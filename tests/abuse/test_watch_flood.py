"""Watch flood: one client opens a watch stream on each of many distinct games.

Before the one watch reader, every watched game held a Redis connection in its own
blocking XREAD, and at 4,097 streams (the pool) every RPC of every user answered
STORE_UNAVAILABLE. Now the referee's blocked connections stay at the reader's lanes, its
connections do not grow with the streams, other RPCs answer, and each watcher still gets
its game's next move. ``REFEREE_WATCH_FLOOD_GAMES`` sets the count (bench/watch_many.py
measures 20,000 by hand).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from bench.watch_many import (
    Game,
    bounded,
    create_games,
    redis_clients,
    stubs,
    submit,
    submitter,
    until_seen,
    watching,
)
from referee.v1 import referee_pb2
from service.process.redis_server import EmbeddedRedis
from service.storage.watch_reader import LANES
from tests.servers import Served, referee_process
from tests.service.table import reason_of

GAMES = int(os.environ.get("REFEREE_WATCH_FLOOD_GAMES", "1000"))
CHANNELS = 8
OPEN_CONCURRENCY = 100
# The referee's own connections besides the reader's: its RPCs' pool (grown to about the
# concurrency the test calls with), the tournament store, the health probe.
RPC_CONNECTIONS = 2 * OPEN_CONCURRENCY + 32


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own, so CLIENT LIST shows the referee's connections only."""
    with EmbeddedRedis(tmp_path / "redis") as server:
        yield server.url


async def attack_watch_flood(
    served: Served, seconds: float, *, games: int = GAMES, channels: int = CHANNELS
) -> dict[str, Any]:
    """Create ``games`` new games (a bounded count: the set-up, not timed), then open a
    watch stream on each, hold them until ``seconds`` have passed since the first opened,
    and close them. Returns the attempts, the refusals by reason and the attacker's rate
    (streams opened per second)."""
    grpc_channels = [grpc.aio.insecure_channel(served.grpc) for _ in range(channels)]
    refusals: Counter[str] = Counter()
    try:
        all_stubs = stubs(grpc_channels)
        made: list[Game] = []
        try:
            made = await create_games(all_stubs[0], games)
        except grpc.aio.AioRpcError as error:
            refusals[reason_of(error)[1]] += 1
        started = time.monotonic()
        opened = 0
        async with watching(all_stubs, made, timeout=max(1.0, seconds)) as watches:
            for watch in watches:
                if watch.error is not None:
                    refusals[reason_of(watch.error)[1]] += 1
                else:
                    opened += 1
            elapsed = time.monotonic() - started
            await asyncio.sleep(max(0.0, seconds - elapsed))
    finally:
        await asyncio.gather(*(channel.close(None) for channel in grpc_channels))
    return {
        "attempts": len(made),
        "refusals": dict(refusals),
        "rate": opened / max(elapsed, 1e-9),
    }


async def test_a_flood_of_watches_on_distinct_games_holds_no_connection_each(
    private_redis: str, tmp_path: Path
) -> None:
    with referee_process(private_redis, tmp_path / "referee") as served:
        grpc_channels = [grpc.aio.insecure_channel(served.grpc) for _ in range(CHANNELS)]
        try:
            all_stubs = stubs(grpc_channels)
            stub = all_stubs[0]
            other, *games = await create_games(stub, GAMES + 1)
            async with watching(all_stubs, games, concurrency=OPEN_CONCURRENCY) as watches:
                assert all(watch.error is None and 0 in watch.seen for watch in watches)
                clients, blocked = await redis_clients(private_redis)
                assert blocked <= LANES, "the watches wait on the reader's lanes only"
                assert clients <= LANES + RPC_CONNECTIONS, f"{clients} connections"
                view = await stub.GetView(referee_pb2.GetViewRequest(game_id=other.game_id))
                assert view.view.version == 0
                assert await submit(stub, other) == 1
                moves = [submitter(all_stubs[n % CHANNELS], w.game) for n, w in enumerate(watches)]
                await bounded(moves, 64)
                await until_seen(watches, 1, 60)
                assert [w.game for w in watches if 1 not in w.seen] == []
                assert all(watch.error is None for watch in watches)
                assert (await redis_clients(private_redis))[1] <= LANES
        finally:
            await asyncio.gather(*(channel.close(None) for channel in grpc_channels))


async def test_the_attack_reports_its_rate(private_redis: str, tmp_path: Path) -> None:
    with referee_process(private_redis, tmp_path / "referee") as served:
        result = await attack_watch_flood(served, 3.0, games=200)
    assert result["attempts"] == 200
    assert result["refusals"] == {}
    assert result["rate"] > 0
