"""The tournament use cases (create, start, claim a seat, get, watch) and the directors
of this process.

Callers are identified by tokens: the admin token CreateTournament hands out, or a
participant token, which an external participant gets by redeeming the one-time seat
code CreateTournament issued for it (:mod:`service.storage.seat_codes`; the admin hands the codes
out and so never holds a participant's token). The record keeps only the tokens' sha256,
and seat tokens for a tournament's games are signed on demand from the token secret, so
any process sharing the store and the token secret answers alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

import msgspec
import structlog

from engines.errors import InvalidConfigError
from engines.registry import GAMES
from engines.rng import commitment
from referee.client import AsyncRefereeClient
from service.app import limits, rating_math
from service.app.referee import Referee
from service.domain import hosting
from service.edge.house_bots import HouseBots
from service.errors import (
    BadRequest,
    PermissionDenied,
    RefereeError,
    TournamentNotFound,
    Unauthenticated,
    Unavailable,
    VersionConflict,
    echo,
    shutting_down,
)
from service.storage.seat_codes import Issued, SeatCodeInvalid, SeatCodes
from service.tournaments import rounds
from service.tournaments.director import Director, SeatBots
from service.tournaments.model import Format, Participant, Status, Tournament
from service.tournaments.store import Stored, TournamentStore

log = structlog.get_logger("referee.tournaments")

MAX_PARTICIPANTS = 256
MAX_ROUNDS = 64
MAX_BOT_DELAY_MS = 10_000
MAX_LIST = 100
BOTS = tuple(hosting.BOT_STRATEGIES.values())  # the bot participants' strategies
WATCH_BLOCK_MS = 1000
ADMIN = -1  # the caller role of the admin token
# How long shutdown waits for the bots' channel to close (their calls have ended by then).
CLOSE_SECONDS = 2.0
CODE_KIND = "tournament-seat"


class SeatCodeFor(msgspec.Struct, frozen=True):
    """What a tournament's seat code stands for (its payload in service.storage.seat_codes)."""

    tournament_id: str
    participant: int


_encode_code = msgspec.msgpack.Encoder().encode
_decode_code = msgspec.msgpack.Decoder(SeatCodeFor).decode


@dataclass(frozen=True)
class ParticipantSpec:
    name: str
    bot: str  # "" external
    player_id: str = ""  # an external participant's, rated under it ("": not rated)


@dataclass(frozen=True)
class TournamentSpec:
    game: str
    seats_per_table: int
    options: dict[str, object]
    options_proto: bytes
    participants: Sequence[ParticipantSpec]
    format: Format
    rounds: int
    seed: bytes | None
    bot_move_delay_ms: int = 0
    # Whether its tables are rated: only when its creator presented an operator key, which
    # vouches for the participants' player ids (the edge decides, service.tournaments.api).
    rated: bool = False


@dataclass(frozen=True)
class Created:
    stored: Stored
    admin_token: str
    seat_codes: dict[int, Issued]  # one per external participant


@dataclass(frozen=True)
class Claimed:
    stored: Stored
    participant: int
    token: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> str:
    return "t1." + secrets.token_urlsafe(24)


def role(tournament: Tournament, token: str | None) -> int | None:
    """None: a spectator; ADMIN; or the external participant's index."""
    if token is None:
        return None
    digest = _digest(token)
    if hmac.compare_digest(digest, tournament.admin_sha256):
        return ADMIN
    for index, participant in enumerate(tournament.participants):
        if participant.token_sha256 and hmac.compare_digest(digest, participant.token_sha256):
            return index
    raise Unauthenticated(
        "TOKEN_INVALID", "this token belongs to no participant of this tournament"
    )


def _check_player_id(participant: ParticipantSpec) -> None:
    """A person's player id as JoinGame's on a rated table (never one the referee rates
    under itself); a bot participant has none: it is rated as its strategy."""
    if participant.bot and participant.player_id:
        raise BadRequest(
            "PLAYER_ID_INVALID", "a bot participant is rated as its strategy: it takes no player_id"
        )
    hosting.check_player_id(participant.player_id)
    rating_math.check_own_player_id(participant.player_id)


