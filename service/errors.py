"""The error model: every rejection the referee can give, and its one mapping to gRPC.

Use cases raise :class:`RefereeError` subclasses (engine move errors are wrapped into them
at the application edge); the gRPC layer turns each into a status code plus a
``google.rpc.ErrorInfo`` detail carrying the stable ``reason`` via :func:`to_rpc_status`.
An HTTP face maps the same classes through :data:`HTTP_STATUS`.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "referee.v1"


class RefereeError(Exception):
    """Base of every rejection. ``reason`` is stable and machine-readable."""

    code: grpc.StatusCode = grpc.StatusCode.INTERNAL
    http_status: int = 500

    def __init__(
        self, reason: str, message: str, metadata: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata or {})


class BadRequest(RefereeError):
    """Malformed request or move shape."""

    code = grpc.StatusCode.INVALID_ARGUMENT
    http_status = 400


class RuleViolation(RefereeError):
    """The move is against the rules now (wrong phase, game over, not this seat's turn)."""

    code = grpc.StatusCode.FAILED_PRECONDITION
    http_status = 409


class VersionConflict(RefereeError):
    """``expected_version`` is stale; ``metadata["current_version"]`` holds the current one."""

    code = grpc.StatusCode.ABORTED
    http_status = 409


class GameNotFound(RefereeError):
    code = grpc.StatusCode.NOT_FOUND
    http_status = 404


class Unauthenticated(RefereeError):
    code = grpc.StatusCode.UNAUTHENTICATED
    http_status = 401


class PermissionDenied(RefereeError):
    code = grpc.StatusCode.PERMISSION_DENIED
    http_status = 403


class Unavailable(RefereeError):
    """The store cannot be reached; nothing was applied. Safe to retry with the same id."""

    code = grpc.StatusCode.UNAVAILABLE
    http_status = 503


class StoreFull(RefereeError):
    """Redis refused a write for lack of memory (it must not evict game keys)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    http_status = 503


HTTP_STATUS: dict[grpc.StatusCode, int] = {
    cls.code: cls.http_status
    for cls in (
        BadRequest,
        RuleViolation,
        VersionConflict,
        GameNotFound,
        Unauthenticated,
        PermissionDenied,
        Unavailable,
        StoreFull,
    )
}


def to_rpc_status(error: RefereeError) -> grpc.Status:
    """The gRPC status for ``error``, with an ``ErrorInfo`` detail (reason, domain, metadata)."""
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(
        code=getattr(code_pb2, error.code.name),
        message=error.message,
        details=[detail],
    )
    return rpc_status.to_status(status)


def internal_status() -> grpc.Status:
    return to_rpc_status(RefereeError("INTERNAL", "internal error"))
