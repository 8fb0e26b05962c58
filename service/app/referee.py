"""The referee's use cases: load -> decide -> save -> answer, for every RPC.

This is the unit of work of the service. It talks to engines only through their
:class:`~engines.base.GameDefinition` and to Redis only through the store, and raises only
:mod:`service.errors` exceptions. Servicers translate protobuf to these calls and back.

Concurrency: moves for one game inside this process are serialised by a per-game lock, so
six seats racing for chips do not spin on conflicts; across processes the store's
compare-and-set decides, and an unpinned move is reloaded, re-validated and retried.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import msgspec
import structlog

from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError
from engines.registry import GAMES
from engines.rng import commitment
from service.app import history, watching
from service.app.views import (
    Created,
    FinalResult,
    History,
    HistoryItem,
    SeatView,
    Submitted,
    Update,
    outcome_of,
    project,
    redact_events,
    seen_events,
)
from service.domain import chain, clocks, hosting, records
from service.domain.auth import SeatClaim, TokenSigner
from service.domain.move_limits import check_room, split_move_limit
from service.errors import (
    BadRequest,
    PermissionDenied,
    RefereeError,
    RuleViolation,
    Unauthenticated,
    VersionConflict,
    echo,
)
from service.storage.deadlines import DeadlineIndex
from service.storage.feed import Feed
from service.storage.store import CommitResult, CommitStatus, RedisStore
from service.storage.tables import (
    Table,
    clock_after,
    clock_deadlines,
    clocks_of,
    load_log,
    load_table,
    replay_log,
)

MAX_MOVE_ID_LENGTH = 64
SEED_BYTES = 32
# How long after a bot's seat becomes awaited the firer plays it (service.app.firer).
BOT_DELAY_MS = 300


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


def _split_clock(options: dict[str, object]) -> tuple[records.ClockSpec | None, dict[str, object]]:
    """The table's clock (validated by the edge: service.domain.clocks.spec_from_proto) and the
    engine's options without it."""
    clock = options.get(clocks.CLOCK_OPTION)
    if clock is None:
        return None, options
    assert isinstance(clock, records.ClockSpec)
    return clock, {name: value for name, value in options.items() if name != clocks.CLOCK_OPTION}


def _earliest(deadlines: dict[int, int]) -> int | None:
    return min(deadlines.values(), default=None)


def _rule_error(error: MoveError) -> RefereeError:
    if isinstance(error, InvalidMoveError):
        return BadRequest(error.reason, error.message)
    assert isinstance(error, IllegalMoveError)
    return RuleViolation(error.reason, error.message)


def _check_move_game(table: Table, move_game: str) -> None:
    if move_game != table.game.name:
        raise BadRequest(
            "MOVE_FOR_OTHER_GAME", f"this game is {table.game.name}, the move is for {move_game}"
        )


class MoveStats(Protocol):
    """Where the referee reports contention (the metrics, or nothing)."""

    def count_conflict(self) -> None: ...

    def count_retry(self) -> None: ...


class _NoStats:
    def count_conflict(self) -> None:
        return None

    def count_retry(self) -> None:
        return None


