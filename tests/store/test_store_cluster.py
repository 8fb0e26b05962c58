"""The same store code on a real three-node Redis Cluster (started here, no replicas)."""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from service.redis_server import EmbeddedRedis
from service.store import CommitStatus, RedisStore

NODES = 3
# Redis 6.2 puts the cluster bus on port + 10000, so both ports must be free and valid.
BUS_OFFSET = 10_000


def bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20_000, 30_000)
        if port not in ports and bindable(port) and bindable(port + BUS_OFFSET):
            ports.append(port)
    return ports


def wait_for_cluster(clients: list[redis.Redis], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = [client.cluster("INFO") for client in clients]
        if all(
            info["cluster_state"] == "ok" and int(info["cluster_known_nodes"]) == NODES
            for info in infos
        ):
            return
        time.sleep(0.1)
    raise TimeoutError(f"cluster did not converge: {infos}")


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("cluster")
    ports = cluster_ports(NODES)
    with ExitStack() as stack:
        servers = [
            stack.enter_context(
                EmbeddedRedis(
                    Path(base, f"node{index}"),
                    port=port,
                    extra_config={
                        "cluster-enabled": "yes",
                        "cluster-config-file": "nodes.conf",
                        "cluster-node-timeout": "2000",
                    },
                )
            )
            for index, port in enumerate(ports)
        ]
        clients = [stack.enter_context(redis.Redis.from_url(s.url)) for s in servers]
        bounds = [REDIS_CLUSTER_HASH_SLOTS * i // NODES for i in range(NODES + 1)]
        for client, low, high in zip(clients, bounds, bounds[1:], strict=False):
            client.execute_command("CLUSTER ADDSLOTS", *range(low, high))
        for port in ports[1:]:
            clients[0].execute_command("CLUSTER MEET", "127.0.0.1", port)
        wait_for_cluster(clients)
        yield servers[0].url


async def test_store_works_across_cluster_nodes(cluster_url: str) -> None:
    game_ids = [f"cluster-{index}" for index in range(12)]
    nodes = {
        key_slot(f"game:{{{gid}}}".encode()) * NODES // REDIS_CLUSTER_HASH_SLOTS for gid in game_ids
    }
    assert len(nodes) > 1  # the games really live on different nodes

    async with RedisStore.from_url(cluster_url, cluster=True, finished_ttl_seconds=60) as store:
        for game_id in game_ids:
            assert await store.create(game_id, b"0", b"meta")
            assert not await store.create(game_id, b"0", b"meta")
            ok = await store.commit(
                game_id,
                expected_version=0,
                state=b"1",
                log_entry=b"first",
                move_key="m1",
                move_record=b"r1",
                finished=False,
            )
            assert ok.status is CommitStatus.OK
            stale = await store.commit(
                game_id,
                expected_version=0,
                state=b"x",
                log_entry=b"x",
                move_key="m2",
                move_record=b"x",
                finished=False,
            )
            assert (stale.status, stale.version) == (CommitStatus.CONFLICT, 1)
            duplicate = await store.commit(
                game_id,
                expected_version=1,
                state=b"x",
                log_entry=b"x",
                move_key="m1",
                move_record=b"x",
                finished=False,
            )
            assert (duplicate.status, duplicate.record) == (CommitStatus.DUPLICATE, b"r1")

            watcher = asyncio.create_task(store.read_events(game_id, 1, block_ms=5000))
            await asyncio.sleep(0.05)
            done = await store.commit(
                game_id,
                expected_version=1,
                state=b"2",
                log_entry=b"second",
                move_key="m2",
                move_record=b"r2",
                finished=True,
            )
            assert done.status is CommitStatus.OK
            assert await asyncio.wait_for(watcher, 5) == [(2, b"second")]

            record = await store.load(game_id)
            assert record is not None
            assert (record.version, record.state) == (2, b"2")
            assert await store.log(game_id) == [b"first", b"second"]
            assert await store.first_event_version(game_id) == 1
            await store.delete(game_id)
            assert not await store.exists(game_id)
