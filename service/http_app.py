"""The HTTP port: the Connect (HTTP/JSON) face, its OpenAPI document, CORS, served by uvicorn.

Starlette routes and applies CORS; uvicorn serves it inside the referee's own event loop,
beside the gRPC server, so both faces share one process, one store and one watch feed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import uvicorn
from connectrpc import _codec
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route

from referee.v1.referee_connect import RefereeServiceASGIApplication
from service.api import MAX_REQUEST_BYTES, RefereeApi
from service.http_api import RefereeConnect

OPENAPI = Path(__file__).with_name("openapi.json")

# What a browser needs to call a Connect service across origins (connectrpc.com/docs/cors).
CORS_ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "Connect-Protocol-Version",
    "Connect-Timeout-Ms",
    "Connect-Accept-Encoding",
    "Connect-Content-Encoding",
    "Accept-Encoding",
    "Content-Encoding",
    "X-User-Agent",
]
CORS_EXPOSE_HEADERS = ["Content-Encoding", "Connect-Content-Encoding", "Date"]


class _RequestJson(_codec.ProtoJSONCodec):  # type: ignore[type-arg]
    """proto3 JSON whose parse errors are the client's (INVALID_ARGUMENT, HTTP 400)."""

    def decode(self, data: bytes | bytearray, message: Message) -> Message:
        try:
            json_format.Parse(bytes(data), message)
        except (json_format.ParseError, UnicodeDecodeError) as error:
            raise ConnectError(Code.INVALID_ARGUMENT, f"malformed JSON request: {error}") from None
        return message


class _RequestProto(_codec.ProtoBinaryCodec):  # type: ignore[type-arg]
    """Binary protobuf whose parse errors are the client's (INVALID_ARGUMENT, HTTP 400)."""

    def decode(self, data: bytes | bytearray, message: Message) -> Message:
        try:
            message.ParseFromString(bytes(data))
        except DecodeError as error:
            raise ConnectError(Code.INVALID_ARGUMENT, f"malformed request: {error}") from None
        return message


# connect-python 0.9 turns a request it cannot parse into `unknown` (HTTP 500) and has no
# public way to choose codecs, so its registry gets these two. Encoding is unchanged.
_codec._codecs.update(
    {
        _codec.CODEC_NAME_PROTO: _RequestProto(),
        _codec.CODEC_NAME_JSON: _RequestJson(),
        _codec.CODEC_NAME_JSON_CHARSET_UTF8: _RequestJson(),
    }
)


async def _openapi(_request: Request) -> Response:
    return FileResponse(OPENAPI, media_type="application/json")


def build_app(
    api: RefereeApi, cors_origins: Sequence[str] = (), mounts: Sequence[Mount] = ()
) -> Starlette:
    """The ASGI application of the HTTP port. ``cors_origins`` may hold ``"*"``; ``mounts``
    are further Connect services (TournamentService)."""
    connect = RefereeServiceASGIApplication(
        RefereeConnect(api), read_max_bytes=MAX_REQUEST_BYTES * 4
    )
    middleware = []
    if cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=CORS_ALLOW_HEADERS,
                expose_headers=CORS_EXPOSE_HEADERS,
                max_age=7200,
            )
        )
    routes = [
        Route("/openapi.json", _openapi, methods=["GET"]),
        Mount(connect.path, app=connect),
        *mounts,
    ]
    return Starlette(routes=routes, middleware=middleware)


class _EmbeddedServer(uvicorn.Server):
    """uvicorn without its own signal handling: `referee serve` owns SIGTERM and SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.asynccontextmanager
async def serving_http(app: Starlette, host: str, port: int) -> AsyncIterator[int]:
    """Serve ``app`` on ``host:port`` (0: a free port) until the block exits; yields the port.

    uvicorn binds the port itself: asyncio sets TCP_NODELAY only on sockets it knows are
    TCP, and a keep-alive client would otherwise wait out a delayed ACK (40 ms) per call.
    """
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="off",
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=2,
    )
    server = _EmbeddedServer(config)
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        task.result()
        raise RuntimeError(f"the HTTP server did not start on {host}:{port}")
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task
