"""The gRPC face: reads the caller's token from metadata and ends failed calls with a status.

A servicer is the generated base class with one method per row of an RPC table
(:mod:`service.rpcs`), each running its API method under :func:`service.calls.answering`
(limits, the call's log line, metrics); the one mapping of errors to statuses is
:func:`service.errors.to_rpc_status`.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar

import grpc
from google.protobuf.message import Message

from referee.v1 import referee_pb2_grpc
from service.api import RPCS
from service.auth import bearer_token
from service.calls import Counted, answering
from service.errors import RefereeError, to_rpc_status
from service.limits import peer_address, sent_key
from service.rpcs import Kind, Rpc, RpcTable, install

Context = grpc.aio.ServicerContext[Any, Any]
PROTOCOL = "grpc"


async def _abort(context: Context, error: RefereeError) -> None:
    """End the call with a rich status (grpc-stubs does not declare this aio method)."""
    await context.abort_with_status(to_rpc_status(error))  # type: ignore[attr-defined]


def token(context: Context) -> str | None:
    """The caller's seat (or tournament) token from the call's metadata."""
    return bearer_token(context.invocation_metadata())  # type: ignore[arg-type]


def admission(api: Counted, context: Context) -> Callable[[], object]:
    """Naming the call's caller to the limits: its peer address and operator key."""
    metadata = context.invocation_metadata()
    return functools.partial(api.limits.admit, peer_address(context.peer()), sent_key(metadata))  # type: ignore[arg-type]


def _unary(rpc: Rpc) -> Callable[..., Any]:
    async def method(self: Servicer, request: Message, context: Context) -> Message:
        try:
            async with answering(
                self.api.metrics, rpc.name, request, PROTOCOL, admission(self.api, context)
            ):
                response: Message = await rpc.call(self.api, request, token(context))
                return response
        except RefereeError as error:
            await _abort(context, error)
        raise AssertionError("unreachable: abort_with_status raises")

    return method


def _server_stream(rpc: Rpc) -> Callable[..., Any]:
    async def method(self: Servicer, request: Message, context: Context) -> AsyncIterator[Message]:
        try:
            async with answering(
                self.api.metrics, rpc.name, request, PROTOCOL, admission(self.api, context)
            ):
                async for item in rpc.call(self.api, request, token(context)):
                    yield item
        except RefereeError as error:
            await _abort(context, error)

    return method


def _bidi_stream(rpc: Rpc) -> Callable[..., Any]:
    async def method(
        self: Servicer, requests: AsyncIterator[Message], context: Context
    ) -> AsyncIterator[Message]:
        try:
            async with answering(
                self.api.metrics, rpc.name, None, PROTOCOL, admission(self.api, context)
            ):
                async for item in rpc.call(self.api, requests, token(context), PROTOCOL):
                    yield item
        except RefereeError as error:
            await _abort(context, error)

    return method


_METHODS = {Kind.UNARY: _unary, Kind.SERVER_STREAM: _server_stream, Kind.BIDI_STREAM: _bidi_stream}


class Servicer:
    """A servicer whose methods are its ``table``'s rows, answered by ``api``.

    A subclass names its table, the generated servicer base class it implements
    (``class RefereeServicer(Servicer, RefereeServiceServicer)``) and the generated function
    that adds it to a server: each RPC's method replaces the base's UNIMPLEMENTED one,
    under the RPC's own name.
    """

    table: ClassVar[RpcTable]
    add_to_server: ClassVar[Callable[[Any, grpc.aio.Server], None]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        install(cls, cls.table, _METHODS, lambda rpc: rpc.name)

    def __init__(self, api: Counted) -> None:
        self.api = api

    @classmethod
    def register(cls, api: Counted, server: grpc.aio.Server) -> None:
        """Serve every RPC of the table on ``server``, answered by ``api``."""
        cls.add_to_server(cls(api), server)


class RefereeServicer(Servicer, referee_pb2_grpc.RefereeServiceServicer):
    table = RPCS
    add_to_server = referee_pb2_grpc.add_RefereeServiceServicer_to_server
