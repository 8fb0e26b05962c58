"""A service's RPCs as one table: each RPC's name, its kind, and the API method answering it.

Both faces are built from the same table (:class:`service.edge.grpc_api.Servicer`,
:class:`service.edge.connect.face.ConnectService`), so an RPC is wired once, not once per face.
A table is checked against the service's descriptor when it is made: it names every RPC
of the proto, no other, each with the kind of stream the proto declares.

An API method takes the request and the caller's token (``None``: none was sent); a
bidirectional one takes the request stream, the token and the protocol's name (its
requests are logged one by one, under that protocol).
"""

from __future__ import annotations

import enum
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message

from service.edge.encoded import Encoded

Api = TypeVar("Api")
Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)


class Kind(enum.Enum):
    UNARY = "unary"
    SERVER_STREAM = "server stream"
    BIDI_STREAM = "bidirectional stream"

    @classmethod
    def of(cls, method: MethodDescriptor) -> Kind:
        if method.client_streaming:
            if not method.server_streaming:
                raise ValueError(f"{method.full_name}: client streams are not served")
            return cls.BIDI_STREAM
        return cls.SERVER_STREAM if method.server_streaming else cls.UNARY


@dataclass(frozen=True)
class Rpc:
    """One row: ``call`` is the API's method, unbound (``RefereeApi.get_view``).

    ``encoded``: the method takes its request, and gives its answer, as
    :class:`~service.edge.encoded.Encoded` bytes that a worker parses (VerifyHistory)."""

    name: str
    kind: Kind
    call: Callable[..., Any]
    encoded: bool = False

    @property
    def snake_name(self) -> str:
        """The name of its method in a Connect service (``GetView``: ``get_view``)."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.name).lower()


def unary(name: str, call: Callable[[Api, Req, str | None], Awaitable[Resp]]) -> Rpc:
    return Rpc(name, Kind.UNARY, call)


def encoded_unary(name: str, call: Callable[[Api, Encoded, str | None], Awaitable[Encoded]]) -> Rpc:
    """A unary RPC whose request reaches ``call`` unparsed (see :mod:`service.edge.encoded`)."""
    return Rpc(name, Kind.UNARY, call, encoded=True)


def server_stream(name: str, call: Callable[[Api, Req, str | None], AsyncIterator[Resp]]) -> Rpc:
    return Rpc(name, Kind.SERVER_STREAM, call)


def bidi_stream(
    name: str, call: Callable[[Api, AsyncIterator[Req], str | None, str], AsyncIterator[Resp]]
) -> Rpc:
    return Rpc(name, Kind.BIDI_STREAM, call)


@dataclass(frozen=True)
class RpcTable:
    """Every RPC of one service; it must match the service's descriptor exactly."""

    service: ServiceDescriptor
    rpcs: tuple[Rpc, ...]

    def __post_init__(self) -> None:
        declared = {method.name: Kind.of(method) for method in self.service.methods}
        listed = {rpc.name: rpc.kind for rpc in self.rpcs}
        if len(listed) != len(self.rpcs) or listed != declared:
            raise ValueError(
                f"the RPC table of {self.service.full_name} must list each of its RPCs once "
                f"with its kind: the proto declares {declared}, the table lists {listed}"
            )

    @property
    def full_name(self) -> str:
        """The service's name, as health checks and reflection know it."""
        return str(self.service.full_name)


MethodMaker = Callable[[Rpc], Callable[..., Any]]
"""Builds a face's method for one RPC (``grpc_api._unary``, ``http_api._unary``, ...)."""


def install(
    cls: type, table: RpcTable, makers: Mapping[Kind, MethodMaker], name: Callable[[Rpc], str]
) -> None:
    """Give ``cls`` one method per RPC of ``table``, built for the RPC's kind by ``makers``
    and named by ``name``. ``cls`` must already declare each one (through the generated
    servicer base or Connect protocol), so a table and its face can never drift apart."""
    for rpc in table.rpcs:
        method_name = name(rpc)
        if not callable(getattr(cls, method_name, None)):
            raise TypeError(f"{cls.__name__} declares no method {method_name} for {rpc.name}")
        method = makers[rpc.kind](rpc)
        method.__name__, method.__qualname__ = method_name, f"{cls.__qualname__}.{method_name}"
        setattr(cls, method_name, method)
