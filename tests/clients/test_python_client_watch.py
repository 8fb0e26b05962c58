"""watch(): resumes after a dropped connection with no gap and no repeat; answers are raised."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

from referee.client import (
    AsyncRefereeClient,
    AsyncSeat,
    Backoff,
    GameNotFound,
    PermissionDenied,
    RefereeClient,
    Resume,
    Unauthenticated,
    Unavailable,
)
from referee.client.calls import WatchCursor
from referee.v1 import game_pb2, referee_pb2, table_pb2
from service.process.server import Running, running
from tests.clients.python_client_play import aplay_to_end, astep
from tests.clients.python_client_proxy import CuttableProxy
from tests.servers import settings_for

# gRPC's own reconnect backoff starts at a second; the test's outage is shorter than that.
# Reconnect quickly after a cut. Not grpc.min_reconnect_backoff_ms: gRPC also uses it as the
# time a connection attempt gets, and 20 ms made a busy machine fail the first connect
# ("timed out before receiving SETTINGS frame").
FAST_RECONNECT = [
    ("grpc.initial_reconnect_backoff_ms", 20),
    ("grpc.max_reconnect_backoff_ms", 100),
]
PATIENT = Resume(attempts=50, backoff=Backoff(initial=0.01, maximum=0.1))
Messages = list[referee_pb2.WatchGameResponse]


async def wait_until(predicate: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.01)


async def play_through_drops(
    proxy: CuttableProxy, seats: Sequence[AsyncSeat], received: Messages
) -> game_pb2.View:
    """Two moves live; an outage with three moves in it; a second, short drop; the rest."""
    await wait_until(lambda: len(received) == 1)  # the snapshot
    for _ in range(2):
        await astep(seats)
    await wait_until(lambda: len(received) == 3)
    proxy.hold()
    for _ in range(3):
        await astep(seats)
    await wait_until(lambda: proxy.refused >= 1)  # the watch tried and was turned away
    proxy.release()
    await wait_until(lambda: len(received) == 6)
    proxy.cut()
    return await aplay_to_end(seats)


async def drain(updates: AsyncIterator[referee_pb2.WatchGameResponse]) -> Messages:
    return [message async for message in updates]


def assert_every_version_once(received: Messages, final: game_pb2.View) -> None:
    assert [m.version for m in received] == list(range(final.version + 1))
    assert [m.snapshot for m in received] == [True] + [False] * final.version
    assert all(m.events for m in received[1:])
    assert [m.view.version for m in received] == [m.version for m in received]
    assert received[-1].view.outcome == final.outcome


async def test_async_watch_resumes_through_a_cut_connection(referee_server: Running) -> None:
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(proxy.address, options=FAST_RECONNECT, resume=PATIENT) as cut,
    ):
        created = await direct.create_game("the_gang", 3, seed=b"resume-aio")
        seats = direct.seats(created)
        received: Messages = []

        async def watch() -> None:
            async for message in cut.seat(created.game_id, created.seat_tokens[0].token).watch():
                received.append(message)

        watching = asyncio.create_task(watch())
        final = await play_through_drops(proxy, seats, received)
        await asyncio.wait_for(watching, 20)
        history = await seats[0].history()

    assert_every_version_once(received, final)
    assert proxy.forwarded >= 3  # the first connection and one after each drop
    assert all(m.view.seat == 0 for m in received)
    assert [m.events[0] for m in received[1:]] == [e.events[0] for e in history.entries]


async def test_sync_watch_resumes_through_a_cut_connection(referee_server: Running) -> None:
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
    ):
        created = await direct.create_game(
            "the_gang", 3, allow_spectators=True, seed=b"resume-sync"
        )
        received: Messages = []

        def watch() -> None:
            with RefereeClient(proxy.address, options=FAST_RECONNECT, resume=PATIENT) as client:
                for message in client.seat(created.game_id).watch():
                    received.append(message)

        watching = asyncio.ensure_future(asyncio.to_thread(watch))
        final = await play_through_drops(proxy, direct.seats(created), received)
        await asyncio.wait_for(watching, 20)

    assert_every_version_once(received, final)
    assert proxy.forwarded >= 3
    assert not any(m.view.HasField("seat") for m in received)


async def test_a_watch_follows_the_game_to_another_referee(redis_url: str, tmp_path: Path) -> None:
    """The referee shuts down, ending its watch streams; a replica on the same Redis takes
    over behind the same address, and the watch carries on from its last version."""
    first = dataclasses.replace(settings_for(redis_url, tmp_path / "a"), shutdown_grace_seconds=0.2)
    second = settings_for(redis_url, tmp_path / "b")
    async with contextlib.AsyncExitStack() as stack:
        replica = await stack.enter_async_context(running(second))
        direct = await stack.enter_async_context(AsyncRefereeClient(replica.address))
        leaving_stack = contextlib.AsyncExitStack()
        leaving = await leaving_stack.enter_async_context(running(first))
        stack.push_async_callback(leaving_stack.aclose)
        proxy = await stack.enter_async_context(CuttableProxy(leaving.address))
        client = await stack.enter_async_context(
            AsyncRefereeClient(proxy.address, options=FAST_RECONNECT, resume=PATIENT)
        )
        created = await client.create_game("the_gang", 3, allow_spectators=True, seed=b"move")
        received: Messages = []

        async def watch() -> None:
            async for message in client.seat(created.game_id).watch():
                received.append(message)

        watching = asyncio.create_task(watch())
        seats = direct.seats(created)
        await wait_until(lambda: len(received) == 1)
        await astep(seats)
        await wait_until(lambda: len(received) == 2)

        proxy.point_at(replica.address)
        await leaving_stack.aclose()  # graceful shutdown: streams end with UNAVAILABLE
        await astep(seats)  # a move while the watch is between referees
        final = await aplay_to_end(seats)
        await asyncio.wait_for(watching, 20)

    assert_every_version_once(received, final)
    assert proxy.forwarded >= 2


async def test_a_watch_gives_up_after_its_attempts(
    referee_server: Running,
) -> None:
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(proxy.address, options=FAST_RECONNECT) as cut,
    ):
        created = await direct.create_game("the_gang", 3)
        seat = cut.seat(created.game_id, created.seat_tokens[1].token)
        brief = Resume(attempts=3, backoff=Backoff(initial=0.01, maximum=0.02))
        received: Messages = []

        async def watch_until_held() -> None:
            async with contextlib.aclosing(seat.watch(resume=brief)) as updates:
                async for message in updates:
                    received.append(message)
                    proxy.hold()  # and never released

        with pytest.raises(Unavailable):
            await watch_until_held()
    assert [m.version for m in received] == [0]


@pytest.mark.parametrize("case", ["unknown game", "other game's token", "no spectators"])
async def test_answers_that_are_not_drops_are_raised_at_once(
    referee_server: Running, case: str
) -> None:
    slow = Resume(attempts=5, backoff=Backoff(initial=2.0, jitter=False))
    async with AsyncRefereeClient(referee_server.address, resume=slow) as client:
        created = await client.create_game("the_gang", 3)
        other = await client.create_game("the_gang", 3)
        seat = {
            "unknown game": client.seat("no-such-game", created.seat_tokens[0].token),
            "other game's token": client.seat(created.game_id, other.seat_tokens[0].token),
            "no spectators": client.seat(created.game_id),
        }[case]
        expected = {
            "unknown game": GameNotFound,
            "other game's token": PermissionDenied,
            "no spectators": Unauthenticated,
        }[case]
        started = time.monotonic()
        with pytest.raises(expected):
            await drain(seat.watch())
        assert time.monotonic() - started < 1.0  # no backoff, no second try


async def test_watch_after_a_version_and_of_a_finished_game(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, seed=b"after")
        seats = client.seats(created)
        for _ in range(4):
            await astep(seats)
        later: Messages = []
        async with contextlib.aclosing(seats[2].watch(after_version=2)) as updates:
            async for message in updates:
                later.append(message)
                if message.version == 4:
                    break
        assert [(m.version, m.snapshot) for m in later] == [(3, False), (4, False)]

        final = await aplay_to_end(seats)
        tail = [m async for m in seats[2].watch(after_version=final.version - 1)]
        assert [m.version for m in tail] == [final.version]
        assert [m async for m in seats[2].watch(after_version=final.version)] == []


def test_a_watch_is_over_at_the_view_of_an_aborted_table() -> None:
    """The referee ends a stream after the view that ends the game, and an aborted table's
    view has no outcome: the cursor counts it as the end, so the watch stops there instead
    of reconnecting to a stream that closes at once."""
    cursor = WatchCursor("g", None, Resume())
    aborted = table_pb2.Table(status=table_pb2.TABLE_STATUS_ABORTED)
    assert cursor.fresh(referee_pb2.WatchGameResponse(version=3, view=game_pb2.View(table=aborted)))
    assert cursor.finished and cursor.ended(received=True)
    live = table_pb2.Table(status=table_pb2.TABLE_STATUS_LIVE)
    other = WatchCursor("g", None, Resume())
    assert other.fresh(referee_pb2.WatchGameResponse(version=3, view=game_pb2.View(table=live)))
    assert not other.finished and not other.ended(received=True)


async def test_a_watch_of_a_table_aborted_meanwhile_ends_with_its_view(
    referee_server: Running,
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("gang_of_four", 4, allow_spectators=True)
        async with contextlib.aclosing(client.seat(created.game_id).watch()) as updates:
            first = await anext(updates)
            await client.abort_game(created.game_id, created.admin_token)
            rest = [message async for message in updates]
        assert first.view.table.status == table_pb2.TABLE_STATUS_LIVE
        assert [m.view.table.status for m in rest] == [table_pb2.TABLE_STATUS_ABORTED]
