"""Every call at the edge: its limits, its one log line and its metrics.

Both faces (gRPC and HTTP/JSON) run each call inside :func:`answering`: the request is
checked against the limits first, and when the call ends it is logged once and counted.
Every failure leaves as a :class:`RefereeError` (the faces map it to their own status);
anything unexpected is logged with its traceback and becomes :class:`Internal`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

import structlog
from google.protobuf.message import Message

from referee.v1 import referee_pb2
from service.errors import BadRequest, Internal, RefereeError, Unavailable
from service.limits import Limits, enter
from service.observability import Metrics

log = structlog.get_logger("referee.rpc")

MAX_REQUEST_BYTES = 64 * 1024
# VerifyHistory carries a whole game (its history and every view a client recorded).
MAX_VERIFY_BYTES = 8 * 1024 * 1024
MAX_VERIFY_ITEMS = 100_000
# Replays at a time per process (each holds the GIL for up to a second on a long game);
# more wait up to VERIFY_WAIT_SECONDS, then get UNAVAILABLE VERIFY_BUSY.
MAX_VERIFYING = 2
VERIFY_WAIT_SECONDS = 5.0
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Counted(Protocol):
    """An API whose calls the faces check, log and count (RefereeApi, TournamentApi)."""

    @property
    def metrics(self) -> Metrics | None: ...

    @property
    def limits(self) -> Limits: ...


def check_request(request: Message) -> None:
    """The limits every request meets before any use case sees it."""
    verifying = isinstance(request, referee_pb2.VerifyHistoryRequest)
    limit = MAX_VERIFY_BYTES if verifying else MAX_REQUEST_BYTES
    if request.ByteSize() > limit:
        raise BadRequest("REQUEST_TOO_LARGE", f"this request is limited to {limit} bytes")
    game_id = getattr(request, "game_id", None)
    if game_id is not None and not _GAME_ID.fullmatch(game_id):
        raise BadRequest("GAME_ID_INVALID", "game_id must be 1 to 64 letters, digits, '-' or '_'")
    if isinstance(request, referee_pb2.VerifyHistoryRequest):
        _check_verify(request)


def _check_verify(request: referee_pb2.VerifyHistoryRequest) -> None:
    entries, views = len(request.history.entries), len(request.views)
    if entries > MAX_VERIFY_ITEMS:
        raise BadRequest("REQUEST_TOO_LARGE", f"at most {MAX_VERIFY_ITEMS} history entries")
    # One view per version and viewer (every seat and a spectator) at most.
    if views > (entries + 1) * (max(request.history.setup.seats, 0) + 1):
        raise BadRequest(
            "TOO_MANY_VIEWS", "at most one view per version and viewer (seats + spectator)"
        )


class Replays:
    """At most :data:`MAX_VERIFYING` replays at a time in this process.

    A replay holds the GIL for up to a second on a long game; a call that finds no free
    slot within :data:`VERIFY_WAIT_SECONDS` is refused with UNAVAILABLE ``VERIFY_BUSY``.
    """

    def __init__(self, size: int = MAX_VERIFYING, wait_seconds: float = VERIFY_WAIT_SECONDS):
        self._free = asyncio.Semaphore(size)
        self._wait_seconds = wait_seconds

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        try:
            await asyncio.wait_for(self._free.acquire(), self._wait_seconds)
        except TimeoutError:
            raise Unavailable(
                "VERIFY_BUSY", "this referee is replaying other games; try again shortly"
            ) from None
        try:
            yield
        finally:
            self._free.release()


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
    request: Message | None,
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
    metrics.rpc_seconds.labels(name, code).observe(seconds)
    if isinstance(request, referee_pb2.SubmitMoveRequest):
        game = request.move.WhichOneof("game") or "none"
        metrics.moves.labels(game, code, reason or "").inc()


@contextlib.asynccontextmanager
async def answering(
    metrics: Metrics | None,
    name: str,
    request: Message | None,
    protocol: str,
    admit: Callable[[], object] | None = None,
) -> AsyncIterator[None]:
    """One call: its caller admitted (``admit``, see :func:`service.limits.enter`), the
    request checked, then logged and counted once it ends.

    ``request`` is None for a call that streams its requests (Play): each of those is
    checked where it is read. Every failure leaves as a :class:`RefereeError`; anything
    unexpected is logged with its traceback and becomes :class:`Internal`, so no face ever
    shows an internal message.
    """
    structlog.contextvars.clear_contextvars()
    started = time.perf_counter()
    try:
        enter(admit)
        if request is not None:
            check_request(request)
        yield
    except RefereeError as error:
        _finish(metrics, name, request, started, error.code.name, error.reason, protocol)
        raise
    except Exception as error:
        log.exception("rpc failed", rpc=name, protocol=protocol)
        _finish(metrics, name, request, started, "INTERNAL", "INTERNAL", protocol)
        raise Internal() from error
    _finish(metrics, name, request, started, "OK", None, protocol)
