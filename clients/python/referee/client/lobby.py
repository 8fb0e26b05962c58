"""The lobby on both clients: join, leave, start and list tables, and the admin controls.

:class:`AsyncLobbyCalls` holds the LobbyService methods of
:class:`~referee.client.AsyncRefereeClient`, written once as coroutines over the client's
own calls (its timeout, operator key, retries and typed errors: :mod:`referee.client.core`);
:class:`LobbyCalls`, mixed into :class:`~referee.client.RefereeClient`, is their blocking
twin, derived from them (:mod:`referee.client.derive`). ``token`` is a seat token or the
table admin token (``CreateGameResponse.admin_token``), as each RPC asks.

What is sent again after a transport failure:

- ``list_games`` and every page of ``iter_games`` are reads: retried under the client's
  :class:`~referee.client.Retry` (or the call's ``retry``).
- ``reissue_seat_token`` is retried as a read: a reissue whose answer was lost is made
  again, and the token that comes back is the newest (the lost one is revoked anyway).
- ``join_game`` is retried on UNAVAILABLE only, never on DEADLINE_EXCEEDED: a join whose
  answer timed out may have taken a seat, and a second try would take another.
- ``leave_game``, ``start_game``, ``forfeit_seat``, ``replace_seat_by_bot`` and
  ``abort_game`` are not retried by default (a second try of one that landed is refused
  as already done); pass ``retry=`` to opt in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, TypeAlias

import grpc

from referee.client.core import (
    ABORT_GAME,
    FORFEIT_SEAT,
    JOIN_GAME,
    LEAVE_GAME,
    LIST_GAMES,
    REISSUE_SEAT_TOKEN,
    REPLACE_SEAT_BY_BOT,
    START_GAME,
    ClientCore,
)
from referee.client.derive import blocking, blocking_iter
from referee.client.policy import NO_RETRY, Retry
from referee.v1 import lobby_pb2, table_pb2, tournament_pb2

Bot: TypeAlias = tournament_pb2.BotStrategy.ValueType
Status: TypeAlias = table_pb2.TableStatus.ValueType


def join_retry(policy: Retry) -> Retry:
    """``policy`` less DEADLINE_EXCEEDED: what a join may be sent again after."""
    return Retry(
        policy.attempts, policy.backoff, policy.codes - {grpc.StatusCode.DEADLINE_EXCEEDED}
    )


class AsyncLobbyCalls(ClientCore):
    """LobbyService on :class:`~referee.client.AsyncRefereeClient` (and, derived, on
    :class:`~referee.client.RefereeClient`)."""

    async def join_game(
        self,
        *,
        join_code: str = "",
        game_id: str = "",
        display_name: str,
        player_id: str = "",
        retry: Retry | None = None,
    ) -> lobby_pb2.JoinGameResponse:
        """Claim a free seat by ``join_code`` or by a listed table's ``game_id`` (one of
        them); the answer holds the seat and its token (given only this once)."""
        request = lobby_pb2.JoinGameRequest(
            join_code=join_code, game_id=game_id, display_name=display_name, player_id=player_id
        )
        policy = join_retry(self._connection.retry if retry is None else retry)
        return await self._unary(JOIN_GAME, request, retry=policy)

    async def leave_game(
        self, game_id: str, seat_token: str, *, retry: Retry = NO_RETRY
    ) -> table_pb2.Table:
        """Give the seat back before the start (its token is revoked); the table after."""
        request = lobby_pb2.LeaveGameRequest(game_id=game_id)
        reply = await self._unary(LEAVE_GAME, request, seat_token, retry=retry)
        return reply.table

    async def start_game(
        self,
        game_id: str,
        admin_token: str,
        bot: Bot = tournament_pb2.BOT_STRATEGY_UNSPECIFIED,
        *,
        retry: Retry = NO_RETRY,
    ) -> table_pb2.Table:
        """Start an open table now, ``bot`` (a ``BotStrategy``) in every open seat."""
        request = lobby_pb2.StartGameRequest(game_id=game_id, bot=bot)
        reply = await self._unary(START_GAME, request, admin_token, retry=retry)
        return reply.table

    async def list_games(
        self,
        game: str = "",
        status: Status = table_pb2.TABLE_STATUS_UNSPECIFIED,
        page_size: int = 0,
        page_token: str = "",
        *,
        retry: Retry | None = None,
    ) -> lobby_pb2.ListGamesResponse:
        """One page of the public tables (newest first; ``game``/``status`` empty: all
        open and live ones); ``page_token`` from the page before."""
        request = lobby_pb2.ListGamesRequest(
            game=game, status=status, page_size=page_size, page_token=page_token
        )
        policy = self._connection.retry if retry is None else retry
        return await self._unary(LIST_GAMES, request, retry=policy)

    async def iter_games(
        self,
        game: str = "",
        status: Status = table_pb2.TABLE_STATUS_UNSPECIFIED,
        page_size: int = 0,
        *,
        retry: Retry | None = None,
    ) -> AsyncIterator[lobby_pb2.ListedGame]:
        """Every listed table, page after page (each page retried on its own)."""
        token = ""
        while True:
            page = await self.list_games(game, status, page_size, token, retry=retry)
            for listed in page.games:
                yield listed
            token = page.next_page_token
            if not token:
                return

    async def reissue_seat_token(
        self, game_id: str, admin_token: str, seat: int, *, retry: Retry | None = None
    ) -> lobby_pb2.ReissueSeatTokenResponse:
        """A new token for ``seat``; its former token is refused from now on."""
        request = lobby_pb2.ReissueSeatTokenRequest(game_id=game_id, seat=seat)
        policy = self._connection.retry if retry is None else retry
        return await self._unary(REISSUE_SEAT_TOKEN, request, admin_token, retry=policy)

    async def forfeit_seat(
        self, game_id: str, token: str, seat: int, *, retry: Retry = NO_RETRY
    ) -> table_pb2.Table:
        """Forfeit ``seat`` (the admin token, or that seat's own token)."""
        request = lobby_pb2.ForfeitSeatRequest(game_id=game_id, seat=seat)
        reply = await self._unary(FORFEIT_SEAT, request, token, retry=retry)
        return reply.table

    async def replace_seat_by_bot(
        self,
        game_id: str,
        admin_token: str,
        seat: int,
        bot: Bot = tournament_pb2.BOT_STRATEGY_UNSPECIFIED,
        *,
        retry: Retry = NO_RETRY,
    ) -> table_pb2.Table:
        """Hand ``seat`` to a bot (its token is revoked)."""
        request = lobby_pb2.ReplaceSeatByBotRequest(game_id=game_id, seat=seat, bot=bot)
        reply = await self._unary(REPLACE_SEAT_BY_BOT, request, admin_token, retry=retry)
        return reply.table

    async def abort_game(
        self, game_id: str, admin_token: str, *, retry: Retry = NO_RETRY
    ) -> table_pb2.Table:
        """End the game unfinished: moves are refused, watches end, the history is public."""
        request = lobby_pb2.AbortGameRequest(game_id=game_id)
        reply = await self._unary(ABORT_GAME, request, admin_token, retry=retry)
        return reply.table


class LobbyCalls:
    """LobbyService on :class:`~referee.client.RefereeClient`: the blocking twin of every
    :class:`AsyncLobbyCalls` method, with its parameters and docstring."""

    if TYPE_CHECKING:

        @property
        def _core(self) -> AsyncLobbyCalls: ...

    join_game = blocking(AsyncLobbyCalls.join_game)
    leave_game = blocking(AsyncLobbyCalls.leave_game)
    start_game = blocking(AsyncLobbyCalls.start_game)
    list_games = blocking(AsyncLobbyCalls.list_games)
    iter_games = blocking_iter(AsyncLobbyCalls.iter_games)
    reissue_seat_token = blocking(AsyncLobbyCalls.reissue_seat_token)
    forfeit_seat = blocking(AsyncLobbyCalls.forfeit_seat)
    replace_seat_by_bot = blocking(AsyncLobbyCalls.replace_seat_by_bot)
    abort_game = blocking(AsyncLobbyCalls.abort_game)
