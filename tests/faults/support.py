"""Fault-test helpers: real referee processes, what clients were told, what Redis must hold.

Referees run as ``python -m service.process.cli serve`` processes (loopback, a free port, one shared
token secret so a seat token issued by one replica is good on every other), so a test can
SIGKILL, SIGSTOP or SIGTERM them like an orchestrator would. Every process is ended in a
``finally`` even when the test fails.

The :class:`Ledger` keeps what the clients of one game were told; :func:`check_store`
then makes Redis itself the witness: the log holds every acknowledged (seat,
client_move_id) exactly once and at the version its client was told, nothing twice,
contiguous versions, and the stored state is byte for byte the replay of the log from the
seed in the game's metadata.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from redis.asyncio import Redis

from engines.base import replay
from engines.registry import GAMES
from engines.the_gang import GAME, TakeChip
from engines.the_gang.model import TheGangConfig
from referee.client.calls import gathered_history
from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2
from service.domain import records
from service.edge.verify import verify_history
from service.storage.tables import formats
from tests.servers import DEVELOPMENT
from tests.service.table import Metadata, Stub, auth

ROOT: Final = Path(__file__).resolve().parents[2]
SECRET: Final = "fault-tests-secret-0123456789abcdef"
DOMAIN: Final = "referee.v1"
# Per call: a replica that does not answer within this is treated as gone.
RPC_TIMEOUT: Final = 5.0
THE_GANG: Final = CODECS["the_gang"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# --- Redis -----------------------------------------------------------------------------------

# EmbeddedRedis forks with a preexec_fn (the parent-death signal); a fork in a process whose
# gRPC threads are busy may crash the child (seen: redis-server dying of SIGSEGV/SIGABRT
# before exec). So a small helper process with no gRPC in it owns each Redis server; it
# stops the server when its stdin closes, so it cannot outlive the test either.
_REDIS_HOST = """
import sys
from service.process.redis_server import EmbeddedRedis
server = EmbeddedRedis(sys.argv[1], port=int(sys.argv[2]), appendfsync=sys.argv[3]).start()
print(server.pid, server.url, flush=True)
sys.stdin.read()
server.stop()
"""


@dataclass
class RedisHost:
    """One EmbeddedRedis run (start to stop) in a helper process."""

    helper: asyncio.subprocess.Process
    pid: int
    url: str

    @classmethod
    async def start(cls, data_dir: Path, port: int, appendfsync: str = "always") -> RedisHost:
        helper = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _REDIS_HOST,
            str(data_dir),
            str(port),
            appendfsync,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        host = cls(helper, 0, "")
        try:
            assert helper.stdout is not None and helper.stderr is not None
            line = (await asyncio.wait_for(helper.stdout.readline(), 30)).decode()
            if not line:
                error = (await helper.stderr.read()).decode(errors="replace")
                raise AssertionError(f"redis-server did not start on port {port}: {error}")
            pid, host.url = line.split()
            host.pid = int(pid)
            return host
        except BaseException:
            await host.stop(crash=True)
            raise

    async def stop(self, *, crash: bool = False) -> None:
        """Shut Redis down (SIGTERM: it fsyncs and exits) or crash it (SIGKILL). Idempotent."""
        if crash and self.pid and self.helper.returncode is None:
            # The helper has not reaped it yet, so the pid is still this redis-server's.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        if self.helper.returncode is None:
            assert self.helper.stdin is not None
            with contextlib.suppress(ConnectionError, RuntimeError):
                self.helper.stdin.close()
            try:
                await asyncio.wait_for(self.helper.wait(), 20)
            except TimeoutError:  # redis-server gets SIGTERM when its helper dies
                self.helper.kill()
                await self.helper.wait()


@contextlib.asynccontextmanager
async def redis_host(data_dir: Path, port: int | None = None) -> AsyncIterator[RedisHost]:
    host = await RedisHost.start(data_dir, port or free_port())
    try:
        yield host
    finally:
        await host.stop()


# --- referee processes ---------------------------------------------------------------------


@dataclass
class RefereeProcess:
    name: str
    process: asyncio.subprocess.Process
    address: str
    log_path: Path

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def signal(self, sig: signal.Signals) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)

    async def kill(self) -> None:
        """SIGKILL: no goodbye to anyone, connections reset by the kernel.

        A stopped (SIGSTOP) process dies of it too; no SIGCONT first, which would let it
        send the answers it holds before it dies.
        """
        self.signal(signal.SIGKILL)
        await self.process.wait()

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-lines:])


# Run in the child before exec: a SIGKILL when this (the test) process dies, so a referee
# cannot outlive a test run that was itself killed. Done by exec'ing a tiny launcher, not
# with a preexec_fn (see _REDIS_HOST for why not to fork with one here).
_LAUNCHER = (
    "import ctypes, os, signal, sys; "
    "ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0); "
    "os.getppid() == int(sys.argv[1]) or sys.exit('parent gone'); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
)


def _dies_with_this_process() -> list[str]:
    if not sys.platform.startswith("linux"):
        return [sys.executable]
    return [sys.executable, "-c", _LAUNCHER, str(os.getpid())]


@contextlib.asynccontextmanager
async def spawn_referee(name: str, redis_url: str, root: Path) -> AsyncIterator[RefereeProcess]:
    """``referee serve`` as a process on ``redis_url``; killed on exit if still running."""
    data_dir = root / f"referee-{name}"
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "stderr.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("REFEREE_") and key != "REDIS_URL"
    }
    env["REFEREE_TOKEN_SECRET"] = SECRET
    env["REFEREE_WORKERS"] = "1"  # one process per replica, which the faults kill
    env.update(DEVELOPMENT)
    with log_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            *_dies_with_this_process(),
            "-m",
            "service.process.cli",
            "serve",
            "--port",
            "0",
            "--http-port",
            "0",
            "--redis-url",
            redis_url,
            "--data-dir",
            str(data_dir),
            "--allow-client-seeds",
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
        )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        if not line.startswith("referee listening on 127.0.0.1:"):
            raise AssertionError(f"referee {name} did not start: {line!r}\n{log_path.read_text()}")
        yield RefereeProcess(name, process, line.split()[3], log_path)
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def stub_for(address: str) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(address) as channel:
        yield Stub(channel)


@contextlib.asynccontextmanager
async def redis_client(url: str) -> AsyncIterator[Redis]:
    """A plain client for looking at keys behind the referees' backs."""
    client = Redis.from_url(url, protocol=2, socket_timeout=10)
    try:
        yield client
    finally:
        await client.aclose()


