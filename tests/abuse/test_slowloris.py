"""Slowloris on the HTTP port, against `referee serve` as its own process with 256 file
descriptors: idle, half-sent-headers and stalled-body connections, more than the
connection cap, re-opened as fast as they close (bounded in count, time and rate; loopback).

Before issue 16 such connections were never closed; at the fd limit the HTTP face stopped
and stderr got ~2,800 traceback lines a second. Now: connections beyond the cap are closed at
once, the others by their deadline; a well-behaved HTTP client (on its keep-alive
connection, opened before the attack) and a gRPC client keep working; the log stays short.
"""

from __future__ import annotations

import asyncio
import errno
import json
import selectors
import socket
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import grpc
import httpx

from referee.v1 import referee_pb2, referee_pb2_grpc
from tests.http.connect import Message, ok, watch
from tests.servers import Served, referee_process
from tests.service.table import Table

FD_LIMIT = 256  # the referee's RLIMIT_NOFILE, soft and hard
CAP = 48  # its HTTP connection cap: with the accept backlog (128) and 64 spare, in 256
KEEP_ALIVE, HEADERS, BODY = 1.0, 2.0, 3.0  # its HTTP timeouts, in seconds
LIMITS = {
    "REFEREE_HTTP_KEEP_ALIVE_SECONDS": str(KEEP_ALIVE),
    "REFEREE_HTTP_HEADER_TIMEOUT_SECONDS": str(HEADERS),
    "REFEREE_HTTP_BODY_TIMEOUT_SECONDS": str(BODY),
    "REFEREE_HTTP_MAX_CONNECTIONS": str(CAP),
}
ATTACK_SECONDS = 8.0
HELD = 3 * CAP  # connections the attacker keeps open at once
MAX_ATTEMPTS = 3000
MAX_RATE = 250.0  # connections the attacker opens per second, at most
TRICKLE_SECONDS = 0.3  # a few bytes more of the headers or body, this often
REFUSED_WITHIN = 0.5  # a refusal closes at once; every timeout is longer
LATE = 1.5  # how much later than its deadline a close may come on a busy machine
KINDS = ("idle", "headers", "body")
EXPECTED = {
    "idle": ("KEEP_ALIVE_TIMEOUT", KEEP_ALIVE),
    "headers": ("HTTP_HEADER_TIMEOUT", HEADERS),
    "body": ("HTTP_BODY_TIMEOUT", BODY),
}


REQUEST = b"POST /referee.v1.RefereeService/GetView HTTP/1.1\r\nHost: a\r\n"
FIRST_BYTES = {
    "idle": b"",
    "headers": REQUEST,
    "body": REQUEST + b"Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{",
}
TRICKLE = {"idle": b"", "headers": b"x-a: b\r\n", "body": b"X"}
CONNECT_WITHIN = 2.0  # else the connection counts as CONNECT_FAILED


@dataclass
class _Held:
    sock: socket.socket
    kind: str
    since: float  # when its connect began, then when it was established
    connected: bool = False
    answer: bytes = b""


