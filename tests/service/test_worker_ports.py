"""`referee serve --workers 2 --worker-port P` for real: besides the shared port, worker i
serves gRPC alone on its own port (P + i; 0: free ones), which a proxy routing by game uses
(deploy/nginx-workers.conf; issue 29). Which worker answered a call is read from its log
line (``"worker": i``, with the call's ``game_id``)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from bench.workers import free_ports, nginx
from referee.v1 import referee_pb2, referee_pb2_grpc
from tests.servers import DEVELOPMENT, NO_TAKEOVERS, ROOT, SECRET

WAIT_SECONDS = 90.0
Event = dict[str, Any]


@dataclass
class Served:
    """The supervisor, its shared and own gRPC addresses, and every log line so far."""

    process: subprocess.Popen[str]
    shared: str
    own: list[str]
    events: list[Event] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def wait_for(self, found: Callable[[list[Event]], bool]) -> list[Event]:
        """Every log line so far, once ``found`` says they hold what is awaited."""
        with self.changed:
            if not self.changed.wait_for(lambda: found(self.events), WAIT_SECONDS):
                raise AssertionError(f"not logged in {WAIT_SECONDS} s: {self.events[-20:]}")
            return list(self.events)

    def event(self, name: str, **fields: object) -> Event:
        """The first log line of event ``name`` with ``fields`` (waiting for it)."""

        def matching(events: list[Event]) -> list[Event]:
            return [
                e
                for e in events
                if e.get("event") == name and all(e.get(k) == v for k, v in fields.items())
            ]

        return matching(self.wait_for(lambda events: bool(matching(events))))[0]

    def _read(self, stream: Any) -> None:
        for line in stream:
            with contextlib.suppress(ValueError), self.changed:
                self.events.append(json.loads(line))
                self.changed.notify_all()


@contextlib.contextmanager
def serving(env: Mapping[str, str], data_dir: Path, worker_port: int = 0) -> Iterator[Served]:
    """`referee serve --workers 2 --worker-port worker_port` on a free shared port; stopped
    (SIGTERM, then killed) at the end if still running."""
    variables = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "REDIS_"))}
    variables.update({"REFEREE_LOG_LEVEL": "info", **NO_TAKEOVERS, **DEVELOPMENT, **env})
    variables["REFEREE_HTTP_PORT"] = "off"
    command = [sys.executable, "-m", "service.process.cli", "serve", "--workers", "2"]
    command += ["--port", "0", "--worker-port", str(worker_port), "--data-dir", str(data_dir)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=variables, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        shared, own = "", list[str]()
        for line in process.stdout:
            if match := re.search(r"referee listening on (\S+)", line):
                shared = match.group(1)
            elif match := re.search(r"worker (\d) alone on (\S+)", line):
                assert int(match.group(1)) == len(own), line
                own.append(match.group(2))
            if len(own) == 2:
                break
        assert shared and len(own) == 2, "the supervisor did not start"
        served = Served(process, shared, own)
        threading.Thread(target=served._read, args=(process.stderr,), daemon=True).start()
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def _env(redis_url: str) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url,
        "REFEREE_TOKEN_SECRET": SECRET.decode(),
        "REFEREE_DEADLINE_FIRER": "0",  # the session's Redis holds other tests' clocks
    }


def _stub(channel: grpc.Channel) -> referee_pb2_grpc.RefereeServiceStub:
    return referee_pb2_grpc.RefereeServiceStub(channel)


def _create(stub: referee_pb2_grpc.RefereeServiceStub) -> referee_pb2.CreateGameResponse:
    request = referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
    reply: referee_pb2.CreateGameResponse = stub.CreateGame(request, timeout=WAIT_SECONDS)
    return reply


def _seat(reply: referee_pb2.CreateGameResponse, seat: int) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {reply.seat_tokens[seat].token}"),)


def _answered(events: list[Event], rpc: str, game_id: str) -> list[int]:
    """The workers that logged an ``rpc`` call of ``game_id``, in order."""
    return [
        e["worker"]
        for e in events
        if e.get("event") == "rpc" and e.get("rpc") == rpc and e.get("game_id") == game_id
    ]


def _connected_to(ports: set[int]) -> set[tuple[str, str]]:
    """The TCP connections established to ``ports`` now (their two ends, as /proc says)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text(encoding="ascii").splitlines()[1:]:
        local, remote, state = line.split()[1:4]
        if state == "01" and int(remote.split(":")[1], 16) in ports:
            found.add((local, remote))
    return found


