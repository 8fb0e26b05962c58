"""WatchGame's post-game reveal (``revealed``): a finished game's history replayed with
every version's revealed view (every pocket, the deck, the discards, the sealed choices),
refused while the game runs, so nothing leaks before the end; VerifyHistory checks such
views against the replay's revealed views; live watchers are served as before."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from redis.asyncio import Redis

from engines.base import RULES_REVISION_OPTION, replay
from engines.registry import GAMES
from referee.codecs import CODECS
from referee.v1 import referee_pb2
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, reason_of, stored_bytes, take

R = referee_pb2


async def _revealed(
    stub: Stub, table: Table, seat: int | None, after: int | None = 0
) -> list[R.WatchGameResponse]:
    request = R.WatchGameRequest(game_id=table.game_id, revealed=True)
    if after is not None:
        request.after_version = after
    call = stub.WatchGame(request, metadata=table.md(seat))
    return await asyncio.wait_for(_all(call), 20)


async def _all(call: grpc.aio.UnaryStreamCall) -> list[R.WatchGameResponse]:  # type: ignore[type-arg]
    return [message async for message in call]


async def _rest(call: grpc.aio.UnaryStreamCall) -> list[R.WatchGameResponse]:  # type: ignore[type-arg]
    out = []
    while (message := await call.read()) is not grpc.aio.EOF:  # type: ignore[attr-defined]
        assert isinstance(message, R.WatchGameResponse)
        out.append(message)
    return out


@pytest.mark.parametrize("after", [None, 0, 1])
@pytest.mark.parametrize("seat", [None, 1])
async def test_the_reveal_is_refused_before_the_end_and_changes_nothing(
    stub: Stub, raw_redis: Redis, seat: int | None, after: int | None
) -> None:
    table = await Table.create(stub, 3, seed=b"not-over")
    await table.submit(0, take(COLOURS[0], 1))
    before = await stored_bytes(raw_redis, table.game_id)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _revealed(stub, table, seat, after)
    code, reason, _ = reason_of(caught.value)
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_OVER")
    assert await stored_bytes(raw_redis, table.game_id) == before


async def test_the_reveal_keeps_the_watch_permissions(stub: Stub) -> None:
    """A private game's watch is its seats' alone, revealed or not; the caller is checked
    before the game's state, so a refusal tells a stranger nothing about it."""
    table = await Table.create(stub, 3, seed=b"private-reveal", spectators=False)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _revealed(stub, table, None)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _revealed(stub, table, 2)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_OVER")


def _engine_pockets(history: R.GetHistoryResponse) -> list[list[list[str]]]:
    """Per version, every seat's pocket (card codes), replayed from the revealed seed."""
    game, codec = GAMES["the_gang"], CODECS["the_gang"]
    options = {
        **codec.options_from_proto(history.setup.options),
        RULES_REVISION_OPTION: history.setup.rules_revision,
    }
    config = game.make_config(history.setup.seats, options)
    moves = [(entry.seat, codec.move_from_proto(entry.move)) for entry in history.entries]
    _, steps = replay(game, config, history.seed, moves)
    return [[[str(card) for card in pocket] for pocket in s.state.pockets] for s in steps]


async def test_after_the_end_every_replayed_view_is_revealed_and_verifies(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"revealed-history")
    live_call = stub.WatchGame(R.WatchGameRequest(game_id=table.game_id), metadata=table.md(None))
    first = await asyncio.wait_for(live_call.read(), 10)
    assert isinstance(first, R.WatchGameResponse) and first.snapshot
    live_task = asyncio.create_task(_rest(live_call))
    await play_to_end(table, 3, win=True)
    live = await asyncio.wait_for(live_task, 20)
    history = await table.history(None)
    moves = len(history.entries)
    pockets = _engine_pockets(history)

    # A live watcher's views are as before: no reveal, no pockets but at the showdowns.
    assert [m.version for m in live] == list(range(1, moves + 1))
    for message in live:
        assert not message.view.revealed and not message.view.the_gang.revealed_pockets

    for seat in (None, 0):
        revealed = await _revealed(stub, table, seat)
        assert [m.version for m in revealed] == list(range(1, moves + 1))
        assert [list(m.events) for m in revealed] == [list(e.events) for e in history.entries]
        for message, expected in zip(revealed, pockets, strict=True):
            view = message.view
            assert view.revealed and not view.HasField("seat")
            shown = [[c.code for c in row.cards] for row in view.the_gang.revealed_pockets]
            assert shown == expected
        assert revealed[-1].view.HasField("outcome")
    snapshot = await _revealed(stub, table, None, after=None)
    assert len(snapshot) == 1 and snapshot[0].snapshot and snapshot[0].view.revealed
    assert snapshot[0].view.version == moves

    views = [m.view for m in [*live, *revealed, *snapshot]]
    answer = await stub.VerifyHistory(R.VerifyHistoryRequest(history=history, views=views))
    assert answer.verified, answer.problems
    assert answer.views_checked == 2 * moves + 1


async def test_a_changed_revealed_view_or_a_reveal_passed_off_as_plain_differs(
    stub: Stub,
) -> None:
    table = await Table.create(stub, 3, seed=b"revealed-tampered")
    await play_to_end(table, 3, win=True)
    history = await table.history(None)
    third = (await _revealed(stub, table, None))[2].view
    swapped = R.VerifyHistoryRequest(history=history, views=[third])
    pocket = swapped.views[0].the_gang.revealed_pockets
    pocket[0].cards[0].CopyFrom(pocket[1].cards[0])
    unmarked = R.VerifyHistoryRequest(history=history, views=[third])
    unmarked.views[0].revealed = False  # the reveal passed off as a spectator's view
    seated = R.VerifyHistoryRequest(history=history, views=[third])
    seated.views[0].seat = 0  # a reveal is nobody's view
    for request in (swapped, unmarked, seated):
        answer = await stub.VerifyHistory(request)
        assert not answer.verified
        assert answer.problems == ["the view at version 3 differs from the replay"]
