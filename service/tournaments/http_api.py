"""The HTTP/JSON face of TournamentService (Connect protocol), mounted on the HTTP port.

``POST /referee.v1.TournamentService/<Method>`` with canonical proto3 JSON; the token is
the ``Authorization: Bearer`` header; errors through :func:`service.errors.to_connect_error`.
"""

from __future__ import annotations

from starlette.routing import Mount

from referee.v1 import tournament_pb2
from referee.v1.tournament_connect import TournamentServiceASGIApplication
from service.api import MAX_REQUEST_BYTES
from service.http_api import server_stream, unary
from service.tournaments.api import TournamentApi


async def _create_tournament(
    api: TournamentApi, request: tournament_pb2.CreateTournamentRequest, _token: str | None
) -> tournament_pb2.CreateTournamentResponse:
    return await api.create_tournament(request)  # anyone may create one


class TournamentConnect:
    """Implements the generated ``tournament_connect.TournamentService`` protocol."""

    def __init__(self, api: TournamentApi) -> None:
        self.api = api

    create_tournament = unary("CreateTournament", _create_tournament)
    start_tournament = unary("StartTournament", TournamentApi.start_tournament)
    get_tournament = unary("GetTournament", TournamentApi.get_tournament)
    list_tournaments = unary("ListTournaments", TournamentApi.list_tournaments)
    watch_tournament = server_stream("WatchTournament", TournamentApi.watch_tournament)


def mount(api: TournamentApi) -> Mount:
    """The route of the HTTP port that serves TournamentService."""
    app = TournamentServiceASGIApplication(
        TournamentConnect(api), read_max_bytes=MAX_REQUEST_BYTES * 4
    )
    return Mount(app.path, app=app)
