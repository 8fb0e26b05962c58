"""Ratings on both clients: a player's rating, its history, a game's leaderboard.

:class:`AsyncRatingCalls` holds the RatingService methods of
:class:`~referee.client.AsyncRefereeClient`, written once as coroutines over the client's
own calls (its timeout, retries and typed errors: :mod:`referee.client.core`);
:class:`RatingCalls`, mixed into :class:`~referee.client.RefereeClient`, is their blocking
twin (:mod:`referee.client.derive`). Every call is a public read, sent again after a
transport failure under the client's :class:`~referee.client.Retry` (or the call's
``retry``); each spends the caller's ``rating_reads_per_second`` at the referee, whose
refusal (RESOURCE_EXHAUSTED ``RATING_READS_EXCEEDED``) says when to try again. A player is
the ``player_id`` an operator's frontend gave (JoinGame, ParticipantSpec); the referee's
bots are ``bot:random``, ``bot:heuristic`` and ``bot:search``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from referee.client.core import GET_RATING, LIST_LEADERBOARD, LIST_RATING_HISTORY, ClientCore
from referee.client.derive import blocking, blocking_iter
from referee.client.policy import Retry
from referee.v1 import ratings_pb2


class AsyncRatingCalls(ClientCore):
    """RatingService on :class:`~referee.client.AsyncRefereeClient` (and, derived, on
    :class:`~referee.client.RefereeClient`)."""

    async def get_rating(
        self, game: str, player_id: str, *, retry: Retry | None = None
    ) -> ratings_pb2.PlayerRating:
        """The player's rating for ``game`` now (NOT_FOUND ``RATING_NOT_FOUND``: never rated)."""
        request = ratings_pb2.GetRatingRequest(game=game, player_id=player_id)
        policy = self._connection.retry if retry is None else retry
        return (await self._unary(GET_RATING, request, retry=policy)).rating

    async def rating_history(
        self,
        game: str,
        player_id: str,
        page_size: int = 0,
        page_token: str = "",
        *,
        retry: Retry | None = None,
    ) -> ratings_pb2.ListRatingHistoryResponse:
        """One page of the player's rated games of ``game``, newest first (``page_size`` 0:
        20, at most 100); ``page_token`` from the page before."""
        request = ratings_pb2.ListRatingHistoryRequest(
            game=game, player_id=player_id, page_size=page_size, page_token=page_token
        )
        policy = self._connection.retry if retry is None else retry
        return await self._unary(LIST_RATING_HISTORY, request, retry=policy)

    async def leaderboard(
        self, game: str, page_size: int = 0, page_token: str = "", *, retry: Retry | None = None
    ) -> ratings_pb2.ListLeaderboardResponse:
        """One page of ``game``'s players by ordinal, highest first (``page_size`` 0: 20, at
        most 100); ``page_token`` from the page before."""
        request = ratings_pb2.ListLeaderboardRequest(
            game=game, page_size=page_size, page_token=page_token
        )
        policy = self._connection.retry if retry is None else retry
        return await self._unary(LIST_LEADERBOARD, request, retry=policy)

    async def iter_leaderboard(
        self, game: str, page_size: int = 0, *, retry: Retry | None = None
    ) -> AsyncIterator[ratings_pb2.LeaderboardEntry]:
        """Every line of ``game``'s leaderboard, page after page (each page retried on its
        own). A leaderboard moves while it is read: a player may show twice or not at all."""
        token = ""
        while True:
            page = await self.leaderboard(game, page_size, token, retry=retry)
            for entry in page.entries:
                yield entry
            token = page.next_page_token
            if not token:
                return


class RatingCalls:
    """RatingService on :class:`~referee.client.RefereeClient`: the blocking twin of every
    :class:`AsyncRatingCalls` method, with its parameters and docstring."""

    if TYPE_CHECKING:

        @property
        def _core(self) -> AsyncRatingCalls: ...

    get_rating = blocking(AsyncRatingCalls.get_rating)
    rating_history = blocking(AsyncRatingCalls.rating_history)
    leaderboard = blocking(AsyncRatingCalls.leaderboard)
    iter_leaderboard = blocking_iter(AsyncRatingCalls.iter_leaderboard)
