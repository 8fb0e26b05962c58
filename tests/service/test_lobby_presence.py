"""Presence pushed (service.storage.feed): a seat's first stream opening, its last closing and its
lease lapsing reach the table's open streams as a snapshot at the same version, coalesced
to at most one push per table per PRESENCE_REFRESH_SECONDS."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.process.server import Running, running
from service.storage import feed
from tests.servers import settings_for
from tests.service.table import auth

WAIT = 10  # seconds: a push comes within PRESENCE_REFRESH_SECONDS, or the test fails


@pytest.fixture
async def server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    async with running(settings_for(redis_url, tmp_path)) as handle:
        yield handle


async def open_table(stub: Any) -> referee_pb2.CreateGameResponse:
    """A lobby table (listed) of four held seats: its seats show presence."""
    reply: referee_pb2.CreateGameResponse = await stub.CreateGame(
        referee_pb2.CreateGameRequest(game="gang_of_four", seats=4, listed=True)
    )
    return reply


def watch(stub: Any, created: referee_pb2.CreateGameResponse, seat: int) -> Any:
    token = created.seat_tokens[seat].token
    return stub.WatchGame(
        referee_pb2.WatchGameRequest(game_id=created.game_id), metadata=auth(token)
    )


def present(message: referee_pb2.WatchGameResponse) -> list[bool]:
    return [seat.present for seat in message.view.table.seats]


async def until_present(stream: Any, wanted: list[bool]) -> referee_pb2.WatchGameResponse:
    """The stream's next messages until one shows ``wanted``; each a same-version snapshot."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await stream.read()
            assert message.snapshot and message.version == 0
            if present(message) == wanted:
                return message  # type: ignore[no-any-return]


async def test_a_stream_opening_and_closing_is_pushed(server: Running) -> None:
    async with grpc.aio.insecure_channel(server.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = await open_table(stub)
        first = watch(stub, created, 0)
        await first.read()  # the first snapshot
        await until_present(first, [True, False, False, False])  # its own lease, pushed
        second = watch(stub, created, 2)
        await second.read()
        await until_present(first, [True, False, True, False])
        second.cancel()
        await until_present(first, [True, False, False, False])
        first.cancel()


async def test_a_lapsed_lease_is_pushed_and_pushes_are_coalesced(server: Running) -> None:
    store = server.referee.feed.store
    async with grpc.aio.insecure_channel(server.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = await open_table(stub)
        gid = created.game_id
        stream = watch(stub, created, 0)
        await stream.read()
        await until_present(stream, [True, False, False, False])
        # A replica that crashed left seat 3's lease: it shows, then lapses by itself.
        await store.hold_presence(gid, "3:crashed", int(time.time() * 1000) + 1500)
        await until_present(stream, [True, False, False, True])
        await until_present(stream, [True, False, False, False])
        # Seat 1's lease flickers every 50 ms for 1.5 s: a push a refresh at most.
        pushes = 0

        async def count() -> None:
            nonlocal pushes
            while True:
                await stream.read()
                pushes += 1

        counting = asyncio.create_task(count())
        began = time.monotonic()
        while time.monotonic() - began < 1.5:
            await store.hold_presence(gid, "1:flicker", int(time.time() * 1000) + 60_000)
            await asyncio.sleep(0.05)
            await store.drop_presence(gid, "1:flicker")
            await asyncio.sleep(0.05)
        elapsed = time.monotonic() - began
        counting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await counting
        assert pushes <= elapsed / feed.PRESENCE_REFRESH_SECONDS + 1
        stream.cancel()


async def test_a_table_outside_the_lobby_reads_no_presence(server: Running) -> None:
    async with grpc.aio.insecure_channel(server.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        plain = await stub.CreateGame(referee_pb2.CreateGameRequest(game="gang_of_four", seats=4))
        stream = watch(stub, plain, 0)
        await stream.read()
        feed_ = server.referee.feed
        channels = [c for c in feed_._channels.values() if c.table.game_id == plain.game_id]
        assert channels and channels[0].presence is None  # no refresh task: nothing to show
        stream.cancel()