class _Slowloris:
    """The attacker's connections, non-blocking in one selector (so every close is seen
    when it comes), and how the referee closed each."""

    def __init__(self, address: tuple[str, int]) -> None:
        self.address = address
        self.selector = selectors.DefaultSelector()
        self.attempts = 0
        self.refusals: dict[str, int] = {}
        self.closed_after: dict[str, list[float]] = {}

    def held(self) -> list[_Held]:
        return [key.data for key in self.selector.get_map().values()]

    def open(self, now: float) -> None:
        kind = KINDS[self.attempts % len(KINDS)]
        self.attempts += 1
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        held = _Held(sock, kind, now)
        self.selector.register(sock, selectors.EVENT_WRITE, held)
        if sock.connect_ex(self.address) not in (0, errno.EINPROGRESS):
            self._drop(held, "CONNECT_FAILED", now)

    def step(self, trickle: bool) -> None:
        """Handle what the referee did (for up to 50 ms), then trickle a byte on each."""
        for key, _ in self.selector.select(timeout=0.05):
            held: _Held = key.data
            if not held.connected:
                self._established(held, time.monotonic())
            elif self._closed(held):
                self._drop(held, self._reason(held, time.monotonic()), time.monotonic())
        now = time.monotonic()
        for held in self.held():
            if not held.connected and now - held.since > CONNECT_WITHIN:
                self._drop(held, "CONNECT_FAILED", now)
            elif held.connected and trickle and not self._send(held, TRICKLE[held.kind]):
                self._drop(held, self._reason(held, now), now)

    def _established(self, held: _Held, now: float) -> None:
        if held.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self._drop(held, "CONNECT_FAILED", now)
            return
        held.connected, held.since = True, now
        self.selector.modify(held.sock, selectors.EVENT_READ, held)
        if not self._send(held, FIRST_BYTES[held.kind]):
            self._drop(held, self._reason(held, now), now)

    @staticmethod
    def _send(held: _Held, data: bytes) -> bool:
        """False if the connection is gone."""
        try:
            held.sock.send(data)
        except BlockingIOError:
            pass
        except OSError:
            return False
        return True

    @staticmethod
    def _closed(held: _Held) -> bool:
        """Take what the referee sent; True once it has closed the connection."""
        try:
            data = held.sock.recv(4096)
        except BlockingIOError:
            return False
        except OSError:  # reset
            return True
        held.answer += data
        return not data

    @staticmethod
    def _reason(held: _Held, now: float) -> str:
        expected, deadline = EXPECTED[held.kind]
        age = now - held.since
        if held.answer.startswith(b"HTTP/1.1 408"):
            return "HTTP_HEADER_TIMEOUT"
        if held.answer:
            return "ANSWERED"  # a response, which none of these requests may get
        if age < REFUSED_WITHIN:
            return "HTTP_CONNECTION_CAP"
        # (a 408 can be lost: the referee resets a connection that goes on sending)
        return expected if age >= deadline * 0.9 else "CLOSED_EARLY"

    def _drop(self, held: _Held, reason: str, now: float) -> None:
        self.refusals[reason] = self.refusals.get(reason, 0) + 1
        self.closed_after.setdefault(reason, []).append(now - held.since)
        self.selector.unregister(held.sock)
        held.sock.close()

    def close(self) -> None:
        for held in self.held():
            held.sock.close()
        self.selector.close()


def attack_slowloris(served: Served, seconds: float) -> dict[str, Any]:
    """Hold ``HELD`` idle, half-sent-headers and stalled-body connections to the HTTP port
    for ``seconds``, trickling bytes, re-opening each one the referee closes (at most
    ``MAX_RATE`` a second, ``MAX_ATTEMPTS`` in all). Blocking: run it in a thread.

    Returns attempts, refusals by reason (how the referee closed them), the attacker's rate
    (connections a second), how long after opening each kind was closed (min, median, max)
    and the age of the oldest connection still open at the end (none closed late)."""
    url = urlsplit(served.http)
    attacker = _Slowloris((url.hostname or "127.0.0.1", url.port or 80))
    started = time.monotonic()
    trickle_at = started + TRICKLE_SECONDS
    try:
        while (now := time.monotonic()) < started + seconds:
            allowed = min(MAX_ATTEMPTS, int((now - started) * MAX_RATE) + HELD)
            while len(attacker.held()) < HELD and attacker.attempts < allowed:
                attacker.open(now)
            trickle = now >= trickle_at
            if trickle:
                trickle_at = now + TRICKLE_SECONDS
            attacker.step(trickle)
        now = time.monotonic()
        ages = [now - held.since for held in attacker.held() if held.connected]
    finally:
        attacker.close()
    return {
        "attack": "slowloris",
        "attempts": attacker.attempts,
        "refusals": dict(attacker.refusals),
        "rate": attacker.attempts / (time.monotonic() - started),
        "closed_after": {
            reason: (min(ages_), statistics.median(ages_), max(ages_))
            for reason, ages_ in attacker.closed_after.items()
        },
        "oldest_open": max(ages, default=0.0),
    }


def _percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return round(cuts[49] * 1000, 2), round(cuts[98] * 1000, 2)


