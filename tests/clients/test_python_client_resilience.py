"""The clients' Retry policy: reads and moves are sent again after UNAVAILABLE or
DEADLINE_EXCEEDED, a move under its one client_move_id (a lost answer comes back as a
duplicate, never a second move), creates never, and a bot's seat outlives any outage."""

from __future__ import annotations

import asyncio
import logging
import random

import grpc
import pytest

import referee.bots.play as bot_play
from referee.bots import bot_for, play_seat
from referee.client import (
    NO_RETRY,
    AsyncRefereeClient,
    Backoff,
    DeadlineExceeded,
    IllegalMove,
    OtherError,
    RefereeClient,
    Resume,
    Retry,
    Unavailable,
)
from referee.v1 import game_pb2, referee_pb2
from service.process.server import Running
from tests.clients.python_client_faults import LOST, AsyncTries, SyncTries
from tests.clients.python_client_proxy import CuttableProxy
from tests.clients.test_python_client_watch import FAST_RECONNECT, wait_until
from tests.service.table import COLOURS, take

WHITE, YELLOW = COLOURS[0], COLOURS[1]
QUICK = Backoff(initial=0.01, maximum=0.05)
PATIENT = Retry(attempts=200, backoff=QUICK)
BRIEF = Retry(attempts=3, backoff=QUICK)


async def test_a_read_is_retried_until_the_referee_is_back(referee_server: Running) -> None:
    tries = AsyncTries()
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(
            proxy.address, options=FAST_RECONNECT, retry=PATIENT, interceptors=[tries]
        ) as cut,
    ):
        created = await direct.create_game("the_gang", 3, seed=b"read-retry")
        seat = cut.seat(created.game_id, created.seat_tokens[0].token)
        assert (await seat.view()).version == 0  # the connection is up
        proxy.hold()
        reading = asyncio.create_task(seat.legal_moves())
        await wait_until(lambda: tries.tries["ListLegalMoves"] >= 3)
        assert not reading.done()
        proxy.release()
        legal = await asyncio.wait_for(reading, 10)
    assert legal.version == 0 and legal.moves
    assert tries.tries["ListLegalMoves"] >= 3
    assert all(r == tries.requests["ListLegalMoves"][0] for r in tries.requests["ListLegalMoves"])


async def test_every_history_page_is_retried_and_the_sync_client_retries_too(
    referee_server: Running,
) -> None:
    tries = SyncTries()
    async with AsyncRefereeClient(referee_server.address) as direct:
        created = await direct.create_game("the_gang", 3, seed=b"sync-retry")
        seats = direct.seats(created)
        for number, stars in ((1, 1), (2, 2), (0, 3)):
            await seats[number].submit(take(WHITE, stars))

    def read() -> tuple[referee_pb2.GetHistoryResponse, game_pb2.View]:
        with RefereeClient(referee_server.address, retry=BRIEF, interceptors=[tries]) as client:
            seat = client.seat(created.game_id, created.seat_tokens[0].token)
            tries.lose["GetHistory"] = 2  # the first page's answer is lost twice
            history = seat.history(page_size=1)
            tries.lose["GetView"] = 1
            return history, seat.view()

    history, view = await asyncio.to_thread(read)
    assert [entry.seat for entry in history.entries] == [1, 2, 0]
    assert tries.tries["GetHistory"] == 3 + 2  # three pages, the first one tried three times
    assert (view.version, tries.tries["GetView"]) == (3, 2)


async def test_a_move_whose_answer_is_late_is_resent_and_answered_as_a_duplicate(
    referee_server: Running,
) -> None:
    """DEADLINE_EXCEEDED for real: the proxy keeps the referee's answer back past the try's
    deadline; the resend under the same id is answered with the first result."""
    tries = AsyncTries()
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(proxy.address, timeout=0.5, retry=PATIENT, interceptors=[tries]) as cut,
    ):
        created = await direct.create_game("the_gang", 3, seed=b"late-answer")
        seat = cut.seat(created.game_id, created.seat_tokens[1].token)
        watcher = direct.seat(created.game_id, created.seat_tokens[0].token)
        assert (await seat.view()).version == 0
        proxy.stall()
        submitting = asyncio.create_task(seat.submit(take(WHITE, 2), expected_version=0))
        await wait_until(lambda: tries.tries["SubmitMove"] >= 2)  # the first try ran out of time
        assert (await watcher.view()).version == 1  # ... after the referee applied it
        proxy.flow()
        reply = await asyncio.wait_for(submitting, 10)
        after = await watcher.view()
        history = await watcher.history()
    assert (reply.version, reply.duplicate) == (1, True)
    sent = tries.requests["SubmitMove"]
    assert len({request.client_move_id for request in sent}) == 1
    assert all(request.expected_version == 0 for request in sent)
    assert after.version == 1
    assert [(entry.seat, entry.move) for entry in history.entries] == [(1, take(WHITE, 2))]


async def test_a_move_whose_answer_is_lost_applies_once(referee_server: Running) -> None:
    tries = SyncTries()

    def play() -> tuple[referee_pb2.SubmitMoveResponse, int, int]:
        with RefereeClient(referee_server.address, interceptors=[tries]) as client:
            created = client.create_game("the_gang", 3, seed=b"lost-answer")
            seat = client.seat(created.game_id, created.seat_tokens[2].token)
            tries.lose["SubmitMove"] = 1
            reply = seat.submit(take(WHITE, 3), retry=BRIEF)
            view = seat.view()
            return reply, view.version, len(seat.history().entries)

    reply, version, logged = await asyncio.to_thread(play)
    assert (reply.version, reply.duplicate) == (1, True)
    assert (version, logged) == (1, 1)
    first, second = tries.requests["SubmitMove"]
    assert first.client_move_id == second.client_move_id and first.client_move_id


