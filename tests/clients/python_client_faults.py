"""gRPC client interceptors for the resilience tests: count the tries of each method, and
lose the referee's answer to a call after the referee has made it (the move is applied;
the client sees only UNAVAILABLE)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc
import grpc.aio

LOST = "the answer was lost on the way back"


def _method(details: grpc.ClientCallDetails | grpc.aio.ClientCallDetails) -> str:
    """``GetView`` of ``/referee.v1.RefereeService/GetView`` (bytes or str)."""
    method = details.method
    name = method.decode() if isinstance(method, bytes) else str(method)
    return name.rsplit("/", 1)[-1]


def lost_answer(code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE) -> grpc.aio.AioRpcError:
    """The failure a client sees when the connection broke after the referee answered."""
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), LOST, None)


class AsyncTries(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in stubs only
    """Counts every unary try per method; loses the answers of the next ``lose[method]``
    calls of a method, after the referee answered them."""

    def __init__(self) -> None:
        self.tries: Counter[str] = Counter()
        self.lose: Counter[str] = Counter()
        self.requests: dict[str, list[Any]] = {}

    async def intercept_unary_unary(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        client_call_details: grpc.aio.ClientCallDetails,
        request: Any,
    ) -> Any:
        method = _method(client_call_details)
        self.tries[method] += 1
        self.requests.setdefault(method, []).append(request)
        call = await continuation(client_call_details, request)
        if self.lose[method] > 0:
            self.lose[method] -= 1
            await call  # the referee answered (and, for a move, applied it)
            raise lost_answer()
        return call


class SyncTries(grpc.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in stubs only
    """:class:`AsyncTries` for the blocking client."""

    def __init__(self) -> None:
        self.tries: Counter[str] = Counter()
        self.lose: Counter[str] = Counter()
        self.requests: dict[str, list[Any]] = {}

    def intercept_unary_unary(
        self,
        continuation: Callable[[grpc.ClientCallDetails, Any], Any],
        client_call_details: grpc.ClientCallDetails,
        request: Any,
    ) -> Any:
        method = _method(client_call_details)
        self.tries[method] += 1
        self.requests.setdefault(method, []).append(request)
        call = continuation(client_call_details, request)
        if self.lose[method] > 0:
            self.lose[method] -= 1
            call.result()  # the referee answered (and, for a move, applied it)
            raise lost_answer()
        return call
