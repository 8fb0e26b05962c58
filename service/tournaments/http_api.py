"""The HTTP/JSON face of TournamentService (Connect protocol), mounted on the HTTP port.

``POST /referee.v1.TournamentService/<Method>`` with canonical proto3 JSON; the token is
the ``Authorization: Bearer`` header; errors through :func:`service.errors.to_connect_error`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from connectrpc.request import RequestContext
from starlette.routing import Mount

from referee.v1 import tournament_pb2
from referee.v1.tournament_connect import TournamentServiceASGIApplication
from service.api import MAX_REQUEST_BYTES, answering
from service.auth import bearer_token
from service.errors import RefereeError, to_connect_error
from service.tournaments.api import TournamentApi

Ctx = RequestContext[Any, Any]


def _token(ctx: Ctx) -> str | None:
    return bearer_token(tuple(ctx.request_headers().items()))


class TournamentConnect:
    """Implements the generated ``tournament_connect.TournamentService`` protocol."""

    def __init__(self, api: TournamentApi) -> None:
        self.api = api

    async def create_tournament(
        self, request: tournament_pb2.CreateTournamentRequest, ctx: Ctx
    ) -> tournament_pb2.CreateTournamentResponse:
        try:
            async with answering(self.api.metrics, "CreateTournament", request, "http"):
                return await self.api.create_tournament(request)
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    async def start_tournament(
        self, request: tournament_pb2.StartTournamentRequest, ctx: Ctx
    ) -> tournament_pb2.StartTournamentResponse:
        try:
            async with answering(self.api.metrics, "StartTournament", request, "http"):
                return await self.api.start_tournament(request, _token(ctx))
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    async def get_tournament(
        self, request: tournament_pb2.GetTournamentRequest, ctx: Ctx
    ) -> tournament_pb2.GetTournamentResponse:
        try:
            async with answering(self.api.metrics, "GetTournament", request, "http"):
                return await self.api.get_tournament(request, _token(ctx))
        except RefereeError as error:
            raise to_connect_error(error) from None
        raise AssertionError("unreachable: answering re-raises every error")

    async def watch_tournament(
        self, request: tournament_pb2.WatchTournamentRequest, ctx: Ctx
    ) -> AsyncIterator[tournament_pb2.WatchTournamentResponse]:
        try:
            async with answering(self.api.metrics, "WatchTournament", request, "http"):
                async for snapshot in self.api.watch_tournament(request, _token(ctx)):
                    yield snapshot
        except RefereeError as error:
            raise to_connect_error(error) from None


def mount(api: TournamentApi) -> Mount:
    """The route of the HTTP port that serves TournamentService."""
    app = TournamentServiceASGIApplication(
        TournamentConnect(api), read_max_bytes=MAX_REQUEST_BYTES * 4
    )
    return Mount(app.path, app=app)
