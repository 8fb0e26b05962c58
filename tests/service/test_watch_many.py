"""The one watch reader of a process: many games on few connections, new games picked up at
once, slow subscribers bounded, long games replayed in batches; and tournament watches
sharing one read per tournament."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from referee.v1 import referee_pb2, tournament_pb2, tournament_pb2_grpc
from service.app import watching as watching_module
from service.process.server import Running
from service.storage import feed as feed_module
from service.storage import watch_reader
from service.storage.tables import load_table
from tests.service.table import COLOURS, Stub, Table, take

WHITE = COLOURS[0]
T = tournament_pb2


async def _messages(
    stub: Stub, table: Table, after: int | None, count: int
) -> list[referee_pb2.WatchGameResponse]:
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after
    stream = stub.WatchGame(request, metadata=table.md(0))
    out: list[referee_pb2.WatchGameResponse] = []
    async for message in stream:
        out.append(message)
        if len(out) == count:
            stream.cancel()
            break
    return out


async def _versions(stub: Stub, table: Table, after: int | None, count: int) -> list[int]:
    return [message.version for message in await _messages(stub, table, after, count)]


async def _swaps(table: Table, count: int) -> None:
    """``count`` moves: seats 1 and 2 take the same white chip from each other in turn."""
    for number in range(count):
        await table.submit(1 + number % 2, take(WHITE, 2))


async def _until(condition: object, seconds: float) -> None:
    assert callable(condition)
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_game_watched_while_the_reader_blocks_is_read_at_once(
    stub: Stub, referee_server: Running
) -> None:
    """The lane following ``first`` sits in a blocking call when ``second`` joins it; the
    wake ends that call (its wake stream was read) and the move comes at once."""
    store = referee_server.referee.feed.store
    feed = referee_server.referee.feed

    def lane_of(table: Table) -> int:
        return store.slot(table.game_id) % watch_reader.LANES

    first = await Table.create(stub, 3)
    early = asyncio.create_task(_versions(stub, first, None, 2))
    await _until(lambda: feed.games == 1, 10)
    lane = feed._reader._lanes[lane_of(first)]
    await _until(lambda: lane.blocked, 10)
    assert lane.wake_id == "0-0"
    second = await Table.create(stub, 3)
    while lane_of(second) != lane_of(first):
        second = await Table.create(stub, 3)
    late = asyncio.create_task(_versions(stub, second, None, 2))
    await _until(lambda: feed.games == 2, 10)
    await second.submit(1, take(WHITE, 2))
    assert await asyncio.wait_for(late, 20) == [0, 1]
    assert lane.wake_id != "0-0", "the lane's call was ended by its wake stream"
    await first.submit(1, take(WHITE, 2))
    assert await asyncio.wait_for(early, 20) == [0, 1]


async def test_more_games_than_one_call_takes_are_read_in_turn(
    stub: Stub, referee_server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch_reader, "STREAMS_PER_CALL", 2)
    tables = [await Table.create(stub, 3) for _ in range(40)]
    watchers = [asyncio.create_task(_versions(stub, t, None, 3)) for t in tables]
    await _until(lambda: referee_server.referee.feed.games == len(tables), 10)
    for table in tables:
        await _swaps(table, 2)
    assert await asyncio.wait_for(asyncio.gather(*watchers), 30) == [[0, 1, 2]] * len(tables)


async def test_a_subscriber_far_behind_gets_one_snapshot_instead_of_a_long_queue(
    stub: Stub, referee_server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "QUEUE_LIMIT", 4)
    referee = referee_server.referee
    table = await Table.create(stub, 3)
    loaded = await load_table(referee.feed.store, table.game_id)
    async with referee.feed.subscribe(loaded) as subscription:
        await _swaps(table, 11)
        queue = subscription._queue
        await _until(lambda: referee.feed._channels[table.game_id].version == 11, 10)
        assert queue.qsize() <= 4
        changes = [queue.get_nowait() for _ in range(queue.qsize())]
    assert changes and all(change is not None for change in changes)
    versions = [change.version for change in changes if change is not None]
    assert versions == sorted(versions) and versions[-1] == 11
    snapshots = [change for change in changes if change is not None and change.snapshot]
    assert snapshots, "the dropped changes were replaced by a snapshot"
    assert snapshots[0].events == []
    # Nothing missed: every change after the snapshot follows it one version at a time.
    after = [c.version for c in changes if c is not None and c.version > snapshots[-1].version]
    assert after == list(range(snapshots[-1].version + 1, 12))


async def test_a_watch_from_version_0_replays_a_long_game_in_batches(
    stub: Stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await Table.create(stub, 3)
    await _swaps(table, 40)
    whole = await asyncio.wait_for(_messages(stub, table, 0, 40), 20)  # in one batch
    monkeypatch.setattr(watching_module, "REPLAY_BATCH", 7)
    batched = await asyncio.wait_for(_messages(stub, table, 0, 40), 20)
    assert [m.version for m in batched] == list(range(1, 41))
    assert batched == whole, "the same stream, whatever the batch"
    resumed = await asyncio.wait_for(_messages(stub, table, 13, 27), 20)
    assert resumed == whole[13:]


async def test_watches_of_one_tournament_share_one_wait(referee_server: Running) -> None:
    assert referee_server.tournaments is not None
    host = referee_server.tournaments.host
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(
            T.CreateTournamentRequest(
                game="gang_of_four",
                seats_per_table=4,
                participants=[
                    T.ParticipantSpec(name=f"bot {n}", bot=T.BOT_STRATEGY_RANDOM) for n in range(4)
                ],
                format=T.TOURNAMENT_FORMAT_SWISS,
                rounds=1,
            )
        )
        request = T.WatchTournamentRequest(tournament_id=created.tournament_id)
        streams = [stub.WatchTournament(request) for _ in range(20)]
        firsts = [await stream.read() for stream in streams]
        assert all(isinstance(f, T.WatchTournamentResponse) for f in firsts)
        nexts = [asyncio.create_task(stream.read()) for stream in streams]
        await _until(lambda: bool(host._waits), 10)
        await asyncio.sleep(0.1)  # every watcher is in its wait by now
        assert list(host._waits) == [(created.tournament_id, 0)], "one read for 20 watches"
        await stub.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=(("authorization", f"Bearer {created.admin_token}"),),
        )
        updates = await asyncio.wait_for(asyncio.gather(*nexts), 20)
        assert all(
            isinstance(u, T.WatchTournamentResponse) and u.tournament.version > 0 for u in updates
        )
        for stream in streams:
            stream.cancel()
