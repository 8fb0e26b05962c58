"""WatchGame: live, resumable, per-seat redacted, ending with the game."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from referee.v1 import referee_pb2
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, reason_of, take

WHITE = COLOURS[0]


async def _collect(
    stub: Stub, table: Table, seat: int | None, after: int | None, count: int
) -> list[referee_pb2.WatchGameResponse]:
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after
    stream = stub.WatchGame(request, metadata=table.md(seat))
    out: list[referee_pb2.WatchGameResponse] = []
    async for message in stream:
        out.append(message)
        if len(out) == count:
            stream.cancel()
            break
    return out


async def test_resume_after_a_version_replays_exactly_the_missed_updates(stub: Stub) -> None:
    table = await Table.create(stub, 4)
    replies = [await table.submit(seat, take(WHITE, seat + 1)) for seat in range(3)]
    resumed = await asyncio.wait_for(_collect(stub, table, 2, after=1, count=2), 10)
    assert [m.version for m in resumed] == [2, 3]
    assert not any(m.snapshot for m in resumed)
    assert resumed[0].events[0].the_gang.chip_taken.seat == 1
    assert resumed[1].view == replies[2].view


async def test_live_updates_follow_a_snapshot(stub: Stub) -> None:
    table = await Table.create(stub, 3)
    watcher = asyncio.create_task(_collect(stub, table, 0, after=None, count=3))
    await asyncio.sleep(0.1)
    first = await table.submit(1, take(WHITE, 2))
    second = await table.submit(2, take(WHITE, 3))
    messages = await asyncio.wait_for(watcher, 10)
    assert messages[0].snapshot and messages[0].version == 0
    assert [m.version for m in messages[1:]] == [first.version, second.version]
    assert messages[2].view.seat == 0
    assert list(messages[2].view.the_gang.pocket) == list((await table.view(0)).the_gang.pocket)


async def test_a_seat_sees_only_its_own_pocket_deal(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"deal")
    watchers = [
        asyncio.create_task(_collect(stub, table, seat, after=None, count=4))
        for seat in (0, 1, None)
    ]
    await asyncio.sleep(0.1)
    for seat in range(3):  # ends the white round: flop dealt, yellow round starts
        await table.submit(seat, take(WHITE, seat + 1))
    done = [await asyncio.wait_for(w, 10) for w in watchers]
    for messages in done:
        kinds = [e.the_gang.WhichOneof("kind") for e in messages[-1].events]
        assert kinds[-3:] == ["round_ended", "board_dealt", "round_started"]
        assert "pocket_dealt" not in kinds


async def test_the_stream_ends_with_the_game(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"ends")
    watcher = asyncio.create_task(_collect(stub, table, None, after=None, count=10_000))
    await asyncio.sleep(0.1)
    final = await play_to_end(table, 3, win=True)
    messages = await asyncio.wait_for(watcher, 20)
    assert messages[-1].version == final.version
    assert messages[-1].view.HasField("outcome")
    late = await asyncio.wait_for(_collect(stub, table, 1, after=None, count=10), 10)
    assert len(late) == 1 and late[0].view.HasField("outcome")


@pytest.mark.parametrize("after", [-1, 5])
async def test_resume_point_must_exist(stub: Stub, after: int) -> None:
    table = await Table.create(stub, 3)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _collect(stub, table, 0, after=after, count=1)
    code, reason, _ = reason_of(caught.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert reason in {"VERSION_AHEAD", "VERSION_INVALID"}


async def test_spectating_a_private_game_is_refused(stub: Stub) -> None:
    table = await Table.create(stub, 3, spectators=False)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _collect(stub, table, None, after=None, count=1)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")


async def test_one_referee_follows_more_games_than_a_default_redis_pool_holds(
    stub: Stub,
) -> None:
    """Each watched game blocks one Redis connection in its reader; redis-py's default pool
    (100) once stalled a referee watching more games than that (found by the load test)."""
    tables = [await Table.create(stub, 3) for _ in range(130)]
    watchers = [asyncio.create_task(_collect(stub, t, 0, after=None, count=2)) for t in tables]
    await asyncio.sleep(0.5)
    for table in tables:
        await table.submit(1, take(WHITE, 2))
    streams = await asyncio.wait_for(asyncio.gather(*watchers), 30)
    assert all([m.version for m in messages] == [0, 1] for messages in streams)
