"""LobbyService in protobuf terms: request in, a :class:`service.app.lobby.Lobby` use case,
response out; :data:`RPCS` routes its RPCs for both faces (service.edge.grpc_api and
service.edge.connect.face serve it like RefereeService, each call under
service.edge.calls.answering).

Every RPC is bounded: JoinGame by the joins per address per minute and the wrong join
codes per address (service.app.lobby), every table change by the table's action cap
(service.domain.hosting), ListGames by its page size and a rate per caller (service.app.limits).
"""

from __future__ import annotations

from referee.v1 import lobby_pb2, table_pb2
from service.app.limits import Limits
from service.app.lobby import Hosted, Lobby
from service.edge import translate
from service.edge.calls import bind
from service.edge.observability import Metrics
from service.edge.rpcs import RpcTable, unary
from service.storage.lobby_listing import Summary, page_size


def _table(hosted: Hosted) -> table_pb2.Table:
    return translate.host_to_proto(hosted.meta, hosted.host, finished=hosted.finished)


def _listed(summary: Summary) -> lobby_pb2.ListedGame:
    return lobby_pb2.ListedGame(
        game_id=summary.game_id,
        game=summary.game,
        status=summary.status,  # type: ignore[arg-type]
        seats=summary.seats,
        seats_taken=summary.taken,
        allow_spectators=summary.allow_spectators,
        names=list(summary.names),
        clock=translate.clock_to_proto(summary.clock),
        created_at_unix_ms=summary.created_ms,
    )


class LobbyApi:
    """Every RPC of ``referee.v1.LobbyService``; ``token`` a seat or table admin token."""

    def __init__(
        self, lobby: Lobby, metrics: Metrics | None = None, limits: Limits | None = None
    ) -> None:
        self.lobby = lobby
        self.metrics = metrics
        self.limits = limits or Limits.unlimited()

    async def join_game(
        self, request: lobby_pb2.JoinGameRequest, _token: str | None
    ) -> lobby_pb2.JoinGameResponse:
        joined = await self.lobby.join(
            request.join_code, request.game_id, request.display_name, request.player_id
        )
        bind(joined.game_id, joined.seat)
        return lobby_pb2.JoinGameResponse(
            game_id=joined.game_id,
            seat=joined.seat,
            seat_token=joined.token,
            table=_table(joined.table),
        )

    async def leave_game(
        self, request: lobby_pb2.LeaveGameRequest, token: str | None
    ) -> lobby_pb2.LeaveGameResponse:
        bind(request.game_id)
        return lobby_pb2.LeaveGameResponse(
            table=_table(await self.lobby.leave(request.game_id, token))
        )

    async def start_game(
        self, request: lobby_pb2.StartGameRequest, token: str | None
    ) -> lobby_pb2.StartGameResponse:
        bind(request.game_id)
        hosted = await self.lobby.start(request.game_id, token, request.bot)
        return lobby_pb2.StartGameResponse(table=_table(hosted))

    async def list_games(
        self, request: lobby_pb2.ListGamesRequest, _token: str | None
    ) -> lobby_pb2.ListGamesResponse:
        self.limits.list_games()
        games, next_token = await self.lobby.list_games(
            request.game, request.status, page_size(request.page_size), request.page_token
        )
        return lobby_pb2.ListGamesResponse(
            games=[_listed(summary) for summary in games], next_page_token=next_token
        )

    async def reissue_seat_token(
        self, request: lobby_pb2.ReissueSeatTokenRequest, token: str | None
    ) -> lobby_pb2.ReissueSeatTokenResponse:
        bind(request.game_id, request.seat)
        seat, seat_token = await self.lobby.reissue(request.game_id, token, request.seat)
        return lobby_pb2.ReissueSeatTokenResponse(seat=seat, seat_token=seat_token)

    async def forfeit_seat(
        self, request: lobby_pb2.ForfeitSeatRequest, token: str | None
    ) -> lobby_pb2.ForfeitSeatResponse:
        bind(request.game_id, request.seat)
        hosted = await self.lobby.forfeit(request.game_id, token, request.seat)
        return lobby_pb2.ForfeitSeatResponse(table=_table(hosted))

    async def replace_seat_by_bot(
        self, request: lobby_pb2.ReplaceSeatByBotRequest, token: str | None
    ) -> lobby_pb2.ReplaceSeatByBotResponse:
        bind(request.game_id, request.seat)
        hosted = await self.lobby.replace_by_bot(request.game_id, token, request.seat, request.bot)
        return lobby_pb2.ReplaceSeatByBotResponse(table=_table(hosted))

    async def abort_game(
        self, request: lobby_pb2.AbortGameRequest, token: str | None
    ) -> lobby_pb2.AbortGameResponse:
        bind(request.game_id)
        return lobby_pb2.AbortGameResponse(
            table=_table(await self.lobby.abort(request.game_id, token))
        )


RPCS = RpcTable(
    lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"],
    (
        unary("JoinGame", LobbyApi.join_game),
        unary("LeaveGame", LobbyApi.leave_game),
        unary("StartGame", LobbyApi.start_game),
        unary("ListGames", LobbyApi.list_games),
        unary("ReissueSeatToken", LobbyApi.reissue_seat_token),
        unary("ForfeitSeat", LobbyApi.forfeit_seat),
        unary("ReplaceSeatByBot", LobbyApi.replace_seat_by_bot),
        unary("AbortGame", LobbyApi.abort_game),
    ),
)
"""Every RPC of ``referee.v1.LobbyService``."""
