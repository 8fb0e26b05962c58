"""The blocking client: ``RefereeClient`` and ``Seat``, derived from the asyncio client.

Each of their calls runs the coroutine of :mod:`referee.client.core` that the asyncio
client awaits, over a blocking ``grpc`` channel, to its end in the caller's thread
(:mod:`referee.client.derive`): the same requests, retries, errors and watch resumption,
with no event loop and no thread of the client's own.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import grpc

from referee.client.calls import Metadata
from referee.client.core import ChannelSpec, ClientCore, Connection, Rethink, SeatCore, Stream
from referee.client.derive import blocking, blocking_iter, run_blocking
from referee.client.lobby import AsyncLobbyCalls, LobbyCalls
from referee.client.policy import NO_RETRY, Retry
from referee.client.ratings import AsyncRatingCalls, RatingCalls
from referee.v1 import lobby_pb2_grpc, ratings_pb2_grpc, referee_pb2, referee_pb2_grpc

__all__ = ["RefereeClient", "Rethink", "Seat"]

Request = TypeVar("Request")
Response = TypeVar("Response")
Item = TypeVar("Item")
if TYPE_CHECKING:  # grpc's interceptor classes are generic only in grpc-stubs
    Interceptor: TypeAlias = (
        grpc.UnaryUnaryClientInterceptor[Any, Any]
        | grpc.UnaryStreamClientInterceptor[Any, Any]
        | grpc.StreamUnaryClientInterceptor[Any, Any]
        | grpc.StreamStreamClientInterceptor[Any, Any]
    )


class _BlockingStream(Generic[Item]):
    """A blocking server stream read through ``async for``: each message is waited for
    in ``next``, so reading it never suspends."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self._messages: Iterator[Item] = iter(call)

    def __aiter__(self) -> AsyncIterator[Item]:
        return self

    async def __anext__(self) -> Item:
        try:
            return next(self._messages)
        except StopIteration:
            raise StopAsyncIteration from None

    def cancel(self) -> bool:
        return bool(self._call.cancel())


class _BlockingCalls(AsyncLobbyCalls, AsyncRatingCalls):
    """A :class:`RefereeClient`'s calls: the core's coroutines over its blocking stubs.

    A try blocks in gRPC until its answer and a pause in ``time.sleep``, so none of them
    ever suspends and :func:`run_blocking` runs them in the caller's thread. Settings and
    stubs are read from the client at each call.
    """

    def __init__(self, client: RefereeClient) -> None:
        self.client = client

    @property
    def _connection(self) -> RefereeClient:
        return self.client

    async def _invoke(
        self, method: Any, request: Any, *, timeout: float | None, metadata: Metadata
    ) -> Any:
        return method(request, timeout=timeout, metadata=metadata)

    async def _pause(self, seconds: float) -> None:
        time.sleep(seconds)

    def _open_stream(self, method: Any, request: Any, *, metadata: Metadata) -> Stream[Any]:
        return _BlockingStream[Any](method(request, metadata=metadata))


class RefereeClient(LobbyCalls, RatingCalls, Connection[grpc.Channel, "Interceptor"]):
    """A connection to a referee that blocks. Use as a context manager, or call :meth:`close`.

    Its parameters are described on ``__init__``; ``interceptors`` are ``grpc`` (blocking)
    client interceptors. Every call is the blocking twin of
    :class:`~referee.client.AsyncRefereeClient`'s.
    """

    def _open(self, spec: ChannelSpec[Interceptor]) -> grpc.Channel:
        if spec.credentials is None:
            channel = grpc.insecure_channel(spec.target, options=spec.options)
        else:
            channel = grpc.secure_channel(spec.target, spec.credentials, options=spec.options)
        intercepted = grpc.intercept_channel(channel, *spec.interceptors)
        self.stub = referee_pb2_grpc.RefereeServiceStub(intercepted)
        self.lobby_stub = lobby_pb2_grpc.LobbyServiceStub(intercepted)
        self.rating_stub = ratings_pb2_grpc.RatingServiceStub(intercepted)
        return channel

    @property
    def _core(self) -> _BlockingCalls:
        return _BlockingCalls(self)

    def __enter__(self) -> RefereeClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def call(
        self,
        method: grpc.UnaryUnaryMultiCallable[Request, Response],
        request: Request,
        token: str | None = None,
        *,
        retry: Retry = NO_RETRY,
    ) -> Response:
        """As :meth:`AsyncRefereeClient.call <referee.client.AsyncRefereeClient.call>`,
        with a blocking stub's ``method``."""
        reply: Response = run_blocking(self._core._retried(method, request, token, retry))
        return reply

    create_game = blocking(ClientCore.create_game)

    def seat(self, game_id: str, token: str | None = None) -> Seat:
        """A handle on ``game_id`` as the seat of ``token`` (None: a spectator)."""
        return Seat(self, game_id, token)

    def seats(self, created: referee_pb2.CreateGameResponse) -> list[Seat]:
        """A handle for every seat of a game just created, in seat order."""
        return [self.seat(created.game_id, seat.token) for seat in created.seat_tokens]


class _BlockingSeat(SeatCore[Rethink]):
    """A :class:`Seat`'s calls: its ``rethink`` is a plain function (it must not suspend)."""


class Seat:
    """One seat (or a spectator) at one table, blocking: every call is the blocking twin of
    :class:`~referee.client.AsyncSeat`'s, and sends the seat's token."""

    def __init__(self, client: RefereeClient, game_id: str, token: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token

    @property
    def _core(self) -> _BlockingSeat:
        return _BlockingSeat(self.client._core, self.game_id, self.token)

    view = blocking(_BlockingSeat.view)
    legal_moves = blocking(_BlockingSeat.legal_moves)
    validate = blocking(_BlockingSeat.validate)
    history = blocking(_BlockingSeat.history)
    history_page = blocking(_BlockingSeat.history_page)
    submit = blocking(_BlockingSeat.submit)
    watch = blocking_iter(_BlockingSeat.watch)
