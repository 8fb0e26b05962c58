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
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from referee.v1.referee_connect import RefereeServiceASGIApplication
from service.api import RefereeApi
from service.calls import MAX_REQUEST_BYTES, MAX_VERIFY_BYTES
from service.http_api import RefereeConnect

OPENAPI = Path(__file__).with_name("openapi.json")
# Where `npm run build` in clients/console puts the console, beside this source tree.
CONSOLE_BUILD = Path(__file__).resolve().parents[1] / "clients" / "console" / "dist"
# The console talks only to this origin and loads nothing from elsewhere.
CONSOLE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

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
    "X-Referee-Key",
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


class _ConsoleFiles(StaticFiles):
    """The built console, with its security headers; the page itself is never cached (its
    assets have content hashes in their names, so they may be)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(CONSOLE_HEADERS)
        if not path.startswith("assets/"):
            response.headers["Cache-Control"] = "no-cache"
        return response


def console_routes(console_dir: Path | None) -> list[Route | Mount]:
    """``/console/`` (and redirects to it from ``/`` and ``/console``)."""
    directory = console_dir or CONSOLE_BUILD
    redirect = Route("/", lambda _: RedirectResponse("/console/"), methods=["GET"])
    bare = Route("/console", lambda _: RedirectResponse("/console/"), methods=["GET"])
    if not (directory / "index.html").is_file():

        async def missing(_request: Request) -> Response:
            return PlainTextResponse(
                f"The console is not built ({directory} has no index.html): run "
                "`npm ci && npm run build` in clients/console, which ./dev does.",
                status_code=404,
            )

        return [redirect, bare, Route("/console/{path:path}", missing, methods=["GET"])]
    return [redirect, bare, Mount("/console", app=_ConsoleFiles(directory=directory, html=True))]


def build_app(
    api: RefereeApi,
    cors_origins: Sequence[str] = (),
    mounts: Sequence[Mount] = (),
    *,
    console_dir: Path | None = None,
) -> Starlette:
    """The ASGI application of the HTTP port. ``cors_origins`` may hold ``"*"``; ``mounts``
    are further Connect services (TournamentService); the console is served from
    ``console_dir`` (default: the build beside this source tree)."""
    connect = RefereeServiceASGIApplication(
        RefereeConnect(api), read_max_bytes=MAX_REQUEST_BYTES * 4
    )
    # VerifyHistory reads whole games: its own instance, with a larger body limit. JSON is
    # 3-5 times the binary size and decoded on the event loop (pure-Python json_format, about
    # 0.2 s per MB: bench/console.py), so the limit is MAX_VERIFY_BYTES of either; a game too
    # long for that as JSON goes as binary, as the console sends it.
    verify = RefereeServiceASGIApplication(RefereeConnect(api), read_max_bytes=MAX_VERIFY_BYTES)
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
        Route(f"{verify.path}/VerifyHistory", verify, methods=["POST", "OPTIONS"]),
        Mount(connect.path, app=connect),
        *mounts,
        *console_routes(console_dir),
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
