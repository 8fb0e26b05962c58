"""Redis restarts mid-play: typed UNAVAILABLE during the outage, nothing acknowledged lost.

One referee (in this process) on an EmbeddedRedis with ``appendfsync always`` on a fixed
port. Clients play random legal chip moves in several games of The Gang. Mid-play Redis is
stopped (SIGTERM: it shuts down cleanly) or crashed (SIGKILL: only what is on disk
survives, and with ``always`` every acknowledged write is), and a new server is started on
the same data folder and port a second later. During the outage every call must fail with
UNAVAILABLE and ErrorInfo reason STORE_UNAVAILABLE, never INTERNAL and never OK. A client
whose move failed re-sends it with the same ``client_move_id`` until it gets an answer:
after the restart that move is applied once, or answered as the duplicate it is when the
first try had been applied after all. Afterwards every move acknowledged before the
restart is in the log, the log replays to the stored state, and play went on.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import grpc
import pytest

from referee.v1 import game_pb2, referee_pb2
from service.process.server import running
from tests.faults.support import (
    RPC_TIMEOUT,
    Failure,
    Key,
    Ledger,
    RedisHost,
    check_finished_history,
    check_store,
    choose_move,
    create_game,
    failure,
    free_port,
    gather_or_cancel,
    is_store_unavailable,
    redis_client,
    seats_without_chip,
    stub_for,
    until,
)
from tests.servers import settings_for
from tests.service.table import Stub

GAMES = 4
CLIENTS = 8
OUTAGE = 1.0  # seconds between the old server's end and the new one's start
ACKS_BEFORE = 80
ACKS_AFTER = 120
MOVE_DEADLINE = 15.0
RULES = frozenset({"CHIP_ALREADY_HELD", "CHIP_NOT_HELD", "CHIP_NOT_IN_PLAY", "GAME_OVER"})
T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """One RPC as a client saw it: when it ran and how it ended (None: OK)."""

    name: str
    started: float
    ended: float
    failed: Failure | None


@dataclass
class Play:
    stub: Stub
    games: list[Ledger]
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    calls: list[Call] = field(default_factory=list)
    acked: int = 0
    # Moves that failed at least once and were then answered (applied / duplicate /
    # rejected by a rule, when another seat's move came first).
    retried: Counter[str] = field(default_factory=Counter)
    rejections: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    # Moves whose first try was answered `duplicate` (Redis applied an earlier try whose
    # reply the referee lost): correct, and counted for the report.
    first_try_duplicates: list[Key] = field(default_factory=list)

    async def call(self, name: str, rpc: Callable[[], Awaitable[T]]) -> T | Failure:
        started = time.monotonic()
        try:
            result = await rpc()
        except grpc.aio.AioRpcError as error:
            fail = failure(error)
            self.calls.append(Call(name, started, time.monotonic(), fail))
            return fail
        self.calls.append(Call(name, started, time.monotonic(), None))
        return result


def store_failure(fail: Failure) -> bool:
    """A failure that says nothing about the move: Redis (or the call) did not get through."""
    return fail.code in {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNKNOWN,
    }


async def submit(play: Play, ledger: Ledger, seat: int, move: game_pb2.Move, move_id: str) -> None:
    """Send one move until the referee gives a definite answer, always with the same id."""
    key = (seat, move_id)
    request = referee_pb2.SubmitMoveRequest(
        game_id=ledger.game_id, move=move, client_move_id=move_id
    )

    async def rpc() -> referee_pb2.SubmitMoveResponse:
        return await play.stub.SubmitMove(request, metadata=ledger.md(seat), timeout=RPC_TIMEOUT)

    ledger.in_doubt[key] = move
    deadline = time.monotonic() + MOVE_DEADLINE
    tries = 0
    while time.monotonic() < deadline:
        tries += 1
        answer = await play.call("SubmitMove", rpc)
        if isinstance(answer, Failure):
            if store_failure(answer):
                await asyncio.sleep(0.05)  # same move, same id, until Redis is back
                continue
            if answer.code is grpc.StatusCode.FAILED_PRECONDITION and answer.reason in RULES:
                ledger.in_doubt.pop(key)  # an applied move id would get its first result
                play.rejections[answer.reason or ""] += 1
                if tries > 1:  # a definite answer to a re-sent move, like an applied one
                    play.retried["rejected"] += 1
                return
            play.unexpected.append(f"{move_id}: {answer}")
            return
        ledger.acknowledge(seat, move_id, move, answer.version)
        ledger.finished |= answer.view.HasField("outcome")
        play.acked += 1
        if tries > 1:
            play.retried["duplicate" if answer.duplicate else "applied"] += 1
        elif answer.duplicate:
            play.first_try_duplicates.append(key)
        return
    play.unexpected.append(f"{move_id}: no answer within {MOVE_DEADLINE}s")


async def get_view(play: Play, ledger: Ledger) -> game_pb2.View | None:
    request = referee_pb2.GetViewRequest(game_id=ledger.game_id)

    async def rpc() -> referee_pb2.GetViewResponse:
        return await play.stub.GetView(request, timeout=RPC_TIMEOUT)

    reply = await play.call("GetView", rpc)
    return None if isinstance(reply, Failure) else reply.view


async def legal_moves(
    play: Play, ledger: Ledger, seat: int
) -> referee_pb2.ListLegalMovesResponse | None:
    request = referee_pb2.ListLegalMovesRequest(game_id=ledger.game_id)

    async def rpc() -> referee_pb2.ListLegalMovesResponse:
        return await play.stub.ListLegalMoves(
            request, metadata=ledger.md(seat), timeout=RPC_TIMEOUT
        )

    reply = await play.call("ListLegalMoves", rpc)
    return None if isinstance(reply, Failure) else reply


async def planned_move(play: Play) -> tuple[Ledger, int, game_pb2.Move]:
    """A legal move of some running game, chosen while Redis is up, to send in the outage."""
    rng = random.Random("redis-restart probe")
    while True:
        ledger = rng.choice([ledger for ledger in play.games if not ledger.finished])
        view = await get_view(play, ledger)
        if view is None or view.HasField("outcome"):
            continue
        seat = rng.choice(seats_without_chip(view) or list(range(view.seats)))
        legal = await legal_moves(play, ledger, seat)
        move = None if legal is None else choose_move(view, legal, rng)
        if move is not None:
            return ledger, seat, move


async def client(play: Play, number: int) -> None:
    rng = random.Random(f"redis-restart client {number}")
    count = 0
    while not play.stop.is_set():
        games = [ledger for ledger in play.games if not ledger.finished]
        if not games:
            return
        ledger = rng.choice(games)
        view = await get_view(play, ledger)
        if view is None:
            await asyncio.sleep(0.05)
            continue
        if view.HasField("outcome"):
            ledger.finished = True
            continue
        waiting = seats_without_chip(view)
        seat = rng.choice(waiting) if waiting and rng.random() < 0.9 else rng.randrange(view.seats)
        legal = await legal_moves(play, ledger, seat)
        if legal is None:
            await asyncio.sleep(0.05)
            continue
        move = choose_move(view, legal, rng)
        if move is not None:
            count += 1
            await submit(play, ledger, seat, move, f"r{number}-{count}")


@pytest.mark.parametrize("how", ["stop", "crash"])
async def test_a_redis_restart_loses_no_acknowledged_move(tmp_path: Path, how: str) -> None:
    data_dir, port = tmp_path / "redis", free_port()
    redis = await RedisHost.start(data_dir, port, appendfsync="always")
    try:
        async with contextlib.AsyncExitStack() as stack:
            handle = await stack.enter_async_context(
                running(settings_for(redis.url, tmp_path / "referee"))
            )
            stub = await stack.enter_async_context(stub_for(handle.address))
            games = [
                await create_game(stub, 4 + n % 3, b"redis-restart-%d" % n) for n in range(GAMES)
            ]
            play = Play(stub, games)
            window: dict[str, float] = {}
            acknowledged_before: list[dict[Key, int]] = []

            async def outage() -> None:
                nonlocal redis
                await until(lambda: play.acked >= ACKS_BEFORE, 10, "moves before the outage")
                acknowledged_before.extend(dict(ledger.acked) for ledger in games)
                ledger, seat, move = await planned_move(play)
                await redis.stop(crash=how == "crash")
                window["down"] = time.monotonic()  # from here on Redis is surely down
                # A move sent now must fail and be re-sent after the restart, whatever the
                # clients happen to be doing at this moment.
                probe = asyncio.create_task(submit(play, ledger, seat, move, "probe"))
                await asyncio.sleep(OUTAGE)
                window["up"] = time.monotonic()  # ... and until here
                redis = await RedisHost.start(data_dir, port, appendfsync="always")
                at_restart = play.acked
                await until(lambda: play.acked >= at_restart + ACKS_AFTER, 10, "moves after it")
                await probe
                play.stop.set()

            await asyncio.wait_for(
                gather_or_cancel(outage(), *(client(play, n) for n in range(CLIENTS))), 25
            )

            failures = [call for call in play.calls if call.failed is not None]
            summary = (
                f"acked={play.acked} calls={len(play.calls)} failures={len(failures)} "
                f"retried={dict(play.retried)} rejections={dict(play.rejections)} "
                f"first_try_duplicates={play.first_try_duplicates}"
            )
            assert not play.unexpected, "\n".join(play.unexpected[:20]) + "\n" + summary
            during = [
                call
                for call in play.calls
                if window["down"] < call.started and call.ended < window["up"]
            ]
            assert not [call for call in during if call.failed is None], (
                "a call succeeded while Redis was down"
            )
            moves_during = [call for call in during if call.name == "SubmitMove"]
            assert moves_during, f"no move was tried during the outage: {summary}"
            wrong = Counter(
                f"{call.name}: {call.failed}"
                for call in failures
                if call.failed is not None
                and store_failure(call.failed)
                and not is_store_unavailable(call.failed)
            )
            assert not wrong, f"store failures not UNAVAILABLE/STORE_UNAVAILABLE: {dict(wrong)}"
            # A move that failed in the outage was re-sent (same id) and answered after it.
            assert play.retried.total() > 0, summary
            print(summary, f"outage calls={len(during)}")

            async with redis_client(redis.url) as raw:
                for ledger, before in zip(games, acknowledged_before, strict=True):
                    assert before.items() <= ledger.acked.items()
                    assert not ledger.in_doubt, f"never answered: {ledger.in_doubt}"
                    report = await check_store(raw, ledger)  # includes every move of `before`
                    if report.finished:
                        await check_finished_history(stub, ledger)
    finally:
        await redis.stop()
