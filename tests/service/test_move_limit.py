"""The move limit: a table option with a default per game, stored with the game.

A move beyond the limit is refused with FAILED_PRECONDITION MOVE_LIMIT_REACHED by
SubmitMove, ValidateMove and Play alike and changes nothing in Redis; ListLegalMoves lists
nothing; a game stored before limits existed gets its game's default.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import msgspec
import pytest
from redis.asyncio import Redis

from engines.registry import GAMES
from referee.v1 import game_pb2, referee_pb2
from service.domain import records
from service.domain.move_limits import MAX_MOVE_LIMIT, split_move_limit
from service.edge.verify import verify_history
from service.errors import BadRequest
from service.storage.redis_kit import as_bytes
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, reason_of, stored_bytes, take

R = referee_pb2
WHITE = COLOURS[0]


async def limited_table(stub: Stub, limit: int | None, game: str = "the_gang") -> Table:
    options = game_pb2.TableOptions(move_limit=limit) if limit is not None else None
    created = await stub.CreateGame(
        R.CreateGameRequest(game=game, seats=3, options=options, allow_spectators=True)
    )
    return Table(stub, created.game_id, [t.token for t in created.seat_tokens], created.seed_sha256)


async def swap(table: Table, times: int) -> None:
    """Seat 0 takes white chips 1 and 2 in turn: a chip swap per move, the round never ends."""
    for number in range(times):
        await table.submit(0, take(WHITE, 1 + number % 2))


def test_the_option_is_split_off_and_checked() -> None:
    assert split_move_limit(2_000, {"setup": "basic"}) == (2_000, {"setup": "basic"})
    assert split_move_limit(3_000, {"move_limit": 7}) == (7, {})
    for bad in (0, -1, MAX_MOVE_LIMIT + 1, True, "10"):
        with pytest.raises(BadRequest) as caught:
            split_move_limit(3_000, {"move_limit": bad})
        assert caught.value.reason == "MOVE_LIMIT_INVALID"
    # 20,000 chip swaps are impossible whatever a table asks for.
    assert MAX_MOVE_LIMIT < 20_000


async def test_bad_limits_are_refused_at_creation(stub: Stub) -> None:
    for bad in (0, -5, MAX_MOVE_LIMIT + 1):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await limited_table(stub, bad)
        assert reason_of(caught.value)[:2] == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "MOVE_LIMIT_INVALID",
        )


async def test_setup_shows_the_limit_and_the_default(stub: Stub) -> None:
    for name, game in GAMES.items():
        created = await stub.CreateGame(R.CreateGameRequest(game=name, seats=3))
        assert created.setup.move_limit == game.default_move_limit
    table = await limited_table(stub, 5)
    history = await table.history(None)
    assert history.setup.move_limit == 5


async def test_a_move_beyond_the_limit_is_refused_and_changes_nothing(
    stub: Stub, raw_redis: Redis
) -> None:
    table = await limited_table(stub, 4)
    await swap(table, 4)
    before = await stored_bytes(raw_redis, table.game_id)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.submit(0, take(WHITE, 3))
    code, reason, metadata = reason_of(caught.value)
    assert (code, reason, metadata) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "MOVE_LIMIT_REACHED",
        {"move_limit": "4"},
    )
    assert await stored_bytes(raw_redis, table.game_id) == before
    # Every seat, every move: validate says it would be refused, nothing is listed.
    check = await table.stub.ValidateMove(
        R.ValidateMoveRequest(game_id=table.game_id, move=take(WHITE, 3)), metadata=table.md(1)
    )
    assert (check.legal, check.reason, check.version) == (False, "MOVE_LIMIT_REACHED", 4)
    assert list((await table.legal(1)).moves) == []
    view = await table.view(None)
    assert view.version == 4 and not view.HasField("outcome")
    assert await stored_bytes(raw_redis, table.game_id) == before


async def test_a_resent_move_id_still_gets_its_first_answer_at_the_limit(stub: Stub) -> None:
    table = await limited_table(stub, 2)
    await table.submit(0, take(WHITE, 1))
    last = await table.submit(0, take(WHITE, 2), move_id="last")
    again = await table.submit(0, take(WHITE, 2), move_id="last")
    assert (again.duplicate, again.version) == (True, last.version)


async def test_play_rejects_in_band_at_the_limit(stub: Stub) -> None:
    table = await limited_table(stub, 1)
    await swap(table, 1)

    async def requests() -> AsyncIterator[R.PlayRequest]:
        yield R.PlayRequest(join=R.PlayRequest.Join(game_id=table.game_id))
        submit = R.PlayRequest.Submit(move=take(WHITE, 2), client_move_id="over")
        yield R.PlayRequest(submit=submit)

    call = stub.Play(requests(), metadata=table.md(0))
    async for response in call:
        if response.HasField("rejection"):
            rejection = response.rejection
            break
    call.cancel()
    assert (rejection.client_move_id, rejection.reason) == ("over", "MOVE_LIMIT_REACHED")
    assert rejection.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]


async def test_a_game_stored_without_a_limit_gets_the_default(stub: Stub, raw_redis: Redis) -> None:
    table = await limited_table(stub, 3)
    key = f"game:{{{table.game_id}}}"
    meta = records.meta_decoder.decode(as_bytes(await raw_redis.hget(key, "meta")))
    old = msgspec.structs.replace(meta, move_limit=msgspec.UNSET)
    await raw_redis.hset(key, "meta", records.encode(old))
    await swap(table, 4)  # past the 3 it was created with: the default applies
    history = await table.history(None)
    assert history.setup.move_limit == GAMES["the_gang"].default_move_limit
    assert history.version == 4


async def test_every_game_obeys_its_limit(stub: Stub) -> None:
    for game in ("gang_of_four", "pinched"):
        table = await limited_table(stub, 1, game)
        view = await table.view(None)
        seat = sorted(view.to_act)[0]
        legal = await table.legal(seat)
        await table.submit(seat, legal.moves[0])
        seat = sorted((await table.view(None)).to_act)[0]
        assert list((await table.legal(seat)).moves) == []
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await table.submit(seat, legal.moves[0])
        assert reason_of(caught.value)[1] == "MOVE_LIMIT_REACHED"


async def test_verify_refuses_a_history_longer_than_its_limit(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"limit-verify")
    await play_to_end(table, 3, win=True)
    history = await table.history(None)
    assert verify_history(history).ok
    history.setup.move_limit = len(history.entries) - 1
    report = verify_history(history)
    assert report.problems == [
        f"the history has more moves than its limit of {len(history.entries) - 1}"
    ]
