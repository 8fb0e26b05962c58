"""The lobby's use cases: join and leave a table, start it, list it, and the admin controls.

Each one loads the game, runs one pure transition of its hosting record
(:mod:`service.domain.hosting`) and stores the result with the store's compare-and-set on the
game's version and host version (``host.lua``); a conflict is decided again on a fresh
load. Calls for one game in this process are serialised, so fifty players racing for the
last seats do not spin on conflicts; across processes the compare-and-set decides, and of
concurrent joins for the last seat exactly one wins. The stored change is announced on the
game's stream, which pushes it to every open WatchGame and Play stream (service.storage.feed).

Join codes are one-time codes (:mod:`service.storage.seat_codes`, kind ``table-seat``) that stay
good for one join per open seat until the table starts; the code's key (its digest only)
is kept beside the game so the start can spend it.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import grpc

from engines.registry import GAMES
from service.app import limits
from service.app.referee import Referee
from service.domain import hosting, records
from service.domain.auth import SeatClaim
from service.errors import PermissionDenied, RefereeError, Unauthenticated, VersionConflict, echo
from service.storage.lobby_listing import Listing, Summary
from service.storage.redis_kit import Client, Outage, as_bytes, script
from service.storage.seat_codes import Issued, SeatCodeAttemptsExceeded, SeatCodeInvalid, SeatCodes
from service.storage.store import CommitStatus
from service.storage.tables import Table, load_table

CODE_KIND: Final = "table-seat"
MAX_RETRIES: Final = 16
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


def summary_of(table: Table, host: records.HostRecord) -> Summary:
    meta = table.meta
    return Summary(
        game_id=table.game_id,
        game=meta.game,
        status=host.status,
        seats=meta.seats,
        taken=sum(1 for hold in host.seats if hold.holder != records.OPEN_SEAT),
        allow_spectators=meta.allow_spectators,
        names=tuple(hold.name for hold in host.seats),
        created_ms=int(meta.created_at * 1000),
        clock=meta.clock if isinstance(meta.clock, records.ClockSpec) else None,
    )


class Lobby:
    """LobbyService's use cases on the referee's store (``client`` is a bytes client of
    the same Redis, for codes, the listing and the join counter)."""

    def __init__(
        self,
        referee: Referee,
        client: Client,
        *,
        code_ttl_seconds: int = 24 * 3600,
        code_attempts_per_minute: int = 10,
        joins_per_minute: int = 30,
        max_actions: int = hosting.DEFAULT_MAX_ACTIONS,
    ) -> None:
        self.referee = referee
        self.store = referee.store
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted
        self.codes = SeatCodes(client, kind=CODE_KIND, attempts_per_minute=code_attempts_per_minute)
        self.listing = Listing(client, lambda game_id: self.store.keys(game_id).game)
        self._client = client
        self._counter = script(client, "seat_code_attempt.lua")
        self.code_ttl_seconds = code_ttl_seconds
        self.joins_per_minute = joins_per_minute
        self.max_actions = max_actions
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def _code_key_key(self, game_id: str) -> str:
        return f"{self.store.keys(game_id).game}:joincode"

    # --- creating --------------------------------------------------------------------------

    @_outage
    async def opened(self, table_game_id: str, host: records.HostRecord) -> Issued | None:
        """After CreateGame: a join code when a seat is open, and the listing entry."""
        issued = None
        if host.status == records.TABLE_OPEN:
            issued = await self.codes.issue(table_game_id.encode(), self.code_ttl_seconds)
            canonical = issued.code.replace("-", "")
            await self._client.set(
                self._code_key_key(table_game_id),
                self.codes.key(canonical),
                ex=self.code_ttl_seconds,
            )
        if host.listed:
            table = await load_table(self.store, table_game_id)
            await self.listing.put(summary_of(table, host))
        return issued

    # --- the transitions -------------------------------------------------------------------

    async def _change(
        self,
        game_id: str,
        transition: Callable[[Table, hosting.When], records.HostRecord],
    ) -> tuple[Table, records.HostRecord]:
        """Run ``transition`` on the stored record and store its result (compare-and-set,
        decided again on conflict); the listing and join code follow the new record."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            for _ in range(MAX_RETRIES):
                table = await load_table(self.store, game_id)
                host = transition(table, hosting.When(table.version, time.time(), self.max_actions))
                clock = await self.referee.host_changing(table, host)  # service.domain.clocks
                result = await self.store.change_host(
                    game_id,
                    expected_version=table.version,
                    expected_host_version=table.host_version,
                    host=records.encode(host),
                    clock=clock,
                )
                if result.status is CommitStatus.OK:
                    self.referee.forget(game_id)
                    await self._follow(table, host)
                    return table, host
                if result.status is CommitStatus.MISSING:
                    await load_table(self.store, game_id)  # raises GAME_NOT_FOUND
            raise VersionConflict("CONTENTION", "the table kept changing; try again")

    async def _follow(self, table: Table, host: records.HostRecord) -> None:
        """The listing and the join code after a change of the record to ``host``."""
        if host.status != records.TABLE_OPEN:
            await self._spend_code(table.game_id)
        if not host.listed:
            return
        if host.status == records.TABLE_ABORTED or table.finished:
            await self.listing.remove(table.meta.game, table.game_id)
        else:
            await self.listing.put(summary_of(table, host))

    @_outage
    async def _spend_code(self, game_id: str) -> None:
        key = await self._client.getdel(self._code_key_key(game_id))
        if key is not None:
            await self.codes.revoke(as_bytes(key).decode())

    async def finished(self, game: str, game_id: str) -> None:
        """A game ended (its last move): it leaves the listing."""
        await self.listing.remove(game, game_id)

    def _claim(self, table: Table, token: str | None) -> SeatClaim:
        if token is None:
            raise Unauthenticated("TOKEN_MISSING", "send the table admin token or a seat token")
        claim = self.referee.claim(table, token)
        assert claim is not None
        return claim

    def _admin(self, table: Table, token: str | None) -> None:
        if not self._claim(table, token).admin:
            raise PermissionDenied("ADMIN_TOKEN_REQUIRED", "this needs the table admin token")

    # --- the RPCs ----------------------------------------------------------------------------

    async def join(self, join_code: str, game_id: str, name: str, player_id: str) -> Joined:
        hosting.check_name(name)
        hosting.check_player_id(player_id)
        if bool(join_code) == bool(game_id):
            raise BadRequestJoin()
        address = limits.current().address
        await self._count_join(address)
        by_code = bool(join_code)
        if by_code:
            try:
                game_id = (await self.codes.resolve(join_code, address)).decode()
            except SeatCodeInvalid:
                raise JoinCodeInvalid() from None
            except SeatCodeAttemptsExceeded as error:
                raise JoinCodeAttemptsExceeded(error.retry_after_seconds) from None
        seat = -1

        def joining(table: Table, when: hosting.When) -> records.HostRecord:
            nonlocal seat
            if not by_code and not table.hosting.listed:
                raise PermissionDenied("TABLE_NOT_LISTED", "join this table with its join code")
            host, seat = hosting.join(table.hosting, name, player_id, when)
            return host

        table, host = await self._change(game_id, joining)
        token = self.referee.signer.issue(game_id, seat, host.seats[seat].generation)
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
            claim = self._claim(table, token)
            if claim.seat is None:
                raise PermissionDenied("SEAT_TOKEN_REQUIRED", "leave with your seat token")
            return hosting.leave(table.hosting, claim.seat, when)

        return self._hosted(*await self._change(game_id, leaving))

    async def start(self, game_id: str, token: str | None, bot: int) -> Hosted:
        def starting(table: Table, when: hosting.When) -> records.HostRecord:
            self._admin(table, token)
            return hosting.start(table.hosting, bot, when)

        return self._hosted(*await self._change(game_id, starting))

    async def reissue(self, game_id: str, token: str | None, seat: int) -> tuple[int, str]:
        def reissuing(table: Table, when: hosting.When) -> records.HostRecord:
            self._admin(table, token)
            return hosting.reissue(table.hosting, seat, table.finished, when)

        _, host = await self._change(game_id, reissuing)
        return seat, self.referee.signer.issue(game_id, seat, host.seats[seat].generation)

    async def forfeit(self, game_id: str, token: str | None, seat: int) -> Hosted:
        def forfeiting(table: Table, when: hosting.When) -> records.HostRecord:
            claim = self._claim(table, token)
            if not claim.admin and claim.seat != seat:
                raise PermissionDenied("SEAT_NOT_YOURS", "a seat token forfeits its own seat only")
            return hosting.forfeit(table.hosting, table.meta.game, seat, table.finished, when)

        return self._hosted(*await self._change(game_id, forfeiting))

    async def replace_by_bot(self, game_id: str, token: str | None, seat: int, bot: int) -> Hosted:
        def replacing(table: Table, when: hosting.When) -> records.HostRecord:
            self._admin(table, token)
            return hosting.replace_by_bot(table.hosting, seat, bot, table.finished, when)

        return self._hosted(*await self._change(game_id, replacing))

    async def abort(self, game_id: str, token: str | None) -> Hosted:
        def aborting(table: Table, when: hosting.When) -> records.HostRecord:
            self._admin(table, token)
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
