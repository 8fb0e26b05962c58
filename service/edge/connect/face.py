"""The HTTP/JSON face: every RPC over the Connect protocol (connect-python), same API.

Unary calls are ``POST /referee.v1.RefereeService/<Method>`` with a JSON body in the
canonical proto3 JSON mapping (or binary protobuf); WatchGame is a Connect server stream.
Play is a Connect bidirectional stream: implemented here like every method, but it needs
HTTP/2, which the HTTP port (uvicorn, HTTP/1.1) does not speak, so callers use the gRPC port.
Like the gRPC face it is built from the RPC table (:mod:`service.edge.rpcs`), only reads the
token (the ``Authorization: Bearer`` header) and maps a failed call to its status, through
:func:`service.errors.to_connect_error`.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar

from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.protobuf.message import Message
from starlette.routing import Mount

from referee.v1.lobby_connect import LobbyService, LobbyServiceASGIApplication
from referee.v1.ratings_connect import RatingService, RatingServiceASGIApplication
from referee.v1.referee_connect import RefereeService
from service.domain.auth import bearer_token
from service.edge import lobby_api, ratings_api
from service.edge.api import RPCS
from service.edge.calls import MAX_REQUEST_BYTES, Counted, answering
from service.edge.connect.limits import BoundedGzip
from service.edge.rpcs import Kind, Rpc, RpcTable, install
from service.errors import BadRequest, RefereeError, to_connect_error

Ctx = RequestContext[Any, Any]
PROTOCOL = "http"


def token(ctx: Ctx) -> str | None:
    """The caller's token from the ``Authorization: Bearer`` header."""
    return bearer_token(tuple(ctx.request_headers().items()))


def admission(api: Counted, ctx: Ctx) -> Callable[[], object]:
    """Naming the call's caller to the limits: the client's address and operator key."""
    headers = tuple(ctx.request_headers().allitems())  # every line of a repeated header
    return functools.partial(api.limits.admit_call, ctx.client_address(), headers)


def _unary(rpc: Rpc) -> Callable[..., Any]:
    async def method(self: ConnectService, request: Message, ctx: Ctx) -> Message:
        try:
            async with answering(
                self.api.metrics, rpc.name, request, PROTOCOL, admission(self.api, ctx)
            ):
                response: Message = await rpc.call(self.api, request, token(ctx))
                return response
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    return method


def _server_stream(rpc: Rpc) -> Callable[..., Any]:
    async def method(self: ConnectService, request: Message, ctx: Ctx) -> AsyncIterator[Message]:
        try:
            async with answering(
                self.api.metrics, rpc.name, request, PROTOCOL, admission(self.api, ctx)
            ):
                async for item in rpc.call(self.api, request, token(ctx)):
                    yield item
        except RefereeError as error:
            raise to_connect_error(error) from None

    return method


def _bidi_stream(rpc: Rpc) -> Callable[..., Any]:
    async def method(
        self: ConnectService, requests: AsyncIterator[Message], ctx: Ctx
    ) -> AsyncIterator[Message]:
        try:
            async with answering(
                self.api.metrics, rpc.name, None, PROTOCOL, admission(self.api, ctx)
            ):
                async for item in rpc.call(self.api, _parsed(requests), token(ctx), PROTOCOL):
                    yield item
        except RefereeError as error:
            raise to_connect_error(error) from None

    return method


async def _parsed(requests: AsyncIterator[Message]) -> AsyncIterator[Message]:
    """A stream's requests; one connect-python cannot parse is the client's error (400)."""
    try:
        async for request in requests:
            yield request
    except ConnectError as error:
        raise BadRequest("MALFORMED_REQUEST", error.message) from None


_METHODS = {Kind.UNARY: _unary, Kind.SERVER_STREAM: _server_stream, Kind.BIDI_STREAM: _bidi_stream}


class ConnectService:
    """A Connect service whose methods are its ``table``'s rows, answered by ``api``.

    A subclass names its table and the generated Connect protocol it implements
    (``class RefereeConnect(ConnectService, RefereeService)``): each RPC's method, under
    its snake_case name, replaces the protocol's UNIMPLEMENTED one.
    """

    table: ClassVar[RpcTable]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        install(cls, cls.table, _METHODS, lambda rpc: rpc.snake_name)

    def __init__(self, api: Counted) -> None:
        self.api = api


class RefereeConnect(ConnectService, RefereeService):
    """Implements the generated ``referee_connect.RefereeService`` protocol."""

    table = RPCS


class LobbyConnect(ConnectService, LobbyService):
    """Implements the generated ``lobby_connect.LobbyService`` protocol."""

    table = lobby_api.RPCS


def lobby_mount(api: lobby_api.LobbyApi) -> Mount:
    """The route of the HTTP port that serves LobbyService."""
    app = LobbyServiceASGIApplication(
        LobbyConnect(api),
        read_max_bytes=MAX_REQUEST_BYTES * 4,
        compressions=[BoundedGzip(MAX_REQUEST_BYTES)],  # a gzip bomb inflates no further
    )
    return Mount(app.path, app=app)


class RatingConnect(ConnectService, RatingService):
    """Implements the generated ``ratings_connect.RatingService`` protocol."""

    table = ratings_api.RPCS


def ratings_mount(api: ratings_api.RatingApi) -> Mount:
    """The route of the HTTP port that serves RatingService."""
    app = RatingServiceASGIApplication(
        RatingConnect(api),
        read_max_bytes=MAX_REQUEST_BYTES * 4,
        compressions=[BoundedGzip(MAX_REQUEST_BYTES)],  # a gzip bomb inflates no further
    )
    return Mount(app.path, app=app)
