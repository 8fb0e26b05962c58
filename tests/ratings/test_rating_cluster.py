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
from service.storage.ratings import RatingStore
from service.storage.redis_kit import as_bytes
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
    rate are sharded like the deadline index, and nothing is left to rate. Every check is
    scoped to this test's players and game: other tables may share the cluster."""
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
    assert {"c-ann", "c-ben"} <= {entry.rating.player_id for entry in board.entries}
    client: RedisCluster = RedisCluster.from_url(cluster_url)
    try:
        named = RatingStore(client)
        players = ("c-ann", "c-ben")
        keys = [named.player_key(GAME, p) for p in players]
        keys += [named.history_key(GAME, p) for p in players]
        keys += [named.board_key(GAME), named.marker_key(GAME, game_id)]
        assert [await client.exists(key) for key in keys] == [1] * len(keys)
        assert len({key_slot(key.encode()) for key in keys}) == 1
        left = []
        async for key in client.scan_iter(match="rating-pending:*"):
            members = await client.zrange(key, 0, -1)
            left += [m for m in members if as_bytes(m).endswith(f":{game_id}".encode())]
        assert left == []  # this game's member is dropped once it is rated
    finally:
        await client.aclose()
