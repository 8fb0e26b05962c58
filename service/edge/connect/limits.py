"""The HTTP face's body caps: a request body is counted as it arrives, before it is parsed.

connect-python reads a whole body into memory and parses it on the event loop, and proto3
JSON parses in pure Python, 10-50 times slower per byte than binary protobuf. So each
Connect route is wrapped by :class:`Capped`: a body longer than its cap is refused with
INVALID_ARGUMENT ``REQUEST_TOO_LARGE`` (the gRPC face's reason for the same refusal) as
soon as its ``Content-Length`` says so, or, without one, as soon as the bytes read pass
the cap, so no more than the cap is ever held. The caps (:mod:`service.edge.calls`):

==================  ======================  ==========================
route               binary protobuf         JSON
==================  ======================  ==========================
VerifyHistory       ``MAX_VERIFY_BYTES``    ``MAX_JSON_VERIFY_BYTES``
every other RPC     ``MAX_REQUEST_BYTES``   ``MAX_JSON_REQUEST_BYTES``
==================  ======================  ==========================

A binary body is exactly its message's size, so its cap is the message limit the gRPC face
checks too. The refusal is raised from the body's ``receive`` as a Connect error, so
connect-python answers it in the call's own protocol (an error response for a unary call,
the end of the stream for a stream).

A compressed body (``Content-Encoding: gzip``, or a gzipped message of a stream) is capped
on the wire like any other, and once inflated too: connect-python would inflate it whole
before it looked at its size, so a few kilobytes could become gigabytes (a zip bomb). Its
Connect services get :class:`BoundedGzip` instead, which stops inflating one byte past
the cap and refuses with the same ``REQUEST_TOO_LARGE``; VerifyHistory's body is inflated
(with the same bound) by the worker that parses it (:class:`GzipInWorker`).
"""

from __future__ import annotations

import asyncio
import gzip
from typing import Final

from connectrpc._protocol import ConnectWireError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.edge.calls import (
    MAX_JSON_REQUEST_BYTES,
    MAX_JSON_VERIFY_BYTES,
    MAX_REQUEST_BYTES,
    MAX_VERIFY_BYTES,
    gunzipped,
    too_large,
)
from service.edge.connect.framing import checked_framing, is_stream
from service.errors import BadRequest, RefereeError, to_connect_error

VERIFY_PATH = "/referee.v1.RefereeService/VerifyHistory"
# How long a body refused for its declared length waits for its answer (see _counted).
REFUSAL_DELAY_SECONDS: Final = 0.25


def body_limit(path: str, content_type: str) -> int:
    """The cap of a body sent to ``path`` as ``content_type``."""
    json = "json" in content_type.lower()  # application/json, application/connect+json
    if path.rstrip("/") == VERIFY_PATH:
        return MAX_JSON_VERIFY_BYTES if json else MAX_VERIFY_BYTES
    return MAX_JSON_REQUEST_BYTES if json else MAX_REQUEST_BYTES


def _full_path(scope: Scope) -> str:
    """The request's path, whether the mount left it whole (Starlette today) or not."""
    root, path = scope.get("root_path", ""), scope["path"]
    return str(path if path.startswith(root) else root + path)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def _declared_length(scope: Scope) -> int | None:
    text = _header(scope, b"content-length").strip()
    return int(text) if text.isdigit() else None


def _counted(receive: Receive, limit: int, declared: int | None) -> Receive:
    """``receive``, refusing the body once it is (or says it will be) over ``limit``."""
    read = 0

    async def counting() -> Message:
        nonlocal read
        if declared is not None and declared > limit:
            # Refused unread, the answer would come at once and the client's next body
            # with it: connection churn at that pace took a victim's p95 to 3.75x
            # (bench.verify_flood, 8 MB over HTTP); a short wait, costing no CPU, 1.0x.
            await asyncio.sleep(REFUSAL_DELAY_SECONDS)
            raise to_connect_error(too_large(limit))
        message = await receive()
        if message["type"] == "http.request":
            read += len(message.get("body", b""))
            if read > limit:
                raise to_connect_error(too_large(limit))
        return message

    return counting


class Capped:
    """``app`` (a Connect service) with every request body capped (see the module), and
    a streaming request's envelopes checked (:mod:`service.edge.connect.framing`).

    A class, not a closure: Starlette's ``Route`` serves a plain function as a
    request-to-response endpoint, and an object as the ASGI application it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not _decodable(scope):
            await _refuse(send, BadRequest("MALFORMED_REQUEST", "a request header is not UTF-8"))
            return
        content_type = _header(scope, b"content-type")
        limit = body_limit(_full_path(scope), content_type)
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            send = _closing(send)
        receive = _counted(receive, limit, declared)
        if is_stream(content_type):
            encoding = _header(scope, b"connect-content-encoding")
            receive = checked_framing(receive, encoding)
        await self.app(scope, receive, send)


def _decodable(scope: Scope) -> bool:
    """Whether every header value is UTF-8, as connect-python reads them (it raises
    UnicodeDecodeError on one that is not, an unknown error for the caller)."""
    try:
        for _, value in scope["headers"]:
            value.decode()
    except UnicodeDecodeError:
        return False
    return True


async def _refuse(send: Send, error: RefereeError) -> None:
    """Answer ``error`` as connect-python answers a unary call's error (its status and
    JSON body), before the call reaches it."""
    wire = ConnectWireError.from_exception(to_connect_error(error))
    await send(
        {
            "type": "http.response.start",
            "status": wire.to_http_status().code,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": wire.to_json_bytes()})


def _closing(send: Send) -> Send:
    """``send``, with ``Connection: close`` on the answer: a body refused for its declared
    length is never read, and the server closes the connection after the answer instead
    of reading the unwanted body through to keep the connection alive."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", ()), (b"connection", b"close")]
            message = {**message, "headers": headers}
        await send(message)

    return sending


# The level of gzipped answers (connect-python's own default).
GZIP_LEVEL = 6


class BoundedGzip:
    """connect-python's gzip (a ``connectrpc.compression.Compression``) that inflates a
    request body to at most ``limit`` bytes (:func:`service.edge.calls.gunzipped`)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def name(self) -> str:
        return "gzip"

    def compress(self, data: bytes | bytearray | memoryview) -> bytes:
        return gzip.compress(data, compresslevel=GZIP_LEVEL)

    def decompress(self, data: bytes | bytearray | memoryview) -> bytes:
        try:
            return gunzipped(data, self.limit)
        except RefereeError as error:
            raise to_connect_error(error) from None


class Gzipped(bytes):
    """A body still gzipped: what :class:`GzipInWorker` hands the codec instead of
    inflating it (the codec then marks the request's encoding)."""


class GzipInWorker(BoundedGzip):
    """gzip for VerifyHistory: a request body is left compressed (as :class:`Gzipped`) for
    the worker to inflate, with the same bound; an answer is gzipped as usual."""

    def decompress(self, data: bytes | bytearray | memoryview) -> bytes:
        return Gzipped(data)
