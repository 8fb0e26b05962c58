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
from service.api import Counted, RefereeApi, answering
from service.auth import bearer_token
from service.errors import BadRequest, RefereeError, to_connect_error

Ctx = RequestContext[Any, Any]
Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)


Api = TypeVar("Api", bound=Counted)


def token(ctx: Ctx) -> str | None:
    """The caller's token from the ``Authorization: Bearer`` header."""
    return bearer_token(tuple(ctx.request_headers().items()))


def unary(
    rpc: str, call: Callable[[Api, Req, str | None], Awaitable[Resp]]
) -> Callable[[Any, Req, Ctx], Coroutine[Any, Any, Resp]]:
    """A Connect method (of a class with an ``api``) answering ``call``'s result."""

    async def method(self: Any, request: Req, ctx: Ctx) -> Resp:
        api: Api = self.api
        try:
            async with answering(api.metrics, rpc, request, "http"):
                return await call(api, request, token(ctx))
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    return method


def server_stream(
    rpc: str, call: Callable[[Api, Req, str | None], AsyncIterator[Resp]]
) -> Callable[[Any, Req, Ctx], AsyncIterator[Resp]]:
    """A Connect server-streaming method (of a class with an ``api``) relaying ``call``."""

    async def method(self: Any, request: Req, ctx: Ctx) -> AsyncIterator[Resp]:
        api: Api = self.api
        try:
            async with answering(api.metrics, rpc, request, "http"):
                async for item in call(api, request, token(ctx)):
                    yield item
        except RefereeError as error:
            raise to_connect_error(error) from None

    return method


async def _create_game(
    api: RefereeApi, request: referee_pb2.CreateGameRequest, _token: str | None
) -> referee_pb2.CreateGameResponse:
    return await api.create_game(request)  # anyone may create a table


class RefereeConnect:
    """Implements the generated ``referee_connect.RefereeService`` protocol."""

    def __init__(self, api: RefereeApi) -> None:
        self.api = api

    create_game = unary("CreateGame", _create_game)
    get_view = unary("GetView", RefereeApi.get_view)
    list_legal_moves = unary("ListLegalMoves", RefereeApi.list_legal_moves)
    submit_move = unary("SubmitMove", RefereeApi.submit_move)
    validate_move = unary("ValidateMove", RefereeApi.validate_move)
    get_history = unary("GetHistory", RefereeApi.get_history)
    verify_history = unary("VerifyHistory", RefereeApi.verify_history)
    watch_game = server_stream("WatchGame", RefereeApi.watch_game)

    async def play(
        self, request: AsyncIterator[referee_pb2.PlayRequest], ctx: Ctx
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        try:
            async with answering(self.api.metrics, "Play", referee_pb2.PlayRequest(), "http"):
                async for response in self.api.play(_parsed(request), token(ctx), "http"):
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
