"""Whole games of The Gang through gRPC on real Redis, watched by a spectator."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.edge.verify import verify_history
from tests.service.players import play_to_end
from tests.service.table import Table


async def _watch_all(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub, table: Table, seat: int | None
) -> list[referee_pb2.WatchGameResponse]:
    stream = stub.WatchGame(
        referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=table.md(seat)
    )
    return [message async for message in stream]


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
async def test_a_team_that_reads_each_other_perfectly_wins(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub, seats: int
) -> None:
    table = await Table.create(stub, seats, seed=f"win-{seats}".encode())
    spectator = asyncio.create_task(_watch_all(stub, table, None))
    seat_watch = asyncio.create_task(_watch_all(stub, table, 0))
    await asyncio.sleep(0.05)
    final = await play_to_end(table, seats, win=True)
    assert list(final.outcome.winners) == list(range(seats))
    assert final.the_gang.vaults == 3
    assert final.the_gang.alarms == final.the_gang.heist - 3

    watched = await asyncio.wait_for(spectator, 10)
    assert watched[0].snapshot
    assert [m.version for m in watched[1:]] == list(range(1, final.version + 1))
    assert watched[-1].view.HasField("outcome")
    mine = await asyncio.wait_for(seat_watch, 10)
    assert mine[-1].version == final.version

    history = await table.history(None)
    assert hashlib.sha256(history.seed).hexdigest() == table.seed_sha256
    assert len(history.entries) == final.version
    report = verify_history(history, [m.view for m in watched] + [m.view for m in mine])
    assert report.ok, str(report)


async def test_a_team_that_reverses_its_red_chips_loses(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    table = await Table.create(stub, 4, seed=b"lose")
    final = await play_to_end(table, 4, win=False)
    assert list(final.outcome.winners) == []
    assert final.the_gang.alarms == 3
    report = verify_history(await table.history(2))
    assert report.ok, str(report)


async def test_history_hides_the_seed_until_the_end(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    table = await Table.create(stub, 3)
    history = await table.history(0)
    assert history.seed == b""
    assert len(history.seed_sha256) == 64
    assert not history.HasField("outcome")
    assert not verify_history(history).ok
