"""The end-of-run check: Redis holds exactly what the drivers were told, and replays.

For every game a load test created:

1. **Redis against the ledger.** The move log's versions run 1..n without a gap and the
   stored version is n; every acknowledged (seat, client_move_id) is in the log exactly
   once, at the version its driver was told and under that seat (else *lost*); no
   (seat, client_move_id) is in the log twice (*doubled*); every log entry was
   acknowledged, or sent with its answer lost (*in doubt*, reported, not a fault), never
   unknown (*phantom*).
2. **Redis against the rules.** The stored state is, byte for byte, the replay of the
   logged moves from the seed in the game's stored metadata (``engines.base.replay``).
3. **The published history**, once the game is finished: ``GetHistory`` (the seed is then
   revealed) passes :func:`service.edge.verify.verify_history` (seed commitment, every move
   legal, every event and the outcome equal to the replay), its seed is the stored one, and
   its entries are the log's (versions and seats).

Any of these failing makes the game a *failed replay*, with its problems listed.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import grpc
import grpc.aio

from bench.loadtest.metrics import GameLedger, Key, describe
from engines.base import replay
from engines.errors import MoveError
from engines.registry import GAMES
from referee.client.calls import gathered_history
from referee.v1 import referee_pb2, referee_pb2_grpc
from service.domain import records
from service.edge.verify import verify_history
from service.storage.store import RedisStore
from service.storage.tables import formats

CHECK_CONCURRENCY = 16
HISTORY_TIMEOUT = 30.0


@dataclass
class GameCheck:
    """The check of one game."""

    game_id: str
    version: int = 0
    finished: bool = False
    verified: bool = False  # finished and its history verified from the revealed seed
    lost: list[Key] = field(default_factory=list)
    doubled: list[Key] = field(default_factory=list)
    phantom: list[Key] = field(default_factory=list)
    in_doubt_applied: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.doubled or self.phantom or self.problems)


@dataclass
class CheckSummary:
    """The check of every game."""

    games: int = 0
    finished: int = 0
    verified: int = 0
    live: int = 0
    moves: int = 0
    failed: int = 0
    lost: int = 0
    doubled: int = 0
    phantom: int = 0
    in_doubt_applied: int = 0
    problems: list[str] = field(default_factory=list)  # the first few, with game ids

    @property
    def ok(self) -> bool:
        return self.failed == 0

    @classmethod
    def of(cls, checks: Iterable[GameCheck], keep: int = 20) -> CheckSummary:
        summary = cls()
        for check in checks:
            summary.games += 1
            summary.moves += check.version
            summary.finished += check.finished
            summary.verified += check.verified
            summary.live += not check.finished
            summary.failed += not check.ok
            summary.lost += len(check.lost)
            summary.doubled += len(check.doubled)
            summary.phantom += len(check.phantom)
            summary.in_doubt_applied += check.in_doubt_applied
            details = [f"lost {key}" for key in check.lost]
            details += [f"doubled {key}" for key in check.doubled]
            details += [f"phantom {key}" for key in check.phantom]
            for problem in [*details, *check.problems]:
                if len(summary.problems) < keep:
                    summary.problems.append(f"{check.game_id}: {problem}")
        return summary


def compare_log(ledger: GameLedger, log: list[records.LogEntry], check: GameCheck) -> None:
    """Step 1: the log holds every acknowledged move once, at its version, nothing else."""
    check.problems.extend(ledger.problems)
    if [entry.version for entry in log] != list(range(1, len(log) + 1)):
        check.problems.append("the log's versions are not 1..n without a gap")
    keys = [(entry.seat, entry.client_move_id) for entry in log]
    counts = Counter(keys)
    check.doubled = sorted(key for key, n in counts.items() if n > 1)
    at = {key: entry.version for key, entry in zip(keys, log, strict=True)}
    check.lost = sorted(key for key, version in ledger.acked.items() if at.get(key) != version)
    unacked = [key for key in counts if key not in ledger.acked]
    check.phantom = sorted(key for key in unacked if key not in ledger.in_doubt)
    check.in_doubt_applied = len(unacked) - len(check.phantom)
    versions = Counter(ledger.acked.values())
    shared = sorted(version for version, n in versions.items() if n > 1)
    if shared:
        check.problems.append(f"two moves acknowledged with one version: {shared[:5]}")


def compare_replay(
    record_state: bytes, meta: records.GameMeta, log: list[records.LogEntry], check: GameCheck
) -> Any:
    """Step 2: the stored state is the replay of the log from the stored seed.

    Returns the replayed final state, or None when the replay failed.
    """
    game, fmt = GAMES[meta.game], formats(meta.game)
    try:
        moves = [(entry.seat, fmt.move.decode(entry.move)) for entry in log]
        initial, steps = replay(game, fmt.config.decode(meta.config), meta.seed, moves)
    except MoveError as error:
        check.problems.append(f"a logged move is illegal on replay: {error.reason}")
        return None
    final = steps[-1].state if steps else initial
    if records.encode(final) != record_state:
        check.problems.append("the stored state differs from the replay of the log")
    return final


def compare_history(
    history: referee_pb2.GetHistoryResponse,
    meta: records.GameMeta,
    log: list[records.LogEntry],
    check: GameCheck,
) -> None:
    """Step 3: the published history verifies from its seed and is the stored log."""
    report = verify_history(history, game_id=check.game_id)
    check.problems.extend(f"verify: {problem}" for problem in report.problems)
    if history.seed != meta.seed:
        check.problems.append("the revealed seed is not the stored one")
    published = [(entry.version, entry.seat) for entry in history.entries]
    if published != [(entry.version, entry.seat) for entry in log]:
        check.problems.append("the history's entries are not the stored log")
    check.verified = report.ok and not check.problems


async def check_game(
    store: RedisStore,
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    ledger: GameLedger,
) -> GameCheck:
    """Steps 1 to 3 for one game."""
    check = GameCheck(ledger.game_id)
    record = await store.load(ledger.game_id)
    if record is None:
        check.problems.append("the game is not in Redis")
        check.lost = sorted(ledger.acked)
        return check
    meta = records.meta_decoder.decode(record.meta)
    log = [records.log_decoder.decode(raw) for raw in await store.log(ledger.game_id)]
    check.version = record.version
    if record.version != len(log):
        check.problems.append(f"stored version {record.version}, {len(log)} log entries")
    compare_log(ledger, log, check)
    final = compare_replay(record.state, meta, log, check)
    if final is None:
        return check
    check.finished = GAMES[meta.game].outcome(final) is not None
    if ledger.finished_seen and not check.finished:
        check.problems.append("a driver saw the end that the stored game has not reached")
    if check.finished:
        try:
            auth = (("authorization", f"Bearer {ledger.tokens[0]}"),)
            history = await gathered_history(
                lambda request: stub.GetHistory(request, metadata=auth, timeout=HISTORY_TIMEOUT),
                ledger.game_id,
            )
        except grpc.aio.AioRpcError as error:
            check.problems.append(f"GetHistory failed: {describe(error)}")
        else:
            compare_history(history, meta, log, check)
    return check


async def check_games(
    store: RedisStore, referees: list[str], ledgers: Iterable[GameLedger]
) -> list[GameCheck]:
    """:func:`check_game` for every ledger, a few at a time, each game's history asked of
    the referee that created it."""
    channels = {address: grpc.aio.insecure_channel(address) for address in referees}
    stubs = {address: referee_pb2_grpc.RefereeServiceStub(ch) for address, ch in channels.items()}
    limit = asyncio.Semaphore(CHECK_CONCURRENCY)
    fallback = referees[0]

    async def one(ledger: GameLedger) -> GameCheck:
        async with limit:
            return await check_game(store, stubs.get(ledger.referee, stubs[fallback]), ledger)

    try:
        return list(await asyncio.gather(*(one(ledger) for ledger in ledgers)))
    finally:
        for channel in channels.values():
            await channel.close(None)
