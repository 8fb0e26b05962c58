"""Every rejection arrives as its typed exception, with the referee's reason code."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

import grpc
import pytest
from redis.asyncio import Redis

from referee.client import (
    AsyncRefereeClient,
    GameNotFound,
    IllegalMove,
    InvalidArgument,
    OtherError,
    PermissionDenied,
    RefereeClient,
    RefereeError,
    Unauthenticated,
    Unavailable,
    VersionConflict,
    from_rpc_error,
)
from referee.v1 import game_pb2, the_gang_pb2
from service.process.server import Running
from tests.service.table import COLOURS, give_back, stored_bytes, take

WHITE, YELLOW = COLOURS[0], COLOURS[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_each_rejection_is_its_typed_exception(
    referee_server: Running, raw_redis: Redis
) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, seed=b"errors")
        other = await client.create_game("the_gang", 3)
        seat = client.seats(created)[0]
        await seat.submit(take(WHITE, 1))
        before = await stored_bytes(raw_redis, created.game_id)

        with pytest.raises(InvalidArgument) as shape:
            await seat.submit(take(WHITE, 7))
        assert shape.value.reason == "CHIP_OUT_OF_RANGE"
        assert shape.value.code is grpc.StatusCode.INVALID_ARGUMENT
        assert shape.value.message

        with pytest.raises(IllegalMove) as illegal:
            await seat.submit(take(YELLOW, 2))
        assert illegal.value.reason == "CHIP_NOT_IN_PLAY"
        assert illegal.value.code is grpc.StatusCode.FAILED_PRECONDITION
        with pytest.raises(IllegalMove) as not_held:
            await seat.submit(give_back(WHITE, 2))
        assert not_held.value.reason == "CHIP_NOT_HELD"

        with pytest.raises(VersionConflict) as stale:
            await seat.submit(take(WHITE, 2), expected_version=0)
        assert stale.value.reason == "VERSION_MISMATCH"
        assert stale.value.code is grpc.StatusCode.ABORTED
        assert stale.value.current_version == 1
        assert stale.value.metadata == {"current_version": "1"}

        with pytest.raises(GameNotFound) as unknown:
            await client.seat("nope", created.seat_tokens[0].token).view()
        assert unknown.value.reason == "GAME_NOT_FOUND"

        spectator = client.seat(created.game_id)
        with pytest.raises(Unauthenticated) as missing:
            await spectator.legal_moves()
        assert missing.value.reason == "TOKEN_MISSING"
        with pytest.raises(Unauthenticated) as no_spectators:
            await spectator.view()  # this table was created without spectators
        assert no_spectators.value.reason == "TOKEN_MISSING"

        forged = client.seat(created.game_id, created.seat_tokens[1].token[:-2] + "xx")
        with pytest.raises(Unauthenticated) as invalid:
            await forged.submit(take(WHITE, 2))
        assert invalid.value.reason == "TOKEN_INVALID"
        elsewhere = client.seat(created.game_id, other.seat_tokens[1].token)
        with pytest.raises(PermissionDenied) as denied:
            await elsewhere.submit(take(WHITE, 2))
        assert denied.value.reason == "TOKEN_FOR_OTHER_GAME"
        assert denied.value.code is grpc.StatusCode.PERMISSION_DENIED

        # Not one of those rejections changed the stored game.
        assert await stored_bytes(raw_redis, created.game_id) == before
        assert (await seat.view()).version == 1


async def test_the_sync_client_raises_the_same_exceptions(referee_server: Running) -> None:
    def provoke() -> dict[str, RefereeError]:
        caught: dict[str, RefereeError] = {}
        with RefereeClient(referee_server.address) as client:
            created = client.create_game("the_gang", 3)
            other = client.create_game("the_gang", 3)
            forged = created.seat_tokens[0].token[:-2] + "xx"
            theirs = other.seat_tokens[0].token
            seat = client.seats(created)[0]
            seat.submit(take(WHITE, 1))
            attempts: dict[str, Callable[[], object]] = {
                "shape": lambda: seat.submit(take(WHITE, 0)),
                "illegal": lambda: seat.submit(take(WHITE, 1)),
                "stale": lambda: seat.submit(take(WHITE, 2), expected_version=0),
                "unknown": lambda: client.seat("nope", created.seat_tokens[0].token).history(),
                "missing": lambda: client.seat(created.game_id).legal_moves(),
                "forged": lambda: client.seat(created.game_id, forged).view(),
                "elsewhere": lambda: client.seat(created.game_id, theirs).view(),
            }
            for name, attempt in attempts.items():
                try:
                    attempt()
                except RefereeError as error:
                    caught[name] = error
        return caught

    caught = await asyncio.to_thread(provoke)
    got = {name: (type(error), error.reason) for name, error in caught.items()}
    assert got == {
        "shape": (InvalidArgument, "CHIP_OUT_OF_RANGE"),
        "illegal": (IllegalMove, "CHIP_ALREADY_HELD"),
        "stale": (VersionConflict, "VERSION_MISMATCH"),
        "unknown": (GameNotFound, "GAME_NOT_FOUND"),
        "missing": (Unauthenticated, "TOKEN_MISSING"),
        "forged": (Unauthenticated, "TOKEN_INVALID"),
        "elsewhere": (PermissionDenied, "TOKEN_FOR_OTHER_GAME"),
    }
    stale = caught["stale"]
    assert isinstance(stale, VersionConflict) and stale.current_version == 1
    assert isinstance(caught["stale"].__cause__, grpc.RpcError)


async def test_validate_names_the_reason_submit_would_give(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        seat = client.seats(await client.create_game("the_gang", 3))[0]
        legal = await seat.validate(take(WHITE, 2))
        assert legal.legal and legal.version == 0
        refused = await seat.validate(take(YELLOW, 2))
        assert (refused.legal, refused.reason) == (False, "CHIP_NOT_IN_PLAY")
        with pytest.raises(InvalidArgument) as empty:
            await seat.validate(game_pb2.Move(the_gang=the_gang_pb2.TheGangMove()))
        assert empty.value.reason


async def test_an_unreachable_referee_is_unavailable() -> None:
    address = f"127.0.0.1:{free_port()}"
    async with AsyncRefereeClient(address, timeout=5) as client:
        with pytest.raises(Unavailable) as down:
            await client.create_game("the_gang", 3)
    # The referee never answered: there is no ErrorInfo, the reason is the status name.
    assert down.value.reason == "UNAVAILABLE"
    assert down.value.code is grpc.StatusCode.UNAVAILABLE


def test_any_other_status_is_an_other_error() -> None:
    error = grpc.aio.AioRpcError(
        grpc.StatusCode.INTERNAL, grpc.aio.Metadata(), grpc.aio.Metadata(), "boom", None
    )
    typed = from_rpc_error(error)
    assert type(typed) is OtherError
    assert typed.code is grpc.StatusCode.INTERNAL
    assert (typed.reason, typed.message) == ("INTERNAL", "boom")