class TournamentHost:
    """Use cases over the store, and the directors this process runs."""

    def __init__(
        self,
        referee: Referee,
        store: TournamentStore,
        *,
        code_ttl_seconds: int,
        code_attempts_per_minute: int,
        max_directed: int = 32,
        bots: SeatBots | None = None,
    ) -> None:
        self.referee = referee
        # The bot participants' bots (the referee's house bots and their pool; a host
        # given none, in tests, makes its own and closes it with itself).
        self._own_bots: HouseBots | None = None
        if bots is None:
            bots = self._own_bots = HouseBots()
        self.bots: SeatBots = bots
        self.store = store
        self.codes = SeatCodes(
            store.client, kind=CODE_KIND, attempts_per_minute=code_attempts_per_minute
        )
        self.code_ttl_seconds = code_ttl_seconds
        self.directors: dict[str, Director] = {}
        # This process directs at most this many tournaments at once (started here or taken
        # over); one more started here is left to another process's takeover pass.
        self.max_directed = max_directed
        self._address: str | None = None
        self._operator_key: str | None = None
        self._client: AsyncRefereeClient | None = None
        self._closed = False
        # The one wait of this process per watched tournament and version (see watch).
        self._waits: dict[tuple[str, int], asyncio.Task[None]] = {}

    def connect_to(self, address: str, operator_key: str | None = None) -> None:
        """Where bots and table watches reach this referee's gRPC face, and the key they
        send there (the referee's own, :func:`service.app.limits.internal_key`: they play
        from loopback, which has no quotas of its own)."""
        self._address = address
        self._operator_key = operator_key

    # --- use cases -------------------------------------------------------------------------

    def _checked(self, spec: TournamentSpec) -> tuple[str, tuple[int, ...], int]:
        """The game's name, the table sizes it accepts and the rounds to play; or the
        request's first problem (BadRequest, PermissionDenied)."""
        game = GAMES.get(spec.game)
        if game is None:
            raise BadRequest("GAME_UNKNOWN", f"unknown game {echo(spec.game)}")
        counts = rounds.seat_counts(game, spec.options)
        players = len(spec.participants)
        if spec.seats_per_table not in counts:
            raise BadRequest(
                "TABLE_SIZE_UNSUPPORTED",
                f"{spec.game} tables seat {min(counts, default=0)} to {max(counts, default=0)}"
                f" with these options, not {spec.seats_per_table}",
            )
        try:
            game.make_config(spec.seats_per_table, spec.options)
        except InvalidConfigError as error:
            raise BadRequest(error.reason, error.message) from None
        if not min(counts) <= players <= MAX_PARTICIPANTS:
            raise BadRequest(
                "TOO_FEW_PARTICIPANTS" if players < min(counts) else "TOO_MANY_PARTICIPANTS",
                f"a tournament has {min(counts)} to {MAX_PARTICIPANTS} participants",
            )
        for participant in spec.participants:
            hosting.check_name(participant.name)
            if participant.bot and participant.bot not in BOTS:
                raise BadRequest("BOT_UNKNOWN", f"bots: {', '.join(BOTS)}")
            _check_player_id(participant)
        count = spec.rounds or rounds.default_rounds(spec.format, players, spec.seats_per_table)
        if not 1 <= count <= MAX_ROUNDS:
            raise BadRequest("ROUNDS_INVALID", f"rounds must be 0 (default) or 1 to {MAX_ROUNDS}")
        if spec.seed and not self.referee.allow_client_seeds:
            raise PermissionDenied(
                "CLIENT_SEEDS_DISABLED", "this referee does not accept client-chosen seeds"
            )
        if not 0 <= spec.bot_move_delay_ms <= MAX_BOT_DELAY_MS:
            raise BadRequest(
                "BOT_DELAY_INVALID", f"bot_move_delay_ms must be 0 to {MAX_BOT_DELAY_MS}"
            )
        if spec.seed and len(spec.seed) > 64:
            raise BadRequest("SEED_TOO_LONG", "a seed has at most 64 bytes")
        return game.name, counts, count

    async def create(
        self, spec: TournamentSpec, admit: Callable[[str], Awaitable[None]] | None = None
    ) -> Created:
        """A new tournament; ``admit`` (the caller's quotas) is awaited with its id once the
        spec is found valid, before anything is stored (its seat codes too), and may
        refuse it."""
        game_name, counts, count = self._checked(spec)
        seed = spec.seed or secrets.token_bytes(32)
        admin = _new_token()
        tournament_id = secrets.token_hex(12)
        if admit is not None:
            await admit(tournament_id)
        humans = [i for i, participant in enumerate(spec.participants) if not participant.bot]
        # Codes first: if the record is never created, they stand for nothing and expire.
        issued = await self.codes.issue_many(
            [_encode_code(SeatCodeFor(tournament_id, i)) for i in humans], self.code_ttl_seconds
        )
        tournament = Tournament(
            tournament_id=tournament_id,
            game=game_name,
            seats_per_table=spec.seats_per_table,
            options=spec.options_proto,
            format=spec.format,
            rounds=count,
            seed=seed,
            seed_sha256=commitment(seed),
            admin_sha256=_digest(admin),
            participants=tuple(
                Participant(p.name, p.bot, player_id=p.player_id) for p in spec.participants
            ),
            created_at=time.time(),
            seat_counts=counts,
            client_seeded=bool(spec.seed),
            bot_move_delay_ms=spec.bot_move_delay_ms,
            rated=spec.rated,
        )
        if not await self.store.create(tournament):
            raise RefereeError("TOURNAMENT_ID_TAKEN", "could not allocate a tournament id")
        return Created(Stored(0, tournament), admin, dict(zip(humans, issued, strict=True)))

    async def claim_seat(self, code: str, display_name: str) -> Claimed:
        """Redeem a seat code (from the calling address, :func:`service.app.limits.current`)
        for a new participant token; ``display_name`` ("" keeps the name) renames it.

        The code is spent by the redeem; if the record cannot be written (the store went
        away), it is given back, so its holder can try again. A code whose tournament is
        gone is as invalid as an unknown one.
        """
        if display_name:
            hosting.check_name(display_name)
        redeemed = await self.codes.redeem(code, limits.current().address)
        seat = _decode_code(redeemed.payload)
        token = _new_token()
        digest = _digest(token)
        try:
            stored = await self.store.update(
                seat.tournament_id,
                lambda t: rounds.claim_seat(t, seat.participant, digest, display_name, time.time()),
            )
        except TournamentNotFound:
            raise SeatCodeInvalid() from None
        except (Unavailable, VersionConflict):
            with contextlib.suppress(RefereeError):
                await self.codes.give_back(code, redeemed)
            raise
        participants = stored.tournament.participants
        if not 0 <= seat.participant < len(participants) or (
            participants[seat.participant].token_sha256 != digest
        ):
            raise SeatCodeInvalid()  # not an external participant's code: nothing changed
        return Claimed(stored, seat.participant, token)

    async def start(self, tournament_id: str, token: str | None) -> Stored:
        """Start (admin only); idempotent. Directs the tournament from this process if no
        director here does yet and this process has room (:attr:`max_directed`); else a
        takeover pass (this process's or another's) picks it up once its start grace ends."""
        stored = await self.store.load(tournament_id)
        if token is None:
            raise Unauthenticated("TOKEN_MISSING", "send the admin token to start")
        if role(stored.tournament, token) != ADMIN:
            raise PermissionDenied("ADMIN_TOKEN_REQUIRED", "only the admin token starts it")
        stored = await self.store.update(tournament_id, rounds.start)
        if stored.tournament.status is Status.RUNNING:
            if self.directs(tournament_id) or self.room() > 0:
                self.direct(tournament_id)
            else:
                log.warning("directing enough", tournament_id=tournament_id, most=self.max_directed)
        return stored

    async def get(self, tournament_id: str, token: str | None) -> tuple[Stored, int | None]:
        stored = await self.store.load(tournament_id)
        return stored, role(stored.tournament, token)

    async def list(self, limit: int, status: Status | None) -> list[Stored]:
        """The most recently changed tournaments first, optionally of one status."""
        if not 0 <= limit <= MAX_LIST:
            raise BadRequest("LIMIT_INVALID", f"limit must be 0 (20) to {MAX_LIST}")
        return await self.store.newest(limit or 20, lambda t: status is None or t.status is status)

    async def watch(
        self, tournament_id: str, token: str | None, after_version: int | None
    ) -> AsyncIterator[tuple[Stored, int | None]]:
        """Snapshots at every version the watcher gets to see, until the finished one.

        When this process stops, the watch ends as a game's does (UNAVAILABLE
        REFEREE_SHUTTING_DOWN: resume elsewhere), not with the store's closing error.
        Every watch of one tournament at one version shares one blocking read, so the
        connections watches hold grow with the tournaments watched, not with the watches.
        """
        stored, caller = await self.get(tournament_id, token)
        last = -1 if after_version is None else after_version
        while True:
            if stored.version > last:
                last = stored.version
                yield stored, caller
            if stored.tournament.status is Status.FINISHED and stored.version <= last:
                return
            if self._closed:
                raise shutting_down()
            try:
                await self._changed(tournament_id, last)
                stored = await self.store.load(tournament_id)
            except Unavailable:
                if self._closed:
                    raise shutting_down() from None
                raise

    async def _changed(self, tournament_id: str, version: int) -> None:
        """Until a version above ``version`` is written or WATCH_BLOCK_MS passed, in the
        one read of this process for that tournament and version (a watcher that leaves
        does not end the others' wait)."""
        key = (tournament_id, version)
        wait = self._waits.get(key)
        if wait is None:
            wait = asyncio.create_task(self.store.wait(tournament_id, version, WATCH_BLOCK_MS))
            self._waits[key] = wait
            wait.add_done_callback(lambda done: self._forget(key, done))
        await asyncio.shield(wait)

    def _forget(self, key: tuple[str, int], done: asyncio.Task[None]) -> None:
        self._waits.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved: every watcher still waiting saw it itself

    # --- directors -------------------------------------------------------------------------

    def directs(self, tournament_id: str) -> bool:
        """Whether a director of this process runs the tournament (or stands by for it)."""
        director = self.directors.get(tournament_id)
        return director is not None and director.running

    def room(self) -> int:
        """How many more tournaments this process may direct; forgets the stopped ones."""
        self.directors = {tid: d for tid, d in self.directors.items() if d.running}
        return self.max_directed - len(self.directors)

    def direct(self, tournament_id: str, *, standby: bool = True) -> Director:
        """The director of this process for the tournament, started if not running; a
        ``standby`` one waits for a held lease, another gives up (see Director)."""
        director = self.directors.get(tournament_id)
        if director is not None and director.running:
            return director
        if self._closed:
            raise RuntimeError("the tournament host is stopped")
        if self._client is None:
            if self._address is None:
                raise RuntimeError("connect_to(address) first: bots need the gRPC face")
            self._client = AsyncRefereeClient(
                self._address, timeout=30.0, operator_key=self._operator_key
            )
        director = Director(
            tournament_id,
            self.store,
            self.referee,
            self._client,
            bots=self.bots,
            standby=standby,
        )
        director.start()
        self.directors[tournament_id] = director
        return director

    async def aclose(self) -> None:
        """Stop every director and its bots (server shutdown); close the connections."""
        if self._closed:
            return
        self._closed = True
        await asyncio.gather(*(director.stop() for director in self.directors.values()))
        if self._client is not None:  # its calls are over: never wait on the close for long
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._client.close(), CLOSE_SECONDS)
        await self.store.aclose()
        if self._own_bots is not None:
            self._own_bots.close()
