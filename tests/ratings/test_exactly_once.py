"""Each rated game's ratings are applied exactly once, across `referee serve` processes:
the process that finishes a rated table dies (a failpoint: ``os._exit`` as a SIGKILL
would) before its rating or after it but before it dropped the game from those to rate,
and the two other processes, whose sweeps both see the game, rate it once between them
(service.app.rater)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import redis

from referee.v1 import (
    ratings_pb2,
    ratings_pb2_grpc,
)
from service.process.server import FAILPOINT_VARIABLE
from service.storage.pending_ratings import SHARDS
from tests.ratings.support import GAME, OPERATOR_KEYS, channel, play_first_moves, seated_rated_table
from tests.servers import Served, referee_process

RATED_DB = 8  # a database of the session's Redis of its own: the sweeps see only these games
ENV = {
    "REFEREE_OPERATOR_KEYS": OPERATOR_KEYS,
    "REFEREE_DEADLINE_FIRER": "0",
    "REFEREE_LOG_LEVEL": "error",
}
WAIT_SECONDS = 30.0
# The sweeps run once a second; asking more often would only spend the rating quota.
POLL_SECONDS = 0.2


async def until(condition: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait for ``condition`` (polled), at most WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not await condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(POLL_SECONDS)


@dataclass
class Sweepers:
    """Two referee processes that only sweep (and answer the rating reads), on RATED_DB."""

    url: str
    raw: redis.Redis
    second: Served
    third: Served

    async def settled(self) -> bool:
        """Nothing is left to rate: no process can rate anything again."""
        keys = [f"rating-pending:{{{shard}}}" for shard in range(SHARDS)]
        return sum(self.raw.zcard(key) for key in keys) == 0


@pytest.fixture(scope="module")
def sweepers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sweepers]:
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{RATED_DB}"
    raw = redis.Redis.from_url(url)
    raw.flushdb()
    root = tmp_path_factory.mktemp("sweepers")
    try:
        with (
            referee_process(url, root / "b", ENV) as second,
            referee_process(url, root / "c", ENV) as third,
        ):
            yield Sweepers(url, raw, second, third)
    finally:
        raw.flushdb()
        raw.close()


async def is_rated(stub: ratings_pb2_grpc.RatingServiceAsyncStub, player_id: str) -> bool:
    request = ratings_pb2.GetRatingRequest(game=GAME, player_id=player_id)
    try:
        return (await stub.GetRating(request)).rating.games > 0
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
        return False


@pytest.mark.parametrize("step", ["before_apply", "after_apply"])
async def test_a_rated_game_is_rated_once_when_its_process_dies_and_two_others_sweep(
    sweepers: Sweepers, tmp_path: Path, step: str
) -> None:
    """Rule (issue 31): "Each update exactly once per finished game, even when two
    processes see the end or one dies mid-update": one rated game and one history entry
    per player, on either sweeper, and nothing left to rate."""
    players = [f"alice-{step}", f"bob-{step}"]
    with referee_process(sweepers.url, tmp_path, {**ENV, FAILPOINT_VARIABLE: step}) as dying:
        game_id, tokens = await seated_rated_table(dying.grpc, players)
        assert not await play_first_moves(dying.grpc, game_id, tokens)  # died, unanswered
    async with channel(sweepers.second.grpc) as second, channel(sweepers.third.grpc) as third:
        stubs = [ratings_pb2_grpc.RatingServiceStub(c) for c in (second, third)]
        await until(lambda: is_rated(stubs[0], players[0]), "the players rated")
        await until(sweepers.settled, "nothing left to rate")
        for stub in stubs:
            for player_id in players:
                found = await stub.GetRating(
                    ratings_pb2.GetRatingRequest(game=GAME, player_id=player_id)
                )
                history = await stub.ListRatingHistory(
                    ratings_pb2.ListRatingHistoryRequest(game=GAME, player_id=player_id)
                )
                assert found.rating.games == 1
                assert [change.game_id for change in history.changes] == [game_id]
