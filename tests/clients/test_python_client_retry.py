"""retry_on_conflict: on ABORTED the seat re-reads, re-decides and resends, boundedly."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from referee.client import (
    AsyncRefereeClient,
    AsyncSeat,
    Backoff,
    ConflictRetry,
    IllegalMove,
    RefereeClient,
    VersionConflict,
)
from referee.v1 import game_pb2, referee_pb2
from service.process.server import Running
from tests.clients.python_client_play import progress_move
from tests.service.table import COLOURS, stored_bytes, take

WHITE = COLOURS[0]
QUICK = ConflictRetry(attempts=2, backoff=Backoff(initial=0.001, maximum=0.005))


Created = referee_pb2.CreateGameResponse


async def seated(client: AsyncRefereeClient) -> tuple[Created, list[AsyncSeat]]:
    created = await client.create_game("the_gang", 3, seed=b"retry")
    return created, client.seats(created)


async def test_without_retry_a_stale_move_is_refused_and_changes_nothing(
    referee_server: Running, raw_redis: Redis
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created, seats = await seated(client)
        await seats[1].submit(take(WHITE, 1))
        before = await stored_bytes(raw_redis, created.game_id)
        with pytest.raises(VersionConflict) as stale:
            await seats[0].submit(take(WHITE, 2), expected_version=0)
        assert stale.value.current_version == 1
        assert await stored_bytes(raw_redis, created.game_id) == before


async def test_retry_rechecks_the_same_move_and_resends_it_with_its_id(
    referee_server: Running,
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        _, seats = await seated(client)
        await seats[1].submit(take(WHITE, 1))  # version 1: seat 0's read at 0 is stale
        move = take(WHITE, 2)
        reply = await seats[0].submit(
            move, client_move_id="mine-1", expected_version=0, retry_on_conflict=QUICK
        )
        assert (reply.version, reply.duplicate) == (2, False)
        history = await seats[0].history()
        assert [(e.seat, e.move) for e in history.entries] == [(1, take(WHITE, 1)), (0, move)]
        # The resent move kept its id: sending that id again is answered as a repeat.
        again = await seats[0].submit(move, client_move_id="mine-1")
        assert (again.duplicate, again.version) == (True, 2)


async def test_retry_rethinks_on_the_fresh_view_with_a_new_id(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        _, seats = await seated(client)
        legal = await seats[0].legal_moves()
        await seats[1].submit(take(WHITE, 1))
        seen: list[int] = []

        def rethink(view: game_pb2.View) -> game_pb2.Move | None:
            seen.append(view.version)
            return take(WHITE, 3)  # the chip seat 0 wanted is gone: take another

        reply = await seats[0].submit(
            take(WHITE, 1),
            client_move_id="first-thought",
            expected_version=legal.version,
            retry_on_conflict=QUICK,
            rethink=rethink,
        )
        assert seen == [1]
        assert reply.version == 2
        assert (await seats[0].history()).entries[-1].move == take(WHITE, 3)
        # The rethought move went under a fresh id: the first id is still unused, so it
        # now carries the first thought (a take from seat 1) as a new move.
        first = await seats[0].submit(take(WHITE, 1), client_move_id="first-thought")
        assert (first.duplicate, first.version) == (False, 3)


async def test_an_async_rethink_that_gives_up_reraises_and_changes_nothing(
    referee_server: Running, raw_redis: Redis
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created, seats = await seated(client)
        await seats[1].submit(take(WHITE, 1))
        before = await stored_bytes(raw_redis, created.game_id)
        calls: list[int] = []

        async def give_up(view: game_pb2.View) -> game_pb2.Move | None:
            calls.append(view.version)
            return None

        with pytest.raises(VersionConflict) as conflict:
            await seats[0].submit(
                take(WHITE, 2), expected_version=0, retry_on_conflict=QUICK, rethink=give_up
            )
        assert calls == [1]
        assert conflict.value.current_version == 1
        assert await stored_bytes(raw_redis, created.game_id) == before


async def test_a_move_no_longer_legal_is_not_resent(
    referee_server: Running, raw_redis: Redis
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created, seats = await seated(client)
        await seats[0].submit(take(WHITE, 1))  # another device of seat 0 took it already
        before = await stored_bytes(raw_redis, created.game_id)
        with pytest.raises(VersionConflict) as conflict:
            await seats[0].submit(take(WHITE, 1), expected_version=0, retry_on_conflict=QUICK)
        assert any("CHIP_ALREADY_HELD" in note for note in conflict.value.__notes__)
        assert await stored_bytes(raw_redis, created.game_id) == before
        with pytest.raises(IllegalMove):
            await seats[0].submit(take(WHITE, 1))


async def test_sync_retry_gives_up_after_its_attempts(referee_server: Running) -> None:
    """A table that moves on during every rethink: three tries, three conflicts."""

    def contended() -> tuple[list[int], VersionConflict, game_pb2.View]:
        with RefereeClient(referee_server.address) as client:
            created = client.create_game("the_gang", 4, seed=b"busy")
            seats = client.seats(created)
            rethought: list[int] = []

            def rethink(view: game_pb2.View) -> game_pb2.Move | None:
                rethought.append(view.version)
                # Someone else moves before our answer lands: the new pin is stale again.
                busy = seats[1 + len(rethought) % 2]
                busy_move = progress_move(busy.view(), busy.legal_moves().moves)
                if busy_move is None:  # that seat holds a chip: swap it for another one
                    busy_move = busy.legal_moves().moves[0]
                busy.submit(busy_move)
                return take(WHITE, 4)

            seats[3].submit(take(WHITE, 1))
            try:
                seats[0].submit(
                    take(WHITE, 4), expected_version=0, retry_on_conflict=QUICK, rethink=rethink
                )
            except VersionConflict as conflict:
                return rethought, conflict, seats[0].view()
            raise AssertionError("every try should have conflicted")

    rethought, conflict, view = await asyncio.to_thread(contended)
    assert rethought == [1, 2]  # attempts=2: two re-reads, then the third refusal stands
    assert conflict.current_version == 3
    assert view.version == 3
    assert 0 not in chip_holders(view)


def chip_holders(view: game_pb2.View) -> set[int | None]:
    row = view.the_gang.chips[-1].chips
    return {chip.holder if chip.HasField("holder") else None for chip in row}


async def test_sync_retry_without_rethink(referee_server: Running) -> None:
    def play() -> tuple[int, referee_pb2.GetHistoryResponse]:
        with RefereeClient(referee_server.address) as client:
            seats = client.seats(client.create_game("the_gang", 3))
            seats[2].submit(take(WHITE, 3))
            reply = seats[0].submit(take(WHITE, 3), expected_version=0, retry_on_conflict=1)
            return reply.version, seats[0].history()

    version, history = await asyncio.to_thread(play)
    assert version == 2
    assert [(e.seat, e.move) for e in history.entries] == [(2, take(WHITE, 3)), (0, take(WHITE, 3))]
