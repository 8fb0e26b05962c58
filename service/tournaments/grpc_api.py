"""The gRPC face of TournamentService, with the referee face's edges: each call is
checked, logged and counted (:func:`service.api.answering`) and a failure ends it with
its status (:func:`service.errors.to_rpc_status`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from referee.v1 import tournament_pb2, tournament_pb2_grpc
from service.grpc_api import Context, edge, edge_stream, token
from service.tournaments.api import TournamentApi


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    def __init__(self, api: TournamentApi) -> None:
        self.api = api

    @edge
    async def CreateTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.CreateTournamentRequest, context: Context
    ) -> tournament_pb2.CreateTournamentResponse:
        return await self.api.create_tournament(request)

    @edge
    async def StartTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.StartTournamentRequest, context: Context
    ) -> tournament_pb2.StartTournamentResponse:
        return await self.api.start_tournament(request, token(context))

    @edge
    async def GetTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.GetTournamentRequest, context: Context
    ) -> tournament_pb2.GetTournamentResponse:
        return await self.api.get_tournament(request, token(context))

    @edge
    async def ListTournaments(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.ListTournamentsRequest, context: Context
    ) -> tournament_pb2.ListTournamentsResponse:
        return await self.api.list_tournaments(request, token(context))

    @edge_stream
    async def WatchTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.WatchTournamentRequest, context: Context
    ) -> AsyncIterator[tournament_pb2.WatchTournamentResponse]:
        async for snapshot in self.api.watch_tournament(request, token(context)):
            yield snapshot
