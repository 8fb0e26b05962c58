"""The gRPC face: reads the caller's token from metadata and ends failed calls with a status.

A servicer is the generated base class with one method per row of an RPC table
(:mod:`service.edge.rpcs`), each running its API method under :func:`service.edge.calls.answering`
(limits, the call's log line, metrics); the one mapping of errors to statuses is
:func:`service.errors.to_rpc_status`.

The servicer's handlers are registered here, not by the generated ``add_*_to_server``:
grpc parses a request before any servicer code runs, and the generated handlers let a
:class:`~google.protobuf.message.DecodeError` escape as ``UNKNOWN "Unexpected <class
DecodeError>"``. Ours parse with :func:`_lenient`, which never raises: a request that does
not parse reaches the method as :class:`service.edge.calls.Malformed`, refused by
:func:`service.edge.calls.answering` with INVALID_ARGUMENT ``MALFORMED_REQUEST`` like any bad
request (logged and counted). An RPC whose row is ``encoded`` (VerifyHistory) is not parsed
at all: its bytes reach the method as :class:`service.edge.encoded.Encoded`, for a worker
process to parse, and its answer's bytes leave as the worker wrote them.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import DecodeError, Message

from referee.v1 import lobby_pb2_grpc, ratings_pb2_grpc, referee_pb2_grpc
from service.domain.auth import bearer_token
from service.edge import lobby_api, ratings_api
from service.edge.api import RPCS
from service.edge.calls import Counted, Malformed, answering, malformed
from service.edge.encoded import Encoded
from service.edge.rpcs import Kind, Rpc, RpcTable, install
from service.errors import RefereeError, to_rpc_status

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
    metadata = tuple(context.invocation_metadata() or ())
    return functools.partial(api.limits.admit_call, context.peer(), metadata)


def _unary(rpc: Rpc) -> Callable[..., Any]:
    async def method(
        self: Servicer, request: Message | Encoded, context: Context
    ) -> Message | Encoded:
        try:
            async with answering(
                self.api.metrics, rpc.name, request, PROTOCOL, admission(self.api, context)
            ):
                response: Message | Encoded = await rpc.call(self.api, request, token(context))
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
                parsed = _parsed(requests)
                async for item in rpc.call(self.api, parsed, token(context), PROTOCOL):
                    yield item
        except RefereeError as error:
            await _abort(context, error)

    return method


async def _parsed(requests: AsyncIterator[Message | Malformed]) -> AsyncIterator[Message]:
    """A stream's requests; one that did not parse ends the call, as on the HTTP face."""
    async for request in requests:
        if isinstance(request, Malformed):
            raise malformed(request)
        yield request


_METHODS = {Kind.UNARY: _unary, Kind.SERVER_STREAM: _server_stream, Kind.BIDI_STREAM: _bidi_stream}

_HANDLERS = {
    Kind.UNARY: grpc.unary_unary_rpc_method_handler,
    Kind.SERVER_STREAM: grpc.unary_stream_rpc_method_handler,
    Kind.BIDI_STREAM: grpc.stream_stream_rpc_method_handler,
}


def _lenient(descriptor: Descriptor) -> Callable[[bytes], Message | Malformed]:
    """A request deserializer that never raises (see the module)."""
    message_class = message_factory.GetMessageClass(descriptor)

    def parse(data: bytes) -> Message | Malformed:
        try:
            request: Message = message_class.FromString(data)
        except DecodeError as error:
            return Malformed(str(error))
        return request

    return parse


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


def _encoded_bytes(answer: Encoded) -> bytes:
    return answer.data


def _codec(rpc: Rpc, methods: Any) -> dict[str, Callable[[Any], Any]]:
    """How ``rpc``'s requests are read and its answers written (see the module)."""
    if rpc.encoded:
        return {"request_deserializer": Encoded.proto, "response_serializer": _encoded_bytes}
    return {
        "request_deserializer": _lenient(methods[rpc.name].input_type),
        "response_serializer": _serialize,
    }


def handlers(servicer: Any, table: RpcTable) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
    """Every RPC of ``table``, answered by ``servicer``'s method of its name, parsed leniently
    (or not at all, for an ``encoded`` row)."""
    methods = table.service.methods_by_name
    return {
        rpc.name: _HANDLERS[rpc.kind](getattr(servicer, rpc.name), **_codec(rpc, methods))
        for rpc in table.rpcs
    }


class Servicer:
    """A servicer whose methods are its ``table``'s rows, answered by ``api``.

    A subclass names its table and the generated servicer base class it implements
    (``class RefereeServicer(Servicer, RefereeServiceServicer)``): each RPC's method
    replaces the base's UNIMPLEMENTED one, under the RPC's own name.
    """

    table: ClassVar[RpcTable]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        install(cls, cls.table, _METHODS, lambda rpc: rpc.name)

    def __init__(self, api: Counted) -> None:
        self.api = api

    @classmethod
    def register(cls, api: Counted, server: grpc.aio.Server) -> None:
        """Serve every RPC of the table on ``server``, answered by ``api``."""
        served = handlers(cls(api), cls.table)
        name = cls.table.full_name
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, served),))
        server.add_registered_method_handlers(name, served)  # type: ignore[attr-defined]


class RefereeServicer(Servicer, referee_pb2_grpc.RefereeServiceServicer):
    table = RPCS


class LobbyServicer(Servicer, lobby_pb2_grpc.LobbyServiceServicer):
    table = lobby_api.RPCS


class RatingServicer(Servicer, ratings_pb2_grpc.RatingServiceServicer):
    table = ratings_api.RPCS
