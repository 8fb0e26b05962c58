"""The referee's API in protobuf terms, for every protocol: request in, use case, response out.

Each method reads its request through :mod:`service.edge.translate`, runs one use case of
:class:`service.app.referee.Referee` and answers through :mod:`service.edge.translate` again.
:data:`RPCS` routes every RPC of ``referee.v1.RefereeService`` to its method; both faces
(gRPC in :mod:`service.edge.grpc_api`, HTTP/JSON in :mod:`service.edge.connect.face`) are
built from it and run each call under :func:`service.edge.calls.answering` (limits, log
line, metrics). ``Play`` is a :class:`service.edge.play.PlaySession`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from referee.v1 import referee_pb2
from service.app.limits import Limits
from service.app.lobby import Lobby
from service.app.referee import RatedTable, Referee
from service.app.views import Submitted
from service.edge import translate
from service.edge.calls import bind
from service.edge.encoded import Encoded
from service.edge.observability import Metrics
from service.edge.play import PlaySession, join
from service.edge.rpcs import RpcTable, bidi_stream, encoded_unary, server_stream, unary
from service.edge.verifying import Verifier


class RefereeApi:
    """Every RPC of ``referee.v1.RefereeService`` as protobuf in, protobuf out.

    ``token`` is the caller's seat token (``None`` for a spectator); reading it from the
    transport is the face's job.
    """

    def __init__(
        self,
        referee: Referee,
        metrics: Metrics | None = None,
        verifier: Verifier | None = None,
        limits: Limits | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        self.referee = referee
        self.lobby = lobby
        self.metrics = metrics
        self.verifier = verifier or Verifier()
        self.limits = limits or Limits.unlimited()

    async def create_game(
        self, request: referee_pb2.CreateGameRequest, _token: str | None
    ) -> referee_pb2.CreateGameResponse:
        """No seat token is asked for; an operator key where this referee asks for one
        (for a rated table, always), and the caller's quotas (service.app.limits)."""
        self.limits.require_operator()
        if request.rated:
            self.limits.require_key("a rated table")
        created = await self.referee.create_game(
            request.game,
            request.seats,
            translate.options_from_proto(request.game, request.options),
            allow_spectators=request.allow_spectators,
            seed=request.seed or None,
            admit=self.limits.create_game,
            open_seats=request.open_seats,
            names=tuple(request.names),
            listed=request.listed,
            rated=RatedTable() if request.rated else None,
        )
        bind(created.game_id, version=created.version)
        response = translate.created_to_proto(created)
        if self.lobby is not None and created.host is not None:
            issued = await self.lobby.opened(created.game_id, created.host)
            if issued is not None:
                response.join_code = issued.code
                response.join_code_expires_at_unix_ms = int(issued.expires_at * 1000)
        return response

    async def get_view(
        self, request: referee_pb2.GetViewRequest, token: str | None
    ) -> referee_pb2.GetViewResponse:
        bind(request.game_id)
        view = await self.referee.get_view(request.game_id, token)
        bind(request.game_id, view.viewer, view.version)
        return referee_pb2.GetViewResponse(view=translate.view_to_proto(view))

    async def list_legal_moves(
        self, request: referee_pb2.ListLegalMovesRequest, token: str | None
    ) -> referee_pb2.ListLegalMovesResponse:
        bind(request.game_id)
        game, version, moves = await self.referee.legal_moves(request.game_id, token)
        bind(request.game_id, version=version)
        return referee_pb2.ListLegalMovesResponse(
            version=version, moves=translate.moves_to_proto(game, moves)
        )

    async def submit_move(
        self, request: referee_pb2.SubmitMoveRequest, token: str | None
    ) -> referee_pb2.SubmitMoveResponse:
        game, done = await self.submitted(request, token)
        return translate.submitted_to_proto(game, done)

    async def submitted(
        self, request: referee_pb2.SubmitMoveRequest, token: str | None
    ) -> tuple[str, Submitted]:
        """SubmitMove's use case, before the answer is built: the move's game and result."""
        bind(request.game_id)
        game, move = translate.move_from_proto(request.move)
        expected = request.expected_version if request.HasField("expected_version") else None
        done = await self.referee.submit_move(
            request.game_id, token, game, move, request.client_move_id, expected
        )
        bind(request.game_id, version=done.version)  # the seat: bound by the referee
        return game, done

    async def validate_move(
        self, request: referee_pb2.ValidateMoveRequest, token: str | None
    ) -> referee_pb2.ValidateMoveResponse:
        bind(request.game_id)
        game, move = translate.move_from_proto(request.move)
        version, error = await self.referee.validate_move(request.game_id, token, game, move)
        bind(request.game_id, version=version)
        return translate.validated_to_proto(version, error)

    async def watch_game(
        self, request: referee_pb2.WatchGameRequest, token: str | None
    ) -> AsyncIterator[referee_pb2.WatchGameResponse]:
        bind(request.game_id)
        after = request.after_version if request.HasField("after_version") else None
        updates = await self.referee.watch(request.game_id, token, after, revealed=request.revealed)
        async with self.limits.watching():
            async for update in updates:
                yield translate.update_to_proto(update)

    async def play(
        self, requests: AsyncIterator[referee_pb2.PlayRequest], token: str | None, protocol: str
    ) -> AsyncIterator[referee_pb2.PlayResponse]:
        """One seat's Play stream: its join, then its updates and the answers to its requests.

        A failed join (malformed, bad token, unknown game, bad ``after_version``) and a
        failed watch (the referee shutting down) raise and so end the call; every refused
        request is answered in-band with a ``rejection``.
        """
        joined = await join(requests)
        bind(joined.game_id)
        after = joined.after_version if joined.HasField("after_version") else None
        updates = await self.referee.watch(joined.game_id, token, after, seated=True)
        session = PlaySession(self, joined.game_id, token, protocol, after)
        async with self.limits.watching():
            async for response in session.run(updates, requests):
                yield response

    async def verify_history(self, request: Encoded, _token: str | None) -> Encoded:
        """Stateless: the answer depends on the request alone (see service.edge.verify). The
        request stays bytes here: a worker process parses, checks and replays it and
        answers in its format (service.edge.verifying), so the event loop never decodes it."""
        return request.answer(await self.verifier.verify(request))

    async def get_history(
        self, request: referee_pb2.GetHistoryRequest, token: str | None
    ) -> referee_pb2.GetHistoryResponse:
        bind(request.game_id)
        history = await self.referee.history(
            request.game_id, token, request.page_size, request.page_token
        )
        return translate.history_to_proto(history)


RPCS = RpcTable(
    referee_pb2.DESCRIPTOR.services_by_name["RefereeService"],
    (
        unary("CreateGame", RefereeApi.create_game),
        unary("GetView", RefereeApi.get_view),
        unary("ListLegalMoves", RefereeApi.list_legal_moves),
        unary("SubmitMove", RefereeApi.submit_move),
        unary("ValidateMove", RefereeApi.validate_move),
        server_stream("WatchGame", RefereeApi.watch_game),
        unary("GetHistory", RefereeApi.get_history),
        bidi_stream("Play", RefereeApi.play),
        encoded_unary("VerifyHistory", RefereeApi.verify_history),
    ),
)
"""Every RPC of ``referee.v1.RefereeService``: both faces serve exactly these."""
