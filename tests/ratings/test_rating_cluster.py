"""Ratings unchanged on a real three-master Redis Cluster: each game's ratings on one slot,
the games to rate in shards of their own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import RedisCluster
from redis.crc import key_slot

from referee.v1 import ratings_pb2, ratings_pb2_grpc
from service.process.server import running
from tests.ratings.support import GAME, OPERATOR_KEYS, channel, play_first_moves, seated_rated_table
from tests.redis_cluster import redis_cluster
from tests.servers import settings_for


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as url:
        yield url


async def test_a_rated_table_is_rated_on_a_redis_cluster(cluster_url: str, tmp_path: Path) -> None:
    """Rule (service.storage.ratings): "Every key of one game's ratings carries the hash tag
    {<game>} ... on one Redis Cluster slot", so the apply is one script there; the games to
    rate are sharded like the deadline index, and nothing is left to rate."""
    settings = dataclasses.replace(
        settings_for(cluster_url, tmp_path), redis_cluster=True, operator_keys=OPERATOR_KEYS
    )
    async with running(settings) as server:
        game_id, tokens = await seated_rated_table(server.address, ["c-ann", "c-ben"])
        assert await play_first_moves(server.address, game_id, tokens)
        async with channel(server.address) as opened:
            ratings = ratings_pb2_grpc.RatingServiceStub(opened)
            history = await ratings.ListRatingHistory(
                ratings_pb2.ListRatingHistoryRequest(game=GAME, player_id="c-ann")
            )
            board = await ratings.ListLeaderboard(ratings_pb2.ListLeaderboardRequest(game=GAME))
    assert [change.game_id for change in history.changes] == [game_id]
    assert {entry.rating.player_id for entry in board.entries} == {"c-ann", "c-ben"}
    client: RedisCluster = RedisCluster.from_url(cluster_url)
    try:
        keys = [key async for key in client.scan_iter(match=f"ratings:{{{GAME}}}*")]
        assert len(keys) == 6  # two players' ratings and histories, the board, the marker
        assert len({key_slot(key) for key in keys}) == 1
        pending = [key async for key in client.scan_iter(match="rating-pending:*")]
        assert [await client.zcard(key) for key in pending] == [0] * len(pending)
    finally:
        await client.aclose()
