"""Typed rejections: one exception class per status code, carrying the referee's reason.

Every rejection from the referee is a gRPC status with a ``google.rpc.ErrorInfo`` detail
(domain ``referee.v1``) whose ``reason`` is a stable UPPER_SNAKE_CASE code, e.g.
``CHIP_ALREADY_HELD`` or ``VERSION_MISMATCH``. :func:`from_rpc_error` reads it and raises
the class for the status code, so callers switch on ``except IllegalMove`` and ``reason``
rather than on strings in the message.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.v1 import referee_pb2

DOMAIN = "referee.v1"


class RefereeError(Exception):
    """Base of every rejection.

    ``reason`` is the ErrorInfo reason, or the status code's name when the status carried no
    ErrorInfo (a transport failure: the referee never answered). ``metadata`` is the
    ErrorInfo metadata (e.g. ``current_version``).
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code.name} {reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata: dict[str, str] = dict(metadata or {})


class InvalidArgument(RefereeError):
    """INVALID_ARGUMENT: a malformed request or move shape. Sending it again cannot help."""


class IllegalMove(RefereeError):
    """FAILED_PRECONDITION: the move is against the rules now (wrong round, game over...)."""


class VersionConflict(RefereeError):
    """ABORTED: ``expected_version`` was stale (or the game kept changing); nothing applied."""

    @property
    def current_version(self) -> int | None:
        """The game's version when the move was refused, from ErrorInfo ``current_version``."""
        value = self.metadata.get("current_version")
        return int(value) if value is not None and value.lstrip("-").isdigit() else None


class GameNotFound(RefereeError):
    """NOT_FOUND: no game with this id (never created, or expired)."""


class Unauthenticated(RefereeError):
    """UNAUTHENTICATED: the call needs a seat token, or the token is not valid."""


class PermissionDenied(RefereeError):
    """PERMISSION_DENIED: a valid token, but for another game or seat (or not allowed)."""


class Unavailable(RefereeError):
    """UNAVAILABLE: the referee (or its store) could not be reached; nothing was applied."""


class OtherError(RefereeError):
    """Any other status (INTERNAL, RESOURCE_EXHAUSTED, ...)."""


class DeadlineExceeded(OtherError):
    """DEADLINE_EXCEEDED: no answer within the call's timeout. A move may have been applied
    all the same: resend it with the same ``client_move_id`` to learn its result."""


ERROR_CLASSES: dict[grpc.StatusCode, type[RefereeError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: IllegalMove,
    grpc.StatusCode.ABORTED: VersionConflict,
    grpc.StatusCode.NOT_FOUND: GameNotFound,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
}
"""The class raised for each status code; every other code raises :class:`OtherError`."""


def _error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The first ErrorInfo among the rich status details of ``error``, if it has one."""
    try:
        # A grpc.aio.AioRpcError answers code(), details() and trailing_metadata() at once,
        # like the grpc.Call that from_call is typed for.
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except (ValueError, AttributeError):  # details that do not match the call's status
        return None
    if status is None:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    return None


def from_rpc_error(error: grpc.RpcError) -> RefereeError:
    """The typed exception for a failed call (``grpc.RpcError`` or ``grpc.aio.AioRpcError``).

    Raise it ``from error`` to keep the gRPC error as the cause.
    """
    code = error.code()
    message = error.details() or ""
    info = _error_info(error)
    reason = info.reason if info is not None else code.name
    metadata = dict(info.metadata) if info is not None else {}
    cls = ERROR_CLASSES.get(code, OtherError)
    return cls(code, reason, message, metadata)


_STATUS_CODES = {code.value[0]: code for code in grpc.StatusCode}


def from_rejection(rejection: referee_pb2.PlayResponse.Rejection) -> RefereeError:
    """The typed exception for a request refused in-band on a Play stream: the very one the
    unary call would have raised (same class, reason and metadata)."""
    code = _STATUS_CODES.get(rejection.code, grpc.StatusCode.UNKNOWN)
    cls = ERROR_CLASSES.get(code, OtherError)
    return cls(code, rejection.reason, rejection.message, rejection.metadata)
