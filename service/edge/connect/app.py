"""The HTTP port: the Connect (HTTP/JSON) face, its OpenAPI document, CORS, served by uvicorn.

Starlette routes and applies CORS; uvicorn serves it inside the referee's own event loop,
beside the gRPC server, so both faces share one process, one store and one watch feed.
uvicorn's h11 protocol gets the limits uvicorn lacks (:class:`HttpLimits`): a connection
cap, and deadlines for a request's headers and body, so idle and half-sent connections
(slowloris) cannot hold the port or the process's file descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import resource
import socket
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import h11
import structlog
import uvicorn
from connectrpc import _codec
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
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.v1.referee_connect import RefereeServiceASGIApplication
from service.edge.api import RPCS, RefereeApi
from service.edge.calls import MAX_REQUEST_BYTES, MAX_VERIFY_BYTES
from service.edge.connect.encoded import EncodedConnect, encoded_from, encoded_to
from service.edge.connect.face import RefereeConnect
from service.edge.connect.limits import BoundedGzip, Capped
from service.edge.encoded import JSON, PROTO, Encoded
from service.errors import BadRequest, excerpt, to_connect_error
from service.settings import Settings

log = structlog.get_logger("referee.http")

OPENAPI = Path(__file__).resolve().parent.parent / "openapi.json"
# Where `npm run build` in clients/console puts the console, beside this source tree.
CONSOLE_BUILD = Path(__file__).resolve().parents[3] / "clients" / "console" / "dist"
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
    """proto3 JSON whose parse errors are the client's (``MALFORMED_REQUEST``); an encoded
    RPC's body and answer pass as bytes (:mod:`service.edge.connect.encoded`)."""

    def decode(self, data: bytes | bytearray, message: Message | Encoded) -> Message | Encoded:
        if isinstance(message, Encoded):
            return encoded_from(data, message, JSON)
        try:
            json_format.Parse(bytes(data), message)
        except (json_format.ParseError, UnicodeDecodeError) as error:
            raise _malformed("malformed JSON request", error) from None
        return message

    def encode(self, message: Message | Encoded) -> bytes:
        return encoded_to(message) if isinstance(message, Encoded) else super().encode(message)


class _RequestProto(_codec.ProtoBinaryCodec):  # type: ignore[type-arg]
    """Binary protobuf whose parse errors are the client's (``MALFORMED_REQUEST``); an
    encoded RPC's body and answer pass as bytes (:mod:`service.edge.connect.encoded`)."""

    def decode(self, data: bytes | bytearray, message: Message | Encoded) -> Message | Encoded:
        if isinstance(message, Encoded):
            return encoded_from(data, message, PROTO)
        try:
            message.ParseFromString(bytes(data))
        except DecodeError as error:
            raise _malformed("malformed request", error) from None
        return message

    def encode(self, message: Message | Encoded) -> bytes:
        return encoded_to(message) if isinstance(message, Encoded) else super().encode(message)


def _malformed(what: str, error: Exception) -> ConnectError:
    # The parser's message may quote the body (an unknown field's name): only its start.
    return to_connect_error(BadRequest("MALFORMED_REQUEST", f"{what}: {excerpt(str(error))}"))


# connect-python 0.9 turns a request it cannot parse into `unknown` (HTTP 500) and has no
# public way to choose codecs, so its registry gets these two. Encoding is unchanged but
# for the encoded RPCs.
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
    # Every body is capped before it is parsed, JSON far lower than binary, and once
    # inflated too (service.edge.connect.limits). VerifyHistory, which carries whole games, has the
    # higher caps and its own instance, which leaves its body unparsed and compressed for
    # the worker that replays it (service.edge.connect.encoded).
    connect = RefereeServiceASGIApplication(
        RefereeConnect(api),
        read_max_bytes=MAX_REQUEST_BYTES * 4,
        compressions=[BoundedGzip(MAX_REQUEST_BYTES)],
    )
    verify = EncodedConnect(RefereeConnect(api), RPCS, read_max_bytes=MAX_VERIFY_BYTES)
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
        *(Route(path, Capped(verify), methods=["POST", "OPTIONS"]) for path in verify.paths),
        Mount(connect.path, app=Capped(connect)),
        *(Mount(mount.path, app=Capped(mount.app)) for mount in mounts),
        *console_routes(console_dir),
    ]
    return Starlette(routes=routes, middleware=middleware)


# Connections the accept loop may take in one pass (and the listen queue): each is an open
# descriptor until its protocol runs, so the cap can be over by this much for a moment.
HTTP_BACKLOG = 128
# Descriptors kept for everything else (gRPC, Redis, files) when the cap is checked
# against the process's limit.
FD_RESERVE = 64
# What a connection whose headers came too slowly is told before it is closed.
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


