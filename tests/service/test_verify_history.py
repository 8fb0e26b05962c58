"""VerifyHistory: anyone can have a finished game re-dealt and re-run from its seed.

The RPC reads nothing stored, so these tests also hand it histories and views that were
tampered with after GetHistory, and check that it names the first move that differs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import grpc
import httpx
import pytest
from google.protobuf import json_format

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.edge.calls import MAX_VERIFY_BYTES
from service.edge.verifying import Verifier
from service.errors import Unavailable
from service.process.server import Running
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Table, reason_of, take

R = referee_pb2


async def _finished(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> tuple[R.GetHistoryResponse, list[R.WatchGameResponse]]:
    """A finished 3-seat game of The Gang: its spectator history and every update."""
    table = await Table.create(stub, 3, seed=b"verify-history")
    await play_to_end(table, 3, win=True)
    history = await table.history(None)
    watch = stub.WatchGame(R.WatchGameRequest(game_id=table.game_id, after_version=0))
    return history, [update async for update in watch]


async def _verify(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    history: R.GetHistoryResponse,
    updates: Sequence[R.WatchGameResponse] = (),
) -> R.VerifyHistoryResponse:
    request = R.VerifyHistoryRequest(history=history, views=[u.view for u in updates])
    return await stub.VerifyHistory(request)


async def test_a_finished_game_verifies_with_every_view(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    history, updates = await _finished(stub)
    moves = len(history.entries)
    assert [u.version for u in updates] == list(range(1, moves + 1))
    answer = await _verify(stub, history, updates)
    assert answer.verified, answer.problems
    assert (answer.moves_replayed, answer.views_checked) == (moves, moves)
    assert answer.first_differing_version == 0 and not answer.problems


async def test_a_changed_move_is_named_as_the_first_that_differs(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    history, _ = await _finished(stub)
    changed = R.GetHistoryResponse()
    changed.CopyFrom(history)
    # The fifth move: the same seat takes another chip than it did.
    fifth = changed.entries[4]
    taken = fifth.move.the_gang.take_chip
    other = take(taken.colour, 1 + taken.stars % 3)
    fifth.move.CopyFrom(other)
    answer = await _verify(stub, changed)
    assert not answer.verified
    assert answer.first_differing_version == 5
    assert answer.moves_replayed == 4
    assert answer.problems[0].startswith("move 5: ")


async def test_changed_events_or_a_reordered_log_differ_at_that_move(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    history, _ = await _finished(stub)
    dropped = R.GetHistoryResponse()
    dropped.CopyFrom(history)
    del dropped.entries[2].events[:]
    answer = await _verify(stub, dropped)
    assert (answer.verified, answer.first_differing_version) == (False, 3)
    assert "events differ" in answer.problems[0]

    swapped = R.GetHistoryResponse()
    swapped.CopyFrom(history)
    swapped.entries[6].version = 8
    answer = await _verify(stub, swapped)
    assert (answer.verified, answer.first_differing_version) == (False, 7)


async def test_a_wrong_seed_outcome_or_view_is_not_verified_but_names_no_move(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    history, updates = await _finished(stub)
    seeded = R.GetHistoryResponse()
    seeded.CopyFrom(history)
    seeded.seed = b"another seed"
    answer = await _verify(stub, seeded)
    assert not answer.verified and answer.first_differing_version == 0
    assert "sha256" in answer.problems[0]

    won = R.GetHistoryResponse()
    won.CopyFrom(history)
    won.outcome.summary = "the gang lost"
    answer = await _verify(stub, won)
    assert not answer.verified and answer.moves_replayed == len(history.entries)
    assert answer.problems == ["the outcome differs from the replay"]

    seen = [R.WatchGameResponse() for _ in updates]
    for copy, update in zip(seen, updates, strict=True):
        copy.CopyFrom(update)
    seen[3].view.to_act[:] = [2, 1]
    answer = await _verify(stub, history, seen)
    assert not answer.verified and answer.first_differing_version == 0
    assert answer.problems == [f"the view at version {seen[3].version} differs from the replay"]


async def test_an_unfinished_game_has_no_seed_to_verify(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    table = await Table.create(stub, 3)
    await table.submit(0, take(COLOURS[0], 1))
    answer = await _verify(stub, await table.history(None))
    assert not answer.verified
    assert answer.problems == ["the seed is not revealed: the game is not over"]


async def test_garbage_is_an_answer_and_oversized_requests_are_refused(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    answer = await _verify(stub, R.GetHistoryResponse())
    assert not answer.verified and answer.problems == ["unknown game ''"]
    history, _ = await _finished(stub)
    lost = R.GetHistoryResponse()
    lost.CopyFrom(history)
    lost.entries[0].seat = 9
    answer = await _verify(stub, lost)
    assert (answer.first_differing_version, list(answer.problems)) == (
        1,
        ["move 1: seat 9 is not at this table"],
    )
    huge = R.VerifyHistoryRequest(history=history)
    huge.history.setup.options.the_gang.SetInParent()
    huge.views.add().game_id = "x" * (MAX_VERIFY_BYTES + 1024)  # below gRPC's own limit
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.VerifyHistory(huge)
    assert reason_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_TOO_LARGE")
    # More views than versions x viewers: refused before any replay.
    crowded = R.VerifyHistoryRequest(history=history)
    for _ in range((len(history.entries) + 1) * (history.setup.seats + 1) + 1):
        crowded.views.add()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.VerifyHistory(crowded)
    assert reason_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "TOO_MANY_VIEWS")


async def test_a_browser_sends_a_whole_game_as_json_with_no_token(
    referee_server: Running, stub: referee_pb2_grpc.RefereeServiceAsyncStub
) -> None:
    """The console's call: far above the 64 KiB of other requests, no Authorization."""
    history, updates = await _finished(stub)
    request = R.VerifyHistoryRequest(history=history, views=[u.view for u in updates])
    body = json_format.MessageToJson(request)
    assert len(body) > 256 * 1024  # more than any other route of the port reads
    async with httpx.AsyncClient(base_url=referee_server.http_url) as http:
        reply = await http.post(
            "/referee.v1.RefereeService/VerifyHistory",
            content=body,
            headers={"content-type": "application/json"},
        )
    assert reply.status_code == 200, reply.text
    answer = json_format.Parse(reply.text, R.VerifyHistoryResponse())
    assert answer.verified and answer.views_checked == len(updates)


async def test_replays_run_in_a_worker_process_with_a_bounded_queue(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
) -> None:
    """A call that finds the pool full is refused at once with VERIFY_BUSY; the pool then
    answers the next call, and a closed verifier refuses every call."""
    history, updates = await _finished(stub)
    request = R.VerifyHistoryRequest(history=history, views=[u.view for u in updates])
    verifier = Verifier(workers=1, queue=0)
    try:
        first, second = await asyncio.gather(
            verifier.verify(request), verifier.verify(request), return_exceptions=True
        )
        assert isinstance(second, Unavailable) and second.reason == "VERIFY_BUSY"
        assert isinstance(first, bytes)
        assert R.VerifyHistoryResponse.FromString(first).verified
        assert verifier.in_pool == 0
        again = R.VerifyHistoryResponse.FromString(await verifier.verify(request))
        assert again.verified and again.views_checked == len(updates)
    finally:
        verifier.close()
    with pytest.raises(Unavailable):
        await verifier.verify(request)
