"""Reads (GetView, ListLegalMoves, ValidateMove) answer from the referee's copy of a game
only while the store is still at that copy's version and host version: two referees on one
Redis, each move made on the other one, each read on this one."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc
from service.errors import GameNotFound
from service.process.server import Running, running
from tests.servers import settings_for
from tests.service.table import COLOURS, auth, give_back, reason_of, take

Stub = referee_pb2_grpc.RefereeServiceStub


@contextlib.asynccontextmanager
async def two(redis_url: str, tmp_path: Path) -> AsyncIterator[tuple[Running, Running]]:
    async with (
        running(settings_for(redis_url, tmp_path / "a")) as a,
        running(settings_for(redis_url, tmp_path / "b")) as b,
    ):
        yield a, b


async def test_a_read_after_a_move_elsewhere_sees_the_move(redis_url: str, tmp_path: Path) -> None:
    async with (
        two(redis_url, tmp_path) as (a, b),
        grpc.aio.insecure_channel(a.address) as to_a,
        grpc.aio.insecure_channel(b.address) as to_b,
    ):
        here, there = Stub(to_a), Stub(to_b)
        created = await here.CreateGame(
            referee_pb2.CreateGameRequest(game="the_gang", seats=3, seed=b"read-copy")
        )
        gid, tokens = created.game_id, [t.token for t in created.seat_tokens]
        for version in range(2):  # a third take would end the round
            seen = await here.GetView(
                referee_pb2.GetViewRequest(game_id=gid), metadata=auth(tokens[1])
            )
            listed = await here.ListLegalMoves(
                referee_pb2.ListLegalMovesRequest(game_id=gid), metadata=auth(tokens[version])
            )
            assert seen.view.version == listed.version == version
            # Moved on the other referee: this one's copy is now one version behind.
            moved = await there.SubmitMove(
                referee_pb2.SubmitMoveRequest(
                    game_id=gid, move=take(COLOURS[0], version + 1), client_move_id=f"m{version}"
                ),
                metadata=auth(tokens[version]),
            )
            assert moved.version == version + 1
            again = await here.GetView(
                referee_pb2.GetViewRequest(game_id=gid), metadata=auth(tokens[version])
            )
            assert again.view == moved.view  # the move made there, seen here
            check = await here.ValidateMove(
                referee_pb2.ValidateMoveRequest(
                    game_id=gid, move=give_back(COLOURS[0], version + 1)
                ),
                metadata=auth(tokens[(version + 1) % 3]),
            )
            # That seat does not hold the chip just taken (the copy would not know it).
            assert (check.version, check.legal, check.reason) == (
                version + 1,
                False,
                "CHIP_NOT_HELD",
            )


async def test_a_token_reissued_elsewhere_is_refused_here(redis_url: str, tmp_path: Path) -> None:
    """A host change (no new version) makes the copy stale too."""
    async with (
        two(redis_url, tmp_path) as (a, b),
        grpc.aio.insecure_channel(a.address) as to_a,
        grpc.aio.insecure_channel(b.address) as to_b,
    ):
        here = Stub(to_a)
        created = await here.CreateGame(
            referee_pb2.CreateGameRequest(game="the_gang", seats=3, open_seats=1)
        )
        gid, old = created.game_id, created.seat_tokens[0].token
        request = referee_pb2.GetViewRequest(game_id=gid)
        assert (await here.GetView(request, metadata=auth(old))).view.seat == 0  # copied here
        reissued = await lobby_pb2_grpc.LobbyServiceStub(to_b).ReissueSeatToken(
            lobby_pb2.ReissueSeatTokenRequest(game_id=gid, seat=0),
            metadata=auth(created.admin_token),
        )
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await here.GetView(request, metadata=auth(old))
        assert reason_of(refused.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_REVOKED")
        seen = await here.GetView(request, metadata=auth(reissued.seat_token))
        assert seen.view.seat == 0


async def test_presence_is_read_with_the_version(redis_url: str, tmp_path: Path) -> None:
    async with running(settings_for(redis_url, tmp_path)) as a:
        async with grpc.aio.insecure_channel(a.address) as to_a:
            created = await Stub(to_a).CreateGame(
                referee_pb2.CreateGameRequest(game="the_gang", seats=3)
            )
        gid = created.game_id
        assert (await a.referee.writer.current(gid)).present == frozenset()
        await a.referee.feed.store.hold_presence(gid, "1:elsewhere", 2**42)
        assert (await a.referee.writer.current(gid)).present == {1}


async def test_a_game_gone_from_the_store_is_not_found_even_with_a_copy(
    redis_url: str, tmp_path: Path
) -> None:
    async with running(settings_for(redis_url, tmp_path)) as a:
        async with grpc.aio.insecure_channel(a.address) as to_a:
            created = await Stub(to_a).CreateGame(
                referee_pb2.CreateGameRequest(game="the_gang", seats=3)
            )
        gid = created.game_id
        await a.referee.writer.current(gid)  # this process holds a copy now
        async with Redis.from_url(redis_url) as raw:
            await raw.delete(*a.referee.feed.store.keys(gid).all)
        with pytest.raises(GameNotFound):
            await a.referee.writer.current(gid)
