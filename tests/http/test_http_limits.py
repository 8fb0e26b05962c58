"""The HTTP port's limits (keep-alive, header and body deadlines, the connection cap, the open
files limit) on a small app served like the referee's, and the log that rate limits its own
repeated warnings and errors."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import resource
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import structlog
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from service.edge.connect import app as http_app
from service.edge.connect.app import HttpLimits, connections_within, serving_http
from service.process import logs
from service.settings import DEFAULTS

ROOT = Path(__file__).resolve().parents[2]
LIMITS = HttpLimits(keep_alive_seconds=0.4, header_seconds=0.8, body_seconds=1.2, max_connections=3)
EARLY = 0.1  # a close may come this much before its deadline (timer granularity)
LATE = 1.0  # ... or this much after it, on a busy machine
HEAD = b"POST /echo HTTP/1.1\r\nHost: t\r\n"


async def _echo(request: Request) -> Response:
    return PlainTextResponse(await request.body())


async def _slow_stream(_request: Request) -> Response:
    async def chunks() -> AsyncIterator[bytes]:
        for n in range(8):  # 1.6 s: longer than every deadline
            await asyncio.sleep(0.2)
            yield b"%d\n" % n

    return StreamingResponse(chunks())


APP = Starlette(routes=[Route("/echo", _echo, methods=["POST"]), Route("/stream", _slow_stream)])


@pytest.fixture
async def port() -> AsyncIterator[int]:
    async with serving_http(APP, "127.0.0.1", 0, LIMITS) as bound:
        yield bound


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def _closed_after(reader: asyncio.StreamReader, since: float) -> tuple[float, bytes]:
    """Seconds from ``since`` until the referee closes the connection, and what it sent."""
    try:
        answer = await asyncio.wait_for(reader.read(), 10)
    except ConnectionResetError:
        answer = b""
    return time.monotonic() - since, answer


def _within(seconds: float, deadline: float) -> bool:
    return deadline - EARLY <= seconds <= deadline + LATE


async def test_a_connection_idle_before_its_first_request_is_closed(port: int) -> None:
    opened = time.monotonic()
    reader, writer = await _connect(port)
    seconds, answer = await _closed_after(reader, opened)
    writer.close()
    assert answer == b""
    assert _within(seconds, LIMITS.keep_alive_seconds), seconds


async def test_keep_alive_serves_the_next_request_then_closes_when_idle(port: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        first = await client.post("/echo", content=b"one")
        await asyncio.sleep(LIMITS.keep_alive_seconds / 4)
        second = await client.post("/echo", content=b"two")
    assert (first.text, second.text) == ("one", "two")
    assert first.extensions["network_stream"] is second.extensions["network_stream"]

    reader, writer = await _connect(port)
    writer.write(HEAD + b"Content-Length: 2\r\n\r\nhi")
    answered = await reader.readuntil(b"hi")
    idle_since = time.monotonic()
    seconds, rest = await _closed_after(reader, idle_since)
    writer.close()
    assert answered.startswith(b"HTTP/1.1 200") and rest == b""
    assert _within(seconds, LIMITS.keep_alive_seconds), seconds


async def test_headers_sent_a_byte_at_a_time_are_cut_at_their_deadline(port: int) -> None:
    """Each byte would restart uvicorn's keep-alive timer; the header deadline does not."""
    reader, writer = await _connect(port)
    started = time.monotonic()
    writer.write(HEAD)
    closing = asyncio.create_task(_closed_after(reader, started))
    while not closing.done():
        writer.write(b"x")
        await asyncio.sleep(0.05)
    seconds, answer = await closing
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout"), answer
    assert _within(seconds, LIMITS.header_seconds), seconds


async def test_a_stalled_body_is_dropped_at_its_deadline(port: int) -> None:
    reader, writer = await _connect(port)
    writer.write(HEAD + b"Content-Length: 100\r\n\r\nsome")
    headers_sent = time.monotonic()
    seconds, answer = await _closed_after(reader, headers_sent)
    writer.close()
    assert answer == b""  # the app never got its body, so it never answered
    assert _within(seconds, LIMITS.body_seconds), seconds


