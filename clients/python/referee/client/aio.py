"""The asyncio client: ``AsyncRefereeClient`` and ``AsyncSeat``, shaped like the sync ones."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import grpc
import grpc.aio

from referee.client.calls import (
    Attempt,
    Tries,
    WatchCursor,
    auth_metadata,
    create_request,
    gathered_history,
    new_move_id,
    note_recheck,
)
from referee.client.errors import RefereeError, VersionConflict, from_rpc_error
from referee.client.lobby import AsyncLobbyCalls
from referee.client.play import AsyncPlay
from referee.client.policy import NO_RETRY, ConflictRetry, Resume, Retry
from referee.v1 import game_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc

Request = TypeVar("Request")
Response = TypeVar("Response")
if TYPE_CHECKING:  # grpc's interceptor classes are generic only in grpc-stubs
    AsyncInterceptor: TypeAlias = (
        grpc.aio.UnaryUnaryClientInterceptor[Any, Any]
        | grpc.aio.UnaryStreamClientInterceptor[Any, Any]
        | grpc.aio.StreamUnaryClientInterceptor[Any, Any]
        | grpc.aio.StreamStreamClientInterceptor[Any, Any]
    )
AsyncRethink = Callable[[game_pb2.View], game_pb2.Move | Awaitable[game_pb2.Move | None] | None]
"""Given the fresh view after a conflict: the move to send now, or None to give up.
May be a plain function or a coroutine function."""


class AsyncRefereeClient(AsyncLobbyCalls):
    """A connection to a referee. Use as ``async with``, or await :meth:`close`.

    ``timeout`` bounds every try of a unary call (seconds; None: no deadline). ``retry``
    is how reads and moves are tried again after a transport failure (default
    :class:`Retry`; :data:`NO_RETRY` turns it off; each call may set its own), ``resume``
    how often watches reconnect after a drop. ``options`` are gRPC channel options,
    ``interceptors`` gRPC client interceptors. ``operator_key`` is sent as
    ``x-referee-key`` (creating games may need one). The lobby's calls (``join_game``,
    ``list_games``, ...) come from :mod:`referee.client.lobby`.
    """

    def __init__(
        self,
        target: str,
        *,
        credentials: grpc.ChannelCredentials | None = None,
        options: Sequence[tuple[str, Any]] | None = None,
        timeout: float | None = 30.0,
        resume: Resume | None = None,
        retry: Retry | None = None,
        operator_key: str | None = None,
        interceptors: Sequence[AsyncInterceptor] = (),
    ) -> None:
        # grpc-stubs leave the aio interceptor sequence untyped ("must cast or ignore").
        chain: Any = list(interceptors) or None
        if credentials is None:
            self.channel = grpc.aio.insecure_channel(target, options=options, interceptors=chain)
        else:
            self.channel = grpc.aio.secure_channel(
                target, credentials, options=options, interceptors=chain
            )
        self.stub = referee_pb2_grpc.RefereeServiceStub(self.channel)
        self.lobby_stub = lobby_pb2_grpc.LobbyServiceStub(self.channel)
        self.timeout = timeout
        self.resume = resume or Resume()
        self.retry = retry or Retry()
        # Sent as x-referee-key on every call: a referee beyond loopback asks for it to create.
        self.operator_key = operator_key

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
        """One unary call, sent again (the same request) as ``retry`` says; a rejection is
        raised as its typed :class:`RefereeError`. Only a call that is safe to repeat may
        pass a retry policy."""
        metadata = auth_metadata(token, self.operator_key)
        tries = Tries(retry)
        while True:
            try:
                return await method(request, timeout=self.timeout, metadata=metadata)
            except grpc.aio.AioRpcError as error:
                failure = from_rpc_error(error)
                pause = tries.pause(failure)
                if pause is None:
                    raise failure from error
            await asyncio.sleep(pause)

    async def create_game(
        self,
        game: str,
        seats: int,
        options: game_pb2.TableOptions | None = None,
        allow_spectators: bool = False,
        seed: bytes | None = None,
        *,
        open_seats: int = 0,
        names: Sequence[str] = (),
        listed: bool = False,
    ) -> referee_pb2.CreateGameResponse:
        """A new table; the answer holds the game id and one token per held seat, the table
        admin token and, with ``open_seats`` (the last seats, left for ``join_game``), a join
        code. ``names`` name the held seats; ``listed`` puts the table in ``list_games``.

        Never retried: a create whose answer was lost (DEADLINE_EXCEEDED, or UNAVAILABLE
        after the request left) may have made a game, and a second try would make another.
        gRPC itself already sends again, transparently, a request that never left this
        client; any other failure is raised for the caller to decide.
        """
        request = create_request(
            game, seats, options, allow_spectators, seed, open_seats, names, listed
        )
        return await self.call(self.stub.CreateGame, request)

    def seat(self, game_id: str, token: str | None = None) -> AsyncSeat:
        """A handle on ``game_id`` as the seat of ``token`` (None: a spectator)."""
        return AsyncSeat(self, game_id, token)

    def seats(self, created: referee_pb2.CreateGameResponse) -> list[AsyncSeat]:
        """A handle for every seat of a game just created, in seat order."""
        return [self.seat(created.game_id, seat.token) for seat in created.seat_tokens]


class AsyncSeat:
    """One seat (or a spectator) at one table. Every call sends the seat's token."""

    def __init__(self, client: AsyncRefereeClient, game_id: str, token: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token

    async def _call(
        self,
        method: grpc.aio.UnaryUnaryMultiCallable[Request, Response],
        request: Request,
        retry: Retry | None,
    ) -> Response:
        """A call this seat may repeat: under ``retry``, else the client's policy."""
        policy = self.client.retry if retry is None else retry
        return await self.client.call(method, request, self.token, retry=policy)

    async def view(self, *, retry: Retry | None = None) -> game_pb2.View:
        """What this seat sees now, with the game's version."""
        request = referee_pb2.GetViewRequest(game_id=self.game_id)
        return (await self._call(self.client.stub.GetView, request, retry)).view

    async def legal_moves(
        self, *, retry: Retry | None = None
    ) -> referee_pb2.ListLegalMovesResponse:
        """Every move this seat may make now, and the version they were listed at."""
        request = referee_pb2.ListLegalMovesRequest(game_id=self.game_id)
        return await self._call(self.client.stub.ListLegalMoves, request, retry)

    async def validate(
        self, move: game_pb2.Move, *, retry: Retry | None = None
    ) -> referee_pb2.ValidateMoveResponse:
        """A dry run: would ``move`` be accepted now? A malformed move raises InvalidArgument."""
        request = referee_pb2.ValidateMoveRequest(game_id=self.game_id, move=move)
        return await self._call(self.client.stub.ValidateMove, request, retry)

    async def history(
        self, *, page_size: int = 0, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """The whole move log as this seat may see it, every page of it in one response
        (see :class:`referee.client.calls.HistoryPages`); ``page_size``: entries per call
        (0: the referee's default). Each page is retried on its own."""
        return await gathered_history(
            lambda request: self._call(self.client.stub.GetHistory, request, retry),
            self.game_id,
            page_size,
        )

    async def history_page(
        self, page_size: int = 0, page_token: str = "", *, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """One page of the move log: ``page_token`` from the page before (empty: the first)."""
        request = referee_pb2.GetHistoryRequest(
            game_id=self.game_id, page_size=page_size, page_token=page_token
        )
        return await self._call(self.client.stub.GetHistory, request, retry)

    async def submit(
        self,
        move: game_pb2.Move,
        *,
        client_move_id: str | None = None,
        expected_version: int | None = None,
        retry_on_conflict: int | ConflictRetry = 0,
        rethink: AsyncRethink | None = None,
        retry: Retry | None = None,
    ) -> referee_pb2.SubmitMoveResponse:
        """Play ``move``; the referee applies it or raises a typed rejection.

        As :meth:`referee.client.Seat.submit`; ``rethink`` may also be a coroutine function.
        """
        policy = ConflictRetry.of(retry_on_conflict)
        attempt = Attempt(move, client_move_id or new_move_id(), expected_version)
        delays = policy.backoff.delays()
        for retries_left in range(policy.attempts, -1, -1):
            try:
                request = attempt.request(self.game_id)
                return await self._call(self.client.stub.SubmitMove, request, retry)
            except VersionConflict as conflict:
                if retries_left == 0:
                    raise
                await asyncio.sleep(next(delays))
                again = await self._rethink(attempt, conflict, rethink, retry)
                if again is None:
                    raise
                attempt = again
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _rethink(
        self,
        attempt: Attempt,
        conflict: RefereeError,
        rethink: AsyncRethink | None,
        retry: Retry | None,
    ) -> Attempt | None:
        """The attempt to make after ``conflict``, decided on a fresh read; None: give up."""
        if rethink is not None:
            view = await self.view(retry=retry)
            decided = rethink(view)
            move = await decided if inspect.isawaitable(decided) else decided
            return None if move is None else attempt.again(move, view.version)
        check = await self.validate(attempt.move, retry=retry)
        if not check.legal:
            note_recheck(conflict, check)
            return None
        return attempt.again(attempt.move, check.version)

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

    async def watch(
        self, after_version: int | None = None, *, resume: Resume | None = None
    ) -> AsyncGenerator[referee_pb2.WatchGameResponse, None]:
        """This seat's updates, one per version, in order, until the game ends.

        As :meth:`referee.client.Seat.watch`. To stop early, close the generator (e.g.
        ``async with contextlib.aclosing(seat.watch()) as updates``) so the stream is
        cancelled at once.
        """
        cursor = WatchCursor(self.game_id, after_version, resume or self.client.resume)
        metadata = auth_metadata(self.token, self.client.operator_key)
        while True:
            call = self.client.stub.WatchGame(cursor.request(), metadata=metadata)
            received = False
            try:
                async for message in call:
                    received = True
                    if cursor.fresh(message):
                        yield message
            except grpc.aio.AioRpcError as error:
                failure = from_rpc_error(error)
                if not cursor.resumable(failure):
                    raise failure from error
            else:
                if cursor.ended(received):
                    return
                failure = cursor.ended_early()
                if not cursor.resumable(failure):
                    raise failure
            finally:
                call.cancel()
            await asyncio.sleep(cursor.next_delay())
