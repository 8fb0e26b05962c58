"""Bad input, named in the issue: each gets its status and reason and changes nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from service.domain.auth import TokenSigner
from service.errors import ECHO_CHARACTERS, MAX_MESSAGE_CHARACTERS, BadRequest, echo
from service.process.server import TRANSPORT_LIMIT, Running, running
from tests.servers import SECRET, settings_for
from tests.service.players import play_to_end
from tests.service.table import (
    COLOURS,
    TG,
    Metadata,
    Stub,
    Table,
    auth,
    give_back,
    reason_of,
    stored_bytes,
    take,
)

WHITE, YELLOW = COLOURS[0], COLOURS[1]


async def rejected(call: Awaitable[Any]) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return reason_of(caught.value)


async def assert_rejected_without_change(
    redis: Redis,
    table: Table,
    call: Callable[[], Awaitable[Any]],
    code: grpc.StatusCode,
    reason: str,
) -> dict[str, str]:
    before = await stored_bytes(redis, table.game_id)
    got_code, got_reason, metadata = await rejected(call())
    assert (got_code, got_reason) == (code, reason)
    assert await stored_bytes(redis, table.game_id) == before
    return metadata


async def test_unknown_game_id(stub: Stub) -> None:
    table = await Table.create(stub, 3)
    code, reason, _ = await rejected(
        stub.GetView(referee_pb2.GetViewRequest(game_id="nope"), metadata=table.md(0))
    )
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND")


@pytest.mark.parametrize("game_id", ["", "has space", "{braces}", "x" * 65])
async def test_malformed_game_id(stub: Stub, game_id: str) -> None:
    code, reason, _ = await rejected(stub.GetView(referee_pb2.GetViewRequest(game_id=game_id)))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "GAME_ID_INVALID")


async def test_unknown_game_type(stub: Stub) -> None:
    code, reason, _ = await rejected(
        stub.CreateGame(referee_pb2.CreateGameRequest(game="chess", seats=2))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "GAME_UNKNOWN")


@pytest.mark.parametrize("seats", [0, 2, 7, -1])
async def test_wrong_seat_count(stub: Stub, seats: int) -> None:
    code, reason, _ = await rejected(
        stub.CreateGame(referee_pb2.CreateGameRequest(game="the_gang", seats=seats))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "SEAT_COUNT_UNSUPPORTED")


async def test_missing_move_oneof(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    for move, reason in [
        (game_pb2.Move(), "MOVE_EMPTY"),
        (game_pb2.Move(the_gang=TG()), "MOVE_EMPTY"),
        (take(the_gang_pb2.CHIP_COLOUR_UNSPECIFIED, 1), "CHIP_COLOUR_MISSING"),
    ]:
        await assert_rejected_without_change(
            raw_redis,
            table,
            lambda move=move: table.submit(0, move),  # type: ignore[misc]
            grpc.StatusCode.INVALID_ARGUMENT,
            reason,
        )


@pytest.mark.parametrize("stars", [0, 4, 7, -3])
async def test_chip_star_value_out_of_range(stub: Stub, raw_redis: Redis, stars: int) -> None:
    table = await Table.create(stub, 3)
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(WHITE, stars)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "CHIP_OUT_OF_RANGE",
    )


async def test_chip_colour_not_of_this_round(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(YELLOW, 1)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "CHIP_NOT_IN_PLAY",
    )


async def test_taking_a_chip_you_already_hold(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    await table.submit(0, take(WHITE, 2))
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(WHITE, 2)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "CHIP_ALREADY_HELD",
    )


async def test_returning_a_chip_you_do_not_hold(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    await table.submit(1, take(WHITE, 2))
    for stars in (1, 2):
        await assert_rejected_without_change(
            raw_redis,
            table,
            lambda stars=stars: table.submit(0, give_back(WHITE, stars)),  # type: ignore[misc]
            grpc.StatusCode.FAILED_PRECONDITION,
            "CHIP_NOT_HELD",
        )


async def test_moves_after_the_game_ended(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3, seed=b"ended")
    final = await play_to_end(table, 3, win=False)
    assert final.HasField("outcome")
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(final.the_gang.round, 1)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "GAME_OVER",
    )
    legal = await table.legal(0)
    assert list(legal.moves) == []


async def test_expected_version_in_the_future(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(WHITE, 1), expected_version=5),
        grpc.StatusCode.INVALID_ARGUMENT,
        "VERSION_AHEAD",
    )


async def test_stale_expected_version_is_aborted_with_the_current_version(
    stub: Stub, raw_redis: Redis
) -> None:
    table = await Table.create(stub, 3)
    await table.submit(1, take(WHITE, 1), expected_version=0)
    metadata = await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(WHITE, 2), expected_version=0),
        grpc.StatusCode.ABORTED,
        "VERSION_MISMATCH",
    )
    assert metadata == {"current_version": "1"}


async def test_replayed_move_id_returns_the_first_result(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    first = await table.submit(0, take(WHITE, 3), move_id="m-1")
    await table.submit(1, take(WHITE, 1))
    before = await stored_bytes(raw_redis, table.game_id)
    again = await table.submit(0, take(WHITE, 3), move_id="m-1")
    assert await stored_bytes(raw_redis, table.game_id) == before
    assert again.duplicate and not first.duplicate
    assert again.version == first.version == 1
    assert again.view == first.view
    assert list(again.events) == list(first.events)


async def test_replayed_move_id_with_a_different_body(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    await table.submit(0, take(WHITE, 3), move_id="m-1")
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: table.submit(0, take(WHITE, 2), move_id="m-1"),
        grpc.StatusCode.INVALID_ARGUMENT,
        "MOVE_ID_REUSED",
    )


@pytest.mark.parametrize("move_id", ["", "x" * 65])
async def test_bad_client_move_id(stub: Stub, raw_redis: Redis, move_id: str) -> None:
    table = await Table.create(stub, 3)
    request = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=take(WHITE, 1), client_move_id=move_id
    )
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: stub.SubmitMove(request, metadata=table.md(0)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "MOVE_ID_INVALID",
    )


async def test_oversized_messages(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    big = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=take(WHITE, 1), client_move_id="x"
    )
    # 128 KiB of an unknown field: below gRPC's transport limit, above the referee's.
    big.move.the_gang.take_chip.MergeFromString(b"\x1a\x80\x80\x08" + b"a" * (128 * 1024))
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: stub.SubmitMove(big, metadata=table.md(0)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "REQUEST_TOO_LARGE",
    )
    seed = b"s" * (TRANSPORT_LIMIT + 1)  # above gRPC's own limit: refused before the referee
    huge = referee_pb2.CreateGameRequest(game="the_gang", seats=3, seed=seed)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateGame(huge)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


async def test_no_token_and_bad_tokens(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3, spectators=False)
    cases: list[tuple[Metadata, grpc.StatusCode, str]] = [
        ((), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"),
        (auth("garbage"), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MALFORMED"),
        ((("authorization", "Basic abc"),), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MALFORMED"),
        (auth(table.tokens[0][:-2] + "xx"), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_INVALID"),
        (
            auth(TokenSigner(b"another-secret-of-32-bytes......").issue(table.game_id, 0)),
            grpc.StatusCode.UNAUTHENTICATED,
            "TOKEN_INVALID",
        ),
    ]
    request = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=take(WHITE, 1), client_move_id="a"
    )
    for metadata, code, reason in cases:
        await assert_rejected_without_change(
            raw_redis,
            table,
            lambda metadata=metadata: stub.SubmitMove(request, metadata=metadata),  # type: ignore[misc]
            code,
            reason,
        )
    got = await rejected(stub.GetView(referee_pb2.GetViewRequest(game_id=table.game_id)))
    assert got[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")


async def test_another_games_token_or_seat(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    other = await Table.create(stub, 3)
    request = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=take(WHITE, 1), client_move_id="a"
    )
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: stub.SubmitMove(request, metadata=other.md(0)),
        grpc.StatusCode.PERMISSION_DENIED,
        "TOKEN_FOR_OTHER_GAME",
    )
    ghost_seat = TokenSigner(SECRET).issue(table.game_id, 5)
    await assert_rejected_without_change(
        raw_redis,
        table,
        lambda: stub.SubmitMove(request, metadata=auth(ghost_seat)),
        grpc.StatusCode.PERMISSION_DENIED,
        "SEAT_NOT_AT_TABLE",
    )


async def test_spectators_only_where_allowed_and_never_act(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3, spectators=True)
    view = await table.view(None)
    assert not view.HasField("seat") and list(view.the_gang.pocket) == []
    for call in (
        lambda: stub.SubmitMove(
            referee_pb2.SubmitMoveRequest(
                game_id=table.game_id, move=take(WHITE, 1), client_move_id="s"
            )
        ),
        lambda: stub.ListLegalMoves(referee_pb2.ListLegalMovesRequest(game_id=table.game_id)),
    ):
        await assert_rejected_without_change(
            raw_redis, table, call, grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"
        )


async def test_client_seeds_are_refused_unless_enabled(redis_url: str, tmp_path: Path) -> None:
    settings = settings_for(redis_url, tmp_path)
    async with (
        running(dataclasses.replace(settings, allow_client_seeds=False)) as server,
        grpc.aio.insecure_channel(server.address) as channel,
    ):
        code, reason, _ = await rejected(
            Stub(channel).CreateGame(
                referee_pb2.CreateGameRequest(game="the_gang", seats=3, seed=b"mine")
            )
        )
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "CLIENT_SEEDS_DISABLED")


async def test_validate_move_is_a_dry_run(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 3)
    before = await stored_bytes(raw_redis, table.game_id)
    ok = await stub.ValidateMove(
        referee_pb2.ValidateMoveRequest(game_id=table.game_id, move=take(WHITE, 1)),
        metadata=table.md(0),
    )
    bad = await stub.ValidateMove(
        referee_pb2.ValidateMoveRequest(game_id=table.game_id, move=take(YELLOW, 1)),
        metadata=table.md(0),
    )
    assert ok.legal and ok.version == 0
    assert (bad.legal, bad.reason) == (False, "CHIP_NOT_IN_PLAY")
    assert await stored_bytes(raw_redis, table.game_id) == before


async def test_unset_options_take_the_printed_rules(stub: Stub) -> None:
    created = await stub.CreateGame(referee_pb2.CreateGameRequest(game="the_gang", seats=3))
    assert created.setup.options.the_gang.confirm_round_end is False
    assert created.version == 0 and len(created.seat_tokens) == 3


# Bytes that are no protobuf message, each a way of being malformed.
MALFORMED = {
    "garbage": b"\xff\xff\xff\xff",
    "truncated varint": b"\x10\x80\x80",  # seats = (a varint that never ends)
    "wrong wire type": b"\x0d\x00\x00\x00\x00",  # field 1 (game: a string) as a fixed32
    "bad utf-8": b"\x0a\x02\xc3\x28",  # game = an invalid UTF-8 sequence
    "overlong length": b"\x0a\x7fab",  # game says 127 bytes, 2 follow
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
async def test_malformed_protobuf_is_invalid_argument(
    referee_server: Running, raw_redis: Redis, kind: str
) -> None:
    """grpc parses a request before the servicer runs; ours refuses one that does not parse
    with INVALID_ARGUMENT MALFORMED_REQUEST, not UNKNOWN, and changes nothing."""
    before = {key: await raw_redis.dump(key) for key in sorted(await raw_redis.keys())}
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        create = channel.unary_unary(
            "/referee.v1.RefereeService/CreateGame",
            request_serializer=lambda data: data,
            response_deserializer=lambda data: data,
        )
        code, reason, _ = await rejected(create(MALFORMED[kind]))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        # The same channel still answers a well-formed call.
        created = await Stub(channel).CreateGame(
            referee_pb2.CreateGameRequest(game="the_gang", seats=3)
        )
    assert created.game_id
    after = {key: await raw_redis.dump(key) for key in sorted(await raw_redis.keys())}
    assert {k: v for k, v in after.items() if created.game_id.encode() not in k} == before


async def test_a_malformed_play_request_ends_the_stream(referee_server: Running) -> None:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        play = channel.stream_stream(
            "/referee.v1.RefereeService/Play",
            request_serializer=lambda data: data,
            response_deserializer=lambda data: data,
        )
        call = play(iter([MALFORMED["garbage"]]))
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            async for _ in call:
                pass
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


LONG = "x" * 60_000


async def test_a_long_value_is_echoed_as_a_short_prefix(stub: Stub) -> None:
    """A 60 KB game name (or card code) is named by its first characters only, so the
    message fits the 8 KiB of metadata a standard gRPC client reads."""
    code, reason, _ = await rejected(
        stub.CreateGame(referee_pb2.CreateGameRequest(game=LONG, seats=3))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "GAME_UNKNOWN")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateGame(referee_pb2.CreateGameRequest(game=LONG, seats=3))
    message = caught.value.details() or ""
    assert message.startswith("unknown game 'xxxx") and "\u2026" in message
    assert len(message) < 200, message


async def test_a_long_option_value_is_echoed_as_a_short_prefix(stub: Stub) -> None:
    options = game_pb2.TableOptions()
    options.pinched.setup = LONG
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="pinched", seats=3, options=options)
        )
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTION")
    assert len(caught.value.details() or "") <= MAX_MESSAGE_CHARACTERS


def test_echo_cuts_long_values_and_every_message() -> None:
    assert echo("chess") == "'chess'"
    assert len(echo(LONG)) == ECHO_CHARACTERS and echo(LONG).endswith("\u2026")
    assert len(BadRequest("X", LONG).message) == MAX_MESSAGE_CHARACTERS
