"""The table writer: the one unit of work through which every change of a stored game goes.

Moves, clock and bot moves, the no-show rule and every lobby and admin action (join, leave,
start, reissue, forfeit, hand to a bot, abort) are *decide* functions: each takes a
:class:`~service.storage.tables.Table` and returns the change it makes (a :class:`Move` or
a :class:`HostChange`), None when there is nothing to do, or raises a typed refusal. Only
:meth:`TableWriter.write` stores a change, and only :class:`TableWriter` calls the store's
writes (``tests/test_architecture.py`` checks it). For one game it:

1. takes the game's lock in this process (so six seats racing for chips, or fifty players
   for the last seat, queue here instead of spinning on conflicts);
2. decides on the process's copy of the table, or a fresh load; a refusal or "nothing to
   do" decided on the copy is decided again on the stored game before it is final (the
   copy may be behind);
3. indexes the changed table's next deadline *before* storing it (a crash after the commit
   loses no clock), links the move into the audit chain and stores the change with the
   store's compare-and-set (one Lua script in Redis); a conflict (another process wrote
   first) reloads and decides again, a bounded number of times;
4. keeps the committed table as the process's copy, and does everything that must follow
   a committed write: the lobby listing follows the table (and a table that ended, by any
   move, leaves it), the join code is spent once the table left the open state, and the
   end of a game (finished or aborted) is announced to ``ended`` (the creator's quotas).

Watchers need nothing here: the write's stream entry is their notification (persist, then
notify), which every process's feed (service.storage.feed) reads.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

import msgspec

from engines.errors import MoveError
from service.domain import chain, clocks, records
from service.errors import RefereeError, VersionConflict
from service.storage.deadlines import DeadlineIndex
from service.storage.games import CommitResult, CommitStatus, GameStore
from service.storage.join_codes import JoinCodes
from service.storage.lobby_listing import Listing, Summary
from service.storage.tables import Table, clock_after, clock_deadlines, load_table

# How long after a bot's seat becomes awaited the firer plays it (service.app.firer).
BOT_DELAY_MS = 300


@dataclass(frozen=True)
class Move:
    """A move decided for ``seat``: the engine's move, the state and events it led to, and
    the move id it is stored under (a player's own, or the clock's: clocks.move_id)."""

    seat: int
    move: Any
    state: Any
    events: list[Any]
    client_move_id: str

    @property
    def encoded(self) -> bytes:
        return records.encode(self.move)

    @property
    def key(self) -> str:
        return records.move_key(self.seat, self.client_move_id)


@dataclass(frozen=True)
class HostChange:
    """A new hosting record for the table (service.domain.hosting's transitions)."""

    hosting: records.HostRecord


Change: TypeAlias = Move | HostChange
Decide: TypeAlias = Callable[[Table], Change | None]
"""Takes the table as stored (or as this process last stored it) and returns its change,
None for nothing to do, or raises a RefereeError or an engine's MoveError."""


@dataclass(frozen=True)
class Written:
    """What :meth:`TableWriter.write` did: the table decided on, the table as it is now
    (committed, or the same when nothing was written), the change, and for a repeated
    move id the first move's stored record (nothing was written then)."""

    before: Table
    table: Table
    change: Change | None
    duplicate: bytes | None = None


class WriteStats(Protocol):
    """Where the writer reports contention (the metrics, or nothing)."""

    def count_conflict(self) -> None: ...

    def count_retry(self) -> None: ...


class _NoStats:
    def count_conflict(self) -> None:
        return None

    def count_retry(self) -> None:
        return None


@dataclass(frozen=True)
class Following:
    """What must follow a committed write, beyond the store: the lobby's listing and join
    codes, and who hears of a game's end (each gets its id)."""

    listing: Listing | None = None
    join_codes: JoinCodes | None = None
    ended: Sequence[Callable[[str], Awaitable[None]]] = ()


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class TableWriter:
    """The unit of work of every table (see the module); also the process's copy of each
    table it wrote or read, which the reads check against the store (:meth:`current`)."""

    def __init__(
        self,
        store: GameStore,
        *,
        deadlines: DeadlineIndex | None = None,
        following: Following = Following(),
        stats: WriteStats | None = None,
        now_ms: Callable[[], int] = wall_ms,
        bot_delay_ms: int = BOT_DELAY_MS,
        max_retries: int = 16,
        cached_tables: int = 4096,
    ) -> None:
        self.store = store
        # Where deadlines go (None: nowhere, no firer serves this store), the clocks' time
        # source (tests give a fake one) and the bots' delay.
        self.deadlines = deadlines
        self.following = following
        self.stats: WriteStats = stats or _NoStats()
        self.now_ms = now_ms
        self.bot_delay_ms = bot_delay_ms
        self.max_retries = max_retries
        self.cached_tables = cached_tables
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # --- writing -----------------------------------------------------------------------------

    async def write(self, game_id: str, decide: Decide) -> Written:
        """Decide and store one change of ``game_id`` (see the module): the refusal of the
        stored game raised, VersionConflict ``CONTENTION`` if it kept changing."""
        async with self._lock(game_id):
            fresh = False
            for _ in range(self.max_retries):
                table = await self.table(game_id, fresh=fresh)
                try:
                    change = decide(table)
                except (RefereeError, MoveError):
                    if fresh:
                        raise
                    change = None
                if change is None:
                    if fresh:
                        return Written(table, table, None)
                    fresh = True  # the copy may be behind: decide on the stored game
                    self.stats.count_retry()
                    continue
                result, committed = await self._store(table, change)
                if result.status is CommitStatus.OK:
                    self.remember(committed)
                    await self._follow(table, committed, change)
                    return Written(table, committed, change)
                if result.status is CommitStatus.DUPLICATE:
                    return Written(table, table, change, result.record)
                if result.status is CommitStatus.CONFLICT:
                    self.stats.count_conflict()
                self.forget(game_id)  # MISSING: the next load says GAME_NOT_FOUND
                self.stats.count_retry()
                fresh = True
            current = (await load_table(self.store, game_id)).version
            raise VersionConflict(
                "CONTENTION",
                "the game kept changing under this change; try again",
                {"current_version": str(current)},
            )

    async def _store(self, table: Table, change: Change) -> tuple[CommitResult, Table]:
        if isinstance(change, Move):
            return await self._commit(table, change)
        return await self._rehost(table, change.hosting)

    async def _commit(self, table: Table, move: Move) -> tuple[CommitResult, Table]:
        """Store ``move`` at ``table.version + 1`` with its clocks (their next deadline
        indexed first) and the chain head it makes, computed here from the table decided
        on, so the chain costs no extra round trip (service.domain.chain)."""
        version = table.version + 1
        now = self.now_ms()
        by = clocks.move_by(move.client_move_id)
        clocked = clock_after(table, move.state, move.seat, by, now, self.bot_delay_ms)
        clock = None if clocked.state is None else clocks.encode(clocked.state)
        await self._schedule(table.game_id, version, table.host_version, clocked.due_ms)
        entry = records.encode(
            records.LogEntry(
                version, move.seat, msgspec.Raw(move.encoded), move.client_move_id, now / 1000
            )
        )
        head = chain.link(table.head, entry)
        result = await self.store.commit(
            table.game_id,
            expected_version=table.version,
            state=records.encode(move.state),
            log_entry=entry,
            head=head,
            move_key=move.key,
            move_record=records.encode(records.MoveRecord(version)),
            finished=table.game.outcome(move.state) is not None,
            host_version=table.host_version,
            clock=clock,
            rated=table.hosting.rated,
        )
        committed = dataclasses.replace(
            table, version=version, state=move.state, head=head, clock=clock or table.clock
        )
        return result, committed

    async def _rehost(self, table: Table, host: records.HostRecord) -> tuple[CommitResult, Table]:
        """Store ``host`` as the table's record. A table that starts (OPEN to another
        status) with a clock or a seat the referee plays gets its clocks started with it,
        and a live table's next deadline is indexed first, so the clock or a bot takes
        over a seat that needs it."""
        encoded = records.encode(host)
        changed = dataclasses.replace(table, hosting=host, host_version=table.host_version + 1)
        clock = None
        starting = table.hosting.status == records.TABLE_OPEN != host.status
        if starting and (table.clock_spec is not None or clocks.roles(host).any):
            spec = table.clock_spec or records.ClockSpec()
            awaited = table.awaited(table.state)
            clock = clocks.encode(clocks.at_start(spec, table.meta.seats, awaited, self.now_ms()))
            changed = dataclasses.replace(changed, clock=clock)
        if host.status == records.TABLE_LIVE:
            await self.schedule_clock(changed)
        result = await self.store.change_host(
            table.game_id,
            expected_version=table.version,
            expected_host_version=table.host_version,
            host=encoded,
            clock=clock,
        )
        return result, changed

    async def _follow(self, before: Table, after: Table, change: Change) -> None:
        """Everything that must follow a committed write of ``before`` into ``after``."""
        host = after.hosting
        listing, codes = self.following.listing, self.following.join_codes
        if isinstance(change, HostChange) and host.status != records.TABLE_OPEN and codes:
            await codes.spend(after.game_id)
        ended = _ended(after)
        if host.listed and listing is not None:
            if ended:
                await listing.remove(after.meta.game, after.game_id)
            elif isinstance(change, HostChange):
                await listing.put(Summary.of(after.game_id, after.meta, host))
        if ended and not _ended(before):
            for hook in self.following.ended:
                await hook(after.game_id)

    # --- creating and discarding ----------------------------------------------------------

    async def create(
        self,
        game_id: str,
        state: bytes,
        meta: records.GameMeta,
        host: records.HostRecord,
        clock: clocks.ClockState | None,
        due_ms: int | None,
    ) -> bool:
        """Store a new game at version 0 (its first deadline indexed first) and list it
        when it is listed; False (nothing stored) if the id is taken."""
        await self._schedule(game_id, 0, 0, due_ms)
        stored = await self.store.create(
            game_id,
            state,
            records.encode(meta),
            host=records.encode(host),
            clock=None if clock is None else clocks.encode(clock),
        )
        if stored and host.listed and self.following.listing is not None:
            await self.following.listing.put(Summary.of(game_id, meta, host))
        return stored

    async def discard(self, game_id: str) -> None:
        """Remove every stored key of the game and forget this process's copy of it (a
        game created but never handed to anybody). A missing game is no error."""
        self.forget(game_id)
        await self.store.delete(game_id)

    # --- clocks ----------------------------------------------------------------------------

    async def _schedule(
        self, game_id: str, version: int, host_version: int, due_ms: int | None
    ) -> None:
        """Index the deadline of the game's state at ``version``/``host_version`` before
        that state is stored (service.storage.deadlines), so a crash after the commit loses
        none."""
        if due_ms is not None and self.deadlines is not None:
            await self.deadlines.schedule(game_id, version, host_version, due_ms)

    async def schedule_clock(self, table: Table) -> None:
        """Index the next deadline of ``table`` (the firer, for a seat not due yet)."""
        due = clock_deadlines(table, self.bot_delay_ms)
        earliest = min(due.values(), default=None)
        await self._schedule(table.game_id, table.version, table.host_version, earliest)

    # --- the process's copy ----------------------------------------------------------------

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def table(self, game_id: str, *, fresh: bool) -> Table:
        """The game as this process last stored or loaded it, or freshly loaded.

        Writes decide on the copy: they are serialised per game in this process and the
        store's compare-and-set catches any write by another process, after which the
        change is decided again on a fresh load."""
        table = None if fresh else self._tables.get(game_id)
        if table is None:
            table = await load_table(self.store, game_id)
        self.remember(table)
        return table

    async def current(self, game_id: str) -> Table:
        """The game as stored now, for a read: this process's copy if the store's version
        and host version are still the copy's (one small read, with the present seats),
        else loaded. The state, log head, clocks and hosting record only change with one
        of the two, so a copy at both is the stored game; nothing is decoded again. Kept
        as the copy only if no write replaced the copy meanwhile (it may be older)."""
        table = cached = self._tables.get(game_id)
        stamp = None if table is None else await self.store.stamp(game_id)
        if table is None or stamp is None or stamp[:2] != (table.version, table.host_version):
            table = await load_table(self.store, game_id)
        elif stamp[2] != table.present:
            table = dataclasses.replace(table, present=stamp[2])
        if self._tables.get(game_id) is cached:
            self.remember(table)
        return table

    def remember(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        while len(self._tables) > self.cached_tables:
            self._tables.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._tables.pop(game_id, None)


def _ended(table: Table) -> bool:
    """Whether the table's game is over: finished by its rules, or aborted."""
    return table.finished or table.hosting.status == records.TABLE_ABORTED
