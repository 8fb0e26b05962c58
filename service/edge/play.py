"""``Play``: one bidirectional stream per seat, its watch and its requests side by side.

Each request of the stream goes through the very use case (and :func:`answering`) of its
unary call; a refused one is answered in-band with a ``rejection``.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator
from typing import Protocol

from referee.v1 import referee_pb2
from service.app.views import Submitted, Update
from service.edge.calls import answering, check_request
from service.edge.observability import Metrics
from service.edge.translate import rejection, update_to_proto
from service.errors import BadRequest, RefereeError


class Seated(Protocol):
    """The unary use cases a Play session answers its requests with (RefereeApi's)."""

    @property
    def metrics(self) -> Metrics | None: ...

    async def submitted(
        self, request: referee_pb2.SubmitMoveRequest, token: str | None
    ) -> tuple[str, Submitted]: ...

    async def list_legal_moves(
        self, request: referee_pb2.ListLegalMovesRequest, token: str | None
    ) -> referee_pb2.ListLegalMovesResponse: ...


async def join(requests: AsyncIterator[referee_pb2.PlayRequest]) -> referee_pb2.PlayRequest.Join:
    """The first message of a Play stream, which must be a well-formed join."""
    first = await anext(requests, None)
    if first is None or first.WhichOneof("kind") != "join":
        raise BadRequest("PLAY_JOIN_FIRST", "the first message of Play must be a join")
    check_request(first.join)
    return first.join


class _Delivered:
    """The last version whose update is queued for the seat, and the one answer that may
    wait for a later one (the request reader answers one request at a time).

    A plain future rather than an :class:`asyncio.Condition`: an update then costs an
    integer store and a comparison, not a lock and a notify, on every stream of a table."""

    __slots__ = ("_waiter", "_wanted", "finished", "version")

    def __init__(self, version: int) -> None:
        self.version = version
        self.finished = False
        self._wanted = 0
        self._waiter: asyncio.Future[None] | None = None

    def advance(self, version: int) -> None:
        self.version = version
        if version >= self._wanted:
            self._wake()

    def finish(self) -> None:
        """No update will follow (the game is over): nobody needs to wait any more."""
        self.finished = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def reach(self, version: int) -> None:
        if self.finished or self.version >= version:
            return
        if self._waiter is not None:
            raise RuntimeError("one answer at a time waits for its update")
        self._wanted = version
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None


def _failure(tasks: list[asyncio.Task[None]]) -> BaseException | None:
    """The error of the first task that failed, if one did."""
    for task in tasks:
        if task.done() and not task.cancelled():
            error = task.exception()
            if error is not None:
                return error
    return None


_ENDED = object()
"""Queued by each of a session's two tasks when it ends (its own messages all before)."""


class _Outbox:
    """What the stream sends next, in order: both tasks put, the stream alone takes.

    A deque and one future instead of an :class:`asyncio.Queue` (which holds four deques
    and an event, and counts unfinished tasks nobody joins): about 2 KB less per stream,
    and a put is an append and at most one wake-up."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: collections.deque[referee_pb2.PlayResponse | object] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: referee_pb2.PlayResponse | object) -> None:
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def get(self) -> referee_pb2.PlayResponse | object:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()


class PlaySession:
    """One Play stream after its join: the seat's watch and its requests, side by side.

    Two tasks feed one outbox that the stream sends from, in order: the watch puts each
    update, the request reader each answer. The reader answers requests one at a time, in
    the order received, each through its unary call's use case under :func:`answering` (one
    log line and the metrics per move, as SubmitMove); it queues the answer to a move that
    made version v, or to a list made at v, only once the update of v is queued, so a seat
    holds the view a result speaks of before the result. The stream ends when both tasks
    have: the watch when the game is over, the reader when the client closes its side. A
    task that fails ends the stream with its error; the other is cancelled.
    """

    def __init__(
        self, api: Seated, game_id: str, token: str | None, protocol: str, after: int | None
    ) -> None:
        self.api = api
        self.game_id = game_id
        self.token = token
        self.protocol = protocol
        self.delivered = _Delivered(-1 if after is None else after)
        self._out = _Outbox()

    async def run(
        self,
        updates: AsyncIterator[Update],
        requests: AsyncIterator[referee_pb2.PlayRequest],
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        tasks = [
            asyncio.create_task(self._forward(updates), name=f"play-watch:{self.game_id}"),
            asyncio.create_task(self._answer(requests), name=f"play-answer:{self.game_id}"),
        ]
        for task in tasks:
            task.add_done_callback(lambda _: self._out.put(_ENDED))
        running = len(tasks)
        try:
            while running:
                item = await self._out.get()
                if isinstance(item, referee_pb2.PlayResponse):
                    yield item
                    continue
                running -= 1
                failure = _failure(tasks)
                if failure is not None:
                    raise failure
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _forward(self, updates: AsyncIterator[Update]) -> None:
        async for update in updates:
            # CopyFrom, not PlayResponse(update=...): the constructor merges the update in
            # through a serialise and a parse (upb), CopyFrom copies it, for the same bytes.
            response = referee_pb2.PlayResponse()
            response.update.CopyFrom(update_to_proto(update))
            self._out.put(response)
            self.delivered.advance(update.version)
        self.delivered.finish()

    async def _answer(self, requests: AsyncIterator[referee_pb2.PlayRequest]) -> None:
        async for request in requests:
            kind = request.WhichOneof("kind")
            if kind == "submit":
                answer = await self._submit(request.submit)
            elif kind == "list_legal_moves":
                answer = await self._legal_moves()
            elif kind == "join":
                answer = rejection("", BadRequest("PLAY_JOINED", "this stream has joined already"))
            else:
                answer = rejection("", BadRequest("PLAY_REQUEST_EMPTY", "the request is empty"))
            self._out.put(answer)

    async def _submit(self, submit: referee_pb2.PlayRequest.Submit) -> referee_pb2.PlayResponse:
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.game_id, client_move_id=submit.client_move_id
        )
        request.move.CopyFrom(submit.move)  # a copy, not the constructor's merge (see _forward)
        if submit.HasField("expected_version"):
            request.expected_version = submit.expected_version
        try:
            async with answering(self.api.metrics, "Play.SubmitMove", request, self.protocol):
                _, done = await self.api.submitted(request, self.token)
        except RefereeError as error:
            return rejection(submit.client_move_id, error)
        await self.delivered.reach(done.version)
        response = referee_pb2.PlayResponse()
        result = response.move_result
        result.SetInParent()
        result.client_move_id = submit.client_move_id
        result.version = done.version
        result.duplicate = done.duplicate
        return response

    async def _legal_moves(self) -> referee_pb2.PlayResponse:
        request = referee_pb2.ListLegalMovesRequest(game_id=self.game_id)
        try:
            async with answering(self.api.metrics, "Play.ListLegalMoves", request, self.protocol):
                moves = await self.api.list_legal_moves(request, self.token)
        except RefereeError as error:
            return rejection("", error)
        await self.delivered.reach(moves.version)
        response = referee_pb2.PlayResponse()
        response.legal_moves.CopyFrom(moves)
        return response
