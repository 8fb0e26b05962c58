"""The tournament use cases (create, start, get, watch) and the directors of this process.

Callers are identified by the tokens CreateTournament hands out: the admin token, or one
participant token per external participant. The record keeps only their sha256, and
seat tokens for a tournament's games are signed on demand from the token secret, so
any process sharing the store and the token secret answers alike.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

import structlog

from engines.errors import InvalidConfigError
from engines.registry import GAMES
from engines.rng import commitment
from referee.client import AsyncRefereeClient
from service.errors import (
    BadRequest,
    PermissionDenied,
    RefereeError,
    Unauthenticated,
    Unavailable,
    shutting_down,
)
from service.referee import Referee
from service.tournaments import rounds
from service.tournaments.director import Director
from service.tournaments.model import Format, Participant, Status, Tournament
from service.tournaments.store import Stored, TournamentStore

log = structlog.get_logger("referee.tournaments")

MAX_PARTICIPANTS = 256
MAX_ROUNDS = 64
MAX_NAME = 64
MAX_BOT_DELAY_MS = 10_000
MAX_LIST = 100
BOTS = ("random", "heuristic")
WATCH_BLOCK_MS = 1000
ADMIN = -1  # the caller role of the admin token


@dataclass(frozen=True)
class ParticipantSpec:
    name: str
    bot: str  # "" external


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


@dataclass(frozen=True)
class Created:
    stored: Stored
    admin_token: str
    participant_tokens: dict[int, str]


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


class TournamentHost:
    """Use cases over the store, and the directors this process runs."""

    def __init__(self, referee: Referee, store: TournamentStore) -> None:
        self.referee = referee
        self.store = store
        self.directors: dict[str, Director] = {}
        self._address: str | None = None
        self._client: AsyncRefereeClient | None = None
        self._closed = False
        # The one wait of this process per watched tournament and version (see watch).
        self._waits: dict[tuple[str, int], asyncio.Task[None]] = {}

    def connect_to(self, address: str) -> None:
        """Where bots and table watches reach this referee's gRPC face."""
        self._address = address

    # --- use cases -------------------------------------------------------------------------

    async def create(self, spec: TournamentSpec) -> Created:
        game = GAMES.get(spec.game)
        if game is None:
            raise BadRequest("GAME_UNKNOWN", f"unknown game {spec.game!r}")
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
            if not 1 <= len(participant.name) <= MAX_NAME:
                raise BadRequest("NAME_INVALID", f"names have 1 to {MAX_NAME} characters")
            if participant.bot and participant.bot not in BOTS:
                raise BadRequest("BOT_UNKNOWN", f"bots: {', '.join(BOTS)}")
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
        seed = spec.seed or secrets.token_bytes(32)
        admin = _new_token()
        tokens: dict[int, str] = {}
        participants = []
        for index, participant in enumerate(spec.participants):
            token_sha = ""
            if not participant.bot:
                tokens[index] = _new_token()
                token_sha = _digest(tokens[index])
            participants.append(Participant(participant.name, participant.bot, token_sha))
        tournament = Tournament(
            tournament_id=secrets.token_hex(12),
            game=game.name,
            seats_per_table=spec.seats_per_table,
            options=spec.options_proto,
            format=spec.format,
            rounds=count,
            seed=seed,
            seed_sha256=commitment(seed),
            admin_sha256=_digest(admin),
            participants=tuple(participants),
            created_at=time.time(),
            seat_counts=counts,
            client_seeded=bool(spec.seed),
            bot_move_delay_ms=spec.bot_move_delay_ms,
        )
        if not await self.store.create(tournament):
            raise RefereeError("TOURNAMENT_ID_TAKEN", "could not allocate a tournament id")
        return Created(Stored(0, tournament), admin, tokens)

    async def start(self, tournament_id: str, token: str | None) -> Stored:
        """Start (admin only); idempotent. Directs the tournament from this process if no
        director here does yet."""
        stored = await self.store.load(tournament_id)
        if token is None:
            raise Unauthenticated("TOKEN_MISSING", "send the admin token to start")
        if role(stored.tournament, token) != ADMIN:
            raise PermissionDenied("ADMIN_TOKEN_REQUIRED", "only the admin token starts it")
        stored = await self.store.update(tournament_id, rounds.start)
        if stored.tournament.status is Status.RUNNING:
            self.direct(tournament_id)
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

    def direct(self, tournament_id: str) -> Director:
        """The director of this process for the tournament, started if not running."""
        director = self.directors.get(tournament_id)
        if director is not None and director.running:
            return director
        if self._closed:
            raise RuntimeError("the tournament host is stopped")
        if self._client is None:
            if self._address is None:
                raise RuntimeError("connect_to(address) first: bots need the gRPC face")
            self._client = AsyncRefereeClient(self._address, timeout=30.0)
        director = Director(tournament_id, self.store, self.referee, self._client)
        director.start()
        self.directors[tournament_id] = director
        return director

    async def aclose(self) -> None:
        """Stop every director and its bots (server shutdown); close the connections."""
        if self._closed:
            return
        self._closed = True
        await asyncio.gather(*(director.stop() for director in self.directors.values()))
        if self._client is not None:
            await self._client.close()
        await self.store.aclose()
