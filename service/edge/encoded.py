"""A request (or its answer) left as the bytes it came in, for a worker process to parse.

VerifyHistory carries a whole game, up to 4 MiB: parsing it, checking it and serializing
it again would cost the event loop tens of milliseconds (binary) or seconds (JSON) before
a worker saw it. So both faces hand its body over untouched as :class:`Encoded` (gRPC by
its request deserializer, HTTP by its codec); the worker (:mod:`service.edge.verifying`)
undoes the body's compression, parses, checks and replays it, and answers in the same
format. The faces choose which RPCs come as bytes from the RPC table (``Rpc.encoded``).
"""

from __future__ import annotations

from dataclasses import dataclass

# A body's formats: binary protobuf, or proto3 JSON (the HTTP face's application/json).
PROTO = "proto"
JSON = "json"
# A body's compressions, undone where it is parsed.
IDENTITY = "identity"
GZIP = "gzip"


@dataclass
class Encoded:
    """A message as its bytes: ``data`` in ``format`` (:data:`PROTO` or :data:`JSON`),
    compressed with ``encoding`` (:data:`IDENTITY` or :data:`GZIP`).

    Mutable, with defaults: connect-python makes a request's message with no arguments
    and has its codec fill it in."""

    data: bytes = b""
    format: str = PROTO
    encoding: str = IDENTITY

    @classmethod
    def proto(cls, data: bytes) -> Encoded:
        """Binary protobuf as gRPC hands it over (already decompressed)."""
        return cls(data)

    def answer(self, data: bytes) -> Encoded:
        """The answer to this request: ``data`` in the same format, uncompressed."""
        return Encoded(data, self.format)