@dataclasses.dataclass(frozen=True)
class HttpLimits:
    """What one client may hold of the HTTP port (the settings ``http_*``)."""

    keep_alive_seconds: float  # an idle connection, before or between requests, is closed
    header_seconds: float  # from a request's first byte to the end of its headers
    body_seconds: float  # from the end of the headers to the end of the body
    max_connections: int  # open at once; the next are closed as soon as they are accepted

    @classmethod
    def of(cls, settings: Settings) -> HttpLimits:
        return cls(
            settings.http_keep_alive_seconds,
            settings.http_header_timeout_seconds,
            settings.http_body_timeout_seconds,
            settings.http_max_connections,
        )


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the soft limit.

    The HTTP connection cap is checked against it (:func:`connections_within`)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # e.g. an unlimited hard limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connections_within(max_connections: int) -> int:
    """The connection cap, lowered (with a warning) so that the connections, the accept
    backlog and :data:`FD_RESERVE` fit in the process's limit of open files."""
    open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if open_files == resource.RLIM_INFINITY:
        return max_connections
    room = open_files - HTTP_BACKLOG - FD_RESERVE
    if max_connections <= room:
        return max_connections
    lowered = max(room, 1)
    log.warning(
        "http connection cap lowered to fit the open files limit",
        configured=max_connections,
        cap=lowered,
        open_files=open_files,
    )
    return lowered


class _LimitedConfig(uvicorn.Config):
    """uvicorn's configuration, carrying the limits to each connection's protocol."""

    def __init__(self, app: Starlette, limits: HttpLimits, **options: Any) -> None:
        super().__init__(
            app,
            http=_LimitedH11Protocol,
            ws="none",
            backlog=HTTP_BACKLOG,
            **options,
        )
        self.limits = limits


class _LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a connection cap and deadlines for requests.

    uvicorn closes a connection idle *between* requests (keep-alive), but not one idle
    before its first request, nor one that sends its headers or body a byte at a time (its
    keep-alive timer restarts at every byte). Here: an idle connection is closed after the
    keep-alive time from its start too; a request's headers must be complete within
    ``header_seconds`` of its first byte (else 408 and close), its body within
    ``body_seconds`` of its headers (else close). Only reading a request is timed: a
    long response (a WatchGame stream) is not.
    """

    config: _LimitedConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.config.limits.keep_alive_seconds  # type: ignore[assignment]
        self._refused = False
        self._reading: str | None = None  # "headers" or "body" while a deadline runs
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        limits = self.config.limits
        if len(self.connections) >= limits.max_connections:
            self._refused = True
            transport.abort()
            log.warning(
                "http connection refused", reason="HTTP_CONNECTION_CAP", cap=limits.max_connections
            )
            return
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.IDLE:  # a request has begun and its headers are not all here
            self._start_deadline("headers", self.config.limits.header_seconds)
        elif state is h11.SEND_BODY:
            self._start_deadline("body", self.config.limits.body_seconds)
        else:
            self._stop_deadline()

    def _start_deadline(self, reading: str, seconds: float) -> None:
        if self._reading == reading or self.transport.is_closing():
            return
        self._stop_deadline()
        self._reading = reading
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._reading = None

    def _too_slow(self) -> None:
        reading, self._deadline = self._reading, None
        if self.transport.is_closing():
            return
        if reading == "headers":
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()
        reason = "HTTP_HEADER_TIMEOUT" if reading == "headers" else "HTTP_BODY_TIMEOUT"
        log.warning("http request too slow", reason=reason)


def reusable_socket(host: str, port: int, backlog: int | None = None) -> socket.socket:
    """A TCP socket bound to ``host:port`` with SO_REUSEPORT, listening if ``backlog`` is
    given. Its protocol is named (IPPROTO_TCP), as asyncio wants before it sets TCP_NODELAY
    on the connections it accepts."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        if backlog is not None:
            sock.listen(backlog)
            sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


class _EmbeddedServer(uvicorn.Server):
    """uvicorn without its own signal handling: `referee serve` owns SIGTERM and SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.asynccontextmanager
async def serving_http(
    app: Starlette, host: str, port: int, limits: HttpLimits, *, reuse_port: bool = False
) -> AsyncIterator[int]:
    """Serve ``app`` on ``host:port`` (0: a free port) until the block exits; yields the port.

    uvicorn binds the port itself: asyncio sets TCP_NODELAY only on sockets it knows are
    TCP, and a keep-alive client would otherwise wait out a delayed ACK (40 ms) per call.
    With ``reuse_port`` (the workers of `referee serve --workers N`, which share the port)
    the socket is bound here with SO_REUSEPORT, and made as a TCP socket
    (:func:`reusable_socket`) so that asyncio still sets TCP_NODELAY.
    """
    limits = dataclasses.replace(limits, max_connections=connections_within(limits.max_connections))
    config = _LimitedConfig(
        app,
        limits,
        host=host,
        port=port,
        lifespan="off",
        # uvicorn would believe X-Forwarded-For from loopback peers and rewrite the client's
        # address; only service.domain.proxies reads it, from REFEREE_TRUSTED_PROXIES.
        proxy_headers=False,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=2,
    )
    server = _EmbeddedServer(config)
    sockets = [reusable_socket(host, port, HTTP_BACKLOG)] if reuse_port else None
    task = asyncio.create_task(server.serve(sockets))
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
