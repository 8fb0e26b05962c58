"""The embedded redis-server is SIGKILLed under load; the referee heals by itself and no
acknowledged move is lost.

One ``referee serve`` process with its embedded Redis (no ``REDIS_URL``; the data folder in
``tmp_path``). Client tasks each play scripted games of The Gang move by move, recording
every acknowledged move (game, seat, move id, version); a move whose call failed
(UNAVAILABLE: the store is down, or no answer) is re-sent with the same id until it gets a
definite answer. Mid-load the redis-server child of the referee is SIGKILLed, ``KILLS``
times (``EMBEDDED_REDIS_KILLS``, 3 in CI; 20 by hand for docs/security.md): each time the
referee must restart it (a new child, health SERVING again, the clients' moves flowing
again) within a bounded wait. Afterwards GetHistory and Redis itself (``check_store``)
hold every acknowledged move at its version, exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.client.calls import gathered_history
from referee.v1 import game_pb2, referee_pb2
from tests.faults.support import (
    ROOT,
    RPC_TIMEOUT,
    SECRET,
    Ledger,
    check_store,
    create_game,
    failure,
    gather_or_cancel,
    redis_client,
    scripted_game,
    stub_for,
    until,
)
from tests.servers import DEVELOPMENT
from tests.service.table import Stub

KILLS = int(os.environ.get("EMBEDDED_REDIS_KILLS", "3"))
CLIENTS = 6
SEATS = 3
ACKS_BETWEEN_KILLS = 40  # moves acknowledged after each heal before the next kill
HEAL_SECONDS = 30.0  # bound on each restart (new child + SERVING + moves flowing)
MOVE_DEADLINE = 30.0  # a client re-sends one move (same id) for at most this long
RETRY_PAUSE = 0.05
SERVICE = "referee.v1.RefereeService"


def redis_children(pid: int) -> list[int]:
    """The redis-server processes whose parent is ``pid`` (the referee's embedded one)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat.rsplit(")", 1)[1]
            state, parent = rest.split()[0:2]
            if name == "redis-server" and int(parent) == pid and state != "Z":
                found.append(int(entry.name))
    return found


@dataclass
class Referee:
    process: asyncio.subprocess.Process
    address: str
    data_dir: Path
    log_path: Path

    def redis_url(self) -> str:
        """The embedded server's URL, from its files (the referee never prints it)."""
        redis_dir = self.data_dir / "redis"
        password = (redis_dir / "redis.password").read_text().strip()
        conf = dict(
            line.split(" ", 1) for line in (redis_dir / "redis.conf").read_text().splitlines()
        )
        return f"redis://:{password}@127.0.0.1:{conf['port']}/0"


@contextlib.asynccontextmanager
async def embedded_referee(root: Path) -> AsyncIterator[Referee]:
    """``referee serve`` on its embedded Redis; killed (with its Redis) on exit."""
    data_dir = root / "data"
    log_path = root / "referee.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "REDIS_"))}
    env["REFEREE_TOKEN_SECRET"] = SECRET
    env["REFEREE_WORKERS"] = "1"  # the referee process supervises its embedded Redis
    env.update(DEVELOPMENT)
    command = ["-m", "service.process.cli", "serve", "--port", "0", "--http-port", "0"]
    command += ["--data-dir", str(data_dir), "--allow-client-seeds"]
    with log_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *command,
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
        )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line.startswith("referee listening on"), f"{line!r}\n{log_path.read_text()}"
        yield Referee(process, line.split()[3], data_dir, log_path)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)  # stops its Redis too
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()


@dataclass
class Load:
    stub: Stub
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    games: list[Ledger] = field(default_factory=list)
    acked: int = 0
    resent: int = 0  # calls re-sent after UNAVAILABLE or no answer
    duplicates: int = 0  # re-sent moves answered `duplicate`: applied before the kill
    unexpected: list[str] = field(default_factory=list)