async def test_giving_up_raises_the_typed_unavailable(referee_server: Running) -> None:
    tries = AsyncTries()
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(
            proxy.address, options=FAST_RECONNECT, retry=BRIEF, interceptors=[tries]
        ) as cut,
    ):
        proxy.hold()
        seat = cut.seat("any-game", "any-token")
        with pytest.raises(Unavailable) as down:
            await seat.view()
        assert tries.tries["GetView"] == BRIEF.attempts + 1
        assert down.value.code is grpc.StatusCode.UNAVAILABLE
        assert "gave up after 4 tries" in down.value.__notes__
        with pytest.raises(Unavailable):  # per call: one try only
            await seat.legal_moves(retry=NO_RETRY)
        assert tries.tries["ListLegalMoves"] == 1


async def test_a_deadline_that_keeps_passing_raises_deadline_exceeded(
    referee_server: Running,
) -> None:
    tries = AsyncTries()
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(proxy.address, timeout=0.2, retry=BRIEF, interceptors=[tries]) as cut,
    ):
        seat = cut.seat("any-game", "any-token")
        proxy.stall()
        with pytest.raises(DeadlineExceeded) as late:
            await seat.validate(take(WHITE, 1))
        proxy.flow()
    assert isinstance(late.value, OtherError)  # as before DeadlineExceeded had a class
    assert tries.tries["ValidateMove"] == BRIEF.attempts + 1


async def test_an_answer_is_never_retried(referee_server: Running) -> None:
    """FAILED_PRECONDITION (and any status outside ``codes``) is raised after one try."""
    tries = AsyncTries()
    everything = Retry(attempts=5, backoff=QUICK)
    async with AsyncRefereeClient(
        referee_server.address, retry=everything, interceptors=[tries]
    ) as client:
        created = await client.create_game("the_gang", 3, seed=b"no-retry")
        seat = client.seats(created)[0]
        with pytest.raises(IllegalMove) as refused:
            await seat.submit(take(YELLOW, 1))
        assert refused.value.reason == "CHIP_NOT_IN_PLAY"
        assert not getattr(refused.value, "__notes__", [])
        tries.lose["GetView"] = 1  # UNAVAILABLE, but outside this policy's codes
        with pytest.raises(Unavailable) as lost:
            await seat.view(retry=Retry(codes=frozenset({grpc.StatusCode.DEADLINE_EXCEEDED})))
        assert lost.value.message == LOST
        assert (await seat.view()).version == 0
    assert (tries.tries["SubmitMove"], tries.tries["GetView"]) == (1, 2)


async def test_a_create_is_never_retried(referee_server: Running) -> None:
    """A lost answer to CreateGame may hide a game that exists: one try, whatever the policy."""
    tries = AsyncTries()
    async with AsyncRefereeClient(
        referee_server.address, retry=PATIENT, interceptors=[tries]
    ) as client:
        tries.lose["CreateGame"] = 1
        with pytest.raises(Unavailable):
            await client.create_game("the_gang", 3, seed=b"lost-create")
        assert tries.tries["CreateGame"] == 1
        with pytest.raises(ValueError, match="at least 0"):
            Retry(attempts=-1)


async def test_a_bot_seat_outlives_an_outage_longer_than_its_retries(
    referee_server: Running, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The cut seat's watch resumes twice and its calls retry three times, far fewer than
    the outage lasts: the seat loop gives up on its stream, waits and follows the game
    again from a snapshot, and the game still ends with every seat's bot."""
    monkeypatch.setattr(bot_play, "RECONNECT", Backoff(initial=0.01, maximum=0.05))
    caplog.set_level(logging.INFO, logger=bot_play.__name__)
    brief_resume = Resume(attempts=2, backoff=QUICK)
    async with (
        CuttableProxy(referee_server.address) as proxy,
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(
            proxy.address, options=FAST_RECONNECT, retry=BRIEF, resume=brief_resume
        ) as cut,
    ):
        created = await direct.create_game("pinched", 2, seed=b"bot-outage")
        tokens = [seat.token for seat in created.seat_tokens]
        moved = asyncio.Event()
        seats = [cut.seat(created.game_id, tokens[0]), direct.seat(created.game_id, tokens[1])]
        plays = [
            asyncio.create_task(
                play_seat(
                    seat,
                    bot_for("pinched", "random"),
                    rng=random.Random(number),
                    on_move=(lambda _id, _version: moved.set()) if number == 0 else None,
                )
            )
            for number, seat in enumerate(seats)
        ]
        await asyncio.wait_for(moved.wait(), 10)
        proxy.hold()
        await wait_until(lambda: "follows its game again" in caplog.text)
        await wait_until(lambda: proxy.refused >= 20)
        assert not plays[0].done()
        proxy.release()
        views = await asyncio.wait_for(asyncio.gather(*plays), 60)
    assert all(view.HasField("outcome") for view in views)
    assert views[0].version == views[1].version
