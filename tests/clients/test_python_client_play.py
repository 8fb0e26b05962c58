"""AsyncSeat.play(): a whole game over Play sessions, typed rejections, resuming after drops."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import grpc
import pytest

from referee.client import (
    AsyncPlay,
    AsyncRefereeClient,
    GameNotFound,
    IllegalMove,
    InvalidArgument,
    OtherError,
    PermissionDenied,
    RefereeError,
    Unauthenticated,
    VersionConflict,
)
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from service.process.server import Running
from tests.clients.python_client_play import STEP_LIMIT, aplay_to_end, progress_move
from tests.clients.python_client_proxy import CuttableProxy
from tests.clients.test_python_client_watch import FAST_RECONNECT, PATIENT, wait_until

TG = the_gang_pb2.TheGangMove
WHITE, YELLOW = the_gang_pb2.CHIP_COLOUR_WHITE, the_gang_pb2.CHIP_COLOUR_YELLOW
Updates = list[referee_pb2.WatchGameResponse]


def take(colour: the_gang_pb2.ChipColour.ValueType, stars: int) -> game_pb2.Move:
    return game_pb2.Move(the_gang=TG(take_chip=TG.TakeChip(colour=colour, stars=stars)))


async def collect(session: AsyncPlay, into: Updates) -> None:
    async for update in session:
        into.append(update)


async def play_step(sessions: Sequence[AsyncPlay], view: game_pb2.View) -> game_pb2.View:
    """One accepted move of a seat in ``view.to_act`` that can progress, over its session."""
    for number in view.to_act:
        session = sessions[number]
        legal = await session.legal_moves()
        assert session.view is not None and session.view.version == legal.version
        move = progress_move(session.view, legal.moves)
        if move is not None:
            result = await session.submit(move, expected_version=legal.version)
            assert result.version == legal.version + 1 and not result.duplicate
            # submit() returns once the update of its version reached the session.
            assert session.view.version == result.version
            return session.view
    raise AssertionError("no seat could make progress")


async def test_a_whole_game_over_play_sessions(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 4, seed=b"client-play")
        seats = client.seats(created)
        received: list[Updates] = [[] for _ in seats]
        sessions = [seat.play() for seat in seats]
        collectors = [
            asyncio.create_task(collect(session, into))
            for session, into in zip(sessions, received, strict=True)
        ]
        await sessions[0].legal_moves()  # the snapshot is in
        assert sessions[0].view is not None
        view = sessions[0].view
        for _ in range(STEP_LIMIT):
            if view.HasField("outcome"):
                break
            view = await play_step(sessions, view)
        assert view.HasField("outcome")
        await asyncio.wait_for(asyncio.gather(*collectors), 10)  # each ends with the game
        with pytest.raises(IllegalMove) as over:
            await sessions[1].submit(take(WHITE, 1))
        assert over.value.reason == "GAME_OVER"
        for session in sessions:
            await session.close()
        views = [await seat.view() for seat in seats]
    for seat, updates in enumerate(received):
        assert [u.version for u in updates] == list(range(view.version + 1))
        assert updates[0].snapshot and not any(u.snapshot for u in updates[1:])
        assert all(u.view.seat == seat for u in updates)
        assert updates[-1].view == views[seat]
        assert sessions[seat].finished and sessions[seat].version == view.version


async def test_refusals_raise_what_unary_submit_raises(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, seed=b"client-play-refusals")
        seat = client.seats(created)[0]
        async with seat.play(after_version=0) as session:
            first = await session.submit(take(WHITE, 1), client_move_id="one")
            assert (first.version, first.duplicate) == (1, False)
            again = await session.submit(take(WHITE, 1), client_move_id="one")
            assert (again.version, again.duplicate) == (1, True)
            cases: list[tuple[game_pb2.Move, int | None, type[RefereeError]]] = [
                (take(YELLOW, 1), None, IllegalMove),  # not the round's colour
                (game_pb2.Move(), None, InvalidArgument),
                (take(WHITE, 2), 0, VersionConflict),
            ]
            for move, expected, kind in cases:
                with pytest.raises(kind) as in_band:
                    await session.submit(move, expected_version=expected)
                with pytest.raises(kind) as unary:
                    await seat.submit(move, expected_version=expected)
                assert in_band.value.reason == unary.value.reason
                assert in_band.value.code == unary.value.code
                assert in_band.value.metadata == unary.value.metadata
            assert isinstance(in_band.value, VersionConflict)
            assert in_band.value.current_version == 1
            assert await session.legal_moves() == await seat.legal_moves()
        with pytest.raises(OtherError) as closed:
            await session.submit(take(WHITE, 2))
        assert closed.value.reason == "SESSION_CLOSED"
        assert len((await seat.history()).entries) == 1


async def test_a_session_resumes_through_drops_and_sends_unanswered_moves_again(
    referee_server: Running,
) -> None:
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(proxy.address, options=FAST_RECONNECT, resume=PATIENT) as cut,
    ):
        created = await direct.create_game("the_gang", 3, seed=b"client-play-resume")
        seats = direct.seats(created)
        received: Updates = []
        async with cut.seats(created)[0].play() as session:
            collecting = asyncio.create_task(collect(session, received))
            assert (await session.submit(take(WHITE, 1))).version == 1

            proxy.hold()  # cut, and every reconnect refused
            for k in (1, 2):
                await seats[k].submit(take(WHITE, k + 1))
            sending = asyncio.create_task(session.submit(take(YELLOW, 1), client_move_id="y1"))
            await wait_until(lambda: proxy.refused >= 2)
            assert not sending.done()
            proxy.release()
            result = await asyncio.wait_for(sending, 10)
            assert (result.version, result.duplicate) == (4, False)

            proxy.cut()  # a second, short drop
            final = await aplay_to_end(seats)
            await asyncio.wait_for(collecting, 20)
        history = await seats[0].history()
    assert [u.version for u in received] == list(range(final.version + 1))
    assert received[-1].view.outcome == final.outcome
    assert proxy.forwarded >= 3
    assert (history.entries[3].seat, history.entries[3].move) == (0, take(YELLOW, 1))
    assert sorted(e.seat for e in history.entries[3:6]) == [0, 1, 2]  # applied once


@pytest.mark.parametrize("case", ["unknown game", "other game's token", "no token"])
async def test_answers_at_join_end_the_session_at_once(referee_server: Running, case: str) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, allow_spectators=True)
        other = await client.create_game("the_gang", 3)
        seat, expected = {
            "unknown game": (
                client.seat("no-such-game", created.seat_tokens[0].token),
                (GameNotFound,),
            ),
            "other game's token": (
                client.seat(created.game_id, other.seat_tokens[0].token),
                (PermissionDenied, Unauthenticated),
            ),
            "no token": (client.seat(created.game_id), (Unauthenticated,)),
        }[case]
        async with seat.play() as session:
            with pytest.raises(expected) as refused:
                await asyncio.wait_for(session.submit(take(WHITE, 1)), 5)
            with pytest.raises(type(refused.value)):
                await asyncio.wait_for(collect(session, []), 5)
        assert refused.value.code != grpc.StatusCode.UNAVAILABLE
        assert session.failure is refused.value
