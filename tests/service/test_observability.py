"""Metrics an operator scrapes, and traces of an RPC through Redis (both opt-in)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import socket
import urllib.request
from pathlib import Path

import grpc
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from referee.v1 import referee_pb2
from service.edge.observability import start_tracing, stop_tracing
from service.process.server import running
from tests.servers import settings_for
from tests.service.table import COLOURS, Stub, Table, take


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_metrics_endpoint_counts_moves_conflicts_streams_and_redis(
    redis_url: str, tmp_path: Path
) -> None:
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), metrics_port=_free_port())
    async with (
        running(settings) as server,
        grpc.aio.insecure_channel(server.address) as channel,
    ):
        stub = Stub(channel)
        table = await Table.create(stub, 3)
        await table.submit(0, take(COLOURS[0], 1))
        with contextlib.suppress(grpc.aio.AioRpcError):
            await table.submit(0, take(COLOURS[1], 1))  # refused: not this round's colour
        stream = stub.WatchGame(
            referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=table.md(1)
        )
        await stream.read()
        url = f"http://127.0.0.1:{server.metrics_port}/metrics"
        text = (await asyncio.to_thread(urllib.request.urlopen, url)).read().decode()
        stream.cancel()
    assert 'referee_moves_total{code="OK",game="the_gang",reason=""} 1.0' in text
    assert (
        'referee_moves_total{code="FAILED_PRECONDITION",game="the_gang",'
        'reason="CHIP_NOT_IN_PLAY"} 1.0'
    ) in text
    assert 'referee_rpc_duration_seconds_count{code="OK",rpc="CreateGame"} 1.0' in text
    assert "referee_watch_streams 1.0" in text
    assert 'referee_redis_duration_seconds_count{operation="commit"} 1.0' in text
    assert "referee_cas_conflicts_total 0.0" in text


async def test_tracing_follows_an_rpc_into_redis(redis_url: str, tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    start_tracing("console", exporter)
    try:
        async with (
            running(settings_for(redis_url, tmp_path)) as server,
            grpc.aio.insecure_channel(server.address) as channel,
        ):
            table = await Table.create(Stub(channel), 3)
            await table.submit(0, take(COLOURS[0], 1))
    finally:
        stop_tracing()
    names = [span.name for span in exporter.get_finished_spans()]
    assert "/referee.v1.RefereeService/SubmitMove" in names
    assert any(name.startswith("EVALSHA") for name in names), names
