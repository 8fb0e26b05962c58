"""`referee serve --workers 2` for real: two referee processes under a supervisor, sharing
the gRPC and HTTP ports (service.process.workers)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import referee_pb2_grpc
from tests.servers import DEVELOPMENT, NO_TAKEOVERS, ROOT, SECRET
from tests.service.players import play_round, play_to_end
from tests.service.table import Table

# Each channel its own connection (else gRPC shares one between channels to one target).
OWN_CONNECTION = (("grpc.use_local_subchannel_pool", 1),)
CHANNELS = 16  # all of them on one worker by chance: 2 ** -15
STARTED_SECONDS = 90.0


@dataclasses.dataclass
class Supervised:
    """The supervisor process, where it serves, and its log lines as they come."""

    process: subprocess.Popen[str]
    grpc: str
    http: str
    metrics: list[str]
    events: queue.Queue[dict[str, Any]]

    def next_event(self, name: str, **fields: object) -> dict[str, Any]:
        """The next log line of event ``name`` with ``fields`` (waiting for it)."""
        while True:
            event = self.events.get(timeout=STARTED_SECONDS)
            if event.get("event") == name and all(event.get(k) == v for k, v in fields.items()):
                return event


def _read_log(stream: Any, events: queue.Queue[dict[str, Any]]) -> None:
    for line in stream:
        with contextlib.suppress(ValueError):
            events.put(json.loads(line))


@contextlib.contextmanager
def supervised(env: Mapping[str, str], data_dir: Path) -> Iterator[Supervised]:
    """`referee serve --workers 2` on free ports; killed at the end if still running."""
    variables = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "REDIS_"))}
    variables.update({"REFEREE_LOG_LEVEL": "info", **NO_TAKEOVERS, **DEVELOPMENT, **env})
    command = [
        sys.executable,
        "-m",
        "service.process.cli",
        "serve",
        "--workers",
        "2",
        "--port",
        "0",
    ]
    command += ["--http-port", "0", "--data-dir", str(data_dir)]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=variables,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stderr is not None
        events: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=_read_log, args=(process.stderr, events), daemon=True).start()
        found: dict[str, list[str]] = {"grpc": [], "http": [], "metrics": []}
        expected_lines = 4 if "REFEREE_METRICS_PORT" in env else 2
        for _, line in zip(range(expected_lines), process.stdout, strict=False):
            for what, pattern in (
                ("grpc", r"referee listening on (\S+)"),
                ("http", r"HTTP/JSON on (http://\S+)"),
                ("metrics", r"metrics on (http://\S+)"),
            ):
                if match := re.search(pattern, line):
                    found[what].append(match.group(1))
        assert found["grpc"], "the supervisor did not start"
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield Supervised(process, found["grpc"][0], found["http"][0], found["metrics"], events)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def _free_port_pair() -> int:
    """A port ``p`` such that ``p`` and ``p + 1`` are free just now (the workers' metrics)."""
    for _ in range(50):
        with socket.socket() as first, socket.socket() as second:
            first.bind(("127.0.0.1", 0))
            port: int = first.getsockname()[1]
            with contextlib.suppress(OSError):
                second.bind(("127.0.0.1", port + 1))
                return port
    raise RuntimeError("no two free ports in a row")


def _get_views(metrics_url: str) -> float:
    """GetView calls answered OK by the worker serving ``metrics_url``."""
    with urllib.request.urlopen(metrics_url, timeout=10) as response:
        text = response.read().decode()
    pattern = r'referee_rpc_duration_seconds_count\{code="OK",rpc="GetView"\} (\S+)'
    match = re.search(pattern, text)
    return float(match.group(1)) if match else 0.0


async def _which_grew(metrics: list[str], before: list[float]) -> int:
    """The worker whose GetView count passes ``before`` (waiting for the count to show)."""
    for _ in range(200):
        after = [_get_views(url) for url in metrics]
        grew = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if a > b]
        assert len(grew) <= 1, (before, after)
        if grew:
            return grew[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no worker counted the call: {before}")


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _children(parent: int) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            stat = (proc / "stat").read_text()
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == parent:
                found.append(int(proc.name))
    return found


async def test_two_workers_share_the_ports_and_the_games(redis_url: str, tmp_path: Path) -> None:
    metrics_port = _free_port_pair()
    env = {
        "REDIS_URL": redis_url,
        "REFEREE_TOKEN_SECRET": SECRET.decode(),
        "REFEREE_METRICS_PORT": str(metrics_port),
        "REFEREE_ALLOW_CLIENT_SEEDS": "1",
        "REFEREE_DEADLINE_FIRER": "0",  # the session's Redis holds other tests' clocks
    }
    with supervised(env, tmp_path / "data") as served:
        assert len(served.metrics) == 2
        channels = [
            grpc.aio.insecure_channel(served.grpc, options=OWN_CONNECTION) for _ in range(CHANNELS)
        ]
        try:
            stubs = [referee_pb2_grpc.RefereeServiceStub(channel) for channel in channels]
            table = await Table.create(stubs[0], 3, seed=b"workers")
            # Which worker each connection reached: the one whose GetView count went up.
            worker_of: list[int] = []
            for stub in stubs:
                before = [_get_views(url) for url in served.metrics]
                await dataclasses.replace(table, stub=stub).view(None)
                worker_of.append(await _which_grew(served.metrics, before))
            assert set(worker_of) == {0, 1}, "both workers answer on the one port"
            # Moves through one worker, then the other, on the same game.
            on = {worker: stubs[worker_of.index(worker)] for worker in (0, 1)}
            first = dataclasses.replace(table, stub=on[0])
            await play_round(first, 3, win=True)
            seen_by_other = await dataclasses.replace(table, stub=on[1]).view(0)
            assert seen_by_other.version == (await first.view(0)).version > 0
            final = await play_to_end(dataclasses.replace(table, stub=on[1]), 3, win=True)
            assert final.HasField("outcome")
            assert (await first.view(None)).version == final.version
        finally:
            for channel in channels:
                await channel.close(None)
        # The HTTP face on its one port too.
        request = urllib.request.Request(
            f"{served.http}/referee.v1.RefereeService/GetView",
            data=json.dumps({"game_id": table.game_id}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert int(json.loads(response.read())["view"]["version"]) == final.version


async def test_a_killed_worker_is_restarted_and_sigterm_stops_all(tmp_path: Path) -> None:
    """On the embedded Redis (started once, by the supervisor)."""
    with supervised({"REFEREE_ALLOW_CLIENT_SEEDS": "1"}, tmp_path / "data") as served:
        pids = {served.next_event("worker started", worker=i)["pid"] for i in (0, 1)}
        redis = [pid for pid in _children(served.process.pid) if pid not in pids]
        assert len(redis) == 1, "one embedded redis-server, the supervisor's"
        victim = min(pids)
        os.kill(victim, signal.SIGKILL)
        exited = served.next_event("worker exited", pid=victim)
        restarted = served.next_event("worker restarted", worker=exited["worker"])
        assert restarted["pid"] not in pids
        pids.add(restarted["pid"])
        async with grpc.aio.insecure_channel(served.grpc) as channel:
            table = await Table.create(referee_pb2_grpc.RefereeServiceStub(channel), 3, seed=b"w")
            assert (await play_round(table, 3, win=True)).version > 0
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(60) == 0
        assert not [pid for pid in [*pids, *redis] if _alive(pid)], "no process outlives it"


@pytest.mark.parametrize(("cpu_max", "cores"), [("max 100000", None), ("150000 100000", 2)])
def test_one_worker_per_core_within_a_cgroup_limit(
    tmp_path: Path, cpu_max: str, cores: int | None
) -> None:
    from service.process.workers import host_cores

    path = tmp_path / "cpu.max"
    path.write_text(cpu_max + "\n")
    affinity = len(os.sched_getaffinity(0))
    assert host_cores(path) == (affinity if cores is None else min(affinity, cores))


def test_a_port_in_use_is_refused_before_anything_starts(tmp_path: Path) -> None:
    """A listener on the port (another referee, of this user or not) fails the start:
    with SO_REUSEPORT the workers would otherwise share its connections."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        data_dir = tmp_path / "data"
        command = [sys.executable, "-m", "service.process.cli", "serve", "--workers", "2"]
        command += ["--port", str(port), "--http-port", "0", "--data-dir", str(data_dir)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "REDIS_"))}
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}" in done.stderr
    assert not (data_dir / "redis").exists(), "no embedded Redis was started"