async def test_a_slow_request_within_its_deadlines_is_answered(port: int) -> None:
    reader, writer = await _connect(port)
    for part in (HEAD, b"Content-Length: 4\r\n", b"\r\n", b"sl", b"ow"):
        writer.write(part)
        await asyncio.sleep(0.15)  # each pause is less than the keep-alive time too
    answer = await asyncio.wait_for(reader.readuntil(b"slow"), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200")


async def test_a_long_response_outlives_every_deadline(port: int) -> None:
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        response = await client.get("/stream")
    assert response.text.split() == [str(n) for n in range(8)]
    assert time.monotonic() - started > LIMITS.body_seconds


async def test_connections_beyond_the_cap_are_closed_at_once(port: int) -> None:
    held = [await _connect(port) for _ in range(LIMITS.max_connections)]
    await asyncio.sleep(0.05)  # each one accepted
    opened = time.monotonic()
    reader, writer = await _connect(port)
    seconds, answer = await _closed_after(reader, opened)
    writer.close()
    assert answer == b"" and seconds < LIMITS.keep_alive_seconds / 2, seconds

    held.pop()[1].close()  # a slot frees, and the next connection is served
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        deadline = time.monotonic() + 5
        while True:
            try:
                response = await client.post("/echo", content=b"in")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
    assert response.text == "in"
    for _, held_writer in held:
        held_writer.close()


def test_the_cap_is_lowered_to_fit_the_open_files_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1024, 1024))
    room = 1024 - http_app.HTTP_BACKLOG - http_app.FD_RESERVE
    assert connections_within(100) == 100
    assert connections_within(DEFAULTS.http_max_connections) == room
    assert DEFAULTS.http_max_connections > room  # the default needs more than 1,024


def test_the_soft_open_files_limit_is_raised_to_the_hard_one() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lower = min(256, hard)

    # prlimit, not a preexec_fn: no Python runs between fork and exec in this process,
    # whose gRPC threads may be busy (tests/servers.py, referee_process).
    shown = subprocess.run(
        [
            "prlimit",
            f"--nofile={lower // 2}:{lower}",
            "--",
            sys.executable,
            "-c",
            "import resource\n"
            "from service.edge.connect.app import raise_open_files_limit\n"
            "print(raise_open_files_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert shown.stdout.split() == [str(lower), str(lower)]
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_limiter_admits_one_event_per_key_per_interval_and_counts_the_rest() -> None:
    clock = _Clock()
    limiter = logs.RepeatLimiter(interval=1.0, max_keys=2, clock=clock)
    assert limiter.admit("a") == 0
    assert [limiter.admit("a") for _ in range(5)] == [None] * 5
    assert limiter.admit("b") == 0  # another key is not held back
    clock.now = 1.0
    assert limiter.admit("a") == 5
    assert limiter.admit("a") is None
    limiter.admit("c")  # a third key: the oldest ("b") is forgotten
    assert limiter.admit("b") == 0


def _record(message: str, level: int = logging.ERROR, name: str = "asyncio") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, message, None, None)


def test_repeated_accept_errors_become_one_line_a_second() -> None:
    """asyncio's accept loop, out of descriptors, logs once per pending connection."""
    clock = _Clock()
    repeats = logs.RepeatFilter(logs.RepeatLimiter(clock=clock))
    accept = "socket.accept() out of system resource\nsocket: <TransportSocket fd={}>"
    passed = [repeats.filter(_record(accept.format(fd))) for fd in range(1000)]
    assert passed.count(True) == 1 and passed[0]
    assert repeats.filter(_record("another error"))
    assert all(repeats.filter(_record("rpc", logging.INFO)) for _ in range(10))
    clock.now = 1.5
    record = _record(accept.format(7))
    assert repeats.filter(record)
    assert getattr(record, "suppressed", None) == 999


def test_the_referees_own_repeated_warnings_are_limited_too() -> None:
    clock = _Clock()
    repeats = logs.RepeatProcessor(logs.RepeatLimiter(clock=clock))
    event = {"event": "store unreachable", "level": "warning"}
    assert repeats(None, "warning", dict(event)) == event
    with pytest.raises(structlog.DropEvent):
        repeats(None, "warning", dict(event))
    info = {"event": "rpc", "level": "info"}
    assert all(repeats(None, "info", dict(info)) == info for _ in range(3))
    clock.now = 2.0
    assert repeats(None, "warning", dict(event))["suppressed"] == 1


def test_library_records_are_json_lines_with_the_traceback_as_a_field() -> None:
    stream = io.StringIO()
    handler = logs.standard_library_handler(stream)
    logger = logging.getLogger("tests.http.limits")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(50):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.exception("socket.accept() out of system resource")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["event"] == "socket.accept() out of system resource"
    assert line["level"] == "error" and line["logger"] == "tests.http.limits"
    assert "Too many open files" in line["exception"]


def test_configure_twice_leaves_one_handler_on_the_root_logger() -> None:
    root = logging.getLogger()
    saved_config, saved_level = structlog.get_config(), root.level
    before = list(root.handlers)
    try:
        logs.configure("info")
        logs.configure("debug")
        added = [handler for handler in root.handlers if handler not in before]
        assert len(added) == 1
        assert root.level == logging.WARNING  # the libraries' info lines stay out
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
        root.setLevel(saved_level)
        structlog.configure(**saved_config)
