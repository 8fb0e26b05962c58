"""A plain gRPC echo service, the baseline of ``bench.e2e``: ``python -m bench.echo --port 0``.

Two methods, defined without protoc: generic handlers with no (de)serializers, so requests
and responses are raw bytes. ``/bench.Echo/Echo`` is unary, the baseline of SubmitMove;
``/bench.Echo/EchoStream`` is a bidirectional stream that answers each request message
with one response message, in order, the baseline of Play (moves in, answers out on one
stream). ``--await-redis`` makes the unary echo await one Redis ``PING`` per call (the URL
from the environment variable ``ECHO_REDIS_URL``, never the command line: it carries the
password): the floor of any server that makes one awaited Redis round trip per call on
this machine (``bench.e2e --echo-redis``). A request's first four bytes (little-endian)
say how long its response must be; the server answers with that many bytes (cached), so
the baseline moves the same number of bytes each way as the measured referee traffic
while doing no work of its own. Same server options as the referee.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any

import grpc
from redis.asyncio import Redis

SERVICE = "bench.Echo"
METHOD = "Echo"
PATH = f"/{SERVICE}/{METHOD}"
STREAM_METHOD = "EchoStream"
STREAM_PATH = f"/{SERVICE}/{STREAM_METHOD}"
# The referee's transport limit (service.process.server.TRANSPORT_LIMIT), not imported on purpose:
# the baseline process must not load the referee.
TRANSPORT_LIMIT = 1024 * 1024
MAX_RESPONSE = 64 * 1024


def request_bytes(request_size: int, response_size: int) -> bytes:
    """A request of ``request_size`` bytes (at least 4) asking for ``response_size`` back."""
    if not 0 <= response_size <= MAX_RESPONSE:
        raise ValueError(f"response size must be 0..{MAX_RESPONSE}")
    header = response_size.to_bytes(4, "little")
    return header + b"x" * max(0, request_size - len(header))


_replies: dict[int, bytes] = {}


def reply_to(request: bytes) -> bytes:
    size = min(int.from_bytes(request[:4], "little"), MAX_RESPONSE)
    reply = _replies.get(size)
    if reply is None:
        reply = _replies[size] = b"y" * size
    return reply


async def echo(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
    return reply_to(request)


def echo_after_redis(client: Redis) -> Callable[..., Coroutine[Any, Any, bytes]]:
    """The unary echo, answering after one awaited ``PING`` on ``client``."""

    async def answer(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        await client.ping()
        return reply_to(request)

    return answer


async def echo_stream(
    requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[Any, Any]
) -> AsyncIterator[bytes]:
    """One response per request, in order, until the client closes its side."""
    async for request in requests:
        yield reply_to(request)


def handler(
    unary: Callable[..., Coroutine[Any, Any, bytes]] = echo,
) -> grpc.GenericRpcHandler[bytes, bytes]:
    return grpc.method_handlers_generic_handler(
        SERVICE,
        {
            METHOD: grpc.unary_unary_rpc_method_handler(unary),
            STREAM_METHOD: grpc.stream_stream_rpc_method_handler(echo_stream),
        },
    )


def method(channel: grpc.aio.Channel) -> grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]:
    """The client side of the echo method: bytes in, bytes out."""
    return channel.unary_unary(PATH, request_serializer=None, response_deserializer=None)


def stream_method(channel: grpc.aio.Channel) -> grpc.aio.StreamStreamMultiCallable[bytes, bytes]:
    """The client side of the streaming echo: open a call, then ``write`` a request and
    ``read`` its response as often as you like, on the one stream."""
    return channel.stream_stream(STREAM_PATH, request_serializer=None, response_deserializer=None)


async def serve(host: str, port: int, redis_url: str | None = None) -> None:
    client = None if redis_url is None else Redis.from_url(redis_url)
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", TRANSPORT_LIMIT),
            ("grpc.so_reuseport", 0),
        ]
    )
    server.add_generic_rpc_handlers(
        [handler() if client is None else handler(echo_after_redis(client))]
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"echo listening on {host}:{bound}", flush=True)
    await stop.wait()
    await server.stop(grace=1)
    if client is not None:
        await client.aclose()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 = any free port (printed)")
    parser.add_argument(
        "--await-redis", action="store_true", help="one PING per unary call (ECHO_REDIS_URL)"
    )
    args = parser.parse_args(argv)
    asyncio.run(
        serve(args.host, args.port, os.environ["ECHO_REDIS_URL"] if args.await_redis else None)
    )


if __name__ == "__main__":
    main()
