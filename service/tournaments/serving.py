"""TournamentService assembled for one referee process: store, host, gRPC and HTTP faces."""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from starlette.routing import Mount

from service.app.limits import Limits
from service.app.lobby import Lobby
from service.app.referee import Referee
from service.domain.quotas import OperatorKey
from service.edge.observability import Metrics
from service.settings import Settings
from service.tournaments import http_api
from service.tournaments.api import RPCS, TournamentApi
from service.tournaments.director import SeatBots
from service.tournaments.grpc_api import TournamentServicer
from service.tournaments.host import TournamentHost
from service.tournaments.store import TournamentStore
from service.tournaments.takeover import Takeovers

SERVICE_NAME = RPCS.full_name


@dataclass
class TournamentService:
    host: TournamentHost
    api: TournamentApi
    takeovers: Takeovers

    def register(self, server: grpc.aio.Server) -> None:
        TournamentServicer.register(self.api, server)

    def http_mount(self) -> Mount:
        return http_api.mount(self.api)

    def serving_on(self, host: str, port: int, operator_key: OperatorKey | None = None) -> None:
        """Tell the bots where the gRPC face listens (a wildcard bind: via loopback) and
        the key they send there."""
        reachable = "127.0.0.1" if host in ("", "0.0.0.0", "::", "[::]") else host
        if ":" in reachable and not reachable.startswith("["):
            reachable = f"[{reachable}]"
        secret = operator_key.secret.decode() if operator_key else None
        self.host.connect_to(f"{reachable}:{port}", secret)

    def start(self) -> None:
        """Begin taking over tournaments nobody directs (once the gRPC face serves: the
        bots of a tournament taken over play through it)."""
        self.takeovers.start()

    async def aclose(self) -> None:
        await self.takeovers.aclose()
        await self.host.aclose()


def tournament_service(
    referee: Referee,
    redis_url: str,
    settings: Settings,
    metrics: Metrics | None,
    limits: Limits | None = None,
    *,
    lobby: Lobby,
    bots: SeatBots | None = None,
) -> TournamentService:
    store = TournamentStore.from_url(
        redis_url,
        cluster=settings.redis_cluster,
        finished_ttl_seconds=settings.finished_ttl_seconds,
        idle_ttl_seconds=settings.idle_ttl_seconds,
    )
    host = TournamentHost(
        referee,
        store,
        code_ttl_seconds=settings.seat_code_ttl_seconds,
        code_attempts_per_minute=settings.seat_code_attempts_per_minute,
        max_directed=settings.tournament_max_directed,
        bots=bots,
    )
    takeovers = Takeovers(
        host,
        every_seconds=settings.tournament_takeover_seconds,
        per_pass=settings.tournament_takeovers_per_pass,
    )
    return TournamentService(host, TournamentApi(host, metrics, limits, lobby=lobby), takeovers)
