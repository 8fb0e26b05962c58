"""Each live change is projected once per viewer (service.app.watching) and shared among every
stream of that viewer: all spectators of a table get one projection, which never carries a
seat's hand, and a seat's own streams get theirs, which only they get."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.app import watching
from service.edge import translate
from service.process.server import Running, running
from tests.servers import settings_for
from tests.service.table import auth

WAIT = 10  # seconds: a message the test waits for, or it fails


@pytest.fixture
async def server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    async with running(settings_for(redis_url, tmp_path)) as handle:
        yield handle


async def test_spectators_share_one_projection_and_it_shows_no_hand(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    projected: list[int | None] = []
    project = watching.project  # type: ignore[attr-defined]
    built: list[int] = []
    build = translate.view_to_proto

    def counting_builds(view: Any) -> Any:
        built.append(view.version)
        return build(view)

    seated = watching.with_seat  # type: ignore[attr-defined]

    def counting(*args: Any, **kwargs: Any) -> Any:
        projected.append(args[3])  # the viewer: None, the public part every view shares
        return project(*args, **kwargs)

    def counting_seats(*args: Any, **kwargs: Any) -> Any:
        projected.append(args[3])  # the seat whose own body is added to the public part
        return seated(*args, **kwargs)

    async with grpc.aio.insecure_channel(server.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="gang_of_four", seats=4, allow_spectators=True)
        )
        gid = created.game_id
        tokens = [seat.token for seat in created.seat_tokens]
        spectators = [stub.WatchGame(referee_pb2.WatchGameRequest(game_id=gid)) for _ in range(3)]
        seats = [
            stub.WatchGame(referee_pb2.WatchGameRequest(game_id=gid), metadata=auth(tokens[s]))
            for s in (0, 0, 1)
        ]
        streams: list[Any] = [*spectators, *seats]
        async with asyncio.timeout(WAIT):
            for stream in streams:
                await stream.read()  # the snapshot
            monkeypatch.setattr(watching, "project", counting)
            monkeypatch.setattr(watching, "with_seat", counting_seats)
            monkeypatch.setattr(translate, "view_to_proto", counting_builds)
            view = await stub.GetView(referee_pb2.GetViewRequest(game_id=gid))
            mover = view.view.gang_of_four.turn
            legal = await stub.ListLegalMoves(
                referee_pb2.ListLegalMovesRequest(game_id=gid), metadata=auth(tokens[mover])
            )
            await stub.SubmitMove(
                referee_pb2.SubmitMoveRequest(
                    game_id=gid, move=legal.moves[0], client_move_id="shared-1"
                ),
                metadata=auth(tokens[mover]),
            )
            got: list[referee_pb2.WatchGameResponse] = []
            for stream in streams:
                got.append(await stream.read())
        assert all(message.version == 1 and not message.snapshot for message in got)
        spectator_bytes = {m.SerializeToString(deterministic=True) for m in got[:3]}
        assert len(spectator_bytes) == 1
        assert not got[0].view.gang_of_four.cards  # a spectator sees no hand
        assert got[3] == got[4] and got[3] != got[5]
        assert got[3].view.gang_of_four.cards and got[5].view.gang_of_four.cards
        assert got[3].view.gang_of_four.cards != got[5].view.gang_of_four.cards
        assert sorted(projected, key=str) == sorted([None, 0, 1], key=str)  # once per viewer
        # (the public part once for the change, then each seat's body on it)
        # ... and each viewer's message is built once too (plus the mover's SubmitMove
        # answer, which is its own): four builds of version 1 for six streams (and the
        # GetView of version 0).
        assert built == [0, 1, 1, 1, 1], built
        for stream in streams:
            stream.cancel()
