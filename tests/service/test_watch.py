"""WatchGame: live, resumable, per-seat redacted, ending with the game."""

from __future__ import annotations

import asyncio
from itertools import repeat

import grpc
import pytest

from engines.base import RULES_REVISION_OPTION, replay
from engines.registry import GAMES
from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2
from service.edge.translate import events_to_proto
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, reason_of, take

WHITE = COLOURS[0]


async def _collect(
    stub: Stub,
    table: Table,
    seat: int | None,
    after: int | None,
    count: int,
    first: asyncio.Event | None = None,
) -> list[referee_pb2.WatchGameResponse]:
    """``count`` messages of a watch; ``first`` is set once the first one (the snapshot,
    without ``after``) is in, so a test moves only once the watch is live."""
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after
    stream = stub.WatchGame(request, metadata=table.md(seat))
    out: list[referee_pb2.WatchGameResponse] = []
    async for message in stream:
        out.append(message)
        if first is not None:
            first.set()
        if len(out) == count:
            stream.cancel()
            break
    return out


async def _watching(
    stub: Stub, watches: list[tuple[Table, int | None, int]]
) -> list[asyncio.Task[list[referee_pb2.WatchGameResponse]]]:
    """Watches from a snapshot, each (table, seat, count), once every one has its snapshot."""
    started = [asyncio.Event() for _ in watches]
    tasks = [
        asyncio.create_task(_collect(stub, table, seat, None, count, first))
        for (table, seat, count), first in zip(watches, started, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(first.wait() for first in started)), 30)
    return tasks


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
    (watcher,) = await _watching(stub, [(table, 0, 3)])
    first = await table.submit(1, take(WHITE, 2))
    second = await table.submit(2, take(WHITE, 3))
    messages = await asyncio.wait_for(watcher, 10)
    assert messages[0].snapshot and messages[0].version == 0
    assert [m.version for m in messages[1:]] == [first.version, second.version]
    assert messages[2].view.seat == 0
    assert list(messages[2].view.the_gang.pocket) == list((await table.view(0)).the_gang.pocket)


async def test_a_seat_sees_only_its_own_pocket_deal(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"deal")
    watchers = await _watching(stub, [(table, seat, 4) for seat in (0, 1, None)])
    for seat in range(3):  # ends the white round: flop dealt, yellow round starts
        await table.submit(seat, take(WHITE, seat + 1))
    done = [await asyncio.wait_for(w, 10) for w in watchers]
    for messages in done:
        kinds = [e.the_gang.WhichOneof("kind") for e in messages[-1].events]
        assert kinds[-3:] == ["round_ended", "board_dealt", "round_started"]
        assert "pocket_dealt" not in kinds


async def test_the_stream_ends_with_the_game(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"ends")
    (watcher,) = await _watching(stub, [(table, None, 10_000)])
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
    watchers = await _watching(stub, [(t, 0, 2) for t in tables])
    for table in tables:
        await table.submit(1, take(WHITE, 2))
    streams = await asyncio.wait_for(asyncio.gather(*watchers), 30)
    assert all([m.version for m in messages] == [0, 1] for messages in streams)


def _full_and_seen(
    history: referee_pb2.GetHistoryResponse, viewer: int | None
) -> tuple[list[list[game_pb2.Event]], list[list[game_pb2.Event]]]:
    """Per version: every event of a finished game, and what ``viewer`` sees of them live
    (the engine's own redaction, recomputed from the revealed seed)."""
    name = history.setup.game
    game, codec = GAMES[name], CODECS[name]
    options = {
        **codec.options_from_proto(history.setup.options),
        RULES_REVISION_OPTION: history.setup.rules_revision,
    }
    config = game.make_config(history.setup.seats, options)
    moves = [(entry.seat, codec.move_from_proto(entry.move)) for entry in history.entries]
    _, steps = replay(game, config, history.seed, moves)
    full = [events_to_proto(name, list(step.events)) for step in steps]
    seen = [
        events_to_proto(name, [e for e in map(game.view_event, step.events, repeat(viewer)) if e])
        for step in steps
    ]
    return full, seen


async def test_after_the_end_every_event_is_public_and_not_one_version_earlier(
    stub: Stub,
) -> None:
    table = await Table.create(stub, 3, seed=b"public-at-the-end")
    stream = stub.WatchGame(
        referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=table.md(0)
    )
    snapshot = await asyncio.wait_for(stream.read(), 10)  # subscribed: nothing can be missed
    assert isinstance(snapshot, referee_pb2.WatchGameResponse) and snapshot.snapshot

    async def rest() -> list[referee_pb2.WatchGameResponse]:
        out = []
        while (message := await stream.read()) is not grpc.aio.EOF:  # type: ignore[attr-defined]
            assert isinstance(message, referee_pb2.WatchGameResponse)
            out.append(message)
        return out

    live_task = asyncio.create_task(rest())
    await play_to_end(table, 3, win=True)
    live = await asyncio.wait_for(live_task, 20)
    history = await table.history(None)
    full, seen = _full_and_seen(history, 0)
    assert full != seen  # other seats' pockets were hidden from seat 0 during the game
    final = len(history.entries)
    assert [m.version for m in live] == list(range(1, final + 1))
    # Live: redacted up to the last move; the update of the final version carries it all.
    assert [list(m.events) for m in live[:-1]] == seen[:-1]
    assert list(live[-1].events) == full[-1]
    # Replayed from the finished game, from any seat: every version's every event.
    for seat in (1, None):
        replayed = await asyncio.wait_for(_collect(stub, table, seat, after=0, count=final), 10)
        assert [list(m.events) for m in replayed] == full
        assert [list(m.events) for m in replayed] == [list(e.events) for e in history.entries]


async def test_play_replays_a_finished_game_with_every_event(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"public-play")
    await play_to_end(table, 3, win=True)
    history = await table.history(None)
    call = stub.Play(None, metadata=table.md(2))
    join = referee_pb2.PlayRequest.Join(game_id=table.game_id, after_version=0)
    await call.write(referee_pb2.PlayRequest(join=join))
    updates: list[referee_pb2.WatchGameResponse] = []
    while len(updates) < len(history.entries):
        response = await asyncio.wait_for(call.read(), 10)
        assert isinstance(response, referee_pb2.PlayResponse)
        updates.append(response.update)
    call.cancel()
    assert [list(u.events) for u in updates] == [list(e.events) for e in history.entries]
    assert updates[-1].view.HasField("outcome")
