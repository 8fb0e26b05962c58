"""The referee's API in protobuf terms, for every protocol: request in, use case, response out.

Both faces (gRPC in :mod:`service.grpc_api`, HTTP/JSON in :mod:`service.http_api`) call
these methods and differ only in how they read the caller's token and how they end a call
that failed. :func:`answering` is where every call is checked, logged and counted; the
faces map the :class:`RefereeError` it lets through to their own status codes.

``Play`` (one bidirectional stream per seat) is :class:`PlaySession`: the seat's watch and
its requests run side by side, and each request goes through the very use case (and
:func:`answering`) of its unary call; a refused one is answered in-band.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

import structlog
from google.protobuf.message import Message
from google.rpc import code_pb2

from referee.v1 import game_pb2, referee_pb2
from service.codecs import CODECS, GameCodec
from service.errors import BadRequest, Internal, RefereeError, Unavailable
from service.observability import Metrics
from service.referee import Referee, SeatView, Submitted, Update

log = structlog.get_logger("referee.rpc")

MAX_REQUEST_BYTES = 64 * 1024
# VerifyHistory carries a whole game (its history and every view a client recorded).
MAX_VERIFY_BYTES = 8 * 1024 * 1024
MAX_VERIFY_ITEMS = 100_000
# Replays at a time per process (each holds the GIL for up to a second on a long game);
# more wait up to VERIFY_WAIT_SECONDS, then get UNAVAILABLE VERIFY_BUSY.
MAX_VERIFYING = 2
VERIFY_WAIT_SECONDS = 5.0
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Counted(Protocol):
    """An API whose calls the faces check, log and count (RefereeApi, TournamentApi)."""

    @property
    def metrics(self) -> Metrics | None: ...


def _check_request(request: Message) -> None:
    limit = (
        MAX_VERIFY_BYTES
        if isinstance(request, referee_pb2.VerifyHistoryRequest)
        else MAX_REQUEST_BYTES
    )
    if request.ByteSize() > limit:
        raise BadRequest("REQUEST_TOO_LARGE", f"this request is limited to {limit} bytes")
    game_id = getattr(request, "game_id", None)
    if game_id is not None and not _GAME_ID.fullmatch(game_id):
        raise BadRequest("GAME_ID_INVALID", "game_id must be 1 to 64 letters, digits, '-' or '_'")


def _finish(
    metrics: Metrics | None,
    name: str,
    request: Message,
    started: float,
    code: str,
    reason: str | None,
    protocol: str,
) -> None:
    """The call's one log line and its metrics."""
    seconds = time.perf_counter() - started
    fields: dict[str, Any] = {
        "rpc": name,
        "protocol": protocol,
        "code": code,
        "latency_ms": round(seconds * 1000, 3),
    }
    if reason:
        fields["reason"] = reason
    log.info("rpc", **fields)
    if metrics is None:
        return
    metrics.rpc_seconds.labels(name, code).observe(seconds)
    if isinstance(request, referee_pb2.SubmitMoveRequest):
        game = request.move.WhichOneof("game") or "none"
        metrics.moves.labels(game, code, reason or "").inc()


@contextlib.asynccontextmanager
async def answering(
    metrics: Metrics | None, name: str, request: Message, protocol: str
) -> AsyncIterator[None]:
    """One call: the request is checked, then logged and counted once it ends.

    Every failure leaves as a :class:`RefereeError`; anything unexpected is logged with its
    traceback and becomes :class:`Internal`, so no face ever shows an internal message.
    """
    structlog.contextvars.clear_contextvars()
    started = time.perf_counter()
    try:
        _check_request(request)
        yield
    except RefereeError as error:
        _finish(metrics, name, request, started, error.code.name, error.reason, protocol)
        raise
    except Exception as error:
        log.exception("rpc failed", rpc=name, protocol=protocol)
        _finish(metrics, name, request, started, "INTERNAL", "INTERNAL", protocol)
        raise Internal() from error
    _finish(metrics, name, request, started, "OK", None, protocol)


def _bind(game_id: str, seat: int | None = None, version: int | None = None) -> None:
    fields: dict[str, object] = {"game_id": game_id}
    if seat is not None:
        fields["seat"] = seat
    if version is not None:
        fields["version"] = version
    structlog.contextvars.bind_contextvars(**fields)


