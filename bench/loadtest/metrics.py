"""What the drivers saw: every RPC's latency and status, and every game's acknowledged moves.

The asyncio client's stub is swapped for a :class:`MeasuredStub` (same methods), so every
call the client library makes for a bot, including its own retries, is timed and counted
without changing the library. A SubmitMove also goes into its game's :class:`GameLedger`:
sent, acknowledged at a version (first time or as a duplicate), or in doubt (the answer was
lost, so it may or may not have been applied). The ledgers are what the final check holds
Redis to.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import grpc
import grpc.aio

from referee.client.errors import from_rpc_error

Key = tuple[int, str]  # (seat, client_move_id)

# Failures after which a SubmitMove may or may not have been applied.
IN_DOUBT: Final = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
    }
)
UNARY_METHODS: Final = (
    "CreateGame",
    "GetView",
    "ListLegalMoves",
    "SubmitMove",
    "ValidateMove",
    "GetHistory",
)


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted values; NaN when there are none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class RpcStats:
    """One RPC kind: answered calls, their latencies (measured window) and failures."""

    ok: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    measured_errors: int = 0

    @property
    def measured_calls(self) -> int:
        """Calls answered (accepted or refused) inside the measured window."""
        return len(self.latencies) + self.measured_errors

    def quantiles_ms(self) -> tuple[float, float, float]:
        ordered = sorted(self.latencies)
        return (
            percentile(ordered, 0.50) * 1000,
            percentile(ordered, 0.95) * 1000,
            percentile(ordered, 0.99) * 1000,
        )


@dataclass
class GameLedger:
    """Everything the drivers of one game were told."""

    game_id: str
    game: str
    tokens: list[str]
    referee: str  # the referee that created it (asked for its history at the end)
    acked: dict[Key, int] = field(default_factory=dict)
    sent: set[Key] = field(default_factory=set)
    in_doubt: set[Key] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    finished_seen: bool = False
    driver_error: str | None = None

    def send(self, key: Key) -> bool:
        """Note a submission of ``key``; True when it was sent before (a retry)."""
        again = key in self.sent
        self.sent.add(key)
        return again

    def acknowledge(self, key: Key, version: int, duplicate: bool) -> None:
        first = self.acked.get(key)
        if first is None:
            if duplicate and key not in self.in_doubt:
                self.problems.append(
                    f"{key} answered duplicate at v{version} but never acknowledged before"
                )
            self.acked[key] = version
        elif first != version:
            self.problems.append(f"{key} acknowledged at v{first} and again at v{version}")
        self.in_doubt.discard(key)

    def lose_answer(self, key: Key) -> None:
        if key not in self.acked:
            self.in_doubt.add(key)


@dataclass
class Metrics:
    """Counters of one load test. Latencies and rates count only while ``measuring``."""

    measuring: bool = False
    rpcs: dict[str, RpcStats] = field(default_factory=dict)
    moves: int = 0  # accepted (first acknowledgments) while measuring
    moves_total: int = 0
    duplicates: int = 0
    conflicts: int = 0  # ABORTED answers to a move
    retries: int = 0  # a move sent again under the same client_move_id
    watch_streams: int = 0
    watch_messages: int = 0
    measured_updates: int = 0  # watch or Play updates received while measuring
    request_bytes: int = 0  # SubmitMove sizes, for the echo baseline
    response_bytes: int = 0
    sized: int = 0
    games_created: int = 0
    games_finished: int = 0
    ledgers: dict[str, GameLedger] = field(default_factory=dict)
    seats_by_token: dict[str, tuple[GameLedger, int]] = field(default_factory=dict)
    on_move: Callable[[], None] | None = None

    def update_received(self) -> None:
        self.watch_messages += 1
        if self.measuring:
            self.measured_updates += 1

    @property
    def measured_calls(self) -> int:
        """Requests answered inside the measured window (unary calls and Play requests)."""
        return sum(stats.measured_calls for stats in self.rpcs.values())

    def stats(self, name: str) -> RpcStats:
        found = self.rpcs.get(name)
        if found is None:
            found = self.rpcs[name] = RpcStats()
        return found

    def register(self, ledger: GameLedger) -> None:
        self.ledgers[ledger.game_id] = ledger
        self.games_created += 1
        for seat, token in enumerate(ledger.tokens):
            self.seats_by_token[token] = (ledger, seat)

    def answered(self, name: str, seconds: float) -> None:
        stats = self.stats(name)
        stats.ok += 1
        if self.measuring:
            stats.latencies.append(seconds)

    def failed(self, name: str, what: str) -> None:
        stats = self.stats(name)
        stats.errors[what] += 1
        if self.measuring:
            stats.measured_errors += 1

    def move_sent(self, ledger: GameLedger, key: Key) -> None:
        if ledger.send(key):
            self.retries += 1

    def move_accepted(self, ledger: GameLedger, key: Key, version: int, duplicate: bool) -> None:
        new = key not in ledger.acked
        ledger.acknowledge(key, version, duplicate)
        if duplicate:
            self.duplicates += 1
        if new:
            self.moves_total += 1
            if self.measuring:
                self.moves += 1
            if self.on_move is not None:
                self.on_move()

    def move_failed(self, ledger: GameLedger, key: Key, code: grpc.StatusCode) -> None:
        if code is grpc.StatusCode.ABORTED:
            self.conflicts += 1
        if code in IN_DOUBT:
            ledger.lose_answer(key)

    @property
    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for name, stats in self.rpcs.items():
            total.update({f"{name} {what}": n for what, n in stats.errors.items()})
        return total


def describe(error: grpc.aio.AioRpcError) -> str:
    """``CODE REASON`` of a failed call (the reason from its ErrorInfo, else the code)."""
    failure = from_rpc_error(error)
    code = error.code().name
    return code if failure.reason == code else f"{code} {failure.reason}"


def _token(metadata: Any) -> str | None:
    for key, value in metadata or ():
        if key == "authorization" and isinstance(value, str) and value.startswith("Bearer "):
            return value[len("Bearer ") :]
    return None


class _Unary:
    """A unary method, timed and counted."""

    def __init__(self, inner: Any, name: str, metrics: Metrics) -> None:
        self._inner = inner
        self._name = name
        self._metrics = metrics

    async def __call__(self, request: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            response = await self._inner(request, **kwargs)
        except grpc.aio.AioRpcError as error:
            self._metrics.failed(self._name, describe(error))
            raise
        self._metrics.answered(self._name, time.perf_counter() - started)
        return response


class _SubmitMove(_Unary):
    """SubmitMove: timed, and every answer written into the game's ledger."""

    async def __call__(self, request: Any, **kwargs: Any) -> Any:
        metrics = self._metrics
        token = _token(kwargs.get("metadata"))
        seat_of = metrics.seats_by_token.get(token) if token is not None else None
        if seat_of is None:  # not a game of ours: just time it
            return await super().__call__(request, **kwargs)
        ledger, seat = seat_of
        key = (seat, request.client_move_id)
        metrics.move_sent(ledger, key)
        started = time.perf_counter()
        try:
            response = await self._inner(request, **kwargs)
        except grpc.aio.AioRpcError as error:
            metrics.failed(self._name, describe(error))
            metrics.move_failed(ledger, key, error.code())
            raise
        except asyncio.CancelledError:
            ledger.lose_answer(key)
            raise
        metrics.answered(self._name, time.perf_counter() - started)
        metrics.move_accepted(ledger, key, response.version, response.duplicate)
        if metrics.sized < 2000:
            metrics.sized += 1
            metrics.request_bytes += request.ByteSize()
            metrics.response_bytes += response.ByteSize()
        return response