def test_each_worker_serves_its_own_port_and_keeps_it_when_restarted(
    redis_url: str, tmp_path: Path
) -> None:
    with serving(_env(redis_url), tmp_path / "data") as served:
        first = served.event("worker started", worker=0)["pid"]
        with grpc.insecure_channel(served.shared) as channel:
            table = _create(_stub(channel))
            game = table.game_id
            _stub(channel).GetView(referee_pb2.GetViewRequest(game_id=game), timeout=30)
        served.wait_for(lambda events: len(_answered(events, "GetView", game)) == 1)
        for index, address in enumerate(served.own):
            with grpc.insecure_channel(address) as channel:
                for _ in range(3):
                    request = referee_pb2.GetViewRequest(game_id=game)
                    _stub(channel).GetView(request, metadata=_seat(table, index), timeout=30)
        events = served.wait_for(lambda events: len(_answered(events, "GetView", game)) == 7)
        assert _answered(events, "GetView", game)[1:] == [0, 0, 0, 1, 1, 1]

        os.kill(first, signal.SIGKILL)
        again = served.event("worker restarted", worker=0)["pid"]
        assert again != first
        with grpc.insecure_channel(served.own[0]) as channel:
            legal = referee_pb2.ListLegalMovesRequest(game_id=game)
            _stub(channel).ListLegalMoves(legal, metadata=_seat(table, 0), timeout=30)
        events = served.wait_for(lambda events: bool(_answered(events, "ListLegalMoves", game)))
        assert _answered(events, "ListLegalMoves", game) == [0]
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(60) == 0


def test_a_workers_own_port_in_use_is_refused_before_anything_starts(tmp_path: Path) -> None:
    """``--worker-port P``: worker i on P + i, each checked free like the shared port."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        second = taken.getsockname()[1]
        data_dir = tmp_path / "data"
        command = [sys.executable, "-m", "service.process.cli", "serve", "--workers", "2"]
        command += ["--port", "0", "--worker-port", str(second - 1), "--data-dir", str(data_dir)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "REDIS_"))}
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
        )
    assert done.returncode == 1
    refused = re.search(r"cannot serve on 127\.0\.0\.1:(\d+)", done.stderr)
    assert refused, done.stderr
    # P itself may have been taken too (by chance): then it is the one named.
    assert int(refused.group(1)) in {second - 1, second}
    assert not (data_dir / "redis").exists(), "no embedded Redis was started"


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_through_nginx_every_call_of_a_game_reaches_one_worker(
    redis_url: str, tmp_path: Path
) -> None:
    """deploy/nginx-workers.conf (its ports filled in as bench.workers does) in front of the
    workers' own ports: each game's calls, by any seat or by a spectator naming it in
    x-referee-game-id, reach one worker; 16 games reach both (all on one: 2 ** -15); and
    nginx keeps its connections to the workers."""
    base = free_ports(2)
    with (
        serving(_env(redis_url), tmp_path / "data", worker_port=base) as served,
        nginx(tmp_path, [base, base + 1]) as (_, port),
        grpc.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        assert served.own == [f"127.0.0.1:{base}", f"127.0.0.1:{base + 1}"]
        stub = _stub(channel)
        tables = [_create(stub) for _ in range(16)]
        for table in tables:
            request = referee_pb2.GetViewRequest(game_id=table.game_id)
            for seat in (0, 1, 2, 0):
                stub.GetView(request, metadata=_seat(table, seat), timeout=30)
            named = (("x-referee-game-id", table.game_id),)
            stub.GetView(request, metadata=named, timeout=30)

        def all_logged(events: list[Event]) -> bool:
            return all(len(_answered(events, "GetView", t.game_id)) == 5 for t in tables)

        events = served.wait_for(all_logged)
        # nginx keeps its connections to the workers: a PING on an idle one (gRPC's BDP
        # probe, off on a worker's own port) had it reconnect every ~10 calls. The pause
        # leaves each connection idle between two calls, as a player's pace does.
        request = referee_pb2.GetViewRequest(game_id=tables[0].game_id)
        upstream: set[tuple[str, str]] = set()
        for _ in range(30):
            stub.GetView(request, metadata=_seat(tables[0], 0), timeout=30)
            upstream |= _connected_to({base, base + 1})
            time.sleep(0.05)
        assert len(upstream) <= 2, "one connection to each worker at most"
    workers = [set(_answered(events, "GetView", table.game_id)) for table in tables]
    assert all(len(answered) == 1 for answered in workers), workers
    assert set().union(*workers) == {0, 1}