def codec_for(game: str) -> GameCodec:
    return CODECS[game]


def move_from_proto(move: game_pb2.Move) -> tuple[str, Any]:
    """The game a move is for (its oneof) and the engine move."""
    game = move.WhichOneof("game")
    if game is None:
        raise BadRequest("MOVE_EMPTY", "the move names no game")
    return game, CODECS[game].move_from_proto(move)


def view_to_proto(view: SeatView) -> game_pb2.View:
    message = game_pb2.View(
        game=view.game,
        game_id=view.game_id,
        version=view.version,
        seats=view.seats,
        to_act=sorted(view.to_act),
    )
    if view.viewer is not None:
        message.seat = view.viewer
    if view.outcome is not None:
        message.outcome.CopyFrom(
            game_pb2.Outcome(
                winners=view.outcome.winners,
                summary=view.outcome.summary,
                scores=view.outcome.scores,
                placings=view.outcome.placings,
                tiebreaks=view.outcome.tiebreaks,
                team=view.outcome.team,
            )
        )
    codec_for(view.game).fill_view(view.body, message)
    return message


def events_to_proto(game: str, events: list[Any]) -> list[game_pb2.Event]:
    codec = codec_for(game)
    return [codec.event_to_proto(event) for event in events]


def update_to_proto(update: Update) -> referee_pb2.WatchGameResponse:
    return referee_pb2.WatchGameResponse(
        version=update.version,
        events=events_to_proto(update.view.game, update.events),
        view=view_to_proto(update.view),
        snapshot=update.snapshot,
    )


def rejection(client_move_id: str, error: RefereeError) -> referee_pb2.PlayResponse:
    """A refused Play request, in-band: what its unary call's status would have said."""
    return referee_pb2.PlayResponse(
        rejection=referee_pb2.PlayResponse.Rejection(
            client_move_id=client_move_id,
            code=getattr(code_pb2, error.code.name),
            reason=error.reason,
            message=error.message,
            metadata=error.metadata,
        )
    )


async def _join(requests: AsyncIterator[referee_pb2.PlayRequest]) -> referee_pb2.PlayRequest.Join:
    """The first message of a Play stream, which must be a well-formed join."""
    first = await anext(requests, None)
    if first is None or first.WhichOneof("kind") != "join":
        raise BadRequest("PLAY_JOIN_FIRST", "the first message of Play must be a join")
    _check_request(first.join)
    return first.join


