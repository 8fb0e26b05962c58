"""RatingService in protobuf terms: request in, a :class:`service.app.ratings.Ratings` read,
response out; :data:`RPCS` routes its RPCs for both faces (service.edge.grpc_api and
service.edge.connect.face serve it like LobbyService, each call under
service.edge.calls.answering).

Every RPC is public (a token sent is ignored) and bounded: by the caller's
``rating_reads_per_second`` (service.app.limits, RESOURCE_EXHAUSTED ``RATING_READS_EXCEEDED``
with a RetryInfo), and a listing by its page size (at most 100).
"""

from __future__ import annotations

from referee.v1 import ratings_pb2
from service.app.limits import Limits
from service.app.ratings import Ratings
from service.edge.observability import Metrics
from service.edge.rpcs import RpcTable, unary
from service.storage.ratings import PlayerRating, RatingChange, Skill


def skill_to_proto(skill: Skill) -> ratings_pb2.Skill:
    return ratings_pb2.Skill(mu=skill.mu, sigma=skill.sigma, ordinal=skill.ordinal)


def rating_to_proto(rating: PlayerRating) -> ratings_pb2.PlayerRating:
    return ratings_pb2.PlayerRating(
        game=rating.game,
        player_id=rating.player_id,
        skill=skill_to_proto(rating.skill),
        games=rating.games,
        updated_at_unix_ms=rating.updated_ms,
        name=rating.name,
    )


def change_to_proto(change: RatingChange) -> ratings_pb2.RatingChange:
    return ratings_pb2.RatingChange(
        game_id=change.game_id,
        at_unix_ms=change.at_ms,
        before=skill_to_proto(change.before),
        after=skill_to_proto(change.after),
        place=change.place,
        seats=change.seats,
        seat=change.seat,
        tournament_id=change.tournament_id,
    )


class RatingApi:
    """Every RPC of ``referee.v1.RatingService``."""

    def __init__(
        self, ratings: Ratings, metrics: Metrics | None = None, limits: Limits | None = None
    ) -> None:
        self.ratings = ratings
        self.metrics = metrics
        self.limits = limits or Limits.unlimited()

    async def get_rating(
        self, request: ratings_pb2.GetRatingRequest, _token: str | None
    ) -> ratings_pb2.GetRatingResponse:
        self.limits.rating_reads()
        found = await self.ratings.rating(request.game, request.player_id)
        return ratings_pb2.GetRatingResponse(rating=rating_to_proto(found))

    async def list_rating_history(
        self, request: ratings_pb2.ListRatingHistoryRequest, _token: str | None
    ) -> ratings_pb2.ListRatingHistoryResponse:
        self.limits.rating_reads()
        page = await self.ratings.history(
            request.game, request.player_id, request.page_size, request.page_token
        )
        return ratings_pb2.ListRatingHistoryResponse(
            changes=[change_to_proto(change) for change in page.changes],
            next_page_token=page.next_page_token,
        )

    async def list_leaderboard(
        self, request: ratings_pb2.ListLeaderboardRequest, _token: str | None
    ) -> ratings_pb2.ListLeaderboardResponse:
        self.limits.rating_reads()
        page = await self.ratings.leaderboard(request.game, request.page_size, request.page_token)
        return ratings_pb2.ListLeaderboardResponse(
            entries=[
                ratings_pb2.LeaderboardEntry(rank=rank, rating=rating_to_proto(rating))
                for rank, rating in enumerate(page.ratings, start=page.first_rank)
            ],
            next_page_token=page.next_page_token,
        )


RPCS = RpcTable(
    ratings_pb2.DESCRIPTOR.services_by_name["RatingService"],
    (
        unary("GetRating", RatingApi.get_rating),
        unary("ListRatingHistory", RatingApi.list_rating_history),
        unary("ListLeaderboard", RatingApi.list_leaderboard),
    ),
)
"""Every RPC of ``referee.v1.RatingService``."""
