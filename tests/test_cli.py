"""The README's first command for real: `referee serve` as a process with embedded Redis."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from referee.v1 import referee_pb2_grpc
from tests.servers import DEVELOPMENT
from tests.service.players import play_to_end
from tests.service.table import Table


def _redis_children(parent: int) -> list[int]:
    """Pids of redis-server processes started by ``parent`` (redis renames its cmdline)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == parent and name.startswith("redis-server"):
            found.append(int(proc.name))
    return found


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, str, Path]]:
    data_dir = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "REFEREE_TOKEN_SECRET"}}
    env["REFEREE_ALLOW_CLIENT_SEEDS"] = "1"
    env.update(DEVELOPMENT)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "service.process.cli",
        "serve",
        "--port",
        "0",
        "--http-port",
        "0",
        "--data-dir",
        str(data_dir),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line.startswith("referee listening on 127.0.0.1:"), line
        assert "(redis: embedded)" in line
        address = line.split()[3]
        yield process, address, data_dir
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_serve_plays_verifies_logs_and_stops_cleanly(
    served: tuple[asyncio.subprocess.Process, str, Path],
) -> None:
    process, address, data_dir = served
    redis_pids = _redis_children(process.pid)
    assert redis_pids, "the embedded redis-server should be running"
    assert (data_dir / "token-secret").stat().st_mode & 0o777 == 0o600
    async with grpc.aio.insecure_channel(address) as channel:
        table = await Table.create(referee_pb2_grpc.RefereeServiceStub(channel), 3, seed=b"cli")
        final = await play_to_end(table, 3, win=True)
        assert final.HasField("outcome")

    verify = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "service.process.cli",
        "verify",
        "--address",
        address,
        "--game-id",
        table.game_id,
        "--token",
        table.tokens[1],
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(verify.communicate(), 60)
    assert verify.returncode == 0, out
    assert out.decode().startswith("verified: the_gang")
    assert f"{final.version} views checked" in out.decode()

    process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.wait(), 30) == 0
    assert process.stderr is not None
    lines = [json.loads(line) for line in (await process.stderr.read()).decode().splitlines()]
    rpcs = [line for line in lines if line.get("event") == "rpc"]
    assert {"SubmitMove", "GetView", "CreateGame"} <= {line["rpc"] for line in rpcs}
    submit = next(line for line in rpcs if line["rpc"] == "SubmitMove")
    assert {"game_id", "seat", "version", "code", "latency_ms"} <= set(submit)
    text = "\n".join(json.dumps(line) for line in lines)
    assert all(token not in text for token in table.tokens)
    assert not any(Path(f"/proc/{pid}").exists() for pid in redis_pids), "redis must stop too"