class _Delivered:
    """The last version whose update is queued for the seat, and who waits for one."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.finished = False
        self._moved = asyncio.Condition()

    async def advance(self, version: int) -> None:
        async with self._moved:
            self.version = version
            self._moved.notify_all()

    async def finish(self) -> None:
        """No update will follow (the game is over): nobody needs to wait any more."""
        async with self._moved:
            self.finished = True
            self._moved.notify_all()

    async def reach(self, version: int) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self.finished or self.version >= version)


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


class PlaySession:
    """One Play stream after its join: the seat's watch and its requests, side by side.

    Two tasks feed one queue that the stream sends from, in order: the watch puts each
    update, the request reader each answer. The reader answers requests one at a time, in
    the order received, each through its unary call's use case under :func:`answering` (one
    log line and the metrics per move, as SubmitMove); it queues the answer to a move that
    made version v, or to a list made at v, only once the update of v is queued, so a seat
    holds the view a result speaks of before the result. The stream ends when both tasks
    have: the watch when the game is over, the reader when the client closes its side. A
    task that fails ends the stream with its error; the other is cancelled.
    """

    def __init__(
        self, api: RefereeApi, game_id: str, token: str | None, protocol: str, after: int | None
    ) -> None:
        self.api = api
        self.game_id = game_id
        self.token = token
        self.protocol = protocol
        self.delivered = _Delivered(-1 if after is None else after)
        self._out: asyncio.Queue[referee_pb2.PlayResponse | object] = asyncio.Queue()

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
            task.add_done_callback(lambda _: self._out.put_nowait(_ENDED))
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
            self._out.put_nowait(referee_pb2.PlayResponse(update=update_to_proto(update)))
            await self.delivered.advance(update.version)
        await self.delivered.finish()

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
            self._out.put_nowait(answer)

    async def _submit(self, submit: referee_pb2.PlayRequest.Submit) -> referee_pb2.PlayResponse:
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.game_id, move=submit.move, client_move_id=submit.client_move_id
        )
        if submit.HasField("expected_version"):
            request.expected_version = submit.expected_version
        try:
            async with answering(self.api.metrics, "Play.SubmitMove", request, self.protocol):
                _, done = await self.api.submitted(request, self.token)
        except RefereeError as error:
            return rejection(submit.client_move_id, error)
        await self.delivered.reach(done.version)
        result = referee_pb2.PlayResponse.MoveResult(
            client_move_id=submit.client_move_id, version=done.version, duplicate=done.duplicate
        )
        return referee_pb2.PlayResponse(move_result=result)

    async def _legal_moves(self) -> referee_pb2.PlayResponse:
        request = referee_pb2.ListLegalMovesRequest(game_id=self.game_id)
        try:
            async with answering(self.api.metrics, "Play.ListLegalMoves", request, self.protocol):
                moves = await self.api.list_legal_moves(request, self.token)
        except RefereeError as error:
            return rejection("", error)
        await self.delivered.reach(moves.version)
        return referee_pb2.PlayResponse(legal_moves=moves)


class RefereeApi:
    """Every RPC of ``referee.v1.RefereeService`` as protobuf in, protobuf out.

    ``token`` is the caller's seat token (``None`` for a spectator); reading it from the
    transport is the face's job.
    """

    def __init__(self, referee: Referee, metrics: Metrics | None = None) -> None:
        self.referee = referee
        self.metrics = metrics
        self._verifying = asyncio.Semaphore(MAX_VERIFYING)

    async def create_game(
        self, request: referee_pb2.CreateGameRequest
    ) -> referee_pb2.CreateGameResponse:
        codec = CODECS.get(request.game)
        options = codec.options_from_proto(request.options) if codec else {}
        created = await self.referee.create_game(
            request.game,
            request.seats,
            options,
            allow_spectators=request.allow_spectators,
            seed=request.seed or None,
        )
        _bind(created.game_id, version=created.version)
        assert codec is not None
        setup = game_pb2.GameSetup(
            game=created.meta.game,
            seats=created.meta.seats,
            options=codec.options_to_proto(created.config),
            allow_spectators=created.meta.allow_spectators,
        )
        return referee_pb2.CreateGameResponse(
            game_id=created.game_id,
            version=created.version,
            seed_sha256=created.seed_sha256,
            seat_tokens=[
                referee_pb2.SeatToken(seat=seat, token=token)
                for seat, token in enumerate(created.tokens)
            ],
            setup=setup,
        )

    async def get_view(
        self, request: referee_pb2.GetViewRequest, token: str | None
    ) -> referee_pb2.GetViewResponse:
        _bind(request.game_id)
        view = await self.referee.get_view(request.game_id, token)
        _bind(request.game_id, view.viewer, view.version)
        return referee_pb2.GetViewResponse(view=view_to_proto(view))

    async def list_legal_moves(
        self, request: referee_pb2.ListLegalMovesRequest, token: str | None
    ) -> referee_pb2.ListLegalMovesResponse:
        _bind(request.game_id)
        game, version, moves = await self.referee.legal_moves(request.game_id, token)
        _bind(request.game_id, version=version)
        codec = codec_for(game)
        return referee_pb2.ListLegalMovesResponse(
            version=version, moves=[codec.move_to_proto(move) for move in moves]
        )

    async def submit_move(
        self, request: referee_pb2.SubmitMoveRequest, token: str | None
    ) -> referee_pb2.SubmitMoveResponse:
        game, done = await self.submitted(request, token)
        return referee_pb2.SubmitMoveResponse(
            version=done.version,
            view=view_to_proto(done.view),
            events=events_to_proto(game, done.events),
            duplicate=done.duplicate,
        )

    async def submitted(
        self, request: referee_pb2.SubmitMoveRequest, token: str | None
    ) -> tuple[str, Submitted]:
        """SubmitMove's use case, before the answer is built: the move's game and result."""
        _bind(request.game_id)
        game, move = move_from_proto(request.move)
        expected = request.expected_version if request.HasField("expected_version") else None
        done = await self.referee.submit_move(
            request.game_id, token, game, move, request.client_move_id, expected
        )
        _bind(request.game_id, done.view.viewer, done.version)
        return game, done

    async def validate_move(
        self, request: referee_pb2.ValidateMoveRequest, token: str | None
    ) -> referee_pb2.ValidateMoveResponse:
        _bind(request.game_id)
        game, move = move_from_proto(request.move)
        version, error = await self.referee.validate_move(request.game_id, token, game, move)
        _bind(request.game_id, version=version)
        if error is None:
            return referee_pb2.ValidateMoveResponse(version=version, legal=True)
        return referee_pb2.ValidateMoveResponse(
            version=version, legal=False, reason=error.reason, message=error.message
        )

    async def watch_game(
        self, request: referee_pb2.WatchGameRequest, token: str | None
    ) -> AsyncIterator[referee_pb2.WatchGameResponse]:
        _bind(request.game_id)
        after = request.after_version if request.HasField("after_version") else None
        updates = await self.referee.watch(request.game_id, token, after)
        async for update in updates:
            yield update_to_proto(update)

    async def play(
        self, requests: AsyncIterator[referee_pb2.PlayRequest], token: str | None, protocol: str
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        """One seat's Play stream: its join, then its updates and the answers to its requests.

        A failed join (malformed, bad token, unknown game, bad ``after_version``) and a
        failed watch (the referee shutting down) raise and so end the call; every refused
        request is answered in-band with a ``rejection``.
        """
        join = await _join(requests)
        _bind(join.game_id)
        after = join.after_version if join.HasField("after_version") else None
        updates = await self.referee.watch(join.game_id, token, after, seated=True)
        session = PlaySession(self, join.game_id, token, protocol, after)
        async for response in session.run(updates, requests):
            yield response

    async def verify_history(
        self, request: referee_pb2.VerifyHistoryRequest, _token: str | None
    ) -> referee_pb2.VerifyHistoryResponse:
        """Stateless: the answer depends on the request alone (see service.verify)."""
        from service.verify import verify_history

        entries, views = len(request.history.entries), len(request.views)
        if entries > MAX_VERIFY_ITEMS:
            raise BadRequest("REQUEST_TOO_LARGE", f"at most {MAX_VERIFY_ITEMS} history entries")
        # One view per version and viewer (every seat and a spectator) at most.
        if views > (entries + 1) * (max(request.history.setup.seats, 0) + 1):
            raise BadRequest(
                "TOO_MANY_VIEWS", "at most one view per version and viewer (seats + spectator)"
            )
        try:
            await asyncio.wait_for(self._verifying.acquire(), VERIFY_WAIT_SECONDS)
        except TimeoutError:
            raise Unavailable(
                "VERIFY_BUSY", "this referee is replaying other games; try again shortly"
            ) from None
        try:
            report = await asyncio.to_thread(verify_history, request.history, request.views)
        finally:
            self._verifying.release()
        return referee_pb2.VerifyHistoryResponse(
            verified=report.ok,
            moves_replayed=report.replayed,
            views_checked=report.views,
            first_differing_version=report.first_differing_version,
            problems=report.problems,
        )

    async def get_history(
        self, request: referee_pb2.GetHistoryRequest, token: str | None
    ) -> referee_pb2.GetHistoryResponse:
        _bind(request.game_id)
        history = await self.referee.history(request.game_id, token)
        codec = codec_for(history.meta.game)
        response = referee_pb2.GetHistoryResponse(
            setup=game_pb2.GameSetup(
                game=history.meta.game,
                seats=history.meta.seats,
                options=codec.options_to_proto(history.config),
                allow_spectators=history.meta.allow_spectators,
            ),
            version=history.version,
            seed_sha256=history.meta.seed_sha256,
            seed=history.seed or b"",
            entries=[
                game_pb2.HistoryEntry(
                    version=item.version,
                    seat=item.seat,
                    move=codec.move_to_proto(item.move) if item.move is not None else None,
                    events=events_to_proto(history.meta.game, item.events),
                )
                for item in history.items
            ],
        )
        if history.outcome is not None:
            response.outcome.CopyFrom(
                game_pb2.Outcome(
                    winners=history.outcome.winners,
                    summary=history.outcome.summary,
                    scores=history.outcome.scores,
                    placings=history.outcome.placings,
                    tiebreaks=history.outcome.tiebreaks,
                    team=history.outcome.team,
                )
            )
        return response
