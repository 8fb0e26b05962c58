"""The referee's use cases: create a game, read it, move in it, watch it.

A move is a decide function (``moving``) run by the table writer (service.app.writer),
which owns the lock, the compare-and-set and everything that must follow a write; the
reads answer from the writer's copy of the table when the store says it is current. It
talks to engines only through their :class:`~engines.base.GameDefinition` and raises only
:mod:`service.errors` exceptions. Servicers translate protobuf to these calls and back.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError
from engines.registry import GAMES
from engines.rng import commitment
from service.app import history, seats, watching
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
from service.app.writer import Move, TableWriter
from service.domain import clocks, hosting, records
from service.domain.auth import TokenSigner
from service.domain.move_limits import check_room, split_move_limit
from service.errors import (
    BadRequest,
    PermissionDenied,
    RefereeError,
    RuleViolation,
    VersionConflict,
    echo,
)
from service.storage.feed import Feed
from service.storage.games import GameStore
from service.storage.store import RedisStore
from service.storage.tables import (
    Table,
    clock_deadlines,
    clocks_of,
    load_log,
    load_table,
    replay_log,
)

MAX_MOVE_ID_LENGTH = 64
SEED_BYTES = 32


def _split_clock(options: dict[str, object]) -> tuple[records.ClockSpec | None, dict[str, object]]:
    """The table's clock (validated by the edge: service.edge.clock_proto.spec_from_proto) and the
    engine's options without it."""
    clock = options.get(clocks.CLOCK_OPTION)
    if clock is None:
        return None, options
    assert isinstance(clock, records.ClockSpec)
    return clock, {name: value for name, value in options.items() if name != clocks.CLOCK_OPTION}


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


def _check_movable(table: Table, seat: int) -> None:
    """Moves wait for the start, end at an abort, and a forfeited seat's player makes
    none (the clock plays it)."""
    host = table.hosting
    hosting.check_movable(host)
    if host.seats[seat].forfeited:
        raise RuleViolation("SEAT_FORFEITED", f"seat {seat} has forfeited")


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


def _check_move_id(client_move_id: str) -> None:
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


@dataclass(frozen=True)
class RatedTable:
    """What makes a table rated: the player ids of its first seats ("": a seat without
    one, not rated), and the tournament it belongs to ("": a lobby table)."""

    player_ids: tuple[str, ...] = ()
    tournament_id: str = ""

    def hosted(self, host: records.HostRecord) -> records.HostRecord:
        """``host`` rated, its first seats given their player ids."""
        if len(self.player_ids) > len(host.seats):
            raise BadRequest("PLAYER_ID_INVALID", "more player ids than seats")
        seats = list(host.seats)
        for seat, player_id in enumerate(self.player_ids):
            seats[seat] = msgspec.structs.replace(
                seats[seat], player_id=hosting.check_player_id(player_id)
            )
        return msgspec.structs.replace(
            host, seats=tuple(seats), rated=True, tournament_id=self.tournament_id
        )


