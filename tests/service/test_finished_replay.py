"""After the end, a plain (not revealed) replay of a finished game shows each earlier
version exactly as that viewer was shown it live: the post-game reveal is WatchGame's
``revealed`` alone, and a seat's or a spectator's replayed views of the game's course
still hide what they hid (no view marked revealed, no other seat's pocket)."""

from __future__ import annotations

import asyncio

import grpc

from referee.v1 import game_pb2, referee_pb2
from tests.service.players import play_to_end
from tests.service.table import Stub, Table

WAIT = 20  # seconds for a whole stream


def _course(messages: list[referee_pb2.WatchGameResponse]) -> list[game_pb2.View]:
    """Each message's view without its table (presence and clocks come and go)."""
    views = []
    for message in messages:
        view = game_pb2.View()
        view.CopyFrom(message.view)
        view.ClearField("table")
        views.append(view)
    return views


async def _rest(call: grpc.aio.UnaryStreamCall) -> list[referee_pb2.WatchGameResponse]:  # type: ignore[type-arg]
    out = []
    while (message := await call.read()) is not grpc.aio.EOF:  # type: ignore[attr-defined]
        assert isinstance(message, referee_pb2.WatchGameResponse)
        out.append(message)
    return out


async def test_a_plain_replay_after_the_end_shows_what_was_shown_live(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"replayed-as-lived")
    viewers = (0, None)
    calls = [
        stub.WatchGame(referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=table.md(v))
        for v in viewers
    ]
    for call in calls:  # subscribed once the snapshot is in: nothing live can be missed
        first = await asyncio.wait_for(call.read(), WAIT)
        assert isinstance(first, referee_pb2.WatchGameResponse) and first.snapshot
    live = [asyncio.create_task(_rest(call)) for call in calls]
    await play_to_end(table, 3, win=True)
    for viewer, task in zip(viewers, live, strict=True):
        lived = await asyncio.wait_for(task, WAIT)
        request = referee_pb2.WatchGameRequest(game_id=table.game_id, after_version=0)
        call = stub.WatchGame(request, metadata=table.md(viewer))
        replayed = await asyncio.wait_for(_rest(call), WAIT)
        assert [m.version for m in replayed] == [m.version for m in lived]
        assert _course(replayed) == _course(lived)
        assert not any(m.view.revealed or m.view.the_gang.revealed_pockets for m in replayed)
