"""The HTTP face's encoded RPCs (VerifyHistory): connect-python serves them, unparsed.

connect-python reads a body, inflates it, parses it with the codec of its content type and
serializes the answer with the same codec, all on the event loop. For the rows of an RPC
table marked ``encoded`` (:mod:`service.edge.encoded`), :class:`EncodedConnect` is a Connect
application whose request and answer type is :class:`~service.edge.encoded.Encoded`: the
codecs (:func:`encoded_from`, :func:`encoded_to`) only move bytes, and a gzipped body stays
gzipped (:class:`~service.edge.connect.limits.GzipInWorker`), so the worker that replays the call
inflates and parses it. Everything else is connect-python's own: the Connect unary and
gRPC-Web protocols, content types, errors as Connect JSON with their ErrorInfo details,
timeouts and answer compression.
"""

from __future__ import annotations

from typing import Any

from connectrpc.method import IdempotencyLevel, MethodInfo
from connectrpc.server import ConnectASGIApplication, Endpoint

from service.edge.connect.limits import GzipInWorker, Gzipped
from service.edge.encoded import GZIP, IDENTITY, Encoded
from service.edge.rpcs import RpcTable


class EncodedConnect(ConnectASGIApplication[Any]):
    """``service``'s methods for the encoded rows of ``table``, each at its own path."""

    def __init__(self, service: Any, table: RpcTable, read_max_bytes: int) -> None:
        self.table = table
        self.paths = [f"/{table.full_name}/{rpc.name}" for rpc in table.rpcs if rpc.encoded]

        def endpoints(served: Any) -> dict[str, Any]:  # connectrpc names no public type
            return {
                f"/{table.full_name}/{rpc.name}": Endpoint.unary(
                    method=MethodInfo(
                        name=rpc.name,
                        service_name=table.full_name,
                        input=Encoded,
                        output=Encoded,
                        idempotency_level=IdempotencyLevel.UNKNOWN,
                    ),
                    function=getattr(served, rpc.snake_name),
                )
                for rpc in table.rpcs
                if rpc.encoded
            }

        super().__init__(
            service=service,
            endpoints=endpoints,
            read_max_bytes=read_max_bytes,
            compressions=[GzipInWorker(read_max_bytes)],
        )

    @property
    def path(self) -> str:
        return f"/{self.table.full_name}"


def encoded_from(data: bytes | bytearray, message: Encoded, format_name: str) -> Encoded:
    """A codec's decode into :class:`Encoded`: the bytes as they are, in ``format_name``."""
    message.data = data if type(data) is bytes else bytes(data)
    message.format = format_name
    message.encoding = GZIP if isinstance(data, Gzipped) else IDENTITY
    return message


def encoded_to(message: Encoded) -> bytes:
    """A codec's encode of :class:`Encoded`: the worker's answer, already in the format."""
    return message.data