# --- answers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """A failed call as the client saw it; ``reason`` is None without an ErrorInfo."""

    code: grpc.StatusCode
    reason: str | None
    metadata: dict[str, str]
    details: str

    def __str__(self) -> str:
        return f"{self.code.name} {self.reason or '(no ErrorInfo)'}: {self.details}"


def failure(error: grpc.aio.AioRpcError) -> Failure:
    """Code, ErrorInfo reason and metadata of a failed call, transport failures included."""
    reason: str | None = None
    metadata: dict[str, str] = {}
    with contextlib.suppress(Exception):  # transport errors carry no rich status at all
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        for detail in status.details if status is not None else []:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info) and info.domain == DOMAIN:
                reason, metadata = info.reason, dict(info.metadata)
    return Failure(error.code(), reason, metadata, error.details() or "")


def is_store_unavailable(fail: Failure) -> bool:
    return fail.code is grpc.StatusCode.UNAVAILABLE and fail.reason == "STORE_UNAVAILABLE"


# --- what the clients were told --------------------------------------------------------------

Key = tuple[int, str]


@dataclass
class Ledger:
    """Everything the clients of one game were told."""

    game_id: str
    tokens: list[str]
    acked: dict[Key, int] = field(default_factory=dict)
    moves: dict[Key, game_pb2.Move] = field(default_factory=dict)
    # Sent, but the answer was lost: applied at most once, maybe not at all.
    in_doubt: dict[Key, game_pb2.Move] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    finished: bool = False

    def md(self, seat: int | None) -> Metadata:
        return auth(None if seat is None else self.tokens[seat])

    def acknowledge(self, seat: int, move_id: str, move: game_pb2.Move, version: int) -> None:
        key = (seat, move_id)
        if key in self.acked and self.acked[key] != version:
            self.problems.append(f"{key} acknowledged at v{self.acked[key]} and at v{version}")
        self.acked[key] = version
        self.moves[key] = move
        self.in_doubt.pop(key, None)


@dataclass(frozen=True)
class StoreReport:
    version: int
    finished: bool


