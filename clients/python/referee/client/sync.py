"""The blocking client: ``RefereeClient`` owns a channel, ``Seat`` plays at one table."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import grpc

from referee.client.calls import (
    Attempt,
    HistoryPages,
    Tries,
    WatchCursor,
    auth_metadata,
    create_request,
    new_move_id,
    note_recheck,
)
from referee.client.errors import RefereeError, VersionConflict, from_rpc_error
from referee.client.lobby import LobbyCalls
from referee.client.policy import NO_RETRY, ConflictRetry, Resume, Retry
from referee.v1 import game_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc

Request = TypeVar("Request")
Response = TypeVar("Response")
if TYPE_CHECKING:  # grpc's interceptor classes are generic only in grpc-stubs
    Interceptor: TypeAlias = (
        grpc.UnaryUnaryClientInterceptor[Any, Any]
        | grpc.UnaryStreamClientInterceptor[Any, Any]
        | grpc.StreamUnaryClientInterceptor[Any, Any]
        | grpc.StreamStreamClientInterceptor[Any, Any]
    )
Rethink = Callable[[game_pb2.View], game_pb2.Move | None]
"""Given the fresh view after a conflict: the move to send now, or None to give up."""


class RefereeClient(LobbyCalls):
    """A connection to a referee. Use as a context manager, or call :meth:`close`.

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
        interceptors: Sequence[Interceptor] = (),
    ) -> None:
        if credentials is None:
            self.channel = grpc.insecure_channel(target, options=options)
        else:
            self.channel = grpc.secure_channel(target, credentials, options=options)
        channel = grpc.intercept_channel(self.channel, *interceptors) if interceptors else None
        self.stub = referee_pb2_grpc.RefereeServiceStub(channel or self.channel)
        self.lobby_stub = lobby_pb2_grpc.LobbyServiceStub(channel or self.channel)
        self.timeout = timeout
        self.resume = resume or Resume()
        self.retry = retry or Retry()
        # Sent as x-referee-key on every call: a referee beyond loopback asks for it to create.
        self.operator_key = operator_key

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
        """One unary call, sent again (the same request) as ``retry`` says; a rejection is
        raised as its typed :class:`RefereeError`. Only a call that is safe to repeat may
        pass a retry policy."""
        metadata = auth_metadata(token, self.operator_key)
        tries = Tries(retry)
        while True:
            try:
                return method(request, timeout=self.timeout, metadata=metadata)
            except grpc.RpcError as error:
                failure = from_rpc_error(error)
                pause = tries.pause(failure)
                if pause is None:
                    raise failure from error
            time.sleep(pause)

    def create_game(
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
        return self.call(self.stub.CreateGame, request)

    def seat(self, game_id: str, token: str | None = None) -> Seat:
        """A handle on ``game_id`` as the seat of ``token`` (None: a spectator)."""
        return Seat(self, game_id, token)

    def seats(self, created: referee_pb2.CreateGameResponse) -> list[Seat]:
        """A handle for every seat of a game just created, in seat order."""
        return [self.seat(created.game_id, seat.token) for seat in created.seat_tokens]


class Seat:
    """One seat (or a spectator) at one table. Every call sends the seat's token."""

    def __init__(self, client: RefereeClient, game_id: str, token: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token

    def _call(
        self,
        method: grpc.UnaryUnaryMultiCallable[Request, Response],
        request: Request,
        retry: Retry | None,
    ) -> Response:
        """A call this seat may repeat: under ``retry``, else the client's policy."""
        policy = self.client.retry if retry is None else retry
        return self.client.call(method, request, self.token, retry=policy)

    def view(self, *, retry: Retry | None = None) -> game_pb2.View:
        """What this seat sees now, with the game's version."""
        request = referee_pb2.GetViewRequest(game_id=self.game_id)
        return self._call(self.client.stub.GetView, request, retry).view

    def legal_moves(self, *, retry: Retry | None = None) -> referee_pb2.ListLegalMovesResponse:
        """Every move this seat may make now, and the version they were listed at."""
        request = referee_pb2.ListLegalMovesRequest(game_id=self.game_id)
        return self._call(self.client.stub.ListLegalMoves, request, retry)

    def validate(
        self, move: game_pb2.Move, *, retry: Retry | None = None
    ) -> referee_pb2.ValidateMoveResponse:
        """A dry run: would ``move`` be accepted now? A malformed move raises InvalidArgument."""
        request = referee_pb2.ValidateMoveRequest(game_id=self.game_id, move=move)
        return self._call(self.client.stub.ValidateMove, request, retry)

    def history(
        self, *, page_size: int = 0, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """The whole move log as this seat may see it, every page of it in one response
        (see :class:`referee.client.calls.HistoryPages`); ``page_size``: entries per call
        (0: the referee's default). Each page is retried on its own."""
        pages = HistoryPages(self.game_id, page_size)
        request: referee_pb2.GetHistoryRequest | None = pages.first()
        while request is not None:
            request = pages.next(self._call(self.client.stub.GetHistory, request, retry))
        return pages.whole()

    def history_page(
        self, page_size: int = 0, page_token: str = "", *, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """One page of the move log: ``page_token`` from the page before (empty: the first)."""
        request = referee_pb2.GetHistoryRequest(
            game_id=self.game_id, page_size=page_size, page_token=page_token
        )
        return self._call(self.client.stub.GetHistory, request, retry)

    def submit(
        self,
        move: game_pb2.Move,
        *,
        client_move_id: str | None = None,
        expected_version: int | None = None,
        retry_on_conflict: int | ConflictRetry = 0,
        rethink: Rethink | None = None,
        retry: Retry | None = None,
    ) -> referee_pb2.SubmitMoveResponse:
        """Play ``move``; the referee applies it or raises a typed rejection.

        ``client_move_id`` (default: a fresh UUID, made once for this call) makes a resend
        safe: after a transport failure the same request is sent again under ``retry``
        (default: the client's :class:`Retry`), and a move that had landed is answered with
        its first result and ``duplicate`` set, never applied twice. With
        ``retry_on_conflict`` (a count or a :class:`ConflictRetry`), a move refused with
        :class:`VersionConflict` is tried again after a short backoff: ``rethink`` gets the
        fresh view and returns the move to send (None: give up and re-raise); without it the
        same move is re-checked with ValidateMove and resent if still legal. A pinned move
        is resent pinned to the version it was re-decided at.
        """
        policy = ConflictRetry.of(retry_on_conflict)
        attempt = Attempt(move, client_move_id or new_move_id(), expected_version)
        delays = policy.backoff.delays()
        for retries_left in range(policy.attempts, -1, -1):
            try:
                request = attempt.request(self.game_id)
                return self._call(self.client.stub.SubmitMove, request, retry)
            except VersionConflict as conflict:
                if retries_left == 0:
                    raise
                time.sleep(next(delays))
                again = self._rethink(attempt, conflict, rethink, retry)
                if again is None:
                    raise
                attempt = again
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _rethink(
        self,
        attempt: Attempt,
        conflict: RefereeError,
        rethink: Rethink | None,
        retry: Retry | None,
    ) -> Attempt | None:
        """The attempt to make after ``conflict``, decided on a fresh read; None: give up."""
        if rethink is not None:
            view = self.view(retry=retry)
            move = rethink(view)
            return None if move is None else attempt.again(move, view.version)
        check = self.validate(attempt.move, retry=retry)
        if not check.legal:
            note_recheck(conflict, check)
            return None
        return attempt.again(attempt.move, check.version)

    def watch(
        self, after_version: int | None = None, *, resume: Resume | None = None
    ) -> Generator[referee_pb2.WatchGameResponse, None, None]:
        """This seat's updates, one per version, in order, until the game ends.

        Without ``after_version`` the first message is a snapshot of the current view. When
        the stream drops (UNAVAILABLE, or a close before the game ended) the watch
        reconnects with ``after_version`` = the last version delivered, backing off between
        tries (``resume``, default the client's), so no version is missed or repeated. Any
        other rejection is raised at once. Close the iterator to stop early.
        """
        cursor = WatchCursor(self.game_id, after_version, resume or self.client.resume)
        metadata = auth_metadata(self.token, self.client.operator_key)
        while True:
            call = self.client.stub.WatchGame(cursor.request(), metadata=metadata)
            received = False
            try:
                for message in call:
                    received = True
                    if cursor.fresh(message):
                        yield message
            except grpc.RpcError as error:
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
                call.cancel()  # type: ignore[no-untyped-call]  # grpc-stubs leave it untyped
            time.sleep(cursor.next_delay())
