"""A referee replica is SIGKILLed under load; clients fail over and nothing is lost or doubled.

One real Redis, two ``referee serve`` processes with the same token secret. Sixteen client
tasks play random legal chip moves in ten games of The Gang, each move with its own
``client_move_id``, alternating between the replicas. Mid-load replica A is SIGKILLed. A
client whose call failed (UNAVAILABLE, the connection reset, or no answer in time) cannot
know whether its move was applied, so it re-sends the same move with the same id to the
other replica: the referee must apply it at most once and, if it had been applied, answer
with the first result (``duplicate``). Afterwards Redis is the witness (see
``support.check_store``) and every finished game verifies from its GetHistory.

``reply lost`` makes the worst case certain instead of lucky: Redis holds writes (CLIENT
PAUSE WRITE) until A's in-flight moves are waiting for their commits, A is frozen
(SIGSTOP), Redis lets the commits run, and only then is A killed. Those moves are applied,
and their clients never hear so from A.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import game_pb2, referee_pb2
from tests.faults.support import (
    RPC_TIMEOUT,
    Ledger,
    RefereeProcess,
    check_finished_history,
    check_store,
    choose_move,
    create_game,
    failure,
    gather_or_cancel,
    redis_client,
    redis_host,
    seats_without_chip,
    spawn_referee,
    stub_for,
    until,
    within,
)
from tests.service.table import COLOURS, Stub, take

GAMES = 10
CLIENTS = 16
KILL_AFTER_ACKS = 250  # mid-load: this many moves acknowledged, or KILL_AFTER seconds
KILL_AFTER = 4.0
RUN_AFTER_KILL = 8.0  # then play on against the survivor for this long ...
ACKS_AFTER_KILL = 600  # ... or until this many more moves are acknowledged
MOVE_DEADLINE = 12.0  # a client keeps re-sending one move (same id) for at most this long
# The call may not have reached the referee, or its answer may not have come back.
TRANSPORT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
# Rejections a racing client may rightly get: the game moved on under it.
RULES = frozenset({"CHIP_ALREADY_HELD", "CHIP_NOT_HELD", "CHIP_NOT_IN_PLAY", "GAME_OVER"})
T = TypeVar("T")


@dataclass
class Replica:
    name: str
    process: RefereeProcess
    stub: Stub


@dataclass
class Load:
    replicas: list[Replica]
    games: list[Ledger]
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    # Cleared while the chaos needs the victim idle: new submissions wait (see
    # kill_losing_replies).
    moving: asyncio.Event = field(default_factory=asyncio.Event)
    acked: int = 0
    # Calls re-sent to the other replica after a transport failure.
    failovers: int = 0
    # Moves re-sent after a failure and answered `duplicate`: applied by the dead replica,
    # its answer lost, reported once by the survivor.
    recovered: int = 0
    # Moves re-sent after a failure and applied by the survivor (the first try never landed).
    applied_on_retry: int = 0
    # Submissions in flight per replica (name -> count).
    in_flight: Counter[str] = field(default_factory=Counter)
    in_flight_at_kill: int = 0
    killed_after: float = 0.0  # seconds into the load
    rejections: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)


async def with_failover(
    load: Load, home: int, what: str, call: Callable[[Stub], Awaitable[T]]
) -> T | None:
    """A read on the home replica, else on the other one; None if neither answered."""
    deadline = time.monotonic() + MOVE_DEADLINE
    attempt = 0
    while time.monotonic() < deadline:
        replica = load.replicas[(home + attempt) % len(load.replicas)]
        try:
            return await call(replica.stub)
        except grpc.aio.AioRpcError as error:
            fail = failure(error)
            if fail.code not in TRANSPORT:
                load.unexpected.append(f"{what} on {replica.name}: {fail}")
                return None
        attempt += 1
        load.failovers += 1
        await asyncio.sleep(0.05 if attempt % 2 == 0 else 0)
    load.unexpected.append(f"{what}: no replica answered in {MOVE_DEADLINE}s")
    return None


async def get_view(load: Load, home: int, ledger: Ledger) -> game_pb2.View | None:
    request = referee_pb2.GetViewRequest(game_id=ledger.game_id)

    async def call(stub: Stub) -> game_pb2.View:
        reply = await stub.GetView(request, timeout=RPC_TIMEOUT)
        return reply.view

    return await with_failover(load, home, "GetView", call)


async def legal_moves(
    load: Load, home: int, ledger: Ledger, seat: int
) -> referee_pb2.ListLegalMovesResponse | None:
    request = referee_pb2.ListLegalMovesRequest(game_id=ledger.game_id)

    async def call(stub: Stub) -> referee_pb2.ListLegalMovesResponse:
        return await stub.ListLegalMoves(request, metadata=ledger.md(seat), timeout=RPC_TIMEOUT)

    return await with_failover(load, home, "ListLegalMoves", call)


async def submit(
    load: Load,
    home: int,
    ledger: Ledger,
    seat: int,
    move: game_pb2.Move,
    move_id: str,
    *,
    gated: bool = True,
) -> referee_pb2.SubmitMoveResponse | None:
    """Send one move until some replica gives a definite answer, always with the same id.

    Returns the answer, or None if the move was rejected (or nobody answered). A ``gated``
    move waits while ``load.moving`` is cleared before it is first sent.
    """
    if gated:
        await load.moving.wait()
    key = (seat, move_id)
    request = referee_pb2.SubmitMoveRequest(
        game_id=ledger.game_id, move=move, client_move_id=move_id
    )
    ledger.in_doubt[key] = move  # from now on it may be in the log
    deadline = time.monotonic() + MOVE_DEADLINE
    attempt = 0
    while time.monotonic() < deadline:
        replica = load.replicas[(home + attempt) % len(load.replicas)]
        load.in_flight[replica.name] += 1
        try:
            reply = await replica.stub.SubmitMove(
                request, metadata=ledger.md(seat), timeout=RPC_TIMEOUT
            )
        except grpc.aio.AioRpcError as error:
            fail = failure(error)
            if fail.code in TRANSPORT and fail.reason is None:
                attempt += 1
                load.failovers += 1
                await asyncio.sleep(0.05 if attempt % 2 == 0 else 0)
                continue
            if (fail.code, fail.reason) == (grpc.StatusCode.ABORTED, "CONTENTION") or (
                fail.code is grpc.StatusCode.FAILED_PRECONDITION and fail.reason in RULES
            ):
                # Definitely not applied: a move already applied under this id would have
                # been answered with its first result instead.
                ledger.in_doubt.pop(key)
                load.rejections[fail.reason or ""] += 1
                return None
            load.unexpected.append(f"{move_id} on {replica.name} (try {attempt + 1}): {fail}")
            return None  # stays in doubt: allowed in the log at most once
        finally:
            load.in_flight[replica.name] -= 1
        if reply.duplicate and attempt == 0:
            load.unexpected.append(f"{move_id}: a first submission answered as a duplicate")
        ledger.acknowledge(seat, move_id, move, reply.version)
        ledger.finished |= reply.view.HasField("outcome")
        load.acked += 1
        if attempt:
            if reply.duplicate:
                load.recovered += 1
            else:
                load.applied_on_retry += 1
        return reply
    load.unexpected.append(f"{move_id}: no replica gave an answer in {MOVE_DEADLINE}s")
    return None


async def client(load: Load, number: int) -> None:
    rng = random.Random(f"replica-kill client {number}")
    count = 0
    while not load.stop.is_set():
        games = [ledger for ledger in load.games if not ledger.finished]
        if not games:
            return
        # A few games per client at a time, so that clients collide on games.
        ledger = rng.choice(games[number % 3 :: 3] or games)
        count += 1
        home = (number + count) % 2  # alternate between the replicas
        view = await get_view(load, home, ledger)
        if view is None:
            continue
        if view.HasField("outcome"):
            ledger.finished = True
            continue
        waiting = seats_without_chip(view)
        seat = rng.choice(waiting) if waiting and rng.random() < 0.9 else rng.randrange(view.seats)
        legal = await legal_moves(load, home, ledger, seat)
        if legal is None:
            continue
        move = choose_move(view, legal, rng)
        if move is not None:
            await submit(load, home, ledger, seat, move, f"k{number}-{count}")


async def held(raw: Redis) -> int:
    """The connections whose commit (EVALSHA) a write pause holds."""
    clients = await raw.client_list()
    return sum("b" in c["flags"] and c["cmd"] == "evalsha" for c in clients)


async def until_held(raw: Redis, count: int) -> None:
    deadline = time.monotonic() + 5
    while await held(raw) < count:
        assert time.monotonic() < deadline, f"fewer than {count} commits held in 5 s"
        await asyncio.sleep(0.01)


async def settled_commits(raw: Redis) -> None:
    """Wait until the number of commits held by a write pause stops growing (0.4 to 3 s)."""

    await asyncio.sleep(0.3)
    deadline, before = time.monotonic() + 2.7, -1
    while time.monotonic() < deadline and (now := await held(raw)) != before:
        before = now
        await asyncio.sleep(0.1)


async def kill_losing_replies(
    load: Load, redis_url: str, victim: Replica, probe: Ledger
) -> referee_pb2.SubmitMoveResponse | None:
    """Freeze ``victim`` with commits held in Redis, let them commit, then SIGKILL it.

    Besides the load's moves, one move of ``probe`` (a game nobody else plays, so its
    commit cannot lose a race) is sent to the victim: its reply is surely lost. Returns the
    answer the probe's client finally got.
    """
    async with redis_client(redis_url) as raw:
        # The victim sends its commits in group-commit pipelines, at most two on their way
        # (service.storage.batching): a commit made while both are held waits in the process, not
        # in Redis. So the probe goes first, to an idle victim, and surely reaches Redis.
        load.moving.clear()
        await until(lambda: load.in_flight[victim.name] == 0, 5, "the victim to be idle")
        await raw.client_pause(5000, all=False)
        try:
            seat, move = 0, take(COLOURS[0], 1)
            answer = asyncio.ensure_future(submit(load, 0, probe, seat, move, "probe", gated=False))
            await until_held(raw, 1)  # the probe's commit, held by the pause
            load.moving.set()
            # Reads still run: moves in flight on the victim reach its commit pipelines
            # (the second is held in Redis too) or wait for them in the process.
            await settled_commits(raw)
            victim.process.signal(signal.SIGSTOP)
            load.in_flight_at_kill = load.in_flight[victim.name]
            assert not answer.done(), "the probe move was answered while Redis held writes"
        finally:
            await raw.client_unpause()
        await asyncio.sleep(0.3)  # Redis runs the held commits; the replies go nowhere
    await victim.process.kill()
    return await answer


@pytest.mark.parametrize("how", ["kill", "reply lost"])
async def test_killing_a_replica_under_load_loses_and_doubles_nothing(
    tmp_path: Path, how: str
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        redis = await stack.enter_async_context(redis_host(tmp_path / "redis"))
        replicas: list[Replica] = []
        for name in ("a", "b"):
            process = await stack.enter_async_context(spawn_referee(name, redis.url, tmp_path))
            stub = await stack.enter_async_context(stub_for(process.address))
            replicas.append(Replica(name, process, stub))
        games = [
            await create_game(replicas[n % 2].stub, 4 + n % 3, b"replica-kill-%d" % n)
            for n in range(GAMES)
        ]
        probe = await create_game(replicas[0].stub, 4, b"replica-kill-probe")
        probed: list[referee_pb2.SubmitMoveResponse | None] = []
        load = Load(replicas, games)
        load.moving.set()
        victim, survivor = replicas

        async def chaos() -> None:
            started = time.monotonic()
            await within(KILL_AFTER, lambda: load.acked >= KILL_AFTER_ACKS)
            assert load.acked > 20, f"only {load.acked} moves before the kill"
            if how == "kill":
                load.in_flight_at_kill = load.in_flight[victim.name]
                await victim.process.kill()
            else:
                probed.append(await kill_losing_replies(load, redis.url, victim, probe))
            load.killed_after = time.monotonic() - started
            at_kill = load.acked
            await within(RUN_AFTER_KILL, lambda: load.acked >= at_kill + ACKS_AFTER_KILL)
            load.stop.set()
            assert load.acked > at_kill, "no move was acknowledged after the kill"

        await asyncio.wait_for(
            gather_or_cancel(chaos(), *(client(load, n) for n in range(CLIENTS))), 25
        )
        assert not victim.process.alive
        assert survivor.process.alive, survivor.process.log_tail()

        summary = (
            f"acked={load.acked} failovers={load.failovers} recovered={load.recovered} "
            f"applied_on_retry={load.applied_on_retry} in_flight_at_kill={load.in_flight_at_kill} "
            f"killed_after={load.killed_after:.2f}s "
            f"rejections={dict(load.rejections)}"
        )
        assert not load.unexpected, "\n".join(load.unexpected[:20]) + "\n" + summary
        assert load.failovers > 0, summary
        if how == "reply lost":
            # Applied by the frozen victim, its reply lost; the survivor reports the first
            # result instead of applying the move again.
            [answer] = probed
            assert answer is not None and (answer.version, answer.duplicate) == (1, True)
            assert load.recovered > 0, summary
        async with redis_client(redis.url) as raw:
            total = 0
            for ledger in [*games, probe]:
                assert not ledger.in_doubt, f"{ledger.game_id}: never answered: {ledger.in_doubt}"
                report = await check_store(raw, ledger)
                total += report.version
                if report.finished:
                    await check_finished_history(survivor.stub, ledger)
        assert total == load.acked, summary
        print(summary, f"finished={sum(ledger.finished for ledger in games)}/{GAMES}")
