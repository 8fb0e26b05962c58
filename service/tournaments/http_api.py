"""The HTTP/JSON face of TournamentService (Connect protocol), mounted on the HTTP port.

``POST /referee.v1.TournamentService/<Method>`` with canonical proto3 JSON; the token is
the ``Authorization: Bearer`` header; errors through :func:`service.errors.to_connect_error`.
Built from the service's RPC table, like the referee's face.
"""

from __future__ import annotations

from starlette.routing import Mount

from referee.v1.tournament_connect import TournamentService, TournamentServiceASGIApplication
from service.edge.calls import MAX_REQUEST_BYTES
from service.edge.connect.face import ConnectService
from service.edge.connect.limits import BoundedGzip
from service.tournaments.api import RPCS, TournamentApi


class TournamentConnect(ConnectService, TournamentService):
    """Implements the generated ``tournament_connect.TournamentService`` protocol."""

    table = RPCS


def mount(api: TournamentApi) -> Mount:
    """The route of the HTTP port that serves TournamentService."""
    app = TournamentServiceASGIApplication(
        TournamentConnect(api),
        read_max_bytes=MAX_REQUEST_BYTES * 4,
        compressions=[BoundedGzip(MAX_REQUEST_BYTES)],  # a gzip bomb inflates no further
    )
    return Mount(app.path, app=app)
