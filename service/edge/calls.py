"""Every call at the edge: its limits, its one log line and its metrics.

Both faces (gRPC and HTTP/JSON) run each call inside :func:`answering`: the request is
checked against the limits first, and when the call ends it is logged once and counted.
Every failure leaves as a :class:`RefereeError` (the faces map it to their own status);
anything unexpected is logged with its traceback and becomes :class:`Internal`.
"""

from __future__ import annotations

import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import structlog
from google.protobuf import unknown_fields
from google.protobuf.message import Message

from referee.v1 import lobby_pb2, referee_pb2
from service.app.limits import Limits, enter
from service.edge.encoded import JSON, Encoded
from service.edge.observability import Metrics
from service.errors import BadRequest, Internal, RefereeError, excerpt

log = structlog.get_logger("referee.rpc")

MAX_REQUEST_BYTES = 64 * 1024
# VerifyHistory carries a whole game (its history and the views a client recorded). Its
# body reaches a worker unparsed (service.edge.encoded): the faces check only its length.
# The longest history any table may have (MAX_MOVE_LIMIT, 16,000 moves) weighs at most
# 3.4 MB in binary (bots' games: 180-212 bytes an entry, every game; bench.verify_flood
# --weights), so 4 MiB holds it with a fifth to spare. Every byte under the cap is one the
# receiving process copies before any check can refuse it, and on a small machine those
# copies are what other callers wait for (bench.verify_flood, issue 33): gRPC's transport
# refuses a longer message before Python sees it (service.process.server.TRANSPORT_LIMIT).
MAX_VERIFY_BYTES = 4 * 1024 * 1024
MAX_VERIFY_ITEMS = 100_000
# The HTTP face's JSON bodies, capped before they are parsed. Parsing proto3 JSON is pure
# Python (json_format) on the event loop, about 0.2 s per MB of a real game and 0.6 s per
# MB of bogus entries (bench/console.py, issue 16), 10-50 times the binary decode per byte:
# a JSON body holds a quarter to a fifth of the binary one's content, so these are far
# below the binary caps. 1 MiB holds a long game with its views (the console sends
# VerifyHistory as binary anyway); 64 KiB holds any other request many times over.
MAX_JSON_REQUEST_BYTES = 64 * 1024
MAX_JSON_VERIFY_BYTES = 1024 * 1024
# zlib's window bits for a gzip stream (its header and trailer).
_GZIP_WBITS = 16 + zlib.MAX_WBITS
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Counted(Protocol):
    """An API whose calls the faces check, log and count (RefereeApi, TournamentApi)."""

    @property
    def metrics(self) -> Metrics | None: ...

    @property
    def limits(self) -> Limits: ...


@dataclass(frozen=True)
class Malformed:
    """A request whose bytes do not parse as its message: the gRPC face's deserializer
    hands this to the method instead of raising (see :mod:`service.edge.grpc_api`)."""

    error: str


def malformed(request: Malformed) -> BadRequest:
    return BadRequest("MALFORMED_REQUEST", f"malformed request: {excerpt(request.error)}")


def too_large(limit: int) -> BadRequest:
    """The refusal of a request above its size limit (either face)."""
    return BadRequest("REQUEST_TOO_LARGE", f"this request is limited to {limit} bytes")


def gunzipped(data: bytes | bytearray | memoryview, limit: int) -> bytes:
    """A gzipped body inflated, refused (``REQUEST_TOO_LARGE``) once it passes ``limit``
    bytes: no more than ``limit + 1`` bytes are ever inflated, however small the body (a
    zip bomb). One whole gzip member is expected, else ``MALFORMED_REQUEST``."""
    inflater = zlib.decompressobj(_GZIP_WBITS)
    try:
        inflated = inflater.decompress(data, limit + 1)
    except zlib.error as error:
        raise BadRequest("MALFORMED_REQUEST", f"malformed gzip body: {error}") from None
    if len(inflated) > limit or inflater.unconsumed_tail:
        raise too_large(limit)
    if not inflater.eof or inflater.unused_data:
        raise BadRequest("MALFORMED_REQUEST", "malformed gzip body: not one whole gzip member")
    return inflated


def check_request(request: Message | Malformed | Encoded) -> None:
    """The limits every request meets before any use case sees it (an encoded one: its
    length; the worker that parses it checks the rest, :func:`check_verify`)."""
    if isinstance(request, Malformed):
        raise malformed(request)
    if isinstance(request, Encoded):
        check_encoded(request)
        return
    verifying = isinstance(request, referee_pb2.VerifyHistoryRequest)
    limit = MAX_VERIFY_BYTES if verifying else MAX_REQUEST_BYTES
    if request.ByteSize() > limit:
        raise too_large(limit)
    if not verifying and (number := _misread(request)) is not None:
        raise malformed(Malformed(f"field {number} has the wrong wire type"))
    game_id = getattr(request, "game_id", None)
    if isinstance(request, lobby_pb2.JoinGameRequest) and not game_id:
        game_id = None  # joined by code instead
    if game_id is not None and not _GAME_ID.fullmatch(game_id):
        raise BadRequest("GAME_ID_INVALID", "game_id must be 1 to 64 letters, digits, '-' or '_'")
    if isinstance(request, referee_pb2.VerifyHistoryRequest):
        check_verify(request)