async def _victim(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    http: httpx.AsyncClient,
    game_id: str,
    until: Callable[[], bool],
) -> dict[str, list[float]]:
    """GetView over HTTP (one keep-alive connection) and over gRPC, in turn, until
    ``until()``; every call must succeed. Latencies in seconds, by face."""
    timings: dict[str, list[float]] = {"http": [], "grpc": []}
    while not until() or len(timings["grpc"]) < 20:
        started = time.perf_counter()
        await ok(http, "GetView", {"gameId": game_id})
        timings["http"].append(time.perf_counter() - started)
        started = time.perf_counter()
        await stub.GetView(referee_pb2.GetViewRequest(game_id=game_id), timeout=10)
        timings["grpc"].append(time.perf_counter() - started)
    return timings


def _stderr_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


async def _first_update(http: httpx.AsyncClient, game_id: str) -> Message:
    async for message in watch(http, {"gameId": game_id, "afterVersion": "0"}):
        return message
    raise AssertionError("the watch stream ended without an update")


async def _fresh_client_works(served: Served) -> None:
    """Once the attack stops, a new HTTP connection gets a slot again (bounded wait)."""
    deadline = time.monotonic() + BODY + 5
    while True:
        try:
            async with httpx.AsyncClient(base_url=served.http, timeout=5) as fresh:
                response = await fresh.get("/openapi.json")
            if response.status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the HTTP port did not take new connections again"
        await asyncio.sleep(0.1)


async def test_slowloris_is_cut_by_the_cap_and_the_timeouts(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    with (
        log.open("w", encoding="utf-8") as stderr,
        referee_process(
            redis_url, tmp_path / "data", LIMITS, open_files=FD_LIMIT, stderr=stderr
        ) as served,
    ):
        async with (
            grpc.aio.insecure_channel(served.grpc) as channel,
            httpx.AsyncClient(
                base_url=served.http, timeout=10, limits=httpx.Limits(max_connections=1)
            ) as http,
            httpx.AsyncClient(base_url=served.http, timeout=None) as watcher,
        ):
            stub: referee_pb2_grpc.RefereeServiceAsyncStub
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            table = await Table.create(stub, 3)
            watching = asyncio.create_task(_first_update(watcher, table.game_id))
            quiet = time.monotonic() + 2
            before = await _victim(stub, http, table.game_id, lambda: time.monotonic() > quiet)
            lines_before = len(_stderr_lines(log))

            attack = asyncio.create_task(
                asyncio.to_thread(attack_slowloris, served, ATTACK_SECONDS)
            )
            during = await _victim(stub, http, table.game_id, attack.done)
            result = await attack

            await _fresh_client_works(served)
            view = await ok(http, "GetView", {"gameId": table.game_id}, table.tokens[0])
            colour = view["view"]["theGang"]["round"]
            move = {"theGang": {"takeChip": {"colour": colour, "stars": 1}}}
            await ok(
                http,
                "SubmitMove",
                {"gameId": table.game_id, "move": move, "clientMoveId": "after-attack"},
                table.tokens[0],
            )
            # The watch stream, open through the attack (longer than every timeout).
            update = await asyncio.wait_for(watching, 10)
            assert int(update["version"]) == 1, update

    lines = _stderr_lines(log)
    figures = {
        **result,
        "stderr_lines_during": len(lines) - lines_before,
        "victim_ms_before": {face: _percentiles(t) for face, t in before.items()},
        "victim_ms_during": {face: _percentiles(t) for face, t in during.items()},
    }
    print(json.dumps(figures, indent=1))

    refusals = result["refusals"]
    assert set(refusals) <= {"HTTP_CONNECTION_CAP", *(r for r, _ in EXPECTED.values())}, refusals
    assert refusals.get("HTTP_CONNECTION_CAP", 0) > 0, refusals
    for reason, deadline in EXPECTED.values():
        first, _, last = result["closed_after"][reason]
        assert deadline * 0.9 <= first and last <= deadline + LATE, (reason, first, last)
    assert result["oldest_open"] <= BODY + LATE
    # Bounded: a few lines a second for each kind of refusal, never a traceback per accept.
    assert len(lines) - lines_before <= 4 * (ATTACK_SECONDS + BODY) + 10, lines[-20:]
    assert not any("Too many open files" in line for line in lines)
    assert all(json.loads(line) for line in lines)
