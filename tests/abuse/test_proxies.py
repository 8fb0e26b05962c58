"""Forwarded addresses against `referee serve` (its own process, loopback only): a budget is
a client's, whatever header it sends, and behind a trusted proxy each forwarded client has
its own — on the gRPC face (metadata) and the HTTP face (headers) alike.

Each referee allows 3 creates a minute per address (``REFEREE_QUOTAS``), so a budget is
spent in a few calls; the fourth create of the same budget is refused
``RESOURCE_EXHAUSTED CREATE_RATE_EXCEEDED``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import grpc
import httpx
import redis

from referee.v1 import referee_pb2, referee_pb2_grpc
from tests.http.connect import reason
from tests.servers import Served, referee_process
from tests.service.table import reason_of

PROXY_DB = 15  # a database of the session's Redis of its own: the counters start at zero
BUDGET = 3
SPENT = f"creates_per_minute={BUDGET}"
CREATE = "/referee.v1.RefereeService/CreateGame"
JSON = {"Content-Type": "application/json"}
REQUEST = referee_pb2.CreateGameRequest(game="pinched", seats=2)


@contextlib.contextmanager
def referee(redis_url: str, root: Path, **env: str) -> Iterator[Served]:
    """`referee serve` with loopback treated as `referee serve` is deployed (no
    REFEREE_LOOPBACK_QUOTAS), on a flushed database."""
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{PROXY_DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    settings = {"REFEREE_LOOPBACK_QUOTAS": "same", "REFEREE_QUOTAS": SPENT, **env}
    try:
        with referee_process(url, root, settings) as served:
            yield served
    finally:
        client.flushdb()
        client.close()


async def grpc_creates(served: Served, forwarded: Sequence[str], address: str = "") -> list[str]:
    """One CreateGame per entry of ``forwarded`` (sent as X-Forwarded-For, unless empty),
    in turn, to ``address`` (default: the referee): "OK" or the refusal's reason."""
    outcomes = []
    async with grpc.aio.insecure_channel(address or served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        for hop in forwarded:
            try:
                metadata = (("x-forwarded-for", hop),) if hop else ()
                await stub.CreateGame(REQUEST, metadata=metadata)
                outcomes.append("OK")
            except grpc.aio.AioRpcError as error:
                outcomes.append(reason_of(error)[1])
    return outcomes


async def http_creates(served: Served, forwarded: Sequence[str]) -> list[str]:
    outcomes = []
    async with httpx.AsyncClient(base_url=served.http, timeout=10) as http:
        for hop in forwarded:
            headers = {**JSON, "X-Forwarded-For": hop, "Forwarded": f"for={hop}"}
            reply = await http.post(CREATE, json={"game": "pinched", "seats": 2}, headers=headers)
            outcomes.append("OK" if reply.status_code == 200 else reason(reply))
    return outcomes


def fresh(prefix: str, count: int) -> list[str]:
    """``count`` different spoofed addresses."""
    return [f"{prefix}.{i}" for i in range(1, count + 1)]


async def test_a_spoofed_forwarded_header_changes_no_budget(redis_url: str, tmp_path: Path) -> None:
    """Without REFEREE_TRUSTED_PROXIES the headers are ignored: a new spoofed address per
    call still spends the one budget of the peer's address, on both faces."""
    with referee(redis_url, tmp_path) as served:
        assert (
            await grpc_creates(served, fresh("198.51.100", BUDGET + 2))
            == ["OK"] * BUDGET + ["CREATE_RATE_EXCEEDED"] * 2
        )
        assert await http_creates(served, fresh("203.0.113", 2)) == ["CREATE_RATE_EXCEEDED"] * 2


async def test_behind_a_trusted_proxy_each_forwarded_client_has_its_budget(
    redis_url: str, tmp_path: Path
) -> None:
    with referee(redis_url, tmp_path, REFEREE_TRUSTED_PROXIES="127.0.0.1, ::1") as served:
        alice = ["198.51.100.1"] * (BUDGET + 1)
        assert await grpc_creates(served, alice) == ["OK"] * BUDGET + ["CREATE_RATE_EXCEEDED"]
        assert await http_creates(served, alice[:1]) == ["CREATE_RATE_EXCEEDED"]  # hers, both faces
        bob = ["198.51.100.2"] * (BUDGET + 1)
        assert await http_creates(served, bob) == ["OK"] * BUDGET + ["CREATE_RATE_EXCEEDED"]
        # A client's own header is not believed: the last hop our proxy appended is.
        assert await grpc_creates(served, ["198.51.100.3, 198.51.100.2"]) == [
            "CREATE_RATE_EXCEEDED"
        ]


@contextlib.asynccontextmanager
async def tcp_proxy(target: str) -> AsyncIterator[str]:
    """A proxy on loopback that forwards bytes to ``target`` (as a sidecar does, minus
    the headers); yields its address."""
    host, port = target.rsplit(":", 1)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def forward(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(forward, "127.0.0.1", 0)
    async with server:
        yield f"127.0.0.1:{server.sockets[0].getsockname()[1]}"


async def test_a_create_flood_through_a_proxy_on_loopback_is_refused_once_its_budget_is_spent(
    redis_url: str, tmp_path: Path
) -> None:
    """The deployed default: loopback is an address like any other, so a flood that
    reaches the referee from a proxy on the same host spends one budget and is refused."""
    with referee(redis_url, tmp_path) as served:
        async with tcp_proxy(served.grpc) as proxy:
            outcomes = await grpc_creates(served, [""] * 20, address=proxy)
    assert outcomes.count("OK") == BUDGET
    assert outcomes.count("CREATE_RATE_EXCEEDED") == 20 - BUDGET
