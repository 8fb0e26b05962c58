"""After the run: what Redis and GetHistory hold against what the clients were told, and
how long the tables took to move again after each fault."""

from __future__ import annotations

import asyncio
import bisect
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, cast

import grpc
from redis.asyncio import Redis

from bench.faults.clients import Ledger, Table
from referee.client.calls import gathered_history
from referee.codecs import CODECS
from referee.v1 import referee_pb2_grpc
from service.domain import records
from service.storage.tables import formats

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

LIVE_SECONDS: Final = 10.0  # a table that moved this recently before a fault must move again


# --- recovery --------------------------------------------------------------------------------


def moving_again(tables: Sequence[Table], at: float) -> float | None:
    """Seconds from ``at`` until every table that moved in the LIVE_SECONDS before it was
    answered again (None: no such table)."""
    waits = []
    for table in tables:
        index = bisect.bisect_right(table.events, at)
        if 0 < index < len(table.events) and table.events[index - 1] >= at - LIVE_SECONDS:
            waits.append(table.events[index] - at)
    return max(waits) if waits else None


def baseline(tables: Sequence[Table], quiet: Sequence[tuple[float, float]]) -> list[float]:
    """:func:`moving_again` every half second of the fault-free stretches ``quiet``."""
    found = []
    for start, end in quiet:
        at = start
        while at < end:
            value = moving_again(tables, at)
            if value is not None:
                found.append(value)
            at += 0.5
    return found


def spread(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f} s"


# --- the witnesses ---------------------------------------------------------------------------


@dataclass
class Verdict:
    games: int = 0
    finished: int = 0
    logged: int = 0
    lost_store: int = 0
    lost_history: int = 0
    doubled: int = 0
    in_doubt: int = 0  # moves whose answer never came (at most once in the log)
    in_doubt_applied: int = 0
    problems: list[str] = field(default_factory=list)


async def check_store(redis: Redis, ledger: Ledger, verdict: Verdict) -> int:
    """Redis' log of the game against its ledger; the log's length."""
    raw = cast(list[bytes], await redis.lrange(f"game:{{{ledger.game_id}}}:log", 0, -1))
    log = [records.log_decoder.decode(entry) for entry in records.log_entries(raw)]
    decode = formats(ledger.name).move.decode
    if [entry.version for entry in log] != list(range(1, len(log) + 1)):
        verdict.problems.append(f"{ledger.game_id}: the log's versions are not 1..{len(log)}")
    keys = Counter((entry.seat, entry.client_move_id) for entry in log)
    twice = [key for key, count in keys.items() if count > 1]
    sent = {(s.seat, s.move_id) for s in [*ledger.acked.values(), *ledger.in_doubt.values()]}
    unsent = [key for key in keys if key not in sent]
    verdict.doubled += sum(keys[key] - 1 for key in twice) + len(unsent)
    for key in [*twice, *unsent]:
        verdict.problems.append(
            f"{ledger.game_id}: logged {keys[key]}x, sent? {key in sent}: {key}"
        )
    for version, move in ledger.acked.items():
        entry = log[version - 1] if version <= len(log) else None
        if entry is None or (entry.seat, entry.client_move_id) != (move.seat, move.move_id):
            verdict.lost_store += 1
            verdict.problems.append(f"{ledger.game_id}: acknowledged v{version} {move} not logged")
        elif decode(entry.move) != move.move:
            verdict.lost_store += 1
            verdict.problems.append(f"{ledger.game_id}: v{version} logged another move")
    verdict.in_doubt += len(ledger.in_doubt)
    verdict.in_doubt_applied += sum((s.seat, s.move_id) in keys for s in ledger.in_doubt.values())
    return len(log)


async def check_history(
    stub: RefereeServiceAsyncStub, ledger: Ledger, logged: int, verdict: Verdict
) -> None:
    """GetHistory (seat 0's) against the ledger and the log's length."""
    history = await gathered_history(
        lambda request: stub.GetHistory(request, metadata=ledger.md(0), timeout=60),
        ledger.game_id,
    )
    entries = {entry.version: entry for entry in history.entries}
    if len(history.entries) != logged:
        verdict.problems.append(f"{ledger.game_id}: {len(history.entries)} in history, {logged}")
    to_proto = CODECS[ledger.name].move_to_proto
    for version, move in ledger.acked.items():
        entry = entries.get(version)
        if entry is None or entry.seat != move.seat:
            verdict.lost_history += 1
            verdict.problems.append(f"{ledger.game_id}: v{version} not in GetHistory")
        elif entry.HasField("move") and entry.move != to_proto(move.move):
            verdict.lost_history += 1
            verdict.problems.append(f"{ledger.game_id}: v{version} another move in GetHistory")


async def witness(redis: Redis, address: str, tables: Sequence[Table]) -> Verdict:
    verdict = Verdict()
    limit = asyncio.Semaphore(8)
    async with grpc.aio.insecure_channel(address) as channel:
        stub: RefereeServiceAsyncStub = referee_pb2_grpc.RefereeServiceStub(channel)

        async def one(ledger: Ledger) -> None:
            async with limit:
                logged = await check_store(redis, ledger, verdict)
                await check_history(stub, ledger, logged, verdict)
                verdict.logged += logged

        ledgers = [ledger for table in tables for ledger in table.games]
        await asyncio.gather(*(one(ledger) for ledger in ledgers))
    verdict.games = len(ledgers)
    verdict.finished = sum(ledger.finished for ledger in ledgers)
    return verdict