class Referee:
    def __init__(
        self,
        store: RedisStore,
        signer: TokenSigner,
        *,
        allow_client_seeds: bool = False,
        max_retries: int = 16,
        cached_tables: int = 4096,
        new_id: Callable[[], str] = lambda: secrets.token_hex(12),
        stats: MoveStats | None = None,
        deadlines: DeadlineIndex | None = None,
        now_ms: Callable[[], int] = wall_ms,
        bot_delay_ms: int = BOT_DELAY_MS,
    ) -> None:
        self.store = store
        # Where clocked moves' deadlines go (None: nowhere, no firer serves this store),
        # the clocks' time source (tests give a fake one) and the bots' delay.
        self.deadlines = deadlines
        self.now_ms = now_ms
        self.bot_delay_ms = bot_delay_ms
        self.signer = signer
        self.allow_client_seeds = allow_client_seeds
        self.max_retries = max_retries
        self.cached_tables = cached_tables
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._new_id = new_id
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.feed = Feed(store)
        self._checkpoints = history.Checkpoints()
        self.stats: MoveStats = stats or _NoStats()

    # --- who is calling ------------------------------------------------------------------

    def claim(self, table: Table, token: str | None) -> SeatClaim | None:
        """The caller's token checked against the table: its game, its seat, and its
        generation against the hosting record loaded with the game (no round trip)."""
        claim = self.signer.claim_for(token, table.game_id)
        if claim is None:
            return None
        if claim.seat is not None and not 0 <= claim.seat < table.meta.seats:
            raise PermissionDenied(
                "SEAT_NOT_AT_TABLE", f"there is no seat {claim.seat} at this table"
            )
        hosting.check_generation(table.hosting, claim.seat, claim.generation)
        return claim

    def _viewer(self, table: Table, token: str | None) -> int | None:
        """The caller's seat, or None for an allowed spectator (the table admin always
        watches as one)."""
        claim = self.claim(table, token)
        seat = None if claim is None else claim.seat
        structlog.contextvars.bind_contextvars(seat=seat)
        if claim is None and not table.meta.allow_spectators:
            raise Unauthenticated(
                "TOKEN_MISSING", "this game has no spectators; send your seat token"
            )
        return seat

    def _seat(self, table: Table, token: str | None) -> int:
        if token is None:
            raise Unauthenticated("TOKEN_MISSING", "send your seat token to act")
        seat = self._viewer(table, token)
        if seat is None:
            raise PermissionDenied("ADMIN_HOLDS_NO_SEAT", "the table admin token holds no seat")
        return seat

    @staticmethod
    def _check_movable(table: Table, seat: int) -> None:
        """Moves wait for the start, end at an abort, and a forfeited seat's player makes
        none (the clock plays it)."""
        host = table.hosting
        hosting.check_movable(host)
        if host.seats[seat].forfeited:
            raise RuleViolation("SEAT_FORFEITED", f"seat {seat} has forfeited")

    def forget(self, game_id: str) -> None:
        """Drop this process's cached copy of a game (its hosting record changed here)."""
        self._tables.pop(game_id, None)

    # --- creating --------------------------------------------------------------------------

    async def create_game(
        self,
        game_name: str,
        seats: int,
        options: dict[str, object],
        *,
        allow_spectators: bool,
        seed: bytes | None,
        admit: Callable[[str], Awaitable[None]] | None = None,
        open_seats: int = 0,
        names: tuple[str, ...] = (),
        listed: bool = False,
        presence: bool = False,
        programs: frozenset[int] = frozenset(),
    ) -> Created:
        """A new game; ``admit`` (the caller's quotas) is awaited with its id once the
        request is found valid, before anything is stored, and may refuse it. The last
        ``open_seats`` seats are left for LobbyService.JoinGame (service.app.lobby);
        ``presence`` makes the table show its seats' presence (a person sits there);
        ``programs`` are seats programs hold, which the no-show policy spares."""
        game = GAMES.get(game_name)
        if game is None:
            raise BadRequest(
                "GAME_UNKNOWN", f"unknown game {echo(game_name)}; known: {', '.join(sorted(GAMES))}"
            )
        move_limit, options = split_move_limit(game.name, options)
        clock, options = _split_clock(options)
        try:
            config = game.make_config(seats, options)
        except InvalidConfigError as error:
            raise BadRequest(error.reason, error.message) from None
        if seed:
            if not self.allow_client_seeds:
                raise PermissionDenied(
                    "CLIENT_SEEDS_DISABLED", "this referee does not accept client-chosen seeds"
                )
            if len(seed) > 64:
                raise BadRequest("SEED_TOO_LONG", "a seed has at most 64 bytes")
        created_at = time.time()
        host = hosting.new_host(
            seats,
            open_seats,
            names,
            listed=listed,
            created_at=created_at,
            presence=presence,
            programs=programs,
        )
        seed = seed or secrets.token_bytes(SEED_BYTES)
        state = game.new_game(config, seed)
        meta = records.GameMeta(
            game=game.name,
            seats=seats,
            config=msgspec.Raw(records.encode(config)),
            allow_spectators=allow_spectators,
            seed=seed,
            seed_sha256=commitment(seed),
            created_at=created_at,
            move_limit=move_limit,
            clock=msgspec.UNSET if clock is None else clock,
        )
        game_id = self._new_id()
        if admit is not None:
            await admit(game_id)
        started = None
        if clock is not None and host.status == records.TABLE_LIVE:  # every seat held
            now = self.now_ms()
            started = clocks.at_start(clock, seats, game.waiting_for(state), now)
            due = clocks.deadlines(clock, started, clocks.Roles(), self.bot_delay_ms)
            await self._schedule(game_id, 0, 0, _earliest(due))
        stored = await self.store.create(
            game_id,
            records.encode(state),
            records.encode(meta),
            host=records.encode(host),
            clock=None if started is None else clocks.encode(started),
        )
        if not stored:
            raise RefereeError("GAME_ID_TAKEN", "could not allocate a game id")
        tokens = [self.signer.issue(game_id, seat) for seat in range(seats - open_seats)]
        admin = self.signer.issue_admin(game_id)
        return Created(game_id, 0, meta.seed_sha256, tokens, meta, config, admin, host)

    # --- for callers inside this process (the tournament director) ------------------------

    def seat_token(self, game_id: str, seat: int) -> str:
        """The seat token of ``seat`` in ``game_id``, as :meth:`create_game` hands out.

        For a caller inside this process that already speaks for the game (the tournament
        director that created it, whose bots then play through the public API like any
        player); no RPC reaches it. Signing needs no store, so it costs no round trip.
        """
        return self.signer.issue(game_id, seat)

    async def final_result(self, game_id: str) -> FinalResult:
        """How the game ended; RuleViolation ``GAME_NOT_FINISHED`` while it still runs,
        GameNotFound once it has expired."""
        table = await load_table(self.store, game_id)
        outcome = outcome_of(table, table.state)
        if outcome is None:
            raise RuleViolation("GAME_NOT_FINISHED", f"game {echo(game_id)} has not finished yet")
        return FinalResult(table.game.name, game_id, table.version, outcome)

    async def discard_game(self, game_id: str) -> None:
        """Remove every stored key of the game and forget this process's copy of it.

        For a game created but never handed to anybody: a director that lost the race to
        record its table's game drops its own. A missing game is no error.
        """
        self._tables.pop(game_id, None)
        await self.store.delete(game_id)

    # --- clocks ----------------------------------------------------------------------------

    async def _schedule(
        self, game_id: str, version: int, host_version: int, due_ms: int | None
    ) -> None:
        """Index the deadline of the game's state at ``version``/``host_version`` before
        that state is stored (service.storage.deadlines), so a crash after the commit loses none."""
        if due_ms is not None and self.deadlines is not None:
            await self.deadlines.schedule(game_id, version, host_version, due_ms)

    async def schedule_clock(self, table: Table) -> None:
        """Index the next deadline of ``table`` as it is about to be stored (its version
        and host version): for a host change (start, bot, forfeit) that leaves a clock
        running, called before the change is committed."""
        due = clock_deadlines(table, self.bot_delay_ms)
        await self._schedule(table.game_id, table.version, table.host_version, _earliest(due))

    async def host_changing(self, table: Table, host: records.HostRecord) -> bytes | None:
        """Before ``table``'s hosting record becomes ``host`` (service.app.lobby): the clocks
        to store with the change (started when the table starts, OPEN to LIVE, if it has a
        clock or a bot; else None: unchanged), and the changed table's next deadline
        indexed first, so the clock or a bot takes over a seat that needs it."""
        clock = None
        changed = dataclasses.replace(
            table, host=records.encode(host), hosted=host, host_version=table.host_version + 1
        )
        starting = table.hosting.status == records.TABLE_OPEN != host.status
        if starting and (table.clock_spec is not None or clocks.roles(host).any):
            spec = table.clock_spec or records.ClockSpec()
            awaited = table.awaited(table.state)
            clock = clocks.encode(clocks.at_start(spec, table.meta.seats, awaited, self.now_ms()))
            changed = dataclasses.replace(changed, clock=clock)
        if host.status == records.TABLE_LIVE:
            await self.schedule_clock(changed)
        return clock

    def clocked(self, view: SeatView, table: Table) -> SeatView:
        """``view`` with the table's clocks, when it is at ``table``'s version."""
        if view.version != table.version:
            return view
        # Clocks run only while the table is live: an open table's seats have no deadline.
        live = table.hosting.status == records.TABLE_LIVE
        due = clock_deadlines(table, self.bot_delay_ms) if live else {}
        if table.clock_spec is None and not due:
            return view
        shown = clocks.ClockView(table.clock_spec, clocks_of(table), due)
        return dataclasses.replace(view, clock=shown)

    # --- reading ---------------------------------------------------------------------------

    async def get_view(self, game_id: str, token: str | None) -> SeatView:
        table = await self._current(game_id)
        viewer = self._viewer(table, token)
        return self.clocked(project(table, table.state, table.version, viewer, table.head), table)

    async def legal_moves(self, game_id: str, token: str | None) -> tuple[str, int, list[Any]]:
        table = await self._current(game_id)
        seat = self._seat(table, token)
        host = table.hosting
        if host.status != records.TABLE_LIVE or host.seats[seat].forfeited:
            return table.game.name, table.version, []  # not started, aborted, forfeited
        if table.version >= table.move_limit:  # what SubmitMove would accept: nothing
            return table.game.name, table.version, []
        return table.game.name, table.version, table.game.legal_moves(table.state, seat)

    async def validate_move(
        self, game_id: str, token: str | None, move_game: str, move: Any
    ) -> tuple[int, RefereeError | None]:
        table = await self._current(game_id)
        seat = self._seat(table, token)
        _check_move_game(table, move_game)
        try:
            self._check_movable(table, seat)
            check_room(table.version, table.move_limit)
            table.game.check(table.state, seat, move)
        except MoveError as error:
            return table.version, _rule_error(error)
        except RuleViolation as error:
            return table.version, error
        return table.version, None

    async def history(
        self, game_id: str, token: str | None, page_size: int = 0, page_token: str = ""
    ) -> History:
        """One page of the caller's history: ``page_size`` entries (see service.app.history)
        from version 1, or from where ``page_token`` says the page before ended."""
        size = history.page_size(page_size)
        table = await load_table(self.store, game_id)
        viewer = self._viewer(table, token)
        first = history.page_start(game_id, page_token, table.version) if page_token else 1
        last = min(table.version, first + size - 1)
        paged = await history.page_steps(self.store, table, first, last, self._checkpoints)
        finished = self._public(table)
        items = []
        for logged, step in paged:
            by = clocks.move_by(logged.entry.client_move_id)
            if finished:
                events = list(step.events)
                items.append(
                    HistoryItem(
                        step.version, step.seat, step.move, events, logged.head, logged.raw, by
                    )
                )
                continue
            move = table.game.view_move(step.move, step.seat, viewer)
            events = redact_events(table, step.events, viewer)
            items.append(HistoryItem(step.version, step.seat, move, events, logged.head, None, by))
        return History(
            meta=table.meta,
            config=table.config,
            version=table.version,
            items=items,
            seed=table.meta.seed if self._public(table) else None,
            outcome=outcome_of(table, table.state),
            next_page_token=history.page_token(game_id, last + 1) if last < table.version else "",
            actions=table.hosting.actions,
        )

    @staticmethod
    def _public(table: Table) -> bool:
        """Whether the game's history and seed are public: finished, or aborted."""
        return table.finished or table.hosting.status == records.TABLE_ABORTED

    # --- moving ----------------------------------------------------------------------------

    async def submit_move(
        self,
        game_id: str,
        token: str | None,
        move_game: str,
        move: Any,
        client_move_id: str,
        expected_version: int | None,
    ) -> Submitted:
        if not client_move_id or len(client_move_id) > MAX_MOVE_ID_LENGTH:
            raise BadRequest(
                "MOVE_ID_INVALID", f"client_move_id must have 1 to {MAX_MOVE_ID_LENGTH} characters"
            )
        if client_move_id.startswith(clocks.RESERVED_PREFIX):
            raise BadRequest(
                "MOVE_ID_INVALID",
                f"client_move_id must not start with {clocks.RESERVED_PREFIX!r} (the referee's "
                "own moves: the clock's and its bots')",
            )
        move_bytes = records.encode(move)
        async with self._lock(game_id):
            fresh = False
            for _ in range(self.max_retries):
                table = await self._table(game_id, fresh=fresh)
                try:
                    seat = self._seat(table, token)
                except Unauthenticated as error:  # a token newer than the cached record?
                    if fresh or error.reason != "TOKEN_REVOKED":
                        raise
                    fresh = True
                    continue
                _check_move_game(table, move_game)
                key = records.move_key(seat, client_move_id)
                try:
                    self._check_movable(table, seat)
                    self._check_version(table, expected_version)
                    check_room(table.version, table.move_limit)
                    state, events = table.game.apply(table.state, seat, move)
                except (MoveError, BadRequest, RuleViolation, VersionConflict) as error:
                    if not fresh:  # the cached state may be behind: decide on the stored one
                        fresh = True
                        self.stats.count_retry()
                        continue
                    earlier = await self._earlier_result(table, seat, key, move_bytes)
                    if earlier is not None:
                        return earlier
                    raise (_rule_error(error) if isinstance(error, MoveError) else error) from None
                result, committed = await self._commit(
                    table,
                    seat,
                    state,
                    move_bytes,
                    client_move_id=client_move_id,
                    key=key,
                )
                if result.status is CommitStatus.OK:
                    table = committed
                    self._remember(table)
                    return self._submitted(table, state, events, seat)
                if result.status is CommitStatus.DUPLICATE:
                    assert result.record is not None
                    return await self._first_result(table, seat, move_bytes, result.record)
                if result.status is CommitStatus.MISSING:
                    self._tables.pop(game_id, None)
                else:
                    self.stats.count_conflict()
                self.stats.count_retry()
                fresh = True
            current = (await load_table(self.store, game_id)).version
            raise VersionConflict(
                "CONTENTION",
                "the game kept changing under this move; try again",
                {"current_version": str(current)},
            )

    async def _commit(
        self,
        table: Table,
        seat: int,
        state: Any,
        move_bytes: bytes,
        *,
        client_move_id: str,
        key: str,
    ) -> tuple[CommitResult, Table]:
        """Store ``seat``'s move that led to ``state`` at ``table.version + 1``; the table
        as committed (used only on OK). The chain head it makes is computed here from the
        table decided on, so the chain costs no extra round trip (see :mod:`service.domain.chain`);
        so are its clocks (service.domain.clocks), their next deadline indexed first."""
        version = table.version + 1
        now = self.now_ms()
        clocked = clock_after(
            table, state, seat, clocks.move_by(client_move_id), now, self.bot_delay_ms
        )
        clock = None if clocked.state is None else clocks.encode(clocked.state)
        await self._schedule(table.game_id, version, table.host_version, clocked.due_ms)
        entry = records.encode(
            records.LogEntry(version, seat, msgspec.Raw(move_bytes), client_move_id, now / 1000)
        )
        head = chain.link(table.head, entry)
        result = await self.store.commit(
            table.game_id,
            expected_version=table.version,
            state=records.encode(state),
            log_entry=entry,
            head=head,
            move_key=key,
            move_record=records.encode(records.MoveRecord(version)),
            finished=table.game.outcome(state) is not None,
            host_version=table.host_version,
            clock=clock,
        )
        committed = dataclasses.replace(
            table, version=version, state=state, head=head, clock=clock or table.clock
        )
        return result, committed

    def _lock(self, game_id: str) -> asyncio.Lock:
        """This process's lock of the game's moves."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def commit_for(
        self, table: Table, seat: int, move: Any, client_move_id: str
    ) -> Table | None:
        """The referee's own move for ``seat`` (the clock's default move or its bot's,
        ``client_move_id`` from :func:`service.domain.clocks.move_id`), decided on exactly
        ``table``: through the same compare-and-set as a player's move, so it applies only
        if nothing changed since (else None: a player's move or another replica came
        first, whose commit indexed its own deadline; a repeat of this very move, by
        another replica, is None too). The engine's error if the move is illegal there."""
        check_room(table.version, table.move_limit)
        state, _ = table.game.apply(table.state, seat, move)
        move_bytes = records.encode(move)
        key = records.move_key(seat, client_move_id)
        async with self._lock(table.game_id):
            result, committed = await self._commit(
                table,
                seat,
                state,
                move_bytes,
                client_move_id=client_move_id,
                key=key,
            )
        if result.status is not CommitStatus.OK:
            self._tables.pop(table.game_id, None)
            if result.status is CommitStatus.CONFLICT:
                self.stats.count_conflict()
            return None
        self._remember(committed)
        return committed

    async def _table(self, game_id: str, *, fresh: bool) -> Table:
        """The game as this process last stored or loaded it, or freshly loaded.

        Moves decide on the cached copy: they are serialised per game in this process and
        the store's compare-and-set catches any write by another process, after which the
        move is decided again on a fresh load. Reads check the copy first (:meth:`_current`).
        """
        table = None if fresh else self._tables.get(game_id)
        if table is None:
            table = await load_table(self.store, game_id)
        self._remember(table)
        return table

    async def _current(self, game_id: str) -> Table:
        """The game as stored now, for a read: this process's copy if the store's version
        and host version are still the copy's (one small read, with the present seats),
        else loaded. The state, log head, clocks and hosting record only change with one
        of the two, so a copy at both is the stored game; nothing is decoded again. Kept
        as the copy only if no move replaced the copy meanwhile (it may be older)."""
        table = cached = self._tables.get(game_id)
        stamp = None if table is None else await self.store.stamp(game_id)
        if table is None or stamp is None or stamp[:2] != (table.version, table.host_version):
            table = await load_table(self.store, game_id)
        elif stamp[2] != table.present:
            table = dataclasses.replace(table, present=stamp[2])
        if self._tables.get(game_id) is cached:
            self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        while len(self._tables) > self.cached_tables:
            self._tables.popitem(last=False)

    async def _earlier_result(
        self, table: Table, seat: int, key: str, move_bytes: bytes
    ) -> Submitted | None:
        stored = await self.store.move_record(table.game_id, key)
        if stored is None:
            return None
        return await self._first_result(table, seat, move_bytes, stored)

    @staticmethod
    def _check_version(table: Table, expected_version: int | None) -> None:
        if expected_version is None or expected_version == table.version:
            return
        if expected_version > table.version:
            raise BadRequest(
                "VERSION_AHEAD",
                f"expected_version {expected_version} is ahead of the game ({table.version})",
            )
        raise VersionConflict(
            "VERSION_MISMATCH",
            f"the game is at version {table.version}, not {expected_version}",
            {"current_version": str(table.version)},
        )

    async def _first_result(
        self, table: Table, seat: int, move_bytes: bytes, stored: bytes
    ) -> Submitted:
        """The answer the first submission of a repeated move id got, rebuilt by replay
        (``move_bytes``: the repeat's move, which must be the first one's)."""
        digest = records.move_digest(move_bytes)
        record = records.record_decoder.decode(stored)
        entries = await load_log(self.store, table, record.version)
        if record.first_digest(entries[record.version - 1].entry) != digest:
            raise BadRequest(
                "MOVE_ID_REUSED", "this client_move_id was already used for a different move"
            )
        _, steps = replay_log(table, entries)
        step = steps[record.version - 1]
        head = entries[record.version - 1].head
        return Submitted(
            record.version,
            project(table, step.state, record.version, seat, head),
            seen_events(table, step.state, step.events, seat),
            duplicate=True,
            finished=table.game.outcome(step.state) is not None,
            listed=table.hosting.listed,
        )

    def _submitted(self, table: Table, state: Any, events: list[Any], seat: int) -> Submitted:
        """The result of ``seat``'s move just committed as ``table``; its view projected
        only if asked for (views.Submitted)."""
        return Submitted(
            table.version,
            lambda: self.clocked(project(table, state, table.version, seat, table.head), table),
            seen_events(table, state, events, seat),
            duplicate=False,
            finished=table.game.outcome(state) is not None,
            listed=table.hosting.listed,
        )

    # --- watching --------------------------------------------------------------------------

    async def watch(
        self,
        game_id: str,
        token: str | None,
        after_version: int | None,
        *,
        seated: bool = False,
        revealed: bool = False,
    ) -> AsyncIterator[Update]:
        """The caller's updates after ``after_version`` (None: a snapshot first), then live.

        ``seated``: the caller must hold a seat (Play), as for a move; spectators may not.
        ``revealed``: the post-game reveal (watching.revealed_updates), for a caller who may
        watch, of a game whose history is public; before that FAILED_PRECONDITION
        GAME_NOT_OVER, checked after the caller and the version, so it tells nothing more.
        """
        table = await load_table(self.store, game_id)
        viewer = self._seat(table, token) if seated else self._viewer(table, token)
        if after_version is not None and not 0 <= after_version <= table.version:
            raise BadRequest(
                "VERSION_AHEAD" if after_version > table.version else "VERSION_INVALID",
                f"after_version must be between 0 and {table.version}",
            )
        if revealed:
            if not self._public(table):
                raise RuleViolation(
                    "GAME_NOT_OVER", "the post-game reveal is only for a game that is over"
                )
            return watching.revealed_updates(self, table, after_version)
        return watching.updates(self, table, viewer, after_version)
