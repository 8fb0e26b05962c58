"""Every call of both clients, written once as coroutines.

:class:`ClientCore` and :class:`SeatCore` hold the logic of a client and of a seat: which
RPC a method sends, what it retries, how a submit carries on after a conflict and how a
watch resumes. They reach the referee only through three waits each client makes in its
own way (one try of a unary call, a pause, a server stream):

- the asyncio client (:class:`referee.client.AsyncRefereeClient`) is a :class:`ClientCore`
  over a ``grpc.aio`` channel, and its seats are :class:`SeatCore` s: it awaits them;
- the blocking client (:class:`referee.client.RefereeClient`) runs a :class:`ClientCore`
  over a ``grpc`` channel whose waits block, so its coroutines never suspend and
  :mod:`referee.client.derive` runs them to their end in the caller's thread.

Which RPC is which, on either kind of stub, is the table of :class:`Rpc` s below.
"""

from __future__ import annotations

import abc
import inspect
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import grpc
from google.protobuf.message import Message

from referee.client.calls import (
    Attempt,
    Metadata,
    Tries,
    WatchCursor,
    auth_metadata,
    create_request,
    gathered_history,
    new_move_id,
    note_recheck,
)
from referee.client.errors import RefereeError, VersionConflict, from_rpc_error
from referee.client.policy import NO_RETRY, ConflictRetry, Resume, Retry
from referee.v1 import (
    game_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    ratings_pb2,
    ratings_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
)

RequestT = TypeVar("RequestT", bound=Message)
ResponseT = TypeVar("ResponseT", bound=Message)
Item = TypeVar("Item", covariant=True)
ChannelT = TypeVar("ChannelT")
InterceptorT = TypeVar("InterceptorT")

AsyncRethink = Callable[[game_pb2.View], game_pb2.Move | Awaitable[game_pb2.Move | None] | None]
"""Given the fresh view after a conflict: the move to send now, or None to give up.
May be a plain function or a coroutine function."""
Rethink = Callable[[game_pb2.View], game_pb2.Move | None]
"""Given the fresh view after a conflict: the move to send now, or None to give up."""
RethinkT = TypeVar("RethinkT", bound=AsyncRethink)


@dataclass(frozen=True)
class Rpc(Generic[RequestT, ResponseT]):
    """One RPC of the referee, known by its request and response messages; its service and
    name are read from the proto, so an entry that matches no RPC fails at import. A client
    finds it on its own stub (``grpc`` or ``grpc.aio``) by name when it sends it."""

    request: type[RequestT]
    response: type[ResponseT]
    service: str = field(init=False)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        name = self.request.__name__.removesuffix("Request")
        for service in self.request.DESCRIPTOR.file.services_by_name.values():
            method = service.methods_by_name.get(name)
            if method is not None and method.output_type is self.response.DESCRIPTOR:
                object.__setattr__(self, "service", service.name)
                object.__setattr__(self, "name", name)
                return
        raise ValueError(f"no RPC takes {self.request.__name__} and gives {self.response}")

    def method(self, connection: Connection[Any, Any]) -> Any:
        """The stub's callable for this RPC on ``connection`` (looked up at each call, so a
        stub replaced on the client, e.g. to measure it, is the one used)."""
        if self.service == "LobbyService":
            return getattr(connection.lobby_stub, self.name)
        if self.service == "RatingService":
            return getattr(connection.rating_stub, self.name)
        return getattr(connection.stub, self.name)


CREATE_GAME = Rpc(referee_pb2.CreateGameRequest, referee_pb2.CreateGameResponse)
GET_VIEW = Rpc(referee_pb2.GetViewRequest, referee_pb2.GetViewResponse)
LIST_LEGAL_MOVES = Rpc(referee_pb2.ListLegalMovesRequest, referee_pb2.ListLegalMovesResponse)
VALIDATE_MOVE = Rpc(referee_pb2.ValidateMoveRequest, referee_pb2.ValidateMoveResponse)
SUBMIT_MOVE = Rpc(referee_pb2.SubmitMoveRequest, referee_pb2.SubmitMoveResponse)
GET_HISTORY = Rpc(referee_pb2.GetHistoryRequest, referee_pb2.GetHistoryResponse)
WATCH_GAME = Rpc(referee_pb2.WatchGameRequest, referee_pb2.WatchGameResponse)
JOIN_GAME = Rpc(lobby_pb2.JoinGameRequest, lobby_pb2.JoinGameResponse)
LEAVE_GAME = Rpc(lobby_pb2.LeaveGameRequest, lobby_pb2.LeaveGameResponse)
START_GAME = Rpc(lobby_pb2.StartGameRequest, lobby_pb2.StartGameResponse)
LIST_GAMES = Rpc(lobby_pb2.ListGamesRequest, lobby_pb2.ListGamesResponse)
REISSUE_SEAT_TOKEN = Rpc(lobby_pb2.ReissueSeatTokenRequest, lobby_pb2.ReissueSeatTokenResponse)
FORFEIT_SEAT = Rpc(lobby_pb2.ForfeitSeatRequest, lobby_pb2.ForfeitSeatResponse)
REPLACE_SEAT_BY_BOT = Rpc(lobby_pb2.ReplaceSeatByBotRequest, lobby_pb2.ReplaceSeatByBotResponse)
ABORT_GAME = Rpc(lobby_pb2.AbortGameRequest, lobby_pb2.AbortGameResponse)
GET_RATING = Rpc(ratings_pb2.GetRatingRequest, ratings_pb2.GetRatingResponse)
LIST_RATING_HISTORY = Rpc(
    ratings_pb2.ListRatingHistoryRequest, ratings_pb2.ListRatingHistoryResponse
)
LIST_LEADERBOARD = Rpc(ratings_pb2.ListLeaderboardRequest, ratings_pb2.ListLeaderboardResponse)


