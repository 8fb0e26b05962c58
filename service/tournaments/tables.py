"""The tournament admin's hand on a no-show at one of its tables: ForfeitTableSeat and
ReplaceTableSeatByBot.

A tournament's tables are games of RefereeService whose table admin token nobody holds:
the director creates them and keeps none (tokens are signed on demand). Handing that token
to the tournament admin would give it more than it needs (ReissueSeatToken would let it
take a participant's seat token, which the admin must never hold; AbortGame would leave
the round waiting forever). So the tournament admin gets exactly two table actions,
checked here against the tournament (its admin token, the game being one of its tables,
the seat being an external participant's) and then run by the lobby's own use cases
(:class:`service.app.lobby.Lobby`) with the table admin token signed in this process, which
never leaves it. Everything else (the seat's state, the game's own refusals, the table's
action cap ``REFEREE_MAX_TABLE_ACTIONS``) is the lobby's, as for any table; a refusal here
happens before anything is written.
"""

from __future__ import annotations

import grpc

from service.app.lobby import Hosted, Lobby
from service.errors import PermissionDenied, RefereeError, RuleViolation, Unauthenticated, echo
from service.tournaments.host import ADMIN, TournamentHost, role
from service.tournaments.model import Table, Tournament


class TableNotInTournament(RefereeError):
    """The game id names no table of the tournament (in any round)."""

    code = grpc.StatusCode.NOT_FOUND

    def __init__(self, game_id: str) -> None:
        super().__init__(
            "TABLE_NOT_IN_TOURNAMENT", f"game {echo(game_id)} is not a table of this tournament"
        )


class SeatPlayedByBot(RuleViolation):
    """A bot participant's seat: the tournament's own bot plays it, it never fails to show."""

    def __init__(self, seat: int) -> None:
        super().__init__(
            "SEAT_PLAYED_BY_BOT", f"seat {seat} is a bot participant's: the tournament plays it"
        )


class AdminTokenRequired(PermissionDenied):
    def __init__(self) -> None:
        super().__init__("ADMIN_TOKEN_REQUIRED", "only the tournament admin token acts on tables")


def table_of(tournament: Tournament, game_id: str) -> Table:
    """The tournament's table playing ``game_id``; TABLE_NOT_IN_TOURNAMENT otherwise."""
    for played in tournament.played:
        for table in played.tables:
            if game_id and table.game_id == game_id:
                return table
    raise TableNotInTournament(game_id)


class TableHand:
    """ForfeitTableSeat and ReplaceTableSeatByBot over the tournaments and the lobby."""

    def __init__(self, host: TournamentHost, lobby: Lobby) -> None:
        self.host = host
        self.lobby = lobby

    async def _checked(self, tournament_id: str, token: str | None, game_id: str, seat: int) -> str:
        """The table admin token of ``game_id`` once the caller is found to be the
        tournament's admin and the seat an external participant's at one of its tables."""
        stored = await self.host.store.load(tournament_id)
        if token is None:
            raise Unauthenticated("TOKEN_MISSING", "send the tournament admin token")
        if role(stored.tournament, token) != ADMIN:
            raise AdminTokenRequired()
        table = table_of(stored.tournament, game_id)
        if not 0 <= seat < len(table.participants):
            raise PermissionDenied("SEAT_NOT_AT_TABLE", f"there is no seat {seat} at this table")
        if not stored.tournament.participants[table.participants[seat]].external:
            raise SeatPlayedByBot(seat)
        return self.host.referee.signer.issue_admin(game_id)

    async def forfeit(
        self, tournament_id: str, token: str | None, game_id: str, seat: int
    ) -> Hosted:
        table_admin = await self._checked(tournament_id, token, game_id, seat)
        return await self.lobby.forfeit(game_id, table_admin, seat)

    async def replace_by_bot(
        self, tournament_id: str, token: str | None, game_id: str, seat: int, bot: int
    ) -> Hosted:
        table_admin = await self._checked(tournament_id, token, game_id, seat)
        return await self.lobby.replace_by_bot(game_id, table_admin, seat, bot)
