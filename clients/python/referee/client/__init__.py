"""A typed Python client for the referee: sync and asyncio, with typed errors.

>>> from referee.client import RefereeClient
>>> with RefereeClient("127.0.0.1:50051") as client:  # doctest: +SKIP
...     created = client.create_game("the_gang", 3)
...     seat = client.seats(created)[0]
...     move = seat.legal_moves().moves[0]
...     seat.submit(move, expected_version=created.version, retry_on_conflict=2)

Reads and moves are sent again after a transport failure (:class:`Retry`, on by default;
a move keeps its ``client_move_id``, so it never applies twice). Messages are the generated
protobuf types of :mod:`referee.v1`. Both clients also host tables (``join_game``,
``list_games``, ``start_game``, the admin controls: :mod:`referee.client.lobby`) and read
ratings (``get_rating``, ``rating_history``, ``leaderboard``: :mod:`referee.client.ratings`).
"""

from referee.client.aio import AsyncRefereeClient, AsyncRethink, AsyncSeat
from referee.client.errors import (
    DeadlineExceeded,
    GameNotFound,
    IllegalMove,
    InvalidArgument,
    OtherError,
    PermissionDenied,
    RefereeError,
    Unauthenticated,
    Unavailable,
    VersionConflict,
    from_rejection,
    from_rpc_error,
)
from referee.client.lobby import AsyncLobbyCalls, LobbyCalls
from referee.client.play import AsyncPlay
from referee.client.policy import NO_RESUME, NO_RETRY, Backoff, ConflictRetry, Resume, Retry
from referee.client.ratings import AsyncRatingCalls, RatingCalls
from referee.client.sync import RefereeClient, Rethink, Seat

__all__ = [
    "NO_RESUME",
    "NO_RETRY",
    "AsyncLobbyCalls",
    "AsyncPlay",
    "AsyncRatingCalls",
    "AsyncRefereeClient",
    "AsyncRethink",
    "AsyncSeat",
    "Backoff",
    "ConflictRetry",
    "DeadlineExceeded",
    "GameNotFound",
    "IllegalMove",
    "InvalidArgument",
    "LobbyCalls",
    "OtherError",
    "PermissionDenied",
    "RatingCalls",
    "RefereeClient",
    "RefereeError",
    "Resume",
    "Rethink",
    "Retry",
    "Seat",
    "Unauthenticated",
    "Unavailable",
    "VersionConflict",
    "from_rejection",
    "from_rpc_error",
]
