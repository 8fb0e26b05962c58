"""The error model: every rejection the referee can give, and its one mapping to the wire.

Use cases raise :class:`RefereeError` subclasses (engine move errors are wrapped into them
at the application edge). Each class names one canonical status code; the gRPC face sends
it with a ``google.rpc.ErrorInfo`` detail carrying the stable ``reason``
(:func:`to_rpc_status`), and the HTTP/JSON face sends the same code and detail as a Connect
error (:func:`to_connect_error`), whose HTTP status the Connect protocol fixes: 400
(INVALID_ARGUMENT, FAILED_PRECONDITION), 401, 403, 404, 409 (ABORTED), 429, 500, 503.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from referee.codecs.errors import ECHO_CHARACTERS as ECHO_CHARACTERS
from referee.codecs.errors import Malformed
from referee.codecs.errors import echo as echo
from referee.codecs.errors import excerpt as excerpt

DOMAIN = "referee.v1"
# The longest message any rejection carries: an engine's message (wrapped as it is) may
# name a client's value, and gRPC sends the message as a trailer that standard clients
# refuse above 8 KiB (their metadata limit), so the answer would be lost.
MAX_MESSAGE_CHARACTERS = 512


class RefereeError(Exception):
    """Base of every rejection. ``reason`` is stable and machine-readable."""

    code: grpc.StatusCode = grpc.StatusCode.INTERNAL

    def __init__(
        self, reason: str, message: str, metadata: Mapping[str, str] | None = None
    ) -> None:
        message = excerpt(message, MAX_MESSAGE_CHARACTERS)
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata or {})


class BadRequest(RefereeError):
    """Malformed request or move shape."""

    code = grpc.StatusCode.INVALID_ARGUMENT

    @classmethod
    def of(cls, malformed: Malformed) -> BadRequest:
        """A codec's refusal (referee.codecs) as the referee answers it."""
        return cls(malformed.reason, malformed.message)


class RuleViolation(RefereeError):
    """The move is against the rules now (wrong phase, game over, not this seat's turn)."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class VersionConflict(RefereeError):
    """``expected_version`` is stale; ``metadata["current_version"]`` holds the current one."""

    code = grpc.StatusCode.ABORTED


class GameNotFound(RefereeError):
    """No game with this id (never created, or expired); reason ``GAME_NOT_FOUND``."""

    code = grpc.StatusCode.NOT_FOUND


class TournamentNotFound(RefereeError):
    """No tournament with this id (never created, or expired)."""

    code = grpc.StatusCode.NOT_FOUND

    def __init__(self, tournament_id: str) -> None:
        super().__init__("TOURNAMENT_NOT_FOUND", f"no tournament {echo(tournament_id)}")


class Unauthenticated(RefereeError):
    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(RefereeError):
    code = grpc.StatusCode.PERMISSION_DENIED


class Unavailable(RefereeError):
    """The store cannot be reached; nothing was applied. Safe to retry with the same id."""

    code = grpc.StatusCode.UNAVAILABLE


def shutting_down() -> Unavailable:
    """What a watch (of a game or a tournament) ends with when its referee stops."""
    return Unavailable(
        "REFEREE_SHUTTING_DOWN",
        "this referee is shutting down; watch again with after_version set to the last "
        "version you received",
    )


class StoreFull(RefereeError):
    """Redis refused a write for lack of memory (it must not evict game keys)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class QuotaExceeded(RefereeError):
    """Over one of the caller's quotas; nothing was applied. Retry after ``retry_after``
    seconds (sent as a ``google.rpc.RetryInfo`` detail beside the ErrorInfo)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(
        self,
        reason: str,
        message: str,
        retry_after: float,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(reason, message, metadata)
        self.retry_after = max(retry_after, 0.001)


class Internal(RefereeError):
    """Something the referee did not expect; the details are in its log, never on the wire."""

    code = grpc.StatusCode.INTERNAL

    def __init__(self) -> None:
        super().__init__("INTERNAL", "internal error")


def error_info(error: RefereeError) -> error_details_pb2.ErrorInfo:
    return error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)


def details(error: RefereeError) -> list[Message]:
    """``ErrorInfo``, and for a quota the ``RetryInfo`` (when to try again)."""
    found: list[Message] = [error_info(error)]
    if isinstance(error, QuotaExceeded):
        delay = duration_pb2.Duration()
        delay.FromMilliseconds(max(1, round(error.retry_after * 1000)))
        found.append(error_details_pb2.RetryInfo(retry_delay=delay))
    return found


def _packed(detail: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(detail)
    return packed


def to_rpc_status(error: RefereeError) -> grpc.Status:
    """The gRPC status for ``error``, with an ``ErrorInfo`` detail (reason, domain, metadata)."""
    status = status_pb2.Status(
        code=getattr(code_pb2, error.code.name),
        message=error.message,
        details=[_packed(detail) for detail in details(error)],
    )
    return rpc_status.to_status(status)


def to_connect_error(error: RefereeError) -> ConnectError:
    """The same status as a Connect error: its code by name, the same ``ErrorInfo`` detail."""
    return ConnectError(Code[error.code.name], error.message, details=details(error))