class _WatchCall:
    """A WatchGame call whose messages are counted; otherwise the call itself."""

    def __init__(self, call: Any, metrics: Metrics) -> None:
        self._call = call
        self._metrics = metrics

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Any]:
        try:
            async for message in self._call:
                self._metrics.update_received()
                yield message
        except grpc.aio.AioRpcError as error:
            self._metrics.failed("WatchGame", describe(error))
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._call, name)


class _Watch:
    def __init__(self, inner: Any, metrics: Metrics) -> None:
        self._inner = inner
        self._metrics = metrics

    def __call__(self, request: Any, **kwargs: Any) -> _WatchCall:
        self._metrics.watch_streams += 1
        return _WatchCall(self._inner(request, **kwargs), self._metrics)


class MeasuredStub:
    """A RefereeService stub whose every call goes through ``metrics``.

    Methods this class does not know (added to the service later) pass through unmeasured.
    """

    def __init__(self, stub: Any, metrics: Metrics) -> None:
        self._stub = stub
        for name in UNARY_METHODS:
            kind = _SubmitMove if name == "SubmitMove" else _Unary
            setattr(self, name, kind(getattr(stub, name), name, metrics))
        self.WatchGame = _Watch(stub.WatchGame, metrics)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stub, name)


# --- CPU time of processes (Linux /proc) ---------------------------------------------------

_CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far; NaN when unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return math.nan
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (every core, every process); NaN if
    unknown (``/proc/stat``: all but idle and iowait)."""
    try:
        first = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0]
    except OSError:
        return math.nan
    ticks = [int(value) for value in first.split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / _CLOCK_TICKS
