"""The HTTP/JSON face: every RPC over the Connect protocol (connect-python), same API.

Unary calls are ``POST /referee.v1.RefereeService/<Method>`` with a JSON body in the
canonical proto3 JSON mapping (or binary protobuf); WatchGame is a Connect server stream.
Play is a Connect bidirectional stream: implemented here like every method, but it needs
HTTP/2, which the HTTP port (uvicorn, HTTP/1.1) does not speak, so callers use the gRPC port.
Like the gRPC face it only reads the token (the ``Authorization: Bearer`` header) and maps
a failed call to its status, through :func:`service.errors.to_connect_error`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.protobuf.message import Message

from referee.v1 import referee_pb2
from service.api import RefereeApi, answering
from service.auth import bearer_token
from service.errors import BadRequest, RefereeError, to_connect_error

Ctx = RequestContext[Any, Any]
Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)


def _token(ctx: Ctx) -> str | None:
    return bearer_token(tuple(ctx.request_headers().items()))


def _unary(
    rpc: str, call: Callable[[RefereeApi, Req, str | None], Awaitable[Resp]]
) -> Callable[[RefereeConnect, Req, Ctx], Coroutine[Any, Any, Resp]]:
    async def method(self: RefereeConnect, request: Req, ctx: Ctx) -> Resp:
        try:
            async with answering(self.api.metrics, rpc, request, "http"):
                return await call(self.api, request, _token(ctx))
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    return method


async def _create_game(
    api: RefereeApi, request: referee_pb2.CreateGameRequest, _token: str | None
) -> referee_pb2.CreateGameResponse:
    return await api.create_game(request)  # anyone may create a table


class RefereeConnect:
    """Implements the generated ``referee_connect.RefereeService`` protocol."""

    def __init__(self, api: RefereeApi) -> None:
        self.api = api

    create_game = _unary("CreateGame", _create_game)
    get_view = _unary("GetView", RefereeApi.get_view)
    list_legal_moves = _unary("ListLegalMoves", RefereeApi.list_legal_moves)
    submit_move = _unary("SubmitMove", RefereeApi.submit_move)
    validate_move = _unary("ValidateMove", RefereeApi.validate_move)
    get_history = _unary("GetHistory", RefereeApi.get_history)

    async def watch_game(
        self, request: referee_pb2.WatchGameRequest, ctx: Ctx
    ) -> AsyncIterator[referee_pb2.WatchGameResponse]:
        try:
            async with answering(self.api.metrics, "WatchGame", request, "http"):
                async for update in self.api.watch_game(request, _token(ctx)):
                    yield update
        except RefereeError as error:
            raise to_connect_error(error) from None

    async def play(
        self, request: AsyncIterator[referee_pb2.PlayRequest], ctx: Ctx
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        try:
            async with answering(self.api.metrics, "Play", referee_pb2.PlayRequest(), "http"):
                async for response in self.api.play(_parsed(request), _token(ctx), "http"):
                    yield response
        except RefereeError as error:
            raise to_connect_error(error) from None


async def _parsed(
    requests: AsyncIterator[referee_pb2.PlayRequest],
) -> AsyncIterator[referee_pb2.PlayRequest]:
    """A stream's requests; one connect-python cannot parse is the client's error (400)."""
    try:
        async for request in requests:
            yield request
    except ConnectError as error:
        raise BadRequest("REQUEST_MALFORMED", error.message) from None