class Stream(Protocol[Item]):
    """A server stream as the core reads it: ``async for``, and cancel when done."""

    def __aiter__(self) -> AsyncIterator[Item]: ...

    def cancel(self) -> bool: ...


@dataclass(frozen=True)
class ChannelSpec(Generic[InterceptorT]):
    """The channel a client opens: where to, and with what (see :class:`Connection`)."""

    target: str
    credentials: grpc.ChannelCredentials | None
    options: Sequence[tuple[str, Any]] | None
    interceptors: Sequence[InterceptorT]


class Connection(Generic[ChannelT, InterceptorT], abc.ABC):
    """What both clients are made of: a channel of their own kind, its stubs, and the
    settings their calls read."""

    stub: referee_pb2_grpc.RefereeServiceStub
    lobby_stub: lobby_pb2_grpc.LobbyServiceStub
    rating_stub: ratings_pb2_grpc.RatingServiceStub

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
        interceptors: Sequence[InterceptorT] = (),
    ) -> None:
        """A connection to a referee at ``target``. Use as a context manager (``async with``
        for the asyncio client), or close it.

        ``timeout`` bounds every try of a unary call (seconds; None: no deadline). ``retry``
        is how reads and moves are tried again after a transport failure (default
        :class:`Retry`; :data:`NO_RETRY` turns it off; each call may set its own),
        ``resume`` how often watches reconnect after a drop. ``options`` are gRPC channel
        options, ``interceptors`` gRPC client interceptors (of the client's kind: ``grpc``
        or ``grpc.aio``). ``operator_key`` is sent as ``x-referee-key`` (creating games may
        need one). The lobby's calls (``join_game``, ``list_games``, ...) come from
        :mod:`referee.client.lobby`, the ratings' (``get_rating``, ``rating_history``,
        ``leaderboard``) from :mod:`referee.client.ratings`.
        """
        self.timeout = timeout
        self.resume = resume or Resume()
        self.retry = retry or Retry()
        # Sent as x-referee-key on every call: a referee beyond loopback asks for it to create.
        self.operator_key = operator_key
        self.channel = self._open(ChannelSpec(target, credentials, options, interceptors))

    @abc.abstractmethod
    def _open(self, spec: ChannelSpec[InterceptorT]) -> ChannelT:
        """The channel ``spec`` asks for; sets ``stub``, ``lobby_stub`` and ``rating_stub``
        on it (through the interceptors)."""


