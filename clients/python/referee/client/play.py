"""A seat's Play session: its updates and the answers to its moves over one gRPC stream.

:meth:`referee.client.AsyncSeat.play` opens one. ``async for update in session`` gives the
seat's updates (``WatchGameResponse``: version, events, view), one per version, in order,
until the game ends; ``await session.submit(move)`` resolves when the referee answers that
move, with the accepted version or the same typed exception as ``AsyncSeat.submit``.

After a drop the session reconnects by itself (as ``AsyncSeat.watch`` does): it joins again
after the last version it delivered, so no update is missed or repeated, and sends again
every request it had no answer for, moves with their same ``client_move_id``, so a move that
did land before the drop is not applied twice (its answer comes with ``duplicate`` set).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias

import grpc
import grpc.aio

from referee.client.calls import WatchCursor, auth_metadata, new_move_id
from referee.client.errors import OtherError, RefereeError, from_rejection, from_rpc_error
from referee.client.policy import Resume
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc

if TYPE_CHECKING:
    PlayCall: TypeAlias = grpc.aio.StreamStreamCall[
        referee_pb2.PlayRequest, referee_pb2.PlayResponse
    ]

MoveResult = referee_pb2.PlayResponse.MoveResult
Update = referee_pb2.WatchGameResponse


@dataclass
class _Pending:
    """A request sent (or to send) and not answered yet; answers come in request order."""

    request: referee_pb2.PlayRequest
    answer: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


_END = object()


def _closed() -> OtherError:
    return OtherError(grpc.StatusCode.CANCELLED, "SESSION_CLOSED", "the Play session is closed")


class AsyncPlay:
    """One seat's Play stream, reconnected after drops. Use as ``async with``.

    ``view`` and ``version`` are the last update's; ``finished`` is set once an update
    brought the game's outcome. Leaving the ``async with`` (or :meth:`close`) ends the
    stream; requests still unanswered then raise :class:`OtherError` ``SESSION_CLOSED``.
    ``stub``, ``game_id`` and ``token`` are the seat's (:meth:`AsyncSeat.play` passes them).
    """

    def __init__(
        self,
        stub: referee_pb2_grpc.RefereeServiceAsyncStub,
        game_id: str,
        token: str | None,
        after_version: int | None,
        resume: Resume,
    ) -> None:
        self.stub = stub
        self.game_id = game_id
        self.token = token
        self.cursor = WatchCursor(game_id, after_version, resume)
        self.view: game_pb2.View | None = None
        self.failure: RefereeError | None = None
        self._pending: collections.deque[_Pending] = collections.deque()
        self._updates: asyncio.Queue[Update | object] = asyncio.Queue()
        self._lock = asyncio.Lock()  # one writer at a time, and pending in the order written
        self._call: PlayCall | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def version(self) -> int | None:
        return self.cursor.last_version

    @property
    def finished(self) -> bool:
        return self.cursor.finished

    # --- the public face -------------------------------------------------------------------

    async def __aenter__(self) -> AsyncPlay:
        self._start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def __aiter__(self) -> AsyncPlay:
        self._start()
        return self

    async def __anext__(self) -> Update:
        """The next update; the iteration ends after the game's last one, or on close."""
        if self.cursor.finished and self._updates.empty():
            raise StopAsyncIteration
        item = await self._updates.get()
        if not isinstance(item, Update):
            self._updates.put_nowait(item)  # for any other reader, and the next call
            if self.failure is not None:
                raise self.failure
            raise StopAsyncIteration
        return item

    async def submit(
        self,
        move: game_pb2.Move,
        *,
        client_move_id: str | None = None,
        expected_version: int | None = None,
    ) -> MoveResult:
        """Play ``move``; resolves with the version it made once the referee answers it.

        Raises what ``AsyncSeat.submit`` would (``IllegalMove``, ``VersionConflict``, ...).
        When it returns, the update of that version has been delivered to this session.
        """
        submit = referee_pb2.PlayRequest.Submit(
            move=move, client_move_id=client_move_id or new_move_id()
        )
        if expected_version is not None:
            submit.expected_version = expected_version
        answer: MoveResult = await self._ask(referee_pb2.PlayRequest(submit=submit))
        return answer

    async def legal_moves(self) -> referee_pb2.ListLegalMovesResponse:
        """Every move this seat may make now, and the version they were listed at."""
        request = referee_pb2.PlayRequest(list_legal_moves=referee_pb2.PlayRequest.ListLegalMoves())
        answer: referee_pb2.ListLegalMovesResponse = await self._ask(request)
        return answer

    async def close(self) -> None:
        """End the stream; unanswered requests raise ``SESSION_CLOSED``."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._fail_pending(_closed())
        self._updates.put_nowait(_END)

    # --- the stream ------------------------------------------------------------------------

    def _start(self) -> None:
        if self._task is None and not self._closed:
            self._task = asyncio.create_task(self._run(), name=f"play:{self.game_id}")

    async def _ask(self, request: referee_pb2.PlayRequest) -> Any:
        self._start()
        pending = _Pending(request)
        async with self._lock:
            if self.failure is not None:
                raise self.failure
            if self._closed:
                raise _closed()
            self._pending.append(pending)
            if self._call is not None:
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await self._call.write(request)  # a failed write is re-sent on reconnect
        return await pending.answer

    def _join(self) -> referee_pb2.PlayRequest:
        join = referee_pb2.PlayRequest.Join(game_id=self.game_id)
        if self.cursor.last_version is not None:
            join.after_version = self.cursor.last_version
        return referee_pb2.PlayRequest(join=join)

    async def _connect(self) -> PlayCall:
        """A new stream: the join, then every unanswered request again, in order."""
        metadata = auth_metadata(self.token)
        async with self._lock:
            call: PlayCall = self.stub.Play(None, metadata=metadata)
            # A write fails only when the call has: reading it then raises its status.
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await call.write(self._join())
                for pending in self._pending:
                    await call.write(pending.request)
            self._call = call
        return call

    async def _run(self) -> None:
        try:
            await self._stream()
        except Exception as error:  # a bug, here or in the referee: fail, never hang
            self._end(OtherError(grpc.StatusCode.INTERNAL, "CLIENT_ERROR", repr(error)))

    async def _stream(self) -> None:
        while True:
            call: PlayCall | None = None
            try:
                call = await self._connect()
                await self._read(call)
            except grpc.aio.AioRpcError as error:
                failure = from_rpc_error(error)
                if not self.cursor.resumable(failure):
                    self._end(failure)
                    return
            else:
                # The referee ends a stream cleanly only once we have closed our side, which
                # this session never does before it stops reading: this is a drop.
                failure = self.cursor.ended_early()
                if not self.cursor.resumable(failure):
                    self._end(failure)
                    return
            finally:
                self._call = None
                if call is not None:
                    call.cancel()
            await asyncio.sleep(self.cursor.next_delay())

    async def _read(self, call: PlayCall) -> None:
        while True:
            response = await call.read()
            if not isinstance(response, referee_pb2.PlayResponse):  # grpc.aio.EOF
                return
            self._dispatch(response)

    def _dispatch(self, response: referee_pb2.PlayResponse) -> None:
        kind = response.WhichOneof("kind")
        if kind == "update":
            if self.cursor.fresh(response.update):
                self.view = response.update.view
                self._updates.put_nowait(response.update)
            return
        if not self._pending:
            raise RuntimeError(f"the referee answered a request never sent: {response}")
        pending = self._pending.popleft()
        if pending.answer.done():  # its caller gave up (cancelled)
            return
        if kind == "move_result":
            pending.answer.set_result(response.move_result)
        elif kind == "legal_moves":
            pending.answer.set_result(response.legal_moves)
        else:
            pending.answer.set_exception(from_rejection(response.rejection))

    def _end(self, failure: RefereeError) -> None:
        """The stream failed for good: what is unanswered and the updates raise ``failure``."""
        self.failure = failure
        self._fail_pending(failure)
        self._updates.put_nowait(_END)

    def _fail_pending(self, failure: RefereeError) -> None:
        while self._pending:
            pending = self._pending.popleft()
            if not pending.answer.done():
                pending.answer.set_exception(failure)
