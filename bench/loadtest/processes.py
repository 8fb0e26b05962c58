"""The servers of a load test: one Redis and M ``referee serve`` processes, all on loopback.

Referees run as ``python -m service.process.cli serve --host 127.0.0.1 --port 0 --http-port 0`` with
one shared token secret (a seat token issued by one must be good on every other), their
logs in the work folder. Each dies with this process (Linux parent-death signal) and is
stopped with SIGTERM, then SIGKILL, when the block ends, whatever happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import service
from bench.loadtest.config import LoadConfig, check_redis_url, check_referee_target
from service.process.redis_server import EmbeddedRedis, dying_with_parent

HOST: Final = "127.0.0.1"
READY_PREFIX: Final = f"referee listening on {HOST}:"
START_TIMEOUT: Final = 60.0
STOP_TIMEOUT: Final = 15.0
SOURCE_ROOT: Final = Path(service.__file__).resolve().parents[1]


@dataclass
class Servers:
    """Where the load goes: referee addresses, the Redis URL, and pids of ours (for CPU)."""

    redis_url: str
    referees: list[str]
    pids: dict[str, int] = field(default_factory=dict)
    redis_embedded: bool = False


def child_env(secret: str, log_level: str) -> dict[str, str]:
    """The referees' environment: ours without REFEREE_*/REDIS_URL, plus the shared secret."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("REFEREE_") and key != "REDIS_URL"
    }
    paths = [str(SOURCE_ROOT), str(SOURCE_ROOT / "clients" / "python")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["REFEREE_TOKEN_SECRET"] = secret
    env["REFEREE_LOG_LEVEL"] = log_level
    env["REFEREE_WORKERS"] = "1"  # each referee one process, as measured so far
    env["REFEREE_LOOPBACK_QUOTAS"] = "unlimited"  # the load comes from loopback
    return env


def with_query(url: str, **params: str) -> str:
    """``url`` with ``params`` added to (or replacing those in) its query string."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.update(params)
    return urlunsplit(parts._replace(query=urlencode(query)))


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def referee_process(
    name: str, redis_url: str, work: Path, env: dict[str, str]
) -> AsyncIterator[tuple[str, int]]:
    """One ``referee serve`` on a free loopback port; yields its address and pid."""
    data_dir = work / name
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "referee.log"
    command = dying_with_parent(
        [
            sys.executable,
            "-m",
            "service.process.cli",
            "serve",
            "--host",
            HOST,
            "--port",
            "0",
            "--http-port",
            "0",
            "--redis-url",
            redis_url,
            "--data-dir",
            str(data_dir),
        ]
    )
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            *command,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
        )
    try:
        assert process.stdout is not None
        try:
            line = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)).decode()
        except TimeoutError:
            line = ""
        if not line.startswith(READY_PREFIX):
            tail = log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
            raise RuntimeError(f"referee {name} did not start: {line!r}\n{tail}")
        port = int(line[len(READY_PREFIX) :].split()[0])
        yield f"{HOST}:{port}", process.pid
    finally:
        await _stop(process)


@contextlib.asynccontextmanager
async def servers(config: LoadConfig, work: Path) -> AsyncIterator[Servers]:
    """Redis and the referees of ``config``, running until the block exits."""
    async with contextlib.AsyncExitStack() as stack:
        pids: dict[str, int] = {}
        embedded = config.redis_url is None
        if config.redis_url is None:
            redis = EmbeddedRedis(work / "redis")
            redis.start()
            stack.callback(redis.stop)
            redis_url = redis.url
            pids["redis"] = redis.pid
        else:
            redis_url = check_redis_url(config.redis_url)
        referee_url = redis_url
        if config.redis_max_connections is not None:
            referee_url = with_query(redis_url, max_connections=str(config.redis_max_connections))
        if config.targets:
            referees = [check_referee_target(target) for target in config.targets]
        else:
            env = child_env(secrets.token_hex(32), config.log_level)
            # Started side by side; every one that did start is on the stack, so a failure
            # of another still stops it.
            outcomes = await asyncio.gather(
                *(
                    stack.enter_async_context(
                        referee_process(f"referee-{n}", referee_url, work, env)
                    )
                    for n in range(config.referees)
                ),
                return_exceptions=True,
            )
            started: list[tuple[str, int]] = []
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
                started.append(outcome)
            referees = [address for address, _ in started]
            pids.update({f"referee-{n}": pid for n, (_, pid) in enumerate(started)})
        yield Servers(redis_url, referees, pids, embedded)
