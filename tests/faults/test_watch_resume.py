"""WatchGame across a referee restart: resume with ``after_version``, nothing missed or repeated.

Two referee processes share one Redis. A seat and a spectator watch a game on referee A
while every move is submitted through referee B, steadily, so moves land before, during
and after A goes away. A is stopped with SIGTERM (its streams must end at once with
UNAVAILABLE / REFEREE_SHUTTING_DOWN and the process must exit 0) or with SIGKILL (the
streams just break). Each watcher then resumes with ``after_version`` = the last version it
saw, on a fresh referee process (SIGTERM case) or on B (SIGKILL case), and follows the game
to its end. What both streams delivered together must be every version exactly once, in
order, and equal to what a watcher replaying the finished game from version 0 gets; the
views must verify against an independent replay of GetHistory from the revealed seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path

import grpc
import pytest

from referee.client.calls import gathered_history
from referee.v1 import game_pb2, referee_pb2
from service.edge.verify import verify_history
from service.process.server import running
from tests.faults.support import (
    RPC_TIMEOUT,
    Failure,
    Ledger,
    create_game,
    failure,
    redis_client,
    redis_host,
    scripted_game,
    spawn_referee,
    stub_for,
    until,
)
from tests.servers import settings_for
from tests.service.table import Stub

SEATS = 4
WATCHERS: tuple[int | None, ...] = (1, None)  # a seat and a spectator
Messages = list[referee_pb2.WatchGameResponse]


async def follow(
    stub: Stub, ledger: Ledger, seat: int | None, after: int | None, out: Messages
) -> Failure | None:
    """Append every message of one WatchGame stream; how it ended (None: the server closed it)."""
    request = referee_pb2.WatchGameRequest(game_id=ledger.game_id)
    if after is not None:
        request.after_version = after
    call = stub.WatchGame(request, metadata=ledger.md(seat))
    try:
        async for message in call:
            out.append(message)
    except grpc.aio.AioRpcError as error:
        return failure(error)
    return None


async def play(
    stub: Stub,
    ledger: Ledger,
    moves: list[tuple[int, game_pb2.Move]],
    start: int,
    stop: int,
    pace: float,
) -> None:
    """Submit moves[start:stop] in order; each must make the next version."""
    for number in range(start, stop):
        seat, move = moves[number]
        reply = await stub.SubmitMove(
            referee_pb2.SubmitMoveRequest(
                game_id=ledger.game_id, move=move, client_move_id=f"scripted-{number}"
            ),
            metadata=ledger.md(seat),
            timeout=RPC_TIMEOUT,
        )
        assert (reply.version, reply.duplicate) == (number + 1, False)
        ledger.acknowledge(seat, f"scripted-{number}", move, reply.version)
        await asyncio.sleep(pace)


def versions(messages: Messages) -> list[int]:
    return [message.version for message in messages]


@pytest.mark.parametrize("stop", ["sigterm", "sigkill"])
async def test_a_watcher_resumes_after_its_referee_goes_away(tmp_path: Path, stop: str) -> None:
    moves = scripted_game(SEATS, b"watch-resume")
    final = len(moves)
    async with contextlib.AsyncExitStack() as stack:
        redis = await stack.enter_async_context(redis_host(tmp_path / "redis"))
        a = await stack.enter_async_context(spawn_referee("a", redis.url, tmp_path))
        b = await stack.enter_async_context(spawn_referee("b", redis.url, tmp_path))
        stub_a = await stack.enter_async_context(stub_for(a.address))
        stub_b = await stack.enter_async_context(stub_for(b.address))
        ledger = await create_game(stub_b, SEATS, b"watch-resume")

        first: dict[int | None, Messages] = {seat: [] for seat in WATCHERS}
        streams = [
            asyncio.create_task(follow(stub_a, ledger, seat, None, first[seat]))
            for seat in WATCHERS
        ]
        try:
            await until(lambda: all(first.values()), 10, "the watchers' snapshots")
            await play(stub_b, ledger, moves, 0, 10, 0)
            await until(lambda: all(m[-1].version == 10 for m in first.values()), 10, "v10")
            # Moves keep landing (through B) while A goes away, and after.
            mover = asyncio.create_task(play(stub_b, ledger, moves, 10, 40, 0.02))
            await until(lambda: any(m[-1].version >= 13 for m in first.values()), 10, "v13")
            signalled = time.monotonic()
            if stop == "sigterm":
                a.signal(signal.SIGTERM)
            else:
                await a.kill()
            endings = await asyncio.wait_for(asyncio.gather(*streams), 10)
            ended_within = time.monotonic() - signalled
            if stop == "sigterm":
                exit_code = await asyncio.wait_for(a.process.wait(), 15)
            await asyncio.wait_for(mover, 20)
        finally:
            for task in streams:
                task.cancel()

        for seat, ending in zip(WATCHERS, endings, strict=True):
            assert ending is not None, f"watcher {seat}: the stream ended as if the game had"
            assert ending.code is grpc.StatusCode.UNAVAILABLE, f"watcher {seat}: {ending}"
            if stop == "sigterm":
                assert ending.reason == "REFEREE_SHUTTING_DOWN", f"watcher {seat}: {ending}"
        if stop == "sigterm":
            # Streams end at once, not after the grace period; then the process exits cleanly.
            assert ended_within < 2, f"streams ended {ended_within:.1f}s after SIGTERM"
            assert exit_code == 0, a.log_tail()
        last = {seat: first[seat][-1].version for seat in WATCHERS}
        assert all(40 - version >= 3 for version in last.values()), last  # a real gap to replay

        if stop == "sigterm":  # A's replacement
            target = await stack.enter_async_context(spawn_referee("a2", redis.url, tmp_path))
            stub_resume = await stack.enter_async_context(stub_for(target.address))
        else:
            stub_resume = stub_b
        second: dict[int | None, Messages] = {seat: [] for seat in WATCHERS}
        resumed = [
            asyncio.create_task(follow(stub_resume, ledger, seat, last[seat], second[seat]))
            for seat in WATCHERS
        ]
        try:
            await until(
                lambda: all(m and m[-1].version >= 40 for m in second.values()), 10, "the gap"
            )
            await play(stub_b, ledger, moves, 40, final, 0.005)
            endings = await asyncio.wait_for(asyncio.gather(*resumed), 20)
        finally:
            for task in resumed:
                task.cancel()
        assert endings == [None, None], endings  # both streams end with the game

        history = await gathered_history(
            lambda request: stub_b.GetHistory(request, timeout=RPC_TIMEOUT), ledger.game_id
        )
        assert [entry.version for entry in history.entries] == list(range(1, final + 1))
        assert history.version == final and history.HasField("outcome")
        for seat in WATCHERS:
            before, after = first[seat], second[seat]
            assert before[0].snapshot and before[0].version == 0
            assert versions(before) == list(range(last[seat] + 1)), f"watcher {seat} before"
            # Every later version exactly once, in order, up to the end; no snapshot needed.
            assert versions(after) == list(range(last[seat] + 1, final + 1)), (
                f"watcher {seat} resumed after v{last[seat]}: {versions(after)}"
            )
            assert not any(message.snapshot for message in after)
            assert after[-1].view.HasField("outcome")
            # The same messages a watcher replaying the finished game from the start gets.
            replayed: Messages = []
            assert await follow(stub_b, ledger, seat, 0, replayed) is None
            # Its views are the live ones; its events are all public (after the end everything
            # is, as in GetHistory), the live ones were redacted up to the final version.
            live = before[1:] + after
            assert [(m.version, m.view, m.snapshot) for m in live] == [
                (m.version, m.view, m.snapshot) for m in replayed
            ], f"watcher {seat}: live and replay differ"
            assert [list(m.events) for m in replayed] == [list(e.events) for e in history.entries]
            assert after[-1] == replayed[-1], f"watcher {seat}: the final update differs"
            views = [message.view for message in before + after]
            report = verify_history(history, views, game_id=ledger.game_id)
            assert report.ok and report.views == final + 1, str(report)


async def test_sigterm_ends_streams_at_once_and_lets_an_in_flight_move_finish(
    tmp_path: Path,
) -> None:
    """Redis holds A's commit (CLIENT PAUSE WRITE) while A gets SIGTERM; the move still lands."""
    async with contextlib.AsyncExitStack() as stack:
        redis = await stack.enter_async_context(redis_host(tmp_path / "redis"))
        raw = await stack.enter_async_context(redis_client(redis.url))
        a = await stack.enter_async_context(spawn_referee("a", redis.url, tmp_path))
        stub_a = await stack.enter_async_context(stub_for(a.address))
        seat, move = scripted_game(SEATS, b"in-flight")[0]
        ledger = await create_game(stub_a, SEATS, b"in-flight")
        watched: Messages = []
        request = referee_pb2.SubmitMoveRequest(
            game_id=ledger.game_id, move=move, client_move_id="in-flight"
        )
        stream = asyncio.create_task(follow(stub_a, ledger, None, None, watched))
        submit: asyncio.Future[referee_pb2.SubmitMoveResponse] | None = None
        try:
            await until(lambda: bool(watched), 10, "the watcher's snapshot")
            await raw.client_pause(8000, all=False)
            try:
                submit = asyncio.ensure_future(
                    stub_a.SubmitMove(request, metadata=ledger.md(seat), timeout=15)
                )
                await asyncio.sleep(0.5)
                assert not submit.done(), "the commit should be held by the paused Redis"
                a.signal(signal.SIGTERM)
                ending = await asyncio.wait_for(stream, 3)
                assert not submit.done(), "the move was answered before Redis let it commit"
                assert a.alive, "the referee exited with a move in flight"
            finally:
                await raw.client_unpause()
            reply = await asyncio.wait_for(submit, 10)
            assert await asyncio.wait_for(a.process.wait(), 10) == 0, a.log_tail()
        finally:
            stream.cancel()
            if submit is not None:
                submit.cancel()
        assert ending is not None and (ending.code, ending.reason) == (
            grpc.StatusCode.UNAVAILABLE,
            "REFEREE_SHUTTING_DOWN",
        ), ending
        assert (reply.version, reply.duplicate) == (1, False)
        assert await raw.llen(f"game:{{{ledger.game_id}}}:log") == 1


async def test_resuming_at_the_current_version_repeats_nothing(tmp_path: Path) -> None:
    """A watcher that saw v3 and resumes with after_version=3 before anything else lands."""
    moves = scripted_game(SEATS, b"resume-current")
    async with contextlib.AsyncExitStack() as stack:
        redis = await stack.enter_async_context(redis_host(tmp_path / "redis"))
        handle = await stack.enter_async_context(
            running(settings_for(redis.url, tmp_path / "referee"))
        )
        stub = await stack.enter_async_context(stub_for(handle.address))
        ledger = await create_game(stub, SEATS, b"resume-current")
        await play(stub, ledger, moves, 0, 3, 0)
        seen: Messages = []
        stream = asyncio.create_task(follow(stub, ledger, 2, 3, seen))
        try:
            await asyncio.sleep(0.3)  # subscribed: the next move is a live update
            await play(stub, ledger, moves, 3, 4, 0)
            await until(lambda: any(message.version == 4 for message in seen), 10, "v4")
        finally:
            stream.cancel()
        assert versions(seen) == [4], [(m.version, m.snapshot) for m in seen]