class Referee:
    """The game use cases; every write goes through ``writer`` (service.app.writer)."""

    def __init__(
        self,
        writer: TableWriter,
        signer: TokenSigner,
        *,
        feed: Feed | None = None,
        allow_client_seeds: bool = False,
        new_id: Callable[[], str] = lambda: secrets.token_hex(12),
    ) -> None:
        self.writer = writer
        self.signer = signer
        self.allow_client_seeds = allow_client_seeds
        self._new_id = new_id
        if feed is None and isinstance(writer.store, RedisStore):
            feed = Feed(writer.store)
        self._feed = feed
        self._checkpoints = history.Checkpoints()

    @property
    def store(self) -> GameStore:
        return self.writer.store

    @property
    def feed(self) -> Feed:
        """The feed watchers follow games by (a referee on a store without one has none)."""
        if self._feed is None:
            raise RuntimeError("this referee's store has no feed: nothing can be watched")
        return self._feed

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
        rated: RatedTable | None = None,
    ) -> Created:
        """A new game; ``admit`` (the caller's quotas) is awaited with its id once the
        request is found valid, before anything is stored, and may refuse it. The last
        ``open_seats`` seats are left for LobbyService.JoinGame (service.app.lobby);
        ``presence`` makes the table show its seats' presence (a person sits there);
        ``programs`` are seats programs hold, which the no-show policy spares; ``rated``
        makes a rated table (service.app.rater), its seats' player ids given."""
        game = GAMES.get(game_name)
        if game is None:
            raise BadRequest(
                "GAME_UNKNOWN", f"unknown game {echo(game_name)}; known: {', '.join(sorted(GAMES))}"
            )
        move_limit, options = split_move_limit(game.default_move_limit, options)
        clock, options = _split_clock(options)
        try:
            config = game.make_config(seats, options)
        except InvalidConfigError as error:
            raise BadRequest(error.reason, error.message) from None
        seed = self._seed(seed)
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
        if rated is not None:
            host = rated.hosted(host)
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
        started, due = None, None
        if clock is not None and host.status == records.TABLE_LIVE:  # every seat held
            started = clocks.at_start(clock, seats, game.waiting_for(state), self.writer.now_ms())
            deadlines = clocks.deadlines(clock, started, clocks.Roles(), self.writer.bot_delay_ms)
            due = min(deadlines.values(), default=None)
        if not await self.writer.create(game_id, records.encode(state), meta, host, started, due):
            raise RefereeError("GAME_ID_TAKEN", "could not allocate a game id")
        tokens = [self.signer.issue(game_id, seat) for seat in range(seats - open_seats)]
        admin = self.signer.issue_admin(game_id)
        return Created(game_id, 0, meta.seed_sha256, tokens, meta, config, admin, host)

    def _seed(self, seed: bytes | None) -> bytes:
        """The client's seed where this referee takes one, else a fresh random one."""
        if not seed:
            return secrets.token_bytes(SEED_BYTES)
        if not self.allow_client_seeds:
            raise PermissionDenied(
                "CLIENT_SEEDS_DISABLED", "this referee does not accept client-chosen seeds"
            )
        if len(seed) > 64:
            raise BadRequest("SEED_TOO_LONG", "a seed has at most 64 bytes")
        return seed

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
        await self.writer.discard(game_id)

    # --- clocks ----------------------------------------------------------------------------

    def clocked(self, view: SeatView, table: Table) -> SeatView:
        """``view`` with the table's clocks, when it is at ``table``'s version."""
        if view.version != table.version:
            return view
        # Clocks run only while the table is live: an open table's seats have no deadline.
        live = table.hosting.status == records.TABLE_LIVE
        due = clock_deadlines(table, self.writer.bot_delay_ms) if live else {}
        if table.clock_spec is None and not due:
            return view
        shown = clocks.ClockView(table.clock_spec, clocks_of(table), due)
        return dataclasses.replace(view, clock=shown)

    # --- reading ---------------------------------------------------------------------------

    async def get_view(self, game_id: str, token: str | None) -> SeatView:
        table = await self.writer.current(game_id)
        viewer = seats.viewer(self.signer, table, token)
        return self.clocked(project(table, table.state, table.version, viewer, table.head), table)

    async def legal_moves(self, game_id: str, token: str | None) -> tuple[str, int, list[Any]]:
        table = await self.writer.current(game_id)
        seat = seats.seat(self.signer, table, token)
        host = table.hosting
        if host.status != records.TABLE_LIVE or host.seats[seat].forfeited:
            return table.game.name, table.version, []  # not started, aborted, forfeited
        if table.version >= table.move_limit:  # what SubmitMove would accept: nothing
            return table.game.name, table.version, []
        return table.game.name, table.version, table.game.legal_moves(table.state, seat)

    async def validate_move(
        self, game_id: str, token: str | None, move_game: str, move: Any
    ) -> tuple[int, RefereeError | None]:
        table = await self.writer.current(game_id)
        seat = seats.seat(self.signer, table, token)
        _check_move_game(table, move_game)
        try:
            _check_movable(table, seat)
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
        viewer = seats.viewer(self.signer, table, token)
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
        """``move`` by the caller's seat, through the table writer. A refused move that
        repeats a move id already applied (a retry whose first answer was lost) gets the
        first answer; a repeat that the store recognises gets it too."""
        _check_move_id(client_move_id)
        decided: list[tuple[Table, int]] = []  # the last table and seat decided on

        def moving(table: Table) -> Move:
            seat = seats.seat(self.signer, table, token)
            _check_move_game(table, move_game)
            decided.append((table, seat))
            _check_movable(table, seat)
            _check_version(table, expected_version)
            check_room(table.version, table.move_limit)
            try:
                state, events = table.game.apply(table.state, seat, move)
            except MoveError as error:
                raise _rule_error(error) from None
            return Move(seat, move, state, events, client_move_id)

        try:
            written = await self.writer.write(game_id, moving)
        except (BadRequest, RuleViolation, VersionConflict):
            if not decided:
                raise
            table, seat = decided[-1]
            key = records.move_key(seat, client_move_id)
            earlier = await self._earlier_result(table, seat, key, records.encode(move))
            if earlier is None:
                raise
            return earlier
        change = written.change
        assert isinstance(change, Move)
        if written.duplicate is not None:
            return await self._first_result(
                written.table, change.seat, change.encoded, written.duplicate
            )
        return self._submitted(written.table, change.state, change.events, change.seat)

    async def _earlier_result(
        self, table: Table, seat: int, key: str, move_bytes: bytes
    ) -> Submitted | None:
        stored = await self.store.move_record(table.game_id, key)
        if stored is None:
            return None
        return await self._first_result(table, seat, move_bytes, stored)

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
        over = table.game.outcome(step.state) is not None
        return Submitted(
            record.version,
            project(table, step.state, record.version, seat, head),
            seen_events(table, step.events, seat, over=over),
            duplicate=True,
            finished=over,
            listed=table.hosting.listed,
        )

    def _submitted(self, table: Table, state: Any, events: list[Any], seat: int) -> Submitted:
        """The result of ``seat``'s move just committed as ``table``; its view projected
        only if asked for (views.Submitted)."""
        over = table.game.outcome(state) is not None
        return Submitted(
            table.version,
            lambda: self.clocked(project(table, state, table.version, seat, table.head), table),
            seen_events(table, events, seat, over=over),
            duplicate=False,
            finished=over,
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
        viewer = (
            seats.seat(self.signer, table, token)
            if seated
            else seats.viewer(self.signer, table, token)
        )
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