def check_encoded(request: Encoded) -> None:
    """An encoded VerifyHistory body within its format's cap (a compressed one is checked
    again once inflated, by the worker)."""
    limit = MAX_JSON_VERIFY_BYTES if request.format == JSON else MAX_VERIFY_BYTES
    if len(request.data) > limit:
        raise too_large(limit)


def _misread(message: Message) -> int | None:
    """The number of a field the message declares that arrived with another wire type.

    A protobuf parser keeps such a field as an unknown one instead of failing, so it parses;
    yet it is malformed, not a field from a newer client. A request within its size limit
    is walked whole (VerifyHistory is not: its replay reports what it cannot read).
    """
    numbers = message.DESCRIPTOR.fields_by_number
    unknown = unknown_fields.UnknownFieldSet(message)
    for index in range(len(unknown)):
        if unknown[index].field_number in numbers:
            return int(unknown[index].field_number)
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            items = [v for v in value.values() if isinstance(v, Message)]
        else:
            items = list(value) if field.is_repeated else [value]
        for item in items:
            if (number := _misread(item)) is not None:
                return number
    return None


def check_verify(request: referee_pb2.VerifyHistoryRequest) -> None:
    """A parsed VerifyHistory request's item counts (in the worker, before its replay)."""
    entries, views = len(request.history.entries), len(request.views)
    if entries > MAX_VERIFY_ITEMS:
        raise BadRequest("REQUEST_TOO_LARGE", f"at most {MAX_VERIFY_ITEMS} history entries")
    # One view per version and viewer (every seat and a spectator) at most.
    if views > (entries + 1) * (max(request.history.setup.seats, 0) + 1):
        raise BadRequest(
            "TOO_MANY_VIEWS", "at most one view per version and viewer (seats + spectator)"
        )


def bind(game_id: str, seat: int | None = None, version: int | None = None) -> None:
    """Name the game (and seat, version) in the log line of the call under way."""
    fields: dict[str, object] = {"game_id": game_id}
    if seat is not None:
        fields["seat"] = seat
    if version is not None:
        fields["version"] = version
    structlog.contextvars.bind_contextvars(**fields)


def _finish(
    metrics: Metrics | None,
    name: str,
    request: Message | Malformed | Encoded | None,
    started: float,
    code: str,
    reason: str | None,
    protocol: str,
) -> None:
    """The call's one log line and its metrics."""
    seconds = time.perf_counter() - started
    fields: dict[str, Any] = {
        "rpc": name,
        "protocol": protocol,
        "code": code,
        "latency_ms": round(seconds * 1000, 3),
    }
    if reason:
        fields["reason"] = reason
    log.info("rpc", **fields)
    if metrics is None:
        return
    metrics.observe_rpc(name, code, seconds)
    if isinstance(request, referee_pb2.SubmitMoveRequest):
        game = request.move.WhichOneof("game") or "none"
        metrics.count_move(game, code, reason or "")


class answering:  # noqa: N801 (used as ``async with answering(...)``, like a function)
    """One call: its caller admitted (``admit``, see :func:`service.app.limits.enter`), the
    request checked, then logged and counted once it ends.

    ``request`` is None for a call that streams its requests (Play): each of those is
    checked where it is read. Every failure leaves as a :class:`RefereeError`; anything
    unexpected is logged with its traceback and becomes :class:`Internal`, so no face ever
    shows an internal message. (A class, not an ``asynccontextmanager``: every call of
    every RPC enters one, and the generator's frames and wrappers cost it a few µs.)
    """

    __slots__ = ("admit", "metrics", "name", "protocol", "request", "started")

    def __init__(
        self,
        metrics: Metrics | None,
        name: str,
        request: Message | Malformed | Encoded | None,
        protocol: str,
        admit: Callable[[], object] | None = None,
    ) -> None:
        self.metrics = metrics
        self.name = name
        self.request = request
        self.protocol = protocol
        self.admit = admit
        self.started = 0.0

    async def __aenter__(self) -> None:
        structlog.contextvars.clear_contextvars()
        self.started = time.perf_counter()
        try:
            enter(self.admit)
            if self.request is not None:
                check_request(self.request)
        except Exception as error:
            self._failed(error)
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if error is None:
            self._finish("OK", None)
        elif isinstance(error, Exception):
            self._failed(error)  # a RefereeError goes on as it is; anything else: Internal

    def _failed(self, error: Exception) -> None:
        """Log and count a failed call; an unexpected error becomes :class:`Internal`."""
        if isinstance(error, RefereeError):
            self._finish(error.code.name, error.reason)
            return
        log.exception("rpc failed", rpc=self.name, protocol=self.protocol, exc_info=error)
        self._finish("INTERNAL", "INTERNAL")
        raise Internal() from error

    def _finish(self, code: str, reason: str | None) -> None:
        _finish(self.metrics, self.name, self.request, self.started, code, reason, self.protocol)