async def check_store(redis: Redis, ledger: Ledger) -> StoreReport:
    """Redis holds exactly the acknowledged moves (plus in-doubt ones at most once), replayed."""
    assert not ledger.problems, "\n".join(ledger.problems[:20])
    base = f"game:{{{ledger.game_id}}}"
    raw_log = records.log_entries(cast(list[bytes], await redis.lrange(f"{base}:log", 0, -1)))
    log = [records.log_decoder.decode(raw) for raw in raw_log]
    keys = [(entry.seat, entry.client_move_id) for entry in log]
    assert [entry.version for entry in log] == list(range(1, len(log) + 1)), "versions have a gap"
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert not twice, f"{ledger.game_id}: applied twice: {twice}"
    at = dict(zip(keys, (entry.version for entry in log), strict=True))
    missing = {key: v for key, v in ledger.acked.items() if at.get(key) != v}
    assert not missing, f"{ledger.game_id}: acknowledged, not in the log at that version: " + (
        ", ".join(f"{key} v{v} (log: v{at.get(key)})" for key, v in sorted(missing.items()))
    )
    assert len(set(ledger.acked.values())) == len(ledger.acked), "two moves got one version"
    unknown = sorted(set(keys) - set(ledger.acked) - set(ledger.in_doubt))
    assert not unknown, f"{ledger.game_id}: in the log, never sent by a client: {unknown}"

    stored = cast(list[bytes | None], await redis.hmget(base, ["version", "state", "meta"]))
    stored_version, state, raw_meta = stored
    assert stored_version is not None and state is not None and raw_meta is not None
    assert int(stored_version) == len(log), "the stored version is not the log length"
    meta = records.meta_decoder.decode(raw_meta)
    game, fmt, codec = GAMES[meta.game], formats(meta.game), CODECS[meta.game]
    moves: list[tuple[int, Any]] = []
    for key, entry in zip(keys, log, strict=True):
        move = fmt.move.decode(entry.move)
        sent = ledger.moves[key] if key in ledger.moves else ledger.in_doubt[key]
        assert move == codec.move_from_proto(sent), f"{key}: logged move is not the one sent"
        moves.append((entry.seat, move))
    initial, steps = replay(game, fmt.config.decode(meta.config), meta.seed, moves)
    final = steps[-1].state if steps else initial
    stored_state = records.loaded_state(state)
    assert stored_state == records.encode(final), "stored state differs from the replay of the log"
    finished = game.outcome(final) is not None
    if ledger.finished:
        assert finished, "a client saw the end the stored game has not reached"

    move_records = cast(dict[bytes, bytes], await redis.hgetall(f"{base}:moves"))
    if finished:  # the finishing move dropped them: the log answers (RedisStore.move_record)
        assert not move_records, "a finished game kept its idempotency records"
        move_records = {
            records.short_key(records.move_key(entry.seat, entry.client_move_id)): records.encode(
                records.MoveRecord(entry.version)
            )
            for entry in log
        }
    assert len(move_records) == len(log), "idempotency records and log differ in length"
    for (seat, move_id), version in at.items():
        record = records.record_decoder.decode(
            move_records[records.short_key(records.move_key(seat, move_id))]
        )
        assert record.version == version, (seat, move_id)
    stream = cast(list[tuple[bytes, Any]], await redis.xrange(f"{base}:events"))
    assert [int(entry_id.split(b"-")[0]) for entry_id, _ in stream] == list(
        range(len(log) - len(stream) + 1, len(log) + 1)
    ), "the watchers' stream is not the tail of the log"
    return StoreReport(len(log), finished)


async def check_finished_history(stub: Stub, ledger: Ledger) -> None:
    """A finished game verifies from its GetHistory (seed revealed, every move replayed)."""
    history = await gathered_history(
        lambda request: stub.GetHistory(request, metadata=ledger.md(0), timeout=RPC_TIMEOUT),
        ledger.game_id,
    )
    report = verify_history(history, game_id=ledger.game_id)
    assert report.ok, f"{ledger.game_id}: {report}"


# --- moving ----------------------------------------------------------------------------------


async def create_game(stub: Stub, seats: int, seed: bytes) -> Ledger:
    created = await stub.CreateGame(
        referee_pb2.CreateGameRequest(
            game="the_gang", seats=seats, seed=seed, allow_spectators=True
        ),
        timeout=RPC_TIMEOUT,
    )
    return Ledger(created.game_id, [token.token for token in created.seat_tokens])


def choose_move(
    view: game_pb2.View, legal: referee_pb2.ListLegalMovesResponse, rng: random.Random
) -> game_pb2.Move | None:
    """A random legal chip move that mostly moves the game on (takes a chip from the centre).

    None when the seat has nothing to do (the game is over).
    """
    chips = [m for m in legal.moves if m.the_gang.WhichOneof("action") != "confirm_round_end"]
    if not chips:
        return None
    row = view.the_gang.chips[-1].chips if view.the_gang.chips else []
    free = [
        m
        for m in chips
        if m.the_gang.WhichOneof("action") == "take_chip"
        and any(c.stars == m.the_gang.take_chip.stars and not c.HasField("holder") for c in row)
    ]
    return rng.choice(free if free and rng.random() < 0.9 else chips)


def seats_without_chip(view: game_pb2.View) -> list[int]:
    row = view.the_gang.chips[-1].chips if view.the_gang.chips else []
    holders = {chip.holder for chip in row if chip.HasField("holder")}
    return [seat for seat in range(view.seats) if seat not in holders]


def scripted_game(seats: int, seed: bytes) -> list[tuple[int, game_pb2.Move]]:
    """A whole game of The Gang by the engine: each round seat s takes the (s+1)-star chip."""
    state = GAME.new_game(TheGangConfig(players=seats), seed)
    moves: list[tuple[int, game_pb2.Move]] = []
    while not state.finished:
        seat = next(s for s in range(seats) if s not in state.chips[state.round])
        move = TakeChip(state.round, seat + 1)
        state, _ = GAME.apply(state, seat, move)
        moves.append((seat, THE_GANG.move_to_proto(move)))
    return moves


async def within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Wait up to ``seconds`` for ``condition``; whether it came true."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    if not await within(seconds, condition):
        raise AssertionError(f"timed out after {seconds}s waiting for {what}")


async def gather_or_cancel(*tasks: Awaitable[Any]) -> list[Any]:
    """``asyncio.gather`` that cancels (and awaits) the rest when one fails."""
    futures = [asyncio.ensure_future(task) for task in tasks]
    try:
        return await asyncio.gather(*futures)
    finally:
        for future in futures:
            future.cancel()
        await asyncio.gather(*futures, return_exceptions=True)
