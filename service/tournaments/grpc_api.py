"""The gRPC face of TournamentService: reads the token, ends failed calls with a status.

The same shape as :mod:`service.grpc_api`: :func:`service.api.answering` checks, logs and
counts each call, and :func:`service.errors.to_rpc_status` is the one error mapping.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from referee.v1 import tournament_pb2, tournament_pb2_grpc
from service.api import answering
from service.auth import bearer_token
from service.errors import RefereeError, to_rpc_status
from service.tournaments.api import TournamentApi

Context = grpc.aio.ServicerContext[Any, Any]


async def _abort(context: Context, error: RefereeError) -> None:
    await context.abort_with_status(to_rpc_status(error))  # type: ignore[attr-defined]


def _token(context: Context) -> str | None:
    return bearer_token(context.invocation_metadata())  # type: ignore[arg-type]


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    def __init__(self, api: TournamentApi) -> None:
        self.api = api

    async def CreateTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.CreateTournamentRequest, context: Context
    ) -> tournament_pb2.CreateTournamentResponse:
        try:
            async with answering(self.api.metrics, "CreateTournament", request, "grpc"):
                return await self.api.create_tournament(request)
        except RefereeError as error:
            await _abort(context, error)
        raise AssertionError("unreachable: abort_with_status raises")

    async def StartTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.StartTournamentRequest, context: Context
    ) -> tournament_pb2.StartTournamentResponse:
        try:
            async with answering(self.api.metrics, "StartTournament", request, "grpc"):
                return await self.api.start_tournament(request, _token(context))
        except RefereeError as error:
            await _abort(context, error)
        raise AssertionError("unreachable: abort_with_status raises")

    async def GetTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.GetTournamentRequest, context: Context
    ) -> tournament_pb2.GetTournamentResponse:
        try:
            async with answering(self.api.metrics, "GetTournament", request, "grpc"):
                return await self.api.get_tournament(request, _token(context))
        except RefereeError as error:
            await _abort(context, error)
        raise AssertionError("unreachable: abort_with_status raises")

    async def WatchTournament(  # noqa: N802 (the RPC's name)
        self, request: tournament_pb2.WatchTournamentRequest, context: Context
    ) -> AsyncIterator[tournament_pb2.WatchTournamentResponse]:
        try:
            async with answering(self.api.metrics, "WatchTournament", request, "grpc"):
                async for snapshot in self.api.watch_tournament(request, _token(context)):
                    yield snapshot
        except RefereeError as error:
            await _abort(context, error)