class ClientCore(abc.ABC):
    """A client's calls, as coroutines over the three waits a client makes its own way."""

    @property
    @abc.abstractmethod
    def _connection(self) -> Connection[Any, Any]:
        """The stubs, and the settings every call reads (timeout, retry, resume, key)."""

    @abc.abstractmethod
    async def _invoke(
        self, method: Any, request: Any, *, timeout: float | None, metadata: Metadata
    ) -> Any:
        """One try of the unary ``method`` (a stub's): its answer, or its ``grpc.RpcError``."""

    @abc.abstractmethod
    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` before trying again."""

    @abc.abstractmethod
    def _open_stream(self, method: Any, request: Any, *, metadata: Metadata) -> Stream[Any]:
        """Start the server-streaming ``method`` (a stub's)."""

    async def _retried(self, method: Any, request: Any, token: str | None, retry: Retry) -> Any:
        """One unary call, sent again (the same request) as ``retry`` says; a rejection is
        raised as its typed :class:`RefereeError`. Only a call that is safe to repeat may
        pass a retry policy."""
        metadata = auth_metadata(token, self._connection.operator_key)
        tries = Tries(retry)
        while True:
            try:
                timeout = self._connection.timeout
                return await self._invoke(method, request, timeout=timeout, metadata=metadata)
            except grpc.RpcError as error:
                failure = from_rpc_error(error)
                pause = tries.pause(failure)
                if pause is None:
                    raise failure from error
            await self._pause(pause)

    async def _unary(
        self,
        rpc: Rpc[RequestT, ResponseT],
        request: RequestT,
        token: str | None = None,
        *,
        retry: Retry = NO_RETRY,
    ) -> ResponseT:
        """``rpc`` as :meth:`_retried` sends it, as the seat of ``token`` (None: none)."""
        reply: ResponseT = await self._retried(rpc.method(self._connection), request, token, retry)
        return reply

    def _stream(
        self, rpc: Rpc[RequestT, ResponseT], request: RequestT, metadata: Metadata
    ) -> Stream[ResponseT]:
        """``rpc``'s server stream, started with ``metadata``."""
        return self._open_stream(rpc.method(self._connection), request, metadata=metadata)

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
        return await self._unary(CREATE_GAME, request)


class SeatCore(Generic[RethinkT]):
    """One seat (or a spectator) at one table. Every call sends the seat's token.

    ``RethinkT`` is what ``submit`` takes as ``rethink``: the asyncio seat takes coroutine
    functions too, the blocking one plain functions only.
    """

    def __init__(self, client: ClientCore, game_id: str, token: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token

    async def _call(
        self, rpc: Rpc[RequestT, ResponseT], request: RequestT, retry: Retry | None
    ) -> ResponseT:
        """A call this seat may repeat: under ``retry``, else the client's policy."""
        policy = self.client._connection.retry if retry is None else retry
        return await self.client._unary(rpc, request, self.token, retry=policy)

    async def view(self, *, retry: Retry | None = None) -> game_pb2.View:
        """What this seat sees now, with the game's version."""
        request = referee_pb2.GetViewRequest(game_id=self.game_id)
        return (await self._call(GET_VIEW, request, retry)).view

    async def legal_moves(
        self, *, retry: Retry | None = None
    ) -> referee_pb2.ListLegalMovesResponse:
        """Every move this seat may make now, and the version they were listed at."""
        request = referee_pb2.ListLegalMovesRequest(game_id=self.game_id)
        return await self._call(LIST_LEGAL_MOVES, request, retry)

    async def validate(
        self, move: game_pb2.Move, *, retry: Retry | None = None
    ) -> referee_pb2.ValidateMoveResponse:
        """A dry run: would ``move`` be accepted now? A malformed move raises InvalidArgument."""
        request = referee_pb2.ValidateMoveRequest(game_id=self.game_id, move=move)
        return await self._call(VALIDATE_MOVE, request, retry)

    async def history(
        self, *, page_size: int = 0, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """The whole move log as this seat may see it, every page of it in one response
        (see :class:`referee.client.calls.HistoryPages`); ``page_size``: entries per call
        (0: the referee's default). Each page is retried on its own."""
        return await gathered_history(
            lambda request: self._call(GET_HISTORY, request, retry), self.game_id, page_size
        )

    async def history_page(
        self, page_size: int = 0, page_token: str = "", *, retry: Retry | None = None
    ) -> referee_pb2.GetHistoryResponse:
        """One page of the move log: ``page_token`` from the page before (empty: the first)."""
        request = referee_pb2.GetHistoryRequest(
            game_id=self.game_id, page_size=page_size, page_token=page_token
        )
        return await self._call(GET_HISTORY, request, retry)

    async def submit(
        self,
        move: game_pb2.Move,
        *,
        client_move_id: str | None = None,
        expected_version: int | None = None,
        retry_on_conflict: int | ConflictRetry = 0,
        rethink: RethinkT | None = None,
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
        is resent pinned to the version it was re-decided at. The asyncio seat's
        ``rethink`` may also be a coroutine function.
        """
        policy = ConflictRetry.of(retry_on_conflict)
        attempt = Attempt(move, client_move_id or new_move_id(), expected_version)
        delays = policy.backoff.delays()
        for retries_left in range(policy.attempts, -1, -1):
            try:
                return await self._call(SUBMIT_MOVE, attempt.request(self.game_id), retry)
            except VersionConflict as conflict:
                if retries_left == 0:
                    raise
                await self.client._pause(next(delays))
                again = await self._rethink(attempt, conflict, rethink, retry)
                if again is None:
                    raise
                attempt = again
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _rethink(
        self,
        attempt: Attempt,
        conflict: RefereeError,
        rethink: RethinkT | None,
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

    async def watch(
        self, after_version: int | None = None, *, resume: Resume | None = None
    ) -> AsyncGenerator[referee_pb2.WatchGameResponse, None]:
        """This seat's updates, one per version, in order, until the game ends.

        Without ``after_version`` the first message is a snapshot of the current view. When
        the stream drops (UNAVAILABLE, or a close before the game ended) the watch
        reconnects with ``after_version`` = the last version delivered, backing off between
        tries (``resume``, default the client's), so no version is missed or repeated. Any
        other rejection is raised at once. To stop early, close the iterator (asyncio:
        ``async with contextlib.aclosing(seat.watch()) as updates``) so the stream is
        cancelled at once.
        """
        connection = self.client._connection
        cursor = WatchCursor(self.game_id, after_version, resume or connection.resume)
        metadata = auth_metadata(self.token, connection.operator_key)
        while True:
            call = self.client._stream(WATCH_GAME, cursor.request(), metadata)
            received = False
            try:
                async for message in call:
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
                call.cancel()
            await self.client._pause(cursor.next_delay())
