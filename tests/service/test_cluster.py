"""The referee unchanged on a real three-master Redis Cluster: whole games, one slot each."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from redis.asyncio import RedisCluster
from redis.crc import key_slot

from referee.v1 import referee_pb2
from service.edge.verify import verify_history
from service.process.server import running
from tests.redis_cluster import redis_cluster
from tests.servers import settings_for
from tests.service.players import play_to_end
from tests.service.table import Stub, Table


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as url:
        yield url


async def test_games_play_to_the_end_on_a_redis_cluster(cluster_url: str, tmp_path: Path) -> None:
    settings = dataclasses.replace(settings_for(cluster_url, tmp_path), redis_cluster=True)
    async with (
        running(settings) as server,
        grpc.aio.insecure_channel(server.address) as channel,
    ):
        stub = Stub(channel)
        tables = [await Table.create(stub, 3 + n % 4, seed=b"cluster-%d" % n) for n in range(8)]
        watchers = [asyncio.create_task(_watch_to_end(stub, table)) for table in tables[:2]]
        finals = await asyncio.gather(
            *(play_to_end(table, 3 + n % 4, win=n % 2 == 0) for n, table in enumerate(tables))
        )
        assert all(final.HasField("outcome") for final in finals)
        assert [await asyncio.wait_for(w, 20) for w in watchers] == [
            finals[0].version,
            finals[1].version,
        ]
        for table in tables:
            report = verify_history(await table.history(None))
            assert report.ok, str(report)
    client: RedisCluster = RedisCluster.from_url(cluster_url)
    try:
        for table in tables:
            keys = [k async for k in client.scan_iter(match=f"game:{{{table.game_id}}}*")]
            # A finished game keeps its hash, log and stream; its idempotency records
            # went with the finishing move (late retries are answered from the log).
            suffixes = sorted(key.decode().rpartition("}")[2] for key in keys)
            assert suffixes == ["", ":events", ":log"]
            assert len({key_slot(key) for key in keys}) == 1
        nodes = {str(client.get_node_from_key(f"game:{{{t.game_id}}}")) for t in tables}
        assert len(nodes) > 1, "the games should be spread over the cluster's masters"
    finally:
        await client.aclose()


async def _watch_to_end(stub: Stub, table: Table) -> int:
    last = -1
    stream = stub.WatchGame(referee_pb2.WatchGameRequest(game_id=table.game_id))
    async for message in stream:
        last = message.version
    return last
