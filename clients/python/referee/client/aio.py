"""The asyncio client: ``AsyncRefereeClient`` and ``AsyncSeat``, the calls of
:mod:`referee.client.core` awaited over a ``grpc.aio`` channel."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import grpc
import grpc.aio

from referee.client.calls import Metadata
from referee.client.core import AsyncRethink, ChannelSpec, Connection, SeatCore, Stream
from referee.client.lobby import AsyncLobbyCalls
from referee.client.play import AsyncPlay
from referee.client.policy import NO_RETRY, Resume, Retry
from referee.client.ratings import AsyncRatingCalls
from referee.v1 import lobby_pb2_grpc, ratings_pb2_grpc, referee_pb2, referee_pb2_grpc

__all__ = ["AsyncRefereeClient", "AsyncRethink", "AsyncSeat"]

Request = TypeVar("Request")
Response = TypeVar("Response")
if TYPE_CHECKING:  # grpc's interceptor classes are generic only in grpc-stubs
    AsyncInterceptor: TypeAlias = (
        grpc.aio.UnaryUnaryClientInterceptor[Any, Any]
        | grpc.aio.UnaryStreamClientInterceptor[Any, Any]
        | grpc.aio.StreamUnaryClientInterceptor[Any, Any]
        | grpc.aio.StreamStreamClientInterceptor[Any, Any]
    )


class AsyncRefereeClient(
    AsyncLobbyCalls, AsyncRatingCalls, Connection[grpc.aio.Channel, "AsyncInterceptor"]
):
    """A connection to a referee over asyncio. Use as ``async with``, or await :meth:`close`.

    Its parameters are described on ``__init__``; ``interceptors`` are ``grpc.aio`` client
    interceptors. Its calls are those of :mod:`referee.client.core`, awaited.
    """

    stub: referee_pb2_grpc.RefereeServiceAsyncStub
    lobby_stub: lobby_pb2_grpc.LobbyServiceAsyncStub
    rating_stub: ratings_pb2_grpc.RatingServiceAsyncStub

    def _open(self, spec: ChannelSpec[AsyncInterceptor]) -> grpc.aio.Channel:
        # grpc-stubs leave the aio interceptor sequence untyped ("must cast or ignore").
        chain: Any = list(spec.interceptors) or None
        if spec.credentials is None:
            channel = grpc.aio.insecure_channel(
                spec.target, options=spec.options, interceptors=chain
            )
        else:
            channel = grpc.aio.secure_channel(
                spec.target, spec.credentials, options=spec.options, interceptors=chain
            )
        self.stub = referee_pb2_grpc.RefereeServiceStub(channel)
        self.lobby_stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        self.rating_stub = ratings_pb2_grpc.RatingServiceStub(channel)
        return channel

    @property
    def _connection(self) -> AsyncRefereeClient:
        """This client: it holds its own stubs and settings."""
        return self

    async def _invoke(
        self, method: Any, request: Any, *, timeout: float | None, metadata: Metadata
    ) -> Any:
        return await method(request, timeout=timeout, metadata=metadata)

    async def _pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def _open_stream(self, method: Any, request: Any, *, metadata: Metadata) -> Stream[Any]:
        stream: Stream[Any] = method(request, metadata=metadata)  # a grpc.aio.UnaryStreamCall
        return stream

    async def __aenter__(self) -> AsyncRefereeClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self.channel.close(None)

    async def call(
        self,
        method: grpc.aio.UnaryUnaryMultiCallable[Request, Response],
        request: Request,
        token: str | None = None,
        *,
        retry: Retry = NO_RETRY,
    ) -> Response:
        """One unary call of a stub's ``method``, sent again (the same request) as ``retry``
        says; a rejection is raised as its typed :class:`RefereeError`. Only a call that is
        safe to repeat may pass a retry policy."""
        reply: Response = await self._retried(method, request, token, retry)
        return reply

    def seat(self, game_id: str, token: str | None = None) -> AsyncSeat:
        """A handle on ``game_id`` as the seat of ``token`` (None: a spectator)."""
        return AsyncSeat(self, game_id, token)

    def seats(self, created: referee_pb2.CreateGameResponse) -> list[AsyncSeat]:
        """A handle for every seat of a game just created, in seat order."""
        return [self.seat(created.game_id, seat.token) for seat in created.seat_tokens]


class AsyncSeat(SeatCore[AsyncRethink]):
    """One seat (or a spectator) at one table. Every call sends the seat's token."""

    def __init__(self, client: AsyncRefereeClient, game_id: str, token: str | None) -> None:
        super().__init__(client, game_id, token)
        self.client: AsyncRefereeClient = client

    def play(self, after_version: int | None = None, *, resume: Resume | None = None) -> AsyncPlay:
        """This seat's game over one bidirectional stream: updates in, moves out.

        ``async with seat.play() as session``: ``async for update in session`` gives the
        seat's updates as :meth:`watch` does (a snapshot first unless ``after_version`` is
        set), ``await session.submit(move)`` answers each move with its version or raises
        as :meth:`submit` (no conflict retries), ``await session.legal_moves()`` lists. The
        session reconnects after a drop as :meth:`watch` does (``resume``), and sends again
        every unanswered request, moves with their same ``client_move_id``. See
        :class:`referee.client.play.AsyncPlay`.
        """
        resume = resume or self.client.resume
        return AsyncPlay(self.client.stub, self.game_id, self.token, after_version, resume)
