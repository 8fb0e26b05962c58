"""Metrics (Prometheus) and tracing (OpenTelemetry), both from their maintained libraries.

:class:`Metrics` owns one registry per referee (several referees may share a process in
tests) and is served on its own port by prometheus-client's HTTP server. Tracing is off
by default; when on, the official gRPC and Redis instrumentations trace every RPC through
its Redis calls.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rpc_seconds = Histogram(
            "referee_rpc_duration_seconds",
            "RPC latency by method and gRPC status code.",
            ["rpc", "code"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.moves = Counter(
            "referee_moves_total",
            "SubmitMove calls by game and result (gRPC code, or OK).",
            ["game", "code", "reason"],
            registry=self.registry,
        )
        self.conflicts = Counter(
            "referee_cas_conflicts_total",
            "Commits refused by Redis because another process moved first.",
            registry=self.registry,
        )
        self.retries = Counter(
            "referee_move_retries_total",
            "Moves decided again on a fresh load (stale copy or conflict).",
            registry=self.registry,
        )
        self.redis_seconds = Histogram(
            "referee_redis_duration_seconds",
            "Redis round-trip time by store operation.",
            ["operation"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.watch_streams = Gauge(
            "referee_watch_streams", "Open WatchGame streams.", registry=self.registry
        )

        # Metric children by label values: ``labels()`` costs a lock and a tuple per call,
        # and the label values repeat (rpc x code, game x code x reason, operation).
        self._rpc_children: dict[tuple[str, str], Histogram] = {}
        self._move_children: dict[tuple[str, str, str], Counter] = {}
        self._redis_children: dict[str, Histogram] = {}

    def observe_rpc(self, rpc: str, code: str, seconds: float) -> None:
        key = (rpc, code)
        child = self._rpc_children.get(key)
        if child is None:
            child = self._rpc_children[key] = self.rpc_seconds.labels(rpc, code)
        child.observe(seconds)

    def count_move(self, game: str, code: str, reason: str) -> None:
        key = (game, code, reason)
        child = self._move_children.get(key)
        if child is None:
            child = self._move_children[key] = self.moves.labels(game, code, reason)
        child.inc()

    def count_conflict(self) -> None:
        self.conflicts.inc()

    def count_retry(self) -> None:
        self.retries.inc()

    def observe_redis(self, operation: str, seconds: float) -> None:
        child = self._redis_children.get(operation)
        if child is None:
            child = self._redis_children[operation] = self.redis_seconds.labels(operation)
        child.observe(seconds)

    def watch_streams_from(self, count: Callable[[], int]) -> None:
        self.watch_streams.set_function(count)

    @contextlib.contextmanager
    def serving(self, host: str, port: int) -> Iterator[int]:
        """The /metrics endpoint on ``port`` while the block runs (0: not served)."""
        if port == 0:
            yield 0
            return
        server, thread = start_http_server(port, addr=host, registry=self.registry)
        try:
            yield int(server.server_port)
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)


_tracing_on = False


def start_tracing(mode: str, exporter: object | None = None) -> None:
    """Instrument grpc.aio servers and redis clients; ``mode`` is "otlp" or "console".

    Call before the gRPC server is created. ``exporter`` overrides the mode's exporter
    (tests pass an in-memory one). Instrumentation is process-wide and done once.
    """
    global _tracing_on
    if _tracing_on:
        return
    from opentelemetry import trace
    from opentelemetry.instrumentation.grpc import GrpcAioInstrumentorServer
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        ConsoleSpanExporter,
        SimpleSpanProcessor,
        SpanExporter,
    )

    name = os.environ.get("OTEL_SERVICE_NAME", "referee")
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    if isinstance(exporter, SpanExporter):
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    elif mode == "console":
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    elif mode == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        raise ValueError(f"unknown tracing mode {mode!r}: use off, otlp or console")
    trace.set_tracer_provider(provider)
    GrpcAioInstrumentorServer().instrument()  # type: ignore[no-untyped-call]
    RedisInstrumentor().instrument()
    _tracing_on = True


def stop_tracing() -> None:
    """Remove the instrumentation again (tests; a server keeps it for its lifetime)."""
    global _tracing_on
    if not _tracing_on:
        return
    from opentelemetry.instrumentation.grpc import GrpcAioInstrumentorServer
    from opentelemetry.instrumentation.redis import RedisInstrumentor

    GrpcAioInstrumentorServer().uninstrument()  # type: ignore[no-untyped-call]
    RedisInstrumentor().uninstrument()
    _tracing_on = False
