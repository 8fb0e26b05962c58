"""The gRPC face: reads the caller's token from metadata and ends failed calls with a status.

Everything else (checks, logging, translation) is :class:`service.api.RefereeApi`; the
one mapping of errors to statuses is :func:`service.errors.to_rpc_status`.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol, TypeVar

import grpc
from google.protobuf.message import Message

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.api import Counted, RefereeApi, answering
from service.auth import bearer_token
from service.errors import RefereeError, to_rpc_status

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)
Context = grpc.aio.ServicerContext[Any, Any]
Servicer = TypeVar("Servicer", bound="Face")


class Face(Protocol):
    """A servicer of either service: it translates for an API."""

    @property
    def api(self) -> Counted: ...


async def _abort(context: Context, error: RefereeError) -> None:
    """End the call with a rich status (grpc-stubs does not declare this aio method)."""
    await context.abort_with_status(to_rpc_status(error))  # type: ignore[attr-defined]


def edge(
    method: Callable[[Servicer, Req, Context], Awaitable[Resp]],
) -> Callable[[Servicer, Req, Context], Awaitable[Resp]]:
    @functools.wraps(method)
    async def wrapper(self: Servicer, request: Req, context: Context) -> Resp:
        try:
            async with answering(self.api.metrics, method.__name__, request, "grpc"):
                return await method(self, request, context)
        except RefereeError as error:
            await _abort(context, error)
        raise AssertionError("unreachable: abort_with_status raises")

    return wrapper


def edge_stream(
    method: Callable[[Servicer, Req, Context], AsyncIterator[Resp]],
) -> Callable[[Servicer, Req, Context], AsyncIterator[Resp]]:
    @functools.wraps(method)
    async def wrapper(self: Servicer, request: Req, context: Context) -> AsyncIterator[Resp]:
        try:
            async with answering(self.api.metrics, method.__name__, request, "grpc"):
                async for item in method(self, request, context):
                    yield item
        except RefereeError as error:
            await _abort(context, error)

    return wrapper


def token(context: Context) -> str | None:
    """The caller's seat (or tournament) token from the call's metadata."""
    return bearer_token(context.invocation_metadata())  # type: ignore[arg-type]


class RefereeServicer(referee_pb2_grpc.RefereeServiceServicer):
    def __init__(self, api: RefereeApi) -> None:
        self.api = api

    @edge
    async def CreateGame(
        self, request: referee_pb2.CreateGameRequest, context: Context
    ) -> referee_pb2.CreateGameResponse:
        return await self.api.create_game(request)

    @edge
    async def GetView(
        self, request: referee_pb2.GetViewRequest, context: Context
    ) -> referee_pb2.GetViewResponse:
        return await self.api.get_view(request, token(context))

    @edge
    async def ListLegalMoves(
        self, request: referee_pb2.ListLegalMovesRequest, context: Context
    ) -> referee_pb2.ListLegalMovesResponse:
        return await self.api.list_legal_moves(request, token(context))

    @edge
    async def SubmitMove(
        self, request: referee_pb2.SubmitMoveRequest, context: Context
    ) -> referee_pb2.SubmitMoveResponse:
        return await self.api.submit_move(request, token(context))

    @edge
    async def ValidateMove(
        self, request: referee_pb2.ValidateMoveRequest, context: Context
    ) -> referee_pb2.ValidateMoveResponse:
        return await self.api.validate_move(request, token(context))

    @edge_stream
    async def WatchGame(
        self, request: referee_pb2.WatchGameRequest, context: Context
    ) -> AsyncIterator[referee_pb2.WatchGameResponse]:
        async for update in self.api.watch_game(request, token(context)):
            yield update

    async def Play(
        self, request_iterator: AsyncIterator[referee_pb2.PlayRequest], context: Context
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        try:
            async with answering(self.api.metrics, "Play", referee_pb2.PlayRequest(), "grpc"):
                async for response in self.api.play(request_iterator, token(context), "grpc"):
                    yield response
        except RefereeError as error:
            await _abort(context, error)

    @edge
    async def GetHistory(
        self, request: referee_pb2.GetHistoryRequest, context: Context
    ) -> referee_pb2.GetHistoryResponse:
        return await self.api.get_history(request, token(context))

    @edge
    async def VerifyHistory(
        self, request: referee_pb2.VerifyHistoryRequest, context: Context
    ) -> referee_pb2.VerifyHistoryResponse:
        return await self.api.verify_history(request, token(context))
