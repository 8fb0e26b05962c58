"""The Connect streaming envelope, checked as the body arrives: a client's framing mistake
is its own (INVALID_ARGUMENT ``MALFORMED_REQUEST``), never the referee's.

A Connect streaming request (``application/connect+proto`` or ``+json``: WatchGame over
HTTP) is a sequence of envelopes, each a flags byte, a 4-byte big-endian length and that
many bytes of message. A client may set only the *compressed* flag (0x01), and only when
it named an encoding in ``Connect-Content-Encoding``; the end-of-stream flag (0x02) is the
server's. connect-python answers other flags with ``internal`` and a body that ends inside
an envelope (its length lied) with ``unimplemented`` ("zero messages"), as if the referee
had failed or lacked the method. :func:`checked_framing` wraps the body's ``receive``: it
reads the envelopes' headers as the bytes pass (holding at most 5 bytes, copying none of
the payload) and raises the typed refusal from ``receive``, which connect-python answers
at the end of the stream, in the call's own protocol, with nothing applied.
"""

from __future__ import annotations

from starlette.types import Message, Receive

from service.errors import BadRequest, to_connect_error

COMPRESSED = 0x01
HEADER_BYTES = 5
IDENTITY = ("", "identity")


def is_stream(content_type: str) -> bool:
    """A Connect streaming body (enveloped messages), not a unary one."""
    return content_type.lower().startswith("application/connect+")


class Envelopes:
    """Where the body stands: in an envelope's header (``header`` holds its first bytes) or
    in its payload (``left`` bytes of it still to come)."""

    def __init__(self, compressed_allowed: bool) -> None:
        self.allowed = COMPRESSED if compressed_allowed else 0
        self.header = b""
        self.left = 0

    def feed(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if self.left:
                step = min(self.left, len(view))
                self.left -= step
                view = view[step:]
                continue
            take = HEADER_BYTES - len(self.header)
            self.header += bytes(view[:take])
            view = view[take:]
            if len(self.header) == HEADER_BYTES:
                self._begin(self.header)
                self.header = b""

    def _begin(self, header: bytes) -> None:
        flags = header[0]
        if flags & ~self.allowed:
            why = (
                "the compressed flag without a Connect-Content-Encoding"
                if flags == COMPRESSED
                else "flags only a server sends, or none Connect defines"
            )
            raise _malformed(f"envelope flags 0x{flags:02x}: {why}")
        self.left = int.from_bytes(header[1:], "big")

    def end(self) -> None:
        if self.left or self.header:
            came = f"{len(self.header)} of its {HEADER_BYTES} header bytes"
            if self.left:
                came = f"{self.left} bytes short of the length its header gave"
            raise _malformed(f"the body ends inside an envelope ({came})")


def _malformed(message: str) -> Exception:
    return to_connect_error(BadRequest("MALFORMED_REQUEST", message))


def checked_framing(receive: Receive, encoding: str) -> Receive:
    """``receive`` of a Connect streaming request, refusing bad framing (see the module);
    ``encoding`` is the request's ``Connect-Content-Encoding``."""
    envelopes = Envelopes(compressed_allowed=encoding.strip().lower() not in IDENTITY)

    async def checking() -> Message:
        message = await receive()
        if message["type"] == "http.request":
            envelopes.feed(message.get("body", b""))
            if not message.get("more_body", False):
                envelopes.end()
        return message

    return checking
