"""The lobby's use cases: join and leave a table, start it, list it, and the admin controls.

Each one is a decide function that runs one pure transition of the table's hosting record
(:mod:`service.domain.hosting`), run by the table writer (service.app.writer): its lock, its
compare-and-set on the game's version and host version, a fresh decision on conflict (of
concurrent joins for the last seat exactly one wins), and what follows a change (the
listing, the join code, the stream entry that pushes it to every WatchGame and Play stream).

Join codes are one-time codes (:mod:`service.storage.join_codes`) that stay good for one join
per open seat until the table leaves the open state.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import grpc

from engines.registry import GAMES
from service.app import limits, rating_math, seats
from service.app.writer import HostChange, TableWriter
from service.domain import hosting, records
from service.domain.auth import TokenSigner
from service.errors import PermissionDenied, RefereeError, Unauthenticated, echo
from service.storage.join_codes import JoinCodes
from service.storage.lobby_listing import Listing, Summary
from service.storage.redis_kit import Client, Outage, script
from service.storage.seat_codes import Issued, SeatCodeAttemptsExceeded, SeatCodeInvalid, SeatCodes
from service.storage.tables import Table

JOIN_WINDOW_MS: Final = 60_000
_outage: Final = Outage("the lobby", "nothing was changed; try again")


class JoinCodeInvalid(RefereeError):
    """Unknown, expired or spent (the table started or is full): one reason for all."""

    code = grpc.StatusCode.NOT_FOUND

    def __init__(self) -> None:
        super().__init__(
            "JOIN_CODE_INVALID", "this join code is unknown, expired or spent (table started)"
        )


class JoinCodeAttemptsExceeded(RefereeError):
    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(
            "JOIN_CODE_ATTEMPTS_EXCEEDED",
            f"too many wrong join codes from this address; try again in {retry_after_seconds} s",
            {"retry_after_seconds": str(retry_after_seconds)},
        )


class JoinRateExceeded(RefereeError):
    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, limit: int, retry_after_seconds: int) -> None:
        super().__init__(
            "JOIN_RATE_EXCEEDED",
            f"over {limit} joins per minute from this address; try again in "
            f"{retry_after_seconds} s",
            {"retry_after_seconds": str(retry_after_seconds), "limit": str(limit)},
        )


@dataclass(frozen=True)
class Hosted:
    """A table after a lobby call: its meta, its record, whether its game is over."""

    meta: records.GameMeta
    host: records.HostRecord
    finished: bool


@dataclass(frozen=True)
class Joined:
    game_id: str
    seat: int
    token: str
    table: Hosted


def _check_rated_join(player_id: str, caller: limits.Caller) -> None:
    """A rated table rates a seat under the player id it was joined with, so only the
    operator's key vouches for one: its backend joins for its authenticated user. Without a
    player id anyone may still join (the seat is not rated)."""
    if not player_id:
        return
    rating_math.check_own_player_id(player_id)
    if caller.key is None:
        raise Unauthenticated(
            "OPERATOR_KEY_REQUIRED",
            f"a player_id at a rated table needs an operator key ({limits.KEY_HEADER})",
        )


class Lobby:
    """LobbyService's use cases; ``client`` is a bytes client of the referee's Redis for
    the join counter."""

    def __init__(
        self,
        writer: TableWriter,
        signer: TokenSigner,
        join_codes: JoinCodes,
        listing: Listing,
        client: Client,
        *,
        joins_per_minute: int = 30,
        max_actions: int = hosting.DEFAULT_MAX_ACTIONS,
    ) -> None:
        self.writer = writer
        self.signer = signer
        self.join_codes = join_codes
        self.listing = listing
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted
        self._counter = script(client, "seat_code_attempt.lua")
        self.joins_per_minute = joins_per_minute
        self.max_actions = max_actions

    async def opened(self, game_id: str, host: records.HostRecord) -> Issued | None:
        """After CreateGame: a join code when a seat is open."""
        if host.status != records.TABLE_OPEN:
            return None
        return await self.join_codes.issue(game_id)

    async def _change(
        self,
        game_id: str,
        transition: Callable[[Table, hosting.When], records.HostRecord],
    ) -> tuple[Table, records.HostRecord]:
        """Run ``transition`` on the table's record through the table writer; the table
        it was decided on and the new record."""

        def changing(table: Table) -> HostChange:
            when = hosting.When(table.version, time.time(), self.max_actions)
            return HostChange(transition(table, when))

        written = await self.writer.write(game_id, changing)
        assert isinstance(written.change, HostChange)
        return written.before, written.change.hosting

    # --- the RPCs ----------------------------------------------------------------------------

    async def join(self, join_code: str, game_id: str, name: str, player_id: str) -> Joined:
        hosting.check_name(name)
        hosting.check_player_id(player_id)
        if bool(join_code) == bool(game_id):
            raise BadRequestJoin()
        caller = limits.current()
        address = caller.address
        await self._count_join(address)
        by_code = bool(join_code)
        if by_code:
            try:
                game_id = (await self.join_codes.codes.resolve(join_code, address)).decode()
            except SeatCodeInvalid:
                raise JoinCodeInvalid() from None
            except SeatCodeAttemptsExceeded as error:
                raise JoinCodeAttemptsExceeded(error.retry_after_seconds) from None
        seat = -1

        def joining(table: Table, when: hosting.When) -> records.HostRecord:
            nonlocal seat
            if not by_code and not table.hosting.listed:
                raise PermissionDenied("TABLE_NOT_LISTED", "join this table with its join code")
            if table.hosting.rated:
                _check_rated_join(player_id, caller)
            host, seat = hosting.join(table.hosting, name, player_id, when)
            return host

        table, host = await self._change(game_id, joining)
        token = self.signer.issue(game_id, seat, host.seats[seat].generation)
        return Joined(game_id, seat, token, Hosted(table.meta, host, table.finished))

    @_outage
    async def _count_join(self, address: str) -> None:
        if not self.joins_per_minute:
            return
        key = f"lobby:joins:{{{SeatCodes.attempts_key(address).split('{', 1)[1]}"
        counted, wait_ms = await self._counter(
            keys=[key], args=[self.joins_per_minute, JOIN_WINDOW_MS]
        )
        if not int(counted):
            raise JoinRateExceeded(self.joins_per_minute, max(1, -(-int(wait_ms) // 1000)))

    async def leave(self, game_id: str, token: str | None) -> Hosted:
        def leaving(table: Table, when: hosting.When) -> records.HostRecord:
            claim = seats.holder(self.signer, table, token)
            if claim.seat is None:
                raise PermissionDenied("SEAT_TOKEN_REQUIRED", "leave with your seat token")
            return hosting.leave(table.hosting, claim.seat, when)

        return self._hosted(*await self._change(game_id, leaving))

    async def start(self, game_id: str, token: str | None, bot: int) -> Hosted:
        def starting(table: Table, when: hosting.When) -> records.HostRecord:
            seats.admin(self.signer, table, token)
            return hosting.start(table.hosting, bot, when)

        return self._hosted(*await self._change(game_id, starting))

    async def reissue(self, game_id: str, token: str | None, seat: int) -> tuple[int, str]:
        def reissuing(table: Table, when: hosting.When) -> records.HostRecord:
            seats.admin(self.signer, table, token)
            return hosting.reissue(table.hosting, seat, table.finished, when)

        _, host = await self._change(game_id, reissuing)
        return seat, self.signer.issue(game_id, seat, host.seats[seat].generation)

    async def forfeit(self, game_id: str, token: str | None, seat: int) -> Hosted:
        def forfeiting(table: Table, when: hosting.When) -> records.HostRecord:
            claim = seats.holder(self.signer, table, token)
            if not claim.admin and claim.seat != seat:
                raise PermissionDenied("SEAT_NOT_YOURS", "a seat token forfeits its own seat only")
            return hosting.forfeit(
                table.hosting, table.game.forfeitable, seat, table.finished, when
            )

        return self._hosted(*await self._change(game_id, forfeiting))

    async def replace_by_bot(self, game_id: str, token: str | None, seat: int, bot: int) -> Hosted:
        def replacing(table: Table, when: hosting.When) -> records.HostRecord:
            seats.admin(self.signer, table, token)
            return hosting.replace_by_bot(table.hosting, seat, bot, table.finished, when)

        return self._hosted(*await self._change(game_id, replacing))

    async def abort(self, game_id: str, token: str | None) -> Hosted:
        def aborting(table: Table, when: hosting.When) -> records.HostRecord:
            seats.admin(self.signer, table, token)
            return hosting.abort(table.hosting, table.finished, when)

        return self._hosted(*await self._change(game_id, aborting))

    @staticmethod
    def _hosted(table: Table, host: records.HostRecord) -> Hosted:
        return Hosted(table.meta, host, table.finished)

    async def list_games(
        self, game: str, status: int, size: int, token: str
    ) -> tuple[list[Summary], str]:
        if game and game not in GAMES:
            raise BadRequestGame(game)
        games = [game] if game else sorted(GAMES)
        statuses = [status] if status else [records.TABLE_OPEN, records.TABLE_LIVE]
        statuses = [s for s in statuses if s in (records.TABLE_OPEN, records.TABLE_LIVE)]
        return await self.listing.page(games, statuses, size, token)


class BadRequestJoin(RefereeError):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self) -> None:
        super().__init__("JOIN_TARGET_INVALID", "set one of join_code and game_id")


class BadRequestGame(RefereeError):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, game: str) -> None:
        super().__init__("GAME_UNKNOWN", f"unknown game {echo(game)}")