def transient(error: grpc.aio.AioRpcError) -> bool:
    return error.code() in {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


async def new_game(load: Load, number: int, count: int) -> Ledger | None:
    deadline = time.monotonic() + MOVE_DEADLINE
    while time.monotonic() < deadline:
        try:
            return await create_game(load.stub, SEATS, b"kill-%d-%d" % (number, count))
        except grpc.aio.AioRpcError as error:
            if not transient(error):
                load.unexpected.append(f"CreateGame: {failure(error)}")
                return None
            await asyncio.sleep(RETRY_PAUSE)
    load.unexpected.append(f"CreateGame: no answer in {MOVE_DEADLINE}s")
    return None


async def submit(load: Load, ledger: Ledger, index: int, seat: int, move: game_pb2.Move) -> bool:
    """Send move ``index`` until the referee answers it (always with the same id)."""
    move_id = f"m{index}"
    request = referee_pb2.SubmitMoveRequest(
        game_id=ledger.game_id, move=move, client_move_id=move_id
    )
    deadline = time.monotonic() + MOVE_DEADLINE
    resent = False
    while time.monotonic() < deadline:
        try:
            reply = await load.stub.SubmitMove(
                request, metadata=ledger.md(seat), timeout=RPC_TIMEOUT
            )
        except grpc.aio.AioRpcError as error:
            if not transient(error):
                load.unexpected.append(f"{ledger.game_id} {move_id}: {failure(error)}")
                return False
            ledger.in_doubt[(seat, move_id)] = request.move
            load.resent += 1
            resent = True
            await asyncio.sleep(RETRY_PAUSE)
            continue
        if reply.version != index + 1:
            load.unexpected.append(f"{ledger.game_id} {move_id}: acknowledged at v{reply.version}")
        load.duplicates += resent and reply.duplicate
        ledger.acknowledge(seat, move_id, request.move, reply.version)
        load.acked += 1
        return True
    load.unexpected.append(f"{ledger.game_id} {move_id}: no answer in {MOVE_DEADLINE}s")
    return False


async def client(load: Load, number: int) -> None:
    """Play scripted games one after another, one move at a time, until told to stop."""
    count = 0
    while not load.stop.is_set():
        ledger = await new_game(load, number, count)
        if ledger is None:
            return
        load.games.append(ledger)
        for index, (seat, move) in enumerate(scripted_game(SEATS, b"kill-%d-%d" % (number, count))):
            if load.stop.is_set() or not await submit(load, ledger, index, seat, move):
                break
        else:
            ledger.finished = True
        count += 1


async def serving(referee: Referee) -> bool:
    async with grpc.aio.insecure_channel(referee.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        with contextlib.suppress(grpc.aio.AioRpcError):
            reply = await health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=2)
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    return False


async def heal(referee: Referee, killed: int, load: Load) -> float:
    """Seconds until a new redis-server child runs, health is SERVING and moves flow again."""
    started = time.monotonic()
    deadline = started + HEAL_SECONDS
    while True:
        children = redis_children(referee.process.pid)
        if children and killed not in children and await serving(referee):
            break
        assert time.monotonic() < deadline, f"not healed in {HEAL_SECONDS}s"
        await asyncio.sleep(0.02)
    healed = time.monotonic() - started
    acked = load.acked
    await until(lambda: load.acked > acked, HEAL_SECONDS, "a move acknowledged after the heal")
    return healed


async def killer(referee: Referee, load: Load) -> list[float]:
    heals = []
    try:
        for _ in range(KILLS):
            wanted = load.acked + ACKS_BETWEEN_KILLS
            await until(
                lambda: load.acked >= wanted or bool(load.unexpected),  # noqa: B023 (awaited here)
                HEAL_SECONDS,
                "moves between kills",
            )
            assert not load.unexpected, "\n".join(load.unexpected[:10])
            [victim] = redis_children(referee.process.pid)
            os.kill(victim, signal.SIGKILL)
            heals.append(await heal(referee, victim, load))
    finally:
        load.stop.set()
    return heals


async def test_killing_the_embedded_redis_loses_no_acknowledged_move(tmp_path: Path) -> None:
    async with embedded_referee(tmp_path) as referee, stub_for(referee.address) as stub:
        assert await serving(referee)
        load = Load(stub)
        clients = [client(load, number) for number in range(CLIENTS)]
        results = await gather_or_cancel(killer(referee, load), *clients)
        heals: list[float] = results[0]
        assert not load.unexpected, "\n".join(load.unexpected[:10])
        assert len(heals) == KILLS

        for ledger in load.games:
            get = functools.partial(stub.GetHistory, metadata=ledger.md(0), timeout=RPC_TIMEOUT)
            history = await gathered_history(get, ledger.game_id)
            logged = {entry.version: entry for entry in history.entries}
            for (seat, move_id), version in ledger.acked.items():
                entry = logged.get(version)
                assert entry is not None, f"{ledger.game_id}: acknowledged v{version} is gone"
                assert (entry.seat, entry.move) == (seat, ledger.moves[(seat, move_id)])
        async with redis_client(referee.redis_url()) as redis:
            for ledger in load.games:
                await check_store(redis, ledger)
        restarts = referee.log_path.read_text().count('"embedded redis restarted"')
        assert restarts == KILLS
    print(
        f"\n{KILLS} kills of the embedded redis-server: {load.acked} moves acknowledged in "
        f"{len(load.games)} games, 0 lost; {load.resent} calls re-sent, {load.duplicates} "
        f"answered duplicate; healed in {min(heals):.2f} to {max(heals):.2f} s "
        "(new server, SERVING, a move acknowledged)"
    )
