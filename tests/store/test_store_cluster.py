"""The same store code on a real three-node Redis Cluster (started here, no replicas)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from service.errors import Unavailable
from service.storage.durability import read_persistence
from service.storage.store import CommitStatus, RedisStore
from tests.redis_cluster import NODES, redis_cluster


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as url:
        yield url


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
                head="head",
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
                head="head",
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
                head="head",
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
                head="head",
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


async def test_wait_goes_to_each_games_node(cluster_url: str) -> None:
    """WAIT rides with the commit to the node of the game's slot (this cluster has no
    replicas, so every commit is stored there and none is acknowledged as replicated)."""
    game_ids = [f"cluster-wait-{index}" for index in range(6)]
    async with RedisStore.from_url(
        cluster_url, cluster=True, wait_replicas=1, wait_timeout_ms=50
    ) as store:
        for game_id in game_ids:
            assert await store.create(game_id, b"0", b"meta")
            with pytest.raises(Unavailable) as caught:
                await store.commit(
                    game_id,
                    expected_version=0,
                    state=b"1",
                    log_entry=b"first",
                    head="head",
                    move_key="m1",
                    move_record=b"r1",
                    finished=False,
                )
            assert caught.value.reason == "REPLICATION_TIMEOUT"
            stored = await store.load(game_id)
            assert stored is not None and stored.version == 1
            assert await store.log(game_id) == [b"first"]


async def test_the_persistence_of_every_primary_is_read(cluster_url: str) -> None:
    found = await read_persistence(cluster_url, cluster=True)
    assert (found.appendonly, found.appendfsync, found.save) == ("yes", "always", "")
    assert found.risk(0) is None
