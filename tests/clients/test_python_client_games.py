"""Whole games of The Gang through referee.client, sync (in a thread) and asyncio."""

from __future__ import annotations

import asyncio
import hashlib

from referee.client import AsyncRefereeClient, AsyncSeat, RefereeClient
from referee.v1 import game_pb2, referee_pb2
from service.process.server import Running
from tests.clients.python_client_play import aplay_to_end, play_to_end


def assert_over(final: game_pb2.View) -> None:
    gang = final.the_gang
    assert final.HasField("outcome")
    assert gang.vaults == gang.vaults_to_win or gang.alarms == gang.alarms_to_lose
    assert list(final.to_act) == []


def assert_history_matches(
    history: referee_pb2.GetHistoryResponse,
    created: referee_pb2.CreateGameResponse,
    final: game_pb2.View,
    watched: list[referee_pb2.WatchGameResponse],
) -> None:
    """The log, the seed, the outcome and the watched updates all tell the same game."""
    assert history.version == final.version
    assert [entry.version for entry in history.entries] == list(range(1, final.version + 1))
    assert hashlib.sha256(history.seed).hexdigest() == created.seed_sha256
    assert history.outcome == final.outcome
    updates = [message for message in watched if not message.snapshot]
    assert [m.version for m in updates] == [e.version for e in history.entries]
    # The chip each move took is public; later events of a move (deals, showdowns) are
    # redacted live but revealed in the history of a finished game.
    assert [m.events[0] for m in updates] == [e.events[0] for e in history.entries]
    assert all(m.events[0].the_gang.HasField("chip_taken") for m in updates)


async def test_a_whole_game_with_the_sync_client(referee_server: Running) -> None:
    with RefereeClient(referee_server.address) as client:
        created = await asyncio.to_thread(
            client.create_game, "the_gang", 4, None, True, b"sync-client-game"
        )
        assert created.version == 0
        assert [token.seat for token in created.seat_tokens] == [0, 1, 2, 3]
        seats = client.seats(created)
        spectator = client.seat(created.game_id)
        watching = asyncio.ensure_future(
            asyncio.to_thread(lambda: list(spectator.watch(after_version=0)))
        )
        final = await asyncio.to_thread(play_to_end, seats)
        watched = await asyncio.wait_for(watching, 30)
        history = await asyncio.to_thread(spectator.history)

    assert_over(final)
    assert [m.version for m in watched] == list(range(1, final.version + 1))
    assert watched[-1].view.outcome == final.outcome
    assert_history_matches(history, created, final, watched)


async def _collect(seat: AsyncSeat, started: asyncio.Event) -> list[referee_pb2.WatchGameResponse]:
    out: list[referee_pb2.WatchGameResponse] = []
    async for message in seat.watch():
        out.append(message)
        started.set()
    return out


async def test_a_whole_game_with_the_async_client(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, allow_spectators=True, seed=b"aio-game")
        seats = client.seats(created)
        started = [asyncio.Event(), asyncio.Event()]
        spectator = asyncio.create_task(_collect(client.seat(created.game_id), started[0]))
        own = asyncio.create_task(_collect(seats[1], started[1]))
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in started)), 10)
        final = await aplay_to_end(seats)
        watched = await asyncio.wait_for(spectator, 30)
        mine = await asyncio.wait_for(own, 30)
        history = await seats[2].history()

    assert_over(final)
    assert watched[0].snapshot and watched[0].version == 0
    assert [m.version for m in watched] == list(range(final.version + 1))
    assert [m.version for m in mine] == list(range(final.version + 1))
    assert all(m.view.seat == 1 for m in mine)
    assert not watched[-1].view.HasField("seat")
    assert_history_matches(history, created, final, watched)
